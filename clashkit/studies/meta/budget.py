"""How many decks a meta study searches and how many games it plays: given outright, or set from
a time budget by a timing probe.

A study has three phases (:mod:`clashkit.studies.meta.study`): the search (``evaluations`` decks,
each against the starter decks on ``search_games`` seeds), the field's round robin (``n`` seeds a
pairing, fresh) and the card values (``value_games`` seeds).  :func:`from_budget` times a few
pairings here, in CPU seconds (a pairing costs a start-up and a cost a game, measured apart with
two sizes), and spends :data:`SHARES` of the budget on the phases.  The games then depend on the
machine, so the sizes it chose are printed, and giving them back (``--evaluations``, ``-n``,
``--value-games``) repeats the study exactly on any machine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...base.errors import OptionError
from ...base.limits import check, shown
from ...base.rng import Rng
from .games import SEARCH, phase_seeds, play_pairings
from .space import Deck, DeckSpace

#: Decks of the field besides the starter decks: the search's best, the equilibrium's candidates.
TOP = 16
#: Seeds a searched deck plays each starter deck on (in both seats).
SEARCH_GAMES = 32
#: The budget's shares: search, field, card values.
SHARES = (0.55, 0.2, 0.25)
#: The share of the asked time the phases are planned to fill (the rest: start-up, the
#: equilibrium's resampling, frames).
USABLE = 0.8
#: Bounds of the sizes a budget sets.
N_RANGE = (50, 2000)
VALUE_GAMES_RANGE = (8, 500)
LEAST_EVALUATIONS = 32
#: Each size's range (:data:`clashkit.base.limits.LIMITS`).
LIMITS_OF = {"evaluations": "evaluations", "n": "games", "value_games": "games", "search_games": "games", "top": "top"}


@dataclass(frozen=True, slots=True)
class Sizes:
    """A study's size: decks searched, games a pairing in each phase, decks in the field."""

    evaluations: int
    n: int
    value_games: int
    search_games: int = SEARCH_GAMES
    top: int = TOP

    def __post_init__(self) -> None:
        for name, limit in LIMITS_OF.items():
            value = getattr(self, name)
            check(limit, value, f"meta: {name}", OptionError)
            if value < 1:
                raise OptionError(f"meta: {name}: must be at least 1, not {shown(value)}")

    def options(self) -> str:
        """The command-line options that repeat this size."""
        return f"--evaluations {self.evaluations} -n {self.n} --value-games {self.value_games} --top {self.top}"


@dataclass(frozen=True, slots=True)
class Probe:
    """CPU seconds a pairing costs: ``start`` once, plus ``game`` a game."""

    start: float
    game: float

    def seconds(self, pairings: float, games: float) -> float:
        return pairings * self.start + games * self.game


def probe(space: DeckSpace, shared: tuple, seed: int, gauntlet: Sequence[Deck], dealt=None) -> Probe:
    """Time random decks against the ``gauntlet`` here, on 4 and then 32 seeds a pairing (``dealt``:
    the format's dealer, :meth:`clashkit.studies.meta.games.Arena.dealt`)."""
    rng = Rng(seed)
    pairings = tuple((space.random_deck(rng), deck) for deck in gauntlet)
    if dealt is not None:
        pairings = tuple(dealt(a, b) for a, b in pairings)
    play_pairings(shared, pairings[:1], phase_seeds(seed, SEARCH, 1))  # loads the engine
    times = []
    for games in (4, 32):
        started = time.process_time()
        play_pairings(shared, pairings, phase_seeds(seed, SEARCH, games))
        times.append(time.process_time() - started)
    game = max((times[1] - times[0]) / (len(pairings) * 28), 1e-7)
    return Probe(max(times[0] / len(pairings) - 4 * game, 0.0), game)


def from_budget(seconds: float, cost: Probe, *, workers: int, cards: int, gauntlet: int, top: int = TOP) -> Sizes:
    """The sizes that fill ``seconds`` on ``workers`` processes at the probe's ``cost``."""
    core_seconds = seconds * workers * USABLE
    search, field, values = (share * core_seconds for share in SHARES)
    per_deck = cost.seconds(2 * gauntlet, 2 * gauntlet * SEARCH_GAMES)
    evaluations = max(LEAST_EVALUATIONS, int(search / per_deck))
    decks = top + gauntlet
    pairings = decks * (decks - 1)
    n = _within((field / pairings - cost.start) / cost.game, N_RANGE)
    value_pairings = (cards + 1) * top * (decks - 1) * 2
    value_games = _within((values / value_pairings - cost.start) / cost.game, VALUE_GAMES_RANGE)
    return Sizes(evaluations, n, value_games, top=top)


def seconds_for(sizes: Sizes, cost: Probe, *, workers: int, cards: int, gauntlet: int) -> float:
    """The wall seconds ``sizes`` should take on ``workers`` processes at the probe's ``cost``."""
    decks = sizes.top + gauntlet
    search = cost.seconds(2 * gauntlet * sizes.evaluations, 2 * gauntlet * sizes.evaluations * sizes.search_games)
    field = cost.seconds(decks * (decks - 1), decks * (decks - 1) * sizes.n)
    value_pairings = (cards + 1) * sizes.top * (decks - 1) * 2
    values = cost.seconds(value_pairings, value_pairings * sizes.value_games)
    return (search + field + values) / workers


def _within(value: float, bounds: tuple[int, int]) -> int:
    return int(np.clip(value, *bounds))


__all__ = ["SEARCH_GAMES", "TOP", "Probe", "Sizes", "from_budget", "probe", "seconds_for"]
