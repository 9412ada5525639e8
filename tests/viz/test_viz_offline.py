"""The engine stays light, importing clashkit.viz stays light, and charts render offline (no CDN)."""

from __future__ import annotations

import subprocess
import sys

import altair as alt

from clashkit.viz import charts, rendering


def test_the_engine_never_imports_altair_or_ipywidgets():
    code = (
        "import sys, clashkit\n"
        "from clashkit.runs.game import new_duel, play\n"
        "from clashkit.runs.simulate import simulate\n"
        "from clashkit.base.cards import starter_decks\n"
        "d = starter_decks()\n"
        "s = play(new_duel(d[1], d[2], seed=1), 'random')\n"
        "from clashkit.show.board import board_html\n"
        "board_html(s)\n"
        "simulate(2, '1', '2')\n"
        "heavy = ['altair', 'ipywidgets', 'vl_convert', 'IPython']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_viz_imports_neither_altair_nor_ipywidgets():
    """``import clashkit.viz`` must stay cheap (altair alone takes longer than polars): the
    chart and widget modules load when first used."""
    code = (
        "import sys, clashkit.viz as viz\n"
        "print(sorted(m for m in ('altair', 'ipywidgets', 'IPython', 'vl_convert') if m in sys.modules))\n"
        "viz.HandBuilder\n"
        "print('altair' in sys.modules)\n"
        "viz.chart_mana_curve\n"
        "print('altair' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:3] == ["[]", "False", "True"]


def test_importing_viz_outside_a_kernel_leaves_altair_alone():
    code = "import altair as alt, clashkit.viz as viz\nviz.chart_mana_curve\nprint(alt.renderers.active)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "default"


def test_in_a_kernel_the_first_chart_switches_the_renderer_on(monkeypatch):
    """In a notebook kernel the renderer is switched on when a chart module loads altair, unless
    the user has chosen one; nothing happens before."""
    active = alt.renderers.active
    try:
        alt.renderers.enable("default")
        monkeypatch.setattr(rendering, "_WANTED", True)
        rendering.on_altair_loaded()
        assert alt.renderers.active == "clashkit" and not rendering._WANTED
        alt.renderers.enable("svg")
        monkeypatch.setattr(rendering, "_WANTED", True)
        rendering.on_altair_loaded()
        assert alt.renderers.active == "svg"  # the user's choice stays
    finally:
        alt.renderers.enable(active)
        alt.theme.enable("default")


def _bundle(chart):
    out = chart._repr_mimebundle_()
    return out if isinstance(out, tuple) else (out, {})


def test_interactive_renderer_sends_vega_for_jupyterlab_with_tooltips():
    """The default offline renderer: a Vega spec compiled in the kernel, for JupyterLab's own
    Vega (no script, no URL); the data and the tooltips travel inside it."""
    active = alt.renderers.active
    try:
        rendering.enable_offline()
        assert alt.renderers.active == "clashkit" and alt.theme.active == "clashkit"
        bundle, metadata = _bundle(charts.chart_mana_curve())
        assert set(bundle) == {rendering.VEGA_MIMETYPE, "text/plain"}
        vega = bundle[rendering.VEGA_MIMETYPE]
        assert vega["$schema"].endswith("/vega/v5.json")
        text = str(vega)
        assert "http" not in text.replace(vega["$schema"], "") and "<script" not in text
        assert any(d.get("values") for d in vega["data"])  # inline data, nothing to fetch
        assert "tooltip" in text
        options = metadata[rendering.VEGA_MIMETYPE]["embed_options"]
        assert options["renderer"] == "svg" and options["actions"]["editor"] is False
        assert bundle["text/plain"] == "<chart: Mana curve: cards by cost>"
    finally:
        alt.renderers.enable(active)
        alt.theme.enable("default")


def test_picture_renderers_send_a_finished_svg_or_png():
    active = alt.renderers.active
    try:
        rendering.enable_offline("svg")
        bundle, _ = _bundle(charts.chart_mana_curve())
        assert set(bundle) == {"image/svg+xml"}
        svg = bundle["image/svg+xml"]
        assert svg.lstrip().startswith("<svg") and "<script" not in svg and "cdn" not in svg
        rendering.enable_offline("png", scale_factor=2)
        bundle, _ = _bundle(charts.chart_mana_curve())
        assert "image/png" in bundle
    finally:
        alt.renderers.enable(active)
        alt.theme.enable("default")
