"""Whole games with policies named as the command line names them (``"greedy"``, ``"search:budget=64"``).

:func:`new_game` sets a duel up in any format (R7), the policies making the
draft picks and the constructed choices; :func:`play` runs the game loop
(:func:`clashkit.engine.loop.run`) with them.  The plain constructors are in
:mod:`clashkit.engine.setup` (``new_duel``, ``new_solo``, re-exported here).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.cards import CardSet, starter_set
from ..base.errors import OptionError
from ..base.limits import check, shown
from ..base.rules import Rules
from ..base.vocab import Mode
from ..engine import formats
from ..engine.formats import CONSTRUCTED, DRAFT, DeckSpec, check_first_player, format_of, parse_deck
from ..engine.loop import finish, run
from ..engine.setup import begin, deal_hand, deal_solo, new_duel, new_solo
from ..engine.state import GameState
from ..policies import Policy, get_policy


def play(
    state: GameState,
    policy_a: Policy | str,
    policy_b: Policy | str | None = None,
    *,
    max_steps: int | None = None,
    until_turn: int | None = None,
    trusted: bool = True,
) -> GameState:
    """Play ``state`` to its end with one policy per player, by name (``"greedy"``,
    ``"search:budget=64"``) or as objects; returns it.  The game loop is
    :func:`clashkit.engine.loop.run`, whose docstring says what it does and what the options mean."""
    policies = get_policy(policy_a), get_policy(policy_b if policy_b is not None else policy_a)
    return run(state, *policies, max_steps=max_steps, until_turn=until_turn, trusted=trusted)


def new_game(
    deck_a: str | DeckSpec | Sequence[str],
    deck_b: str | DeckSpec | Sequence[str],
    policy_a: Policy | str = "greedy",
    policy_b: Policy | str = "greedy",
    *,
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
    mirror: bool = False,
) -> tuple[GameState, str]:
    """A duel in the first player's first turn, and the name of its format.

    The state is created first; the draft (R7.2) and the constructed choices
    (R7.3), made by the policies, then draw from ``state.rng``, the hands are
    shuffled (R2.2) and the first player chosen (R2.3) — by the coin, or with
    ``rules.first_player = "last_drafter"`` in a draft, the player who took the
    draft's last card.  For two fixed decks the game is the same as
    :func:`clashkit.engine.setup.new_duel` with the same seed::

        >>> state, fmt = new_game("1", "2", "greedy", "greedy", seed=7)
        >>> fmt, state.hand_health(0), state.hand_health(1)
        ('preconstructed', 8, 8)
    """
    cards = cards if cards is not None else starter_set()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed {shown(seed)} must be a whole number (R10.2)")
    check("seed", seed, "seed", OptionError)
    rules = Rules.coerce(rules)
    spec_a = deck_a if isinstance(deck_a, DeckSpec) else parse_deck(deck_a, cards, side="A")
    spec_b = deck_b if isinstance(deck_b, DeckSpec) else parse_deck(deck_b, cards, side="B")
    fmt = format_of(spec_a, spec_b, mirror=mirror)
    check_first_player(rules, fmt)
    state = GameState(cards, rules, mode=Mode.DUEL, seed=seed, record=record)
    first_player = None
    result: formats.Draft | formats.Constructed
    if fmt == DRAFT:
        pa, pb = get_policy(policy_a), get_policy(policy_b)
        result = formats.draft(cards, pa.pick, pb.pick, state.rng)
        a, b = result.a, result.b
        if state.rules.first_player == "last_drafter":
            first_player = result.last_drafter
    elif fmt == CONSTRUCTED:
        pa, pb = get_policy(policy_a), get_policy(policy_b)
        result = formats.constructed(cards, (pa.choose_ten, pb.choose_ten), (pa.ban, pb.ban), state.rng)
        a, b = result.a, result.b
    else:
        a, b = cards.ids(spec_a.names), cards.ids(spec_b.names)
    state.hands[0] = deal_hand(state, a)
    state.hands[1] = deal_hand(state, b)
    begin(state, first_player)
    return state, fmt


__all__ = ["deal_solo", "finish", "new_duel", "new_game", "new_solo", "play"]
