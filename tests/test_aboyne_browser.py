"""Real-browser test of the Aboyne widget: JupyterLab in Chromium runs a notebook with an
AboyneWidget; a click on a stone rings its targets, a click on a target plays the move, and a
move typed in the text box is played too. Skipped as tests/test_browser.py is (no Chromium or
no playwright); screenshots go to ``test-output/``."""

import json

import pytest

from fepaper.games.aboyne import INDEX
from fepaper.games.aboyne_draw import centre

from .test_browser import SHOTS, _run_all_until, _text, run_in_jupyterlab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELL = """from fepaper.notebook.aboyneboard import AboyneWidget
widget = AboyneWidget("human", "human")
widget"""


def test_a_click_on_a_stone_rings_its_targets_and_a_click_on_one_plays_it(tmp_path):
    run_in_jupyterlab(tmp_path, CELL, _drive, "aboyne_browser_failure.png")


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
