"""The branching at a position, and at the next: what the board widgets show beside the board.

:func:`branching` counts the distinct turns of a position by end node (the heat map and the
rings of the explorer), exact or, past a limit, estimated with its interval.
:class:`TurnPreview` lets the reader pick one of those turns and see the next position before
playing it: the opponent's distinct turns there, counted the same way and drawn as a heat map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ipywidgets as W

from ..game.game import Game
from ..game.render import svg
from .compare import TextLine

__all__ = ["Branching", "branching", "TurnPreview"]


# -- the branching at a position ----------------------------------------------------------
@dataclass(frozen=True)
class Branching:
    """The distinct turns at a position, as far as they were counted.

    ``count`` is the exact number of distinct turns, or ``None`` when the count passed
    its limit; ``estimate`` is then an estimate with its 95 % interval
    (:class:`~fepaper.game.counts.TurnEstimate`); ``per_end`` the number of distinct turns
    ending at each node (exact counts only); ``ends`` their end nodes when there are few
    enough to ring; ``text`` says it in words.
    """

    count: int | None
    ends: list[tuple[int, int]] = field(default_factory=list)
    text: str = ""
    per_end: dict[tuple[int, int], int] = field(default_factory=dict)
    estimate: Any = None


def branching(game: Game, draw_cap: int = 5_000, max_states: int = 200_000) -> Branching:
    """Count the distinct turns of ``game``'s position, by end node, and list their end nodes if few.

    Parameters
    ----------
    game : Game
        The position (at the start of a turn, or after a bounce: then the turns are
        the ways to finish the turn in progress, stopping included).
    draw_cap : int
        At most this many turns have their end nodes ringed (the heat map of the turns
        ending at each node is drawn whatever the count).
    max_states : int
        The count gives up after this many turns (late positions can hold 10^8 turns and
        more) and estimates the count instead, with its interval.
    """
    from ..game.counts import estimate_turns

    if game.is_over:
        return Branching(0, [], f"game over: {game.result}")
    tally = game.turns().tally(limit=max_states)
    if not tally.exact:
        est = estimate_turns(game, samples=32, cap=1 << 16, floor=tally.turns)
        text = (f"more than {max_states:,} distinct turns: too many to count here or draw; about "
                f"{est.value:.3g} (95% interval {est.low:.3g} to {est.high:.3g}, estimated)")
        return Branching(None, [], text, {}, est)
    n, heat = tally.turns, tally.by_node
    shade = "shaded by how many end there"
    if n > draw_cap:
        return Branching(n, [], f"{n:,} distinct turns, ending on {len(heat)} nodes ({shade}): too many to "
                                f"ring (more than {draw_cap:,})", heat)
    ends = sorted(heat)
    return Branching(n, ends, f"{n:,} distinct turn{'s' * (n != 1)}, ending on {len(ends)} "
                              f"node{'s' * (len(ends) != 1)} (ringed, {shade}; the number by a ring: "
                              "the turns that end there)", heat)


#: The most turns the preview lists (past it, the reader steps into the position instead).
PREVIEW_LIST = 400
_NONE = "(pick a turn: see the position after it)"


class TurnPreview:
    """Pick one of the position's distinct turns and see the next position, unplayed.

    The picker lists the turns (when there are at most :data:`PREVIEW_LIST`), grouped by
    their end node; picking one draws the position after it, with the heat map of where the
    opponent's distinct turns end, and says how many there are (exact, or estimated with
    its interval). Nothing is played: the game in the widget is not changed.
    """

    def __init__(self, draw_cap: int, max_states: int, size: int = 260) -> None:
        self.draw_cap, self.max_states, self.size = draw_cap, max_states, size
        self.game: Game | None = None
        self.info: Branching | None = None
        self.picker = W.Dropdown(options=[(_NONE, "")], value="", description="preview",
                                 layout=W.Layout(width="420px"))
        self._listing = False  # set while update() refills the picker: no preview is asked for then
        self.picker.observe(lambda change: self._listing or self.show(change["new"]), "value")
        self.text = TextLine(value="", layout=W.Layout(max_width="440px"))
        self.board = W.HTML(value="")
        self.box = W.VBox([self.picker, self.text, self.board])
        self.box.add_class("fepaper-preview")

    def update(self, game: Game, count: int | None) -> None:
        """List the turns of ``game`` (a copy is kept) when ``count`` (exact) allows it."""
        self.game = game.copy()
        options = [(_NONE, "")]
        if game.is_over:
            note = ""
        elif count is None or count > PREVIEW_LIST:
            note = f"(too many turns to list for a preview: more than {PREVIEW_LIST:,})"
        else:
            turns = sorted(game.turns(), key=lambda t: (t.end[1], t.end[0], len(t.steps), t.steps))
            options += [(f"{t.steps or '(stop here)'}  → ends at {t.end} ({t.kind})", t.steps or "stop")
                        for t in turns]
            note = ""
        self._listing = True
        try:
            self.picker.options = options
            self.picker.value = ""
        finally:
            self._listing = False
        self.picker.disabled = len(options) == 1
        self.text.value = note
        self.board.value = ""
        self.info = None

    def next_game(self, turn: str) -> Game:
        """The position after ``turn`` (``"stop"`` stops a turn in progress)."""
        after = self.game.copy()
        if turn == "stop":
            after.stop()
        else:
            for d in turn:
                after.step(d)
        return after

    def show(self, turn: str) -> None:
        """Draw the position after ``turn`` with its branching ("" clears the preview)."""
        if not turn or self.game is None:
            self.text.value, self.board.value, self.info = "", "", None
            return
        after = self.next_game(turn)
        self.info = info = branching(after, self.draw_cap, self.max_states)
        who = f"player {after.player} to move" if not after.is_over else "the game is over"
        self.text.value = f"after {turn}: {who}; {info.text}"
        self.board.value = svg(after, size=self.size, heat=info.per_end, highlight=info.ends,
                               counts={end: info.per_end[end] for end in info.ends})
