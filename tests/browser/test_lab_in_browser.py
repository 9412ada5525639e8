"""The siege lab notebook in a real browser: JupyterLab on 127.0.0.1, Debian's Chromium driven
by playwright, every request that leaves the machine blocked and recorded.

The notebook runs in a temporary copy (JupyterLab saves outputs into the file it
runs).  A screenshot goes to ``$CLASHKIT_ARTIFACTS`` (default
``<tmp>/clashkit-artifacts``)."""

from __future__ import annotations

import os
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
ROOT = Path(__file__).resolve().parents[2]
LOCAL = {"127.0.0.1", "localhost"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def artifacts() -> Path:
    path = Path(
        os.environ.get("CLASHKIT_ARTIFACTS") or Path(tempfile.gettempdir()) / "clashkit-artifacts"
    )
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
    shutil.copy(ROOT / "notebooks" / NOTEBOOK, root / NOTEBOOK)
    port, token = free_port(), secrets.token_hex(16)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "IPYTHONDIR": str(base / "ipython"),
        "PYTHONPATH": str(ROOT),
    }
    command = [
        sys.executable, "-m", "jupyterlab",
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
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # containers and CI often run as root
    # No news prompt: JupyterLab would otherwise offer to fetch news from the internet.
    news = (
        base
        / "settings"
        / "@jupyterlab"
        / "apputils-extension"
        / "notification.jupyterlab-settings"
    )
    news.parent.mkdir(parents=True)
    news.write_text('{"fetchNews": "false"}')
    log = open(base / "jupyter.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "JupyterLab did not start:\n" + (base / "jupyter.log").read_text()
                )
            time.sleep(0.25)
        yield url, token, root
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


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


def test_siege_lab_notebook_runs_and_steps_offline(lab, browser):
    url, token, root = lab
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
    page.goto(f"{url}/lab/tree/{NOTEBOOK}?token={token}", wait_until="domcontentloaded")
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel",
        timeout=30_000,
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")

    # The siege lab's widgets and its board are drawn by the ipywidgets front end.
    board = page.locator(".ck-siege-lab .clashkit-board")
    board.wait_for(timeout=40_000)
    next_button = page.locator(".ck-siege-lab button.ck-next")
    assert next_button.is_enabled()
    assert page.locator(".ck-siege-lab button.ck-back").is_disabled()

    # Charts arrive as finished SVG images rendered in the kernel: the widget's and the last cell's.
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-RenderedSVG').length >= 2", timeout=40_000
    )
    sizes = page.eval_on_selector_all(
        ".jp-RenderedSVG img, .jp-RenderedSVG svg",
        "els => els.map(e => e.getBoundingClientRect().width * e.getBoundingClientRect().height)",
    )
    assert sizes and max(sizes) > 10_000

    # Next: the first creature in the siege order attacks; the board and the chart are redrawn.
    before = board.inner_html()
    assert 'data-place="A.upper.1"' in before
    chart = ".ck-siege-lab .jp-RenderedSVG img"
    old_chart = page.get_attribute(chart, "src")
    next_button.click()
    page.wait_for_function(
        "() => document.querySelector('.ck-siege-lab').innerText.includes('step 1')", timeout=15_000
    )
    page.wait_for_function(
        "([selector, old]) => { const img = document.querySelector(selector);"
        " return img && img.getAttribute('src') !== old; }",
        arg=[chart, old_chart],
        timeout=15_000,
    )
    after = board.inner_html()
    assert after != before
    events = page.locator(".ck-siege-lab").inner_text()
    assert "SCRIBE" in events and "R6.4" in events
    assert not page.locator(".ck-siege-lab button.ck-back").is_disabled()

    page.locator(".ck-siege-lab").scroll_into_view_if_needed()
    shot = artifacts() / "siege_lab.png"
    page.locator(".ck-siege-lab").screenshot(path=str(shot))
    page.screenshot(path=str(artifacts() / "siege_lab_page.png"))
    context.close()

    assert shot.stat().st_size > 20_000
    assert not [u for u in seen if "cdn" in u or "jsdelivr" in u or "unpkg" in u]
    assert blocked == [], f"requests outside 127.0.0.1: {blocked}"
