"""The siege lab's controller: set up both sides' lanes, then step the siege attack by
attack (R3.9-R3.11), back, or run it out.

Plain Python, no ipywidgets: :mod:`clashkit.viz.labs.siege_lab_view` draws it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from ...base import (
    KEEP,
    KEEP_NAMES,
    LANES,
    PLAYERS,
    CardSet,
    ClashkitError,
    Mode,
    Player,
    Rules,
    ScenarioError,
    starter_set,
)
from ...engine import (
    ATTACK,
    BEGIN_SIEGE,
    SUMMON,
    Creature,
    GameState,
    Play,
    Proceed,
    Scenario,
    ScenarioAction,
    apply,
    dump_scenario,
    format_place,
    legal_actions,
    load_scenario,
    next_in_order,
    parse_action,
    parse_scenario,
)
from ...show import describe_event, event_dicts
from .lab_common import _card_names, _History, _log_len, action_label, events_table, menu_order, on_meant_side


@dataclass
class Slot:
    """One creature placed in a lane of the siege lab (a lane entry of ``docs/scenarios.md``)."""

    card: str
    damage: int = 0
    new: bool = False
    protection_used: bool = False


@dataclass
class Side:
    """One player's part of the siege lab: the hand (with the keep) and both lanes."""

    hand: list[str] = field(default_factory=lambda: ["BASTION"])
    upper: list[Slot] = field(default_factory=list)
    lower: list[Slot] = field(default_factory=list)

    def lane(self, lane: str) -> list[Slot]:
        if lane not in ("upper", "lower"):
            raise ValueError(f"{lane!r} is not a lane (upper, lower)")
        return self.upper if lane == "upper" else self.lower


class SiegeLab:
    """Set up both sides' lanes, then step through the active player's siege (R3.9–R3.11).

    The setup is a scenario (``docs/scenarios.md``): it is checked like a
    scenario file, saved as one (:meth:`save`, :meth:`scenario_text`) and loaded
    from one (:meth:`from_scenario`), so a position built by clicking outlives
    the kernel and ``clashkit siege FILE`` runs the same siege.  A loaded file's
    summon-phase actions are played before the siege begins and its siege
    actions in their windows; an incantation cast here is kept as a siege action
    of the window it was cast in, and saved with the position.

    Each :meth:`next` is one creature's turn in the siege order; :meth:`back`
    restores the state before it exactly; :meth:`run` goes to the end of the
    siege, which stops before the end-of-turn regeneration (damage stays visible).
    """

    def __init__(
        self,
        cards: CardSet | None = None,
        *,
        active: str = "A",
        mana: int = 0,
        rules: Rules | None = None,
        seed: int = 0,
    ) -> None:
        self.cards = cards if cards is not None else starter_set()
        self.sides = {"A": Side(), "B": Side()}
        self.active = active
        self.mana = mana
        self.rules = rules if rules is not None else Rules()
        self.seed = seed
        #: Summon-phase actions played before the siege begins (from a loaded file).
        self.summon: list[ScenarioAction] = []
        #: Siege actions by window (R3.11): a loaded file's, then the incantations cast here.
        self.plan: list[ScenarioAction] = []
        self.state: GameState | None = None
        self._history = _History()
        self._turns = 0  # turns of the siege order taken
        self._played = 0  # entries of the plan played

    @classmethod
    def example(cls, cards: CardSet | None = None) -> SiegeLab:
        """A ready setup with Protection, an Aura, Pierce, Sprint, Bloodlust and an open lane."""
        lab = cls(cards, active="A", mana=2)
        lab.set_hand("A", ["PARTISAN", "BASTION", "METEORITE", "BRIGAND", "DISCIPLE"])
        lab.set_hand("B", ["BASTION", "MARTYR", "BRUTE"])
        for card in ("OGRE", "SCRIBE"):
            lab.add("A", "upper", card)
        for card in ("BARON", "ASSASSIN"):
            lab.add("A", "lower", card)
        lab.add("B", "upper", "CARAPACE")
        lab.add("B", "upper", "GNOME")
        lab.add("B", "lower", "ZOMBIE", new=True)
        return lab

    # -- Saving and loading ------------------------------------------------------------

    @classmethod
    def from_scenario(cls, path: str | Path, *, cards: CardSet | None = None) -> SiegeLab:
        """A lab holding the position of scenario file ``path`` (a duel), its inline cards, rules
        options, seed and actions.  A bad file raises :class:`~clashkit.base.errors.ScenarioError`."""
        scenario = load_scenario(path, cards=cards)
        return cls._from_loaded(scenario, Path(path).read_text(encoding="utf-8"))

    @classmethod
    def from_scenario_text(cls, text: str, *, cards: CardSet | None = None) -> SiegeLab:
        """:meth:`from_scenario` from TOML text."""
        return cls._from_loaded(parse_scenario(text, source="<text>", cards=cards), text)

    @classmethod
    def _from_loaded(cls, scenario: Scenario, text: str) -> SiegeLab:
        state = scenario.initial
        if state.solo:
            raise ScenarioError(
                f"{scenario.source}: [game] mode: the siege lab sets up duels, this is a solo "
                "position; run it with clashkit siege"
            )
        seed = tomllib.loads(text).get("game", {}).get("seed", 0)
        lab = cls(state.cards, active=PLAYERS[state.active].value, mana=state.mana, rules=state.rules, seed=seed)
        names = state.cards.names
        for p, player in enumerate(("A", "B")):
            keep = "FORT" if state.forts[p] else "BASTION"
            side = lab.sides[player]
            side.hand = [keep if c == KEEP else names[c] for c in state.hands[p]]
            for lane in ("upper", "lower"):
                side.lane(lane)[:] = [
                    Slot(names[c.card], c.damage, c.new, c.protection_used) for c in state.lanes[p][LANES.index(lane)]
                ]
        lab.summon = [a for a in scenario.actions if a.siege is None]
        lab.plan = [a for a in scenario.actions if a.siege is not None]
        return lab

    def scenario_text(self) -> str:
        """The position, its summon-phase actions and the siege actions (a loaded file's and
        the incantations cast so far) as scenario TOML (``docs/scenarios.md``)."""
        return dump_scenario(self._position(), [*self.summon, *self.plan], seed=self.seed)

    def save(self, path: str | Path) -> Path:
        """Write :meth:`scenario_text` to ``path`` (whole or not at all); returns the path."""
        path = Path(path)
        text = self.scenario_text()
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        return path

    def _position(self) -> GameState:
        """The setup as a state in the active player's summon phase, not yet checked (the
        scenario loader checks it)."""
        state = GameState(self.cards, self.rules, mode=Mode.DUEL, seed=self.seed)
        for p, player in enumerate(("A", "B")):
            side = self.sides[player]
            state.hands[p] = [KEEP if n in KEEP_NAMES else self.cards.id(n) for n in side.hand]
            state.forts[p] = "FORT" in side.hand
            for lane in (0, 1):
                state.lanes[p][lane] = [self._creature(slot) for slot in side.lane(LANES[lane])]
        state.active = PLAYERS.index(Player(self.active))
        state.mana = state.mana_gained = self.mana
        state.phase = SUMMON
        return state

    def _creature(self, slot: Slot) -> Creature:
        creature = Creature(self.cards, self.cards.id(slot.card), new=slot.new)
        creature.damage, creature.protection_used = slot.damage, slot.protection_used
        return creature

    # -- Setting up --------------------------------------------------------------------

    def add(
        self,
        player: str,
        lane: str,
        card: str,
        *,
        damage: int = 0,
        new: bool = False,
        protection_used: bool = False,
        position: int | None = None,
    ) -> None:
        """Put a creature on ``player``'s side of ``lane``: at the back (R3.5) or, with
        ``position``, at that place from the bridge (0: nearest it), the creatures from there
        on moving one place back."""
        name = _card_names(self.cards, [card])[0]
        side = self.sides[player].lane(lane)
        at = len(side) if position is None else _place(position, len(side) + 1)
        side.insert(at, Slot(name, damage, new, protection_used))
        self._changed()

    def move(self, player: str, lane: str, position: int, to: int, *, to_lane: str | None = None) -> None:
        """Move the creature at ``position`` of ``lane`` to place ``to`` (of ``to_lane``, by
        default the same lane), the others closing up behind it."""
        side = self.sides[player].lane(lane)
        slot = side.pop(_place(position, len(side)))
        target = self.sides[player].lane(to_lane or lane)
        target.insert(_place(to, len(target) + 1), slot)
        self._changed()

    def remove(self, player: str, lane: str, position: int) -> None:
        del self.sides[player].lane(lane)[position]
        self._changed()

    def update(self, player: str, lane: str, position: int, **changes) -> None:
        """Change a placed creature's ``card``, ``damage``, ``new`` or ``protection_used``."""
        side = self.sides[player].lane(lane)
        if "card" in changes:
            changes["card"] = _card_names(self.cards, [changes["card"]])[0]
        side[position] = replace(side[position], **changes)
        self._changed()

    def clear(self, player: str | None = None, lane: str | None = None) -> None:
        for p in [player] if player else ["A", "B"]:
            for name in [lane] if lane else ["upper", "lower"]:
                self.sides[p].lane(name).clear()
        self._changed()

    def set_hand(self, player: str, names: Sequence[str]) -> None:
        """The hand left to right, with exactly one ``BASTION`` or ``FORT`` (R1.1)."""
        hand = [str(n).strip().upper() for n in names]
        _card_names(self.cards, [n for n in hand if n not in KEEP_NAMES])
        self.sides[player].hand = hand
        self._changed()

    def _changed(self) -> None:
        """A changed position: the actions of the old one no longer apply."""
        self.summon, self.plan = [], []
        self.state = None

    # -- The siege ---------------------------------------------------------------------

    def start(self) -> GameState:
        """Build the position (refusing an impossible one, e.g. damage ≥ health), play its
        summon-phase actions and begin the siege (R1.6)."""
        scenario = parse_scenario(self.scenario_text(), source="siege lab", cards=self.cards)
        self.plan = [a for a in scenario.actions if a.siege is not None]
        state = scenario.state
        for action in self.summon:
            apply(state, action.resolve(state))
        if not state.over:
            apply(state, BEGIN_SIEGE)
        self.state = state
        self._history.clear()
        self._turns = self._played = 0
        self._play_due()
        return state

    def _play_due(self) -> None:
        """R3.11: the planned siege actions whose window has come (all of them once every
        creature has had its turn), as ``clashkit siege`` plays them."""
        state = self.state
        assert state is not None, "the planned actions are played in a started siege"
        while self._played < len(self.plan) and not state.over:
            action = self.plan[self._played]
            if action.window > self._turns and next_in_order(state) is not None:
                break
            apply(state, action.resolve(state))
            self._played += 1

    def _need_state(self) -> GameState:
        return self.state if self.state is not None else self.start()

    @property
    def done(self) -> bool:
        """Whether every creature has had its turn in the siege, or the game is over."""
        state = self._need_state()
        return state.over or next_in_order(state) is None

    @property
    def steps(self) -> int:
        """How many steps have been taken since the siege began."""
        return len(self._history)

    @property
    def can_back(self) -> bool:
        return len(self._history) > 0

    def next(self) -> list[str]:
        """The next creature in the siege order takes its turn (R3.9): it attacks (with its
        Sprint, Splash, Pierce, Bloodlust), or cannot (R3.10).  Returns what happened."""
        self._need_state()
        if self.done:
            return []
        return self._step(ATTACK)

    def cast(self, action: str) -> list[str]:
        """Play an incantation between two attacks (R3.11), e.g. ``play METEORITE B.upper.0``;
        it is kept in :attr:`plan` for the window it was cast in."""
        state = self._need_state()
        return self._step(parse_action(action, state))

    def _step(self, action) -> list[str]:
        state = self.state
        assert state is not None, "a step is taken in a started siege (_need_state)"
        before = _log_len(state)
        self._history.push(state.clone(), self._turns, self._played, list(self.plan))
        try:
            apply(state, action)
        except ClashkitError:
            self.state, self._turns, self._played, self.plan = self._history.pop()
            raise
        if action is ATTACK:
            self._turns += 1
        else:
            self.plan.insert(self._played, _as_scenario_action(action, state, self._turns))
            self._played += 1
        self._play_due()
        return [describe_event(e) for e in event_dicts(state, before)]

    def back(self) -> bool:
        """Undo the last step exactly; False if at the start of the siege."""
        if not len(self._history):
            return False
        self.state, self._turns, self._played, self.plan = self._history.pop()
        return True

    def run(self) -> list[str]:
        """Every remaining turn of the siege, to its end (or the end of the game)."""
        said: list[str] = []
        while not self.done:
            said += self.next()
        return said

    def reset(self) -> GameState:
        """Back to the start of the siege, every step undone (incantations cast here too)."""
        if self.state is None or not self.can_back:
            return self.start()
        while self.back():
            pass
        return self.state

    def incantations(self) -> list[str]:
        """The incantations the active player may play now (R3.11), as action text, those on
        the side their effect is meant for first (R5.5)."""
        return [text for _label, text in self.incantation_menu()]

    def incantation_menu(self) -> list[tuple[str, str]]:
        """:meth:`incantations` as ``(label, action text)`` pairs (:func:`action_label`)."""
        state = self._need_state()
        if state.over:
            return []
        plays = [a for a in legal_actions(state) if not isinstance(a, Proceed)]
        return [(action_label(state, a), str(a)) for a in menu_order(state, plays)]

    def meant(self, action: str) -> bool:
        """Whether incantation ``action`` aims at the side its effect is meant for (R5.5)."""
        state = self._need_state()
        return on_meant_side(state, parse_action(action, state))

    def events(self) -> pl.DataFrame:
        """The siege's events so far (:func:`events_table`)."""
        return events_table(self._need_state())

    def trace(self):
        """The siege so far as trace frames (``events, turns, games = lab.trace()``)."""
        from ...runs import game_frames

        return game_frames(self._need_state())


def _place(position: int, places: int) -> int:
    """``position`` checked against the ``places`` a lane offers (one ``ValueError`` line)."""
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < places:
        raise ValueError(f"position {position!r}: a place from 0 (nearest the bridge) to {places - 1}")
    return position


def _as_scenario_action(action: Play, state: GameState, window: int) -> ScenarioAction:
    """An incantation cast in the lab as the ``[game] actions`` entry that replays it."""
    target = format_place(*action.target) if action.target is not None else None
    lane = LANES[action.lane].value if action.lane is not None else None
    return ScenarioAction(action.card, lane, target, action.index, window)
