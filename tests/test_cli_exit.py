"""How the ``clashkit`` command ends: the console script and ``python -m clashkit`` run
:func:`clashkit.cli.run`, which freezes what is left out of the garbage collector once the
command is done (its exit then skips a last full collection), with the command's output
and exit status as :data:`clashkit.cli.main` gives them; ``main`` itself, which tests and
notebooks call in-process, leaves the caller's collector alone."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest
from click.testing import CliRunner

from clashkit.base.rulebook import rule
from clashkit.cli import main

#: The entry points, each started the way the installed command starts it; an atexit handler
#: registered first runs last and prints how many objects the exit found frozen.
STARTS = {
    "console script": (
        "from importlib.metadata import entry_points; "
        "(script,) = entry_points(group='console_scripts', name='clashkit'); script.load()()"
    ),
    "python -m clashkit": "import runpy; runpy.run_module('clashkit', run_name='__main__')",
}


def _started(start: str, *args: str) -> subprocess.CompletedProcess:
    probe = (
        "import atexit, gc, sys; "
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count(), file=sys.stderr)); "
        f"sys.argv = ['clashkit', *{list(args)!r}]; {start}"
    )
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)


def _frozen(done: subprocess.CompletedProcess) -> int:
    *_, last = done.stderr.splitlines()
    assert last.startswith("frozen at exit: "), done.stderr
    return int(last.rsplit(" ", 1)[1])


@pytest.mark.parametrize("start", sorted(STARTS))
def test_a_finished_command_exits_with_its_objects_frozen(start):
    done = _started(STARTS[start], "rules", "R6.2")
    assert done.returncode == 0
    assert done.stdout == str(rule("R6.2")) + "\n"
    assert _frozen(done) > 1000  # every module and object of the run, not a handful


@pytest.mark.parametrize("start", sorted(STARTS))
def test_a_refused_command_keeps_its_one_line_and_status_2(start):
    done = _started(STARTS[start], "rules", "R99.9")
    assert done.returncode == 2
    assert done.stdout == ""
    error, _ = done.stderr.splitlines()
    assert error.startswith("clashkit: error: ") and "R99.9" in error
    assert _frozen(done) > 1000


def test_main_in_process_leaves_the_callers_collector_alone():
    before = gc.get_freeze_count()
    result = CliRunner().invoke(main, ["rules", "R6.2"])
    assert result.exit_code == 0
    assert gc.get_freeze_count() == before
