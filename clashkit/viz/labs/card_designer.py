"""The card designer's controller: edit or add a card, play the change on the same seeds, compare win rates (R9.3).

Plain Python, no ipywidgets: :mod:`clashkit.viz.labs.card_designer_view` draws it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import polars as pl

from ...base import Card, CardSet, card_from_fields, starter_set
from ...base.errors import InputError
from ...base.suggest import did_you_mean

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


class CardExists(InputError):
    """:meth:`CardDesigner.add` of a name the set holds already (its card is changed with
    :meth:`CardDesigner.edit`); ``name`` is the card's, for a view to say it in its own words."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} already exists; use edit() to change it")
        self.name = name


class CardDesigner:
    """Change a card (or add one to a starter deck in place of another), play every pairing
    of the starter decks before and after on the same seeds at each strength of play in
    ``policies`` (weakest first; ``policy=`` for one), and see each deck's change at each
    strength with its paired 95% interval (:func:`clashkit.studies.design.compare`), the
    matrix before and after, and the card's own numbers
    (:func:`clashkit.studies.design.card_stats`, at the first strength).

    Every strength plays the same deals and coin flips, so a change that helps a deck under
    ``greedy`` and not under ``expert`` is told apart game by game.

    ``games_per_pairing=None`` (the default) plays at least :attr:`MIN_GAMES` games a
    pairing and as many as it takes for every deck's change to be measured to ±1.5 points
    (:data:`clashkit.studies.design.HALF_WIDTH`) at every strength: the first
    :attr:`MIN_GAMES` games measure the spread of the per-game differences, and a change
    whose interval is still wider is played again with the count that spread needs, at most
    :attr:`MAX_GAMES` (enough for any spread: a per-game difference is −1, 0 or 1).

    The games are played on the fast engine when the bots exist there (``random``,
    ``greedy``, ``search``, ``expert``; ``engine=None``), in this process (``jobs=1``:
    starting worker processes costs more than the games), all strengths as one list of
    jobs.  :meth:`card_stats` plays there too, with events: its play numbers come from
    :attr:`STATS_GAMES` games a pairing, as many as the win rates' first games.

    With ``check_strength`` every run also plays the change at the strongest strength again
    with the arbiter (``check_policy``, default ``deep``) on a quarter of the games, the
    same seeds (:func:`clashkit.studies.design.check_strength`, as ``--check-strength`` of
    the commands), and :meth:`check_lines` says deck by deck whether the two agree.
    """

    MIN_GAMES = 2_000
    MAX_GAMES = 3_000
    STATS_GAMES = 2_000

    def __init__(
        self,
        cards: CardSet | None = None,
        *,
        games_per_pairing: int | None = None,
        policies: Sequence[str] = ("greedy", "expert"),
        policy: str | None = None,
        seed: int = 0,
        engine: str | None = None,
        jobs: int | None = 1,
        check_strength: bool = False,
        check_policy: str | None = None,
    ) -> None:
        from ...studies.design import CHECK_POLICY, strengths

        self.base = cards if cards is not None else starter_set()
        self.games_per_pairing = games_per_pairing
        #: The strengths played, weakest first (``policy=`` gives one).
        self.policies: tuple[str, ...] = tuple(strengths(policy, None if policy is not None else list(policies)))
        self.seed = seed
        self.engine = engine
        self.jobs = jobs
        self.changes: dict[str, Card] = {}
        self.swaps: dict[str, tuple[str, str]] = {}  # new card → (deck label, card it replaces)
        self._games: dict = {}  # clashkit.studies.design job results, kept between runs
        self.skill = None  # clashkit.studies.design.SkillComparison of the last run
        self.results: dict = {}  # … its Comparison at each strength
        self.result = None  # the first strength's Comparison
        self.before = None  # its clashkit.studies.design.Balance before the change
        self.after = None  # … and after
        #: Whether a run also plays the strength check (:meth:`check_lines`).
        self.check_strength = check_strength
        #: The arbiter of the strength check.
        self.check_policy = check_policy or CHECK_POLICY
        self.check = None  # clashkit.studies.design.StrengthCheck of the last run, if asked for

    @property
    def policy(self) -> str:
        """The first (weakest) strength; setting it plays that one strength alone."""
        return self.policies[0]

    @policy.setter
    def policy(self, value: str) -> None:
        self.policies = (value,)

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
        Raises ``ValueError`` naming the column for a bad value, as the card file would, and
        :class:`~clashkit.base.errors.InputError` (a ``ValueError``) for a card or a field that does
        not exist, with the close names (a new card goes into a deck with :meth:`add`)."""
        if name not in self.cards:
            raise InputError(
                f"edit: no card {name!r} in the set{did_you_mean(str(name), self.cards.names)} "
                "(add() puts a new card into a deck)"
            )
        card = self.preview(name, **fields)
        if name in self.base and card == self.base.card(name) and name not in self.swaps:
            self.changes.pop(name, None)  # back to the shipped card: no change
        else:
            self.changes[name] = card
        return card

    def preview(self, name: str, **fields) -> Card:
        """The card :meth:`edit` would make (or a new card), without keeping it; a field that a card
        does not have is refused with the close names."""
        editable = CARD_FIELDS[1:]
        for field in fields:
            if field not in editable:
                raise InputError(
                    f"edit: a card has no field {field!r} (its fields: {', '.join(editable)})"
                    f"{did_you_mean(field, editable)}"
                )
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
            raise CardExists(card.name)
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
        return self.policies[0]

    @property
    def engine_used(self) -> str:
        """The engine the games are played on: ``fast`` when every strength's bot exists there
        and no engine was asked for (else ``reference``)."""
        if self.engine is not None:
            return self.engine
        from ...runs import choose_engine

        engines = {choose_engine(None, False, p, p)[0] for p in self.policies}
        return "fast" if engines == {"fast"} else "reference"

    def run(self, *, progress: bool = True) -> pl.DataFrame:
        """Play before and after on the same seeds; returns :meth:`comparison`.  Games
        already played (the set before the change, pairings the change does not touch) are
        not played again."""
        from ...studies import HALF_WIDTH, compare, games_for_half_width

        options = dict(
            policies=list(self.policies),
            seed=self.seed,
            engine=self.engine,
            jobs=self.jobs,
            progress=progress,
            cache=self._games,
        )
        after = self.cards
        n = self.games_per_pairing
        if n is None:
            first = compare(self.base, after, self.MIN_GAMES, **options)
            if first.half_width <= HALF_WIDTH:
                self._keep(first)
                self._check(progress)
                return self.comparison()
            sd = max(float(c.changes["sd"].max() or 0.0) for c in first.comparisons.values())
            n = min(self.MAX_GAMES, max(self.MIN_GAMES, games_for_half_width(sd, HALF_WIDTH)))
        self._keep(compare(self.base, after, n, **options))
        self._check(progress)
        return self.comparison()

    def _check(self, progress: bool) -> None:
        """The strength check of the last run's change, when asked for (else forgotten)."""
        from ...studies.design import check_games, check_strength

        self.check = None
        if not self.check_strength:
            return
        self.check = check_strength(
            [self.base, self.cards],
            check_games(self.games),
            against=self.policies[-1],
            policy=self.check_policy,
            seed=self.seed,
            engine=self.engine,
            jobs=self.jobs,
            progress=progress,
            cache=self._games,
        )

    def check_lines(self) -> list[str]:
        """The strength check of the last run, one sentence a deck
        (:meth:`clashkit.studies.design.StrengthCheck.sentences`); none without ``check_strength``."""
        self._need_result()
        return [] if self.check is None else self.check.sentences()

    @property
    def games(self) -> int:
        """Games a pairing of the last run."""
        return int(self._need_result().after.matchups["games"].max())

    def _keep(self, result) -> None:
        first = result.first
        self.skill = result  # clashkit.studies.design.SkillComparison
        self.results = dict(result.comparisons)
        self.result = first
        self.before, self.after = first.before, first.after

    def _need_skill(self):
        """The comparison at every strength of the last run (a run first)."""
        self._need_result()
        return self.skill

    def _need_result(self):
        if self.result is None:
            raise RuntimeError("run() the simulation first")
        return self.result

    def comparison(self) -> pl.DataFrame:
        """Each deck's win rate ``before`` and ``after`` (with 95% intervals) at each strength,
        stacked: ``strength``, ``version``, ``deck``, ``games``, ``wins``, ``win_rate``,
        ``low``, ``high``."""
        self._need_result()
        return pl.concat(
            balance.labelled_decks(strength=strength, version=version)
            for strength, result in self.results.items()
            for version, balance in (("before", result.before), ("after", result.after))
        )

    def change_table(self) -> pl.DataFrame:
        """One row per strength and deck: rate before and after, the change and its paired 95%
        interval (``clear``: the games tell it from 0), and the game count."""
        return self._need_skill().table().with_columns(pl.format("deck {}", "deck").alias("deck"))

    def change_lines(self) -> list[str]:
        """Each deck's change at every strength, one line a deck:
        ``deck 2: +2.1 points under greedy [+0.9, +3.3], −0.4 under expert [−1.6, +0.8]``."""
        from ...base.points import interval_text, points_text

        table = self.change_table()
        lines = []
        for (deck,), rows in table.group_by("deck", maintain_order=True):
            parts = []
            for i, r in enumerate(rows.iter_rows(named=True)):
                unit = " points" if i == 0 else ""
                parts.append(
                    f"{points_text(r['change'])}{unit} under {r['strength']} "
                    f"{interval_text(r['change_low'], r['change_high'])}"
                )
            lines.append(f"{deck}: " + ", ".join(parts))
        return lines

    def paired_matrix(self) -> pl.DataFrame:
        """One row per strength and cell of the balance matrix: the row deck's rate against the
        column deck (both seats) before and after, and the paired change with its 95% interval
        (:meth:`clashkit.studies.design.Comparison.matrix`)."""
        return self._need_skill().matrix()

    def clear_result(self) -> None:
        """Forget the last run (its numbers no longer describe the cards)."""
        self.result = self.before = self.after = self.skill = self.check = None
        self.results = {}

    def matrices(self) -> pl.DataFrame:
        """The row deck's rate against the column deck, both seats, before and after, at each
        strength: ``strength``, ``version`` and the columns of
        :func:`clashkit.studies.balance_matrix`."""
        from ...studies import balance_matrix

        self._need_result()
        return pl.concat(
            [
                balance_matrix(b.matchups).select(pl.lit(p).alias("strength"), pl.lit(v).alias("version"), pl.all())
                for p, result in self.results.items()
                for v, b in (("before", result.before), ("after", result.after))
            ]
        )

    def card_stats(self, name: str, *, games_per_pairing: int | None = None, progress: bool = False) -> pl.DataFrame:
        """:func:`clashkit.studies.design.card_stats` of card ``name`` as edited, at the first
        strength: the play numbers from :attr:`STATS_GAMES` games a pairing, the removal impact
        from the last run's game count (``games_per_pairing`` if given), both on the designer's
        engine, reusing the games already played."""
        from ...studies import card_stats

        n = games_per_pairing or (self.games if self.result is not None else None)
        n = n or self.games_per_pairing or self.MIN_GAMES
        return card_stats(
            n,
            names=[name],
            plays_n=min(n, self.STATS_GAMES),
            cards=self.cards,
            policy=self._policy(),
            seed=self.seed,
            engine=self.engine,
            jobs=self.jobs,
            progress=progress,
            cache=self._games,
        )

    def save(self, path: str | Path) -> Path:
        """Write the edited set as a card file (``CardSet.to_csv``); a relative path is taken
        under :func:`save_folder`, outside the repository."""
        path = Path(path).expanduser()
        if not path.is_absolute():
            path = save_folder() / path
        path.parent.mkdir(parents=True, exist_ok=True)
        return self.cards.to_csv(path)


def save_folder() -> Path:
    """Where the designer saves a card file given by a bare name: ``$CLASHKIT_HOME`` if set,
    else ``~/clashkit`` (outside the repository, so a saved set never lands in git)."""
    home = os.environ.get("CLASHKIT_HOME")
    return Path(home).expanduser() if home else Path.home() / "clashkit"


def _blank_for_kind(fields: dict) -> dict:
    """Clear the fields the other kind of card uses, so a kind change validates."""
    out = {k: ("" if v is None else v) for k, v in fields.items()}
    if str(out.get("kind", "")).strip() == "creature":
        out["effect"] = out["target"] = ""
    else:
        out["attack"] = out["health"] = out["abilities"] = out["aura"] = ""
    return out
