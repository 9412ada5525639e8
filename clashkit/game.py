"""Whole games: setup (R2, R8.1), the game loop, and the end (R4.9, R8.7, R10.1).

:func:`new_duel` deals two 8-card hands with the keep leftmost (R2.2) and
flips the coin (R2.3); :func:`new_solo` builds the player's hand and the AI
pile (R8.1).  :func:`play` runs the loop: at every decision the active
player's policy chooses among the legal actions; the solo AI's turns play
themselves.  Every random draw comes from the state's one generator (R10.2).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import ATTACK, BEGIN_SIEGE, END_TURN
from .cards import CardSet, starter_set
from .engine import (
    LegalActions,
    apply,
    apply_unchecked,
    has_choice,
    legal_actions,
)
from .errors import DeckError
from .policies import Policy, get_policy
from .rules import Rules
from .siege import next_in_order, take_turn
from .state import OVER, SIEGE, SUMMON, GameState
from .turn import TURN_WIDTH, record_turn, start_turn
from .vocab import KEEP, Mode


def _ids(cards: CardSet, deck: Sequence[int | str], where: str) -> list[int]:
    out = []
    for card in deck:
        if isinstance(card, str):
            if card not in cards:
                raise DeckError(f"{where}: unknown card {card!r}")
            card = cards.id(card)
        out.append(card)
    return out


def deal_hand(state: GameState, deck: Sequence[int]) -> list[int]:
    """R2.2: shuffle the cards into a hand, then put the keep, Bastion side up, leftmost."""
    hand = list(deck)
    state.rng.shuffle(hand)
    return [KEEP, *hand]


def new_duel(
    deck_a: Sequence[int | str],
    deck_b: Sequence[int | str],
    *,
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
    first_player: int | None = None,
) -> GameState:
    """R2: a duel ready for the first player's first turn (6 mana, R2.3)."""
    cards = cards if cards is not None else starter_set()
    state = GameState(cards, rules, mode=Mode.DUEL, seed=seed, record=record)
    a, b = _ids(cards, deck_a, "deck A"), _ids(cards, deck_b, "deck B")
    for name, deck in (("A", a), ("B", b)):
        if len(deck) != 8:
            raise DeckError(f"deck {name}: a duel hand has 8 cards (R2.1), got {len(deck)}")
    state.hands[0] = deal_hand(state, a)
    state.hands[1] = deal_hand(state, b)
    begin(state, first_player)
    return state


def new_solo(
    player_deck: Sequence[int | str],
    ai_cards: Sequence[int | str],
    *,
    cards: CardSet | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
) -> GameState:
    """R8.1: the player's hand, the AI pile (shuffled, keep at the bottom); the player starts
    with 6 mana unless ``ai_first`` (R8.9)."""
    cards = cards if cards is not None else starter_set()
    state = GameState(cards, rules, mode=Mode.SOLO, seed=seed, record=record)
    deal_solo(state, player_deck, ai_cards)
    return state


def deal_solo(state: GameState, player_deck: Sequence[int | str], ai_cards: Sequence[int | str]) -> None:
    """R8.1 on a fresh solo state: the player's hand (R2.2), the AI pile shuffled with its keep
    at the bottom, then the first turn — all with the state's generator (R10.2)."""
    mine, ai = _ids(state.cards, player_deck, "player deck"), _ids(state.cards, ai_cards, "AI cards")
    if len(mine) != 8:
        raise DeckError(f"player deck: a hand has 8 cards (R8.1), got {len(mine)}")
    if not ai:
        raise DeckError("AI cards: the AI pile needs at least one card (R8.1)")
    state.hands[0] = deal_hand(state, mine)
    state.hands[1] = []
    pile = list(ai)
    state.rng.shuffle(pile)
    state.pile = [*pile, KEEP]
    state.forts[1] = state.rules.solo.ai_starts_as_fort
    begin(state, 1 if state.rules.solo.ai_first else 0)


def begin(state: GameState, first_player: int | None = None) -> None:
    """R2.3: the coin flip (unless decided), then the first turn's mana phase."""
    if first_player is None:
        first_player = state.rng.randrange(2)
    state.first_player = state.active = first_player
    state.turn = 1
    start_turn(state)


def play(
    state: GameState,
    policy_a: Policy | str,
    policy_b: Policy | str | None = None,
    *,
    max_steps: int | None = None,
    trusted: bool = True,
) -> GameState:
    """Play ``state`` to its end (or ``max_steps`` decisions) with one policy per player.

    In solo mode ``policy_b`` is ignored: the AI plays itself.  With
    ``trusted`` the actions a policy returns are assumed to come from the
    legal list it was given and are not checked again.

    The loop saves work without changing the game: a player with no choice
    (:func:`~clashkit.engine.has_choice`) is not asked, a siege with nothing
    to cast runs straight through (R3.11), ``greedy`` gets a lazily built
    legal list, and a policy with an ``act`` method (see :class:`~clashkit.policies.Policy`)
    carries out its own choices.  ``tests/test_game_loop.py`` checks that the
    games are those of the plain loop that lists, asks and checks every step.
    """
    policies = (get_policy(policy_a), get_policy(policy_b if policy_b is not None else policy_a))
    # R4.6: the owner chooses; the solo AI makes no choices, so its returns keep the default order.
    state.return_order = lambda s, owner, cards: (
        cards if s.solo and owner == 1 else policies[owner].order_returns(s, owner, cards)
    )
    lazy = tuple(getattr(p, "lazy_legal", False) for p in policies)
    actors = (_actor(policies[0]), None if state.solo else _actor(policies[1])) if trusted else (None, None)
    steps = 0
    # Whether the active player is known to have a choice in this siege: attacks change
    # neither their hand, nor their mana, nor that creatures are in play (their attackers
    # stay), so once true it stays true until they cast or the siege ends.
    choice_in_siege = False
    while state.phase != OVER:
        active = state.active
        act = actors[active]
        # A policy that acts itself is also called in a summon phase with nothing to play,
        # where it begins the siege (see Policy.act).
        if not (choice_in_siege or (act is not None and state.phase == SUMMON)) and not has_choice(state):
            if state.phase == SUMMON:
                action = BEGIN_SIEGE
            else:
                found = next_in_order(state)
                if found is None:
                    action = END_TURN
                elif max_steps is None:
                    # R3.11: nothing to cast in this window means nothing later in this siege
                    # either (the active hand and mana stay as they are), so the rest of the
                    # siege order runs without asking anyone.
                    while found is not None:
                        take_turn(state, found)
                        found = None if state.phase == OVER else next_in_order(state)
                    if state.phase == OVER:
                        break
                    action = END_TURN  # and still nothing to cast: the turn ends
                else:
                    action = ATTACK
        elif act is not None:
            if max_steps is None:
                # The policy goes on for as long as it is known to have the choice: the rest
                # of the summon phase (nobody else acts in it), or the siege until it casts.
                if state.phase == SUMMON:
                    while state.phase == SUMMON:
                        act(state)
                else:
                    while act(state) and state.phase == SIEGE:
                        pass
                choice_in_siege = False
                continue
            choice_in_siege = act(state) and state.phase == SIEGE
            steps += 1
            if steps >= max_steps:
                break
            continue
        else:
            if lazy[active]:
                legal = LegalActions(state)
                action = policies[active].choose(state, legal)
                if trusted and action is ATTACK and legal.found is not None:
                    # The next creature in the order, as found for the lazy list's last item.
                    take_turn(state, legal.found)
                    choice_in_siege = state.phase == SIEGE
                    steps += 1
                    if max_steps is not None and steps >= max_steps:
                        break
                    continue
            else:
                action = policies[active].choose(state, legal_actions(state))
        choice_in_siege = False
        if trusted:
            apply_unchecked(state, action)
        else:
            apply(state, action)
        steps += 1
        if max_steps is not None and steps >= max_steps:
            break
    if state.phase == OVER:  # also when the last allowed step ended the game
        finish(state)
    return state


def _actor(policy: Policy):
    """``policy.act`` when its class defines it together with ``choose`` (a subclass that
    chooses differently gets the plain path), else ``None``."""
    for klass in type(policy).__mro__:
        if "choose" in vars(klass):
            return policy.act if vars(klass).get("act") is not None else None
    return None


def finish(state: GameState) -> None:
    """Close the last turn's row when the game ended inside a turn (R4.9)."""
    if state.turn_log is not None and len(state.turn_log) // TURN_WIDTH < state.turn:
        record_turn(state)
