"""The board's legend fits its picture on every board size: no line of it runs past the SVG's right
edge or below its bottom (it once ended "...how many er" on the report page), and the matplotlib
board's legend stays inside its figure.

The SVG's text is measured two ways: with matplotlib's DejaVu Sans metrics (one of the widest
sans-serif fonts; always here) and, when Chromium and playwright are installed, as a browser lays
it out (``getBBox``)."""

import xml.etree.ElementTree as ET

import matplotlib
import pytest

from fepaper.game import render
from fepaper.game.game import Game
from fepaper.game.rules import PRESETS, Rules

matplotlib.use("Agg")

NS = "{http://www.w3.org/2000/svg}"


def _pictures():
    """Each preset's picture with every legend entry (rings with counts and the heat map) and
    without coordinates, at the default size and at a small one."""
    for name in PRESETS:
        game = Game(name, "0")
        ends = sorted({t.end for t in game.turns()})
        counts = {end: 1 for end in ends}
        for coordinates in (True, False):
            for size in (None, 150):
                yield (name, coordinates, size), render.svg(game, highlight=ends, counts=counts, heat=counts,
                                                            legend=True, coordinates=coordinates, size=size)


def _legend_lines(picture: str):
    """(x, first-line y, font size, lines) of each legend text, and the viewBox's width and height."""
    root = ET.fromstring(picture)
    _, _, width, height = map(float, root.get("viewBox").split())
    out = []
    for group in root.iter(f"{NS}g"):
        if group.get("class") != "legend":
            continue
        text = group.find(f"{NS}text")
        lines = [span.text for span in text.findall(f"{NS}tspan")]
        steps = [float(span.get("dy")) for span in text.findall(f"{NS}tspan")]
        out.append((float(text.get("x")), float(text.get("y")), float(text.get("font-size")), lines, steps))
    return out, width, height


def test_every_legend_line_fits_the_picture_in_dejavu_sans():
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    measure, font = TextToPath(), FontProperties(family="DejaVu Sans", size=10)
    seen = 0
    for key, picture in _pictures():
        entries, width, height = _legend_lines(picture)
        assert len(entries) == 6, key  # players, walls, ball, rings, heat
        for x, y, size, lines, steps in entries:
            assert "".join(lines).replace(" ", "") != ""
            for line in lines:
                w, _, _ = measure.get_text_width_height_descent(line, font, ismath=False)
                assert x + w * size / 10 <= width, (key, line, x + w * size / 10, width)
                seen += 1
            bottom = y + sum(steps) + size  # the last line's centre plus room for its descent
            assert bottom <= height, (key, lines, bottom, height)
    assert seen > 40


def test_long_entries_wrap_on_narrow_boards_and_keep_every_word():
    game = Game("foo", "")
    entries, _, _ = _legend_lines(render.svg(game, legend=True, highlight=[(4, 3)], counts={(4, 3): 2}))
    text = " ".join(" ".join(lines) for *_, lines, _ in entries)
    assert "end node of a distinct turn (the number: how many end there)" in text
    assert max(len(lines) for *_, lines, _ in entries) >= 2  # the board is too narrow for one line
    wide = Rules.preset("thesis").replace(width=20, height=16)
    entries, _, _ = _legend_lines(render.svg(Game(wide), legend=True))
    assert all(len(lines) == 1 for *_, lines, _ in entries)


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_matplotlib_board_legend_stays_inside_its_figure(name):
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(4, 6), layout="constrained")
    try:
        ax = render.draw(Game(name, "0"), ax=fig.add_subplot(), legend=True, highlight=[(4, 3)])
        fig.canvas.draw()
        box, frame = ax.get_legend().get_window_extent(), fig.bbox
        assert box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0, (box, frame)
    finally:
        plt.close(fig)


@pytest.mark.browser
@pytest.mark.slow
def test_a_browser_lays_every_legend_out_inside_the_picture():
    from pathlib import Path

    pytest.importorskip("playwright")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no Chromium")
    from playwright.sync_api import sync_playwright

    script = """() => { const s = document.querySelector('svg'); const vb = s.viewBox.baseVal;
        return [vb.width, vb.height, [...s.querySelectorAll('text')].map(t => {
            const r = t.getBBox(); return [r.x, r.y, r.x + r.width, r.y + r.height, t.textContent]; })]; }"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
        try:
            page = browser.new_page()
            for key, picture in _pictures():
                page.set_content(f"<html><body style='margin:0'>{picture}</body></html>")
                width, height, boxes = page.evaluate(script)
                outside = [b for b in boxes if b[0] < 0 or b[1] < 0 or b[2] > width or b[3] > height]
                assert outside == [], (key, outside)
        finally:
            browser.close()
