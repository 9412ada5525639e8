"""Scenario files: one moment of a game as TOML, and running its siege (``docs/scenarios.md``).

:func:`load_scenario` reads and checks a file into a :class:`Scenario` — a
:class:`~clashkit.engine.state.GameState` in the active player's summon phase plus the
actions to play.  :func:`run_siege` plays the summon-phase actions, then the
siege with the siege actions in their windows (R3.11), and stops at the end of
the siege, before regeneration.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from ..base.cards import COLUMNS, KEEP_NAMES, CardSet, card_from_fields, starter_set
from ..base.errors import ClashkitError, IllegalActionError, InputError, ScenarioError
from ..base.layout import SCENARIO_FLAGS, SCENARIO_KEYS
from ..base.limits import LIMITS, check, read_text, shown
from ..base.rules import Rules, SoloSettings
from ..base.vocab import KEEP, PLAYERS, Lane, Mode, Player
from .actions import Action, parse_place, play
from .actions import leftmost_playable as _leftmost
from .destruction import ReturnOrder
from .siege import begin_siege, next_in_order, open_siege, take_turn
from .state import LAST_TURN_WORDS, SUMMON, Creature, GameState
from .transition import apply

_TOP_KEYS = {"card", "game", "rules", "solo", "A", "B"}
_GAME_KEYS = {"mode", "active", "mana", "seed", "actions", "turn"}
_SIDE_KEYS = {"hand", "upper", "lower", "pile", "discard", "last_turn"}
_LANE_KEYS = SCENARIO_KEYS  # clashkit.base.layout: the card and the marks a scenario sets
_ACTION_KEYS = {"play", "lane", "target", "index", "siege"}


@dataclass(frozen=True, slots=True)
class ScenarioAction:
    """One entry of ``[game] actions``: which card, where, and in which window."""

    card: str
    lane: str | None = None
    target: str | None = None
    index: int | None = None
    siege: int | None = None  # None: the summon phase; N: before the N-th turn of the siege order
    entry: int | None = None  # its index in ``[game] actions``, for error messages

    def text(self) -> str:
        where = self.lane or self.target or ""
        at = f"@{self.index}" if self.index is not None else ""
        return f"play {self.card}{at} {where}".strip()

    @property
    def window(self) -> int:
        """``siege`` of an action played in the siege (where it is set): its window."""
        assert self.siege is not None, "only the siege's actions have a window"
        return self.siege

    def resolve(self, state: GameState) -> Action:
        """The engine action this entry means in ``state`` (the leftmost playable copy by default)."""
        index = self.index if self.index is not None else _leftmost(state, self.card)
        lane = Lane(self.lane).index if self.lane is not None else None
        target = parse_place(self.target) if self.target is not None else None
        return play(self.card, index, lane, target)


@dataclass
class Scenario:
    """A loaded scenario: the state to start from and the actions to play."""

    state: GameState
    actions: list[ScenarioAction] = field(default_factory=list)
    source: str = "<scenario>"

    def __post_init__(self) -> None:
        self.initial = self.state.clone()


def load_scenario(path: str | Path, *, cards: CardSet | None = None) -> Scenario:
    """Read a scenario file; every problem is a :class:`ScenarioError` naming the file and the key."""
    path = Path(path)
    return parse_scenario(read_text(path, ScenarioError), source=str(path), cards=cards)


def parse_scenario(text: str, *, source: str = "<scenario>", cards: CardSet | None = None) -> Scenario:
    """Parse scenario TOML text (see :func:`load_scenario`)."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{source}: not valid TOML ({e})") from None
    except RecursionError:
        raise ScenarioError(f"{source}: not valid TOML (tables or arrays nested too deeply)") from None
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise ScenarioError(
            f"{source}: an integer of more than 4,300 digits (every number of a scenario has a range, "
            "clashkit.base.limits)"
        ) from None
    try:
        return _build(data, cards if cards is not None else starter_set(), source)
    except ScenarioError:
        raise
    except InputError as e:
        raise ScenarioError(f"{source}: {e}") from None


def _fail(source: str, where: str, reason: str) -> ScenarioError:
    return ScenarioError(f"{source}: {where}: {reason}")


def _table(data: Mapping, key: str, source: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise _fail(source, f"[{key}]", "must be a table")
    return dict(value)


def _unknown(table: Mapping, allowed: Set[str], source: str, where: str) -> None:
    extra = sorted(set(table) - allowed)
    if extra:
        raise _fail(source, where, f"unknown key {extra[0]!r} (known: {', '.join(sorted(allowed))})")


def _build(data: dict[str, Any], base: CardSet, source: str) -> Scenario:
    _unknown(data, _TOP_KEYS, source, "top level")
    # Cards: inline definitions take precedence over the shipped set.
    inline = data.get("card", [])
    if not isinstance(inline, list):
        raise _fail(source, "[[card]]", "must be an array of tables")
    defined = []
    for i, fields in enumerate(inline):
        if not isinstance(fields, Mapping):
            raise _fail(source, f"card[{i}]", "must be a table")
        _unknown(fields, set(COLUMNS), source, f"card[{i}]")
        try:
            defined.append(card_from_fields(fields, typed=True))
        except ValueError as e:
            raise _fail(source, f"card[{i}] ({fields.get('name', '?')})", str(e)) from None
    names = [c.name for c in defined]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise _fail(source, "[[card]]", f"card {dup!r} is defined twice")
    cards = base.with_cards(defined) if defined else base

    game = _table(data, "game", source)
    _unknown(game, _GAME_KEYS, source, "[game]")
    mode = _enum(Mode, game.get("mode", "duel"), source, "[game] mode")
    active = _enum(Player, str(game.get("active", "A")).upper(), source, "[game] active").index
    mana = _ranged("mana", game.get("mana", 0), source, "[game] mana")
    seed = _ranged("seed", game.get("seed", 0), source, "[game] seed")
    turn = _ranged("turn", game.get("turn", 1), source, "[game] turn")

    try:
        solo_settings = SoloSettings.from_mapping(_table(data, "solo", source))
        rules = Rules.from_mapping(_table(data, "rules", source)).replace(solo=solo_settings)
    except InputError as e:
        raise ScenarioError(f"{source}: {e}") from None
    if "solo" in data and mode is not Mode.SOLO:
        raise _fail(source, "[solo]", "settings for solo mode, but [game] mode is 'duel'")

    state = GameState(cards, rules, mode=mode, seed=seed)
    state.active = active
    state.turn = turn
    state.mana = state.mana_gained = mana
    for player in (Player.A, Player.B):
        side = _table(data, player.value, source)
        _read_side(state, player, side, source)
    if mode is Mode.SOLO and active == 1:
        open_siege(state)  # §2: the AI's summon phase is not replayed; only its siege runs (R10.4 fixed order too)
    else:
        state.phase = SUMMON

    actions = game.get("actions", [])
    if not isinstance(actions, list):
        raise _fail(source, "[game] actions", "must be an array of tables")
    if actions and mode is Mode.SOLO and active == 1:
        raise _fail(source, "[game] actions", "the solo AI is active: it takes no actions, only its siege runs (R8.3)")
    parsed = [_read_action(cards, a, source, i) for i, a in enumerate(actions)]
    _in_order(parsed, source)
    return Scenario(state, parsed, source)


def _in_order(actions: list[ScenarioAction], source: str) -> None:
    """§2: the summon-phase actions first, then the siege actions by increasing ``siege``
    (the order they are played in); the first action out of place is named."""
    window = -1  # -1: still in the summon phase
    for i, action in enumerate(actions):
        at = -1 if action.siege is None else action.siege
        if at < window:
            reason = "siege actions come after the summon actions, by increasing siege"
            raise _fail(source, f"[game] actions[{i}]", reason)
        window = at


def _enum(enum, value, source, where):
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(repr(e.value) for e in enum)
        raise _fail(source, where, f"{value!r} is not one of {allowed}") from None


def _ranged(name: str, value, source: str, where: str) -> int:
    """A number within ``clashkit.base.limits.LIMITS[name]``; a TOML float or text is refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        low, high = LIMITS[name].low, LIMITS[name].high
        raise _fail(source, where, f"must be a whole number {low}…{high}, not {shown(value)}")
    return check(name, value, f"{source}: {where}", ScenarioError)


def _whole(value, source, where, *, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _fail(source, where, f"must be a whole number ≥ {minimum}, not {shown(value)}")
    if maximum is not None and value > maximum:
        raise _fail(source, where, f"must be at most {maximum}, not {shown(value)}")
    return value


def _card_id(cards: CardSet, name: object, source: str, where: str) -> int:
    if not isinstance(name, str):
        raise _fail(source, where, f"a card name must be text, not {name!r}")
    if name not in cards:
        raise _fail(source, where, f"unknown card {name!r} (define it in a [[card]] table)")
    return cards.id(name)


def _read_keeps(state, names, source, where, *, solo_pile: bool = False) -> tuple[list[int], bool]:
    if not isinstance(names, list):
        raise _fail(source, where, "must be a list of card names")
    _owned_at_most(len(names) - 1, source, where)
    out, fort, keeps = [], False, 0
    for i, name in enumerate(names):
        if name in KEEP_NAMES:
            keeps += 1
            fort = name == "FORT"
            out.append(KEEP)
        else:
            out.append(_card_id(state.cards, name, source, f"{where}[{i}]"))
    if keeps != 1:
        raise _fail(source, where, f"needs exactly one BASTION or FORT (R1.1), found {keeps}")
    return out, fort


def _read_side(state: GameState, player: Player, side: dict, source: str) -> None:
    p = player.index
    where = f"[{player.value}]"
    _unknown(side, _SIDE_KEYS, source, where)
    ai = state.solo and p == 1
    if ai:
        if "hand" in side:
            raise _fail(source, f"{where} hand", "the solo AI has no hand; give its pile and discard (R8.5)")
        if "pile" not in side:
            raise _fail(source, f"{where} pile", "the solo AI needs a pile, top first, its keep last (R8.1)")
        pile, fort = _read_keeps(state, side["pile"], source, f"{where} pile")
        if pile[-1] != KEEP:
            raise _fail(source, f"{where} pile", "the AI keep must be the last (bottom) card of the pile (R8.1)")
        if len(pile) == 1 and not fort:
            raise _fail(source, f"{where} pile", "a Bastion alone in the AI pile cannot arise: it flips at once (R8.7)")
        state.pile, state.forts[p] = pile, fort
        discard = side.get("discard", [])
        if not isinstance(discard, list):
            raise _fail(source, f"{where} discard", "must be a list of card names")
        _owned_at_most(len(discard), source, f"{where} discard")
        state.discard = [_card_id(state.cards, n, source, f"{where} discard[{i}]") for i, n in enumerate(discard)]
        last = side.get("last_turn", "pending" if (len(pile) == 1) else "none")
        if last not in LAST_TURN_WORDS:
            raise _fail(source, f"{where} last_turn", f"{last!r} is not one of 'none', 'pending', 'under_way'")
        if last != "none" and len(pile) > 1:
            raise _fail(source, f"{where} last_turn", "the AI's last turn comes only when the Fort is alone (R8.7)")
        state.ai_last_turn = LAST_TURN_WORDS.index(last)
    else:
        for key in ("pile", "discard", "last_turn"):
            if key in side:
                raise _fail(source, f"{where} {key}", "only the solo AI (B in solo mode) has a pile")
        if "hand" not in side:
            raise _fail(source, f"{where} hand", "missing: list the hand left to right with its keep")
        hand, fort = _read_keeps(state, side["hand"], source, f"{where} hand")
        if hand[-1] == KEEP:
            raise _fail(
                source, f"{where} hand", "the keep cannot be the rightmost card: it would be destroyed (R1.5, R3.8)"
            )
        state.hands[p], state.forts[p] = hand, fort
    for lane in Lane:
        entries = side.get(lane.value, [])
        if not isinstance(entries, list):
            raise _fail(source, f"{where} {lane.value}", "must be a list of creatures, from the bridge outward")
        _owned_at_most(len(entries), source, f"{where} {lane.value}")
        state.lanes[p][lane.index] = [
            _read_creature(state, e, source, f"{where} {lane.value}[{i}]") for i, e in enumerate(entries)
        ]
    held = state.pile + state.discard if ai else state.hands[p]
    owned = sum(c >= 0 for c in held) + sum(len(side) for side in state.lanes[p])
    _owned_at_most(owned, source, where)


def _owned_at_most(count: int, source: str, where: str) -> None:
    """The cards one player owns in a game are bounded (hand, lanes, pile and discard together)."""
    most = LIMITS["cards_owned"]
    if count > most.high:
        raise _fail(source, where, f"{count} cards, more than the {most.high} a player may own ({most.why})")


def _read_creature(state: GameState, entry: object, source: str, where: str) -> Creature:
    if isinstance(entry, Mapping):
        _unknown(entry, _LANE_KEYS, source, where)
        if "card" not in entry:
            raise _fail(source, where, "a lane entry table needs 'card'")
        name, damage = entry["card"], entry.get("damage", 0)
        flags = {flag: entry.get(flag, False) for flag in SCENARIO_FLAGS}
    else:
        name, damage, flags = entry, 0, dict.fromkeys(SCENARIO_FLAGS, False)
    card = _card_id(state.cards, name, source, where)
    if not state.cards.is_creature[card]:
        raise _fail(source, where, f"{name} is an incantation; only creatures are in play (R1.3)")
    damage = _whole(damage, source, f"{where} damage")
    for flag, value in flags.items():
        if not isinstance(value, bool):
            raise _fail(source, f"{where} {flag}", f"must be true or false, not {value!r}")
    creature = Creature(state.cards, card)
    if damage >= creature.health:
        raise _fail(
            source, where, f"{name} has {damage} damage but health {creature.health}: it would be destroyed (R4.3)"
        )
    creature.damage = damage
    for flag, value in flags.items():
        setattr(creature, flag, value)
    return creature


def _read_action(cards: CardSet, entry: object, source: str, i: int) -> ScenarioAction:
    where = f"[game] actions[{i}]"
    if not isinstance(entry, Mapping):
        raise _fail(source, where, 'must be a table like { play = "OGRE", lane = "upper" }')
    _unknown(entry, _ACTION_KEYS, source, where)
    if "play" not in entry:
        raise _fail(source, where, "needs 'play' (the card's name)")
    name = entry["play"]
    card = _card_id(cards, name, source, f"{where} play")
    lane, target = entry.get("lane"), entry.get("target")
    if cards.is_creature[card]:
        if target is not None or lane is None:
            raise _fail(source, where, f"{name} is a creature: give 'lane' (upper or lower) (R3.5)")
        _enum(Lane, lane, source, f"{where} lane")
    else:
        if lane is not None or target is None:
            raise _fail(source, where, f"{name} is an incantation: give 'target' like \"B.upper.0\" (R5.1)")
        try:
            parse_place(str(target))
        except InputError as e:
            raise _fail(source, f"{where} target", str(e)) from None
    index = entry.get("index")
    if index is not None:
        index = _ranged("index", index, source, f"{where} index")
    siege = entry.get("siege")
    if siege is not None:
        siege = _ranged("siege", siege, source, f"{where} siege")
    return ScenarioAction(name, lane, target, index, siege, i)


def run_siege(scenario: Scenario, order_returns: ReturnOrder | None = None) -> GameState:
    """``clashkit siege``: summon-phase actions, then the siege with its windows; stop before regeneration.

    ``order_returns`` answers R4.6 for creatures destroyed together (default order without it)."""
    state = scenario.state
    summon = [a for a in scenario.actions if a.siege is None]
    siege = [a for a in scenario.actions if a.siege is not None]
    for n, action in enumerate(summon):
        _play(state, action, scenario, n)
        if state.over:
            return state
    if state.phase == SUMMON:
        begin_siege(state)
    turn_no = 0
    pending = list(enumerate(siege, start=len(summon)))
    while not state.over:
        while pending and pending[0][1].window <= turn_no:
            n, action = pending.pop(0)
            _play(state, action, scenario, n)
            if state.over:
                return state
        if next_in_order(state) is None:
            break
        take_turn(state, order_returns=order_returns)
        turn_no += 1
    for n, action in pending:  # past the last turn: after the last attack
        if state.over:
            break
        _play(state, action, scenario, n)
    return state


def _play(state: GameState, action: ScenarioAction, scenario: Scenario, n: int) -> None:
    try:
        apply(state, action.resolve(state))
    except ClashkitError as e:
        entry = action.entry if action.entry is not None else n
        where = f"{scenario.source}: [game] actions[{entry}] ({action.text()})"
        if isinstance(e, IllegalActionError):
            raise IllegalActionError(e.rule, e.reason, where=where) from None
        raise ScenarioError(f"{where}: {e}") from None


# --- Writing a position back as TOML --------------------------------------------------------


def dump_scenario(
    state: GameState,
    actions: Sequence[ScenarioAction] = (),
    *,
    seed: int = 0,
    base: CardSet | None = None,
) -> str:
    """``state``'s position as scenario TOML (``docs/scenarios.md``), which :func:`parse_scenario`
    reads back to the same position; ``actions`` become ``[game] actions`` in their order.

    The position is the start of the active player's turn as a scenario fixes it (summon
    phase, or the solo AI's siege before its first attack); what a turn under way adds
    (siege turns taken, this turn's weaken or empower) is not part of it.  Cards that differ
    from ``base`` (default: the shipped set) are written out as ``[[card]]`` tables; rules
    options other than the defaults (R10.3) go to ``[rules]``, solo settings (R8.9) to
    ``[solo]``.
    """
    base = base if base is not None else starter_set()
    names = state.cards.names
    lines: list[str] = []
    # Cards the shipped set does not have, or has otherwise.
    for card in state.cards:
        if card.name in base and base.card(card.name) == card:
            continue
        lines.append("[[card]]")
        lines += [f"{key} = {_toml(value)}" for key, value in _card_table(card).items()]
        lines.append("")
    # The game.
    lines.append("[game]")
    lines.append(f"mode = {_toml('solo' if state.solo else 'duel')}")
    lines.append(f"active = {_toml(PLAYERS[state.active].value)}")
    lines.append(f"mana = {state.mana}")
    lines.append(f"seed = {seed}")
    if state.turn != 1:
        lines.append(f"turn = {state.turn}")
    if actions:
        lines.append("actions = [")
        lines += [f"  {_toml(_action_table(a))}," for a in actions]
        lines.append("]")
    lines.append("")
    # Options that differ from the rulebook's defaults.
    for table, current, default in (
        ("rules", state.rules, Rules()),
        ("solo", state.rules.solo, SoloSettings()),
    ):
        if table == "solo" and not state.solo:
            continue
        changed = {
            f.name: getattr(current, f.name)
            for f in dataclass_fields(current)
            if f.name != "solo" and getattr(current, f.name) != getattr(default, f.name)
        }
        if changed:
            lines.append(f"[{table}]")
            lines += [f"{key} = {_toml(value)}" for key, value in changed.items()]
            lines.append("")
    # Each side: the hand (or the AI pile and discard), then both lanes from the bridge outward.
    for p, player in enumerate(("A", "B")):
        keep = "FORT" if state.forts[p] else "BASTION"
        lines.append(f"[{player}]")
        if state.solo and p == 1:
            lines.append(f"pile = {_toml([keep if c == KEEP else names[c] for c in state.pile])}")
            lines.append(f"discard = {_toml([names[c] for c in state.discard])}")
            lines.append(f"last_turn = {_toml(LAST_TURN_WORDS[state.ai_last_turn])}")
        else:
            lines.append(f"hand = {_toml([keep if c == KEEP else names[c] for c in state.hands[p]])}")
        for lane in Lane:
            entries = [_creature_entry(names[c.card], c) for c in state.lanes[p][lane.index]]
            lines.append(f"{lane.value} = {_toml(entries)}")
        lines.append("")
    return "\n".join(lines)


def _card_table(card) -> dict[str, object]:
    """A card as a ``[[card]]`` table (the columns of the card file, typed)."""
    out: dict[str, object] = {"name": card.name, "kind": str(card.kind), "cost": card.cost}
    if card.is_creature:
        out.update(attack=card.attack, health=card.health)
        if card.abilities:
            out["abilities"] = [str(a) for a in card.abilities]
        if card.aura is not None:
            out["aura"] = {"ability": str(card.aura.ability), "directions": [str(d) for d in card.aura.directions]}
    else:
        out.update(effect=card.effect_text, target=str(card.target))
    if card.deck is not None:
        out["deck"] = card.deck
    if card.notes:
        out["notes"] = card.notes
    return out


def _action_table(action: ScenarioAction) -> dict[str, object]:
    out: dict[str, object] = {"play": action.card}
    for key in ("lane", "target", "index", "siege"):
        value = getattr(action, key)
        if value is not None:
            out[key] = value
    return out


def _creature_entry(name: str, creature: Creature) -> object:
    """A lane entry: the bare name, or a table when the creature carries marks (§2)."""
    out: dict[str, object] = {"card": name}
    if creature.damage:
        out["damage"] = creature.damage
    out |= {flag: True for flag in SCENARIO_FLAGS if getattr(creature, flag)}
    return out if len(out) > 1 else name


def _toml(value: object) -> str:
    """One TOML value: text, whole number, true/false, an array or an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{key} = {_toml(v)}" for key, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")
