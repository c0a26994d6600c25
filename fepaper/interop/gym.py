"""Paper soccer as a Gymnasium single-agent environment: the agent against a fepaper controller.

``PaperSoccerEnv(rules="thesis", opponent="random", player=1)`` plays ``player`` (1 attacks the
top goal and moves first) one step an action (:mod:`fepaper.interop.actions`: 0-7 a direction
of docs/rules.md, 8 stop on a bounce where allowed); whenever the opponent is to move, the
opponent, any controller of :func:`fepaper.controllers.make` (a spec or a controller), plays its
whole turn. It needs gymnasium (``pip install fepaper[interop]``).

The observation is the tensor of :mod:`fepaper.interop.observation` (``int8``); ``info`` holds
``"action_mask"`` (the legal actions) and ``"moves"`` (the record so far), and
:meth:`PaperSoccerEnv.action_masks` returns the mask too (the method masked learners call).
The reward is +1 / -1 when the game ends (0 for a draw); reaching the rules' turn limit
truncates. ``reset(seed=...)`` reseeds the opponent from the environment's generator, so a
seeded episode replays exactly.

An illegal action raises :class:`~fepaper.interop.actions.IllegalAction` (a ``ValueError``)
naming the action and the position, changing nothing (``illegal="raise"``, the default).
Gymnasium's own contract lets a learner send any action of ``action_space``, and its
``check_env`` sends random ones: with ``illegal="lose"`` an illegal action ends the episode as a
loss instead (reward -1, ``terminated``, ``info["illegal"]`` says why, :attr:`PaperSoccerEnv.result`
the opponent's win by ``"illegal action"``; the game keeps the moves played), the usual
convention for learners that do not mask. Anything but an integer action id 0-8 (a bool, a
float, ``None``), or any action after the end, raises under both.

>>> env = PaperSoccerEnv("standard", opponent={"name": "random"})
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].tolist()
((12, 13, 9), [1, 1, 1, 1, 1, 1, 1, 1, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..controllers import Controller, make
from ..game.game import Game, Result
from ..game.rules import Rules
from . import actions, observation, require

gymnasium = require("gymnasium", "gymnasium", "fepaper.interop.gym")

__all__ = ["PaperSoccerEnv", "ILLEGAL_MODES", "ENV_ID"]

ILLEGAL_MODES = ("raise", "lose")


class PaperSoccerEnv(gymnasium.Env):
    """The agent plays ``player`` against ``opponent``; see the module's docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, rules: Rules | str | dict = "thesis", opponent: dict | str | Controller = "random",
                 player: int = 1, illegal: str = "raise", render_mode: str | None = None) -> None:
        if player not in (1, 2) or isinstance(player, bool):
            raise ValueError(f"player must be 1 or 2, got {player!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, "
                             f"got {render_mode!r}")
        self.rules = Rules.from_spec(rules)
        self.opponent_spec = make(opponent).spec
        self.opponent = make(self.opponent_spec)
        self.player = player
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(0, 1, observation.shape(self.rules), dtype=np.int8)
        self.action_space = gymnasium.spaces.Discrete(actions.N_ACTIONS)
        self.game = Game(self.rules)
        self._planes = observation.PlaneTracker(self.game)
        self._lost: Result | None = None  # the agent's loss by an illegal action (illegal="lose")

    @property
    def result(self) -> Result | None:
        """How the episode ended: the game's result, or the agent's loss by an illegal action."""
        return self._lost or self.game.result

    def _mask(self) -> np.ndarray:
        return np.zeros(actions.N_ACTIONS, np.int8) if self._lost else actions.action_mask(self.game)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as 0/1 (all zeros once the episode is over)."""
        return self._mask().astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "moves": self.game.moves}

    def _play(self, action: int) -> None:
        start = self.game.ball_index
        actions.apply_action(self.game, action)
        self._planes.follow(start, action)

    def _opponent_moves(self) -> None:
        game = self.game
        while game.result is None and game.player != self.player:
            for d in self.opponent.choose_turn(game):
                self._play(int(d))
            if game.current and game.result is None:
                self._play(actions.STOP)

    def _reward(self) -> float:
        winner = self.game.result.winner
        return 0.0 if winner is None else (1.0 if winner == self.player else -1.0)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        opponent_seed = int(self.np_random.integers(2**63 - 1))
        self.opponent = make({**self.opponent_spec, "seed": opponent_seed})
        self.game = Game(self.rules)
        self._planes = observation.PlaneTracker(self.game)
        self._lost = None
        self._opponent_moves()
        return self._planes.array.copy(), self._info()

    def step(self, action):
        game = self.game
        if self._lost is not None:
            raise actions.IllegalAction(f"action {actions.action_name(action)} comes after the end of the "
                                        f"episode ({self._lost}) at {actions.position_text(game)}")
        illegal = None
        if game.result is not None or self.illegal == "raise" or not actions.is_action_id(action):
            self._play(action)
        else:
            try:
                self._play(action)
            except actions.IllegalAction as exc:
                illegal = str(exc)
        if illegal is not None:
            self._lost = Result(3 - self.player, "illegal action")
            info = {**self._info(), "illegal": illegal}
            return self._planes.array.copy(), -1.0, True, False, info
        self._opponent_moves()
        result = game.result
        reward = 0.0 if result is None else self._reward()
        truncated = result is not None and result.reason == "turn limit"
        terminated = result is not None and not truncated
        return self._planes.array.copy(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            return observation.text(self.game)
        return observation.rgb_array(self.game)


#: The id ``gymnasium.make`` knows the environment by (registered when this module is imported).
ENV_ID = "fepaper/PaperSoccer-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=PaperSoccerEnv)
