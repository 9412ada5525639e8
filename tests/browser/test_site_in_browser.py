"""The documentation site in a real browser: the built site (``tests/site_build.py``) served
from 127.0.0.1 and opened from disk (``file://``, as a reader who unzips it does), Debian's
Chromium driven by playwright, every request that leaves the machine blocked and recorded.
Both ways a tutorial page draws its charts with the site's own Vega, the command reference
shows every command, the search finds "Indestructible", and no page logs a console error."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from site_build import built_site  # noqa: E402

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
LOCAL = {"127.0.0.1", "localhost"}
#: Every wait is for an event, with a limit a busy machine (load 15 on 2 cores) stays within.
WAIT_MS = 120_000


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module", params=["http", "file"])
def served(request):
    """The built site on a free loopback port, or its folder on disk."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not at {CHROMIUM} (Debian: apt-get install chromium)")
    if not Path(sys.executable).with_name("mkdocs").exists():
        pytest.skip("the docs group is not installed (make docs)")
    build = built_site()
    assert build.returncode == 0, build.log
    if request.param == "file":
        yield build.site.as_uri()
        return
    handler = functools.partial(_Quiet, directory=str(build.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def offline(browser):
    """A page whose requests off 127.0.0.1 are blocked; yields (page, blocked, errors)."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    blocked: list[str] = []
    errors: list[str] = []

    def guard(route):
        url = route.request.url
        if url.startswith(("data:", "blob:", "file:")) or (urlparse(url).hostname or "") in LOCAL:
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, blocked, errors
    context.close()


def test_a_tutorial_draws_its_charts_offline(served, offline):
    page, blocked, errors = offline
    page.goto(f"{served}/tutorials/04_mana_curves_and_hand_health.html", wait_until="load", timeout=WAIT_MS)
    charts = page.locator("div.clashkit-vega")
    assert charts.count() >= 1
    page.wait_for_function(
        "() => [...document.querySelectorAll('div.clashkit-vega')].every(c => c.querySelector('svg .mark-group'))",
        timeout=WAIT_MS,
    )
    assert "This page is a notebook" in page.inner_text("article")
    assert blocked == [] and errors == []


def test_the_command_reference_shows_every_command(served, offline):
    from clashkit.cli import main

    page, blocked, errors = offline
    page.goto(f"{served}/commands.html", wait_until="load", timeout=WAIT_MS)
    headings = page.locator("article h3").all_inner_texts()
    assert [name for name in sorted(main.commands) if not any(f"clashkit {name}" in h for h in headings)] == []
    assert page.locator("article table").count() >= len(main.commands)
    assert blocked == [] and errors == []


def test_the_search_finds_indestructible(served, offline):
    page, blocked, errors = offline
    page.goto(f"{served}/index.html", wait_until="load", timeout=WAIT_MS)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.locator("label.md-search__icon, .md-search__input").first.click()
    search, results = page.locator("input.md-search__input"), page.locator(".md-search-result__item")
    # The search index loads in a worker: a query typed before it is ready is typed again.
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        search.fill("")
        search.press_sequentially("Indestructible")
        try:
            results.first.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise
    assert "Indestructible" in page.locator(".md-search-result").inner_text()
    links = [a.get_attribute("href") or "" for a in page.locator(".md-search-result a").all()]
    assert any("rules.html" in link and link.endswith("#R6.5") for link in links), links  # the rule itself
    assert blocked == [] and errors == []
