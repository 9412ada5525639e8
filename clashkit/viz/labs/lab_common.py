"""What the labs' controllers share: the events table with the rule of each step, the
action menu's order and labels, a history of states to step back to."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from ...base import LANES, PLAYERS, CardSet, TargetSide
from ...base.errors import UnknownCardError
from ...engine import EVENT_FIELDS, GameState, NoEffect, Play, Proceed, format_place, no_effect
from ...show import describe_event, event_dicts
from ...show.render import ability_word

#: The rule each kind of event applies (the field table of :mod:`clashkit.engine.events`).
RULE_OF_EVENT = {kind.value: spec.rule for kind, spec in EVENT_FIELDS.items()}

_EVENT_COLUMNS = ["step", "turn", "player", "phase", "kind", "rule", "what happened"]


def events_table(state: GameState, start: int = 0) -> pl.DataFrame:
    """The events of ``state`` from row ``start`` on: step, turn, player, phase, kind, the rule
    it applies and a sentence (a small frame for one game, not a trace of many)."""
    every = event_dicts(state)  # the rules read the events before ``start`` too (a Bloodlust attack)
    rows = every[start:]
    if not rows:
        return pl.DataFrame(schema={c: pl.Int64 if c in ("step", "turn") else pl.String for c in _EVENT_COLUMNS})
    return pl.DataFrame(
        {
            "step": [e["step"] for e in rows],
            "turn": [e["turn"] for e in rows],
            "player": [e["player"] for e in rows],
            "phase": [e["phase"] for e in rows],
            "kind": [e["kind"] for e in rows],
            "rule": _rules(every, state.cards)[start:],
            "what happened": [describe_event(e) for e in rows],
        }
    )


def _rules(rows: list[dict], cards: CardSet) -> list[str]:
    """The rule of each event; an attack's damage beyond its primary target is Splash (R6.1) or
    Pierce (R6.2) and a second attack in one siege is Bloodlust (R6.6), told apart by
    :func:`clashkit.show.render.ability_word` as the readable account tells them."""
    out = []
    for i, event in enumerate(rows):
        ability = ability_word(rows, i)
        if ability is not None:
            out.append(ability[1])
        elif event["kind"] == "damage" and event["card"] in cards and not cards.card(event["card"]).is_creature:
            out.append("R5.5")
        else:
            out.append(rule_of(event, cards))
    return out


def rule_of(event: dict, cards: CardSet) -> str:
    """The rule an event (:func:`clashkit.show.render.event_dicts`) applies."""
    kind = event["kind"]
    if kind == "attack" and event["target_card"] in ("BASTION", "FORT"):
        return "R4.2"
    if kind == "card_returned" and event["target_card"] in cards:
        if not cards.card(event["target_card"]).is_creature:
            return "R5.2"
    if kind == "creature_moved" and event["amount"] == 0:
        return "R5.5"  # shift
    return RULE_OF_EVENT.get(kind, "")


def on_meant_side(state: GameState, action) -> bool:
    """Whether ``action`` is not an incantation aimed at the side its effect is not meant for
    (R5.5: ``enemy`` effects at the opponent's creatures, ``ally`` at one's own; ``any``
    either way)."""
    if not isinstance(action, Play) or action.target is None:
        return True
    card = state.cards.card(action.card)
    ally = action.target[0] == state.active
    return card.target is TargetSide.ANY or (card.target is TargetSide.ALLY) == ally


def menu_order(state: GameState, actions: Sequence) -> list:
    """Legal actions in the order a menu offers them, so that the first is never one a click
    would regret: plays on the side their effect is meant for (R5.5), then moving the turn on
    (siege, attack, end), then incantations aimed at the other side."""

    def group(action) -> int:
        if isinstance(action, Proceed):
            return 1
        return 0 if on_meant_side(state, action) else 2

    return sorted(actions, key=group)


_PROCEED_WORDS = {
    "siege": "begin the siege (R1.6)",
    "attack": "the next creature's turn (R3.9)",
    "end": "end the turn (R3.12)",
}


def action_label(state: GameState, action) -> str:
    """An action as a menu shows it: ``METEORITE → B's GNOME (B.upper.1)``, ``OGRE into the
    upper lane``, ``begin the siege (R1.6)``; an incantation on the side its effect is not
    meant for says so."""
    if isinstance(action, Proceed):
        return _PROCEED_WORDS.get(action.step, action.step)
    card = state.cards.card(action.card)
    cost = f"{card.cost} mana"
    if action.target is None:
        return f"{action.card} into the {LANES[action.lane]} lane · {cost}"
    player, lane, position = action.target
    target = state.cards.names[state.lanes[player][lane][position].card]
    who = "your" if player == state.active else f"{PLAYERS[player]}'s"
    meant = "enemies" if card.target is TargetSide.ENEMY else "your own creatures"
    warn = "" if on_meant_side(state, action) else f" · meant for {meant} (R5.5)"
    why = no_effect(state, state.cards.id(action.card), player, lane, position)
    if why is not None:
        warn += f" · no effect: {_NO_EFFECT_WORDS[why]}"
    return f"{action.card} ({card.effect_text}) → {who} {target} at {format_place(*action.target)} · {cost}{warn}"


#: How an incantation menu marks a target the incantation would change nothing on (R5.4, R5.5).
_NO_EFFECT_WORDS = {
    NoEffect.INDESTRUCTIBLE: "Indestructible (R5.4)",
    NoEffect.AMOUNT_ZERO: "its amount is 0 (R5.5)",
    NoEffect.NOTHING_TO_HEAL: "no damage to heal (R5.5)",
    NoEffect.HAS_IT_ALREADY: "has it already (R5.5)",
}


def _log_len(state: GameState) -> int:
    return len(state.log) if state.log is not None else 0


class _History:
    """Snapshots for stepping back: ``push`` before a step, ``pop`` to undo it."""

    def __init__(self) -> None:
        self._snapshots: list[tuple] = []

    def push(self, *snapshot) -> None:
        self._snapshots.append(snapshot)

    def pop(self) -> tuple:
        return self._snapshots.pop()

    def clear(self) -> None:
        self._snapshots.clear()

    def __len__(self) -> int:
        return len(self._snapshots)


def _card_names(cards: CardSet, names: Sequence[str]) -> list[str]:
    out = []
    for name in names:
        name = str(name).strip().upper()
        if name not in cards:
            raise UnknownCardError(f"unknown card {name!r}")
        out.append(name)
    return out
