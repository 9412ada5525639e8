"""What the notebook widgets do, as plain Python classes: no ipywidgets, no browser.

Each controller owns a game state and the few operations its view offers;
:mod:`clashkit.viz.widgets` only draws them and wires buttons to them, so
every behaviour is testable in plain pytest.

=====================  ==================================================================
:class:`HandBuilder`   choose 8 cards and their order, see the playable cards, the mana
                       each turn would bring and the hand-health; play the first turns
                       against a deck and a bot
:class:`SiegeLab`      set up both sides' lanes, then step the siege attack by attack
                       (next / back / run)
:class:`RulesStepper`  a scenario's turn played one step at a time, each step explained
                       with the rules it applies
:class:`CardDesigner`  edit or add a card, rerun a small simulation, compare win rates
=====================  ==================================================================

Stepping back restores an exact copy of the state before the step: every
controller keeps a list of :meth:`~clashkit.state.GameState.clone` snapshots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

import polars as pl

from ..actions import ATTACK, BEGIN_SIEGE, END_TURN, Proceed, parse_action
from ..cards import Card, CardSet, card_from_fields, starter_set
from ..engine import apply
from ..errors import ClashkitError
from ..events import EVENT_FIELDS
from ..hand import playable_indices
from ..legality import has_choice, legal_actions, legal_cards, proceed_action
from ..loop import run
from ..policies import Policy, get_policy
from ..render import describe_event, event_dicts
from ..scenario import Scenario, load_scenario, parse_scenario
from ..setup import new_duel
from ..siege import next_in_order
from ..state import SIEGE, SUMMON, GameState
from ..vocab import KEEP, LANES, PLAYERS, hand_health_of

#: The rule each kind of event applies (the field table of :mod:`clashkit.events`).
RULE_OF_EVENT = {kind.value: spec.rule for kind, spec in EVENT_FIELDS.items()}

_EVENT_COLUMNS = ["step", "turn", "player", "phase", "kind", "rule", "what happened"]


def events_table(state: GameState, start: int = 0) -> pl.DataFrame:
    """The events of ``state`` from row ``start`` on: step, turn, player, phase, kind, the rule
    it applies and a sentence (a small frame for one game, not a trace of many)."""
    rows = event_dicts(state, start)
    if not rows:
        return pl.DataFrame(
            schema={c: pl.Int64 if c in ("step", "turn") else pl.String for c in _EVENT_COLUMNS}
        )
    return pl.DataFrame(
        {
            "step": [e["step"] for e in rows],
            "turn": [e["turn"] for e in rows],
            "player": [e["player"] for e in rows],
            "phase": [e["phase"] for e in rows],
            "kind": [e["kind"] for e in rows],
            "rule": _rules(rows, state.cards),
            "what happened": [describe_event(e) for e in rows],
        }
    )


def _rules(rows: list[dict], cards: CardSet) -> list[str]:
    """The rule of each event; damage of an attack beyond its primary target is told apart
    as Pierce (same lane, R6.2) or Splash (other lane, R6.1)."""
    out = []
    attack_lane = None
    for event in rows:
        rule = rule_of(event, cards)
        kind = event["kind"]
        if kind == "attack":
            attack_lane = event["lane"]
        elif kind in ("card_played", "turn_started", "regeneration"):
            attack_lane = None
        elif kind == "damage" and attack_lane is not None and event["card"] in cards:
            if cards.card(event["card"]).is_creature:
                if event["lane"] != attack_lane:
                    rule = "R6.1"
                elif event["position"]:
                    rule = "R6.2"
        elif (
            kind == "damage"
            and event["card"] in cards
            and not cards.card(event["card"]).is_creature
        ):
            rule = "R5.5"
        out.append(rule)
    return out


def rule_of(event: dict, cards: CardSet) -> str:
    """The rule an event (:func:`clashkit.render.event_dicts`) applies."""
    kind = event["kind"]
    if kind == "attack" and event["target_card"] in ("BASTION", "FORT"):
        return "R4.2"
    if kind == "card_returned" and event["target_card"] in cards:
        if not cards.card(event["target_card"]).is_creature:
            return "R5.2"
    if kind == "creature_moved" and event["amount"] == 0:
        return "R5.5"  # shift
    return RULE_OF_EVENT.get(kind, "")


def _log_len(state: GameState) -> int:
    return len(state.log) if state.log is not None else 0


class _History:
    """Snapshots for stepping back: ``push`` before a step, ``pop`` to undo it."""

    def __init__(self) -> None:
        self._snapshots: list[tuple] = []

    def push(self, *snapshot) -> None:
        self._snapshots.append(snapshot)

    def pop(self) -> tuple:
        return self._snapshots.pop()

    def clear(self) -> None:
        self._snapshots.clear()

    def __len__(self) -> int:
        return len(self._snapshots)


def _card_names(cards: CardSet, names: Sequence[str]) -> list[str]:
    out = []
    for name in names:
        name = str(name).strip().upper()
        if name not in cards:
            raise KeyError(f"unknown card {name!r}")
        out.append(name)
    return out


# --- Hand builder ----------------------------------------------------------------------------


class HandBuilder:
    """Build a hand of 8 cards in a chosen order (R2.2: the keep starts leftmost), then play
    its first turns as player A against a deck played by a bot.

    >>> hb = HandBuilder()
    >>> hb.playable
    ['ANNIHILATION', 'BARON', 'BOOM!', 'BRUTE']
    """

    def __init__(
        self,
        order: Sequence[str] | None = None,
        *,
        cards: CardSet | None = None,
        opponent: str | Sequence[str] = "deck 2",
        bot: str = "greedy",
        seed: int = 0,
        first: str = "A",
    ) -> None:
        self.cards = cards if cards is not None else starter_set()
        self.decks = {f"deck {n}": names for n, names in self.cards.decks.items()}
        self.order: list[str] = _card_names(
            self.cards, order if order is not None else self.cards.deck(1)
        )
        self.opponent = opponent
        self.bot = bot
        self.seed = seed
        self.first = first
        self.state: GameState | None = None
        self._history = _History()
        self._mark = 0  # event rows already shown

    # -- The hand ------------------------------------------------------------------------

    def set_order(self, names: Sequence[str]) -> None:
        self.order = _card_names(self.cards, names)

    def set_card(self, slot: int, name: str) -> None:
        """Put ``name`` in ``slot`` (0 = leftmost after the keep)."""
        self.order[slot] = _card_names(self.cards, [name])[0]

    def move(self, slot: int, step: int) -> None:
        """Swap the card in ``slot`` with its neighbour ``step`` (−1 left, +1 right)."""
        other = slot + step
        if 0 <= slot < len(self.order) and 0 <= other < len(self.order):
            self.order[slot], self.order[other] = self.order[other], self.order[slot]

    @property
    def hand(self) -> list[str]:
        """The hand the game starts with, left to right: the Bastion, then the 8 cards (R2.2)."""
        return ["BASTION", *self.order]

    @property
    def playable(self) -> list[str]:
        """R3.2: the 4 leftmost cards besides the keep."""
        hand = self.hand
        return [hand[i] for i in playable_indices([KEEP, *self.order])]

    @property
    def problems(self) -> list[str]:
        """What keeps this hand from a duel: the count (R2.1) and repeated cards (R7)."""
        out = []
        if len(self.order) != 8:
            out.append(f"a hand has 8 cards (R2.1), this one {len(self.order)}")
        repeated = sorted({n for n in self.order if self.order.count(n) > 1})
        if repeated:
            out.append(f"{', '.join(repeated)} twice: a kit holds one copy of each card")
        return out

    def plan(self, turns: int = 4, *, first: bool | None = None) -> pl.DataFrame:
        """A solitaire projection of the hand's first ``turns`` own turns: with no opponent,
        every affordable playable creature is played left to right (incantations wait for
        targets).  Columns: ``turn`` (own), ``mana`` (R2.3: 6 on the game's first turn,
        else R3.1: cards in hand with the keep), ``playable``, ``played``, ``mana_left``,
        ``hand_health`` (after the plays), ``hand`` (after the plays)."""
        first = (self.first == "A") if first is None else first
        cards = self.cards
        # A's summon phase alone at the table: what may be played is the rules' answer
        # (clashkit.legality), asked of a state holding this hand and this mana.
        table = GameState(cards, record=False)
        table.phase = SUMMON
        hand = table.hands[0] = [KEEP, *(cards.id(n) for n in self.order)]
        rows = []
        for turn in range(1, turns + 1):
            mana = 6 if (turn == 1 and first) else len(hand)
            table.mana = mana
            playable = [cards.names[hand[i]] for i in playable_indices(hand)]
            played = []
            changed = True
            while changed:
                changed = False
                for index, card in legal_cards(table):
                    if not cards.is_creature[card]:
                        continue
                    if hand[-1] != KEEP and index == len(hand) - 1 and hand[-2] == KEEP:
                        continue  # R3.8: it would leave the keep rightmost
                    hand.pop(index)
                    table.mana -= cards.cost[card]
                    played.append(cards.names[card])
                    changed = True
                    break
            left = table.mana
            rows.append(
                {
                    "turn": turn,
                    "mana": mana,
                    "playable": ", ".join(playable),
                    "played": ", ".join(played),
                    "mana_left": left,
                    "hand_health": hand_health_of(hand),
                    "hand": " ".join("BASTION" if c == KEEP else cards.names[c] for c in hand),
                }
            )
        return pl.DataFrame(rows)

    # -- Playing the first turns ---------------------------------------------------------

    def _opponent_deck(self) -> list[str]:
        if isinstance(self.opponent, str):
            key = self.opponent if self.opponent in self.decks else f"deck {self.opponent}"
            return list(self.decks[key])
        return _card_names(self.cards, self.opponent)

    def start(self) -> GameState:
        """A new duel: A holds this hand in this order, B the opponent's deck (shuffled, R2.2);
        if B moves first, the bot plays B's turn at once."""
        if self.problems:
            raise ValueError("; ".join(self.problems))
        state = new_duel(
            self.order,
            self._opponent_deck(),
            cards=self.cards,
            seed=self.seed,
            first_player=0 if self.first == "A" else 1,
        )
        state.hands[0] = [KEEP, *(self.cards.id(n) for n in self.order)]
        self._policy: Policy = get_policy(self.bot)
        self.state = state
        self._history.clear()
        self._mark = 0
        self._bot_turns()
        return state

    def _order_returns(self, state, owner, cards):
        """R4.6: the bot orders B's returns; A's keep the default order."""
        return self._policy.order_returns(state, owner, cards) if owner == 1 else cards

    def _bot_turns(self) -> None:
        """The bot plays B's turn with the game loop, until it is A's turn again (or the game is over);
        A, a person, is not asked anything in it and keeps the default order of returns (R4.6)."""
        state = self.state
        if not state.over and state.active == 1:
            run(state, Policy(), self._policy, until_turn=state.turn + 1)

    def _need_game(self) -> GameState:
        if self.state is None:
            self.start()
        return self.state

    def legal(self) -> list[str]:
        """A's legal actions now: ``play OGRE@2 upper``, ``siege``, ``attack``, ``end``."""
        state = self._need_game()
        if state.over or state.active != 0:
            return []
        return [str(a) for a in legal_actions(state)]

    def act(self, action: str) -> list[str]:
        """Apply one of A's actions (its text); when A's turn ends the bot plays B's turn.
        Returns the sentences of what happened."""
        state = self._need_game()
        before = _log_len(state)
        self._history.push(state.clone(), self._mark)
        try:
            action = parse_action(action, state) if isinstance(action, str) else action
            apply(state, action, self._order_returns)
        except ClashkitError:
            self._history.pop()
            raise
        self._bot_turns()
        return [describe_event(e) for e in event_dicts(state, before)]

    def bot_move(self) -> list[str]:
        """Let the bot choose A's next action too."""
        state = self._need_game()
        if state.over or state.active != 0:
            return []
        return self.act(self._policy.decide(state) if has_choice(state) else proceed_action(state))

    def finish_turn(self) -> list[str]:
        """Play A's turn on to its end without further plays: the siege, every attack, the end."""
        state = self._need_game()
        said: list[str] = []
        turn = state.turn
        while not state.over and state.active == 0 and state.turn == turn:
            said += self.act(self._proceed(state))
        return said

    @staticmethod
    def _proceed(state: GameState) -> Proceed:
        return proceed_action(state)

    def back(self) -> bool:
        """Undo A's last action (and the bot turn that followed it); False if nothing to undo."""
        if not len(self._history):
            return False
        self.state, self._mark = self._history.pop()
        return True

    @property
    def can_back(self) -> bool:
        return len(self._history) > 0

    def events(self) -> pl.DataFrame:
        """Every event of the game so far (:func:`events_table`)."""
        return events_table(self._need_game())

    def trace(self):
        """The game so far as trace frames (``events, turns, games = builder.trace()``)."""
        from ..trace import game_frames

        return game_frames(self._need_game(), policy_a="you", policy_b=str(self.bot))

    def turns(self) -> pl.DataFrame:
        """The turns frame of the game so far (``interfaces.md`` §4)."""
        return self.trace().turns

    def hand_health_track(self) -> pl.DataFrame:
        """Both players' hand-health and keep after every event so far: ``step``, ``turn``,
        ``player`` (whose hand), ``hand_health``, ``keep``."""
        events = self.trace().events
        parts = [
            events.select(
                "step",
                "turn",
                pl.lit(p).alias("player"),
                pl.col(f"hand_health_{p.lower()}").cast(pl.Int64).alias("hand_health"),
                pl.col(f"keep_{p.lower()}").cast(pl.String).alias("keep"),
            )
            for p in ("A", "B")
        ]
        return pl.concat(parts).sort("player", "step")


# --- Siege lab ---------------------------------------------------------------------------------


@dataclass
class Slot:
    """One creature placed in a lane of the siege lab (``interfaces.md`` §2 lane entry)."""

    card: str
    damage: int = 0
    new: bool = False
    protection_used: bool = False

    def toml(self) -> str:
        parts = [f'card = "{self.card}"', f"damage = {self.damage}"]
        if self.new:
            parts.append("new = true")
        if self.protection_used:
            parts.append("protection_used = true")
        return "{ " + ", ".join(parts) + " }"


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

    The setup is written as a scenario (``interfaces.md`` §2), so it is checked
    like a scenario file and can be saved as one (:meth:`scenario_text`).
    Each :meth:`next` is one creature's turn in the siege order; :meth:`back`
    restores the state before it exactly; :meth:`run` goes to the end of the
    siege, which stops before the end-of-turn regeneration (damage stays visible).
    """

    def __init__(self, cards: CardSet | None = None, *, active: str = "A", mana: int = 0) -> None:
        self.cards = cards if cards is not None else starter_set()
        self.sides = {"A": Side(), "B": Side()}
        self.active = active
        self.mana = mana
        self.state: GameState | None = None
        self._history = _History()

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
        lab.add("B", "upper", "GNOME", damage=1)
        lab.add("B", "lower", "ZOMBIE", new=True)
        return lab

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
    ) -> None:
        """Put a creature at the back of ``player``'s side of ``lane`` (R3.5)."""
        name = _card_names(self.cards, [card])[0]
        self.sides[player].lane(lane).append(Slot(name, damage, new, protection_used))
        self.state = None

    def remove(self, player: str, lane: str, position: int) -> None:
        del self.sides[player].lane(lane)[position]
        self.state = None

    def update(self, player: str, lane: str, position: int, **changes) -> None:
        """Change a placed creature's ``card``, ``damage``, ``new`` or ``protection_used``."""
        side = self.sides[player].lane(lane)
        if "card" in changes:
            changes["card"] = _card_names(self.cards, [changes["card"]])[0]
        side[position] = replace(side[position], **changes)
        self.state = None

    def clear(self, player: str | None = None, lane: str | None = None) -> None:
        for p in [player] if player else ["A", "B"]:
            for name in [lane] if lane else ["upper", "lower"]:
                self.sides[p].lane(name).clear()
        self.state = None

    def set_hand(self, player: str, names: Sequence[str]) -> None:
        """The hand left to right, with exactly one ``BASTION`` or ``FORT``."""
        self.sides[player].hand = [str(n).strip().upper() for n in names]
        self.state = None

    def scenario_text(self) -> str:
        """The setup as scenario TOML (``interfaces.md`` §2)."""
        lines = ["[game]", f'active = "{self.active}"', f"mana = {self.mana}", ""]
        for player in ("A", "B"):
            side = self.sides[player]
            lines.append(f"[{player}]")
            lines.append("hand = [" + ", ".join(f'"{n}"' for n in side.hand) + "]")
            for lane in ("upper", "lower"):
                lines.append(f"{lane} = [" + ", ".join(s.toml() for s in side.lane(lane)) + "]")
            lines.append("")
        return "\n".join(lines)

    # -- The siege ---------------------------------------------------------------------

    def start(self) -> GameState:
        """Build the position (refusing an impossible one, e.g. damage ≥ health) and begin the
        siege (R1.6)."""
        scenario = parse_scenario(self.scenario_text(), source="siege lab", cards=self.cards)
        state = scenario.state
        apply(state, BEGIN_SIEGE)
        self.state = state
        self._history.clear()
        return state

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
        """Play an incantation between two attacks (R3.11), e.g. ``play METEORITE B.upper.0``."""
        state = self._need_state()
        return self._step(parse_action(action, state))

    def _step(self, action) -> list[str]:
        state = self.state
        before = _log_len(state)
        self._history.push(state.clone())
        try:
            apply(state, action)
        except ClashkitError:
            self.state = self._history.pop()[0]
            raise
        return [describe_event(e) for e in event_dicts(state, before)]

    def back(self) -> bool:
        """Undo the last step exactly; False if at the start of the siege."""
        if not len(self._history):
            return False
        self.state = self._history.pop()[0]
        return True

    def run(self) -> list[str]:
        """Every remaining turn of the siege, to its end (or the end of the game)."""
        said: list[str] = []
        while not self.done:
            said += self.next()
        return said

    def reset(self) -> GameState:
        """Back to the setup, before the first attack."""
        return self.start()

    def incantations(self) -> list[str]:
        """The incantations the active player may play now (R3.11), as action text."""
        state = self._need_state()
        if state.over:
            return []
        return [str(a) for a in legal_actions(state) if not isinstance(a, Proceed)]

    def events(self) -> pl.DataFrame:
        """The siege's events so far (:func:`events_table`)."""
        return events_table(self._need_state())

    def trace(self):
        """The siege so far as trace frames (``events, turns, games = lab.trace()``)."""
        from ..trace import game_frames

        return game_frames(self._need_state())


# --- Learn the rules ---------------------------------------------------------------------------


def example_scenario_path(name: str = "first_siege") -> Path:
    """A teaching scenario shipped with clashkit (``first_siege``)."""
    return Path(str(resources.files("clashkit.viz") / "scenarios" / f"{name}.toml"))


class RulesStepper:
    """A scenario's turn played one step at a time: its summon-phase actions, the siege
    begun, each creature's turn in the siege order with the siege actions in their windows
    (R3.11), then the end of the turn (R3.12).  After each step :attr:`explanation` says
    what happened and which rules applied."""

    def __init__(self, scenario: Scenario | str | Path | None = None) -> None:
        if scenario is None:
            scenario = example_scenario_path()
        if isinstance(scenario, Path) or (isinstance(scenario, str) and "\n" not in scenario):
            scenario = load_scenario(scenario)
        elif isinstance(scenario, str):
            scenario = parse_scenario(scenario)
        self.scenario = scenario
        self.reset()

    def reset(self) -> None:
        self.state = self.scenario.initial.clone()
        self._summon = [a for a in self.scenario.actions if a.siege is None]
        self._siege = [a for a in self.scenario.actions if a.siege is not None]
        self._i = 0  # summon actions played
        self._j = 0  # siege actions played
        self._order = 0  # turns of the siege order taken
        self._ended = False
        self._history = _History()
        self.explanation: list[str] = ["The position before the turn goes on. Press next."]
        self.last: pl.DataFrame = events_table(self.state, _log_len(self.state))

    @property
    def finished(self) -> bool:
        return self._ended or self.state.over

    @property
    def step(self) -> int:
        return len(self._history)

    def _next_move(self):
        """(what, action) of the next step, or None when the turn is over."""
        state = self.state
        if self.finished:
            return None
        if state.phase == SUMMON:
            if self._i < len(self._summon):
                return "summon", self._summon[self._i]
            return "siege", BEGIN_SIEGE
        if state.phase == SIEGE:
            if self._j < len(self._siege) and self._siege[self._j].siege <= self._order:
                return "cast", self._siege[self._j]
            if next_in_order(state) is not None:
                return "attack", ATTACK
            if self._j < len(self._siege):
                return "cast", self._siege[self._j]
            return "end", END_TURN
        return None

    @property
    def upcoming(self) -> str:
        """What the next step will do, in words."""
        move = self._next_move()
        if move is None:
            return "the turn is over"
        what, action = move
        if what in ("summon", "cast"):
            return f"{PLAYERS[self.state.active]} plays {action.text().removeprefix('play ')}"
        if what == "siege":
            return "the summon phase ends and the siege begins (R1.6, R3.9)"
        if what == "attack":
            lane, position = next_in_order(self.state)
            name = self.state.cards.names[self.state.lanes[self.state.active][lane][position].card]
            return f"{name} at {LANES[lane]}.{position} takes its turn in the siege (R3.9)"
        return "the turn ends: every creature regenerates (R3.12)"

    def next(self) -> list[str]:
        """Take one step; returns (and keeps in :attr:`explanation`) what happened."""
        move = self._next_move()
        if move is None:
            return []
        what, action = move
        state = self.state
        self._history.push(
            state.clone(), self._i, self._j, self._order, self._ended, self.explanation, self.last
        )
        before = _log_len(state)
        heading = self.upcoming
        if what in ("summon", "cast"):
            apply(state, action.resolve(state))
            if what == "summon":
                self._i += 1
            else:
                self._j += 1
        elif what == "siege":
            apply(state, BEGIN_SIEGE)
        elif what == "attack":
            apply(state, ATTACK)
            self._order += 1
        else:
            apply(state, END_TURN)
            self._ended = True
        self.last = events_table(state, before)
        self.explanation = [heading[0].upper() + heading[1:] + "."] + [
            f"{row['what happened']} ({row['rule']})" if row["rule"] else row["what happened"]
            for row in self.last.iter_rows(named=True)
        ]
        return self.explanation

    def back(self) -> bool:
        if not len(self._history):
            return False
        (self.state, self._i, self._j, self._order, self._ended, self.explanation, self.last) = (
            self._history.pop()
        )
        return True

    def run(self) -> None:
        while self._next_move() is not None:
            self.next()


# --- Card designer -------------------------------------------------------------------------------

#: The card fields a designer edits (``interfaces.md`` §1), in order.
CARD_FIELDS = ("name", "kind", "cost", "attack", "health", "abilities", "aura", "effect", "target")


def card_fields(card: Card) -> dict[str, object]:
    """A card as the editable fields of ``data/cards.csv`` (text for lists)."""
    return {
        "name": card.name,
        "kind": str(card.kind),
        "cost": card.cost,
        "attack": card.attack,
        "health": card.health,
        "abilities": ";".join(str(a) for a in card.abilities),
        "aura": str(card.aura) if card.aura is not None else "",
        "effect": card.effect_text,
        "target": str(card.target) if card.target is not None else "",
        "deck": card.deck,
        "notes": card.notes,
    }


class CardDesigner:
    """Change a card (or add one to a starter deck in place of another), rerun a small
    simulation of every pairing of the starter decks, and compare the decks' win rates
    before and after.  Both batches use the same seeds, so the difference comes from the
    change and from the games it alters, not from other luck.
    """

    def __init__(
        self,
        cards: CardSet | None = None,
        *,
        games_per_pairing: int = 10,
        policy: str | None = None,
        seed: int = 0,
    ) -> None:
        self.base = cards if cards is not None else starter_set()
        self.games_per_pairing = games_per_pairing
        self.policy = policy
        self.seed = seed
        self.changes: dict[str, Card] = {}
        self.swaps: dict[str, tuple[str, str]] = {}  # new card → (deck label, card it replaces)
        self._baseline: tuple | None = None
        self.before = None
        self.after = None

    # -- Editing -----------------------------------------------------------------------

    @property
    def cards(self) -> CardSet:
        """The card set with the changes applied."""
        return self.base.with_cards(self.changes.values()) if self.changes else self.base

    def fields(self, name: str) -> dict[str, object]:
        """The current fields of a card (after changes)."""
        return card_fields(self.cards.card(name))

    def edit(self, name: str, **fields) -> Card:
        """Change some fields of card ``name`` (``cost=2``, ``abilities="rage;sprint"``, …).
        Raises ``ValueError`` naming the column for a bad value, as the card file would."""
        card = self.preview(name, **fields)
        if name in self.base and card == self.base.card(name) and name not in self.swaps:
            self.changes.pop(name, None)  # back to the shipped card: no change
        else:
            self.changes[name] = card
        return card

    def preview(self, name: str, **fields) -> Card:
        """The card :meth:`edit` would make (or a new card), without keeping it."""
        base = self.fields(name) if name in self.cards else {f: "" for f in CARD_FIELDS}
        merged = {**base, **fields, "name": name}
        if name not in self.cards:
            merged["deck"] = ""
        return card_from_fields(_blank_for_kind(merged))

    def add(self, fields: Mapping[str, object], *, deck: int | str, replaces: str) -> Card:
        """A new card put into starter ``deck`` in place of ``replaces``."""
        label = deck if isinstance(deck, str) and deck.startswith("deck") else f"deck {deck}"
        if label not in self.base_decks:
            raise KeyError(f"unknown deck {deck!r}")
        if replaces not in self.base_decks[label]:
            raise KeyError(f"{replaces} is not in {label}")
        data = {**{f: "" for f in CARD_FIELDS}, **fields}
        data["name"] = str(data["name"]).strip().upper()
        data["deck"] = ""
        card = card_from_fields(_blank_for_kind(data))
        if card.name in self.base and card.name not in self.changes:
            raise ValueError(f"{card.name} already exists; use edit() to change it")
        self.changes[card.name] = card
        self.swaps[card.name] = (label, replaces)
        return card

    def undo(self, name: str) -> None:
        """Forget the change to (or the addition of) card ``name``."""
        self.changes.pop(name, None)
        self.swaps.pop(name, None)

    @property
    def base_decks(self) -> dict[str, list[str]]:
        return {f"deck {n}": names for n, names in self.base.decks.items()}

    @property
    def decks(self) -> dict[str, list[str]]:
        """The starter decks with the additions swapped in."""
        decks = {label: list(names) for label, names in self.base_decks.items()}
        for new, (label, old) in self.swaps.items():
            decks[label] = [new if n == old else n for n in decks[label]]
        return decks

    def changed_decks(self) -> list[str]:
        """The decks holding a changed or added card."""
        changed = set(self.changes)
        return [label for label, names in self.decks.items() if changed & set(names)]

    # -- Simulating ----------------------------------------------------------------------

    def run(self, *, progress: bool = True) -> pl.DataFrame:
        """Simulate before (cached) and after the changes; returns :meth:`comparison`."""
        from .runs import play_matchups

        key = (self.games_per_pairing, self.policy, self.seed)
        if self._baseline is None or self._baseline[0] != key:
            before = play_matchups(
                self.base_decks,
                desc="before the change",
                games_per_pairing=self.games_per_pairing,
                policy=self.policy,
                seed=self.seed,
                cards=self.base,
                progress=progress,
            )
            self._baseline = (key, before)
        self.before = self._baseline[1]
        self.after = play_matchups(
            self.decks,
            desc="after the change",
            games_per_pairing=self.games_per_pairing,
            policy=self.policy,
            seed=self.seed,
            cards=self.cards,
            progress=progress,
        )
        return self.comparison()

    def comparison(self) -> pl.DataFrame:
        """Each deck's win rate ``before`` and ``after`` (with intervals), stacked."""
        from .summaries import compare_win_rates, label_decks

        if self.before is None or self.after is None:
            raise RuntimeError("run() the simulation first")
        before = label_decks(self.before.games, self.base_decks)
        after = label_decks(self.after.games, self.decks)
        return compare_win_rates({"before": before, "after": after})


def _blank_for_kind(fields: dict) -> dict:
    """Clear the fields the other kind of card uses, so a kind change validates."""
    out = {k: ("" if v is None else v) for k, v in fields.items()}
    if str(out.get("kind", "")).strip() == "creature":
        out["effect"] = out["target"] = ""
    else:
        out["attack"] = out["health"] = out["abilities"] = out["aura"] = ""
    return out


__all__ = [
    "CARD_FIELDS",
    "RULE_OF_EVENT",
    "CardDesigner",
    "HandBuilder",
    "RulesStepper",
    "SiegeLab",
    "Side",
    "Slot",
    "card_fields",
    "events_table",
    "example_scenario_path",
]
