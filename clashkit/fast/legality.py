"""What the active player may do now, compiled (R3.2-R3.6, R3.9, R3.11, R5.1): mirrors
:mod:`clashkit.engine.legality`, the one legality kernel of the fast engine."""

from __future__ import annotations

from .jit import compiled, step
from .state import (
    AI,
    G_ACTIVE,
    G_MANA,
    G_PHASE,
    G_SOLO,
    KEEP,
    OVER,
    PLAYABLE,
    SIEGE,
    SUMMON,
    W_LEGAL,
)
from .tables import (
    R_INCANTATIONS_IN_SIEGE,
)

#: Action kinds in a legal list row: (kind, hand index, lane or target player, target lane, target position).
A_CREATURE, A_SPELL, A_PROCEED = 0, 1, 2


@step
def legal_cards(s, t, r, out, first_only):
    """Hand indices of every card the active player may play now, in hand order, into ``out``; returns how many.

    The one legality kernel (as :func:`clashkit.engine.legality.legal_cards`): a card
    among the playable (R3.2) that the player can afford (R3.3): a creature in
    the summon phase (R3.5) while another card besides the keep would stay
    (R3.4); an incantation when one may be cast (R3.6, R3.11) and some creature
    is in play to aim at (R5.1).  The solo AI has no hand: its summon phase
    plays itself (R8.3).  ``first_only``: stop at the first such card.
    """
    phase = s.g[G_PHASE]
    p = s.g[G_ACTIVE]
    if phase == OVER or (s.g[G_SOLO] and p == AI):
        return 0
    hand = s.hands[p]
    n = s.hlen[p]
    mana = s.g[G_MANA]
    summon_creatures = phase == SUMMON and n > 2
    any_creature = s.ln[0, 0] + s.ln[0, 1] + s.ln[1, 0] + s.ln[1, 1] > 0
    cast = (phase == SUMMON or (phase == SIEGE and r[R_INCANTATIONS_IN_SIEGE] != 0)) and any_creature
    k = 0
    playable = 0
    for i in range(n):
        card = hand[i]
        if card == KEEP:
            continue
        if t.card[card].cost <= mana and (summon_creatures if t.card[card].is_creature else cast):
            out[k] = i
            k += 1
            if first_only:
                return k
        playable += 1
        if playable == PLAYABLE:
            break
    return k


@compiled
def has_choice(s, t, r):
    """Whether :func:`legal_actions` lists more than the one action that moves the turn on."""
    return legal_cards(s, t, r, s.work[W_LEGAL : W_LEGAL + PLAYABLE], first_only=True) > 0


@step
def legal_actions(s, t, r, out):
    """Every legal action of the active player into ``out`` rows, in the reference order; returns how many.

    :func:`legal_cards`, each in every place (creatures upper then lower;
    incantations on every creature in play, A before B, upper before lower,
    bridge outward), then the one action that moves the turn on.
    """
    cards = s.work[W_LEGAL : W_LEGAL + PLAYABLE]
    k = 0
    for j in range(legal_cards(s, t, r, cards, first_only=False)):
        i = cards[j]
        if t.card[s.hands[s.g[G_ACTIVE], i]].is_creature:
            for lane in range(2):
                out[k, 0] = A_CREATURE
                out[k, 1] = i
                out[k, 2] = lane
                k += 1
        else:
            for tp in range(2):
                for tl in range(2):
                    for tpos in range(s.ln[tp, tl]):
                        out[k, 0] = A_SPELL
                        out[k, 1] = i
                        out[k, 2] = tp
                        out[k, 3] = tl
                        out[k, 4] = tpos
                        k += 1
    out[k, 0] = A_PROCEED
    k += 1
    return k
