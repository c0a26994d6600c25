"""Real-browser tests: JupyterLab in Chromium runs a notebook with a BoardWidget, a click on
the "up" arrow steps the ball, and (with ipyevents) a click on a node steps there; a page of
the committed report renders with its figures, and its index leads to it.

Skipped when Chromium (``/usr/bin/chromium``, Debian's package) or the ``playwright``
Python package is missing; ``playwright install`` is not needed. Screenshots go to
``test-output/`` (git-ignored); with ``$FEPAPER_SCREENSHOTS`` set to a folder (``make
screenshots``: ``docs/images``), the widget's picture of the README is written there too.
"""

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # slow: part of make test, left out of make quick

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CELL = """from fepaper.notebook.widgets import BoardWidget
widget = BoardWidget("standard", "human", "human", delay=0)
widget"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _notebook(path: Path, cell: str = CELL) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)], metadata={
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}})
    nbformat.write(nb, path)


def _wait_for_server(url: str, proc: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = "\n".join(log.read_text().splitlines()[-15:])
            raise RuntimeError(f"JupyterLab exited with code {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"JupyterLab did not answer {url} within {timeout} s")


def _settings(config: Path) -> None:
    """User settings: start the notebook's kernel without asking, fetch no news."""
    for name, value in (("notebook-extension/tracker", {"autoStartDefaultKernel": True}),
                        ("apputils-extension/notification", {"fetchNews": "false"})):
        path = config / "lab" / "user-settings" / "@jupyterlab" / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))


def _run_all_until(page, selector: str, timeout: float):
    """Run all cells until ``selector`` appears, answering a kernel question if one pops up
    (JupyterLab can ask even with a running session) and running again if it was lost."""
    deadline = time.monotonic() + timeout
    ran_at = None
    while time.monotonic() < deadline:
        found = page.query_selector(selector)
        if found is not None:
            return found
        accept = page.locator(".jp-Dialog .jp-mod-accept")
        if accept.count() and accept.first.is_visible():
            accept.first.click()
            ran_at = None
        elif ran_at is None or time.monotonic() - ran_at > 20:
            page.click(".lm-MenuBar-itemLabel:text-is('Run')")
            page.click("li.lm-Menu-item[data-command='runmenu:run-all']")
            ran_at = time.monotonic()
        time.sleep(0.5)
    raise TimeoutError(f"{selector} did not appear within {timeout} s of running the notebook")


def _start_kernel(base: str, token: str) -> None:
    """Start the notebook's session through the REST API, so JupyterLab asks no kernel question."""
    body = json.dumps({"path": "board.ipynb", "name": "board.ipynb", "type": "notebook",
                       "kernel": {"name": "python3"}}).encode()
    request = urllib.request.Request(f"{base}/api/sessions?token={token}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status in (200, 201), response.status


def _text(page, cls: str) -> str:
    return page.eval_on_selector(f".{cls}", "el => el.textContent.trim()")


def _playwright():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright Python package is missing (pip install playwright)")
    return sync_playwright


def run_in_jupyterlab(tmp_path: Path, cell: str, drive, failure_shot: str) -> float:
    """Serve a notebook of one ``cell`` with JupyterLab, open it in Chromium and call
    ``drive(page, port, token)``; a failure leaves ``test-output/<failure_shot>`` and the log's
    tail. Returns the seconds from the start to the end of ``drive``."""
    sync_playwright = _playwright()
    started = time.monotonic()
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / failure_shot).unlink(missing_ok=True)
    work = tmp_path / "root"
    work.mkdir()
    _notebook(work / "board.ipynb", cell)
    _settings(tmp_path / "config")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_DATA_DIR=str(tmp_path / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), IPYTHONDIR=str(tmp_path / "ipython"))
    # The kernel is ipykernel's own "python3", run by this interpreter (sys.prefix's
    # share/jupyter also provides the widget extensions), so the temporary data dir is enough.
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # CI containers run as root
    log_path = tmp_path / "jupyter.log"
    log = log_path.open("w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=work)
    try:
        _wait_for_server(f"http://127.0.0.1:{port}/api/status?token={token}", server, log_path, timeout=45)
        _start_kernel(f"http://127.0.0.1:{port}", token)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = None
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.set_default_timeout(30_000)
                drive(page, port, token)
            except Exception:
                if page is not None:
                    page.screenshot(path=str(SHOTS / failure_shot))
                tail = "\n".join(log_path.read_text().splitlines()[-20:])
                print(f"JupyterLab log (last lines):\n{tail}")
                raise
            finally:
                browser.close()
        return time.monotonic() - started
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)
        log.close()


def test_a_click_on_the_pad_in_jupyterlab_steps_the_ball(tmp_path):
    assert run_in_jupyterlab(tmp_path, CELL, _drive, "browser_failure.png") < 120


def _drive(page, port: int, token: str) -> None:
    """Open the notebook, run it, click the "up" arrow, then (with ipyevents) a node."""
    page.goto(f"http://127.0.0.1:{port}/lab/tree/board.ipynb?token={token}")
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=45_000)
    up = _run_all_until(page, "button.fepaper-step-0:not([disabled])", timeout=60)
    page.wait_for_selector(".fepaper-board svg")
    assert _text(page, "fepaper-moves") == ""
    assert page.eval_on_selector("button.fepaper-step-6", "el => el.disabled") is False
    page.screenshot(path=str(SHOTS / "browser_1_board.png"))
    up.click()
    page.wait_for_function(
        "document.querySelector('.fepaper-moves').textContent.trim() === '0'", timeout=20_000)
    page.wait_for_function(
        "document.querySelector('.fepaper-message').textContent.includes('player 1 stepped')")
    page.screenshot(path=str(SHOTS / "browser_2_after_up.png"))
    _widget_picture(page)
    try:
        import ipyevents  # noqa: F401
    except ImportError:
        return
    # A click on the node above the ball, (4, 3): the picture has a margin of 0.9
    # square (27 px) and row y is drawn at y + 1 squares below it.
    box = page.eval_on_selector(".fepaper-board", "el => JSON.stringify(el.getBoundingClientRect())")
    box = json.loads(box)
    page.mouse.click(box["x"] + 27 + 4 * 30, box["y"] + 27 + 4 * 30)
    page.wait_for_function(
        "document.querySelector('.fepaper-moves').textContent.trim() === '0 0'", timeout=20_000)
    page.screenshot(path=str(SHOTS / "browser_3_after_node_click.png"))


def _widget_picture(page) -> None:
    """The widget alone, as the README shows it (test-output/, and $FEPAPER_SCREENSHOTS if set)."""
    widget = page.locator(".fepaper-board-widget")
    widget.screenshot(path=str(SHOTS / "widgets.png"))
    folder = os.environ.get("FEPAPER_SCREENSHOTS")
    if folder:
        target = ROOT / folder
        target.mkdir(parents=True, exist_ok=True)
        widget.screenshot(path=str(target / "widgets.png"))


REPORT = ROOT / "docs" / "report"
PAGE = "01_rules_and_board.html"


def test_a_report_page_renders_with_its_figures():
    sync_playwright = _playwright()
    assert (REPORT / PAGE).exists(), f"docs/report/{PAGE} is missing: run make reproduce"
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto((REPORT / "index.html").as_uri())
            page.click(f"a[href='{PAGE}']")
            page.wait_for_load_state("load")
            assert page.url.endswith(PAGE)
            assert page.title() == page.eval_on_selector("h1", "el => el.firstChild.textContent.trim()")
            assert page.title().startswith("01 ")
            images = page.eval_on_selector_all(
                "div.output img", "els => els.map(el => [el.complete, el.naturalWidth, el.getBoundingClientRect().width])")
            assert len(images) >= 3, images  # the opening, the presets and the graph
            assert all(done and natural > 300 and shown > 300 for done, natural, shown in images), images
            assert page.eval_on_selector_all("div.output svg", "els => els.length") >= 1  # the boards as SVG
            # a reader's page: no wider than the window, code folded, no script
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            assert page.eval_on_selector_all("details.code[open]", "els => els.length") == 0
            assert page.eval_on_selector_all("script", "els => els.length") == 0
            assert page.evaluate("getComputedStyle(document.body).maxWidth") == "980px"  # style.css applies
            page.screenshot(path=str(SHOTS / "report_page.png"), full_page=True)
            page.click("details.code > summary")
            assert page.eval_on_selector_all("details.code[open] pre", "els => els.length") == 1
        finally:
            browser.close()
