"""Paper soccer as an OpenSpiel game: ``pyspiel.load_game("python_paper_soccer")``.

Importing this module registers the game (it needs open_spiel: ``pip install
fepaper[interop]``). One action is one step (:mod:`fepaper.interop.actions`): action ``d``
(0-7) steps in direction ``d`` of docs/rules.md, action 8 stops on a bounce where the rules
allow it; through a bounce ``current_player`` stays the same. The state keeps one fepaper
:class:`~fepaper.game.Game` and steps it (``Game.step``: the perft-tested rules); a clone
copies it (``Game.copy``, not the board, which games share).

Why whole turns are not actions: a late position holds up to 10^8 distinct turns, so no fixed
set of turn actions exists and listing them can take seconds; one step at a time there are
at most 9 actions. The cost: fepaper's searches branch over *distinct* turns (two step orders
drawing the same lines are one turn); a search over these actions (OpenSpiel's MCTS, its
minimax) sees each order of a turn as a separate line, a larger tree.

Parameters are the fields of :class:`~fepaper.game.Rules`, with their names and values, over a
``preset`` (default ``"thesis"``). OpenSpiel gives every parameter a value, so a field at its
default here means *the preset's*: ``width``, ``height``, ``goal_width`` 0, ``bounce``,
``blocked``, ``dead_end`` ``""``, ``max_turns`` -1 (0: no limit, as ``None`` in ``Rules``),
and ``middle_line`` ``True`` (``False`` takes the preset's middle line away; for a middle line
on another board, start from ``preset=thesis`` and set the other fields). The game's own
parameters, and so its string, spell every field out.

>>> import pyspiel
>>> game = pyspiel.load_game("python_paper_soccer", {"preset": "standard"})
>>> game.rules.name, game.num_distinct_actions(), game.max_game_length()
('standard', 9, 316)
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3, 4, 5, 6, 7]
>>> state.apply_action(0); state.current_player()
1
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..controllers import Controller, make
from ..game.board import Board
from ..game.game import Game
from ..game.rules import Rules
from . import actions, observation, require

pyspiel = require("pyspiel", "open_spiel", "fepaper.interop.openspiel")
_observation_api = require("open_spiel.python.observation", "open_spiel", "fepaper.interop.openspiel")

__all__ = ["GAME_TYPE", "PARAMETERS", "PaperSoccerGame", "PaperSoccerState", "ControllerBot", "rules_of",
           "parameters", "max_game_length"]

#: The parameters and their defaults ("the preset's"; see the module's docstring).
PARAMETERS = {"preset": "thesis", "width": 0, "height": 0, "goal_width": 0, "middle_line": True,
              "bounce": "", "blocked": "", "dead_end": "", "max_turns": -1}

GAME_TYPE = pyspiel.GameType(
    short_name="python_paper_soccer",
    long_name="Python Paper Soccer (fepaper)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_of(params: dict) -> Rules:
    """The :class:`Rules` of a game's parameters (defaults meaning the preset's).

    Raises
    ------
    ValueError
        Naming the parameter and what it takes (through :class:`Rules`' own checks).
    """
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"unknown python_paper_soccer parameter(s) {unknown}; "
                         f"expected some of {sorted(PARAMETERS)}")
    base = Rules.preset(params.get("preset", PARAMETERS["preset"]))
    fields = {}
    for name in ("width", "height", "goal_width", "bounce", "blocked", "dead_end"):
        value = params.get(name, PARAMETERS[name])
        if value != PARAMETERS[name]:
            fields[name] = value
    if params.get("middle_line", True) is False:
        fields["middle_line"] = False
    max_turns = params.get("max_turns", -1)
    if max_turns != -1:
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 0:
            raise ValueError(f"max_turns must be -1 (the preset's), 0 (no limit) or a positive number "
                             f"of turns, got {max_turns!r}")
        fields["max_turns"] = max_turns or None
    return dataclasses.replace(base, **fields)


def parameters(rules: Rules, preset: str = "thesis") -> dict:
    """The game parameters of ``rules``: every field spelled out, over ``preset`` (a middle line
    needs a preset that has one)."""
    if rules.middle_line and not Rules.preset(preset).middle_line:
        preset = "thesis"
    out = {"preset": preset, **rules.to_dict()}
    out["max_turns"] = rules.max_turns or 0
    return out


def max_game_length(rules: Rules) -> int:
    """The most actions a game can last: each step marks one of the edges free at the start, and
    under optional bounce each stop follows a step."""
    board = Board.of(rules)
    free = board.n_edges - board.n_walls
    return 2 * free if rules.bounce == "optional" else free


class PaperSoccerGame(pyspiel.Game):
    """The OpenSpiel game; ``rules`` is its :class:`Rules`."""

    def __init__(self, params: dict | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        rules = rules_of(params)
        info = pyspiel.GameInfo(num_distinct_actions=actions.N_ACTIONS, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=max_game_length(rules))
        super().__init__(GAME_TYPE, info, parameters(rules, params["preset"]))
        self.rules = rules

    def new_initial_state(self) -> "PaperSoccerState":
        return PaperSoccerState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.rules, params)
        return _observation_api.IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Held:
    """The fepaper game of a state: deep-copied with ``Game.copy`` (the board is shared, as
    boards are immutable) and pickled as its rules and steps (OpenSpiel's serialisation
    pickles a state's attributes). ``loaded``: made from a pickle, to be checked against the
    state that receives it (a clone's copy is set before its history, and needs no check)."""

    __slots__ = ("game", "loaded")

    def __init__(self, game: Game, loaded: bool = False) -> None:
        self.game = game
        self.loaded = loaded

    def __deepcopy__(self, memo) -> "_Held":
        return _Held(self.game.copy())

    def __reduce__(self):
        g = self.game
        return _replay, (g.rules.to_dict(), list(g.history), g.current)


def _replay(rules: dict, history: list[str], current: str) -> _Held:
    game = Game(rules, " ".join(history))
    for d in current:
        game.step(d)
    return _Held(game, loaded=True)


class PaperSoccerState(pyspiel.State):
    """A position; ``game`` is the fepaper :class:`Game` it steps.

    OpenSpiel's serialisation of a Python game's state (``pyspiel.serialize_game_and_state``)
    writes the state's attributes as a pickle, and ``deserialize_game_and_state`` unpickles it:
    only load strings you trust (a pickle can run any code; see docs/interop.md). What this
    class can check, it does: the fepaper game a loaded state holds must be the game's rules
    and exactly the actions of the state's history, else the load is refused (a ``ValueError``
    naming both).
    """

    def __init__(self, game: PaperSoccerGame) -> None:
        super().__init__(game)
        self._held = _Held(Game(game.rules))

    def __setattr__(self, name: str, value) -> None:
        if name == "_held" and getattr(value, "loaded", True):  # set by a load after the history
            self._check_held(value)
        super().__setattr__(name, value)

    def _check_held(self, held) -> None:
        rules = self.get_game().rules
        if not isinstance(held, _Held) or not isinstance(held.game, Game):
            raise ValueError(f"python_paper_soccer state: expected a fepaper game, got {type(held).__name__}")
        if held.game.rules != rules:
            raise ValueError(f"python_paper_soccer state: its game's rules {held.game.rules.to_dict()} are "
                             f"not the game's {rules.to_dict()}")
        replayed = Game(rules)
        for action in self.history():
            actions.apply_action(replayed, action)
        if (held.game.moves, held.game.current) != (replayed.moves, replayed.current):
            raise ValueError(f"python_paper_soccer state: its game's moves {held.game.moves!r} (turn in "
                             f"progress {held.game.current!r}) are not those of its history of actions "
                             f"{self.history()[:40]}: {replayed.moves!r} ({replayed.current!r})")

    @property
    def game(self) -> Game:
        return self._held.game

    def apply_action(self, action) -> None:
        """Play ``action``; anything but an integer id 0-8 (a bool, a float, ``None``, a string,
        2**63) is refused with OpenSpiel's ``SpielError`` naming the action and the position,
        before pybind's conversion (which took ``True`` and ``2.0`` as 1 and 2)."""
        if not actions.is_action_id(action):
            raise pyspiel.SpielError(f"action {action!r} is not an action id: expected an integer 0-7 (a "
                                     f"step in that direction) or {actions.STOP} (stop), at "
                                     f"{actions.position_text(self.game)}")
        super().apply_action(int(action))

    def current_player(self) -> int:
        g = self._held.game
        return pyspiel.PlayerId.TERMINAL if g.result is not None else g.player - 1

    def _legal_actions(self, player: int) -> list[int]:
        return actions.legal_actions(self._held.game)

    def _apply_action(self, action: int) -> None:
        try:
            actions.apply_action(self._held.game, action)
        except actions.IllegalAction as exc:
            raise pyspiel.SpielError(str(exc)) from None

    def _action_to_string(self, player: int, action: int) -> str:
        return actions.action_name(action)

    def is_terminal(self) -> bool:
        return self._held.game.result is not None

    def returns(self) -> list[float]:
        result = self._held.game.result
        if result is None or result.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if result.winner == 1 else [-1.0, 1.0]

    def __str__(self) -> str:
        return observation.text(self._held.game)


class BoardObserver:
    """OpenSpiel's observer: the tensor and text board of :mod:`fepaper.interop.observation`."""

    def __init__(self, rules: Rules, params=None) -> None:
        if params:
            raise ValueError(f"python_paper_soccer's observer takes no parameters, got {params}")
        shape = observation.shape(rules)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: PaperSoccerState, player: int) -> None:
        observation.planes(state.game, out=self.dict["observation"])

    def string_from(self, state: PaperSoccerState, player: int) -> str:
        return observation.text(state.game)


class ControllerBot(pyspiel.Bot):
    """A fepaper controller as an OpenSpiel bot: at the start of each of its turns it chooses a
    whole turn (``Controller.choose_turn``), then plays it one action at a time, stopping after a
    last bounce when the turn ends there.

    ``controller`` is a controller or a spec of :func:`fepaper.controllers.make`.
    """

    def __init__(self, controller: Controller | dict | str) -> None:
        pyspiel.Bot.__init__(self)
        self.controller = make(controller)
        self._turn: tuple[int, str] | None = None  # (turns played before it, its steps)

    def restart_at(self, state) -> None:
        self._turn = None

    def inform_action(self, state, player_id: int, action: int) -> None:
        pass

    def step(self, state) -> int:
        game = state.game
        if game.result is not None:
            raise ValueError(f"{self.controller.name}: no action after {actions.position_text(game)}")
        if not game.current:
            self._turn = (len(game.history), self.controller.choose_turn(game))
        played = len(game.history)
        if self._turn is None or self._turn[0] != played or not self._turn[1].startswith(game.current):
            raise ValueError(f"{self.controller.name} did not start the turn in progress at "
                             f"{actions.position_text(game)}: a controller chooses whole turns")
        turn = self._turn[1]
        return int(turn[len(game.current)]) if len(game.current) < len(turn) else actions.STOP


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, PaperSoccerGame)
