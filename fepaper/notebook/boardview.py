"""The board view both board widgets share: the picture, the message line, the branching labels.

:class:`BoardView` draws a position (:func:`fepaper.game.render.svg`) with, when asked, where
its distinct turns end (:func:`fepaper.notebook.branching.branching`: the end nodes ringed, a
heat map, the count) and the preview of the turns; it also gives the static HTML picture a
saved notebook or the report shows where no kernel runs the widget.
:class:`fepaper.notebook.widgets.BoardWidget` and :class:`fepaper.notebook.replay.ReplayWidget`
build on it.
"""

from __future__ import annotations

import ipywidgets as W

from ..game.game import Game
from ..game.render import svg
from .branching import TurnPreview, branching
from .compare import TextLine

__all__ = ["BoardView"]


class BoardView:
    """The picture, the message line and the branching labels shared by both board widgets."""

    def __init__(self, size: int | None, draw_cap: int, max_states: int) -> None:
        self.size, self.draw_cap, self.max_states = size, draw_cap, max_states
        self.game: Game = Game()
        self.highlighted: list[tuple[int, int]] = []
        self.ring_counts: dict[tuple[int, int], int] = {}  # turns ending at each ringed node
        self.board = W.HTML()
        # Messages and records wrap (a Label would cut them to one line); a long record scrolls.
        self.message = TextLine(value="", layout=W.Layout(max_width="440px"))
        self.moves_label = TextLine(value="", layout=W.Layout(max_width="440px", max_height="6.5em",
                                                               overflow="auto"))
        self.turn_count_label = TextLine(value="", layout=W.Layout(max_width="440px"))
        self.depth_label = W.Label(value="")
        self.show_turns = W.Checkbox(value=True, description="show where the distinct turns end",
                                     indent=False)
        self.show_turns.observe(lambda _: self.redraw(), "value")
        self.preview = TurnPreview(draw_cap, max_states)
        for widget, cls in ((self.message, "message"), (self.moves_label, "moves"), (self.board, "board"),
                            (self.turn_count_label, "turn-count"), (self.depth_label, "depth")):
            widget.add_class(f"fepaper-{cls}")

    def redraw(self, explore: bool = True) -> None:
        """Draw the game; with ``explore``, count its turns and ring their end nodes."""
        g = self.game
        self.highlighted, self.ring_counts = [], {}
        self.heat: dict = {}
        if explore and self.show_turns.value:
            info = branching(g, self.draw_cap, self.max_states)
            self.highlighted, self.heat = info.ends, info.per_end
            self.ring_counts = {end: info.per_end[end] for end in info.ends}
            self.turn_count_label.value = info.text
            self.preview.update(g, info.count)
        elif explore:
            self.turn_count_label.value = ""
            self.preview.update(g, None)
        else:
            self.turn_count_label.value = "…"
        picture = svg(g, highlight=self.highlighted, size=self.size, heat=self.heat, counts=self.ring_counts)
        self.board.value = picture
        # The picture's own width, so a click's offset in the widget is an offset in the picture.
        self.board.layout.width = picture.split('width="', 1)[1].split('"', 1)[0] + "px"
        self.depth_label.value = f"bounce depth {len(g.current)} (steps so far in this turn)"
        self.moves_label.value = g.moves

    def _snapshot_lines(self) -> list[str]:
        return [self.message.value, self.turn_count_label.value, self.depth_label.value]

    def snapshot_html(self) -> str:
        """The widget's state as static HTML (the board and its text): what a saved notebook or
        the report shows where no kernel runs the widget."""
        lines = "".join(f"<p style=\"margin: 2px 0\">{line}</p>" for line in self._snapshot_lines() if line)
        return (f'<div class="fepaper-snapshot" style="display: flex; gap: 16px; align-items: flex-start">'
                f'<div>{self.board.value}</div><div style="max-width: 440px; font-size: 13px">{lines}'
                "<p><i>(a snapshot of the widget: run the notebook to use it)</i></p></div></div>")

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.snapshot_html()
        return bundle
