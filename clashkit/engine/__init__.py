"""The engine layer: the rules of Clash of Decks in plain Python, one module per rule concept.

The state (:mod:`~clashkit.engine.state`), actions, events and outcome; the rule
modules named as the rulebook names them (:mod:`~clashkit.engine.hand`,
:mod:`~clashkit.engine.lanes`, :mod:`~clashkit.engine.abilities`,
:mod:`~clashkit.engine.destruction`, :mod:`~clashkit.engine.siege`,
:mod:`~clashkit.engine.incantations`, :mod:`~clashkit.engine.solo`,
:mod:`~clashkit.engine.turn`, :mod:`~clashkit.engine.legality`); the one way a
decision changes a game (:func:`apply`, in :mod:`~clashkit.engine.transition`),
the game loop (:mod:`~clashkit.engine.loop`), setups, formats and scenarios.
Policies come in as objects: the engine never resolves a policy's name.

May import: :mod:`clashkit.base`.
"""

from .transition import (
    apply,
    apply_unchecked,
    can_cast_now,
    check,
    has_choice,
    legal_actions,
    legal_cards,
    legal_plays,
    play_creature,
    play_incantation,
    proceed_action,
)

__all__ = [
    "apply",
    "apply_unchecked",
    "can_cast_now",
    "check",
    "has_choice",
    "legal_actions",
    "legal_cards",
    "legal_plays",
    "play_creature",
    "play_incantation",
    "proceed_action",
]
