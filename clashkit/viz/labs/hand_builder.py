"""The hand builder's controller: choose 8 cards and their order, see the playable cards
(R3.2), the mana each turn would bring (R3.1) and the hand-health (R1.5); play the first
turns against a deck and a bot.

Plain Python, no ipywidgets: :mod:`clashkit.viz.labs.hand_builder_view` draws it.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from ...base import KEEP, CardSet, ClashkitError, hand_health_of, starter_set
from ...engine import (
    SUMMON,
    Action,
    GameState,
    Proceed,
    apply,
    has_choice,
    legal_actions,
    legal_cards,
    new_duel,
    parse_action,
    playable_indices,
    proceed_action,
    run,
)
from ...engine.turn import first_turn_mana
from ...policies import Policy, get_policy
from ...show import describe_event, event_dicts
from .lab_common import _card_names, _History, _log_len, action_label, events_table, menu_order


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
        self.order: list[str] = _card_names(self.cards, order if order is not None else self.cards.deck(1))
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
        targets).  Columns: ``turn`` (own), ``mana`` (R2.3: ``first_turn_mana``, 6, on the game's first turn,
        else R3.1: cards in hand with the keep), ``playable`` (at the start of the turn),
        ``played``, ``plays`` (each play with the cards playable at that moment, R3.2: a card
        that slid into the first four after another was played says so), ``mana_left``,
        ``hand_health`` (after the plays), ``hand`` (after the plays).  A hand holding a card
        twice is refused (``ValueError``, R7.1)."""
        repeated = [p for p in self.problems if "twice" in p]
        if repeated:
            raise ValueError(repeated[0])
        first = (self.first == "A") if first is None else first
        cards = self.cards
        # A's summon phase alone at the table: what may be played is the rules' answer
        # (clashkit.engine.legality), asked of a state holding this hand and this mana.
        table = GameState(cards, record=False)
        table.phase = SUMMON
        hand = table.hands[0] = [KEEP, *(cards.id(n) for n in self.order)]
        rows = []
        for turn in range(1, turns + 1):
            mana = first_turn_mana(table.rules, solo=False) if (turn == 1 and first) else len(hand)
            table.mana = mana
            playable = [cards.names[hand[i]] for i in playable_indices(hand)]
            played: list[str] = []
            plays: list[str] = []  # each play with the cards playable at that moment (R3.2)
            changed = True
            while changed:
                changed = False
                for index, card in legal_cards(table):
                    if not cards.is_creature[card]:
                        continue
                    if hand[-1] != KEEP and index == len(hand) - 1 and hand[-2] == KEEP:
                        continue  # R3.8: it would leave the keep rightmost
                    now = [cards.names[hand[i]] for i in playable_indices(hand)]
                    name = cards.names[card]
                    slid = "" if name in playable else ", slid into the first four"
                    plays.append(f"{len(plays) + 1}. {name}{slid} (playable then: {', '.join(now)})")
                    hand.pop(index)
                    table.mana -= cards.cost[card]
                    played.append(name)
                    changed = True
                    break
            left = table.mana
            rows.append(
                {
                    "turn": turn,
                    "mana": mana,
                    "playable": ", ".join(playable),
                    "played": ", ".join(played),
                    "plays": "; ".join(plays),
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
        assert state is not None, "the bot plays only in a started game"
        if not state.over and state.active == 1:
            run(state, Policy(), self._policy, until_turn=state.turn + 1)

    def _need_game(self) -> GameState:
        if self.state is None:
            return self.start()
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

    def act(self, action: str | Action) -> list[str]:
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
        from ...runs import game_frames

        return game_frames(self._need_game(), policy_a="you", policy_b=str(self.bot))

    def turns(self) -> pl.DataFrame:
        """The turns frame of the game so far (:mod:`clashkit.runs.trace`)."""
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
