"""The card designer as ipywidgets: a view of :class:`~clashkit.viz.labs.card_designer.CardDesigner`."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

import ipywidgets as w
import polars as pl

from ...base import Ability, Direction, Effect, TargetSide
from ...base.points import interval_text, points_text_expr
from ...policies import POLICIES
from ...show import card_html
from ..paired import NOT_CLEAR
from ..runs import default_policy
from ..tables import card_stats_html, table_html
from .card_designer import CardDesigner, CardExists, save_folder

if TYPE_CHECKING:
    import altair as alt

from .view_common import _LI, _button, _message, _show_chart, _View, count_box, count_in

_EFFECTS_WITH_AMOUNT = {"damage", "weaken", "empower"}
_NO_CHANGE = '<span style="font-size:12px;color:#6b6250">No change yet: the shipped cards.</span>'


#: The bots the designer offers, weakest first: every policy, and the fair search beside the full one.
BOTS = tuple(p for name in POLICIES for p in ((name, f"{name}:fair") if name == "search" else (name,)))


class CardDesignerView(_View):
    """Edit or add a card with widgets and see the win rates move at each strength of play:
    **apply the change** plays it at once when the fast engine plays the bots (seconds);
    **run the simulation** plays it again with another game count or other bots (pick one or
    several; each is played on the same seeds)."""

    def __init__(self, designer: CardDesigner | None = None) -> None:
        self.designer = designer if designer is not None else CardDesigner()
        d = self.designer
        names = list(d.base.names)
        self.mode = w.ToggleButtons(options=["change a card", "add a card"], value="change a card")
        self.which = w.Dropdown(options=names, description="card", layout=w.Layout(width="260px"))
        self.new_name = w.Text(value="NEWCOMER", description="name", layout=w.Layout(width="240px"))
        self.deck = w.Dropdown(options=list(d.base_decks), description="into", layout=w.Layout(width="180px"))
        self.replaces = w.Dropdown(
            options=d.base_decks[self.deck.value],
            description="instead of",
            layout=w.Layout(width="260px"),
        )
        self.kind = w.ToggleButtons(
            options=["creature", "incantation"],
            style={"button_width": "100px"},
            layout=w.Layout(width="auto", margin="0 16px 0 0"),
        )
        self.cost = w.IntSlider(min=0, max=10, description="cost")
        self.attack = w.IntSlider(min=0, max=10, description="attack")
        self.health = w.IntSlider(min=1, max=12, description="health")
        self.abilities = w.SelectMultiple(options=[a.value for a in Ability], description="abilities", rows=7)
        self.aura = w.Dropdown(options=["none", *(a.value for a in Ability)], description="aura grants")
        self.aura_dirs = w.SelectMultiple(options=[d.value for d in Direction], description="toward", rows=3)
        self.effect = w.Dropdown(options=[e.value for e in Effect], description="effect")
        self.amount = w.BoundedIntText(value=2, min=1, max=20, description="amount", layout=w.Layout(width="160px"))
        self.grants = w.Dropdown(options=[a.value for a in Ability], description="grants")
        self.target = w.Dropdown(options=[t.value for t in TargetSide], description="meant for")
        self.creature_box = w.VBox(
            [
                self.attack,
                self.health,
                w.HBox([self.abilities, w.VBox([self.aura, self.aura_dirs])]),
            ]
        )
        self.incantation_box = w.VBox([w.HBox([self.effect, self.amount, self.grants]), self.target])
        self.message = w.HTML()
        self.changes = w.HTML()
        self.preview = w.HTML(layout=w.Layout(margin="0 0 0 16px"))
        self.games = count_box(
            d.games_per_pairing or 0,
            f"games a pairing (0: at least {d.MIN_GAMES:,}, enough for ±1.5 points)",
            width="460px",
        )
        bots = list(dict.fromkeys([*BOTS, *d.policies]))
        self.bots = w.SelectMultiple(
            options=bots,
            value=[p for p in bots if p in d.policies] or [default_policy()],
            description="bots",
            rows=len(bots),
            tooltip="one or several strengths of play (ctrl-click), each on the same seeds",
        )
        self.bots.add_class("ck-bots")
        self.check = w.Checkbox(
            value=d.check_strength,
            description="check strength",
            tooltip=f"also play the change at the strongest bot again with {d.check_policy} on a quarter of the "
            "games, the same seeds, and say whether the two agree",
            indent=False,
            layout=w.Layout(width="140px"),
        )
        self.check.add_class("ck-check-strength")
        #: One sentence a deck: whether the strongest bot and the arbiter agree on the change.
        self.check_summary = w.HTML()
        #: One line a deck: its change at each strength, with the paired 95% interval.
        self.summary = w.HTML()
        self.progress = w.Output()
        self.chart = w.Output()
        #: The chart of paired changes drawn last (None: no result shown).
        self.last_chart: alt.LayerChart | alt.FacetChart | alt.HConcatChart | None = None
        self.table = w.HTML()
        self.matrix = w.HTML()
        self.stats = w.HTML()
        self.save_path = w.Text(
            value="my_cards.csv",
            description="card file",
            tooltip=f"a bare name is saved in {save_folder()}",
            layout=w.Layout(width="300px"),
        )
        self.saved = w.HTML()
        self.widget = w.VBox(
            [
                self.mode,
                w.HBox(
                    [self.which, self.new_name, self.deck, self.replaces],
                    layout=w.Layout(flex_flow="row wrap"),
                ),
                w.HBox(
                    [
                        w.VBox(
                            [
                                w.HBox([w.Label("kind"), self.kind, self.cost]),
                                self.creature_box,
                                self.incantation_box,
                            ]
                        ),
                        self.preview,
                    ]
                ),
                w.HBox(
                    [
                        _button("apply the change", "ck-apply", self.on_apply, style="info"),
                        _button("undo this card's change", "ck-undo", self.on_undo),
                    ]
                ),
                self.message,
                self.changes,
                w.HBox(
                    [
                        self.games,
                        self.bots,
                        self.check,
                        _button("run the simulation", "ck-simulate", self.on_run, style="primary"),
                    ]
                ),
                self.progress,
                self.summary,
                self.check_summary,
                self.chart,
                self.table,
                self.matrix,
                self.stats,
                w.HBox([self.save_path, _button("save the edited set", "ck-save", self.on_save), self.saved]),
            ]
        )
        self.widget.add_class("ck-card-designer")
        self.mode.observe(lambda _c: self._layout(), names="value")
        self.kind.observe(lambda _c: self._layout(), names="value")
        self.effect.observe(lambda _c: self._layout(), names="value")
        self.which.observe(lambda change: self.load(change["new"]), names="value")
        self.deck.observe(
            lambda change: setattr(self.replaces, "options", d.base_decks[change["new"]]),
            names="value",
        )
        fields = (
            self.kind,
            self.cost,
            self.attack,
            self.health,
            self.abilities,
            self.aura,
            self.aura_dirs,
            self.effect,
            self.amount,
            self.grants,
            self.target,
            self.new_name,
            self.replaces,
            self.mode,
        )
        for widget in fields:
            widget.observe(lambda _change: self._preview(), names="value")
        self.load(self.which.value)
        self._layout()
        self._show_changes()
        self._preview()

    def _preview(self) -> None:
        """The card as shipped (or the one it replaces) beside the card as the widgets say."""
        d = self.designer
        adding = self.mode.value == "add a card"
        name = self.new_name.value.strip().upper() if adding else self.which.value
        shipped = d.base.card(self.replaces.value if adding else self.which.value)
        label = f"in place of {shipped.name}" if adding else "shipped"
        try:
            edited = card_html(d.preview(name, **self.fields()), caption="as edited")
        except (ValueError, KeyError) as e:
            edited = _message(str(e).strip("'\""), error=True)
        self.preview.value = card_html(shipped, caption=label) + edited

    def load(self, name: str) -> None:
        """Fill the fields from card ``name`` (with the changes made so far)."""
        f = self.designer.fields(name)
        self.kind.value = f["kind"]
        self.cost.value = f["cost"]
        if f["kind"] == "creature":
            self.attack.value, self.health.value = f["attack"], f["health"]
            self.abilities.value = tuple(a for a in str(f["abilities"]).split(";") if a)
            aura = str(f["aura"])
            if aura:
                ability, _, dirs = aura.partition("@")
                self.aura.value, self.aura_dirs.value = ability, tuple(dirs.split("+"))
            else:
                self.aura.value, self.aura_dirs.value = "none", ()
        else:
            effect, _, rest = str(f["effect"]).partition(" ")
            self.effect.value = effect
            if effect in _EFFECTS_WITH_AMOUNT:
                self.amount.value = int(rest)
            elif effect == "grant":
                self.grants.value = rest
            self.target.value = f["target"]

    def _layout(self) -> None:
        adding = self.mode.value == "add a card"
        for widget in (self.new_name, self.deck, self.replaces):
            widget.layout.display = None if adding else "none"
        self.which.layout.display = "none" if adding else None
        creature = self.kind.value == "creature"
        self.creature_box.layout.display = None if creature else "none"
        self.incantation_box.layout.display = "none" if creature else None
        self.amount.layout.display = None if self.effect.value in _EFFECTS_WITH_AMOUNT else "none"
        self.grants.layout.display = None if self.effect.value == "grant" else "none"

    def fields(self) -> dict[str, object]:
        """The card as the widgets describe it (fields of ``data/cards.csv``)."""
        out: dict[str, object] = {"kind": self.kind.value, "cost": self.cost.value}
        if self.kind.value == "creature":
            out.update(
                attack=self.attack.value,
                health=self.health.value,
                abilities=";".join(self.abilities.value),
            )
            if self.aura.value != "none" and not self.aura_dirs.value:
                raise ValueError(
                    f"aura grants {self.aura.value}: choose at least one direction under "
                    "“toward” (front, behind, side; R6.8), or “none”"
                )
            out["aura"] = f"{self.aura.value}@{'+'.join(self.aura_dirs.value)}" if self.aura.value != "none" else ""
        else:
            effect = self.effect.value
            if effect in _EFFECTS_WITH_AMOUNT:
                effect = f"{effect} {self.amount.value}"
            elif effect == "grant":
                effect = f"grant {self.grants.value}"
            out.update(effect=effect, target=self.target.value)
        return out

    def on_apply(self) -> None:
        try:
            self._settings()  # a game count out of range is said now, before anything changes
            if self.mode.value == "add a card":
                if not self.new_name.value.strip():
                    raise ValueError("type the new card's name under “name”")
                card = self.designer.add(
                    {"name": self.new_name.value, **self.fields()},
                    deck=self.deck.value,
                    replaces=self.replaces.value,
                )
                what = f"added {card.describe()} to {self.deck.value} instead of {self.replaces.value}"
            else:
                card = self.designer.edit(self.which.value, **self.fields())
                what = f"changed: {card.describe()}"
        except CardExists as e:
            self.message.value = _message(
                f"{e.name} is in the set already: to change it, choose “change a card” above and pick {e.name}",
                error=True,
            )
            return
        except (ValueError, KeyError) as e:
            self.message.value = _message(str(e).strip("'\""), error=True)
            return
        self.message.value = _message(what)
        self._show_changes()
        if self.designer.engine_used == "fast":
            self.on_run()
        else:
            self.message.value = _message(
                f"{what}; press “run the simulation” (the reference engine plays "
                f"{', '.join(self.designer.policies)}: it can take minutes)"
            )

    def _settings(self) -> None:
        """The game count and the bots into the designer; a count out of range raises ``ValueError``."""
        d = self.designer
        d.games_per_pairing = count_in(self.games, "games a pairing", least=0) or None
        if self.bots.value:
            d.policies = tuple(p for p in self.bots.options if p in self.bots.value)  # weakest first
        d.check_strength = self.check.value

    def on_undo(self) -> None:
        name = self._name()
        self.designer.undo(name)
        if self.mode.value == "change a card":
            self.load(name)
        self.clear_results()
        self._show_changes()
        # Said last: the message is the sign that the view is up to date.
        self.message.value = _message(f"{name}: back to the shipped card; the results of the change are cleared")

    def _show_changes(self) -> None:
        d = self.designer
        if not d.changes:
            self.changes.value = _NO_CHANGE
            return
        items = []
        for name, card in d.changes.items():
            was = f" (was {d.base.card(name).describe()})" if name in d.base else ""
            swap = f" — in {d.swaps[name][0]} instead of {d.swaps[name][1]}" if name in d.swaps else ""
            items.append(f"<li {_LI}>{escape(card.describe())}{escape(was)}{escape(swap)}</li>")
        self.changes.value = f'<div style="font-size:12px"><b>Changes</b><ul>{"".join(items)}</ul></div>'

    def on_run(self) -> None:
        import time

        from ..paired import chart_paired_by_strength, paired_matrix_html

        d = self.designer
        try:
            self._settings()
        except ValueError as e:
            self.message.value = _message(str(e), error=True)
            return
        started = time.perf_counter()
        with self.progress:
            self.progress.clear_output()
            d.run(progress=True)
        seconds = time.perf_counter() - started
        decks, cells = d.change_table(), d.paired_matrix()
        names = " and ".join(d.policies)
        games = f"{d.games:,} games a pairing on the {d.engine_used} engine, the same seeds before and after"
        self.summary.value = _lines_html(
            "ck-change-lines",
            "The change at each strength",
            f"points, paired 95% interval; {games}, under {names}; played in {seconds:.1f} s",
            d.change_lines(),
        )
        self.check_summary.value = ""
        if d.check is not None:
            self.check_summary.value = _lines_html(
                "ck-check-lines",
                "Strength check",
                f"the change under {d.check.against} and under {d.check.policy} on the same "
                f"{d.check.n:,} game{'s' * (d.check.n != 1)} a pairing",
                d.check_lines(),
            )
        self.last_chart = chart_paired_by_strength(cells, d._need_skill().table())
        _show_chart(self.chart, self.last_chart)
        self.matrix.value = "".join(
            paired_matrix_html(
                cells.filter(pl.col("strength") == p).drop("strength"),
                d.results[p].table(),
                caption=f"Under {p}: the change of each matchup, in points ({games}; mirrors left out)",
            )
            for p in d.policies
        )
        self.table.value = table_html(
            decks.select(
                "strength",
                "deck",
                "games",
                points_text_expr("before", signed=False).alias("before (%)"),
                points_text_expr("after", signed=False).alias("after (%)"),
                points_text_expr("change").alias("change (points)"),
                pl.struct("change_low", "change_high")
                .map_elements(lambda r: interval_text(r["change_low"], r["change_high"]), return_dtype=pl.String)
                .alias("paired 95% interval"),
                pl.when(pl.col("clear")).then(pl.lit("yes")).otherwise(pl.lit(NOT_CLEAR)).alias("clear change"),
            ),
            max_rows=None,
            caption="Each deck's win rate before and after against all opponents, and its paired change, "
            "at each strength",
            tail=False,
        )
        name = self._name()
        self.stats.value = ""
        if name in d.cards and d.cards.card(name).deck is not None:
            stats = d.card_stats(name)
            self.stats.value = card_stats_html(
                stats,
                caption=f"card-stats of {name} as edited, under {d.policy}: the play numbers from "
                f"{min(d.games, d.STATS_GAMES):,} games a pairing, the removal impact from {d.games:,} games a "
                f"pairing, on the {d.engine_used} engine",
            )

    def _name(self) -> str:
        return self.new_name.value.strip().upper() if self.mode.value == "add a card" else self.which.value

    def clear_results(self) -> None:
        """Empty the chart and the tables: they described cards that are no longer the ones set."""
        self.designer.clear_result()
        self.last_chart = None
        self.chart.clear_output()
        self.progress.clear_output()
        self.table.value = self.matrix.value = self.stats.value = self.summary.value = ""
        self.check_summary.value = ""

    def on_save(self) -> None:
        try:
            path = self.designer.save(self.save_path.value.strip())
        except (ValueError, OSError) as e:
            self.saved.value = _message(str(e), error=True)
            return
        self.saved.value = _message(f"wrote {path} (outside the repository; a bare name goes to {save_folder()})")


def card_designer(designer: CardDesigner | None = None, **kwargs) -> CardDesignerView:
    """The card designer as widgets; ``kwargs`` go to :class:`CardDesigner`."""
    return CardDesignerView(designer if designer is not None else CardDesigner(**kwargs))


def _lines_html(css: str, heading: str, note: str, lines) -> str:
    """A headed list of report lines (the change, the strength check), every text escaped."""
    items = "".join(f"<li {_LI}>{escape(line)}</li>" for line in lines)
    return (
        f'<div class="{css}" style="font-size:12px;margin:4px 0">'
        f"<b>{escape(heading)}</b> ({escape(note)})<ul>{items}</ul></div>"
    )
