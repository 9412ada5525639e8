"""The notebooks in a real browser: JupyterLab on 127.0.0.1, Debian's Chromium driven by
playwright, every request that leaves the machine blocked and recorded.  The siege lab
(notebook 03) is stepped, cast, saved and loaded; notebook 06 (sweeps, card-stats, tuning)
runs whole; the card designer of notebook 05 plays a change when its apply button is clicked;
notebook 04's per-deck views show a panel for each of the four starter decks; notebook 07 (the deck
space) runs whole and draws its charts.

The notebook runs in a temporary copy (JupyterLab saves outputs into the file it
runs).  A screenshot goes to ``$CLASHKIT_ARTIFACTS`` (default
``<tmp>/clashkit-artifacts``)."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
NOTEBOOK = "03_siege_lab.ipynb"
DESIGNER = "05_matchups_and_card_balance.ipynb"
SWEEPS = "06_card_sweeps_and_tuning.ipynb"
CURVES = "04_mana_curves_and_hand_health.ipynb"
DECK_SPACE = "07_deck_space.ipynb"
ROOT = Path(__file__).resolve().parents[2]
LOCAL = {"127.0.0.1", "localhost"}
#: How long JupyterLab may take to answer, and how much longer than on a quiet machine any
#: step in the page may take: every wait is for an event, with a limit that a busy machine
#: (load 15 on 2 cores) stays within.
LAB_START_SECONDS = 180
PATIENCE = 3


def runs_whole() -> tuple[str, ...]:
    """The notebooks these tests run whole in JupyterLab, failing on any cell that raised
    (:func:`ran_whole`), where they can run: ``tests/conftest.py`` then leaves them out of
    nbmake's run, so a notebook is played once, not twice."""
    return (NOTEBOOK, CURVES, DESIGNER, SWEEPS, DECK_SPACE) if Path(CHROMIUM).exists() else ()


def places(board: str) -> list[str]:
    """Every creature's place and damage on a drawn board."""
    return re.findall(r'data-place="[^"]+" data-damage="[0-9]+"', board)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def artifacts() -> Path:
    path = Path(os.environ.get("CLASHKIT_ARTIFACTS") or Path(tempfile.gettempdir()) / "clashkit-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a free loopback port, with a token and throw-away settings and runtime dirs."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not at {CHROMIUM} (Debian: apt-get install chromium)")
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    root.mkdir()
    for name in (NOTEBOOK, CURVES, DESIGNER, SWEEPS, DECK_SPACE):
        shutil.copy(ROOT / "notebooks" / name, root / name)
    port, token = free_port(), secrets.token_hex(16)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "IPYTHONDIR": str(base / "ipython"),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",  # the log shows how far the server got, also when it is cut short
    }
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # containers and CI often run as root
    # No news prompt: JupyterLab would otherwise offer to fetch news from the internet.
    news = base / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text('{"fetchNews": "false"}')
    log = open(base / "jupyter.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        # A busy machine (load 15 on 2 cores) can take minutes to start JupyterLab.
        deadline = time.monotonic() + LAB_START_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                how = (
                    f"it ended with status {server.returncode}"
                    if server.poll() is not None
                    else f"no answer within {LAB_START_SECONDS} s"
                )
                server.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(10)
                log.flush()
                raise RuntimeError(f"JupyterLab did not start ({how}); its log:\n" + (base / "jupyter.log").read_text())
            time.sleep(0.25)
        yield url, token, root
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def shut_kernels(url: str, token: str) -> None:
    """Shut down every kernel of the lab (a closed page leaves its kernel running, and a kernel
    still playing after a failure would slow the next test)."""
    import json

    def call(method: str, path: str):
        request = urllib.request.Request(f"{url}{path}", method=method, headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.read()

    for kernel in json.loads(call("GET", "/api/kernels")):
        with contextlib.suppress(OSError):
            call("DELETE", f"/api/kernels/{kernel['id']}")


@pytest.fixture(autouse=True)
def kernels_shut_after(lab):
    """Every test leaves no kernel running, whether it passed or not."""
    yield
    shut_kernels(lab[0], lab[1])


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield chromium
        chromium.close()


def offline_page(browser, url: str, token: str, notebook: str):
    """A page of ``notebook`` in JupyterLab with its kernel started, every request outside
    127.0.0.1 blocked; returns (context, page, blocked, seen)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    blocked: list[str] = []
    seen: list[str] = []

    def guard(route):
        request_url = route.request.url
        seen.append(request_url)
        host = urlparse(request_url).hostname or ""
        if request_url.startswith(("data:", "blob:")) or host in LOCAL:
            route.continue_()
        else:
            blocked.append(request_url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    # A workspace of its own: only this notebook opens, whatever another test left open.
    workspace = Path(notebook).stem.split("_")[0]
    page.goto(f"{url}/lab/workspaces/nb{workspace}/tree/{notebook}?token={token}", wait_until="domcontentloaded")
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel",
        timeout=PATIENCE * 30_000,
    )
    return context, page, blocked, seen


def until(page, condition: str, what: str, *, seconds: float = 15, arg=None, show: str = "body") -> None:
    """Wait (``seconds`` times :data:`PATIENCE`) until the page's JavaScript ``condition`` holds;
    on timeout, fail naming ``what`` was awaited and what ``show`` (a selector) held then, so a
    failure on a slow machine says which step did not come rather than a bare timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(condition, arg=arg, timeout=PATIENCE * seconds * 1000)
    except PlaywrightTimeout:
        held = page.evaluate("s => { const e = document.querySelector(s); return e ? e.innerText : null; }", show)
        pytest.fail(f"waited {PATIENCE * seconds:.0f} s for {what}; {show} then showed:\n{held}", pytrace=False)


def shows(page, selector: str, text: str, *, seconds: float = 15) -> None:
    """Wait until the element at ``selector`` shows ``text`` (its laid-out text)."""
    until(
        page,
        "([s, t]) => { const e = document.querySelector(s); return e !== null && e.innerText.includes(t); }",
        f"{text!r} in {selector}",
        seconds=seconds,
        arg=[selector, text],
        show=selector,
    )


def hover_for_tooltip(page, chart, *, seconds: float):
    """Hover the first point of ``chart`` until vega-embed shows its tooltip, and return it.

    One hover can miss: the chart may be drawn again under a still mouse (the cells below it
    are still running, the page lays out again), and then no pointer event reaches the new
    marks.  So the mouse leaves and comes back until the tooltip shows, within ``seconds``
    times :data:`PATIENCE`."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    tooltip = page.locator("#vg-tooltip-element.visible")
    deadline = time.monotonic() + PATIENCE * seconds
    tries = 0
    while True:
        tries += 1
        chart.scroll_into_view_if_needed()
        page.mouse.move(0, 0)
        chart.locator("g.mark-symbol path").first.hover(timeout=PATIENCE * 10_000)
        try:
            tooltip.wait_for(timeout=2_000)
            return tooltip
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                pytest.fail(
                    f"no tooltip after {tries} hovers over {PATIENCE * seconds:.0f} s on the chart's first point",
                    pytrace=False,
                )


def ran_whole(page, *, seconds: float) -> None:
    """Wait (``seconds`` times :data:`PATIENCE`) until every code cell of the open notebook has
    run (each has an execution count); fail at once on a cell whose output is an error, naming
    the cell and the exception, and on timeout naming the cells still waiting."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    state = """() => {
        const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
        const errors = [], waiting = [];
        for (let i = 0; i < cells.length; i++) {
            const cell = cells.get(i);
            if (cell.type !== 'code') continue;
            if (cell.executionCount === null) waiting.push(i);
            for (let j = 0; j < cell.outputs.length; j++) {
                const out = cell.outputs.get(j).toJSON();
                if (out.output_type === 'error') errors.push(`cell ${i}: ${out.ename}: ${out.evalue}`);
            }
        }
        return {errors, waiting};
    }"""
    try:
        page.wait_for_function(
            f"() => {{ const s = ({state})(); return s.errors.length > 0 || s.waiting.length === 0; }}",
            timeout=PATIENCE * seconds * 1000,
        )
    except PlaywrightTimeout:
        waiting = page.evaluate(state)["waiting"]
        what = f"waited {PATIENCE * seconds:.0f} s for the notebook to run whole; cells {waiting} had not run"
        pytest.fail(what, pytrace=False)
    errors = page.evaluate(state)["errors"]
    assert errors == [], "a cell raised: " + "; ".join(errors)


def page_has(page, text: str, seconds: float) -> None:
    """Wait until the page's text holds ``text`` (read from the DOM: JupyterLab may not lay out
    a cell far below the view)."""
    until(page, "t => document.body.textContent.includes(t)", f"{text!r} on the page", seconds=seconds, arg=text)


def test_sweeps_notebook_and_card_designer_run_offline(lab, browser):
    """Notebook 06 runs whole in JupyterLab (the sweep's heat map under greedy and expert, the
    whole card-stats table, the tuner's proposal, its Pareto table and each strength's balance);
    notebook 05 shows balance by skill, and its card designer, given attack + 1 for its card and
    **apply the change**, shows each deck's change under greedy and under expert, a matrix of
    paired changes a strength, the change table and the card's card-stats, played on the fast
    engine, and undo clears them."""
    url, token, _root = lab
    context, page, blocked, seen = offline_page(browser, url, token, SWEEPS)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    # The sweep plays greedy and expert: its estimate first, then the heat map with a panel each.
    page_has(page, "games, about ", 120)
    page.locator(".ck-sweep-view .jp-RenderedVega5 svg.marks").first.wait_for(timeout=PATIENCE * 120_000)
    # Read from the DOM: JupyterLab may not lay out the cell once the run has moved past it.
    sweep_text = page.locator(".ck-sweep-view").text_content() or ""
    assert "2,000 games a pairing of every value under greedy and expert" in sweep_text, sweep_text
    heat_map = page.locator(".ck-sweep-view .jp-RenderedVega5").first.text_content() or ""
    assert "under greedy" in heat_map and "under expert" in heat_map, heat_map
    assert "Under greedy: OGRE attack 6" in sweep_text and "Under expert: OGRE attack 6" in sweep_text
    page_has(page, "card-stats: 32 cards, sorted by card", 20)
    # The tuner at both strengths: its estimate, the Pareto table, each strength's balance.
    page_has(page, "candidate sets at greedy, expert, about", 60)
    page_has(page, "at each strength: shipped and proposed", 120)
    page_has(page, "Fewest changes against the largest distance of a deck from 50% at any strength", 20)
    # The tuner's proposal in words when it has none (the command line's sentence), else its table.
    page_has(page, "The tuner", 20)
    body = page.text_content("body") or ""
    assert "No change proposed: none improved the balance on fresh seeds." in body or "The tuner's proposal" in body
    assert "shape: (0, 6)" not in body
    assert page.locator(".ck-sweep-view .ck-paired-matrix").count() == 2  # one a strength
    body = page.text_content("body") or ""
    assert "— (as shipped)" in body and "greedy" in body and "expert" in body
    assert "Traceback" not in body and "Error loading script" not in body
    ran_whole(page, seconds=30)

    context.close()
    shut_kernels(url, token)
    assert blocked == [], f"requests outside 127.0.0.1: {blocked}"

    context, page, blocked, seen = offline_page(browser, url, token, DESIGNER)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    designer = page.locator(".ck-card-designer")
    designer.wait_for(timeout=PATIENCE * 60_000)
    # Balance by skill, above the designer: the rank correlation, the per-deck table, both charts.
    page_has(page, "Rank correlation of the decks' rates, greedy vs expert", 40)
    page_has(page, "change greedy → expert (points)", 20)
    page_has(page, "Each deck's rate against the strength of play", 20)
    page_has(page, "win rate against the column deck at each strength", 20)
    designer.scroll_into_view_if_needed()
    assert "No change yet" in designer.inner_text()
    designer.locator("select").first.select_option("OGRE")
    attack = designer.locator(".widget-hslider").nth(1)  # cost, attack, health
    until(
        page,
        "() => document.querySelectorAll('.ck-card-designer .widget-hslider')[1].innerText.includes('5')",
        "OGRE's shipped attack, 5, on the attack slider",
        seconds=10,
        show=".ck-card-designer",
    )
    assert "attack" in attack.inner_text()
    attack.locator(".noUi-handle").focus()
    page.keyboard.press("ArrowRight")
    # Both bots chosen at first, every bot offered; fewer games than the default keep it quick.
    bots = designer.locator(".ck-bots select")
    assert bots.evaluate("s => [...s.selectedOptions].map(o => o.textContent)") == ["greedy", "expert"]
    offered = bots.evaluate("s => [...s.options].map(o => o.textContent)")
    assert {"random", "greedy", "search", "search:fair", "expert"} <= set(offered), offered
    games = designer.locator(".widget-text", has_text="games a pairing").locator("input")
    games.fill("500")
    games.press("Tab")
    designer.locator("button.ck-apply").click()
    # The results come in order: the change lines, the charts (their axes name the paired
    # interval too), the matrices with their captions, the deck table (its "clear change"
    # column), the card's card-stats.
    shows(page, ".ck-card-designer", "clear change", seconds=120)
    text = designer.inner_text()
    assert "changed: OGRE" in text and "(was OGRE" in text and "No change yet" not in text, text
    assert "500 games a pairing on the fast engine" in text
    assert "change (points)" in text and "deck 4" in text
    # One line a deck with its change at each strength.
    lines = designer.locator(".ck-change-lines li").all_inner_texts()
    assert [line.split(":")[0] for line in lines] == ["deck 1", "deck 2", "deck 3", "deck 4"], lines
    for line in lines:
        assert re.fullmatch(r"deck \d: \S+ points under greedy \[\S+, \S+\], \S+ under expert \[\S+, \S+\]", line), line
    # One matrix of paired changes a strength: a cell per matchup, coloured on a scale centred
    # on 0, each with its interval, marked where the games cannot tell it from 0; the deck's
    # own beside it.
    matrices = designer.locator(".ck-paired-matrix")
    matrices.first.wait_for(timeout=PATIENCE * 30_000)
    assert matrices.count() == 2 and "Under greedy" in text and "Under expert" in text
    matrix = matrices.first
    assert designer.locator(".ck-paired-matrix td.ck-cell").count() == 2 * (12 + 4)
    assert "vs deck 4" in matrix.inner_text() and "the deck overall" in matrix.inner_text()
    colours = matrix.locator("td.ck-cell").evaluate_all("tds => tds.map(td => getComputedStyle(td).backgroundColor)")
    assert len(set(colours)) > 2, colours  # gains, losses and no change differ
    assert "[" in matrix.inner_text() and "≈0" in matrix.inner_text()
    page.locator(".ck-card-designer .jp-RenderedVega5 svg.marks").first.wait_for(timeout=PATIENCE * 30_000)
    chart = page.locator(".ck-card-designer .jp-RenderedVega5").first.text_content() or ""
    assert "under greedy" in chart and "under expert" in chart, chart
    shows(page, ".ck-card-designer", "card-stats of ", seconds=30)
    page.set_viewport_size({"width": 1400, "height": 2800})  # the whole designer in view, matrix included
    matrix.scroll_into_view_if_needed()
    designer.screenshot(path=str(artifacts() / "card_designer.png"))
    ran_whole(page, seconds=120)
    # Undo clears the results: no old chart or table under "back to the shipped card".
    designer.locator("button.ck-undo").click()
    shows(page, ".ck-card-designer", "results of the change are cleared", seconds=30)
    assert designer.locator(".ck-paired-matrix").count() == 0
    assert designer.locator(".jp-RenderedVega5").count() == 0 and "No change yet" in designer.inner_text()
    context.close()
    assert blocked == [], f"requests outside 127.0.0.1: {blocked}"
    assert not [u for u in seen if "cdn" in u or "jsdelivr" in u or "unpkg" in u]


#: The per-deck views of notebook 04: a chart's facets or a table's rows, one a starter deck (R7.1).
DECK_PANELS = ["deck 1", "deck 2", "deck 3", "deck 4"]


def test_mana_curves_notebook_shows_a_panel_for_each_starter_deck(lab, browser):
    """Notebook 04 runs whole; its per-deck views (mana gained and spent, hand-health over turns,
    and the hand-health table) each show the four starter decks, and no group of lost decks
    (``other``): the decks are played by number, and the turns frame's ``deck`` names them."""
    url, token, _root = lab
    context, page, blocked, _seen = offline_page(browser, url, token, CURVES)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    ran_whole(page, seconds=240)
    # What each output holds, from the notebook's model: the charts' facet groups, the table's text.
    groups = page.evaluate(
        """() => {
        const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
        const found = [];
        for (let i = 0; i < cells.length; i++) {
            const cell = cells.get(i);
            if (cell.type !== 'code' || !cell.sharedModel.source.includes('by="deck"')) continue;
            for (let j = 0; j < cell.outputs.length; j++) {
                const data = cell.outputs.get(j).toJSON().data || {};
                const spec = data['application/vnd.vega.v5+json'];  // clashkit.viz.rendering
                if (spec) {
                    const rows = (spec.data || []).flatMap(d => d.values || []).filter(r => 'group' in r);
                    found.push({kind: 'chart', groups: [...new Set(rows.map(r => r.group))].sort()});
                } else if (data['text/html']) {
                    found.push({kind: 'table', text: [].concat(data['text/html']).join('')});
                }
            }
        }
        return found;
    }"""
    )
    charts = [g["groups"] for g in groups if g["kind"] == "chart"]
    tables = [g["text"] for g in groups if g["kind"] == "table"]
    assert charts == [DECK_PANELS, DECK_PANELS], charts  # mana per turn, hand-health
    assert len(tables) == 1 and all(deck in tables[0] for deck in DECK_PANELS) and "other" not in tables[0]
    # The same panels drawn: each per-deck chart's facet headers in the page.
    views = page.locator(".jp-Cell", has_text='by="deck"').locator(".jp-RenderedVega5")
    for k in range(2):
        view = views.nth(k)
        view.scroll_into_view_if_needed()
        view.locator("svg.marks").wait_for(timeout=PATIENCE * 30_000)
        texts = view.locator("svg.marks text").all_text_contents()
        assert sorted({t for t in texts if t.startswith("deck ") or t == "other"}) == DECK_PANELS, texts
    context.close()
    shut_kernels(url, token)
    assert blocked == [], f"requests outside 127.0.0.1: {blocked}"


#: Notebook 07's charts, in order: the search's map, the equilibrium, the card values, the starter
#: decks' standing, then the study with WARG in one chart.
DECK_SPACE_CHARTS = [
    "The deck space: the best deck of each cell",
    "The meta-game's equilibrium among the best decks",
    "What each card is worth in the best decks",
    "The starter decks against the meta",
    "Meta study under greedy",
]


def test_deck_space_notebook_runs_whole_and_draws_its_charts(lab, browser):
    """Notebook 07 runs whole in JupyterLab: two small meta studies (the starter set, then WARG in
    the pool; R2.1, R7.1) with their text report, the best decks' table and WARG's before-and-after
    table; its five charts, Vega compiled in the kernel, are drawn by JupyterLab's own Vega, the
    map with a number for each of the eight best decks; nothing leaves 127.0.0.1."""
    url, token, _root = lab
    context, page, blocked, _seen = offline_page(browser, url, token, DECK_SPACE)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    ran_whole(page, seconds=200)
    page_has(page, "Repeat exactly: --seed 1 --evaluations 800 -n 100 --value-games 16 --top 8", 10)
    page_has(page, "The best decks, measured again against the field", 10)
    page_has(page, "WARG in the meta: before and after it joined the pool", 10)
    page_has(page, "best decks holding WARG", 10)
    # The charts' titles and the map's ranks, from the notebook's model (the Vega specs sent).
    specs = page.evaluate(
        """() => {
        const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
        const found = [];
        for (let i = 0; i < cells.length; i++) {
            const cell = cells.get(i);
            if (cell.type !== 'code') continue;
            for (let j = 0; j < cell.outputs.length; j++) {
                const spec = (cell.outputs.get(j).toJSON().data || {})['application/vnd.vega.v5+json'];
                if (!spec) continue;
                const rows = (spec.data || []).flatMap(d => d.values || []);
                const ranks = rows.filter(r => 'rank' in r && 'cost_low' in r && r.rank !== null).map(r => r.rank);
                found.push({title: (spec.title || {}).text, ranks: ranks.sort((a, b) => a - b)});
            }
        }
        return found;
    }"""
    )
    assert [s["title"] for s in specs] == DECK_SPACE_CHARTS, specs
    assert specs[0]["ranks"] == list(range(1, 9)), specs[0]  # TOP = 8 best decks, each an elite of the map
    views = page.locator(".jp-RenderedVega5")
    assert views.count() == len(DECK_SPACE_CHARTS)
    for k in range(views.count()):
        view = views.nth(k)
        view.scroll_into_view_if_needed()
        view.locator("svg.marks").wait_for(timeout=PATIENCE * 30_000)
    body = page.text_content("body") or ""
    assert "Traceback" not in body and "Error loading script" not in body
    context.close()
    shut_kernels(url, token)
    assert blocked == [], f"requests outside 127.0.0.1: {blocked}"


def test_siege_lab_notebook_runs_and_steps_offline(lab, browser):
    """Notebook 03 in JupyterLab: the lab steps, casts the preselected incantation at an enemy
    (R5.5), saves the position and loads it back, rule numbers unfold to their text,
    ``viz.rule`` shows a rule, and a chart shows its tooltip on hover; nothing leaves 127.0.0.1."""
    url, token, root = lab
    context, page, blocked, seen = offline_page(browser, url, token, NOTEBOOK)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")

    # The siege lab's widgets and its board are drawn by the ipywidgets front end.
    lab_box = page.locator(".ck-siege-lab")
    board = page.locator(".ck-siege-lab .clashkit-board")
    board.wait_for(timeout=PATIENCE * 40_000)
    next_button = page.locator(".ck-siege-lab button.ck-next")
    assert next_button.is_enabled()
    assert page.locator(".ck-siege-lab button.ck-back").is_disabled()

    # Charts are Vega compiled in the kernel, drawn by JupyterLab's own Vega as SVG marks: before
    # the first step the lab's chart is not drawn (one point says nothing) but says what it will
    # show; the last chart cell's is.
    charts = ".jp-RenderedVega5 svg.marks"
    until(page, f"() => document.querySelectorAll('{charts}').length >= 1", "a chart drawn", seconds=40)
    note = page.locator(".ck-siege-lab .ck-chart-note")
    # Read from the DOM: JupyterLab may not lay out a cell out of view.
    assert "after the first step" in (note.text_content() or "")
    assert page.locator(f".ck-siege-lab {charts}").count() == 0
    sizes = page.eval_on_selector_all(
        charts,
        "els => els.map(e => e.getBoundingClientRect().width * e.getBoundingClientRect().height)",
    )
    assert sizes and max(sizes) > 10_000

    # Next: the first creature in the siege order attacks; the board and the chart are redrawn.
    before = board.inner_html()
    assert 'data-place="A.upper.1"' in before
    lab_chart = ".ck-siege-lab .jp-RenderedVega5 svg.marks"
    next_button.click()
    shows(page, ".ck-siege-lab", "step 1", seconds=15)
    page.locator(lab_chart).wait_for(timeout=PATIENCE * 15_000)  # drawn from the first step on
    assert note.inner_text().strip() == ""
    assert board.inner_html() != before
    events = lab_box.inner_text()
    assert "SCRIBE" in events and "R6.4" in events
    assert not page.locator(".ck-siege-lab button.ck-back").is_disabled()

    # A rule number in the events unfolds to the rule's text.
    protection = page.locator('.ck-siege-lab details.ck-rule[data-rule="R6.4"]').first
    protection.locator("summary").click()
    assert "Protection" in protection.inner_text() and protection.get_attribute("open") is not None

    # The incantation preselected in the dropdown hits an enemy (R5.5): cast it as it is.
    chosen = page.eval_on_selector(
        ".ck-spell select", "s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''"
    ).replace("\xa0", " ")
    assert chosen.startswith("METEORITE") and "→ B's CARAPACE" in chosen, chosen
    page.locator(".ck-siege-lab button.ck-cast").click()
    shows(page, ".ck-siege-lab", "plays METEORITE", seconds=15)
    assert "on B's CARAPACE" in lab_box.inner_text()
    cast_board = board.inner_html()

    # Save the position by clicking, undo every step, load the file back.
    path_field = page.locator(".ck-siege-lab .ck-path input")
    path_field.fill("saved_position.toml")
    page.locator(".ck-siege-lab button.ck-save").click()
    shows(page, ".ck-siege-lab", "saved to saved_position.toml", seconds=15)
    saved = (root / "saved_position.toml").read_text()
    assert '{ play = "METEORITE", target = "B.upper.0", index = 2, siege = 1 }' in saved
    page.locator(".ck-siege-lab button.ck-reset").click()
    until(
        page,
        "() => !document.querySelector('.ck-siege-lab').innerText.includes('plays METEORITE')"
        " && document.querySelector('.ck-siege-lab').innerText.includes('step 0')",
        "the lab back at step 0, the cast undone",
        show=".ck-siege-lab",
    )
    assert "plays METEORITE" not in lab_box.inner_text()
    page.locator(".ck-siege-lab button.ck-load").click()
    shows(page, ".ck-siege-lab", "loaded saved_position.toml", seconds=15)
    # The loaded lab plays the cast by itself in its window, after the first attack (R3.11).
    assert "plays METEORITE" not in lab_box.inner_text()
    next_button.click()
    shows(page, ".ck-siege-lab", "plays METEORITE", seconds=15)
    assert places(board.inner_html()) == places(cast_board)

    # viz.rule shows a rule's text as a card.
    card = page.locator('.ck-rule-card[data-rule="R6.4"]')
    card.wait_for(state="attached", timeout=PATIENCE * 15_000)
    # JupyterLab may not lay out a cell far below the view: read the text from the page itself.
    text = card.text_content() or ""
    assert "R6.4 Protection" in text and "attack" in text

    # Hovering a point of the last chart shows its tooltip, drawn by vega-embed in the page.
    tooltip = hover_for_tooltip(page, page.locator(".jp-RenderedVega5").last, seconds=20)
    assert "hand_health" in tooltip.inner_text() and "player" in tooltip.inner_text()

    # The position form: insert a creature at a place, move it, change its damage.
    form = page.locator(".ck-siege-lab .jupyter-widget-Collapse-header").first
    form.scroll_into_view_if_needed()
    form.click()
    place = page.locator(".ck-siege-lab .ck-place select")
    place.wait_for(timeout=PATIENCE * 15_000)

    def tile(where: str) -> str:
        found = re.search(f'title="{re.escape(where)}: ([A-Z!]+)', board.inner_html())
        return found.group(1) if found else ""

    def wait_tile(where: str, name: str) -> None:
        until(
            page,
            "([where, name]) => document.querySelector('.ck-siege-lab .ck-board').innerHTML"
            '.includes(`title="${where}: ${name}`)',
            f"{name} at {where} on the board",
            arg=[where, name],
            show=".ck-siege-lab .ck-board",
        )

    assert tile("A.upper.0") == "OGRE" and tile("A.upper.1") == "SCRIBE"
    place.select_option(label="1: SCRIBE")
    page.locator(".ck-siege-lab .ck-creature select").select_option("TROLL")
    damage = page.locator(".ck-siege-lab .ck-damage input")
    damage.fill("1")
    damage.press("Tab")
    page.locator(".ck-siege-lab button.ck-insert").click()
    wait_tile("A.upper.1", "TROLL")
    assert tile("A.upper.2") == "SCRIBE" and 'data-place="A.upper.1" data-damage="1"' in board.inner_html()
    place.select_option(label="2: SCRIBE")
    page.locator(".ck-siege-lab .ck-move-to select").select_option(label="0")
    page.locator(".ck-siege-lab button.ck-move").click()
    wait_tile("A.upper.0", "SCRIBE")
    assert [tile(f"A.upper.{i}") for i in range(3)] == ["SCRIBE", "OGRE", "TROLL"]
    # The place menu follows the moved creature to 0 (choosing 2 before it did would be no change).
    until(
        page,
        "() => document.querySelector('.ck-siege-lab .ck-place select').selectedIndex === 0",
        "the place menu at the moved creature's new place, 0",
        show=".ck-siege-lab .ck-place",
    )
    until(
        page,
        "() => document.querySelector('.ck-siege-lab .ck-place select').options[2].text.includes('TROLL')",
        "TROLL third in the place menu",
        show=".ck-siege-lab .ck-place",
    )
    place.select_option(index=2)
    until(
        page,
        "() => document.querySelector('.ck-siege-lab .ck-damage input').value === '1'",
        "the damage field showing the placed creature's 1",
        show=".ck-siege-lab",
    )  # the fields show the creature at the place
    damage.fill("3")
    damage.press("Tab")
    page.locator(".ck-siege-lab button.ck-update").click()
    until(
        page,
        "() => document.querySelector('.ck-siege-lab .ck-board').innerHTML"
        '.includes(\'data-place="A.upper.2" data-damage="3"\')',
        "3 damage on the creature at A.upper.2",
        show=".ck-siege-lab .ck-board",
    )

    page.set_viewport_size({"width": 1400, "height": 1800})  # the whole lab in view: no panel edge in the shot
    page.locator(".ck-siege-lab").scroll_into_view_if_needed()
    shot = artifacts() / "siege_lab.png"
    page.locator(".ck-siege-lab").screenshot(path=str(shot))
    page.screenshot(path=str(artifacts() / "siege_lab_page.png"))
    ran_whole(page, seconds=30)
    context.close()

    assert shot.stat().st_size > 20_000
    assert not [u for u in seen if "cdn" in u or "jsdelivr" in u or "unpkg" in u]
    assert blocked == [], f"requests outside 127.0.0.1: {blocked}"
