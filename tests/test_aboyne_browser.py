"""Real-browser test of the Aboyne widget: JupyterLab in Chromium runs a notebook with an
AboyneWidget; a click on a stone rings its targets, a click on a target plays the move, and a
move typed in the text box is played too. Skipped as tests/test_browser.py is (no Chromium or
no playwright); screenshots go to ``test-output/``."""

import json
import os
import secrets
import subprocess
import sys

import pytest

from fepaper.games.aboyne import INDEX
from fepaper.games.aboyne_draw import centre

from .test_browser import (
    ARGS,
    CHROMIUM,
    SHOTS,
    _free_port,
    _playwright,
    _run_all_until,
    _settings,
    _start_kernel,
    _text,
    _wait_for_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELL = """from fepaper.notebook.aboyneboard import AboyneWidget
widget = AboyneWidget("human", "human")
widget"""


def _notebook(path) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)], metadata={
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}})
    nbformat.write(nb, path)


def test_a_click_on_a_stone_rings_its_targets_and_a_click_on_one_plays_it(tmp_path):
    sync_playwright = _playwright()
    SHOTS.mkdir(exist_ok=True)
    work = tmp_path / "root"
    work.mkdir()
    _notebook(work / "board.ipynb")
    _settings(tmp_path / "config")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_DATA_DIR=str(tmp_path / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), IPYTHONDIR=str(tmp_path / "ipython"))
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
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
                _drive(page, port, token)
            except Exception:
                if page is not None:
                    page.screenshot(path=str(SHOTS / "aboyne_browser_failure.png"))
                tail = "\n".join(log_path.read_text().splitlines()[-20:])
                print(f"JupyterLab log (last lines):\n{tail}")
                raise
            finally:
                browser.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)
        log.close()


def _drive(page, port: int, token: str) -> None:
    page.goto(f"http://127.0.0.1:{port}/lab/tree/board.ipynb?token={token}")
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=45_000)
    _run_all_until(page, ".fepaper-aboyne-board svg", timeout=60)
    assert _text(page, "fepaper-moves") == ""
    page.screenshot(path=str(SHOTS / "aboyne_1_board.png"))
    try:
        import ipyevents  # noqa: F401
    except ImportError:
        pass
    else:
        box = json.loads(page.eval_on_selector(".fepaper-aboyne-board",
                                               "el => JSON.stringify(el.getBoundingClientRect())"))
        for cell in ("e2", "e3"):
            x, y = centre(INDEX[cell])
            page.mouse.click(box["x"] + x, box["y"] + y)
            if cell == "e2":
                page.wait_for_function(
                    "document.querySelectorAll('.fepaper-aboyne-board svg circle.target').length === 3",
                    timeout=20_000)
                page.screenshot(path=str(SHOTS / "aboyne_2_selected.png"))
        page.wait_for_function("document.querySelector('.fepaper-moves').textContent.trim() === 'e2-e3'",
                               timeout=20_000)
        assert page.eval_on_selector_all(".fepaper-aboyne-board svg circle.target", "els => els.length") == 0
    before = _text(page, "fepaper-moves")
    typed = page.locator(".fepaper-aboyne-widget input[type='text']")
    typed.fill("e8-e7")
    typed.press("Enter")
    page.wait_for_function(
        f"document.querySelector('.fepaper-moves').textContent.trim() === {(before + ' e8-e7').strip()!r}",
        timeout=20_000)
    assert "blue played e8-e7" in _text(page, "fepaper-message")
    page.screenshot(path=str(SHOTS / "aboyne_3_after_moves.png"))
