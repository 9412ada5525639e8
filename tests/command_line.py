"""The command line as the tests call it: in this process, and the one line a refused command
says (R-numbers and places are the callers' to check)."""

from __future__ import annotations

from click.testing import CliRunner

from clashkit.cli import main


def cli(*args: str):
    """``clashkit ARGS`` in this process (stdout and stderr apart)."""
    return CliRunner().invoke(main, list(args))


def one_line_exit_2(result, *pieces: str) -> str:
    """The one ``clashkit: error:`` line of a refused command (exit 2, nothing on stdout),
    holding every piece."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clashkit: error: "), lines
    for piece in pieces:
        assert piece in lines[0], lines[0]
    return lines[0]
