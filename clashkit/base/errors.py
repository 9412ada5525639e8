"""The errors clashkit raises.

Two families, as in python-chess: *malformed input* (a card file, a scenario, a
deck, an option that cannot be read) and *illegal actions* (well-formed, but
the rules forbid them).  Both are ``ValueError`` subclasses and both carry one
readable line; the command line prints it and exits with status 2.
"""

from __future__ import annotations


class ClashkitError(ValueError):
    """Base class of every error clashkit raises on purpose."""


class InputError(ClashkitError):
    """Malformed input: the message names the place (file, row, column, key)."""


class CardFileError(InputError):
    """A card file (``docs/cards.md``) that cannot be loaded."""


class ScenarioError(InputError):
    """A scenario file (``docs/scenarios.md``) that cannot be loaded."""


class OptionError(InputError):
    """An unknown rules option or solo setting, or a value out of range (R10.3, R8.9)."""


class UnknownCardError(InputError, KeyError):
    """A card name the card set does not have; the message names it and a close name.  Also a
    ``KeyError``, as a lookup by name that fails is in Python."""

    __str__ = InputError.__str__  # one plain line, not KeyError's quoted one


class DeckError(InputError):
    """A deck that breaks its format (R7)."""


class UnknownRuleError(InputError):
    """An R-number that ``docs/rules.md`` does not have; the message lists close numbers."""


class WorkerStartError(ClashkitError):
    """Worker processes cannot be started safely, e.g. ``simulate(jobs=2)`` in a script without its
    ``if __name__ == "__main__":`` guard."""


class WorkerError(ClashkitError):
    """A worker process that died while a run played (killed by a signal, out of memory): the run
    stopped, the parts it finished are kept."""


class IllegalActionError(ClashkitError):
    """A well-formed action the rules forbid; ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, message: str, *, where: str = "") -> None:
        self.rule = rule
        self.reason = message
        text = f"{rule}: {message}"
        super().__init__(f"{where}: {text}" if where else text)


class OutputError(ClashkitError):
    """A run's output folder that cannot be written, or is being written by another run."""


class RunFolderError(InputError):
    """A run folder whose files do not match its manifest (mixed, partial or altered)."""


class ClusterError(ClashkitError):
    """A Dask cluster that cannot be used: no scheduler at the address, no worker, workers with
    another clashkit, or the ``cluster`` extra not installed."""
