"""A run's specification: one frozen :class:`Matchup`, built where input enters and passed down.

:meth:`Matchup.build` is the one place that lists a run's options and checks them
(decks, formats, policies, rules and solo settings, the card set, the engine,
events); :func:`choose_engine` is the one place that picks the engine.  Everything
below — :func:`~clashkit.runs.simulate.play`, the worker processes, the fast
engine's batches, the design studies — takes the value as it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..base.cards import CardSet, load_cards, starter_set
from ..base.errors import DeckError, OptionError
from ..base.levels import parse_level, points, solo_settings
from ..base.limits import LIMITS
from ..base.rng import Rng
from ..base.rules import Rules
from ..base.vocab import Mode
from ..engine import formats
from ..engine.solo_setup import split_cards
from ..policies import Policy, get_policy


@dataclass(frozen=True, slots=True)
class Matchup:
    """A run's specification: what every game of it shares — mode, decks, policies, cards,
    rules, engine and whether events are recorded — checked once by :meth:`build` where
    input enters (the command line, :func:`~clashkit.runs.simulate.simulate`) and passed
    down as one frozen value, to worker processes too.

    ``deck_a`` / ``deck_b`` are :class:`~clashkit.engine.formats.DeckSpec` in a duel;
    in solo mode ``deck_a`` is the player's deck argument and ``deck_b`` is
    ``None`` (the AI gets the rest, R8.1).  ``cards`` is ``None`` for the
    shipped set, so worker processes load it themselves.
    """

    mode: str
    deck_a: Any
    deck_b: Any
    policy_a: str | Policy
    policy_b: str | Policy
    cards: CardSet | None
    rules: Rules
    record_events: bool
    level: int | None
    mirror: bool = False
    #: ``reference`` or ``fast`` (:mod:`clashkit.fast`).
    engine: str = "reference"
    #: The decks and solo settings as they were asked for, for the run's manifest:
    #: (deck A, deck B, the settings' items), as text.
    asked: tuple = ()

    @classmethod
    def build(
        cls,
        deck_a: str | int | Sequence[str] | None = "1",
        deck_b: str | int | Sequence[str] | None = "2",
        policy_a: str | Policy = "random",
        policy_b: str | Policy | None = None,
        *,
        record_events: bool | None = True,
        engine: str | None = None,
        mode: str = "duel",
        level: int | str | None = None,
        settings: Mapping[str, Any] | None = None,
        free_settings: bool = False,
        cards: CardSet | str | os.PathLike | None = None,
        rules: Rules | Mapping[str, Any] | None = None,
        mirror: bool = False,
    ) -> Matchup:
        """Check every option of a run once, before any game is played; the one list of them.

        Decks are what ``--a`` / ``--b`` take (:func:`clashkit.engine.formats.parse_deck`);
        in solo mode (``mode="solo"``) ``deck_a`` is the player's and B is the AI, with
        ``level`` (R8.9) or ``settings`` (a mapping of :class:`~clashkit.base.rules.SoloSettings`
        fields; ``free_settings`` allows combinations outside the points table).  ``engine``
        is ``"fast"``, ``"reference"`` or ``None`` (:func:`choose_engine`).  ``cards`` is a
        card set or a card file (default: the shipped set); ``rules`` a
        :class:`~clashkit.base.rules.Rules` or a mapping of its options; ``mirror`` allows
        the same starter deck on both sides."""
        asked = (
            str(deck_a),
            None if deck_b is None else str(deck_b),
            None if settings is None else tuple((k, settings[k]) for k in sorted(settings)),
        )
        if cards is not None and not isinstance(cards, CardSet):
            cards = load_cards(cards)
        card_set = cards if cards is not None else starter_set()
        rules = Rules.coerce(rules)
        try:
            mode = Mode(str(mode).lower())
        except ValueError:
            raise OptionError(f"mode {mode!r} is not a mode (duel, solo)") from None
        policy_b = policy_a if policy_b is None else policy_b
        for spec in (policy_a, policy_b):
            get_policy(spec)  # refuse an unknown policy now, not in a worker
        given_a, given_b = _deck_text(deck_a), _deck_text(deck_b)
        if mode is Mode.SOLO:
            if given_b is not None:
                raise DeckError("deck B: in solo mode the AI gets the cards the player does not (R8.1); give no deck B")
            if settings is not None or level is not None:
                rules = rules.replace(solo=solo_settings(level, settings, free=free_settings))
            recorded_level = parse_level(level) if level is not None else points(rules.solo)
            formats.check_first_player(rules, "", solo=True)
            spec_a = _solo_deck(given_a, card_set)
            _, _, ai_cards = split_cards(spec_a, get_policy(policy_a), card_set, Rng(0))  # refuse a bad deck now
            most = LIMITS["cards_owned"]
            if len(ai_cards) > most.high:
                raise DeckError(f"deck A: the AI would own {len(ai_cards)} cards, more than {most.high} ({most.why})")
            spec_b, level_played = None, recorded_level
        else:
            if level is not None or settings is not None:
                raise OptionError("level and settings are for solo mode (R8.9); add mode solo")
            if given_b is None:
                raise DeckError("deck B: a duel needs two decks (R2.1)")
            spec_a = formats.parse_deck(given_a, card_set, side="A")
            spec_b = formats.parse_deck(given_b, card_set, side="B")
            formats.check_first_player(rules, formats.format_of(spec_a, spec_b, mirror=mirror))
            level_played = None
        # the solo AI plays itself: policy B is not played
        playing_b = policy_a if mode is Mode.SOLO else policy_b
        engine, events = choose_engine(engine, record_events, policy_a, playing_b)
        return cls(
            mode.value, spec_a, spec_b, policy_a, policy_b, cards, rules, events, level_played, mirror, engine, asked
        )

    @property
    def card_set(self) -> CardSet:
        return self.cards if self.cards is not None else starter_set()

    @property
    def labels(self) -> tuple[str, str]:
        """The policies as the games frame names them (``ai`` for the solo AI)."""
        label_b = "ai" if self.mode == Mode.SOLO else _label(self.policy_b)
        return _label(self.policy_a), label_b


def _deck_text(deck: Any) -> Any:
    """A deck argument with a starter deck number written as its text (``1`` -> ``"1"``)."""
    return str(deck) if isinstance(deck, int) and not isinstance(deck, bool) else deck


def _label(spec: str | Policy) -> str:
    return spec.name if isinstance(spec, Policy) else str(spec).strip()


def choose_engine(engine: str | None, record_events: bool | None, policy_a, policy_b) -> tuple[str, bool]:
    """The engine that plays and whether events are recorded (see :func:`simulate`); one clear line if refused.

    Both engines record the same events; ``engine=None`` picks ``fast`` whenever both policies
    exist there (by name), else ``reference``.  ``record_events=None`` (no preference) records
    events in the reference engine and none in the fast one.
    """
    from ..fast.convert import FAST_POLICIES, policy_code

    if engine is not None and engine not in ("fast", "reference"):
        raise OptionError(f"engine {engine!r} is not an engine (fast, reference)")
    if engine is None:
        # A policy by name, options aside (``search:budget=4``); policy objects play in the reference engine.
        names = [str(p).partition(":")[0].strip().lower() for p in (policy_a, policy_b)]
        plain = all(isinstance(p, str) for p in (policy_a, policy_b))
        engine = "fast" if plain and all(name in FAST_POLICIES for name in names) else "reference"
    if engine == "fast":
        for spec in (policy_a, policy_b):
            policy_code(spec)
        return "fast", bool(record_events)
    return "reference", record_events is not False


def _solo_deck(deck: Any, cards: CardSet) -> Any:
    """The player's deck argument in solo mode, read as a duel deck is (R8.1): ``draft``, a
    starter deck number, or 8 names from a list or a file (a byte-order mark and all)."""
    if isinstance(deck, str) and deck.strip().lower() == "draft":
        return "draft"
    if deck is None:
        raise DeckError("deck A: solo mode needs the player's deck (1–4, draft, 8 names or a file)")
    spec = formats.parse_deck(deck, cards, side="A")
    if spec.format == formats.CONSTRUCTED:
        raise DeckError(
            "deck A: solo has no constructed format (R7.3 is a duel format); give draft, 1–4 or 8 names (R8.1)"
        )
    return str(spec.number) if spec.number is not None else list(spec.names)


__all__ = ["Matchup", "choose_engine"]
