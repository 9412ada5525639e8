"""The engine stays light, and charts render offline (no CDN)."""

from __future__ import annotations

import subprocess
import sys

import altair as alt

from clashkit.viz import charts, rendering


def test_the_engine_never_imports_altair_or_ipywidgets():
    code = (
        "import sys, clashkit\n"
        "from clashkit.game import new_duel, play\n"
        "from clashkit.simulate import simulate\n"
        "from clashkit.cards import starter_decks\n"
        "d = starter_decks()\n"
        "s = play(new_duel(d[1], d[2], seed=1), 'random')\n"
        "from clashkit.board import board_html\n"
        "board_html(s)\n"
        "simulate(2, '1', '2')\n"
        "heavy = ['altair', 'ipywidgets', 'vl_convert', 'IPython']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_viz_outside_a_kernel_leaves_altair_alone():
    code = "import altair as alt, clashkit.viz\nprint(alt.renderers.active)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "default"


def test_offline_renderer_sends_a_finished_svg():
    active = alt.renderers.active
    try:
        rendering.enable_offline()
        assert alt.renderers.active == "svg" and alt.theme.active == "clashkit"
        bundle = charts.chart_mana_curve()._repr_mimebundle_()
        bundle = bundle[0] if isinstance(bundle, tuple) else bundle
        assert set(bundle) == {"image/svg+xml"}
        svg = bundle["image/svg+xml"]
        assert svg.lstrip().startswith("<svg") and "<script" not in svg and "cdn" not in svg
        rendering.enable_offline("png", scale_factor=2)
        bundle = charts.chart_mana_curve()._repr_mimebundle_()
        bundle = bundle[0] if isinstance(bundle, tuple) else bundle
        assert "image/png" in bundle
    finally:
        alt.renderers.enable(active)
        alt.theme.enable("default")
