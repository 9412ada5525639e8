"""The site's own build steps (mkdocs.yml ``hooks``): anchors for the rules, the figures'
index, the tutorials' charts drawn offline, and a check that no page loads anything from
outside.

- **Rules** (``rules.md``): every numbered heading gets its number as its anchor, so
  ``rules.md#R6.5`` is Indestructible; the file itself stays as ``clashkit rules`` reads it.
  Every rule number in the prose of a page (not in code, a heading or a link) links there.
- **Figures** (``figures.md``): ``<!-- figures index -->`` becomes a table of every figure
  between ``<!-- figure NAME -->`` markers in the pages, with its page and its stamp.
- **Tutorials**: a note saying which notebook the page is and the commit it ran at; the
  charts (``div.clashkit-vega``, see ``docs/_site/tutorials.py``) drawn by
  ``assets/javascripts/charts.js``, a bundle of Vega, Vega-Lite and vega-embed that
  ``vl-convert`` makes on this machine; nbconvert's MathJax and Mermaid loaders, which
  point at a CDN, removed (the notebooks use neither).
- **Offline**: after the build, every ``src`` and ``href`` of every page must be local, or
  the build fails; the site also works opened from disk (``site/index.html``): pages are
  files, the search index a script (Material's ``offline`` plugin), the charts' bundle a
  classic script (a browser loads no module from ``file://``).
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import re
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.clashkit")

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CACHE = ROOT / ".cache" / "clashkit-docs"
CHARTS_JS = "assets/javascripts/charts.js"

#: The snippet the Vega bundle runs: draw every chart of the page, as JupyterLab does.
CHARTS_SNIPPET = """
const options = {mode: "vega", renderer: "svg",
  actions: {export: true, source: false, compiled: false, editor: false}};
for (const element of document.querySelectorAll("div.clashkit-vega")) {
  const spec = JSON.parse(element.querySelector("script").textContent);
  delete spec.$schema;  // compiled for JupyterLab's Vega 5; the bundle's newer Vega draws it the same
  const target = document.createElement("div");
  element.appendChild(target);
  vegaEmbed(target, spec, options).catch((error) => console.error(error));
}
"""

RULE_HEADING = re.compile(r"^(#{2,3}) (R\d+(?:\.\d+[a-z]?)?) (.+?)\s*$", re.M)
FIGURE = re.compile(r"<!-- figure ([\w-]+) -->\n(.*?)<!-- /figure \1 -->", re.S)
STAMP = re.compile(r"^\*Measured at commit `([^`]+)` on (\S+) with `([^`]+)`")


def rule_anchors(markdown: str) -> str:
    """``### R6.5 Indestructible`` as ``### R6.5 Indestructible {#R6.5}``."""
    return RULE_HEADING.sub(lambda m: f"{m[1]} {m[2]} {m[3]} {{#{m[2]}}}", markdown)


def figures_index(src_path: str) -> str:
    """The table of every figure in the pages, linked relative to page ``src_path``."""
    here = Path(src_path).parent
    rows = ["| figure | page | measured at | command |", "| --- | --- | --- | --- |"]
    readme = ROOT / "README.md"  # not a page of the site: named, not linked
    for page in [readme, *sorted(DOCS.rglob("*.md"))]:
        if "_site" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        title = text.splitlines()[0].lstrip("# ").strip() if text else page.stem
        for name, body in FIGURE.findall(text):
            stamp = STAMP.match(body.strip())
            at, command = (f"`{stamp[1]}` on {stamp[2]}", f"`{stamp[3]}`") if stamp else ("—", "—")
            if page == readme:
                where = f"`{page.name}` (the repository's front page)"
            else:
                link = Path(page.relative_to(DOCS)).as_posix()
                relative = Path(*([".."] * len(here.parts)), link).as_posix() if here.parts else link
                where = f"[{title}]({relative})"
            rows.append(f"| `{name}` | {where} | {at} | {command} |")
    return "\n".join(rows)


def viz_api() -> str:
    """One mkdocstrings block a module of ``clashkit.viz``, with the names it exports there."""
    import clashkit.viz as viz

    blocks = [
        "## Rendering\n\n::: clashkit.viz.rendering\n    options:\n      show_root_heading: false\n"
        "      members: [enable_offline, in_notebook]\n      heading_level: 3\n"
    ]
    for module, names in viz._EXPORTS.items():
        members = ", ".join(names)
        blocks.append(
            f"## `{module}`\n\n::: clashkit.viz.{module}\n    options:\n      show_root_heading: false\n"
            f"      members: [{members}]\n      heading_level: 3\n"
        )
    return "\n".join(blocks)


RULE_NUMBER = re.compile(r"(?<![\w#.\[-])R\d+(?:\.\d+[a-z]?)?(?![\w-]|\.\d)")
CODE = re.compile(r"(^```.*?^```[ \t]*$|`[^`\n]+`|\[[^\]\n]*\]\([^)\n]*\)|<!--.*?-->|<[^>\n]+>)", re.S | re.M)


def link_rules(markdown: str, src_path: str) -> str:
    """Every rule number in the prose (``R6.5``, not in code, a link or a heading) as a link to
    its anchor on the rules page."""
    from clashkit.base.rulebook import parse_rules

    known = parse_rules((DOCS / "rules.md").read_text(encoding="utf-8"))
    rules = Path(*([".."] * len(Path(src_path).parent.parts)), "rules.md").as_posix()

    def prose(text: str) -> str:
        lines = []
        for line in text.split("\n"):
            if not line.startswith("#"):
                line = RULE_NUMBER.sub(lambda m: f"[{m[0]}]({rules}#{m[0]})" if m[0] in known else m[0], line)
            lines.append(line)
        return "\n".join(lines)

    pieces = CODE.split(markdown)
    return "".join(piece if i % 2 else prose(piece) for i, piece in enumerate(pieces))


def on_page_markdown(markdown, page, config, files):
    if "<!-- viz api -->" in markdown:
        return markdown.replace("<!-- viz api -->", viz_api())
    if page.file.src_uri == "rules.md":
        return link_rules(rule_anchors(markdown), page.file.src_uri)
    if "<!-- figures index -->" in markdown:
        markdown = markdown.replace("<!-- figures index -->", figures_index(page.file.src_uri))
    return link_rules(markdown, page.file.src_uri)


def _tutorial_note(page) -> str:
    nb = json.loads(Path(page.file.abs_src_path).read_text(encoding="utf-8"))
    meta = nb.get("metadata", {}).get("clashkit", {})
    source, at = meta.get("source", "notebooks/"), meta.get("commit", "unknown")
    return (
        '<div class="admonition note"><p class="admonition-title">This page is a notebook</p>'
        f"<p><code>{html.escape(source)}</code>, run whole at commit <code>{html.escape(at)}</code> "
        "(<code>make tutorials</code>). Its charts are interactive here; its widgets need a kernel: "
        "open it in JupyterLab with <code>make lab</code>.</p></div>"
    )


MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
MERMAID = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded".*?</script>', re.S)


def on_page_content(html_text, page, config, files):
    if not page.file.src_uri.endswith(".ipynb"):
        return html_text
    html_text = MATHJAX.sub("", html_text)
    html_text = MERMAID.sub(lambda m: "" if "mermaid" in m[0] else m[0], html_text)
    html_text = _tutorial_note(page) + html_text
    if "clashkit-vega" in html_text:
        depth = page.url.count("/")  # tutorials/01_….html is one folder deep
        # A classic script, not a module: a browser refuses modules from file:// (CORS).
        html_text += f'\n<script defer src="{"../" * depth}{CHARTS_JS}"></script>\n'
    return html_text


ROLE = re.compile(r":(?:func|mod|class|meth|data|attr|exc|obj|const):<code>(~?)([^<]+)</code>")


def on_post_page(output, page, config):
    """Sphinx roles in docstrings (``:func:`x```) shown as plain code on the API pages."""
    if page.file.src_uri.startswith("api/"):
        output = ROLE.sub(lambda m: f"<code>{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}</code>", output)
    return output


def charts_bundle() -> str:
    """Vega, Vega-Lite and vega-embed with the snippet, from vl-convert (cached by version)."""
    import vl_convert

    key = hashlib.sha256(f"{vl_convert.__version__}\n{CHARTS_SNIPPET}".encode()).hexdigest()[:16]
    cached = CACHE / f"charts-{key}.js"
    if not cached.exists():
        log.info("making %s with vl-convert %s (once)", CHARTS_JS, vl_convert.__version__)
        CACHE.mkdir(parents=True, exist_ok=True)
        cached.write_text(vl_convert.javascript_bundle(CHARTS_SNIPPET), encoding="utf-8")
    return cached.read_text(encoding="utf-8")


LINK = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", re.I)


def outside_links(site: Path) -> list[str]:
    """Every ``src``/``href`` of the built pages that leaves the site (``page: url``)."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for url in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", url, re.I) and not url.startswith(("data:", "#")):
                found.append(f"{page.relative_to(site)}: {url}")
    return found


def on_post_build(config):
    site = Path(config["site_dir"])
    target = site / CHARTS_JS
    target.parent.mkdir(parents=True, exist_ok=True)
    # In a function of its own: a classic script's names would otherwise be the page's globals.
    target.write_text(f'(function () {{\n"use strict";\n{charts_bundle()}\n}})();\n', encoding="utf-8")
    outside = outside_links(site)
    if outside:
        from mkdocs.exceptions import PluginError

        raise PluginError("pages load from outside the site:\n  " + "\n  ".join(outside[:20]))
