"""Helpers for the rules tests: run a scenario's siege and read the table back compactly.

A rules test loads a position (a TOML file in ``tests/scenarios/`` or an inline
string), runs it exactly as ``clashkit siege`` does — summon-phase actions,
then the siege with its windows, stopping before regeneration — and compares
the whole table with :func:`board`, so every test asserts exact hands (left to
right, keep included), lanes (card and damage), hand-health and winner.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from array import array
from pathlib import Path

from clashkit.base.rules import Rules
from clashkit.engine.scenario import Scenario, load_scenario, parse_scenario, run_siege
from clashkit.engine.solo_setup import solo_setup
from clashkit.engine.state import GameState
from clashkit.policies import get_policy
from clashkit.runs.game import new_game
from clashkit.show.render import state_dict

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
ROOT = Path(__file__).resolve().parent.parent


def scenario_path(name: str) -> Path:
    """``tests/scenarios/<name>.toml``."""
    path = SCENARIOS / f"{name}.toml"
    assert path.is_file(), f"no scenario {path}"
    return path


def scenario_text(name: str) -> str:
    """The text of ``tests/scenarios/<name>.toml``."""
    return scenario_path(name).read_text()


def load(name: str) -> Scenario:
    """Load the scenario file ``tests/scenarios/<name>.toml``."""
    return load_scenario(scenario_path(name))


def parse(text: str) -> Scenario:
    """Parse an inline scenario (indentation removed)."""
    return parse_scenario(textwrap.dedent(text), source="<test>")


def siege(name: str) -> dict:
    """Run the siege of a scenario file; the ``siege --json`` object."""
    return state_dict(run_siege(load(name)))


def siege_text(text: str) -> dict:
    """Run the siege of an inline scenario; the ``siege --json`` object."""
    return state_dict(run_siege(parse(text)))


def siege_state(name_or_text: str) -> GameState:
    """The state at the end of the siege (to go on with the API, e.g. end the turn)."""
    scenario = parse(name_or_text) if "\n" in name_or_text else load(name_or_text)
    return run_siege(scenario)


def _lane(entries: list[dict]) -> str:
    return " ".join(e["card"] + (f"({e['damage']})" if e["damage"] else "") for e in entries)


def board(out: dict | GameState) -> dict:
    """The whole table as short strings, for one exact ``==`` per test.

    ``{"winner": None, "A.hand": "X BASTION Y", "A.hand_health": 1,
    "A.upper": "OGRE(2) IMP", "A.lower": "", ...}`` — lanes from the bridge
    outward, a creature's damage in brackets when it has any.  The solo AI
    shows ``B.pile`` (top first), ``B.discard`` and ``B.last_turn`` instead of
    its hand.
    """
    if isinstance(out, GameState):
        out = state_dict(out)
    table: dict = {"winner": out["winner"]}
    for player in ("A", "B"):
        side = out[player]
        if "hand" in side:
            table[f"{player}.hand"] = " ".join(side["hand"])
        else:
            table[f"{player}.pile"] = " ".join(side["pile"])
            table[f"{player}.discard"] = " ".join(side["discard"])
            table[f"{player}.last_turn"] = side["last_turn"]
        table[f"{player}.hand_health"] = side["hand_health"]
        table[f"{player}.upper"] = _lane(side["upper"])
        table[f"{player}.lower"] = _lane(side["lower"])
    return table


def attacks(out: dict | GameState) -> list[str]:
    """Every attack of the siege in order: ``"A.SPRINTER upper -> B.WALL 3"``."""
    if isinstance(out, GameState):
        out = state_dict(out)
    return [
        f"{e['player']}.{e['card']} {e['lane']} -> {e['target_player']}.{e['target_card']} {e['amount']}"
        for e in out["events"]
        if e["kind"] == "attack"
    ]


def kinds(out: dict | GameState, *wanted: str) -> list[str]:
    """The kinds of the events (only ``wanted`` ones if given), in order."""
    if isinstance(out, GameState):
        out = state_dict(out)
    return [e["kind"] for e in out["events"] if not wanted or e["kind"] in wanted]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m clashkit ARGS`` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "clashkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        timeout=120,
    )


def cli_json(*args: str) -> dict:
    """``python -m clashkit ARGS`` that must succeed and print exactly one JSON object."""
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def with_tables(name: str, **tables: dict) -> str:
    """Scenario ``name``'s text with extra tables appended (``rules={...}``, ``solo={...}``).

    The scenario must not have those tables already.
    """
    text = scenario_path(name).read_text()
    for table, values in tables.items():
        assert f"[{table}]" not in text, f"{name} has a [{table}] table already"
        lines = "".join(f"{key} = {json.dumps(value)}\n" for key, value in values.items())
        text += f"\n[{table}]\n{lines}"
    return text


def siege_with(name: str, **tables: dict) -> dict:
    """Run scenario ``name`` with extra ``[rules]`` / ``[solo]`` settings."""
    return siege_text(with_tables(name, **tables))


def run_turn_out(state: GameState) -> GameState:
    """Let every creature of the active player take its siege turn (no incantations)."""
    from clashkit.engine import apply, legal_actions
    from clashkit.engine.actions import ATTACK, BEGIN_SIEGE
    from clashkit.engine.state import SUMMON

    if state.phase == SUMMON:
        apply(state, BEGIN_SIEGE)
    while not state.over and ATTACK in legal_actions(state):
        apply(state, ATTACK)
    return state


def deal_duel(seed: int, *, rules=None, record: bool = True) -> GameState:
    """A duel at the first player's first turn, built by hand (R2): 8 random distinct shipped
    cards each, the keep leftmost (R2.2), a coin flip for the first player (R2.3)."""
    from clashkit.base.cards import starter_set
    from clashkit.base.vocab import KEEP
    from clashkit.engine.turn import start_turn

    cards = starter_set()
    rng = random.Random(seed)
    ids = rng.sample(range(len(cards)), 16)
    state = GameState(cards, rules, seed=seed, record=record)
    state.hands = [[KEEP, *ids[:8]], [KEEP, *ids[8:]]]
    state.first_player = state.active = rng.randrange(2)
    start_turn(state)
    return state


def deal_solo(seed: int, *, rules=None, record: bool = True) -> GameState:
    """A solo game at the player's first turn (R8.1): 8 cards in hand, the other 24 in the
    AI pile with the AI keep at the bottom."""
    from clashkit.base.cards import starter_set
    from clashkit.base.vocab import KEEP, Mode
    from clashkit.engine.turn import start_turn

    cards = starter_set()
    rng = random.Random(seed)
    ids = rng.sample(range(len(cards)), len(cards))
    state = GameState(cards, rules, mode=Mode.SOLO, seed=seed, record=record)
    state.hands = [[KEEP, *ids[:8]], []]
    state.pile = ids[8:32] + [KEEP]
    state.first_player = state.active = 0
    start_turn(state)
    return state


def varied_game(seed: int, policy_a: str, policy_b: str) -> GameState:
    """A duel or a solo game with varied decks, formats and rule options (events recorded)."""
    rng = random.Random(seed)
    rules = Rules(
        incantations_in_siege=rng.random() < 0.7,
        protection=rng.choice(["first_attack", "first_damage"]),
        bloodlust_trigger=rng.choice(["primary", "any"]),
        turn_limit=rng.choice([200, 200, 24]),
    )
    if rng.random() < 0.2:
        deck = rng.choice(["1", "2", "3", "4", "draft"])
        state = solo_setup(deck, get_policy(policy_a), rules=rules, seed=seed).state
    else:
        fmt = rng.choice(["1", "2", "3", "4", "draft", "constructed"])
        other = fmt if fmt in ("draft", "constructed") else rng.choice([d for d in "1234" if d != fmt])
        state, _ = new_game(fmt, other, policy_a, policy_b, rules=rules, seed=seed)
    state.turn_log = array("h")
    return state


def game_outcome(state: GameState) -> tuple:
    """Everything a finished game leaves: its events, its turn rows, the hands, piles, keeps and winner."""
    return (
        bytes(state.log.buffer),
        bytes(state.turn_log),
        state.hands,
        state.pile,
        state.forts,
        state.winner,
        state.turn,
    )


def buttons(widget) -> dict:
    """The buttons of a widget tree by their ``ck-`` class (``ck-next``, ``ck-save``, …), to click in tests."""
    import ipywidgets as w

    found, stack = {}, [widget]
    while stack:
        node = stack.pop()
        if isinstance(node, w.Button):
            found.update({c: node for c in node._dom_classes if c.startswith("ck-")})
        stack.extend(getattr(node, "children", ()))
    return found
