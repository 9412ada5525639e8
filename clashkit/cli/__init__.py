"""The ``clashkit`` command line.

Every command turns clashkit's own errors — malformed files, illegal actions,
bad options — into one line on stderr and exit status 2, with nothing on
stdout.  Each command lives in its own module under :mod:`clashkit.cli.commands`
and registers itself on :data:`main`.

The top layer: may import every layer below it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import click

from ..base.errors import ClashkitError


@contextmanager
def one_line_errors():
    """Turn clashkit's errors (and click's) into one line on stderr and exit status 2.

    The command line runs every command inside it; a script such as
    in ``benchmarks/`` can too, and then fails exactly like a command.
    """
    try:
        yield
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt) as e:  # Ctrl-C outside click's handling too
        from ..runs.workers import Terminated

        if isinstance(e, Terminated) or isinstance(e.__cause__, Terminated):  # SIGTERM (click: Abort)
            click.echo("clashkit: SIGTERM: stopped", err=True)
            sys.exit(143)
        click.echo("clashkit: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        click.echo(f"clashkit: error: {e.format_message()}", err=True)
        sys.exit(2)
    except ClashkitError as e:
        click.echo(f"clashkit: error: {e}", err=True)
        sys.exit(2)


def _usual_signals() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` and SIGTERM ends the process again (``clashkit``'s
    start-up handlers are replaced; a command that stops cleanly installs its own)."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: The environment variable under which the command line says, on stderr, that it has started:
#: a test that sends signals waits for it (a signal before it reaches the interpreter's own
#: start-up, which clashkit does not run).
STARTED_VARIABLE = "CLASHKIT_TEST_STARTED"
STARTED_LINE = "clashkit: started"


def _say_started() -> None:
    import os

    if os.environ.get(STARTED_VARIABLE) == "1":
        click.echo(STARTED_LINE, err=True)


class _Group(click.Group):
    """A click group whose errors are one readable line and exit status 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        # Said while the start-up handlers still hold (clashkit/__init__.py): a signal from now on
        # ends in one line, theirs until the usual handlers are back, then this one's.
        _say_started()
        with one_line_errors():
            _usual_signals()
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="clashkit")
def main() -> None:
    """Play, step through and simulate Clash of Decks.

    The rules, numbered as every message cites them (R6.7): `clashkit rules`,
    or docs/rules.md in the repository.
    """


def run() -> None:
    """The ``clashkit`` command (and ``python -m clashkit``): :data:`main` in this process.

    When the command is done, every object left is frozen out of Python's garbage
    collector (``gc.freeze``), so the interpreter's exit skips its last full
    collection over them: after a fast-engine run that collection walks every
    object numba's compiler left behind (``docs/design.md`` has its cost).
    Nothing is lost: output is flushed and atexit handlers run as before; only
    memory the process is about to give back is not freed object by object.
    In-process callers (tests, notebooks) call :data:`main`, which leaves their
    collector alone.
    """
    import gc

    try:
        main()
    finally:
        gc.freeze()


def _register() -> None:
    from .commands import register

    register(main)


_register()
