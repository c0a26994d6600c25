"""Notebook widgets: play against a controller, replay a record, explore the branching.

The thesis's Java program had a board to play on and an options window ("colour of
the board and level of each player", its class ``Opciones``). Here the same is a set
of ipywidgets: :class:`BoardWidget` (a person plays against any controller spec, or
watches two controllers), in :mod:`fepaper.notebook.replay` :class:`ReplayWidget` (a record
stepped through with sliders) and, in :mod:`fepaper.notebook.compare`,
:class:`CompareWidget` (a match between two specs). Both board widgets show, at the position on the board, the
number of distinct turns, a heat map of how many of them end at each node, the end
nodes ringed when few (by each ring, how many turns end there), and the bounce depth
(steps so far in the turn being played); playing a turn shows the same for the next
position. A position with too many turns to count says so and shows an estimate of the
count with its 95 % interval.

Everything a click does is a method (:meth:`BoardWidget.click_step`,
:meth:`BoardWidget.click_node`, :meth:`BoardWidget.stop`, :meth:`BoardWidget.undo`,
:meth:`~fepaper.notebook.replay.ReplayWidget.set_record`, ...) and the state is readable
from the widgets' values, so the widgets are tested without a front end. Clicks on the board picture
itself need the optional package ``ipyevents``; without it the direction pad does
everything.

Examples
--------
>>> w = BoardWidget("standard", player2={"name": "random", "seed": 1}, delay=0)
>>> w.click_step(0)
True
>>> w.game.history[0], w.game.player
('0', 1)
>>> w.click_step(9)
False
>>> w.message.value
'illegal step: 9 is not a direction: expected a digit 0 (up) to 7 (up-left), clockwise'
"""

from __future__ import annotations

import html
import json
import time
from typing import Any

import ipywidgets as W

from ..controllers import Controller, SpecError
from ..game.board import DIRECTION_NAMES, NO_NODE
from ..game.game import Game, IllegalStep
from ..game.render import SQUARE
from .boardview import BoardView
from .branching import Branching, branching
from .compare import HUMAN, PlayerPicker, RulesPicker

__all__ = ["Branching", "branching", "BoardWidget", "ARROWS"]

#: The label of each direction's button (0 up, then clockwise).
ARROWS = ("↑", "↗", "→", "↘", "↓", "↙", "←", "↖")
_PAD = ((7, 0, 1), (6, None, 2), (5, 4, 3))  # the 3 x 3 pad; None is the stop button


def _board_events(board: W.HTML, handler):
    """Clicks on the picture, if the optional package ipyevents is installed."""
    try:
        from ipyevents import Event
    except ImportError:
        return None
    event = Event(source=board, watched_events=["click"], prevent_default_action=True)
    event.on_dom_event(handler)
    return event


def _node_at(game: Game, px: float, py: float, size: int | None) -> tuple[int, int] | None:
    """The node drawn under pixel ``(px, py)`` of :func:`fepaper.game.render.svg` (with coordinates),
    or ``None`` if no node is within 0.4 of a square."""
    pad = 0.9 * SQUARE  # render.svg's margin when it labels the coordinates
    scale = 1.0 if size is None else (game.rules.width * SQUARE + 2 * pad) / size
    fx, fy = (px * scale - pad) / SQUARE, (py * scale - pad) / SQUARE - 1
    node = (round(fx), round(fy))
    if (fx - node[0]) ** 2 + (fy - node[1]) ** 2 > 0.16 or node not in game.board.index:
        return None
    return node


class BoardWidget(BoardView):
    """Play a game: a person against a controller, two people, or two controllers.

    Parameters
    ----------
    rules : Rules, str or dict
        The initial rules (anything :meth:`Rules.from_spec` accepts).
    player1, player2 : "human", str, dict or Controller
        Who plays each side: ``"human"`` or a controller spec (player 1 kicks off
        and attacks the top goal).
    moves : str
        A record of whole turns to start from (e.g. a position found with
        :class:`ReplayWidget`); "new game" starts from the kick-off.
    delay : float
        Seconds between the steps of a controller's turn as it is drawn (0 in tests).
    size : int, optional
        Width of the board picture in pixels.
    draw_cap, max_states : int
        Passed to :func:`branching`.

    Notes
    -----
    Controls: a 3 x 3 pad of arrows (disabled where the step is illegal) with "stop
    here" in its centre (enabled only after a bounce under optional bounce), undo
    (your last step and the reply after it), undo turn, new game, and "▶" that lets a
    controller to move play. Changing the rules starts a new game; changing a player
    takes effect at that player's next turn. A controller answers as soon as a
    person's turn ends; a controller playing player 1 kicks off on "new game" or "▶"
    (not when the widget is built, before it is on screen).
    """

    def __init__(self, rules: Any = "thesis", player1: Any = HUMAN, player2: Any = "random", *,
                 moves: str = "", delay: float = 0.25, size: int | None = None, draw_cap: int = 5_000,
                 max_states: int = 200_000) -> None:
        super().__init__(size, draw_cap, max_states)
        self._events = _board_events(self.board, self._on_board_click)
        self.delay = delay
        self.rules_picker = RulesPicker(rules)
        self.players = {1: PlayerPicker(player1, "player 1"), 2: PlayerPicker(player2, "player 2")}
        self._controllers: dict[int, tuple[str, Controller] | None] = {1: None, 2: None}
        self.status_label = W.Label(value="")
        self.pad: dict[int, W.Button] = {}
        cells = []
        for row in _PAD:
            for d in row:
                if d is None:
                    button = self.stop_button = W.Button(description="●", tooltip="stop here")
                    button.on_click(lambda _: self.stop())
                    button.add_class("fepaper-stop")
                else:
                    button = self.pad[d] = W.Button(description=ARROWS[d],
                                                    tooltip=f"{d} {DIRECTION_NAMES[d]}")
                    button.on_click(lambda _, d=d: self.click_step(d))
                    button.add_class(f"fepaper-step-{d}")
                button.layout = W.Layout(width="44px", height="36px")
                cells.append(button)
        self.undo_button = W.Button(description="undo", tooltip="take back your last step")
        self.undo_turn_button = W.Button(description="undo turn", tooltip="take back your last turn")
        self.new_game_button = W.Button(description="new game")
        self.go_button = W.Button(description="▶", tooltip="let the controller to move play")
        self.undo_button.on_click(lambda _: self.undo())
        self.undo_turn_button.on_click(lambda _: self.undo_turn())
        self.new_game_button.on_click(lambda _: self.new_game())
        self.go_button.on_click(lambda _: self.run_controllers())
        for button in (self.undo_button, self.undo_turn_button, self.new_game_button, self.go_button):
            button.layout = W.Layout(width="auto")
        self.rules_picker.observe(self.new_game)
        for player, picker in self.players.items():
            picker.observe(lambda player=player: self._player_changed(player))
        grid = W.GridBox(cells, layout=W.Layout(grid_template_columns="repeat(3, 46px)"))
        side = W.VBox([self.status_label, self.moves_label, grid,
                       W.HBox([self.undo_button, self.undo_turn_button]),
                       W.HBox([self.new_game_button, self.go_button]),
                       self.message, self.turn_count_label, self.depth_label, self.show_turns,
                       self.preview.box],
                      layout=W.Layout(margin="0 0 0 12px"))
        options = self.options = W.Accordion([W.VBox([self.rules_picker.box, self.players[1].box,
                                                       self.players[2].box])])
        options.set_title(0, "options: board and players")
        self.box = W.VBox([options, W.HBox([self.board, side])])
        self.box.add_class("fepaper-board-widget")
        self.new_game(run=False)
        if moves:
            self.game.play(moves)
            self._refresh()

    # -- who plays -------------------------------------------------------------------------
    def is_human(self, player: int) -> bool:
        return self.players[player].is_human

    def _label(self, player: int) -> str:
        picker = self.players[player]
        return HUMAN if picker.is_human else picker.name.value

    def _controller(self, player: int) -> Controller:
        """The controller of ``player``, rebuilt when its spec changed; raises SpecError."""
        spec = self.players[player].spec
        key = json.dumps(spec, sort_keys=True)
        cached = self._controllers[player]
        if cached is None or cached[0] != key:
            self._controllers[player] = (key, self.players[player].controller())
        return self._controllers[player][1]

    def _player_changed(self, player: int) -> None:
        self._controllers[player] = None
        try:
            self.players[player].controller()  # a bad spec is also explained under its field
        except SpecError as exc:
            self.message.value = str(exc)
        else:
            self.message.value = f"player {player} is now {self._label(player)}"
        self._refresh()

    def _snapshot_lines(self) -> list[str]:
        record = html.escape(self.game.moves) or "(no moves yet)"
        return [self.status_label.value, f"record: {record}", *super()._snapshot_lines()]

    # -- actions -----------------------------------------------------------------------------
    def new_game(self, run: bool = True) -> None:
        """Start a game with the rules of the controls; a controller kicking off plays if ``run``."""
        self.game = Game(self.rules_picker.rules)
        self.message.value = ""
        self._refresh()
        if run:
            self.run_controllers()

    def click_step(self, d: Any) -> bool:
        """A person steps in direction ``d``; returns whether the step was applied.

        An illegal step is explained in :attr:`message` and not applied.
        """
        g = self.game
        if g.is_over:
            self.message.value = f"the game is over: {g.result}"
            return False
        if not self.is_human(g.player):
            self.message.value = f"it is player {g.player}'s turn ({self._label(g.player)}): press ▶"
            return False
        why = g.explain_step(d)
        if why is not None:
            self.message.value = f"illegal step: {why}"
            return False
        mover = g.player
        g.step(d)
        self.message.value = f"player {mover} stepped {ARROWS[int(d)]} to {g.ball}"
        self._after_human()
        return True

    def click_node(self, node) -> bool:
        """A person clicks a node: a neighbour of the ball steps there; the ball itself stops."""
        g = self.game
        node = (int(node[0]), int(node[1]))
        if node not in g.board.index:
            self.message.value = f"{node} is not a node of the {g.rules} board"
            return False
        if node == g.ball and g.can_stop:
            return self.stop()
        target = g.board.index[node]
        for d in range(8):
            if g.board.neighbour[g.ball_index, d] == target != NO_NODE:
                return self.click_step(d)
        self.message.value = f"{node} is not next to the ball at {g.ball}: click one of the nodes around it"
        return False

    def _on_board_click(self, event: dict) -> None:
        """A click on the picture (ipyevents): the node under the pointer, if any."""
        node = _node_at(self.game, event.get("relativeX", -1), event.get("relativeY", -1), self.size)
        if node is not None:
            self.click_node(node)

    def stop(self) -> bool:
        """A person stops the turn on a bounce (only under optional bounce, after a bounce)."""
        g = self.game
        if not g.is_over and not self.is_human(g.player):
            self.message.value = f"it is player {g.player}'s turn ({self._label(g.player)})"
            return False
        mover = g.player
        try:
            g.stop()
        except IllegalStep as exc:
            self.message.value = f"cannot stop: {exc}"
            return False
        self.message.value = f"player {mover} stopped at {g.ball}"
        self._after_human()
        return True

    def _after_human(self) -> None:
        self._refresh()
        g = self.game
        if g.is_over:
            self.message.value = f"game over: {g.result}"
        elif not g.current:
            self.run_controllers()

    def run_controllers(self) -> None:
        """Let controllers play while one is to move, drawing each step after :attr:`delay`."""
        g = self.game
        while not g.is_over and not self.is_human(g.player):
            player = g.player
            try:
                controller = self._controller(player)
            except SpecError as exc:
                self.message.value = f"{exc} (see the options)"
                self.options.selected_index = 0  # open them: the reason is under the field
                break
            self.message.value = f"player {player} ({self._label(player)}) is thinking…"
            turn = controller.choose_turn(g.copy())
            start = len(g.history)
            try:
                for c in turn:
                    g.step(c)
                    if self.delay:
                        self.redraw(explore=False)
                        time.sleep(self.delay)
                if len(g.history) == start:
                    g.stop()
            except IllegalStep as exc:
                while len(g.history) > start or g.current:
                    g.undo()
                self.message.value = f"player {player} ({self._label(player)}) played an illegal turn " \
                                     f"{turn!r}: {exc}"
                break
            self.message.value = f"player {player} ({self._label(player)}) played {turn}"
        if g.is_over:
            self.message.value = f"game over: {g.result}"
        self._refresh()

    def undo(self) -> bool:
        """Take back the last step, and the controllers' steps after it."""
        return self._take_back(self.game.undo)

    def undo_turn(self) -> bool:
        """Take back the turn in progress (or the last turn), and the controllers' turns after it."""
        return self._take_back(self.game.undo_turn)

    def _take_back(self, once) -> bool:
        g = self.game
        if not g.moves:
            self.message.value = "nothing to undo"
            return False
        once()
        if self.is_human(1) or self.is_human(2):
            while g.moves and not self.is_human(g.player):
                once()
        self.message.value = f"took back to {g.moves!r}" if g.moves else "took back to the kick-off"
        if not g.is_over and not self.is_human(g.player):
            self.message.value += f"; player {g.player} ({self._label(g.player)}) to move: press ▶"
        self._refresh()
        return True

    # -- drawing -----------------------------------------------------------------------------
    def _refresh(self) -> None:
        self.redraw()
        g = self.game
        human = not g.is_over and self.is_human(g.player)
        legal = set(g.legal_steps())
        for d, button in self.pad.items():
            button.disabled = not (human and d in legal)
        can_stop = human and g.can_stop
        # Enabled, the stop button is coloured, not only a shade darker than when disabled.
        self.stop_button.disabled = not can_stop
        self.stop_button.button_style = "warning" if can_stop else ""
        self.stop_button.tooltip = ("stop here: you bounced and may end your turn" if can_stop
                                    else "stop: only after a bounce, under optional bounce")
        self.undo_button.disabled = self.undo_turn_button.disabled = not g.moves
        self.go_button.disabled = g.is_over or self.is_human(g.player)
        if g.is_over:
            self.status_label.value = f"game over: {g.result}"
        else:
            who = f"player {g.player} ({self._label(g.player)}) to move, turn {g.turn_number}"
            if g.can_stop:
                who += ": bounced, may stop"
            elif g.current:
                who += ": bounced, must step again"
            self.status_label.value = who
