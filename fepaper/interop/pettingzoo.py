"""Paper soccer as a PettingZoo AEC environment, ``paper_soccer_v0``.

``env(rules="thesis", render_mode=None)`` builds it (wrapped in PettingZoo's order
enforcement, as the classic environments are); ``raw_env`` is the class. It needs pettingzoo
(``pip install fepaper[interop]``).

Agents ``player_1`` (attacks the top goal, moves first) and ``player_2``. One action is one step
(:mod:`fepaper.interop.actions`: 0-7 a direction of docs/rules.md, 8 stop on a bounce where
allowed), so ``agent_selection`` stays on the same agent through a bounce. An observation is a
dict: ``"observation"``, the planes of :mod:`fepaper.interop.observation` (``int8``), and
``"action_mask"``, the legal actions of the agent to move (all zeros for the other agent).
Rewards are +1 / -1 at the end (0 for a draw); a game that reaches the rules' turn limit is
truncated, not terminated. ``render_mode="ansi"`` returns the text board, ``"rgb_array"`` the
picture of :func:`fepaper.game.render.draw`. An illegal action, or an action other than ``None``
after the end, raises :class:`~fepaper.interop.actions.IllegalAction` (a ``ValueError``)
naming the action and the position, and changes nothing.

Why one step and not one turn an action, and what that costs: :mod:`fepaper.interop`.

>>> environment = env(rules="standard")
>>> environment.reset(seed=1)
>>> environment.agent_selection, environment.observe("player_1")["action_mask"].tolist()
('player_1', [1, 1, 1, 1, 1, 1, 1, 1, 0])
"""

from __future__ import annotations

import numpy as np

from ..game.game import Game
from ..game.rules import Rules
from . import actions, observation, require

_pz = require("pettingzoo", "pettingzoo", "fepaper.interop.pettingzoo")
_spaces = require("gymnasium.spaces", "gymnasium", "fepaper.interop.pettingzoo")
_wrappers = require("pettingzoo.utils.wrappers", "pettingzoo", "fepaper.interop.pettingzoo")
_logger = require("gymnasium.logger", "gymnasium", "fepaper.interop.pettingzoo")

__all__ = ["env", "raw_env", "AGENTS"]

AGENTS = ("player_1", "player_2")


class raw_env(_pz.AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The environment without PettingZoo's order-enforcing wrapper."""

    metadata = {"name": "paper_soccer_v0", "render_modes": ["ansi", "rgb_array"], "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, rules: Rules | str | dict = "thesis", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, "
                             f"got {render_mode!r}")
        self.rules = Rules.from_spec(rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        space = _spaces.Dict({
            "observation": _spaces.Box(0, 1, observation.shape(self.rules), dtype=np.int8),
            "action_mask": _spaces.Box(0, 1, (actions.N_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: _spaces.Discrete(actions.N_ACTIONS) for a in AGENTS}
        self.game = Game(self.rules)
        self._planes = observation.PlaneTracker(self.game)

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.game = Game(self.rules)
        self._planes = observation.PlaneTracker(self.game)
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observe(self, agent: str) -> dict:
        game = self.game
        if agent == AGENTS[game.player - 1]:
            mask = actions.action_mask(game)
        else:
            mask = np.zeros(actions.N_ACTIONS, dtype=np.int8)
        return {"observation": self._planes.array.copy(), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if not self.agents or self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise actions.IllegalAction(f"{agent}'s action {actions.action_name(action)} comes after "
                                            f"{actions.position_text(self.game)}; after the end the only "
                                            "action is None")
            return self._was_dead_step(action)
        game = self.game
        start = game.ball_index
        actions.apply_action(game, action)
        self._planes.follow(start, int(action))
        self._cumulative_rewards[agent] = 0
        result = game.result
        if result is not None:
            if result.reason == "turn limit":
                self.truncations = {a: True for a in AGENTS}
            else:
                self.terminations = {a: True for a in AGENTS}
            if result.winner is not None:
                self.rewards = {a: (1 if k + 1 == result.winner else -1) for k, a in enumerate(AGENTS)}
        self.agent_selection = AGENTS[game.player - 1]
        self._accumulate_rewards()

    def last(self, observe: bool = True):
        """As PettingZoo's, and after the end too: once every agent has taken its dead step (and
        left the dicts), the agent selected last, the game's end, reward 0 (already reported)."""
        agent = self.agent_selection
        if agent in self._cumulative_rewards:
            return super().last(observe)
        result = self.game.result
        truncated = result is not None and result.reason == "turn limit"
        return self.observe(agent) if observe else None, 0, not truncated, truncated, {}

    def render(self):
        if self.render_mode is None:
            _logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            return observation.text(self.game)
        return observation.rgb_array(self.game)

    def close(self) -> None:
        pass


class _OrderEnforcing(_wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcement, whose ``last()`` is the environment's (PettingZoo's own
    reads the wrapper's dicts, from which the agents are gone after the end: a ``KeyError``)."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's error before reset
        return self.env.last(observe)


def env(rules: Rules | str | dict = "thesis", render_mode: str | None = None):
    """``paper_soccer_v0``: :class:`raw_env` wrapped in PettingZoo's order enforcement."""
    return _OrderEnforcing(raw_env(rules, render_mode))
