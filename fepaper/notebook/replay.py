"""Replay a game record: step through it with sliders and see the branching at each position.

Examples
--------
>>> w = ReplayWidget("0 54", "thesis")
>>> w.slider.max, w.turn_label.value
(2, "next: turn 1 '0' by player 1")
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..controllers import SpecError
from ..game.game import Game, InvalidRecord
from ..game.rules import Rules
from .boardview import BoardView
from .compare import TextLine

__all__ = ["ReplayWidget"]


class ReplayWidget(BoardView):
    """Step through a game record with sliders, and see the branching at each position.

    Parameters
    ----------
    record : str
        Turns separated by spaces (``"0 54 ..."``, under ``rules``) or a JSON record
        ``{"rules": ..., "moves": ...}``; see :meth:`set_record`.
    rules : Rules, str or dict
        The rules of a plain record.

    Attributes
    ----------
    slider : ipywidgets.IntSlider
        The number of whole turns played (0 is the kick-off).
    step_slider : ipywidgets.IntSlider
        Steps of the next turn played after those (the bounce depth).
    record_view : ipywidgets.HTML
        The whole record, wrapped and scrolling however long it is: the turns played in
        black, the next one in bold, the rest in grey.
    load_message : TextLine
        Under the record box: why a record could not be loaded.
    """

    def __init__(self, record: str = "", rules: Any = "thesis", *, size: int | None = None,
                 draw_cap: int = 5_000, max_states: int = 200_000) -> None:
        super().__init__(size, draw_cap, max_states)
        self.rules = Rules.from_spec(rules)
        self.turns: list[str] = []
        self._loading = False
        self.record_text = W.Textarea(placeholder='0 54 ... or {"rules": "thesis", "moves": "0 54"}',
                                      layout=W.Layout(width="420px", height="60px"))
        load = W.Button(description="load")
        load.on_click(lambda _: self.set_record(self.record_text.value))
        self.slider = W.IntSlider(value=0, min=0, max=0, description="turns")
        self.step_slider = W.IntSlider(value=0, min=0, max=0, description="steps")
        self.turn_label = W.Label(value="")
        self.record_view = W.HTML(value="", layout=W.Layout(max_width="440px", max_height="9em",
                                                            overflow="auto"))
        self.record_view.add_class("fepaper-record")
        self.load_message = TextLine(value="", layout=W.Layout(max_width="520px"))
        self.slider.observe(self._on_slider, "value")
        self.step_slider.observe(lambda _: self._loading or self._show(), "value")
        side = W.VBox([self.slider, self.step_slider, self.turn_label, self.record_view, self.message,
                       self.turn_count_label, self.depth_label, self.show_turns, self.preview.box],
                      layout=W.Layout(margin="0 0 0 12px"))
        self.box = W.VBox([W.HBox([self.record_text, load]), self.load_message, W.HBox([self.board, side])])
        self.box.add_class("fepaper-replay-widget")
        self.set_record(record)

    def set_record(self, record: str) -> bool:
        """Load a record and show its kick-off; a bad record is explained and not loaded."""
        text = record.strip()
        try:
            if text.startswith("{"):
                game = Game.from_json(text)
            else:
                game = Game(self.rules, text)
                if game.current:
                    raise InvalidRecord("record ends inside a turn")
        except (ValueError, SpecError) as exc:
            self.message.value = self.load_message.value = f"cannot load the record: {exc}"
            return False
        self.load_message.value = ""
        self.record_text.value = record
        self.rules, self.turns = game.rules, list(game.history)
        self._loading = True
        try:
            self.slider.value = 0
            self.slider.max = len(self.turns)
        finally:
            self._loading = False
        self._on_slider(None)
        self.message.value = f"{len(self.turns)} turns" + (f"; {game.result}" if game.is_over else "")
        return True

    def _on_slider(self, _change) -> None:
        if self._loading:
            return
        k = self.slider.value
        nxt = self.turns[k] if k < len(self.turns) else ""
        self._loading = True
        try:
            self.step_slider.value = 0
            self.step_slider.max = max(len(nxt) - 1, 0)
            self.step_slider.disabled = len(nxt) < 2
        finally:
            self._loading = False
        self._show()

    def _show(self) -> None:
        k, j = self.slider.value, self.step_slider.value
        game = Game(self.rules, " ".join(self.turns[:k]))
        nxt = self.turns[k] if k < len(self.turns) else ""
        for c in nxt[:j]:
            game.step(c)
        self.game = game
        if nxt:
            self.turn_label.value = f"next: turn {k + 1} {nxt!r} by player {game.player}"
        else:
            self.turn_label.value = f"end of the record: {game.result or 'game not over'}"
        self.record_view.value = _record_html(self.turns, k, j)
        self.redraw()

    def _snapshot_lines(self) -> list[str]:
        return [html.escape(self.turn_label.value), self.record_view.value, *super()._snapshot_lines()]


def _record_html(turns: list[str], k: int, j: int) -> str:
    """The record with turns ``< k`` played (black), turn ``k`` next (bold, its first ``j`` steps
    underlined: played so far), the rest grey."""
    parts = []
    for i, turn in enumerate(turns):
        if i < k:
            parts.append(turn)
        elif i == k:
            parts.append(f"<b><u>{turn[:j]}</u>{turn[j:]}</b>")
        else:
            parts.append(f'<span style="color: #8a8a8a">{turn}</span>')
    text = " ".join(parts) or "(empty record)"
    return (f'<div style="font-family: monospace; font-size: 12px; white-space: normal; '
            f'word-break: break-all; line-height: 1.35">{text}</div>')
