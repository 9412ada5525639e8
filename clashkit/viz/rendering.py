"""Charts that draw with no internet connection.

Altair's default renderer writes HTML that loads Vega, Vega-Lite and
vega-embed from a CDN; offline, a chart shows nothing.  clashkit therefore
renders every chart *in the kernel* with vl-convert (which carries Vega and
Vega-Lite compiled in, no network) and sends the notebook a finished SVG
image (``image/svg+xml``), or a PNG.  Nothing is fetched by the browser: the
picture is part of the cell's output, and it survives being saved, exported
or opened without a kernel.

(``alt.JupyterChart`` could render interactively offline, but it needs the
``anywidget`` package, which clashkit does not depend on.)

:func:`enable_offline` is called when :mod:`clashkit.viz` is imported in a
notebook kernel; call it yourself to switch to PNG, or elsewhere.
"""

from __future__ import annotations

import altair as alt

#: The renderers that work offline: both run vl-convert in the kernel.
OFFLINE_RENDERERS = ("svg", "png")

FONT = "DejaVu Sans, Verdana, sans-serif"


@alt.theme.register("clashkit", enable=False)
def clashkit_theme() -> alt.theme.ThemeConfig:
    """Quiet axes, the board's fonts, a white background (readable on a dark theme too)."""
    return {
        "config": {
            "background": "#ffffff",
            "font": FONT,
            "title": {"fontSize": 14, "anchor": "start", "color": "#2b2720"},
            "axis": {
                "labelFontSize": 11,
                "titleFontSize": 11,
                "gridColor": "#ebe6da",
                "domainColor": "#8a7f66",
            },
            "legend": {"labelFontSize": 11, "titleFontSize": 11},
            "header": {"labelFontSize": 12, "titleFontSize": 12},
            "view": {"stroke": "#d8cfb8"},
        }
    }


def enable_offline(renderer: str = "svg", *, scale_factor: float = 1.0) -> None:
    """Render charts in the kernel with vl-convert (``"svg"``, or ``"png"`` at
    ``scale_factor``) and use the clashkit theme.  No CDN, no network."""
    if renderer not in OFFLINE_RENDERERS:
        raise ValueError(f"renderer must be one of {OFFLINE_RENDERERS}, not {renderer!r}")
    if renderer == "png":
        alt.renderers.enable("png", scale_factor=scale_factor)
    else:
        alt.renderers.enable("svg")
    alt.theme.enable("clashkit")


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (JupyterLab, nbclient, nbmake)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def to_png(chart: alt.TopLevelMixin, *, scale: float = 1.0) -> bytes:
    """A chart as PNG bytes, rendered by vl-convert (for tests, files and reports)."""
    import vl_convert as vlc

    return vlc.vegalite_to_png(chart.to_dict(), scale=scale)


def to_svg(chart: alt.TopLevelMixin) -> str:
    """A chart as SVG text, rendered by vl-convert."""
    import vl_convert as vlc

    return vlc.vegalite_to_svg(chart.to_dict())


__all__ = ["OFFLINE_RENDERERS", "enable_offline", "in_notebook", "to_png", "to_svg"]
