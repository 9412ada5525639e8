"""Cards and rules as arrays for the fast engine: made from any CardSet and Rules, never compiled in.

A card file is data: :func:`card_tables` reads a :class:`~clashkit.base.cards.CardSet`
into flat arrays each game reads, so editing a card never recompiles anything.
:func:`rules_array` encodes the options of R10.3 and R10.4 and the solo settings
of R8.9 as small integers (``R_*`` indices).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..base.cards import CardSet
from ..base.rules import Rules
from ..base.vocab import ABILITY_BITS, Ability, Effect, TargetSide
from ..engine.turn import first_turn_mana
from ..policies.greedy import GreedyPolicy, tables
from .jit import JIT

#: R5.5 effect codes, in ``Effect`` order.
EFFECTS = tuple(Effect)
(E_DAMAGE, E_DESTROY, E_BOUNCE, E_SHIFT, E_WEAKEN, E_EMPOWER, E_GRANT, E_HEAL) = range(8)
TARGET_ENEMY, TARGET_ALLY, TARGET_ANY = range(3)
_TARGETS = {TargetSide.ENEMY: TARGET_ENEMY, TargetSide.ALLY: TARGET_ALLY, TargetSide.ANY: TARGET_ANY}

#: One card's row (``Tables.card[card].cost`` …): its rules, then greedy's summon row.
CARD = np.dtype(
    [
        ("cost", np.int64),
        ("is_creature", np.bool_),
        ("attack", np.int64),
        ("health", np.int64),
        ("mask", np.int64),
        ("aura_mask", np.int64),
        ("aura_dirs", np.int64),
        ("effect", np.int64),
        ("amount", np.int64),
        ("grant", np.int64),
        ("target", np.int64),
        ("enemy_side", np.bool_),
        ("value", np.float64),
        # the formats' choices (R7.2, R7.3): Tables.choice_value and Tables.draw_weight
        ("choice_value", np.float64),
        ("draw_weight", np.int64),
        # greedy's summon rows (GreedyPolicy._summon_row)
        ("reserve_cost", np.int64),
        ("base", np.float64),
        ("hits", np.float64),
        ("tanks", np.float64),
        ("opens", np.float64),
    ],
    align=True,
)
#: ``card``: one ``CARD`` row a card; ``weights``: greedy's weights (``W_*``).  Two arrays, not one a
#: field, because every compiled call passes them: fewer arrays make cheaper calls.
Tables = namedtuple("Tables", ["card", "weights"])

#: greedy's weights in ``Tables.weights``, in this order: the :class:`GreedyPolicy` attributes of these
#: names, the summon phase's then the casts' (a subclass's own weights travel in the table, nothing recompiles).
WEIGHTS = (
    "hh_cost",
    "hh_cost_low",
    "low_health",
    "block",
    "block_base",
    "aura",
    "crowd",
    "stop",
    "rage_kill",
    "keep_for_incantations",
    "loop_watch",
    "casts_per_turn",
    "incantation_cost",
    "kill",
    "opens",
    "opens_alone",
    "remove_base",
    "remove_opens",
    "remove_opens_alone",
    "shift_opens",
    "rage_grant",
    "empower_open",
    "bloodlust_grant",
    "sprint_grant",
    "victim_killed",
    "victim_hit",
    "comes_back_final",
    "comes_back",
    "nothing",
)
W_HH_COST = WEIGHTS.index("hh_cost")
W_HH_COST_LOW = WEIGHTS.index("hh_cost_low")
W_LOW_HEALTH = WEIGHTS.index("low_health")
W_BLOCK = WEIGHTS.index("block")
W_BLOCK_BASE = WEIGHTS.index("block_base")
W_AURA = WEIGHTS.index("aura")
W_CROWD = WEIGHTS.index("crowd")
W_STOP = WEIGHTS.index("stop")
W_RAGE_KILL = WEIGHTS.index("rage_kill")
W_KEEP_FOR_INCANTATIONS = WEIGHTS.index("keep_for_incantations")
W_LOOP_WATCH = WEIGHTS.index("loop_watch")
W_CASTS_PER_TURN = WEIGHTS.index("casts_per_turn")
W_INCANTATION_COST = WEIGHTS.index("incantation_cost")
W_KILL = WEIGHTS.index("kill")
W_OPENS = WEIGHTS.index("opens")
W_OPENS_ALONE = WEIGHTS.index("opens_alone")
W_REMOVE_BASE = WEIGHTS.index("remove_base")
W_REMOVE_OPENS = WEIGHTS.index("remove_opens")
W_REMOVE_OPENS_ALONE = WEIGHTS.index("remove_opens_alone")
W_SHIFT_OPENS = WEIGHTS.index("shift_opens")
W_RAGE_GRANT = WEIGHTS.index("rage_grant")
W_EMPOWER_OPEN = WEIGHTS.index("empower_open")
W_BLOODLUST_GRANT = WEIGHTS.index("bloodlust_grant")
W_SPRINT_GRANT = WEIGHTS.index("sprint_grant")
W_VICTIM_KILLED = WEIGHTS.index("victim_killed")
W_VICTIM_HIT = WEIGHTS.index("victim_hit")
W_COMES_BACK_FINAL = WEIGHTS.index("comes_back_final")
W_COMES_BACK = WEIGHTS.index("comes_back")
W_NOTHING = WEIGHTS.index("nothing")


class _Row:
    """One ``CARD`` row read by attribute (``row.cost``), as compiled code reads it."""

    __slots__ = ("_row",)

    def __init__(self, row: np.void) -> None:
        self._row = row

    def __getattr__(self, field: str):
        return self._row[field]


class _Rows(np.ndarray):
    """The card table without the compiler (:data:`~clashkit.fast.jit.JIT` off): numba reads a
    structured row's fields by attribute, NumPy only by key; one row here gives a :class:`_Row`."""

    def __getitem__(self, key):
        row = super().__getitem__(key)
        return _Row(row) if isinstance(row, np.void) else row


def card_tables(cards: CardSet, greedy: GreedyPolicy | None = None) -> Tables:
    """One ``CARD`` row a card (its rules, greedy's summon row) and greedy's weights (R9.3: cards are data)."""
    greedy = greedy if greedy is not None else GreedyPolicy()
    t = tables(cards)
    n = len(cards)
    rows = [greedy._summon_row(t, c) for c in range(n)]
    card = np.zeros(n, CARD)
    card["cost"] = cards.cost
    card["is_creature"] = cards.is_creature
    card["attack"] = cards.attack
    card["health"] = cards.health
    card["mask"] = cards.mask
    card["aura_mask"] = cards.aura_mask
    card["aura_dirs"] = cards.aura_dirs
    card["effect"] = [EFFECTS.index(e) if e is not None else -1 for e in cards.effect]
    card["amount"] = cards.amount
    card["grant"] = cards.grant_mask
    card["target"] = [_TARGETS[s] if s is not None else -1 for s in cards.target]
    card["enemy_side"] = t.enemy_side
    card["value"] = t.value
    card["choice_value"] = t.choice_value
    card["draw_weight"] = t.draw_weight
    card["reserve_cost"] = [r.cost if not r.creature else 0 for r in rows]
    card["base"] = [r.worth if r.creature else 0.0 for r in rows]
    card["hits"] = [r.as_hitter if r.creature else 0.0 for r in rows]
    card["tanks"] = [r.as_tank if r.creature else 0.0 for r in rows]
    card["opens"] = [r.on_open_lane if r.creature else 0.0 for r in rows]
    weights = np.array([getattr(greedy, name) for name in WEIGHTS], np.float64)
    return Tables(card if JIT else card.view(_Rows), weights)


# --- Rules options (R10.3, R10.4, R8.9) --------------------------------------------------
(
    R_INCANTATIONS_IN_SIEGE,
    R_PROTECTION,
    R_BLOODLUST,
    R_AI_INCANTATION_SIDE,
    R_AI_LAST_TURN,
    R_TURN_LIMIT,
    R_KEEP_DISTANCE,
    R_AURA,
    R_SIEGE_ORDER,
    R_SOLO_PLAYER_FIRST_MANA,
    R_AI_FIXED_MANA,
    R_AI_MANA_PER_CREATURE,
    R_AI_FIRST,
    R_AI_PILE_DAMAGE,
    R_AI_BITS,
    R_AI_REDUCED_ALL,
    R_FIRST_TURN_MANA,
) = range(17)
R_WIDTH = 17
PROTECTION_FIRST_ATTACK, PROTECTION_FIRST_DAMAGE, PROTECTION_FIRST_HIT = range(3)
BLOODLUST_PRIMARY, BLOODLUST_ANY, BLOODLUST_PER_CREATURE = range(3)
PILE_FULL, PILE_MINUS_ONE, PILE_ONE = range(3)


def rules_array(rules: Rules, *, solo: bool) -> np.ndarray:
    """The options in force as small integers (``R_*``); ``R_FIRST_TURN_MANA`` is the first
    turn's mana in force, the duel's option or solo's R8.1 (:func:`clashkit.engine.turn.first_turn_mana`)."""
    s = rules.solo
    ability = s.ai_ability
    return np.array(
        [
            int(rules.incantations_in_siege),
            ("first_attack", "first_damage", "first_hit").index(rules.protection),
            ("primary", "any", "per_creature").index(rules.bloodlust_trigger),
            int(rules.ai_incantation_side == "either"),
            int(rules.ai_last_turn == "current"),
            rules.turn_limit,
            int(rules.keep_distance == "attack"),
            int(rules.aura == "until_holder_moves"),
            int(rules.siege_order == "fixed"),
            int(rules.solo_player_first_mana == "six"),
            s.ai_fixed_mana,
            s.ai_mana_per_creature,
            int(s.ai_first),
            ("full", "minus_one", "one").index(s.ai_pile_damage),
            ABILITY_BITS[Ability(ability)] if (solo and ability) else 0,
            int(s.ai_reduced_scope == "all"),
            first_turn_mana(rules, solo=solo),
        ],
        np.int64,
    )
