"""``simulate(jobs=2)`` from a plain script: the ``__main__`` guard the workers need, caught in one line."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from clashkit.base.errors import ClashkitError, WorkerStartError

CALL = 'simulate(6, "1", "2", "random", seed=7, jobs=2, progress=False)'


def run_script(tmp_path, body: str) -> subprocess.CompletedProcess:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120)


def test_a_script_without_the_guard_gets_one_clear_line(tmp_path):
    done = run_script(
        tmp_path,
        f"""\
        from clashkit.runs.simulate import simulate

        trace = {CALL}
        print(trace.games.height)
        """,
    )
    assert done.returncode == 1 and done.stdout == ""
    last = done.stderr.splitlines()[-1]
    assert last == (
        f"clashkit.base.errors.WorkerStartError: {tmp_path / 'script.py'}, line 3: simulate(jobs=2) starts worker "
        'processes that import this script again; put the call under `if __name__ == "__main__":` (or use jobs=1)'
    )
    # No worker was started: no bootstrapping error, no broken pool, a short traceback.
    assert "RuntimeError" not in done.stderr and "BrokenProcessPool" not in done.stderr
    assert len(done.stderr.splitlines()) < 12


@pytest.mark.parametrize(
    "body",
    [
        f"""\
        from clashkit.runs.simulate import simulate

        if __name__ == "__main__":
            print({CALL}.games.height)
        """,
        f"""\
        from clashkit.runs.simulate import simulate

        def main():
            return {CALL}

        if "__main__" == __name__:
            print(main().games.height)
        """,
    ],
)
def test_a_guarded_script_runs_its_workers(tmp_path, body):
    done = run_script(tmp_path, body)
    assert (done.returncode, done.stdout) == (0, "6\n"), done.stderr


def test_the_error_is_typed():
    assert issubclass(WorkerStartError, ClashkitError)
