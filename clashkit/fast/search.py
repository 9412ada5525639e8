"""``search``, compiled: :class:`clashkit.policies.search.SearchPolicy`'s decisions, draw for draw.

The reference module's docstring says exactly what a decision does (steps
1–6); each function here is one of those steps, in the same order, with the
same draws from the same generators and the same float additions
(``scores[j] += …``, ``mean > best_mean + 1e-9``), so a seed gives the same
game in both engines.  Fair search's helpers mirror
:mod:`clashkit.policies.sight`.

Where things live:

- the search player's own loop memory: greedy's, ``s.pol[p]`` and ``s.seen[p]``
  (:func:`clashkit.fast.greedy.leaves_loop`);
- what a fair search player has seen of the opponent's cards: ``s.sight[p]``;
- the rest in a :data:`SearchWork` (:func:`new_work`, made once per batch:
  compiled code allocates nothing): each player's options (``S_*``), the
  hidden slots, and two levels (:data:`Level`) of scratch arrays: ``top`` for the
  decision of the player to move, ``model`` for the decisions of ``deep``'s
  model of its opponent inside ``deep``'s look-aheads (:func:`deep_choose`).
  A level holds the scratch state the rollouts play on and its legal rows,
  the candidates, their scores, and a base copy (``base``: an expert's
  position with its hidden slots sampled once a decision, since every one of
  an expert's rollouts starts from the same determinization; ``deep``'s
  current determinization).

``deep`` (:mod:`clashkit.policies.deep`) is a search player whose options row
has ``S_DEEP`` set, and after its own options the options row of its model of
the opponent (from ``S_MODEL`` on: an expert's that reads the whole state, or
zeros for greedy); :func:`deep_choose` decides for it and :func:`choose`,
the same compiled function as the top level's, for its model.

A rollout's players are greedy with fresh memory (``s.pol``, ``s.seen`` of
the scratch state cleared), so the scratch state's policy codes are greedy's
for both (R4.6: the best card returns first; the solo AI keeps its order).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from . import rng as R
from .expert import N_FEATURES, WIN
from .expert import score as expert_score
from .expert import value as expert_value
from .greedy import decide, leaves_loop
from .hand import hand_health
from .jit import compiled, search_step
from .lanes import copy_row, fill
from .legality import A_CREATURE, A_PROCEED, A_SPELL, has_choice, legal_actions
from .state import (
    C_CARD,
    G_ACTIVE,
    G_DISCARD,
    G_ERROR,
    G_FORT_A,
    G_PHASE,
    G_PILE,
    G_RECORD,
    G_SOLO,
    G_TURN,
    G_TURNS_LOGGED,
    G_WINNER,
    GREEDY,
    KEEP,
    OVER,
    P_CAST_TURN,
    P_CASTS,
    SUMMON,
    legal_rows,
    new_state,
)
from .tables import W_CASTS_PER_TURN
from .transition import apply_row

#: The policy code of ``search`` (:data:`clashkit.fast.FAST_POLICIES`).
SEARCH = 2
#: A search player's options in its row of :func:`clashkit.fast.search_params`; an expert player
#: (:mod:`clashkit.fast.expert`) has ``S_EXPERT`` set and its weights from ``S_WEIGHTS`` on; a
#: ``deep`` player has ``S_DEEP`` set, ``S_PLAIN`` for the plain leaf, expert's weights from
#: ``S_WEIGHTS`` on, and its model's options row from ``S_MODEL`` on.
S_BUDGET, S_HORIZON, S_NOISE, S_FAIR, S_EXPERT, S_DEEP, S_PLAIN = range(7)
S_WEIGHTS = 7
#: One policy's options.
S_WIDTH = S_WEIGHTS + N_FEATURES
#: Where a ``deep`` player's model of its opponent has its options (zeros: greedy).
S_MODEL = S_WIDTH
#: A player's row: its options, then its model's.
S_ROW = 2 * S_WIDTH

#: One level of a search's scratch arrays (see the module docstring).
Level = namedtuple("Level", ["sim", "base", "legal", "cand", "choice", "step", "scores", "counts", "features"])
#: Search's arrays for one batch (see the module docstring).
SearchWork = namedtuple("SearchWork", ["params", "codes", "slots", "was", "cards", "top", "model"])


def searching(params: np.ndarray) -> bool:
    """Whether a player of ``params`` (a row of ``S_*`` options each) searches: the game loop is then
    the one compiled with search (:func:`clashkit.fast.game.play`)."""
    return bool((np.asarray(params)[:, S_BUDGET] > 0).any())


def new_work(cap: int, turn_limit: int, params: np.ndarray) -> SearchWork | None:
    """The arrays search needs beside a game's ``new_state(cap, turn_limit)``; ``params``: one row of
    ``S_*`` options a player (:func:`clashkit.fast.convert.search_params`).  ``None`` without a
    search player: the game loop is then compiled without search (:func:`clashkit.fast.game.play`)."""
    params = np.asarray(params, np.float64)
    if not searching(params):
        return None
    return SearchWork(
        params,
        np.array([GREEDY, GREEDY], np.int64),
        np.zeros(cap, np.int64),
        np.zeros(cap, np.int64),
        np.zeros(cap, np.int64),
        _level(cap, turn_limit),
        _level(cap, turn_limit),
    )


def _level(cap: int, turn_limit: int) -> Level:
    rows = legal_rows(cap)
    return Level(
        new_state(cap, turn_limit),
        new_state(cap, turn_limit),
        rows,
        np.zeros_like(rows),
        np.zeros(rows.shape[1], np.int64),
        np.zeros(rows.shape[1], np.int64),
        np.zeros(rows.shape[0], np.float64),
        np.zeros(rows.shape[0], np.int64),
        np.zeros(N_FEATURES, np.int64),
    )


# --- Actions as rows -------------------------------------------------------------------------


@search_step
def same_action(a, b):
    """Whether two rows of :func:`~clashkit.fast.legality.legal_actions` are one action (the reference's ``==``)."""
    kind = a[0]
    if kind != b[0]:
        return False
    if kind == A_PROCEED:
        return True
    if a[1] != b[1] or a[2] != b[2]:
        return False
    return kind == A_CREATURE or (a[3] == b[3] and a[4] == b[4])


@search_step
def copy_action(dst, src):
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@search_step
def _set_action(out, kind, index, a, b, c):
    out[0] = kind
    out[1] = index
    out[2] = a
    out[3] = b
    out[4] = c


@search_step
def casts(s, p):
    """``SearchPolicy.casts``: the incantations search player ``p`` has cast this turn (kept where
    greedy keeps its own count, ``s.pol[p]``)."""
    pol = s.pol[p]
    return pol[P_CASTS] if pol[P_CAST_TURN] == s.g[G_TURN] else 0


@search_step
def count_cast(s, p):
    """An incantation search player ``p`` plays counts toward this turn's (R5.3)."""
    n = casts(s, p)
    s.pol[p, P_CAST_TURN] = s.g[G_TURN]
    s.pol[p, P_CASTS] = n + 1


@compiled
def greedy_row(s, t, r, p, out):
    """``GreedyPolicy.decide`` after its loop check (:func:`clashkit.fast.greedy.decide`), as a row
    into ``out``; an incantation it casts counts in ``s.pol[p]`` (at most ``casts_per_turn`` a turn)."""
    kind, index, a, b, c = decide(s, t, r, p)
    _set_action(out, kind, index, a, b, c)


@search_step
def greedy_choice(s, t, r, p, out):
    """Step 3: the fresh greedy player's decision now as a row into ``out``.  Fresh, it remembers
    no position, so it never leaves a loop (R10.1); it counts this search player's casts this
    turn, and leaves them as they were."""
    pol = s.pol[p]
    turn, n = pol[P_CAST_TURN], pol[P_CASTS]
    greedy_row(s, t, r, p, out)
    pol[P_CAST_TURN] = turn
    pol[P_CASTS] = n


@search_step
def candidates(s, t, r, legal, n, p, cand):
    """Step 3: greedy's choice, moving on, then the other plays (incantations on their declared
    side, R5.5, while fewer than ``casts_per_turn`` are cast, R5.3) into ``cand``; returns how many."""
    greedy_choice(s, t, r, p, cand[0])
    m = 1
    proceed = legal[n - 1]
    if not same_action(proceed, cand[0]):
        copy_action(cand[m], proceed)
        m += 1
    hand = s.hands[p]
    casting = casts(s, p) < t.weights[W_CASTS_PER_TURN]
    for i in range(n - 1):  # the plays; the last row moves the turn on
        row = legal[i]
        if same_action(row, cand[0]):
            continue
        if row[0] == A_SPELL and (not casting or t.card[hand[row[1]]].enemy_side != (row[2] != p)):
            continue
        copy_action(cand[m], row)
        m += 1
    return m


# --- What a fair player can know (clashkit.policies.sight) -----------------------------------------


@search_step
def _hidden_row(s, p):
    """``sight.hidden_row``: the opponent's hand, or in solo the AI pile (top first), and its length."""
    if s.g[G_SOLO]:
        return s.pile, (s.g[G_PILE] if p == 0 else 0)
    return s.hands[1 - p], s.hlen[1 - p]


@search_step
def see(s, p):
    """``Sightings.of``: the opponent's creatures in play join what ``p`` has seen."""
    for lane in range(2):
        for pos in range(s.ln[1 - p, lane]):
            s.sight[p, s.cr[1 - p, lane, pos, C_CARD]] = 1


@search_step
def hidden_slots(s, p, slots):
    """``sight.hidden_slots``: the places of the hidden row ``p`` cannot know into ``slots``; how many."""
    row, n = _hidden_row(s, p)
    k = 0
    for i in range(n):
        card = row[i]
        if card == KEEP:
            continue
        if not s.g[G_SOLO] and s.sight[p, card]:
            held = 0
            for j in range(n):
                if row[j] == card:
                    held += 1
            if held == 1:
                continue  # seen come back: its place is known
        slots[k] = i
        k += 1
    return k


@search_step
def _sorted_cards(row, slots, k, cards):
    """The cards at the slots, in card-id order, into ``cards``."""
    for i in range(k):
        card = row[slots[i]]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@search_step
def canonical(s, p, slots, k, was, cards):
    """``sight.canonical``: the hidden slots in card-id order, in place; ``was`` keeps them as they were."""
    row, _ = _hidden_row(s, p)
    for i in range(k):
        was[i] = row[slots[i]]
    _sorted_cards(row, slots, k, cards)
    for i in range(k):
        row[slots[i]] = cards[i]


@search_step
def restore(s, p, slots, k, was):
    """``sight.restore``: undo :func:`canonical`."""
    row, _ = _hidden_row(s, p)
    for i in range(k):
        row[slots[i]] = was[i]


@search_step
def sample(s, p, slots, k, cards):
    """``sight.sample``: one determinization, the hidden slots' sorted cards shuffled with ``s.rng``."""
    row, _ = _hidden_row(s, p)
    _sorted_cards(row, slots, k, cards)
    R.shuffle(s.rng, cards, k)
    for i in range(k):
        row[slots[i]] = cards[i]


# --- A rollout ----------------------------------------------------------------------------------


@search_step
def life(s, p):
    """``search.life``: hand-health, plus the cards a Bastion still protects (R4.8); the solo AI:
    its pile above the keep, plus the discard its Bastion would reshuffle (R8.6, R8.7)."""
    health = hand_health(s, p)
    if s.g[G_SOLO] and p == 1:
        return health + (0 if s.g[G_FORT_A + 1] else s.g[G_DISCARD])
    if not s.g[G_FORT_A + p]:
        health += s.hlen[p] - 1
    return health


@search_step
def evaluate(s, p):
    """``search.evaluate``: the share of the life left that is ``p``'s."""
    mine = life(s, p) + 1
    theirs = life(s, 1 - p) + 1
    return mine / (mine + theirs)


@search_step
def copy_game(sim, s):
    """``state.clone(record=False)`` into the scratch state: the position and its generator, no turn
    records, the greedy players' memory empty."""
    for i in range(s.g.shape[0]):
        sim.g[i] = s.g[i]
    sim.g[G_TURNS_LOGGED] = 0
    sim.g[G_RECORD] = 0  # a rollout is not the game: its events are not kept
    for p in range(2):
        sim.hlen[p] = s.hlen[p]
        for i in range(s.hlen[p]):
            sim.hands[p, i] = s.hands[p, i]
        for lane in range(2):
            sim.ln[p, lane] = s.ln[p, lane]
            for pos in range(s.ln[p, lane]):
                copy_row(sim.cr[p, lane, pos], s.cr[p, lane, pos])
        fill(sim.pol[p], 0)
    for i in range(s.g[G_PILE]):
        sim.pile[i] = s.pile[i]
    for i in range(s.g[G_DISCARD]):
        sim.discard[i] = s.discard[i]
    sim.rng[0] = s.rng[0]


@search_step
def play_until(s, t, r, codes, legal, until, noisy, noise, row):
    """``loop.run(until_turn=until)`` with greedy for both players (``row``: room for one action).

    ``noisy``: each decision first draws ``random() < noise``, and below it plays a uniformly
    random legal action (``_NoisyGreedy``).  Without a choice the turn moves on one step at a
    time, which plays as the loop's siege run through (R3.11: no choice now, none later in it)."""
    while s.g[G_PHASE] != OVER and s.g[G_TURN] < until:
        if s.g[G_ERROR] != 0:
            return
        if not has_choice(s, t, r):
            _set_action(row, A_PROCEED, 0, 0, 0, 0)
        elif (noisy and R.random(s.rng) < noise) or (
            s.g[G_PHASE] == SUMMON and leaves_loop(s, t, r, s.g[G_ACTIVE], checked=True)
        ):
            n = legal_actions(s, t, r, legal)
            copy_action(row, legal[R.randrange(s.rng, n)])
        else:
            greedy_row(s, t, r, s.g[G_ACTIVE], row)
        apply_row(s, t, r, codes, row)


@search_step
def start_copy(sim, s, seed, noisy, fair, slots, k, cards, p):
    """Step 5's copy: ``s`` into ``sim``, and with ``fair`` the hidden slots sampled from ``seed``."""
    copy_game(sim, s)
    if fair:
        sim.rng[0] = seed
        sample(sim, p, slots, k, cards)
    if noisy:
        sim.rng[0] = seed


@search_step
def rollout(s, t, r, w, lv, prm, action, seed, noisy, fair, k, p):
    """Step 5: ``SearchPolicy.rollout`` on level ``lv`` with options ``prm``; ``k`` hidden slots in
    ``w.slots`` (fair search).  An expert's copies are all the same position (one seed, no noise):
    they start from ``lv.base``, made once a decision by :func:`start_copy`, which gives the same copy."""
    sim = lv.sim
    expert = prm[S_EXPERT] != 0.0
    if expert:
        copy_game(sim, lv.base)
    else:
        start_copy(sim, s, seed, noisy, fair, w.slots, k, w.cards, p)
    apply_row(sim, t, r, w.codes, action)
    until = s.g[G_TURN] + np.int64(prm[S_HORIZON])
    play_until(sim, t, r, w.codes, lv.legal, until, noisy, prm[S_NOISE], lv.step)
    if sim.g[G_ERROR] != 0:
        s.g[G_ERROR] = sim.g[G_ERROR]
    if expert:  # ExpertPolicy.score
        return expert_score(sim, t, p, prm, S_WEIGHTS, lv.features)
    winner = sim.g[G_WINNER]
    if winner >= 0:
        return 1.0 if winner == p else 0.0
    return evaluate(sim, p)


# --- A decision -----------------------------------------------------------------------------------


@search_step
def opening(s, t, r, legal, lv, p):
    """Steps 2–3: greedy's loop check, then the candidates into ``lv.cand``; how many, or 0 when the
    decision is made already (a loop left, or a single candidate) and stands in ``lv.choice``."""
    n = legal_actions(s, t, r, legal)
    if s.g[G_PHASE] == SUMMON and leaves_loop(s, t, r, p, checked=True):
        copy_action(lv.choice, legal[R.randrange(s.rng, n)])
        return 0
    m = candidates(s, t, r, legal, n, p, lv.cand)
    if m == 1:
        copy_action(lv.choice, lv.cand[0])
        return 0
    return m


@compiled
def choose(s, t, r, legal, w, lv, prm, p, fair, k):
    """Steps 2–6: the decision of search player ``p`` (options ``prm``, scratch level ``lv``) into
    ``lv.choice``."""
    m = opening(s, t, r, legal, lv, p)
    if m == 0:
        return
    cand = lv.cand
    budget = np.int64(prm[S_BUDGET])
    tried = m if m < budget else budget
    seed = R.getrandbits64(s.rng, 64)
    scores, counts = lv.scores, lv.counts
    for j in range(tried):
        scores[j] = 0.0
        counts[j] = 0
    expert = prm[S_EXPERT] != 0.0
    rollouts = tried if expert else budget  # an expert: no spare rollouts
    if expert:  # its rollouts' one copy (see rollout)
        start_copy(lv.base, s, seed, noisy=False, fair=fair, slots=w.slots, k=k, cards=w.cards, p=p)
    for i in range(rollouts):
        j = i % tried
        scores[j] += rollout(s, t, r, w, lv, prm, cand[j], seed + np.uint64(i // tried), i >= tried, fair, k, p)
        counts[j] += 1
    best = 0
    best_mean = scores[0] / counts[0]
    for j in range(1, tried):
        mean = scores[j] / counts[j]
        if mean > best_mean + 1e-9:
            best = j
            best_mean = mean
    copy_action(lv.choice, cand[best])


# --- deep: through the opponent's next turn (clashkit.policies.deep) ----------------------------------


@search_step
def deep_score(sim, t, prm, p, scratch):
    """``DeepPolicy.score``: a won or lost game, else the leaf (expert's value from the opponent's
    view, negated; or the plain share of the life left)."""
    plain = prm[S_PLAIN] != 0.0
    winner = sim.g[G_WINNER]
    if winner >= 0:
        if plain:
            return 1.0 if winner == p else 0.0
        return WIN if winner == p else -WIN
    if plain:
        return evaluate(sim, p)
    return -expert_value(sim, t, 1 - p, prm, S_WEIGHTS, scratch)


@search_step
def play_deep(sim, t, r, w, until, me):
    """``loop.run(until_turn=until)`` in a look-ahead: ``me`` a fresh greedy, the opponent its model
    (:func:`choose` on the ``model`` level, its casts counted as a search player's; or greedy)."""
    lv = w.top
    row = lv.step
    model = w.params[me, S_MODEL:]
    modelled = model[S_EXPERT] != 0.0
    while sim.g[G_PHASE] != OVER and sim.g[G_TURN] < until:
        if sim.g[G_ERROR] != 0:
            return
        active = sim.g[G_ACTIVE]
        if not has_choice(sim, t, r):
            _set_action(row, A_PROCEED, 0, 0, 0, 0)
        elif modelled and active != me:
            choose(sim, t, r, lv.legal, w, w.model, model, active, np.bool_(False), np.int64(0))
            copy_action(row, w.model.choice)
            if row[0] == A_SPELL:
                count_cast(sim, active)
        elif sim.g[G_PHASE] == SUMMON and leaves_loop(sim, t, r, active, checked=True):
            n = legal_actions(sim, t, r, lv.legal)
            copy_action(row, lv.legal[R.randrange(sim.rng, n)])
        else:
            greedy_row(sim, t, r, active, row)
        apply_row(sim, t, r, w.codes, row)


@search_step
def look_ahead(s, t, r, w, action, until, p):
    """``DeepPolicy.look_ahead``: ``action`` on a copy of the current guess (``w.top.base``), played
    on until turn ``until`` begins; the leaf's score."""
    lv = w.top
    sim = lv.sim
    copy_game(sim, lv.base)
    apply_row(sim, t, r, w.codes, action)
    play_deep(sim, t, r, w, until, p)
    if sim.g[G_ERROR] != 0:
        s.g[G_ERROR] = sim.g[G_ERROR]
    return deep_score(sim, t, w.params[p, :S_MODEL], p, lv.features)


@compiled
def deep_choose(s, t, r, legal, w, p, k):
    """``DeepPolicy._decide`` (steps 1–4 of its module docstring) for player ``p``, whose ``k`` hidden
    slots are in ``w.slots``, into ``w.top.choice``."""
    lv = w.top
    prm = w.params[p, :S_MODEL]
    m = opening(s, t, r, legal, lv, p)
    if m == 0:
        return
    cand = lv.cand
    seed = R.getrandbits64(s.rng, 64)
    totals = lv.scores
    for j in range(m):
        totals[j] = 0.0
    until = s.g[G_TURN] + np.int64(prm[S_HORIZON])
    for b in range(np.int64(prm[S_BUDGET])):
        start_copy(
            lv.base, s, seed + np.uint64(b), noisy=False, fair=True, slots=w.slots, k=k, cards=w.cards, p=p
        )  # one guess
        for j in range(m):
            totals[j] += look_ahead(s, t, r, w, cand[j], until, p)
    best = 0
    for j in range(1, m):
        if totals[j] > totals[best] + 1e-9:
            best = j
    copy_action(lv.choice, cand[best])


@compiled
def search_decision(s, t, r, legal, w):
    """One decision of the search player to move (who has a choice), as (kind, hand index, lane or
    target player, target lane, target position) for the game loop to carry out."""
    p = s.g[G_ACTIVE]
    fair = w.params[p, S_FAIR] != 0.0
    k = np.int64(0)
    if fair:  # step 1
        see(s, p)
        k = hidden_slots(s, p, w.slots)
        canonical(s, p, w.slots, k, w.was, w.cards)
    if w.params[p, S_DEEP] != 0.0:
        deep_choose(s, t, r, legal, w, p, k)
    else:
        choose(s, t, r, legal, w, w.top, w.params[p, :S_MODEL], p, fair, k)
    if fair:
        restore(s, p, w.slots, k, w.was)
    row = w.top.choice
    if row[0] == A_SPELL:
        count_cast(s, p)
    return row[0], row[1], row[2], row[3], row[4]


__all__ = [
    "SEARCH",
    "Level",
    "SearchWork",
    "deep_choose",
    "search_decision",
    "evaluate",
    "life",
    "new_work",
    "searching",
]
