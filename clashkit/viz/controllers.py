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
:class:`CardDesigner`  edit or add a card, play the change on the same seeds, compare win rates
=====================  ==================================================================

Stepping back restores an exact copy of the state before the step: every
controller keeps a list of :meth:`~clashkit.state.GameState.clone` snapshots.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

import polars as pl

from ..actions import ATTACK, BEGIN_SIEGE, END_TURN, Play, Proceed, format_place, parse_action
from ..cards import KEEP_NAMES, Card, CardSet, card_from_fields, starter_set
from ..engine import apply
from ..errors import ClashkitError, ScenarioError
from ..events import EVENT_FIELDS, NoEffect
from ..hand import playable_indices
from ..incantations import no_effect
from ..legality import has_choice, legal_actions, legal_cards, proceed_action
from ..loop import run
from ..policies import Policy, get_policy
from ..render import describe_event, event_dicts
from ..rules import Rules
from ..scenario import Scenario, ScenarioAction, dump_scenario, load_scenario, parse_scenario
from ..setup import new_duel
from ..siege import next_in_order
from ..state import SIEGE, SUMMON, Creature, GameState
from ..vocab import KEEP, LANES, PLAYERS, Mode, Player, TargetSide, hand_health_of

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


def on_meant_side(state: GameState, action) -> bool:
    """Whether ``action`` is not an incantation aimed at the side its effect is not meant for
    (R5.5: ``enemy`` effects at the opponent's creatures, ``ally`` at one's own; ``any``
    either way)."""
    if not isinstance(action, Play) or action.target is None:
        return True
    card = state.cards.card(action.card)
    ally = action.target[0] == state.active
    return card.target is TargetSide.ANY or (card.target is TargetSide.ALLY) == ally


def menu_order(state: GameState, actions: Sequence) -> list:
    """Legal actions in the order a menu offers them, so that the first is never one a click
    would regret: plays on the side their effect is meant for (R5.5), then moving the turn on
    (siege, attack, end), then incantations aimed at the other side."""

    def group(action) -> int:
        if isinstance(action, Proceed):
            return 1
        return 0 if on_meant_side(state, action) else 2

    return sorted(actions, key=group)


_PROCEED_WORDS = {"siege": "begin the siege (R1.6)", "attack": "the next creature's turn (R3.9)",
                  "end": "end the turn (R3.12)"}


def action_label(state: GameState, action) -> str:
    """An action as a menu shows it: ``METEORITE → B's GNOME (B.upper.1)``, ``OGRE into the
    upper lane``, ``begin the siege (R1.6)``; an incantation on the side its effect is not
    meant for says so."""
    if isinstance(action, Proceed):
        return _PROCEED_WORDS.get(action.step, action.step)
    card = state.cards.card(action.card)
    cost = f"{card.cost} mana"
    if action.target is None:
        return f"{action.card} into the {LANES[action.lane]} lane · {cost}"
    player, lane, position = action.target
    target = state.cards.names[state.lanes[player][lane][position].card]
    who = "your" if player == state.active else f"{PLAYERS[player]}'s"
    meant = "enemies" if card.target is TargetSide.ENEMY else "your own creatures"
    warn = "" if on_meant_side(state, action) else f" · meant for {meant} (R5.5)"
    why = no_effect(state, state.cards.id(action.card), player, lane, position)
    if why is not None:
        warn += f" · no effect: {_NO_EFFECT_WORDS[why]}"
    return f"{action.card} ({card.effect_text}) → {who} {target} at {format_place(*action.target)} · {cost}{warn}"


#: How an incantation menu marks a target the incantation would change nothing on (R5.4, R5.5).
_NO_EFFECT_WORDS = {
    NoEffect.INDESTRUCTIBLE: "Indestructible (R5.4)",
    NoEffect.AMOUNT_ZERO: "its amount is 0 (R5.5)",
    NoEffect.NOTHING_TO_HEAL: "no damage to heal (R5.5)",
    NoEffect.HAS_IT_ALREADY: "has it already (R5.5)",
}


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
        """Put ``name`` in ``slot`` (0 = leftmost after the keep); if the hand holds it in
        another slot already, the two slots swap cards (a kit has one copy of each, R7.1)."""
        name = _card_names(self.cards, [name])[0]
        if name in self.order and self.order.index(name) != slot:
            other = self.order.index(name)
            self.order[other] = self.order[slot]
        self.order[slot] = name

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
            out.append(f"{', '.join(repeated)} twice: a kit holds one copy of each card (R7.1)")
        return out

    def plan(self, turns: int = 4, *, first: bool | None = None) -> pl.DataFrame:
        """A solitaire projection of the hand's first ``turns`` own turns: with no opponent,
        every affordable playable creature is played left to right (incantations wait for
        targets).  Columns: ``turn`` (own), ``mana`` (R2.3: 6 on the game's first turn,
        else R3.1: cards in hand with the keep), ``playable``, ``played``, ``mana_left``,
        ``hand_health`` (after the plays), ``hand`` (after the plays).  A hand holding a card
        twice is refused (``ValueError``, R7.1)."""
        repeated = [p for p in self.problems if "twice" in p]
        if repeated:
            raise ValueError(repeated[0])
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

    def log(self) -> pl.DataFrame:
        """The game so far, event by event with its rule (:func:`events_table`): the bot's turns
        included, undone moves gone."""
        return events_table(self._need_game())

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
        """A's legal actions now, as a menu offers them (:func:`menu_order`: plays on the side
        their effect is meant for, then ``siege`` / ``attack`` / ``end``, then incantations
        aimed at the other side): ``play OGRE@2 upper``, ``play METEORITE@3 B.upper.0``…"""
        return [text for _label, text in self.menu()]

    def menu(self) -> list[tuple[str, str]]:
        """A's legal actions now as ``(label, action text)`` pairs (:func:`action_label`), in
        :func:`menu_order`."""
        state = self._need_game()
        if state.over or state.active != 0:
            return []
        return [(action_label(state, a), str(a)) for a in menu_order(state, legal_actions(state))]

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
        """The turns frame of the game so far (:mod:`clashkit.trace`)."""
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
        lab.add("B", "upper", "GNOME", damage=1)
        lab.add("B", "lower", "ZOMBIE", new=True)
        return lab

    # -- Saving and loading ------------------------------------------------------------

    @classmethod
    def from_scenario(cls, path: str | Path, *, cards: CardSet | None = None) -> SiegeLab:
        """A lab holding the position of scenario file ``path`` (a duel), its inline cards, rules
        options, seed and actions.  A bad file raises :class:`~clashkit.errors.ScenarioError`."""
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
                    Slot(names[c.card], c.damage, c.new, c.protection_used)
                    for c in state.lanes[p][LANES.index(lane)]
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
    ) -> None:
        """Put a creature at the back of ``player``'s side of ``lane`` (R3.5)."""
        name = _card_names(self.cards, [card])[0]
        self.sides[player].lane(lane).append(Slot(name, damage, new, protection_used))
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
        while self._played < len(self.plan) and not state.over:
            action = self.plan[self._played]
            if action.siege > self._turns and next_in_order(state) is not None:
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
        from ..trace import game_frames

        return game_frames(self._need_state())


def _as_scenario_action(action: Play, state: GameState, window: int) -> ScenarioAction:
    """An incantation cast in the lab as the ``[game] actions`` entry that replays it."""
    target = format_place(*action.target) if action.target is not None else None
    lane = LANES[action.lane].value if action.lane is not None else None
    return ScenarioAction(action.card, lane, target, action.index, window)


# --- Learn the rules ---------------------------------------------------------------------------


def example_scenario_path(name: str = "first_siege") -> Path:
    """A teaching scenario shipped with clashkit (``first_siege``)."""
    return Path(str(resources.files("clashkit.viz") / "scenarios" / f"{name}.toml"))


class RulesStepper:
    """A scenario's turn played one step at a time: its summon-phase actions, the siege
    begun, each creature's turn in the siege order with the siege actions in their windows
    (R3.11), then the end of the turn (R3.12).  After each step :attr:`explanation` says
    what happened and which rules applied.

    ``scenario`` is a scenario file, TOML text, a loaded :class:`~clashkit.scenario.Scenario`
    or a :class:`SiegeLab`, whose current position (and the incantations cast in it) it
    opens."""

    def __init__(self, scenario: Scenario | SiegeLab | str | Path | None = None) -> None:
        if scenario is None:
            scenario = example_scenario_path()
        if isinstance(scenario, SiegeLab):  # the lab's position, with the casts made there
            scenario = parse_scenario(scenario.scenario_text(), source="siege lab", cards=scenario.cards)
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

#: The card fields a designer edits (``docs/cards.md``), in order.
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
    """Change a card (or add one to a starter deck in place of another), play every pairing
    of the starter decks before and after on the same seeds, and see each deck's change
    with its paired 95% interval (:func:`clashkit.design.compare`), the matrix before and
    after, and the card's own numbers (:func:`clashkit.design.card_stats`).

    ``games_per_pairing=None`` (the default) plays at least :attr:`MIN_GAMES` games a
    pairing and as many as it takes for every deck's change to be measured to ±1.5 points
    (:data:`clashkit.design.HALF_WIDTH`): the first :attr:`MIN_GAMES` games measure the
    spread of the per-game differences, and a change whose interval is still wider is
    played again with the count that spread needs, at most :attr:`MAX_GAMES` (enough for
    any spread: a per-game difference is −1, 0 or 1).

    The games are played on the fast engine when both bots exist there (``random``,
    ``greedy``; ``engine=None``), in this process (``jobs=1``: starting worker processes
    costs more than the games).  :meth:`card_stats` needs events, which only the reference
    engine records: its play numbers come from :attr:`STATS_GAMES` games a pairing there.
    """

    MIN_GAMES = 2_000
    MAX_GAMES = 3_000
    STATS_GAMES = 50

    def __init__(
        self,
        cards: CardSet | None = None,
        *,
        games_per_pairing: int | None = None,
        policy: str | None = None,
        seed: int = 0,
        engine: str | None = None,
        jobs: int | None = 1,
    ) -> None:
        self.base = cards if cards is not None else starter_set()
        self.games_per_pairing = games_per_pairing
        self.policy = policy
        self.seed = seed
        self.engine = engine
        self.jobs = jobs
        self.changes: dict[str, Card] = {}
        self.swaps: dict[str, tuple[str, str]] = {}  # new card → (deck label, card it replaces)
        self._games: dict = {}  # clashkit.design job results, kept between runs
        self.result = None  # clashkit.design.Comparison of the last run
        self.before = None  # its clashkit.design.Balance before the change
        self.after = None  # … and after

    # -- Editing -----------------------------------------------------------------------

    @property
    def cards(self) -> CardSet:
        """The card set with the changes applied, each card in the place of the one it changes
        (an added card in the place of the card it replaces), so decks deal as before."""
        if not self.changes:
            return self.base
        replaced = {old: new for new, (_label, old) in self.swaps.items()}
        out = []
        for card in self.base:
            if card.name in replaced:
                new = self.changes[replaced[card.name]]
                out.append(replace(new, deck=card.deck))
            else:
                out.append(self.changes.get(card.name, card))
        cards = CardSet(out)
        cards.source = self.base.source
        return cards

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

    def _policy(self) -> str:
        from .runs import default_policy

        return self.policy or default_policy()

    @property
    def engine_used(self) -> str:
        """The engine the games are played on: ``fast`` when both bots exist there and no
        engine was asked for."""
        if self.engine is not None:
            return self.engine
        from ..simulate import choose_engine

        policy = self._policy()
        return choose_engine(None, False, policy, policy)[0]

    def run(self, *, progress: bool = True) -> pl.DataFrame:
        """Play before and after on the same seeds; returns :meth:`comparison`.  Games
        already played (the set before the change, pairings the change does not touch) are
        not played again."""
        from ..design import HALF_WIDTH, compare, games_for_half_width

        options = dict(policy=self._policy(), seed=self.seed, engine=self.engine, jobs=self.jobs,
                       progress=progress, cache=self._games)  # fmt: skip
        after = self.cards
        n = self.games_per_pairing
        if n is None:
            first = compare(self.base, after, self.MIN_GAMES, **options)
            if first.half_width <= HALF_WIDTH:
                self._keep(first)
                return self.comparison()
            sd = float(first.changes["sd"].max() or 0.0)
            n = min(self.MAX_GAMES, max(self.MIN_GAMES, games_for_half_width(sd, HALF_WIDTH)))
        self._keep(compare(self.base, after, n, **options))
        return self.comparison()

    @property
    def games(self) -> int:
        """Games a pairing of the last run."""
        return int(self._need_result().after.matchups["games"].max())

    def _keep(self, result) -> None:
        self.result, self.before, self.after = result, result.before, result.after

    def _need_result(self):
        if self.result is None:
            raise RuntimeError("run() the simulation first")
        return self.result

    def comparison(self) -> pl.DataFrame:
        """Each deck's win rate ``before`` and ``after`` (with 95% intervals), stacked:
        ``version``, ``deck``, ``games``, ``wins``, ``win_rate``, ``low``, ``high``."""
        result = self._need_result()
        parts = [
            balance.decks.select(pl.lit(version).alias("version"),
                                 pl.format("deck {}", "deck").alias("deck"), pl.col("games").cast(pl.UInt32),
                                 pl.col("wins").cast(pl.UInt32), pl.col("rate").alias("win_rate"), "low", "high")
            for version, balance in (("before", result.before), ("after", result.after))
        ]  # fmt: skip
        return pl.concat(parts)

    def change_table(self) -> pl.DataFrame:
        """One row per deck: rate before and after, the change and its paired 95% interval
        (``clear``: the games tell it from 0), and the game count."""
        return self._need_result().table().with_columns(pl.format("deck {}", "deck").alias("deck"))

    def matrices(self) -> pl.DataFrame:
        """The row deck's rate against the column deck, both seats, before and after."""
        from ..analysis import balance_matrix

        result = self._need_result()
        return pl.concat(
            [balance_matrix(b.matchups).select(pl.lit(v).alias("version"), pl.all())
             for v, b in (("before", result.before), ("after", result.after))]
        )  # fmt: skip

    def card_stats(self, name: str, *, games_per_pairing: int | None = None,
                   progress: bool = False) -> pl.DataFrame:  # fmt: skip
        """:func:`clashkit.design.card_stats` of card ``name`` as edited: the play numbers from
        :attr:`STATS_GAMES` games a pairing on the reference engine (they need events), the
        removal impact from the last run's game count (``games_per_pairing`` if given) on
        the designer's engine, reusing the games already played."""
        from ..design import card_stats

        n = games_per_pairing or (self.games if self.result is not None else None)
        n = n or self.games_per_pairing or self.MIN_GAMES
        return card_stats(n, names=[name], plays_n=min(n, self.STATS_GAMES), cards=self.cards,
                          policy=self._policy(), seed=self.seed, engine=self.engine, jobs=self.jobs,
                          progress=progress, cache=self._games)  # fmt: skip

    def save(self, path: str | Path) -> Path:
        """Write the edited set as a card file (``CardSet.to_csv``)."""
        return self.cards.to_csv(path)


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
    "action_label",
    "menu_order",
    "on_meant_side",
    "RulesStepper",
    "SiegeLab",
    "Side",
    "Slot",
    "card_fields",
    "events_table",
    "example_scenario_path",
]
