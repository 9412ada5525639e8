"""Helpers for the rules tests: run a scenario's siege and read the table back compactly.

A rules test loads a position (a TOML file in ``tests/scenarios/`` or an inline
string), runs it exactly as ``clashkit siege`` does — summon-phase actions,
then the siege with its windows, stopping before regeneration — and compares
the whole table with :func:`board`, so every test asserts exact hands (left to
right, keep included), lanes (card and damage), hand-health and winner.

The siege runs in the engine :data:`ENGINE` names: ``reference``, or ``fast``, where
:class:`FastPlay` plays the same steps in the fast engine from the same position and the
tests read its result back as a reference state (:func:`clashkit.runs.compare.to_state`).
``tests/rules/conftest.py`` runs each rules test that plays a siege in both.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from array import array
from pathlib import Path

import numpy as np

from clashkit.base.errors import ClashkitError
from clashkit.base.rules import Rules
from clashkit.engine import scenario as scenario_module
from clashkit.engine.actions import ATTACK, BEGIN_SIEGE, END_TURN
from clashkit.engine.scenario import Scenario, load_scenario, parse_scenario, run_siege
from clashkit.engine.solo_setup import solo_setup
from clashkit.engine.state import SUMMON, GameState
from clashkit.fast import from_state
from clashkit.fast.legality import A_CREATURE, A_PROCEED, A_SPELL
from clashkit.fast.legality import legal_actions as fast_legal_actions
from clashkit.fast.siege import next_in_order as fast_next_in_order
from clashkit.fast.state import G_ERROR, G_EVENTS, G_PHASE, GREEDY, OVER, SIEGE, legal_rows
from clashkit.fast.state import SUMMON as FAST_SUMMON
from clashkit.fast.tables import card_tables, rules_array
from clashkit.fast.transition import apply_row
from clashkit.fast.turn import start_turn as fast_start_turn
from clashkit.policies import get_policy
from clashkit.runs.compare import to_state
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


#: The engine the siege helpers play in: ``"reference"`` or ``"fast"`` (set per test by
#: ``tests/rules/conftest.py``).
ENGINE = "reference"
#: How many positions the fast engine has played on (the rules tests' ``[fast]`` runs check they played).
FAST_PLAYS = 0
#: Event rows the fast engine has room for in one scenario.
FAST_EVENTS = 1 << 12


def fast_row(action) -> np.ndarray:
    """An engine action as the fast engine's legal-action row."""
    row = np.zeros(5, np.int64)
    if action is BEGIN_SIEGE or action is ATTACK or action is END_TURN:
        row[0] = A_PROCEED  # R3.9: the turn ends once no creature is left to attack
    elif action.target is None:
        row[:3] = (A_CREATURE, action.index, action.lane)
    else:
        row[:5] = (A_SPELL, action.index, *action.target)
    return row


class FastPlay:
    """A reference position played on in the fast engine, one reference action at a time.

    ``s`` is the fast state (from :func:`clashkit.fast.from_state`, recording events),
    ``t``, ``r`` and ``codes`` the tables, rules and players it plays with (greedy's R4.6
    order for creatures destroyed together, the solo AI's default order).
    """

    def __init__(self, state: GameState) -> None:
        global FAST_PLAYS
        FAST_PLAYS += 1
        self.start = state
        self.s = from_state(state, events=FAST_EVENTS)
        self.t = card_tables(state.cards)
        self.r = rules_array(state.rules, solo=state.solo)
        self.codes = np.array([GREEDY, GREEDY], np.int64)
        self.legal = legal_rows(self.s.hands.shape[1])

    def state(self) -> GameState:
        """The fast position now, as a reference state (events from the start included)."""
        return to_state(self.s, self.start)

    def is_legal(self, action) -> bool:
        """Whether the fast engine lists ``action`` among its legal actions now (``ATTACK`` while a
        creature is still to attack, ``END_TURN`` once none is: R3.9)."""
        n = fast_legal_actions(self.s, self.t, self.r, self.legal)
        row = fast_row(action)
        width = {A_CREATURE: 3, A_SPELL: 5, A_PROCEED: 1}[int(row[0])]  # a row's other columns are scratch
        if not (self.legal[:n, :width] == row[:width]).all(axis=1).any():
            return False
        if action is ATTACK or action is END_TURN:
            attacks_left = self.s.g[G_PHASE] == SIEGE and self.next_in_order() is not None
            return attacks_left if action is ATTACK else self.s.g[G_PHASE] == SIEGE and not attacks_left
        if action is BEGIN_SIEGE:
            return bool(self.s.g[G_PHASE] == FAST_SUMMON)
        return True

    def apply(self, action) -> None:
        """Carry out ``action`` (a reference action: a play, ``BEGIN_SIEGE`` or ``ATTACK``)."""
        apply_row(self.s, self.t, self.r, self.codes, fast_row(action))
        assert self.s.g[G_ERROR] == 0, f"the fast engine stopped with error {self.s.g[G_ERROR]}"

    def next_in_order(self) -> tuple[int, int] | None:
        """R3.9: the next creature to take its siege turn, or ``None``."""
        lane, pos = fast_next_in_order(self.s, self.r)
        return None if lane < 0 else (int(lane), int(pos))

    def events(self) -> list[tuple]:
        """The events recorded since the start, as row tuples."""
        return [tuple(int(x) for x in row) for row in self.s.ev[: self.s.g[G_EVENTS]]]

    @property
    def over(self) -> bool:
        return bool(self.s.g[G_PHASE] == OVER)


def fast_siege(scenario: Scenario) -> GameState:
    """:func:`clashkit.engine.scenario.run_siege` played in the fast engine; its end as a reference state.

    Each action is resolved (card names to places) on the fast position read back; one the
    fast engine does not list as legal raises the error the reference gives for it (R3.2–R3.6,
    R5.1), and it is a test failure if the reference would have played it.
    """
    fast = FastPlay(scenario.state)

    def play(n: int, action) -> None:
        here = fast.state()
        try:
            resolved = action.resolve(here)
        except ClashkitError:
            scenario_module._play(here, action, scenario, n)  # raises the reference's error, placed
            raise
        if not fast.is_legal(resolved):
            scenario_module._play(here, action, scenario, n)  # raises the reference's error
            raise AssertionError(f"the fast engine refuses {action.text()}, which the reference plays")
        fast.apply(resolved)

    summon = [a for a in scenario.actions if a.siege is None]
    siege_actions = [a for a in scenario.actions if a.siege is not None]
    for n, action in enumerate(summon):
        play(n, action)
        if fast.over:
            return fast.state()
    if fast.state().phase == SUMMON:
        fast.apply(BEGIN_SIEGE)
    turn_no = 0
    pending = list(enumerate(siege_actions, start=len(summon)))
    while not fast.over:
        while pending and pending[0][1].window <= turn_no:
            n, action = pending.pop(0)
            play(n, action)
            if fast.over:
                return fast.state()
        if fast.next_in_order() is None:
            break
        fast.apply(ATTACK)
        turn_no += 1
    for n, action in pending:  # past the last turn: after the last attack
        if fast.over:
            break
        play(n, action)
    return fast.state()


def _become(state: GameState, other: GameState) -> None:
    """``state`` takes every field of ``other`` (so a test's state object goes on in place)."""
    for slot in GameState.__slots__:
        setattr(state, slot, getattr(other, slot))


def play_step(state: GameState, action) -> None:
    """``clashkit.apply(state, action)`` (an action object: a play, ``BEGIN_SIEGE``, ``ATTACK``,
    ``END_TURN``) in the engine :data:`ENGINE` names; ``state`` changes in place.  An action the
    fast engine does not list as legal raises the reference's error for it."""
    from clashkit import apply

    if ENGINE == "reference":
        apply(state, action)
        return
    fast = FastPlay(state)
    if not fast.is_legal(action):
        apply(state.clone(), action)  # raises the reference's error
        raise AssertionError(f"the fast engine refuses {action}, which the reference plays")
    fast.apply(action)
    _become(state, fast.state())


def turn_starts(state: GameState) -> None:
    """R3.1 / R8.2–R8.4: the active player's turn starts (its mana; the solo AI's summon phase plays
    itself) in the engine :data:`ENGINE` names; ``state`` changes in place."""
    if ENGINE == "reference":
        from clashkit.engine.turn import start_turn

        start_turn(state)
        return
    fast = FastPlay(state)
    fast_start_turn(fast.s, fast.t, fast.r, fast.codes)
    _become(state, fast.state())


def run(scenario: Scenario) -> GameState:
    """The scenario's siege (``clashkit siege``) in the engine :data:`ENGINE` names."""
    if ENGINE == "fast":
        return fast_siege(scenario)
    assert ENGINE == "reference", ENGINE
    return run_siege(scenario)


def siege(name: str) -> dict:
    """Run the siege of a scenario file; the ``siege --json`` object."""
    return state_dict(run(load(name)))


def siege_text(text: str) -> dict:
    """Run the siege of an inline scenario; the ``siege --json`` object."""
    return state_dict(run(parse(text)))


def siege_state(name_or_text: str) -> GameState:
    """The state at the end of the siege (to go on with the API, e.g. end the turn)."""
    scenario = parse(name_or_text) if "\n" in name_or_text else load(name_or_text)
    return run(scenario)


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
    from clashkit.engine import legal_actions
    from clashkit.engine.actions import ATTACK, BEGIN_SIEGE
    from clashkit.engine.state import SUMMON

    if state.phase == SUMMON:
        play_step(state, BEGIN_SIEGE)
    while not state.over and ATTACK in legal_actions(state):
        play_step(state, ATTACK)
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
