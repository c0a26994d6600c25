"""What the adapters of :mod:`fepaper.interop` cost: random-play steps per second through
OpenSpiel, through PettingZoo and through fepaper's own :class:`~fepaper.game.Game`.

The same seeded random games are played three ways, each action drawn uniformly among the legal
ones (a stop after a bounce, where allowed, is one of them) with the same generator, so the three
play the same steps (``steps`` is checked equal): through ``pyspiel`` states
(``legal_actions``, ``apply_action``: what OpenSpiel's random simulations and MCTS rollouts do),
through the PettingZoo environment's usual loop (``last()``, which builds the observation
tensor and the action mask every step, then ``step``), and on a ``Game`` (``legal_steps``,
``can_stop``, ``step``/``stop``). Each rate is a median over ``repeat`` runs. A run plays the
three ways one after the other, and each ratio (an adapter's rate over ``Game``'s) is the median
over the runs of that run's ratio, so a load that changes from run to run moves both sides of
it alike. Needs the ``interop`` extra.
"""

from __future__ import annotations

import time

import numpy as np

from ..game.game import Game
from ..game.rules import Rules
from ..interop.actions import STOP
from ..play.states import RandomStatePlayer, play_state

__all__ = ["bench_interop"]


def _game_play(rules: Rules, seeds: list[int]) -> int:
    steps = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        game = Game(rules)
        while game.result is None:
            legal = game.legal_steps()
            if game.can_stop:
                legal.append(STOP)
            a = legal[rng.integers(len(legal))]
            game.stop() if a == STOP else game.step(a)
            steps += 1
    return steps


def _openspiel_play(spiel_game, seeds: list[int]) -> int:
    steps = 0
    for seed in seeds:
        player = RandomStatePlayer(np.random.default_rng(seed))
        steps += play_state(spiel_game.new_initial_state(), {0: player, 1: player})
    return steps


def _pettingzoo_play(env, seeds: list[int]) -> int:
    steps = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps


def bench_interop(repeat: int = 7, games: int = 100, seed: int = 2026, rules="thesis") -> dict:
    """Random-play steps per second through OpenSpiel, PettingZoo and ``Game``, and the ratios.

    Parameters
    ----------
    repeat : int
        Runs per figure (the median is reported).
    games : int
        Random games per run (the same seeded games each way).
    seed : int
        Seeds the games (game ``k`` uses ``[seed, k]``).
    rules : str, dict or Rules
        The rules (the thesis's by default).
    """
    from ..interop import openspiel as spiel_adapter
    from ..interop import pettingzoo as pz_adapter

    if repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {repeat}")
    rules = Rules.from_spec(rules)
    seeds = [int(np.random.SeedSequence([seed, k]).generate_state(1)[0]) for k in range(games)]
    spiel_game = spiel_adapter.pyspiel.load_game("python_paper_soccer", spiel_adapter.parameters(rules))
    env = pz_adapter.env(rules)
    ways = {"game": lambda: _game_play(rules, seeds), "openspiel": lambda: _openspiel_play(spiel_game, seeds),
            "pettingzoo": lambda: _pettingzoo_play(env, seeds)}
    for play in ways.values():  # warm up: boards, layouts, the frameworks' first calls
        play()
    seconds: dict[str, list[float]] = {name: [] for name in ways}
    steps: dict[str, int] = {}
    for _ in range(repeat):
        for name, play in ways.items():  # interleaved, so a load change hits all three alike
            start = time.perf_counter()
            steps[name] = play()
            seconds[name].append(time.perf_counter() - start)
    if len(set(steps.values())) != 1:
        raise RuntimeError(f"the three ways played different games: steps {steps}")
    rate = {name: steps["game"] / float(np.median(s)) for name, s in seconds.items()}
    # each ratio from the runs made side by side (one repeat), then the median over the repeats:
    # a load that changes between repeats moves both sides of a ratio alike
    game = np.asarray(seconds["game"])
    ratio = {name: float(np.median(game / np.asarray(seconds[name]))) for name in ("openspiel", "pettingzoo")}
    return {
        "rules": str(rules),
        "games": games,
        "steps": steps["game"],
        "game_steps_per_s": rate["game"],
        "openspiel_steps_per_s": rate["openspiel"],
        "pettingzoo_steps_per_s": rate["pettingzoo"],
        "openspiel_over_game": ratio["openspiel"],
        "pettingzoo_over_game": ratio["pettingzoo"],
    }
