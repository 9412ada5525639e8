"""Showing a state and its events to people as text and JSON-ready dicts (the HTML table is :mod:`clashkit.show.board`).

Nothing here changes a state.  :func:`state_dict` is the per-player object of
``clashkit siege --json`` (``docs/scenarios.md``); :func:`event_dicts` turns an
event log into named fields, with a short "why" and its rule where a line
needs one; :func:`describe_event` and :func:`describe_state` are the readable
account.
"""

from __future__ import annotations

from ..base.vocab import KEEP, LANES, PLAYERS, Effect, Keep
from ..engine import events as ev
from ..engine.solo import pile_damage
from ..engine.state import LAST_TURN_WORDS, PHASES, GameState


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
    (:func:`clashkit.engine.events.decode`), each with its ``step``.

    ``why`` is a short clause with its rule where a line would otherwise leave
    a reader guessing (an attack for more than the card's attack, damage that
    is lost, a creature that moved before it was destroyed, …), else ``None``;
    it is worked out from the events before it, so the whole log is read.
    """
    if state.log is None:
        return []
    names = state.cards.names
    out = [{"step": step, **ev.decode(row, names)} for step, row in enumerate(state.log.rows())]
    for i in range(start, len(out)):
        out[i]["why"] = _why(state, out, i)
    return out[start:]


def describe_event(event: dict) -> str:
    """One event (from :func:`event_dicts`) as a sentence, with its ``why`` when it has one."""
    text = _event_text(event)
    why = event.get("why")
    if not why:
        return text
    if event["kind"] == "no_effect":  # the reason is the line's point: "ZAP has no effect: …"
        return f"{text}: {why}"
    return f"{text[:-1]}; {why})" if text.endswith(")") else f"{text} ({why})"


def _event_text(event: dict) -> str:
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
            return f"{e['target_player']}'s {e['card']} at {place} cannot attack"
        case "creature_moved":
            if e["amount"]:
                passed = "creature" if e["amount"] == 1 else "creatures"
                return f"{e['target_player']}'s {e['card']} sprints to {place} past {e['amount']} {passed}"
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
        case "no_effect":
            return f"{e['card']} has no effect"
    return kind


# --- Why: a short clause with its rule, read from the events before ---------------------------

_TURN_EDGES = ("turn_started", "regeneration")


def _why(state: GameState, events: list[dict], i: int) -> str | None:
    e = events[i]
    match e["kind"]:
        case "attack":
            return _attack_why(state, events, i)
        case "creature_moved" if e["amount"]:
            return f"+{e['amount']} damage on its attacks this siege, R6.7"
        case "attack_skipped":
            if "rage" in state.cards.card(e["card"]).abilities:
                return "new this turn, and its Rage finds no creature to attack, R6.3"
            return "it entered play this turn, R3.10"
        case "damage":
            clauses = [ability_word(events, i)]
            card = e["target_card"]
            if card in state.cards and e["amount"] > state.cards.card(card).health:
                clauses.append((f"more than its health {state.cards.card(card).health}: the excess is lost", "R4.3"))
            return "; ".join(f"{text}, {rule}" for text, rule in filter(None, clauses)) or None
        case "creature_destroyed":
            return _moved_why(state, events, i)
        case "keep_moved":
            return _keep_lost_why(events, i)
        case "keep_flipped":
            if state.solo and e["target_player"] == PLAYERS[1].value:
                return "alone in the AI pile, R8.7"
            return "and moves to the leftmost place of the hand, R4.8"
        case "ai_mill":
            return _mill_lost_why(events, i)
        case "no_effect":
            return no_effect_why(state, e)
    return None


def no_effect_why(state: GameState, e: dict) -> str:
    """Why a ``no_effect`` event's incantation changed nothing, with its rule (R5.4, R5.5, R8.4)."""
    target = f"{e['target_player']}'s {e['target_card']}"
    match ev.NoEffect(e["amount"]):
        case ev.NoEffect.INDESTRUCTIBLE:
            return f"{target} is Indestructible (R5.4, R6.5)"
        case ev.NoEffect.AMOUNT_ZERO:
            return f"{state.cards.card(e['card']).effect_text} changes nothing (R5.5)"
        case ev.NoEffect.NOTHING_TO_HEAL:
            return f"{target} has no damage to heal (R5.5)"
        case ev.NoEffect.HAS_IT_ALREADY:
            return f"{target} has {str(state.cards.card(e['card']).grants).capitalize()} already (R5.5)"
    return f"no creature of {e['target_player']}'s in the {e['lane']} lane to aim at (R8.4)"


def _sprint_bonus(events: list[dict], i: int) -> int:
    """R6.7: the places the attacker of event ``i`` ran past earlier in this siege."""
    e = events[i]
    for j in range(i - 1, -1, -1):
        before = events[j]
        if before["kind"] in (*_TURN_EDGES, "siege_started"):
            break
        if before["kind"] == "creature_moved" and before["amount"] and before["card"] == e["card"]:
            if before["target_player"] == e["player"] and before["lane"] == e["lane"]:
                return before["amount"]
    return 0


def _attack_why(state: GameState, events: list[dict], i: int) -> str | None:
    """Why an attack deals other than the card's attack: each term of R4.1's sum with its rule
    (Sprint's bonus, R6.7; a weaken or an empower named with the incantation that gave it, R5.5;
    the floor at 0, R4.1), R8.9's reduction only where the solo setting reduces this attack, and
    a Bloodlust attack named as such (R6.6)."""
    e = events[i]
    printed = state.cards.attack[state.cards.id(e["card"])]  # a creature: its attack (R1.3)
    on_keep = e["target_card"] in ("BASTION", "FORT")
    on_ai_pile = state.solo and on_keep and e["target_player"] == PLAYERS[1].value
    sprint = _sprint_bonus(events, i)
    if on_keep and not on_ai_pile and state.rules.keep_distance == "attack":
        sprint = 0  # R10.4: the keep moves by the attack value, Sprint's bonus left out
    terms: list[tuple[str, str]] = [(f"+{sprint} from Sprint", "R6.7")] if sprint else []
    modifiers = _modifiers(state, events, i)
    terms += [(f"{amount:+d} from {name}'s {effect}", "R5.5") for name, effect, amount in modifiers]
    total = printed + sprint + sum(amount for _, _, amount in modifiers)
    damage = max(total, 0)
    if total < 0:
        terms.append(("floored at 0", "R4.1"))
    by_player = state.solo and e["player"] == PLAYERS[0].value
    if by_player and (on_ai_pile or state.rules.solo.ai_reduced_scope == "all"):
        reduced = pile_damage(state, damage)
        if reduced != damage:
            terms.append((f"{reduced - damage:+d} for reduced damage to the AI{' pile' if on_keep else ''}", "R8.9"))
            damage = reduced
    if damage != e["amount"]:  # a term these events do not show: only the difference is certain
        terms.append((f"{e['amount'] - damage:+d} from attack modifiers", "R4.1"))
    if terms:
        terms[0] = (f"attack {printed}, {terms[0][0]}", terms[0][1])
    again = ability_word(events, i)
    if again is not None:
        terms.append(again)
    return "; ".join(f"{text}, {rule}" for text, rule in terms) or None


def _modifiers(state: GameState, events: list[dict], i: int) -> list[tuple[str, str, int]]:
    """R5.5: the weakens and empowers on the attacker of event ``i`` this turn, oldest first, as
    (incantation, effect, signed amount); one that had no effect (R5.4) is left out, and so is
    one from before the creature (re-)entered play (R10.0)."""
    e = events[i]
    found: list[tuple[str, str, int]] = []
    for j in range(i - 1, -1, -1):
        before = events[j]
        kind = before["kind"]
        if kind in _TURN_EDGES:
            break
        if (
            before["target_player"] != e["player"]
            or before["card" if kind == "creature_entered" else "target_card"] != e["card"]
        ):
            continue
        if kind == "creature_entered":
            break
        if kind != "incantation_resolved" or before["card"] not in state.cards:
            continue
        if j + 1 < len(events) and events[j + 1]["kind"] == "no_effect":
            continue
        effect = state.cards.card(before["card"]).effect
        if effect is Effect.EMPOWER:
            found.append((before["card"], str(effect), before["amount"]))
        elif effect is Effect.WEAKEN:
            found.append((before["card"], str(effect), -before["amount"]))
    return found[::-1]


def ability_word(events: list[dict], i: int) -> tuple[str, str] | None:
    """The ability behind event ``i`` where the line alone does not show it, as (words, rule):
    an attack's damage to the creature beside its target (Splash, R6.1) or behind it (Pierce,
    R6.2), and a creature's second attack in one siege (Bloodlust, R6.6); else ``None``.

    The one place that names them, for the readable account (``clashkit siege``) and the labs'
    events table alike.
    """
    e = events[i]
    if e["kind"] == "damage":  # the attack it comes from is the event before its hits
        j = i - 1
        while j >= 0 and events[j]["kind"] in ("damage", "protection_used"):
            j -= 1
        hit = events[j] if j >= 0 else None
        if hit is None or hit["kind"] != "attack" or hit["card"] != e["card"]:
            return None
        if hit["target_player"] != e["target_player"] or (e["lane"], e["position"]) == (hit["lane"], 0):
            return None
        if e["lane"] != hit["lane"]:
            return ("Splash: the creature at the same place in the other lane", "R6.1")
        return ("Pierce: the creature behind the target", "R6.2")
    if e["kind"] == "attack":
        for j in range(i - 1, -1, -1):
            before = events[j]
            if before["kind"] in (*_TURN_EDGES, "siege_started"):
                return None
            if before["kind"] == "attack" and before["card"] == e["card"] and before["player"] == e["player"]:
                return ("it attacks again: Bloodlust", "R6.6")
    return None


def _keep_lost_why(events: list[dict], i: int) -> str | None:
    """R4.8: the damage beyond the rightmost place is lost (a Fort's owner has lost anyway)."""
    e = events[i]
    player = e["target_player"]
    health = e["hand_health_a"] if player == "A" else e["hand_health_b"]
    if health or (e["keep_a"] if player == "A" else e["keep_b"]) == Keep.FORT.value:
        return None
    hit = next((events[j] for j in range(i - 1, -1, -1) if events[j]["kind"] == "attack"), None)
    if hit is None or hit["target_card"] not in ("BASTION", "FORT"):
        return None
    lost = hit["amount"] - e["amount"]
    return f"the other {lost} damage is lost, R4.8" if lost > 0 else None


def _mill_lost_why(events: list[dict], i: int) -> str | None:
    """R8.6: milling stops at the keep; the rest of the damage is lost."""
    if events[i]["amount"] or (i + 1 < len(events) and events[i + 1]["kind"] == "ai_mill"):
        return None
    milled = 0
    for j in range(i, -1, -1):
        if events[j]["kind"] == "ai_mill":
            milled += 1
        elif events[j]["kind"] == "attack":
            lost = events[j]["amount"] - milled
            return f"the other {lost} damage is lost, R8.6" if lost > 0 else None
        else:
            return None
    return None


def _moved_why(state: GameState, events: list[dict], i: int) -> str | None:
    """A destroyed creature that moved this turn: where it stood before its last move, and why it moved.

    Walks back through this turn's events to the last move of its side of the
    lane that concerns it: a gap closing in front (R4.5), a Sprint (R6.7), a
    shift (R5.5).
    """
    e = events[i]
    player, lane, card, position = e["target_player"], e["lane"], e["target_card"], e["position"]
    for j in range(i - 1, -1, -1):
        before = events[j]
        kind = before["kind"]
        if kind in _TURN_EDGES:
            return None
        if before["target_player"] != player or before["lane"] != lane:
            continue
        if kind == "creature_entered" and before["position"] == position:
            return None
        if kind == "creature_moved" and before["amount"]:  # Sprint: k -> 0, and 0..k-1 -> 1..k
            if position == 0 and before["card"] == card:
                return f"it was at {lane}.{before['amount']} until it sprinted, R6.7"
            if 1 <= position <= before["amount"]:
                return f"it was at {lane}.{position - 1} until a Sprint passed it, R6.7"
        elif kind == "creature_moved" and before["position"] == position and before["card"] == card:
            return "it was shifted there from the other lane, R5.5"
        elif (
            before["position"] is not None
            and before["position"] <= position
            and before["target_card"] != card  # not the incantation that destroyed it (a destroy)
            and (kind == "creature_destroyed" or (kind == "incantation_resolved" and _left_play(events, j)))
        ):
            return f"it was at {lane}.{position + 1} until the gap in front closed, R4.5"
    return None


def _left_play(events: list[dict], j: int) -> bool:
    """Whether the incantation of event ``j`` took its target out of its lane (bounce, shift)."""
    target = events[j]["target_card"]
    for after in events[j + 1 : j + 3]:
        if after["kind"] in ("card_returned", "card_discarded") and after["target_card"] == target:
            return True
        if after["kind"] == "creature_moved" and after["card"] == target and not after["amount"]:
            return True
    return False


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
