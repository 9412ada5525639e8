"""Charts that draw with no internet connection, interactive in JupyterLab.

Altair's default renderer writes HTML that loads Vega, Vega-Lite and
vega-embed from a CDN; offline, a chart shows nothing.  clashkit therefore
compiles every chart *in the kernel* with vl-convert (which carries
Vega-Lite compiled in, no network) and sends the notebook:

- ``"interactive"`` (the default): the compiled Vega spec as
  ``application/vnd.vega.v5+json``.  JupyterLab draws it with the Vega and
  vega-embed it ships itself (its ``vega5-extension``), so hovering a point
  shows its tooltip and nothing is fetched; JupyterLab stores a PNG of the
  chart beside it when the notebook is saved.
- ``"svg"`` / ``"png"``: a finished picture rendered by vl-convert, for
  front ends without a Vega renderer (exports, other notebook viewers).

(``alt.JupyterChart`` with ``offline=True`` would also be interactive, but it
needs the ``anywidget`` package, which clashkit does not depend on.)

Importing :mod:`clashkit.viz` does not import altair (it takes longer to load
than polars and the engine together): in a notebook kernel the renderer is
switched on when the first chart module loads (:func:`enable_when_loaded`), or
at once if altair is already imported.  Call :func:`enable_offline` yourself
for charts of your own made before any clashkit chart, or to choose a picture.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import altair as alt

#: The renderers that work offline: Vega compiled in the kernel, or a picture from vl-convert.
OFFLINE_RENDERERS = ("interactive", "svg", "png")

#: The mimetype JupyterLab's own Vega renderer draws (Vega 5 runtime, vega-embed with tooltips).
VEGA_MIMETYPE = "application/vnd.vega.v5+json"
#: vega-embed options: SVG marks (so a test can hover them), the export menu without the
#: links to the online editor.
EMBED_OPTIONS = {
    "renderer": "svg",
    "actions": {"export": True, "source": False, "compiled": False, "editor": False},
}

FONT = "DejaVu Sans, Verdana, sans-serif"


def clashkit_theme() -> dict[str, Any]:
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


def _vl_version() -> str:
    from altair.utils._importers import vl_version_for_vl_convert

    return vl_version_for_vl_convert()


def to_vega(spec: dict) -> dict:
    """A Vega-Lite spec (``chart.to_dict()``) compiled to the Vega spec JupyterLab draws."""
    import vl_convert as vlc

    vega = vlc.vegalite_to_vega(spec, vl_version=_vl_version())
    vega["$schema"] = "https://vega.github.io/schema/vega/v5.json"
    return vega


def interactive_renderer(spec: dict, **_metadata) -> tuple[dict, dict]:
    """Altair renderer ``"clashkit"``: the chart as Vega for JupyterLab's own renderer."""
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    bundle = {VEGA_MIMETYPE: to_vega(spec), "text/plain": f"<chart: {title or 'untitled'}>"}
    return bundle, {VEGA_MIMETYPE: {"embed_options": EMBED_OPTIONS}}


def _register(alt_module) -> None:
    if "clashkit" not in alt_module.renderers.names():
        alt_module.renderers.register("clashkit", interactive_renderer)
    if "clashkit" not in alt_module.theme.names():
        alt_module.theme.register("clashkit", enable=False)(clashkit_theme)


def enable_offline(renderer: str = "interactive", *, scale_factor: float = 1.0) -> None:
    """Render charts offline: ``"interactive"`` (Vega compiled in the kernel, drawn by
    JupyterLab), or a picture by vl-convert (``"svg"``, or ``"png"`` at ``scale_factor``);
    and use the clashkit theme.  No CDN, no network."""
    if renderer not in OFFLINE_RENDERERS:
        raise ValueError(f"renderer must be one of {OFFLINE_RENDERERS}, not {renderer!r}")
    import altair as alt

    _register(alt)
    if renderer == "png":
        alt.renderers.enable("png", scale_factor=scale_factor)
    elif renderer == "svg":
        alt.renderers.enable("svg")
    else:
        alt.renderers.enable("clashkit")
    alt.theme.enable("clashkit")


_WANTED = False  # enable_when_loaded() was asked for and has not happened yet


def enable_when_loaded() -> None:
    """In a notebook kernel: switch the renderer on now if altair is loaded, else as soon as a
    clashkit chart module imports it (:func:`on_altair_loaded`)."""
    global _WANTED
    if "altair" in sys.modules:
        _enable_unless_chosen()
    else:
        _WANTED = True


def on_altair_loaded() -> None:
    """Called by the chart modules when they import altair."""
    global _WANTED
    if _WANTED:
        _WANTED = False
        _enable_unless_chosen()


def _enable_unless_chosen() -> None:
    import altair as alt

    if alt.renderers.active == "default":  # the user has not chosen one
        enable_offline()


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (JupyterLab, nbclient, nbmake).  A plain script
    has not imported IPython, and this does not import it."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def to_png(chart: alt.TopLevelMixin, *, scale: float = 1.0) -> bytes:
    """A chart as PNG bytes, rendered by vl-convert (for tests, files and reports)."""
    import vl_convert as vlc

    return vlc.vegalite_to_png(chart.to_dict(), scale=scale, vl_version=_vl_version())


def to_svg(chart: alt.TopLevelMixin) -> str:
    """A chart as SVG text, rendered by vl-convert."""
    import vl_convert as vlc

    return vlc.vegalite_to_svg(chart.to_dict(), vl_version=_vl_version())


__all__ = [
    "OFFLINE_RENDERERS",
    "VEGA_MIMETYPE",
    "enable_offline",
    "enable_when_loaded",
    "in_notebook",
    "interactive_renderer",
    "to_png",
    "to_svg",
    "to_vega",
]
