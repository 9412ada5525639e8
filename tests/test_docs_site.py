"""The documentation site: ``mkdocs build --strict`` passes, nothing in a built page loads from
outside the site, and the generated references are complete — every command of the CLI,
every public name of ``clashkit`` and ``clashkit.viz``, every numbered rule with its anchor,
every figure with its stamp — and the README stays short and links to every page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from site_build import ROOT, built_site

pytestmark = pytest.mark.skipif(
    not Path(sys.executable).with_name("mkdocs").exists(), reason="the docs group is not installed (make docs)"
)


@pytest.fixture(scope="module")
def site() -> Path:
    build = built_site()
    assert build.returncode == 0, build.log
    return build.site


def page(site: Path, url: str) -> str:
    return (site / f"{url}.html").read_text(encoding="utf-8")  # pages are files: the site opens from disk


def nav_pages() -> list[str]:
    import yaml

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)

    def walk(items):
        for item in items:
            for value in item.values():
                yield from walk(value) if isinstance(value, list) else [value]

    return list(walk(config["nav"]))


def test_the_strict_build_passes_without_a_warning(site):
    build = built_site()
    assert not [line for line in build.log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert (site / "index.html").is_file() and (site / "search" / "search_index.json").is_file()
    assert (site / "search" / "search_index.js").is_file()  # the offline plugin's index, read from disk


def test_no_page_loads_anything_from_outside_the_site(site):
    outside = []
    for html in sorted(site.rglob("*.html")):
        for url in re.findall(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", html.read_text(encoding="utf-8")):
            if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", url, re.I) and not url.startswith("data:"):
                outside.append(f"{html.relative_to(site)}: {url}")
        text = html.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "cdn.jsdelivr" not in text and "unpkg.com" not in text, html
    assert outside == []


def test_the_charts_are_drawn_by_a_local_vega(site):
    assert (site / "assets/javascripts/charts.js").stat().st_size > 500_000
    tutorial = page(site, "tutorials/04_mana_curves_and_hand_health")
    assert 'class="clashkit-vega"' in tutorial and "assets/javascripts/charts.js" in tutorial
    assert "mathjax" not in tutorial.lower() and "mermaid.esm" not in tutorial


def test_every_command_is_in_the_command_reference(site):
    from clashkit.cli import main

    text = page(site, "commands")
    assert [name for name in sorted(main.commands) if f'id="clashkit-{name}"' not in text] == []
    for name, command in main.commands.items():
        for option in command.params:
            for flag in getattr(option, "opts", []):
                if flag.startswith("--"):
                    assert flag in text, f"clashkit {name} {flag}"


def test_every_public_name_is_in_the_api_reference(site):
    import clashkit
    import clashkit.viz as viz

    core = page(site, "api/clashkit")
    assert [name for name in clashkit.__all__ if f'id="clashkit.{name}"' not in core] == []
    shown = page(site, "api/viz")
    where = {name: module for module, names in viz._EXPORTS.items() for name in names}
    where |= {"enable_offline": "rendering", "in_notebook": "rendering"}
    assert sorted(viz.__all__) == sorted(where)
    assert [n for n in viz.__all__ if f'id="clashkit.viz.{where[n]}.{n}"' not in shown] == []


def test_every_rule_has_its_number_as_anchor(site):
    from clashkit.base.rulebook import all_rules

    text = page(site, "rules")
    numbers = [rule.number for rule in all_rules()]
    assert len(numbers) > 60
    assert [n for n in numbers if f'id="{n}"' not in text] == []
    assert 'id="R6"' in text


def test_every_figure_is_in_one_page_with_its_stamp_and_in_the_index(site):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import figures

    index = page(site, "figures")
    for name in figures.FIGURES:
        text = figures.page_of(name).read_text(encoding="utf-8")
        block = figures.pattern(name).search(text)[2]
        assert block.startswith("*Measured at commit `"), name
        assert f"<code>{name}</code>" in index, name


def test_the_readme_is_short_and_links_to_every_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    linked = set(re.findall(r"\]\((docs/[^)#]*)", readme))
    missing = []
    for src in nav_pages():
        if src.startswith("tutorials/"):
            src = "tutorials/"
        if f"docs/{src}" not in linked:
            missing.append(src)
    assert missing == []
