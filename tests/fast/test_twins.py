"""Every rule function of the reference engine has its compiled twin, of the same name in the
fast module of the same name — or this file says why it has none.

A rule is found in both engines by the same name (``clashkit.engine.siege.next_in_order`` and
``clashkit.fast.siege.next_in_order``); a new reference function without a twin fails here
until it gets one or a reason.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

#: The rule modules: each has a compiled twin module of the same name.
RULE_MODULES = (
    "hand",
    "lanes",
    "abilities",
    "destruction",
    "siege",
    "incantations",
    "solo",
    "turn",
    "legality",
    "transition",
    "events",
)

#: Reference functions with no compiled twin, and why.
NO_TWIN = {
    "hand.playable_indices": "the compiled legality kernel (fast.legality.legal_cards) scans the hand itself",
    "abilities.neighbours": "fast.abilities.abilities reads the three neighbours of R6.8 inline",
    "abilities.aura_receivers": "fast.lanes reads an Aura's receivers inline where a holder moves (R10.4 aura)",
    "abilities.has": "the compiled code tests the ability bits of fast.abilities.abilities directly",
    "destruction.is_destroyed": "fast.destruction.hurt and destroy compare damage with health inline (R4.3)",
    "siege._next_in_fixed_order": "fast.siege.next_in_order holds both orders of R3.9 and R10.4 siege_order",
    "siege.coming_attack_damage": "greedy's estimate (policies.greedy); the compiled greedy computes it itself",
    "siege.damage_of": "fast.siege.attack_damage",
    "siege.open_siege": "a scenario's AI siege is opened by the reference loader (engine.scenario); fast.siege."
    "begin_siege opens every siege the fast engine plays, with its siege_started event",
    "events.decode": "both engines' rows are decoded in Python, by clashkit.engine.events.decode",
    "turn.first_turn_mana": "R2.3's first-turn mana is read once into the rules table (fast.tables), which the "
    "compiled start of a turn reads",
    "solo.ai_side": "fast.solo.ai_target reads the incantation's declared side inline (R8.4)",
    "incantations.targets": "the compiled legal list (fast.legality.legal_actions) enumerates the targets",
    "legality.can_cast_now": "inline in fast.legality.legal_cards",
    "legality.creatures_in_play": "inline in fast.legality.legal_cards (R5.1)",
    "legality.legal_plays": "fast.legality.legal_actions lists the plays and the proceed action in one array",
    "legality.proceed_action": "fast.legality.legal_actions writes the proceed row last",
    "legality.check": "the fast engine applies only actions taken from its own legal list: nothing to check",
    "legality.illegal": "the reason an action is illegal is said by the reference engine only (see check)",
    "legality._illegal_proceed": "the reason an action is illegal is said by the reference engine only (see check)",
    "legality.summons": "fast.legality.legal_actions writes a creature's two lanes itself (R3.5)",
    "legality.casts": "fast.legality.legal_actions writes an incantation's targets itself (R5.1)",
    "transition.apply": "fast.transition.apply_row applies a row of the legal list (no text form, no check)",
    "transition.apply_unchecked": "fast.transition.apply_row",
}

ROOT = Path(__file__).resolve().parents[2] / "clashkit"


def _functions(layer: str, module: str) -> list[str]:
    tree = ast.parse((ROOT / layer / f"{module}.py").read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]


@pytest.mark.parametrize("module", RULE_MODULES)
def test_each_reference_rule_function_has_its_compiled_twin_or_a_reason(module):
    compiled = importlib.import_module(f"clashkit.fast.{module}")
    missing = [
        f"{module}.{name}"
        for name in _functions("engine", module)
        if f"{module}.{name}" not in NO_TWIN and not hasattr(compiled, name)
    ]
    assert missing == [], f"no compiled twin in clashkit.fast.{module} and no reason in NO_TWIN"


def test_every_reason_names_a_function_that_exists_and_truly_has_no_twin():
    for key in NO_TWIN:
        module, name = key.split(".")
        assert name in _functions("engine", module), f"{key}: no such reference function"
        assert name not in _functions("fast", module), f"{key}: it has a twin now; drop the reason"


def test_the_fast_engine_has_a_module_for_every_rule_module_and_no_catch_all():
    assert all((ROOT / "fast" / f"{m}.py").is_file() for m in RULE_MODULES)
    assert not (ROOT / "fast" / "rules.py").exists()
