"""The table drawn as HTML, for notebooks (a ``GameState`` shows itself with it in IPython).

Both hands left to right with the keep (R1.1) and the hand-health it leaves
(R1.5), the playable cards marked (R3.2: the 4 leftmost besides the keep), both
lanes drawn from the bridge outward (R1.2) with each creature's damage, its
marks (new this turn, Protection armed or used, already had its siege turn)
and the next attacker of the siege (R3.9); the mana, the active player, the
winner; in solo mode the AI pile and discard (R8.1, R8.5).

Only inline styles are used, so the board looks the same in a trusted output,
an ipywidgets ``HTML`` view or an exported notebook, in light and dark themes.
Nothing here imports anything outside the engine.
"""

from __future__ import annotations

from html import escape

from ..base.cards import Card, CardSet
from ..base.vocab import KEEP, LANES, PLAYERS, PROTECTION, abilities_of, hand_health_of
from ..engine.abilities import abilities
from ..engine.hand import playable_indices
from ..engine.siege import next_in_order
from ..engine.state import LAST_TURN_PENDING, LAST_TURN_UNDER_WAY, PHASES, SIEGE, SUMMON, Creature, GameState

#: One colour per player: A blue, B red.
PLAYER_COLOURS = ("#2f6db5", "#b5452f")
_INK = "#2b2720"
_PAPER = "#f7f3e8"
_MANA = "#3b7dd8"
_PLAYABLE = "#2e9d57"
_DAMAGE = "#c62828"
_FONT = "font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif"

#: Short labels of the abilities (R6) on a card tile.
ABILITY_LABELS = {
    "splash": "splash",
    "pierce": "pierce",
    "rage": "rage",
    "protection": "protection",
    "indestructible": "indestr.",
    "bloodlust": "bloodlust",
    "sprint": "sprint",
}


def _style(**rules: str | int) -> str:
    return ";".join(f"{k.replace('_', '-')}:{v}" for k, v in rules.items())


def _chip(text: str, colour: str, *, filled: bool = False, title: str = "") -> str:
    look = (
        _style(background=colour, color="#fff", border=f"1px solid {colour}")
        if filled
        else _style(color=colour, border=f"1px solid {colour}", background="#fff")
    )
    tip = f' title="{escape(title)}"' if title else ""
    return (
        f'<span{tip} style="{look};border-radius:8px;padding:0 4px;margin:1px 1px 0 0;'
        f'font-size:9px;line-height:12px;display:inline-block">{escape(text)}</span>'
    )


def _cost(cost: int) -> str:
    return (
        '<span title="cost" style="display:inline-block;min-width:15px;height:15px;'
        "border-radius:8px;"
        f"background:{_MANA};color:#fff;font-size:10px;font-weight:700;text-align:center;"
        f'line-height:15px;margin-right:3px">{cost}</span>'
    )


def _tile(
    inner: str,
    *,
    border: str = "#b9b09a",
    background: str = "#fff",
    width: int = 96,
    dashed: bool = False,
    glow: str | None = None,
    faded: bool = False,
    title: str = "",
    data: str = "",
) -> str:
    style = _style(
        display="inline-block",
        vertical_align="top",
        width=f"{width}px",
        min_height="84px",
        box_sizing="border-box",
        padding="3px 4px",
        margin="2px",
        border=f"2px {'dashed' if dashed else 'solid'} {border}",
        border_radius="7px",
        background=background,
        color=_INK,
        font_size="11px",
        line_height="14px",
        opacity="0.55" if faded else "1",
        box_shadow=f"0 0 0 3px {glow}" if glow else "0 1px 2px rgba(0,0,0,.18)",
    )
    tip = f' title="{escape(title)}"' if title else ""
    return f'<div class="ck-tile"{data}{tip} style="{style}">{inner}</div>'


def _name(text: str) -> str:
    size = 10.5 if len(text) <= 9 else 9 if len(text) <= 11 else 8
    return (
        f'<span style="font-weight:700;font-size:{size}px;letter-spacing:.01em;'
        f'white-space:nowrap">{escape(text)}</span>'
    )


def card_text(card: Card) -> str:
    """The rules text of a card for a tooltip (``OGRE 3 mana 2/4 splash``)."""
    return card.describe()


def _card_body(card: Card, *, mask: int | None = None, damage: int = 0) -> str:
    """Cost, name, attack/health (with damage) or the incantation's effect, abilities."""
    head = f"<div>{_cost(card.cost)}{_name(card.name)}</div>"
    if not card.is_creature:
        effect = escape(card.effect_text)
        side = escape(str(card.target)) if card.target is not None else ""
        return (
            head
            + f'<div style="margin-top:3px;font-style:italic">{effect}</div>'
            + f'<div style="font-size:9px;color:#6b5f8a">→ {side}</div>'
        )
    assert card.health is not None, "a creature card has its health"
    health = card.health - damage
    hp = (
        f'<b style="color:{_DAMAGE}">♥{health}</b><span style="color:#888">/{card.health}</span>'
        if damage
        else f"♥{card.health}"
    )
    stats = f'<div style="margin-top:2px;font-size:12px">⚔{card.attack} &nbsp;{hp}</div>'
    printed = {str(a) for a in card.abilities}
    shown = [str(a) for a in (abilities_of(mask) if mask is not None else card.abilities)]
    chips = "".join(
        _chip(
            ABILITY_LABELS.get(a, a),
            "#5a4a8a" if a in printed else "#9a6b00",
            title=a if a in printed else f"{a} (from an aura or an incantation, this turn)",
        )
        for a in shown
    )
    if card.aura is not None:
        dirs = "+".join(str(d) for d in card.aura.directions)
        chips += _chip(f"aura: {card.aura.ability} → {dirs}", "#00796b", title=f"R6.8 aura: grants {card.aura}")
    return head + stats + (f"<div>{chips}</div>" if chips else "")


def _keep_tile(fort: bool) -> str:
    label = "FORT" if fort else "BASTION"
    tip = (
        "the keep, Fort side up: if it becomes the rightmost card, the game is lost (R4.9)"
        if fort
        else "the keep, Bastion side up: when it becomes the rightmost card it flips to the Fort (R4.8)"
    )
    inner = (
        f'<div style="font-weight:800;font-size:11px;letter-spacing:.06em">{label}</div>'
        f'<div style="font-size:9px;margin-top:4px">the keep</div>'
        f'<div style="font-size:18px;line-height:22px">{"◆" if fort else "♜"}</div>'
    )
    background, colour = ("#5f646b", "#fff") if fort else ("#f4c542", _INK)
    return _tile(
        f'<div style="color:{colour};text-align:center">{inner}</div>',
        border="#3d3d3d" if fort else "#b8860b",
        background=background,
        width=70,
        title=tip,
        data=' data-keep="fort"' if fort else ' data-keep="bastion"',
    )


def _hand_tiles(cards: CardSet, hand: list[int], *, fort: bool, mana: int | None = None) -> str:
    """A hand's tiles left to right: the keep, the playable cards marked (R3.2), the cards
    right of the keep underlined (R1.5); with ``mana`` (the active player's), the playable
    cards that cost more are faded."""
    marked = set(playable_indices(hand))
    keep_at = hand.index(KEEP)
    tiles = []
    for index, card_id in enumerate(hand):
        if card_id == KEEP:
            tiles.append(_keep_tile(fort))
            continue
        card = cards[card_id]
        playable = index in marked
        affordable = mana is None or card.cost <= mana
        faded = mana is not None and playable and not affordable
        marks = ""
        if playable:
            marks = _chip(
                "playable",
                _PLAYABLE,
                filled=mana is not None and affordable,
                title="R3.2: one of the 4 leftmost cards besides the keep",
            )
        body = _card_body(card) + f"<div>{marks}</div>"
        tile = _tile(
            body,
            border=_PLAYABLE if playable else "#b9b09a",
            faded=faded,
            title=card_text(card) + (" (too costly now)" if faded else ""),
            data=f' data-playable="{str(playable).lower()}"',
        )
        if index > keep_at:
            tile = (
                f'<span style="display:inline-block;border-bottom:4px solid {_DAMAGE}55;'
                f'padding-bottom:1px">{tile}</span>'
            )
        tiles.append(tile)
    return f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{"".join(tiles)}</div>'


def _hand_row(state: GameState, player: int) -> str:
    hand = state.hands[player]
    active = player == state.active and state.phase in (SUMMON, SIEGE) and state.winner is None
    tiles = _hand_tiles(state.cards, hand, fort=state.forts[player], mana=state.mana if active else None)
    return tiles + _health_line(state.hand_health(player), len(hand), fort=state.forts[player])


def hand_html(cards: CardSet, names: list[str]) -> str:
    """A hand written as names, left to right with ``BASTION`` or ``FORT``, drawn as on the
    board: the keep, the playable cards, the hand-health."""
    hand = [KEEP if n in ("BASTION", "FORT") else cards.id(n) for n in names]
    fort = "FORT" in names
    return (
        f'<div class="clashkit-hand" style="{_FONT};background:{_PAPER};color:{_INK};'
        'border:1px solid #d8cfb8;border-radius:10px;padding:6px 8px;max-width:1100px">'
        + _hand_tiles(cards, hand, fort=fort)
        + _health_line(hand_health_of(hand), len(hand), fort=fort)
        + "</div>"
    )


def card_html(card: Card, *, caption: str = "") -> str:
    """One card as a tile, with an optional caption above it."""
    head = f'<div style="font-size:10px;color:#6b6250">{escape(caption)}</div>' if caption else ""
    border = "#8e5bb5" if not card.is_creature else "#b9b09a"
    return (
        f'<div style="display:inline-block;{_FONT};color:{_INK};vertical-align:top;'
        'margin-right:8px">'
        f"{head}{_tile(_card_body(card), border=border, width=130, title=card_text(card))}</div>"
    )


def _health_line(health: int, size: int, *, fort: bool) -> str:
    pips = "".join(
        '<span style="display:inline-block;width:9px;height:9px;border-radius:2px;'
        "margin-right:2px;"
        f'background:{_DAMAGE if i < health else "#ddd"}"></span>'
        for i in range(max(health, 0))
    )
    warn = ""
    if health <= 2:
        warn = _chip(
            "the Fort is about to fall" if fort else "the Bastion is about to fall",
            _DAMAGE,
            filled=True,
        )
    return (
        '<div style="font-size:11px;margin:2px 4px">'
        f'hand-health <b data-hand-health="{health}">{health}</b> {pips} '
        f'<span style="color:#777">({size} cards with the keep: {size} mana next turn)</span> '
        f"{warn}</div>"
    )


def _pile_row(state: GameState) -> str:
    """R8.1, R8.5: the AI pile (top first, keep last) and the AI discard, as compact chips."""
    names = state.cards.names
    pile = "".join(
        _chip("FORT" if state.forts[1] else "BASTION", "#5f646b", filled=True)
        if c == KEEP
        else _chip(names[c], PLAYER_COLOURS[1])
        for c in state.pile
    )
    discard = "".join(_chip(names[c], "#777") for c in state.discard) or '<span style="color:#999">empty</span>'
    last = {
        LAST_TURN_PENDING: "the AI's last turn is pending",
        LAST_TURN_UNDER_WAY: "the AI's last turn is under way",
    }
    note = _chip(last[state.ai_last_turn], _DAMAGE, filled=True) if state.ai_last_turn in last else ""
    return (
        f'<div style="font-size:11px;margin:2px 4px"><b>AI pile</b> (top first, keep last; '
        f'<b data-hand-health="{state.hand_health(1)}">{state.hand_health(1)}</b> '
        f"cards above the keep) {note}<br>{pile}</div>"
        '<div style="font-size:11px;margin:2px 4px">'
        f"<b>AI discard</b> (bottom first): {discard}</div>"
    )


def _creature_tile(state: GameState, player: int, lane: int, position: int, creature: Creature, next_up) -> str:
    card = state.cards[creature.card]
    mask = abilities(state, player, lane, position)
    marks = []
    if creature.new:
        marks.append(_chip("new", "#b8860b", filled=True, title="entered play this turn (R3.10)"))
    if mask & PROTECTION:
        if creature.protection_used:
            marks.append(_chip("shield used", "#777", title="its Protection stopped an attack this turn (R6.4)"))
        else:
            marks.append(
                _chip(
                    "shield ready",
                    "#1565c0",
                    filled=True,
                    title="R6.4: the first attack aimed at it this turn does nothing",
                )
            )
    if creature.attack_mod:
        marks.append(
            _chip(
                f"atk {creature.attack_mod:+d}",
                "#6a1b9a",
                title="weaken / empower until end of turn (R5.5)",
            )
        )
    if creature.sprint_bonus:
        marks.append(_chip(f"sprint +{creature.sprint_bonus}", "#6a1b9a", title="R6.7"))
    is_next = next_up == (player, lane, position)
    if is_next:
        marks.append(_chip("attacks next", "#e65100", filled=True, title="R3.9: next in the siege order"))
    elif state.phase == SIEGE and player == state.active and creature.took_turn:
        marks.append(_chip("done", "#777", title="has had its turn in this siege"))
    damage = (
        f'<span title="damage this turn" style="float:right;background:{_DAMAGE};color:#fff;'
        "border-radius:8px;"
        f'padding:0 4px;font-size:10px;font-weight:700">−{creature.damage}</span>'
        if creature.damage
        else ""
    )
    body = damage + _card_body(card, mask=mask, damage=creature.damage) + f"<div>{''.join(marks)}</div>"
    faded = state.phase == SIEGE and player == state.active and creature.took_turn and not is_next
    return _tile(
        body,
        border=PLAYER_COLOURS[player],
        background="#fffdf6",
        dashed=creature.new,
        glow="#ff9800" if is_next else None,
        faded=faded,
        title=f"{PLAYERS[player]}.{LANES[lane]}.{position}: {card_text(card)}",
        data=(f' data-place="{PLAYERS[player]}.{LANES[lane]}.{position}" data-damage="{creature.damage}"'),
    )


def _side(state: GameState, player: int, lane: int, next_up) -> str:
    """One side of one lane; position 0 is drawn next to the bridge."""
    slots = []
    for position, creature in enumerate(state.lanes[player][lane]):
        tile = _creature_tile(state, player, lane, position, creature, next_up)
        slots.append(
            f'<div style="display:flex;flex-direction:column;align-items:center">{tile}'
            f'<span style="font-size:9px;color:#8a7f66">{position}</span></div>'
        )
    direction = "row-reverse" if player == 0 else "row"
    empty = (
        '<div style="align-self:center;color:#b0a689;font-size:10px;font-style:italic;'
        'padding:0 8px">'
        f"empty: attacks here hit {PLAYERS[player]}'s keep</div>"
        if not slots
        else ""
    )
    return (
        f'<div style="flex:1;display:flex;flex-direction:{direction};align-items:flex-start;'
        f'min-height:72px;padding:2px;background:{PLAYER_COLOURS[player]}0d">{"".join(slots)}{empty}</div>'
    )


def _lanes(state: GameState, next_up) -> str:
    rows = []
    for lane in (0, 1):
        label = LANES[lane].value
        siege_here = state.phase == SIEGE and state.siege_lane == lane
        bridge = (
            f'<div title="the bridge of the {label} lane" style="width:34px;align-self:stretch;'
            f"background:repeating-linear-gradient(90deg,#8b6b3e 0 5px,#a5834f 5px 8px);"
            f'display:flex;align-items:center;justify-content:center;border-radius:3px">'
            f'<span style="writing-mode:vertical-rl;color:#fff;font-size:10px;font-weight:700;'
            f'letter-spacing:.08em">{label.upper()}</span></div>'
        )
        marker = _chip("siege here", "#e65100", filled=True) if siege_here else ""
        rows.append(
            f'<div data-lane="{label}" style="display:flex;align-items:stretch;margin:3px 0;'
            'border-top:1px solid #e3dcc6">'
            f"{_side(state, 0, lane, next_up)}{bridge}{_side(state, 1, lane, next_up)}</div>"
            + (f'<div style="text-align:center">{marker}</div>' if marker else "")
        )
    return "".join(rows)


def _player_header(state: GameState, player: int) -> str:
    name = PLAYERS[player].value
    colour = PLAYER_COLOURS[player]
    who = "the AI" if state.solo and player == 1 else f"player {name}"
    tags = []
    if player == state.active and state.winner is None:
        tags.append(_chip("active", colour, filled=True))
        tags.append(
            '<span style="font-size:11px;margin-left:6px">'
            f'<b style="color:{_MANA}" data-mana="{state.mana}">'
            f"{state.mana}</b> mana left of {state.mana_gained}</span>"
        )
    if state.winner == player:
        tags.append(_chip("winner", "#2e7d32", filled=True))
    return (
        f'<div style="font-weight:700;color:{colour};font-size:12px;margin:4px 2px 0">'
        f"{escape(who)} · keep: {state.keep(player).value} {''.join(tags)}</div>"
    )


def board_html(state: GameState, *, caption: str | None = None) -> str:
    """The whole table as one HTML fragment (see the module docstring)."""
    active = PLAYERS[state.active].value
    phase = PHASES[state.phase].value
    if state.winner is not None:
        status = (
            f'<span data-winner="{PLAYERS[state.winner].value}" '
            'style="background:#2e7d32;color:#fff;'
            f'border-radius:4px;padding:1px 8px">{PLAYERS[state.winner].value} has won</span>'
        )
    else:
        status = f"{active} to play · {phase} phase"
    found = next_in_order(state) if state.phase == SIEGE and state.winner is None else None
    next_up = (state.active, *found) if found is not None else None
    head = (
        f'<div style="display:flex;justify-content:space-between;align-items:baseline;'
        f'border-bottom:2px solid #d8cfb8;padding-bottom:3px;margin-bottom:2px">'
        f'<span style="font-size:14px;font-weight:700">Turn {state.turn} · {status}</span>'
        f'<span style="font-size:11px;color:#6b6250">{"solo" if state.solo else "duel"}'
        f"{' · ' + escape(caption) if caption else ''}</span></div>"
    )
    top = _player_header(state, 1) + (_pile_row(state) if state.solo else _hand_row(state, 1))
    bottom = _player_header(state, 0) + _hand_row(state, 0)
    legend = (
        '<div style="font-size:9.5px;line-height:12px;color:#8a7f66;margin-top:4px">'
        "Lanes from the bridge outward: position 0 touches the bridge. "
        "Green border: playable (R3.2); "
        "red underline: the cards right of the keep (hand-health, R1.5); dashed: new this turn; "
        "orange glow: attacks next (R3.9). Card values are provisional (R9).</div>"
    )
    return (
        f'<div class="clashkit-board" style="{_FONT};background:{_PAPER};color:{_INK};'
        "border:1px solid #d8cfb8;"
        f'border-radius:10px;padding:8px 10px;max-width:1100px">'
        f"{head}{top}{_lanes(state, next_up)}{bottom}{legend}</div>"
    )


__all__ = ["PLAYER_COLOURS", "board_html", "card_html", "card_text", "hand_html"]
