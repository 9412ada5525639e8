"""What a creature in play carries, declared once for both engines and everything that reads it.

A creature in play (R3.5, R10.0) is its card and a handful of **marks**: its damage, whether it is
new, whether its Protection is spent, this turn's modifiers …  Each :class:`Mark` says what it is,
which rule sets it, what it goes back to when the turn ends (R3.12), and who else reads it:

=================  ======  ===========  ========  ========  =======================================
mark               kind    turn's end   scenario  observed  rule
=================  ======  ===========  ========  ========  =======================================
card               number  kept                             R3.5 the card in play
damage             number  0            yes                 R4.3, R5.5 damage taken this turn
new                flag    no           yes       yes       R3.5, R10.0 entered this turn
protection_used    flag    no           yes       yes       R6.4 its Protection cancelled a hit
took_turn          flag    no                     yes       R3.9 has had its turn in this siege
attack_mod         number  0                                R5.5 weaken / empower
granted            bits    0                                R5.5 grant
sprint_bonus       number  0                                R6.7
uid                number  kept                             R10.0 which creature this is
slot               number  -1                               R10.4 its place in a fixed siege order
aura_lost          list    empty                            R10.4 holders whose grant it lost
=================  ======  ===========  ========  ========  =======================================

Made from :data:`MARKS`, never written again by hand: the reference engine's
:class:`~clashkit.engine.state.Creature` (its slots, copy, repr and end-of-turn reset), the fast
engine's columns (``clashkit.fast.state.C_*``), its end-of-turn reset and new creature's row, the
converter between the two (``clashkit.fast.convert``), the keys a scenario file's lane entry may
carry (read and written, ``clashkit.engine.scenario``), and the marks the OpenSpiel and PettingZoo
observations hold (``clashkit.interop.encoding``).  A new mark is one line here, the rule that sets
it, and its docs.
"""

from __future__ import annotations

from dataclasses import dataclass

#: R10.4 ``aura``: the Aura holders whose grant one creature lost this turn, at most (the fast
#: engine's room for them; a position with more is refused).
MAX_LOST = 8


@dataclass(frozen=True)
class Mark:
    """One thing a creature in play carries besides its card's printed values."""

    name: str
    #: ``"number"``, ``"flag"`` (true or false), ``"bits"`` (abilities, R6) or ``"list"`` (creature uids).
    kind: str
    #: The rules that set and read it.
    rule: str
    #: R3.12: what it goes back to at the end of every turn; ``None``: kept from turn to turn.
    reset: int | None = None
    #: What a creature entering play (R3.5) starts with (``new`` is the entering's own choice).
    start: int = 0
    #: A scenario file's lane entry may set it (and a written scenario carries it when not ``start``).
    scenario: bool = False
    #: In the OpenSpiel and PettingZoo observations' ``marks`` (flags only).
    observed: bool = False

    @property
    def width(self) -> int:
        """Columns in the fast engine's row: a list is its length, then up to :data:`MAX_LOST` entries."""
        return 1 + MAX_LOST if self.kind == "list" else 1


MARKS: tuple[Mark, ...] = (
    Mark("card", "number", "R3.5"),
    Mark("damage", "number", "R4.3, R5.5", reset=0, scenario=True),
    Mark("new", "flag", "R3.5, R10.0", reset=0, start=1, scenario=True, observed=True),
    Mark("protection_used", "flag", "R6.4", reset=0, scenario=True, observed=True),
    Mark("took_turn", "flag", "R3.9", reset=0, observed=True),
    Mark("attack_mod", "number", "R5.5", reset=0),
    Mark("granted", "bits", "R5.5", reset=0),
    Mark("sprint_bonus", "number", "R6.7", reset=0),
    Mark("uid", "number", "R10.0"),
    Mark("slot", "number", "R10.4", reset=-1, start=-1),
    Mark("aura_lost", "list", "R10.4", reset=0),
)

#: The marks R3.12 resets at the end of every turn, in :data:`MARKS` order.
RESET = tuple(mark for mark in MARKS if mark.reset is not None)
#: The flags a scenario's lane entry may set (``damage`` is read on its own: it is checked against health).
SCENARIO_FLAGS = tuple(mark.name for mark in MARKS if mark.scenario and mark.kind == "flag")
#: The keys of a scenario's lane entry table.
SCENARIO_KEYS = frozenset({"card", *(mark.name for mark in MARKS if mark.scenario)})
#: The flags the interop observations hold, in order (their ``marks`` tensor's last axis).
OBSERVED = tuple(mark.name for mark in MARKS if mark.observed)
#: The flags a creature's repr and the text views list when set.
FLAGS = tuple(mark.name for mark in MARKS if mark.kind == "flag")


def columns() -> dict[str, int]:
    """Each mark's first column in the fast engine's creature row, in :data:`MARKS` order."""
    out, at = {}, 0
    for mark in MARKS:
        out[mark.name] = at
        at += mark.width
    return out


#: Columns of the fast engine's creature row.
WIDTH = sum(mark.width for mark in MARKS)

__all__ = [
    "FLAGS",
    "MARKS",
    "MAX_LOST",
    "OBSERVED",
    "RESET",
    "SCENARIO_FLAGS",
    "SCENARIO_KEYS",
    "WIDTH",
    "Mark",
    "columns",
]
