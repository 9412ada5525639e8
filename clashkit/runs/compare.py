"""The two engines side by side: the same games in both, compared event by event.

:func:`compare` plays games of one matchup in the reference engine and in the
fast one (:mod:`clashkit.fast`) from the same seeds, with events recorded, and
compares each game's events row by row (every field of
``clashkit.engine.events.FIELDS``), then its outcome and turn rows.  At the
first difference it stops and returns a :class:`Difference`: the game's seed
and options, the step (the events frame's ``step``: the event's index in its
game), the events around it in both engines, decoded and with their rules,
and the reference position just before the decision that made it::

    seed 2103 (game 4 of 1 vs 2, greedy vs random, rules siege_order=fixed), step 201:
      reference: B card_played SHIFTER upper.0 -> A's ZOMBIE (R3.3); then ...
      fast:      ...

A differential test asserts ``compare(...).difference is None`` and shows the
difference as its message.
"""

from __future__ import annotations

import dataclasses
from array import array
from dataclasses import dataclass

import numpy as np

from ..base.vocab import LANES, PLAYERS
from ..engine.events import EVENT_FIELDS, EVENT_KINDS, PHASES, WIDTH, EventKind, decode
from ..engine.records import GameRecords
from ..engine.state import Creature, GameState
from ..engine.turn import TURN_WIDTH
from .simulate import pool_seeds, seed_pool, setup_game
from .spec import Matchup

#: Events shown before and after the first difference.
CONTEXT = 3


@dataclass(frozen=True, slots=True)
class Difference:
    """Where the two engines part: one game, one step, both engines' events there."""

    seed: int
    game: int
    options: str
    step: int
    #: The events from a few steps before ``step`` to a few after, as sentences, each engine.
    reference: tuple[str, ...]
    fast: tuple[str, ...]
    #: The index in ``reference`` / ``fast`` of the event at ``step``.
    at: int
    #: The reference position before the decision that made the event at ``step``.
    position: str
    #: What differs when the events agree: the outcome or the turn rows.
    what: str = "events"
    #: The run's master seed (:func:`~clashkit.runs.simulate.simulate`'s ``seed``), when known.
    master_seed: int | None = None

    def __str__(self) -> str:
        def lines(events: tuple[str, ...]) -> str:
            if not events:
                return "    (no events)"
            out = []
            for i, text in enumerate(events):
                mark = ">>" if i == self.at else "  "
                out.append(f"  {mark} {text}")
            return "\n".join(out)

        run = "" if self.master_seed is None else f" of master seed {self.master_seed}"
        head = f"seed {self.seed} (game {self.game}{run}; {self.options}), step {self.step}: the {self.what} differ"
        first_ref = self.reference[self.at] if self.at < len(self.reference) else "no event"
        first_fast = self.fast[self.at] if self.at < len(self.fast) else "no event"
        return (
            f"{head}\n  reference: {first_ref}\n  fast:      {first_fast}\n"
            f"reference events:\n{lines(self.reference)}\nfast events:\n{lines(self.fast)}\n"
            f"reference position before that step:\n{self.position}"
        )


@dataclass(frozen=True, slots=True)
class Comparison:
    """What :func:`compare` played: the games, the events compared, the first difference if any."""

    games: int
    events: int
    difference: Difference | None


def rule_of(rows, i: int) -> str:
    """The rule event ``rows[i]`` applies: its kind's (``clashkit.engine.events.EVENT_FIELDS``), made
    precise where the rows before it say more — a hit beside or behind the attack's target is
    Splash or Pierce damage (R6.1, R6.2), a move that passes nobody is a shift (R5.5)."""
    row = rows[i]
    kind = EVENT_KINDS[int(row[0])]
    rule = EVENT_FIELDS[kind].rule
    if kind is EventKind.CREATURE_MOVED and int(row[9]) == 0:
        return "R5.5 shift"
    if kind in (EventKind.DAMAGE, EventKind.PROTECTION_USED) and i > 0:
        for j in range(i - 1, -1, -1):
            before = EVENT_KINDS[int(rows[j][0])]
            if before is EventKind.INCANTATION_RESOLVED:
                return f"{rule}, R5.6 incantation damage"
            if before is EventKind.ATTACK:
                if int(row[5]) != int(rows[j][5]):
                    return f"{rule}, R6.1 Splash"
                if int(row[6]) > 0:
                    return f"{rule}, R6.2 Pierce"
                return rule
    return rule


def describe(row, names, rule: str | None = None) -> str:
    """One event row in words, with its rule: ``turn 3 A siege: attack BRUTE upper.1 -> B's TROLL amount 4 (R4.1; …)``.

    A ``card_played`` names the hand index it was played from (R3.2) and the lane it goes to
    or aims at.  ``rule``: the rule to name (default: the kind's; :func:`rule_of` is more precise)."""
    e = decode(tuple(int(x) for x in row), names)
    kind = EVENT_KINDS[int(row[0])]
    info = EVENT_FIELDS[kind]
    parts = [f"turn {e['turn']} {e['player']} {e['phase']}: {e['kind']}"]
    if e["card"] is not None:
        parts.append(e["card"])
    if kind is EventKind.CARD_PLAYED:
        parts.append(f"from hand {e['position']}, {e['lane']}")
    elif e["lane"] is not None:
        parts.append(e["lane"] + (f".{e['position']}" if e["position"] is not None else ""))
    elif e["position"] is not None:
        parts.append(f"at {e['position']}")
    if e["target_player"] is not None:
        whose = f"{e['target_player']}'s {e['target_card']}" if e["target_card"] is not None else e["target_player"]
        parts.append(f"-> {whose}")
    if "amount" in info.fields:
        parts.append(f"amount {e['amount']}")
    tail = f"mana {e['mana_left']}, hand-health {e['hand_health_a']}/{e['hand_health_b']}"
    return f"{' '.join(parts)} ({rule or info.rule}; {tail})"


def position_text(state: GameState) -> str:
    """A reference position in a few lines: each player's hand (or the AI's pile), keep and lanes."""
    names = state.cards.names
    phase = PHASES[state.phase].value
    lines = [f"  turn {state.turn}, {PLAYERS[state.active].value} to act, phase {phase}, mana {state.mana}"]
    for p in (0, 1):
        who = PLAYERS[p].value
        if state.solo and p == 1:
            held = f"pile {[names[c] for c in state.pile]}, discard {[names[c] for c in state.discard]}"
        else:
            held = "hand [" + ", ".join("KEEP" if c < 0 else names[c] for c in state.hands[p]) + "]"
        keep = state.keep(p).value
        sides = []
        for lane in (0, 1):
            creatures = ", ".join(
                f"{names[c.card]} dmg {c.damage}{' new' if c.new else ''}{' done' if c.took_turn else ''}"
                for c in state.lanes[p][lane]
            )
            sides.append(f"{LANES[lane].value} [{creatures}]")
        lines.append(f"  {who}: {held}, {keep}, hand-health {state.hand_health(p)}; {'; '.join(sides)}")
    return "\n".join(lines)


def to_state(s, like: GameState) -> GameState:
    """The fast engine's position ``s`` as a reference :class:`~clashkit.engine.state.GameState`
    (the way back from :func:`clashkit.fast.from_state`), to read it with the reference's tools
    (``siege --json``'s :func:`~clashkit.show.render.state_dict`, legality, the tests' boards).

    ``like`` is the reference position ``s`` was made from: the cards, rules, mode and the
    events before it come from there; the events after are ``s.ev``'s (recorded when
    ``from_state`` was given room for them).  Creatures get new reference identities (R10.0),
    the same for the same fast creature in one call; the Aura holders a creature lost its
    grant from (R10.4) keep theirs.  The players' memories (greedy's) are not part of it.
    """
    from ..fast import state as F
    from ..fast.convert import creature_from_row

    g = s.g
    out = like.clone()
    out.hands = [[int(c) for c in s.hands[p, : s.hlen[p]]] for p in (0, 1)]
    out.forts = [bool(g[F.G_FORT_A]), bool(g[F.G_FORT_B])]
    out.active, out.turn, out.phase = int(g[F.G_ACTIVE]), int(g[F.G_TURN]), int(g[F.G_PHASE])
    out.mana, out.mana_gained = int(g[F.G_MANA]), int(g[F.G_MANA_GAINED])
    out.siege_lane = int(g[F.G_SIEGE_LANE])
    out.winner = None if g[F.G_WINNER] < 0 else int(g[F.G_WINNER])
    out.pile = [int(c) for c in s.pile[: g[F.G_PILE]]]
    out.discard = [int(c) for c in s.discard[: g[F.G_DISCARD]]]
    out.ai_last_turn = int(g[F.G_AI_LAST_TURN])
    out.first_player = int(g[F.G_FIRST])
    out.rng.setstate(int(s.rng[0]))
    c = out.counters
    c.cards_played, c.keep_damage = int(g[F.G_STAT_PLAYED]), int(g[F.G_STAT_KEEP_DAMAGE])
    c.creatures_destroyed = int(g[F.G_STAT_DESTROYED])
    c.hand_size_start, c.hand_health_start = int(g[F.G_STAT_HAND_SIZE]), int(g[F.G_STAT_HAND_HEALTH])
    uids: dict[int, int] = {}

    def uid(fast_uid: int) -> int:
        if fast_uid not in uids:
            uids[fast_uid] = Creature(like.cards, 0).uid  # a new identity (R10.0)
        return uids[fast_uid]

    out.lanes = [[[], []], [[], []]]
    for p in (0, 1):
        for lane in (0, 1):
            for pos in range(s.ln[p, lane]):
                creature = creature_from_row(like.cards, s.cr[p, lane, pos], uid)
                out.lanes[p][lane].append(creature)
    if out.log is not None:
        rows = s.ev[: g[F.G_EVENTS]] if g[F.G_RECORD] else s.ev[:0]
        out.log.buffer.frombytes(np.ascontiguousarray(rows, dtype=np.int32).tobytes())
    if out.turn_log is not None:
        out.turn_log = array("h", s.tl[: g[F.G_TURNS_LOGGED]].astype(np.int16).tobytes())
    return out


def _options(matchup: Matchup) -> str:
    deck_b = "AI" if matchup.deck_b is None else matchup.asked[1]
    label_a, label_b = matchup.labels
    rules = matchup.rules.changes() or "default rules"
    return f"{matchup.mode} {matchup.asked[0]} vs {deck_b}, {label_a} vs {label_b}, {rules}"


def _game_events(records: GameRecords) -> list[np.ndarray]:
    """Each game's event rows (``FIELDS`` wide)."""
    flat = np.frombuffer(records.events, dtype=np.int32).reshape(-1, WIDTH)
    ends = np.cumsum(np.asarray(records.event_counts, np.int64))
    starts = ends - np.asarray(records.event_counts, np.int64)
    return [flat[a:b] for a, b in zip(starts, ends, strict=True)]


def _position_before(matchup: Matchup, seed: int, step: int) -> str:
    """Replay the game in the reference engine, one decision at a time, up to the one that records ``step``."""
    from ..policies import get_policy
    from .game import play

    state, _, _, _ = setup_game(matchup, seed)
    policies = get_policy(matchup.policy_a), get_policy(matchup.policy_b)
    if state.log is None or len(state.log) > step:
        return position_text(state) + "\n  (the step is in the game's setup)"
    for _ in range(1_000_000):
        before = state.clone()
        play(state, *policies, max_steps=1)
        if len(state.log) > step or state.over:
            return position_text(before)
        # The policies' memories carry on in ``state``'s play; ``before`` is only shown.
    return position_text(state)


def _difference(matchup, game, seed, step, ref_rows, fast_rows, what="events") -> Difference:
    names = matchup.card_set.names
    lo = max(0, step - CONTEXT)
    return Difference(
        seed=seed,
        game=game,
        options=_options(matchup),
        step=step,
        reference=tuple(
            describe(ref_rows[i], names, rule_of(ref_rows, i))
            for i in range(lo, min(len(ref_rows), step + CONTEXT + 1))
        ),
        fast=tuple(
            describe(fast_rows[i], names, rule_of(fast_rows, i))
            for i in range(lo, min(len(fast_rows), step + CONTEXT + 1))
        ),
        at=step - lo,
        position=_position_before(matchup, seed, step),
        what=what,
    )


def first_difference(
    matchup: Matchup, game: int, seed: int, reference: GameRecords, fast: GameRecords
) -> Difference | None:
    """The first difference between one game's records in the two engines (game 0 of each), or ``None``."""
    ref_rows, fast_rows = _game_events(reference)[0], _game_events(fast)[0]
    n = min(len(ref_rows), len(fast_rows))
    unequal = np.flatnonzero((ref_rows[:n] != fast_rows[:n]).any(axis=1))
    if len(unequal):
        return _difference(matchup, game, seed, int(unequal[0]), ref_rows, fast_rows)
    if len(ref_rows) != len(fast_rows):
        return _difference(matchup, game, seed, n, ref_rows, fast_rows)
    last = max(0, n - 1)
    if (reference.winner[0], reference.turns_played[0]) != (fast.winner[0], fast.turns_played[0]):
        return _difference(matchup, game, seed, last, ref_rows, fast_rows, "outcomes (winner, turns)")
    if reference.turns.tobytes() != fast.turns.tobytes():
        return _difference(matchup, game, seed, last, ref_rows, fast_rows, "turn rows")
    return None


def compare(
    n: int,
    deck_a="1",
    deck_b="2",
    policy_a="random",
    policy_b=None,
    *,
    seed: int = 0,
    **options,
) -> Comparison:
    """Play ``n`` games of a matchup (the arguments of :func:`~clashkit.runs.simulate.simulate`) in
    both engines from the same seeds and compare them event by event; stops at the first difference.

    The fast engine plays all ``n`` at once (its batches); the reference engine plays them one by
    one, and each is compared as soon as it is played.
    """
    from .fast_games import play_games
    from .simulate import play_game

    options.pop("engine", None)
    options["record_events"] = True
    reference_matchup = Matchup.build(deck_a, deck_b, policy_a, policy_b, engine="reference", **options)
    fast_matchup = Matchup.build(deck_a, deck_b, policy_a, policy_b, engine="fast", **options)
    seeds = pool_seeds(seed_pool(seed), 0, n)
    fast_all = play_games(fast_matchup, 0, seeds)
    fast_games = _game_events(fast_all)
    events = 0
    turn_starts = np.concatenate([[0], np.cumsum(np.asarray(fast_all.turn_counts, np.int64))]) * TURN_WIDTH
    for game, game_seed in enumerate(seeds):
        ref = GameRecords()
        play_game(reference_matchup, game, game_seed, ref)
        one = GameRecords()
        one.events.frombytes(fast_games[game].tobytes())
        one.event_counts.append(len(fast_games[game]))
        one.winner.append(fast_all.winner[game])
        one.turns_played.append(fast_all.turns_played[game])
        one.turns.extend(fast_all.turns[int(turn_starts[game]) : int(turn_starts[game + 1])])
        found = first_difference(reference_matchup, game, game_seed, ref, one)
        events += len(fast_games[game])
        if found is not None:
            return Comparison(game + 1, events, dataclasses.replace(found, master_seed=seed))
    return Comparison(n, events, None)


__all__ = [
    "CONTEXT",
    "Comparison",
    "Difference",
    "compare",
    "describe",
    "first_difference",
    "position_text",
    "rule_of",
    "to_state",
]
