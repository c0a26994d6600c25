"""The branching at a position, at the next, and along a game: what the board widgets show beside
the board.

:func:`branching` counts the distinct turns of a position by end node (the heat map and the
rings of the explorer), exact or, past a limit, estimated with its interval.
:class:`TurnPreview` lets the reader pick one of those turns and see the next position before
playing it: the opponent's distinct turns there, counted the same way and drawn as a heat map.
:func:`branching_along` counts them at the start of every turn of a game record, and
:func:`branching_plot` draws that count turn by turn on a log scale, the current turn marked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ipywidgets as W

from ..game.game import Game
from ..game.render import svg
from .compare import TextLine

__all__ = ["Branching", "branching", "TurnPreview", "branching_along", "branching_plot"]


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


# -- the branching along a game ------------------------------------------------------------
def branching_along(record: str, rules: Any = "thesis", *, every: int = 1, max_states: int = 200_000):
    """The distinct turns at the start of every ``every``-th turn of the game ``record``.

    Returns a DataFrame with one row a position (the game's end left out): ``turn`` (the turns
    played before it), ``player`` (to move), ``turns`` (the count, or past ``max_states`` the
    estimate of :func:`branching`), ``low`` and ``high`` (its 95 % interval; the count twice when
    exact) and ``exact``.
    """
    import pandas as pd

    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be a positive integer, got {every!r}")
    history = Game(rules, record).history
    rows = []
    for k in range(0, len(history) + 1, every):
        game = Game(rules, " ".join(history[:k]))
        if game.is_over:
            continue
        info = branching(game, max_states=max_states)
        if info.count is not None:
            n = low = high = float(info.count)
        else:
            n, low, high = float(info.estimate.value), float(info.estimate.low), float(info.estimate.high)
        rows.append({"turn": k, "player": game.player, "turns": n, "low": low, "high": high,
                     "exact": info.count is not None})
    return pd.DataFrame(rows, columns=["turn", "player", "turns", "low", "high", "exact"])


def branching_plot(along, current: int | None = None, ax=None):
    """Draw :func:`branching_along`'s counts turn by turn on a log scale (an estimate as a hollow
    point with its 95 % interval) and mark the ``current`` turn (one of ``along``'s); returns the Axes."""
    import numpy as np

    from ..game.render import DEFAULT_COLORS
    from .plots import errorbars, figure

    if len(along) == 0:
        raise ValueError("no position to plot: the record's game is over before its first turn")
    if current is not None and current not in set(along["turn"]):
        raise ValueError(f"current turn {current} is not one of the turns counted "
                         f"({int(along['turn'].min())} to {int(along['turn'].max())})")
    if ax is None:
        _, ax = figure(height=2.8)
    exact, guessed = along[along["exact"]], along[~along["exact"]]
    ax.plot(along["turn"], along["turns"], color="#888888", linewidth=0.8, zorder=1)
    ax.plot(exact["turn"], exact["turns"], "o", color="#1f66c2", markersize=4, label="counted", zorder=2)
    if len(guessed):
        y = guessed["turns"].to_numpy(float)
        errorbars(ax, guessed["turn"], y, np.minimum(guessed["low"], y), np.maximum(guessed["high"], y),
                  fmt="o", markerfacecolor="white", color="#1f66c2", markersize=4,
                  label="estimated (95% interval)", zorder=2)
    if current is not None:
        row = along[along["turn"] == current].iloc[0]
        mark = DEFAULT_COLORS["highlight"]
        ax.axvline(current, color=mark, linestyle="--", linewidth=1, zorder=0)
        ax.plot([current], [row["turns"]], "o", markersize=9, markerfacecolor="none", markeredgecolor=mark,
                markeredgewidth=2, label=f"current turn ({current}): " + (
                    f"{row['turns']:,.0f} distinct turns" if row["exact"] else
                    f"about {row['turns']:.3g} distinct turns (estimated)"), zorder=3)
    ax.set_yscale("log")
    ax.set_xlabel("turn of the game (turns played before the position)")
    ax.set_ylabel("distinct turns")
    ax.legend(loc="upper left")
    return ax
