"""R5 Incantations: playing them (R5.1–R5.3), Indestructible targets (R5.4), effects (R5.5), not attacks (R5.6)."""

# Inline TOML tables (the card definitions) must stay on one line: long lines are allowed here.
# ruff: noqa: E501

from __future__ import annotations

import pytest
from helpers import attacks, board, kinds, parse, siege, siege_state, siege_text

from clashkit import IllegalActionError, Play, apply, legal_actions
from clashkit.show.render import describe_event, event_dicts

CARDS = """
card = [
  { name = "P",   kind = "creature", cost = 1, attack = 1, health = 1 },
  { name = "ZAP", kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
]
"""

# --- R5.1 Playing an incantation on a creature in play --------------------------------------


def test_r5_1_target_any_creature_either_side_and_r5_2_back_rightmost():
    out = siege("r5_1_any_creature_either_side")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P ZAP",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "MINE MINE(2)",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r5_1_ruling_no_creature_in_play_no_incantation():
    state = parse(CARDS + '[game]\nmana = 3\n[A]\nhand = ["BASTION", "ZAP", "P"]\n[B]\nhand = ["BASTION", "P"]\n').state
    assert [a for a in legal_actions(state) if isinstance(a, Play) and a.card == "ZAP"] == []
    with pytest.raises(IllegalActionError, match=r"^R5\.1: an incantation needs a creature in play to target$") as err:
        apply(state, Play("ZAP", 1, target=(1, 0, 0)))
    assert err.value.rule == "R5.1"


def test_r5_1_no_creature_at_the_named_place():
    state = parse(
        CARDS + '[game]\nmana = 3\n[A]\nhand = ["BASTION", "ZAP", "P"]\n[B]\nhand = ["BASTION", "P"]\nupper = ["P"]\n'
    ).state
    with pytest.raises(IllegalActionError, match=r"^R5\.1: there is no creature at B\.upper\.1$") as err:
        apply(state, "play ZAP B.upper.1")
    assert err.value.rule == "R5.1"
    with pytest.raises(IllegalActionError, match=r"^R5\.1: ZAP is an incantation: name a target creature"):
        apply(state, Play("ZAP", 1, lane=0))


def test_r5_1_targets_listed_for_every_creature_in_play():
    state = parse(
        CARDS
        + '[game]\nmana = 1\n[A]\nhand = ["BASTION", "ZAP", "P"]\nlower = ["P"]\n[B]\nhand = ["BASTION", "P"]\nupper = ["P", "P"]\n'
    ).state
    assert [str(a) for a in legal_actions(state)] == [
        "play ZAP@1 A.lower.0",
        "play ZAP@1 B.upper.0",
        "play ZAP@1 B.upper.1",
        "play P@2 upper",
        "play P@2 lower",
        "siege",
    ]


def test_r5_1_only_playable_incantations():
    state = parse(
        CARDS
        + '[game]\nmana = 3\n[A]\nhand = ["BASTION", "P", "P", "P", "P", "ZAP"]\n[B]\nhand = ["BASTION", "P"]\nupper = ["P"]\n'
    ).state
    with pytest.raises(IllegalActionError) as err:
        apply(state, "play ZAP@5 B.upper.0")
    assert err.value.rule == "R3.2"


def test_r5_1_not_enough_mana():
    state = parse(
        CARDS + '[game]\nmana = 0\n[A]\nhand = ["BASTION", "ZAP", "P"]\n[B]\nhand = ["BASTION", "P"]\nupper = ["P"]\n'
    ).state
    with pytest.raises(IllegalActionError, match=r"^R3\.3: ZAP costs 1 mana, only 0 left$"):
        apply(state, "play ZAP B.upper.0")


# --- R5.2, R5.3 Back to the hand, and again -------------------------------------------------


def test_r5_2_effect_at_once_then_the_card_goes_rightmost():
    out = siege("r5_5_damage")
    steps = [e["kind"] for e in out["events"] if e["phase"] == "summon"]
    assert steps == ["card_played", "incantation_resolved", "damage", "card_returned"]
    returned = [e for e in out["events"] if e["kind"] == "card_returned"]
    assert [(e["target_player"], e["target_card"], e["position"]) for e in returned] == [("A", "ZAP", 5)]


def test_r5_3_played_again_in_the_same_turn_while_playable():
    state = siege_state("r5_3_played_again_while_playable")
    assert state.mana == 0
    assert board(state) == {
        "winner": None,
        "A.hand": "BASTION P ZAP",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION P TOUGH",
        "B.hand_health": 2,
        "B.upper": "",
        "B.lower": "",
    }


def test_r5_3_not_again_once_it_is_the_fifth_card():
    text = (
        CARDS
        + """
        [game]
        mana = 2
        actions = [
          { play = "ZAP", target = "B.upper.0" },
          { play = "ZAP", target = "B.upper.0" },
        ]
        [A]
        hand = ["BASTION", "ZAP", "P", "P", "P", "P"]
        [B]
        hand = ["BASTION", "P"]
        upper = [{ card = "P", new = true }, "P"]
        """
    )
    with pytest.raises(
        IllegalActionError, match=r"actions\[1\] \(play ZAP B\.upper\.0\): R3\.2: ZAP is not among"
    ) as err:
        siege_text(text)
    assert err.value.rule == "R3.2"


# --- R5.4 Indestructible targets ----------------------------------------------------------


def test_r5_4_indestructible_target_nothing_happens_mana_spent():
    state = siege_state("r5_4_indestructible_target_nothing_happens")
    assert state.mana == 1
    out = board(state)
    assert out == {
        "winner": None,
        "A.hand": "BASTION P KILL",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "ROCK",
        "B.lower": "",
    }
    assert kinds(state, "incantation_resolved", "creature_destroyed") == ["incantation_resolved"]


@pytest.mark.parametrize(
    "effect", ["damage 5", "destroy", "bounce", "shift", "weaken 1", "empower 2", "grant splash", "heal"]
)
def test_r5_4_every_effect_does_nothing_to_indestructible(effect):
    state = siege_state(
        f"""
        card = [
          {{ name = "ROCK", kind = "creature", cost = 1, attack = 1, health = 2, abilities = ["indestructible"] }},
          {{ name = "P",    kind = "creature", cost = 1, attack = 1, health = 1 }},
          {{ name = "SPELL", kind = "incantation", cost = 1, effect = "{effect}", target = "any" }},
        ]
        [game]
        mana = 1
        actions = [{{ play = "SPELL", target = "B.upper.0" }}]
        [A]
        hand = ["BASTION", "SPELL", "P"]
        [B]
        hand = ["BASTION", "P"]
        upper = [{{ card = "ROCK", damage = 1 }}]
        """
    )
    rock = state.lanes[1][0][0]
    assert (rock.damage, rock.attack_mod, rock.granted) == (1, 0, 0)
    assert board(state)["B.upper"] == "ROCK(1)" and state.mana == 0
    assert no_effect_lines(state) == ["SPELL has no effect: B's ROCK is Indestructible (R5.4, R6.5)"]


def no_effect_lines(state) -> list[str]:
    """The explained lines of the ``no_effect`` events."""
    return [describe_event(e) for e in event_dicts(state) if e["kind"] == "no_effect"]


def test_r5_4_an_incantation_on_an_indestructible_creature_says_why_it_did_nothing():
    state = siege_state("r5_4_indestructible_target_nothing_happens")
    assert kinds(state, "card_played", "incantation_resolved", "no_effect", "card_returned") == [
        "card_played",
        "incantation_resolved",
        "no_effect",
        "card_returned",
    ]
    assert no_effect_lines(state) == ["KILL has no effect: B's ROCK is Indestructible (R5.4, R6.5)"]
    event = next(e for e in event_dicts(state) if e["kind"] == "no_effect")
    assert (event["card"], event["target_player"], event["target_card"], event["lane"], event["position"]) == (
        "KILL",
        "B",
        "ROCK",
        "upper",
        0,
    )


NO_EFFECT_TEXT = """
    card = [
      {{ name = "T",     kind = "creature", cost = 1, attack = 1, health = 5, abilities = ["splash"] }},
      {{ name = "HOLD",  kind = "creature", cost = 1, attack = 1, health = 5, aura = "pierce@front" }},
      {{ name = "P",     kind = "creature", cost = 1, attack = 1, health = 1 }},
      {{ name = "SPELL", kind = "incantation", cost = 0, effect = "{effect}", target = "any" }},
    ]
    [game]
    mana = 0
    actions = [{actions}]
    [A]
    hand = ["BASTION", "SPELL", "P"]
    [B]
    hand = ["BASTION", "P"]
    upper = [{target}, "HOLD"]
"""


@pytest.mark.parametrize(
    ("effect", "target", "casts", "lines"),
    [
        ("heal", '"T"', 1, ["SPELL has no effect: B's T has no damage to heal (R5.5)"]),
        ("heal", '{ card = "T", damage = 1 }', 1, []),
        ("damage 0", '"T"', 1, ["SPELL has no effect: damage 0 changes nothing (R5.5)"]),
        ("weaken 0", '"T"', 1, ["SPELL has no effect: weaken 0 changes nothing (R5.5)"]),
        ("empower 0", '"T"', 1, ["SPELL has no effect: empower 0 changes nothing (R5.5)"]),
        ("weaken 2", '"T"', 1, []),  # attack 1 - 2: floored at 0 now, but modifiers add up (R4.1)
        ("grant splash", '"T"', 1, ["SPELL has no effect: B's T has Splash already (R5.5)"]),
        ("grant rage", '"T"', 2, ["SPELL has no effect: B's T has Rage already (R5.5)"]),  # the second cast
        ("grant pierce", '"T"', 1, []),  # from HOLD's Aura only, which T may lose this turn (R10.4)
        ("damage 1", '"T"', 1, []),
        ("shift", '"T"', 1, []),
    ],
)
def test_r5_5_an_effect_with_nothing_to_do_says_why(effect, target, casts, lines):
    actions = ", ".join(['{ play = "SPELL", target = "B.upper.0" }'] * casts)
    state = siege_state(NO_EFFECT_TEXT.format(effect=effect, target=target, actions=actions))
    assert no_effect_lines(state) == lines
    assert kinds(state, "incantation_resolved") == ["incantation_resolved"] * casts


# --- R5.5 Effects --------------------------------------------------------------------------


def test_r5_5_damage():
    out = siege("r5_5_damage")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P P P P ZAP",
        "A.hand_health": 5,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "TOUGH(2)",
    }


def test_r5_5_destroy():
    out = siege("r5_5_destroy")
    assert kinds(out, "creature_destroyed") == ["creature_destroyed"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P KILL",
        "A.hand_health": 2,
        "A.upper": "",
        "A.lower": "",
        "B.hand": "BASTION P FRONT",
        "B.hand_health": 2,
        "B.upper": "BACK",
        "B.lower": "",
    }


def test_r5_5_bounce_is_not_a_destruction():
    out = siege("r5_5_bounce")
    assert kinds(out, "creature_destroyed") == []
    assert attacks(out) == ["A.HITTER upper -> B.BACK 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P HOP",
        "A.hand_health": 2,
        "A.upper": "HITTER",
        "A.lower": "",
        "B.hand": "P BASTION P FRONT",
        "B.hand_health": 2,
        "B.upper": "BACK(1)",
        "B.lower": "",
    }


def test_r5_5_bounce_own_creature_and_r10_0_it_comes_back_fresh():
    out = siege("r10_0_bounced_creature_comes_back_fresh")
    assert attacks(out) == []
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P HOP",
        "A.hand_health": 2,
        "A.upper": "VET",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r5_5_shift_to_the_back_of_the_other_lane():
    out = siege("r5_5_shift")
    assert attacks(out) == ["A.HITTER upper -> B.BASTION 2"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P VORTEX",
        "A.hand_health": 2,
        "A.upper": "HITTER",
        "A.lower": "",
        "B.hand": "P P BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "P BLOCKER(1)",
    }


def test_r5_5_weaken_and_empower():
    out = siege("r5_5_weaken_and_empower")
    assert attacks(out) == ["A.UPPERS upper -> B.BASTION 1", "A.LOWERS lower -> B.BASTION 3"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P HEX PUMP",
        "A.hand_health": 3,
        "A.upper": "UPPERS",
        "A.lower": "LOWERS",
        "B.hand": "P P P P BASTION P",
        "B.hand_health": 1,
        "B.upper": "",
        "B.lower": "",
    }


def test_r5_5_grant_an_ability():
    out = siege("r5_5_grant")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P GIFT",
        "A.hand_health": 2,
        "A.upper": "HITTER",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "WALL(2)",
        "B.lower": "WALL(2)",
    }


def test_r5_5_heal():
    out = siege("r5_5_heal")
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P MEND",
        "A.hand_health": 2,
        "A.upper": "HITTER",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "WORN(2)",
        "B.lower": "",
    }


def test_r5_5_effects_until_end_of_turn_end():
    state = siege_state("r5_5_weaken_and_empower")
    apply(state, "end")
    assert [c.attack_mod for _, _, _, c in state.in_play()] == [0, 0]


# --- R5.6 Incantation damage is not an attack -------------------------------------------------


def test_r5_6_protection_neither_stops_nor_spends_on_incantation_damage():
    out = siege("r5_6_incantation_damage_is_not_an_attack")
    assert [e["amount"] for e in out["events"] if e["kind"] == "protection_used"] == [3]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P ZAP",
        "A.hand_health": 2,
        "A.upper": "HITTER HITTER",
        "A.lower": "",
        "B.hand": "BASTION P",
        "B.hand_health": 1,
        "B.upper": "SHIELD(5)",
        "B.lower": "",
    }


def test_r5_6_incantation_kill_earns_no_bloodlust_attack():
    # BERSERKER's attack leaves WALL standing (no follow-up); ZAP, played
    # after it, destroys WALL: that is no attack of BERSERKER's, so it does
    # not attack again.
    out = siege_text(
        """
        card = [
          { name = "BERSERKER", kind = "creature", cost = 1, attack = 1, health = 3, abilities = ["bloodlust"] },
          { name = "P",    kind = "creature", cost = 1, attack = 1, health = 1 },
          { name = "WALL", kind = "creature", cost = 1, attack = 0, health = 3 },
          { name = "ZAP",  kind = "incantation", cost = 1, effect = "damage 2", target = "enemy" },
        ]
        [game]
        mana = 1
        actions = [{ play = "ZAP", target = "B.upper.0", siege = 1 }]
        [A]
        hand = ["BASTION", "ZAP", "P"]
        upper = ["BERSERKER"]
        [B]
        hand = ["BASTION", "P"]
        upper = ["WALL", "P"]
        """
    )
    assert attacks(out) == ["A.BERSERKER upper -> B.WALL 1"]
    assert board(out) == {
        "winner": None,
        "A.hand": "BASTION P ZAP",
        "A.hand_health": 2,
        "A.upper": "BERSERKER",
        "A.lower": "",
        "B.hand": "BASTION P WALL",
        "B.hand_health": 2,
        "B.upper": "P",
        "B.lower": "",
    }
