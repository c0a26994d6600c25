"""Play Aboyne in a notebook against any of the reference searches: :class:`AboyneWidget`.

The board is drawn (:func:`fepaper.games.aboyne_draw.svg`); a click on one of the mover's
stones selects it and rings the cells it can reach, a click on one of those plays the move.
Each side is a person or a search of :mod:`fepaper.search.reference`: ``"minimax"`` or ``"alpha-beta"``
(depth and heuristic of the Aboyne report from the controls, a random one of the best moves),
``"MCTS"`` (iterations from the controls) or ``"random"``. As the paper-soccer
:class:`~fepaper.notebook.widgets.BoardWidget`, every click is a method
(:meth:`AboyneWidget.click_cell`, :meth:`~AboyneWidget.move`, :meth:`~AboyneWidget.undo`,
:meth:`~AboyneWidget.run_computers`), so it is tested without a front end; clicks on the
picture need the optional package ``ipyevents``, and without it a move can be typed.

Examples
--------
>>> w = AboyneWidget("human", "alpha-beta", depth=1)
>>> w.click_cell("e2")
True
>>> sorted(w.targets_text())
['d2', 'e3', 'f3']
>>> w.click_cell("e3")
True
>>> len(w.game.history)  # red's move, then the search's answer for blue
2
>>> w.click_cell("e1")
False
>>> w.message.value
"e1 holds no red stone: click one of red's stones"
"""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as W

from ..games.aboyne import HEURISTICS, NAMES, PLAYER_NAMES, Aboyne, cell_index, report_score
from ..games.aboyne_draw import cell_at, svg
from ..search.reference import alphabeta, mcts, minimax
from .compare import TextLine
from .widgets import _board_events

__all__ = ["AboyneWidget", "PLAYERS"]

#: Who can play a side.
PLAYERS = ("human", "minimax", "alpha-beta", "MCTS", "random")


class AboyneWidget:
    """Play Aboyne: a person against a search, two people, or two searches.

    Parameters
    ----------
    red, blue : str
        Who plays each side, one of :data:`PLAYERS` (red moves first).
    depth : int
        Plies searched by minimax and alpha-beta.
    heuristic : str
        Their evaluation, a key of :data:`fepaper.games.aboyne.HEURISTICS`.
    iterations : int
        MCTS iterations per move.
    seed : int
        Seeds the searches' choices among equal moves, MCTS and random play.
    moves : str
        A record to start from.
    max_plies : int
        Moves after which the game is drawn (searches and playouts need an end).
    size : int, optional
        Width of the board picture in pixels.
    """

    def __init__(self, red: str = "human", blue: str = "alpha-beta", *, depth: int = 2,
                 heuristic: str = "report 1", iterations: int = 300, seed: int = 0, moves: str = "",
                 max_plies: int = 200, size: int | None = None) -> None:
        for side, who in (("red", red), ("blue", blue)):
            if who not in PLAYERS:
                raise ValueError(f"{side} must be one of {PLAYERS}, got {who!r}")
        if heuristic not in HEURISTICS:
            raise ValueError(f"heuristic must be one of {sorted(HEURISTICS)}, got {heuristic!r}")
        self.size, self.max_plies = size, max_plies
        self.rng = random.Random(seed)
        self.game = Aboyne(moves, max_plies=max_plies)
        self.selected: int | None = None
        self.board = W.HTML()
        self.board.add_class("fepaper-aboyne-board")
        self._events = _board_events(self.board, self._on_board_click)
        self.message = TextLine(value="", layout=W.Layout(max_width="420px"))
        self.message.add_class("fepaper-message")
        self.moves_label = TextLine(value="", layout=W.Layout(max_width="420px", max_height="6.5em",
                                                               overflow="auto"))
        self.moves_label.add_class("fepaper-moves")
        self.status_label = W.Label(value="")
        self.players = {0: W.Dropdown(options=PLAYERS, value=red, description="red"),
                        1: W.Dropdown(options=PLAYERS, value=blue, description="blue")}
        self.depth = W.IntSlider(value=depth, min=1, max=4, description="depth")
        self.heuristic = W.Dropdown(options=sorted(HEURISTICS), value=heuristic, description="heuristic")
        self.iterations = W.BoundedIntText(value=iterations, min=1, max=100_000, description="MCTS iter.")
        self.typed = W.Text(placeholder="or type a move, e.g. e2-e3", continuous_update=False)
        self.typed.observe(lambda change: self.move(change["new"]) if change["new"] else None, "value")
        self.new_game_button = W.Button(description="new game")
        self.undo_button = W.Button(description="undo", tooltip="take back your last move")
        self.go_button = W.Button(description="▶", tooltip="let the search to move play")
        self.new_game_button.on_click(lambda _: self.new_game())
        self.undo_button.on_click(lambda _: self.undo())
        self.go_button.on_click(lambda _: self.run_computers())
        for picker in self.players.values():
            picker.observe(lambda _: self._refresh(), "value")
        side = W.VBox([self.status_label, self.moves_label, self.typed,
                       W.HBox([self.new_game_button, self.undo_button, self.go_button]), self.message,
                       self.players[0], self.players[1], self.depth, self.heuristic, self.iterations],
                      layout=W.Layout(margin="0 0 0 12px"))
        self.box = W.HBox([self.board, side])
        self.box.add_class("fepaper-aboyne-widget")
        self._refresh()

    # -- who plays ---------------------------------------------------------------------------
    def is_human(self, player: int) -> bool:
        return self.players[player].value == "human"

    def choose(self) -> int:
        """The action the search of the side to move picks."""
        g = self.game
        p = g.current_player()
        kind = self.players[p].value
        weights = HEURISTICS[self.heuristic.value]

        def evaluate(state, player):
            return report_score(state, player, weights)

        if kind == "minimax":
            return self.rng.choice(minimax(g, self.depth.value, p, evaluate).details["best"])
        if kind == "alpha-beta":
            return self.rng.choice(alphabeta(g, self.depth.value, p, evaluate).details["best"])
        if kind == "MCTS":
            return mcts(g, self.iterations.value, p, seed=self.rng.randrange(2**31)).turn
        if kind == "random":
            return self.rng.choice(g.legal_actions())
        raise ValueError(f"{PLAYER_NAMES[p]} is played by a person")

    # -- actions -----------------------------------------------------------------------------
    def new_game(self) -> None:
        """Start from the beginning; a search playing red moves at once."""
        self.game = Aboyne(max_plies=self.max_plies)
        self.selected = None
        self.message.value = ""
        self.run_computers()

    def targets_text(self) -> list[str]:
        """The names of the cells the selected stone can reach."""
        return [] if self.selected is None else [NAMES[c] for c in self.game.targets(self.selected)]

    def click_cell(self, cell: Any) -> bool:
        """A person clicks ``cell`` (a name or an index): one of the mover's stones is selected and
        its targets ringed; a ringed cell receives the selected stone. Returns whether it did
        something; otherwise :attr:`message` says why."""
        g = self.game
        try:
            c = cell_index(cell)
        except ValueError as exc:
            self.message.value = str(exc)
            return False
        if g.is_terminal():
            self.message.value = f"the game is over: {g.result_text()}"
            return False
        p = g.current_player()
        if not self.is_human(p):
            self.message.value = f"it is {PLAYER_NAMES[p]}'s move ({self.players[p].value}): press ▶"
            return False
        if self.selected is not None and c in g.targets(self.selected):
            return self._play(self.selected * 61 + c)
        if g.stones[p] >> c & 1:
            self.selected = c
            targets = self.targets_text()
            if targets:
                self.message.value = f"the stone on {NAMES[c]} can go to {', '.join(targets)}"
            else:
                self.message.value = f"the stone on {NAMES[c]} cannot move: {self._why_stuck(c)}"
            self._refresh()
            return True
        if self.selected is not None:
            why = g.why_illegal(self.selected * 61 + c)
            self.message.value = f"{NAMES[self.selected]}-{NAMES[c]} is illegal: {why}"
        else:
            self.message.value = f"{NAMES[c]} holds no {PLAYER_NAMES[p]} stone: click one of " \
                                 f"{PLAYER_NAMES[p]}'s stones"
        return False

    def _why_stuck(self, c: int) -> str:
        g = self.game
        if c in g.blocked(g.current_player()):
            return "it is blocked (next to an enemy stone)"
        return "every cell next to it is taken or barred"

    def move(self, text: str) -> bool:
        """A person plays a move typed as text (``"e2-e3"``); errors go to :attr:`message`."""
        g = self.game
        if g.is_terminal() or not self.is_human(g.current_player()):
            self.message.value = f"no move to type: {g.result_text()}"
            return False
        try:
            action = g.string_to_action(text)
        except ValueError as exc:
            self.message.value = str(exc)
            return False
        if action not in g.legal_actions():
            self.message.value = f"{text.strip()} is illegal: {g.why_illegal(action)}"
            return False
        return self._play(action)

    def _play(self, action: int) -> bool:
        g = self.game
        mover = PLAYER_NAMES[g.current_player()]
        g.apply_action(action)
        self.selected = None
        self.message.value = f"{mover} played {g.action_to_string(action)}"
        self.run_computers()
        return True

    def run_computers(self) -> None:
        """Let the searches play while one is to move."""
        g = self.game
        while not g.is_terminal() and not self.is_human(g.current_player()):
            p = g.current_player()
            action = self.choose()
            g.apply_action(action)
            played = g.action_to_string(action)
            self.message.value = f"{PLAYER_NAMES[p]} ({self.players[p].value}) played {played}"
        if g.is_terminal():
            self.message.value += f"; game over: {g.result_text()}"
        self._refresh()

    def undo(self) -> bool:
        """Take back the last move, and the searches' moves after it, back to a person's turn."""
        history = self.game.moves.split()
        if not history:
            self.message.value = "nothing to undo"
            return False
        history.pop()
        while history and not self.is_human(len(history) % 2):
            history.pop()
        self.game = Aboyne(" ".join(history), max_plies=self.max_plies)
        self.selected = None
        self.message.value = f"took back to move {len(history)}"
        self._refresh()
        return True

    def _on_board_click(self, event: dict) -> None:
        cell = cell_at(event.get("relativeX", -1), event.get("relativeY", -1), self.size)
        if cell is not None:
            self.click_cell(cell)

    # -- drawing -----------------------------------------------------------------------------
    def _refresh(self) -> None:
        g = self.game
        targets = [] if self.selected is None else g.targets(self.selected)
        picture = svg(g, selected=self.selected, targets=targets, size=self.size)
        self.board.value = picture
        self.board.layout.width = picture.split('width="', 1)[1].split('"', 1)[0] + "px"
        self.moves_label.value = g.moves
        if g.is_terminal():
            self.status_label.value = f"game over: {g.result_text()}"
        else:
            p = g.current_player()
            self.status_label.value = f"{PLAYER_NAMES[p]} ({self.players[p].value}) to move, " \
                                      f"move {len(g.history) + 1}"
        self.go_button.disabled = g.is_terminal() or self.is_human(g.current_player())
        self.undo_button.disabled = not g.history

    def snapshot_html(self) -> str:
        """The widget's state as static HTML: what the report shows where no kernel runs it."""
        lines = "".join(f'<p style="margin: 2px 0">{line}</p>' for line in
                        (self.status_label.value, f"record: {self.moves_label.value or '(no moves yet)'}",
                         self.message.value) if line)
        return (f'<div class="fepaper-snapshot" style="display: flex; gap: 16px; align-items: flex-start">'
                f'<div>{self.board.value}</div><div style="max-width: 420px; font-size: 13px">{lines}'
                "<p><i>(a snapshot of the widget: run the notebook to use it)</i></p></div></div>")

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.box._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.snapshot_html()
        return bundle
