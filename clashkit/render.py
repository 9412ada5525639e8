"""Showing a state and its events to people as text and JSON-ready dicts (the HTML table is :mod:`clashkit.board`).

Nothing here changes a state.  :func:`state_dict` is the per-player object of
``clashkit siege --json`` (``interfaces.md`` §3); :func:`event_dicts` turns an
event log into named fields; :func:`describe_event` and
:func:`describe_state` are the readable account.
"""

from __future__ import annotations

from . import events as ev
from .state import LAST_TURN_WORDS, PHASES, GameState
from .vocab import KEEP, LANES, PLAYERS


def card_name(state: GameState, card: int, player: int | None = None) -> str:
    """A card id's name; the keep is written ``BASTION`` or ``FORT``."""
    if card == KEEP:
        return "FORT" if player is not None and state.forts[player] else "BASTION"
    return state.cards.names[card]


def player_dict(state: GameState, player: int) -> dict:
    """One player's part of ``siege --json``: hand (or AI pile and discard), keep, hand-health, lanes."""
    out: dict = {}
    if state.solo and player == 1:
        out["pile"] = [card_name(state, c, 1) for c in state.pile]
        out["discard"] = [card_name(state, c) for c in state.discard]
        out["last_turn"] = LAST_TURN_WORDS[state.ai_last_turn]
    else:
        out["hand"] = [card_name(state, c, player) for c in state.hands[player]]
    out["keep"] = state.keep(player).value
    out["hand_health"] = state.hand_health(player)
    for lane in (0, 1):
        out[LANES[lane].value] = [
            {"card": state.cards.names[c.card], "damage": c.damage} for c in state.lanes[player][lane]
        ]
    return out


def state_dict(state: GameState) -> dict:
    """The whole ``siege --json`` object: winner, both players, the events."""
    return {
        "winner": None if state.winner is None else PLAYERS[state.winner].value,
        "A": player_dict(state, 0),
        "B": player_dict(state, 1),
        "events": event_dicts(state),
    }


def event_dicts(state: GameState, start: int = 0) -> list[dict]:
    """The events of ``state.log`` from row ``start`` on, with words instead of codes
    (:func:`clashkit.events.decode`), each with its ``step``."""
    if state.log is None:
        return []
    names = state.cards.names
    return [{"step": step, **ev.decode(row, names)} for step, row in enumerate(state.log.rows(start), start=start)]


def describe_event(event: dict) -> str:
    """One event (from :func:`event_dicts`) as a sentence."""
    e = event
    who, kind = e["player"], e["kind"]
    place = f"{e['lane']}.{e['position']}" if e["lane"] is not None and e["position"] is not None else ""
    target = f"{e['target_player']}'s {e['target_card']}" if e["target_card"] else ""
    match kind:
        case "turn_started":
            return f"turn {e['turn']}: {who}'s turn begins"
        case "mana_gained":
            return f"{who} gains {e['amount']} mana"
        case "card_played":
            where = f"on {target}" if e["target_card"] else f"into the {e['lane']} lane"
            return f"{who} plays {e['card']} (hand index {e['position']}) {where}; {e['mana_left']} mana left"
        case "creature_entered":
            return f"{e['target_player']}'s {e['card']} enters {place}"
        case "incantation_resolved":
            return f"{e['card']} resolves on {target} at {place}"
        case "siege_started":
            return f"{who}'s siege begins"
        case "attack_skipped":
            return f"{e['target_player']}'s {e['card']} at {place} cannot attack (R3.10)"
        case "creature_moved":
            return f"{e['target_player']}'s {e['card']} moves to {place}"
        case "attack":
            return f"{who}'s {e['card']} at {place} attacks {target} for {e['amount']}"
        case "damage":
            return f"{target} at {place} takes {e['amount']} damage (from {e['card']})"
        case "protection_used":
            return f"{target}'s Protection stops {e['amount']} damage"
        case "creature_destroyed":
            return f"{target} at {place} is destroyed"
        case "card_returned":
            return f"{e['target_card']} returns to {e['target_player']}'s hand (index {e['position']})"
        case "card_discarded":
            return f"{e['target_card']} goes to the AI discard"
        case "keep_moved":
            health = e["hand_health_a"] if e["target_player"] == "A" else e["hand_health_b"]
            return f"{e['target_player']}'s keep moves {e['amount']} right (hand-health {health})"
        case "keep_flipped":
            return f"{e['target_player']}'s Bastion is destroyed: it flips to the Fort"
        case "ai_reveal":
            return f"the AI reveals {e['card']} for the {e['lane']} lane (total so far {e['amount']})"
        case "ai_mill":
            return f"{e['target_card']} is milled from the AI pile ({e['amount']} above the keep)"
        case "ai_reshuffle":
            return f"the AI discard is shuffled into a new pile of {e['amount']}"
        case "ai_last_turn":
            return "the AI's last turn is " + ("pending" if e["amount"] == 1 else "under way")
        case "regeneration":
            return "end of turn: every creature regenerates"
        case "game_won":
            return f"{e['target_player']} wins"
        case "game_unfinished":
            return "turn limit reached: the game is unfinished (R10.1)"
    return kind


def _side_text(state: GameState, player: int) -> list[str]:
    d = player_dict(state, player)
    name = PLAYERS[player].value
    if "hand" in d:
        first = f"{name} hand: {' '.join(d['hand'])}  (keep {d['keep']}, hand-health {d['hand_health']})"
    else:
        first = (
            f"{name} AI pile: {' '.join(d['pile'])}  (keep {d['keep']}, {d['hand_health']} above it); "
            f"discard: {' '.join(d['discard']) or '-'}"
        )
    lines = [first]
    for lane in LANES:
        entries = [f"{c['card']}" + (f"({c['damage']})" if c["damage"] else "") for c in d[lane.value]]
        lines.append(f"  {lane.value:5}: bridge | {' '.join(entries)}")
    return lines


def describe_state(state: GameState) -> str:
    """The table as text: both hands (or the AI pile), both sides of both lanes, mana."""
    head = f"turn {state.turn}, {PLAYERS[state.active].value} active, {PHASES[state.phase].value}, mana {state.mana}"
    if state.winner is not None:
        head += f" — {PLAYERS[state.winner].value} has won"
    return "\n".join([head, *_side_text(state, 0), *_side_text(state, 1)])

