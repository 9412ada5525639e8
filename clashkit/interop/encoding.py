"""Actions as integers and the acting player's fair view as text and as a vector.

**Actions.**  :func:`~clashkit.engine.legality.legal_actions` lists plays in hand
order — a creature into the upper then the lower lane (R3.5), an incantation
on every creature in play, A before B, upper before lower, bridge outward
(R5.1) — then the one action that moves the turn on.  The integer of an
action keeps that order, so the legal integers, sorted as OpenSpiel wants
them, are clashkit's legal actions in clashkit's order, one to one::

    play at hand index i (0–4; R3.2: the playable cards are among the five leftmost places)
        creature into lane l:             i * 4P + l
        incantation on (player, lane, k): i * 4P + player * 2P + lane * P + k
    siege, attack, end:                   5 * 4P + 0, 1, 2

``P`` (:attr:`Table.positions`) is the most creatures one side of one lane can
hold: the most cards one player owns in the game (8 in a duel, the AI's cards
in solo).

**What a player can know** is :mod:`clashkit.policies.sight`'s fair view: its
own hand in order, everything in play, the opponent's cards as a set, the
places of the opponent's cards it has seen (``seen``: the adapters add every
card the opponent plays and every creature of it in play, at every step), hand
sizes and keeps; not the order of the opponent's cards never seen since the
deal, nor the order of the solo AI pile (the *hidden slots*).
:func:`observation_text` and :func:`observation_vector` read only that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..base.cards import CardSet
from ..base.layout import OBSERVED
from ..base.vocab import KEEP, LANES, PLAYERS, Ability, abilities_of
from ..engine.actions import ATTACK, BEGIN_SIEGE, END_TURN, Action, Play, Proceed, play
from ..engine.events import PHASES
from ..engine.state import LAST_TURN_WORDS, OVER, SIEGE, SUMMON, GameState
from ..policies import sight

#: R3.2: a playable card is at hand index 0–4 (the four leftmost besides the keep).
INDICES = 5
#: The actions that move the turn on, after every play.
PROCEEDS: tuple[Proceed, ...] = (BEGIN_SIEGE, ATTACK, END_TURN)
#: The header's length (:attr:`Table.pieces`).
_HEADER = 20


@dataclass(frozen=True)
class Table:
    """The sizes of one game's encodings: the card set, the mode, ``positions`` (``P``),
    ``row`` (the longest row of the opponent a player sees: a hand of 9, or the AI pile
    with its keep) and the turn limit (R10.1)."""

    cards: CardSet
    solo: bool
    positions: int
    row: int
    turn_limit: int

    @property
    def stride(self) -> int:
        return 4 * self.positions

    @property
    def num_actions(self) -> int:
        return INDICES * self.stride + len(PROCEEDS)

    @property
    def hand_slots(self) -> int:
        """A player's hand: its 8 cards at most, and the keep (R2.1, R4.4: a card returns to its owner)."""
        return 9

    @property
    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        """The vector's parts in order, each with its shape (OpenSpiel's observer shows them by name)."""
        n, sides = len(self.cards), (4, self.positions)
        return [
            ("header", (_HEADER,)),  # phase, whose turn, clock, mana, keeps, hand-health, siege lane, solo marks
            ("hand", (self.hand_slots, n + 1)),  # own hand left to right: card one-hot, keep
            ("opponent", (self.row, n + 2)),  # the opponent's hand or AI pile: card one-hot, keep, hidden
            ("hidden_cards", (n,)),  # how many of each card the hidden slots hold (a public set)
            ("discard", (n,)),  # R8.5: the AI discard, face up
            # own upper, own lower, their upper, their lower; bridge outward: present, card one-hot
            ("creatures", (*sides, n + 1)),
            ("abilities", (*sides, len(Ability))),  # printed and granted abilities (R6), rulebook order
            ("marks", (*sides, len(OBSERVED))),  # clashkit.base.layout.OBSERVED: new, protection used, had its turn
            ("numbers", (*sides, 5)),  # damage, health, attack, attack modifier, Sprint's bonus (tenths)
        ]

    @property
    def vector_size(self) -> int:
        return sum(int(np.prod(shape)) for _, shape in self.pieces)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named, shaped views of a flat vector of :attr:`vector_size`."""
        out, at = {}, 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            out[name] = vector[at : at + size].reshape(shape)
            at += size
        return out


# --- Actions ---------------------------------------------------------------------------------


def action_id(table: Table, action: Action) -> int:
    """The integer of a clashkit action (see the module docstring)."""
    if isinstance(action, Proceed):
        return INDICES * table.stride + PROCEEDS.index(action)
    base = action.index * table.stride
    if action.target is None:
        assert action.lane is not None
        return base + action.lane
    player, lane, position = action.target
    return base + player * 2 * table.positions + lane * table.positions + position


def action_of(table: Table, state: GameState, number: int) -> Action:
    """The clashkit action an integer names in ``state`` (the card at the index decides whether
    the rest is a lane or a target)."""
    index, code = divmod(int(number), table.stride)
    if index >= INDICES:
        return PROCEEDS[code]
    card = state.hands[state.active][index]
    name = state.cards.names[card] if card != KEEP else "KEEP"
    if card != KEEP and state.cards.is_creature[card]:
        return play(name, index, code)
    player, rest = divmod(code, 2 * table.positions)
    lane, position = divmod(rest, table.positions)
    return play(name, index, None, (player, lane, position))


def legal_ids(table: Table, legal: list[Action]) -> list[int]:
    """The integers of ``legal`` (clashkit's legal actions), ascending because clashkit's order is."""
    return [action_id(table, a) for a in legal]


# --- What a player can know -----------------------------------------------------------------


def note_sightings(state: GameState, seen: tuple[set[int], set[int]]) -> None:
    """Add every creature in play to what its owner's opponent has seen (R1.7)."""
    for player in (0, 1):
        for lane in state.lanes[player]:
            for creature in lane:
                seen[1 - player].add(creature.card)


def note_play(state: GameState, action: Action, seen: tuple[set[int], set[int]]) -> None:
    """A card played is seen by the opponent (R3.3: plays are made face up)."""
    if isinstance(action, Play):
        seen[1 - state.active].add(state.hands[state.active][action.index])


def hidden_slots(state: GameState, player: int, seen: set[int]) -> list[int]:
    """The places of the opponent's row (hand, or in solo the AI pile) ``player`` cannot know."""
    return sight.hidden_slots(state, player, seen)


def _name(cards: CardSet, card: int, fort: bool) -> str:
    if card == KEEP:
        return "FORT" if fort else "BASTION"
    return cards.names[card]


def _lane_text(state: GameState, player: int, lane: int) -> str:
    names = state.cards.names
    entries = []
    for creature in state.lanes[player][lane]:
        marks = [f"{creature.damage}dmg"] if creature.damage else []
        marks += [m for m in OBSERVED if getattr(creature, m)]
        if creature.attack_mod:
            marks.append(f"{creature.attack_mod:+d}atk")
        if creature.granted:
            marks += [f"+{a.value}" for a in abilities_of(creature.granted)]
        if creature.sprint_bonus:
            marks.append(f"sprint+{creature.sprint_bonus}")
        entries.append(names[creature.card] + (f"({','.join(marks)})" if marks else ""))
    return f"  {PLAYERS[player].value} {LANES[lane].value:5}: bridge | {' '.join(entries)}"


def observation_text(state: GameState, player: int, seen: set[int]) -> str:
    """The fair view of ``player`` as text: hidden cards are ``?``, their cards listed as a set."""
    cards = state.cards
    me, them = player, 1 - player
    head = f"turn {state.turn}, {PLAYERS[state.active].value} active, {PHASES[state.phase].value}, mana {state.mana}"
    if state.winner is not None:
        head += f", {PLAYERS[state.winner].value} has won"
    lines = [head, f"you are {PLAYERS[me].value}"]
    lines.append(
        f"{PLAYERS[me].value} hand: {' '.join(_name(cards, c, state.forts[me]) for c in state.hands[me])}"
        f" (hand-health {state.hand_health(me)})"
    )
    row = sight.hidden_row(state, me) if not (state.solo and me == 1) else state.hands[them]
    hidden = set(hidden_slots(state, me, seen)) if not (state.solo and me == 1) else set()
    shown = " ".join("?" if i in hidden else _name(cards, c, state.forts[them]) for i, c in enumerate(row))
    held = ", ".join(sorted(cards.names[row[i]] for i in hidden)) or "-"
    what = "AI pile" if state.solo and them == 1 else "hand"
    lines.append(f"{PLAYERS[them].value} {what}: {shown} (hand-health {state.hand_health(them)}; hidden: {held})")
    if state.solo:
        discard = " ".join(cards.names[c] for c in state.discard) or "-"
        lines.append(f"AI discard: {discard}; AI last turn: {LAST_TURN_WORDS[state.ai_last_turn]}")
    for p in (me, them):
        for lane in (0, 1):
            lines.append(_lane_text(state, p, lane))
    return "\n".join(lines)


def observation_vector(table: Table, state: GameState, player: int, seen: set[int]) -> np.ndarray:
    """The fair view of ``player`` as a flat ``float32`` vector of :attr:`Table.vector_size`,
    ``player``'s side first (the parts: :attr:`Table.pieces`)."""
    out = np.zeros(table.vector_size, dtype=np.float32)
    fill_vector(table, state, player, seen, out)
    return out


def fill_vector(table: Table, state: GameState, player: int, seen: set[int], out: np.ndarray) -> None:
    """:func:`observation_vector` written into ``out`` (zeroed first); :attr:`Table.pieces` is the layout."""
    out[:] = 0.0
    v = table.views(out)
    n = len(table.cards)
    me, them = player, 1 - player
    header = v["header"]
    header[0] = state.phase == SUMMON
    header[1] = state.phase == SIEGE
    header[2] = state.phase == OVER
    header[3] = state.active == me
    header[4] = state.turn / table.turn_limit
    header[5] = state.mana / 10.0
    header[6] = state.forts[me]
    header[7] = state.forts[them]
    header[8] = state.hand_health(me) / 10.0
    header[9] = state.hand_health(them) / 10.0
    header[10 + min(state.siege_lane, 2)] = state.phase == SIEGE
    header[13] = state.first_player == me
    header[14] = state.solo
    header[15 + state.ai_last_turn] = state.solo
    header[18] = state.winner == me
    header[19] = state.winner == them
    hand = v["hand"]
    for i, card in enumerate(state.hands[me][: table.hand_slots]):
        hand[i, n if card == KEEP else card] = 1.0
    if state.solo and me == 1:
        row, hidden = state.hands[them], set()
    else:
        row, hidden = sight.hidden_row(state, me), set(hidden_slots(state, me, seen))
    opponent, hidden_cards = v["opponent"], v["hidden_cards"]
    for i, card in enumerate(row[: table.row]):
        if i in hidden:
            opponent[i, n + 1] = 1.0
            hidden_cards[card] += 1.0
        else:
            opponent[i, n if card == KEEP else card] = 1.0
    for card in state.discard:
        v["discard"][card] += 1.0
    creatures, abilities, marks, numbers = v["creatures"], v["abilities"], v["marks"], v["numbers"]
    for side, (p, lane) in enumerate(((me, 0), (me, 1), (them, 0), (them, 1))):
        for k, creature in enumerate(state.lanes[p][lane][: table.positions]):
            creatures[side, k, 0] = 1.0
            creatures[side, k, 1 + creature.card] = 1.0
            bits = creature.mask | creature.granted
            for b in range(len(Ability)):
                abilities[side, k, b] = (bits >> b) & 1
            marks[side, k] = [getattr(creature, m) for m in OBSERVED]
            numbers[side, k] = (
                creature.damage / 10.0,
                creature.health / 10.0,
                creature.attack / 10.0,
                creature.attack_mod / 10.0,
                creature.sprint_bonus / 10.0,
            )


__all__ = [
    "INDICES",
    "PROCEEDS",
    "Table",
    "action_id",
    "action_of",
    "fill_vector",
    "hidden_slots",
    "legal_ids",
    "note_play",
    "note_sightings",
    "observation_text",
    "observation_vector",
]
