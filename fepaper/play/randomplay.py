"""Random games, seeded: the positions that benchmarks and measurements sample from.

A random game steps uniformly among the free directions; after a bounce under
optional bounce it stops with probability ``stop_probability``. This is the
"random player" of the complexity measurements, not a controller (those live in
``fepaper.controllers``).
"""

from __future__ import annotations

import numpy as np

from ..game.game import Game
from ..game.rules import Rules

__all__ = ["as_generator", "random_game", "random_positions"]


def as_generator(seed: int | np.random.Generator | None) -> np.random.Generator:
    """``seed`` as a numpy Generator (an int seeds a new one; a Generator passes through)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def random_game(rules: Rules | str | dict = "thesis", seed=None, stop_probability: float = 0.5,
                max_turns: int | None = None) -> Game:
    """Play a random game to its end (or to ``max_turns`` turns) and return it."""
    rng = as_generator(seed)
    game = Game(rules)
    while not game.is_over and (max_turns is None or len(game.history) < max_turns):
        if game.can_stop and rng.random() < stop_probability:
            game.stop()
            continue
        steps = game.legal_steps()
        game.step(steps[rng.integers(len(steps))])
    return game


def random_positions(rules: Rules | str | dict, n_games: int, seed=None, stop_probability=0.5):
    """Every turn-start position of ``n_games`` random games, as move records.

    Returns a list of ``(game index, record)`` where ``record`` replays with
    ``Game(rules, record)``; finished positions are left out.
    """
    rng = as_generator(seed)
    out = []
    for k in range(n_games):
        game = random_game(rules, rng, stop_probability)
        for t in range(len(game.history)):
            record = " ".join(game.history[:t])
            if t < len(game.history) - 1 or not game.is_over:
                out.append((k, record))
    return out
