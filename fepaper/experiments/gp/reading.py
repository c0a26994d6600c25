"""Reading an evolved evaluation: what it values, feature by feature, on positions of real games.

A tree is a cost over the features of :mod:`fepaper._core.programs`; the thesis's distance is the tree
``attack`` (one unit of cost per step from the goal, nothing else). :func:`feature_samples` measures
the features at the turn starts of seeded random games (for the player to move), and
:func:`feature_effects` reads a tree on them: for each feature, the mean change of the tree's cost
when that feature alone grows by one (a finite difference over the sampled positions), and how
often the change is not zero. A feature the distance ignores and the tree does not is what the
evolved evaluation values that the distance does not.

Examples
--------
>>> samples = feature_samples("thesis", games=2, seed=1)
>>> effects = feature_effects("attack", samples)
>>> float(effects.loc["attack", "mean change"]), float(effects.loc["bounce", "mean change"])
(1.0, 0.0)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...game import Game
from ...play.randomplay import random_positions
from ...search.programs import FEATURES, program_for, python_evaluation

__all__ = ["feature_samples", "feature_effects"]

_EVERY = "add(add(add(attack, defend), add(free_attack, free_defend)), add(add(mobility, bounce), " \
         "add(traps, centre)))"


def feature_samples(rules="thesis", games: int = 20, seed: int = 0) -> pd.DataFrame:
    """The features (one column each) at every turn start of ``games`` seeded random games, for
    the player to move."""
    from ..._core.programs import features

    rows = []
    for _, record in random_positions(rules, games, seed=seed):
        game = Game(rules, record)
        if game.is_over:
            continue
        program = program_for(_EVERY, game.rules)
        b = game.board
        features(game.marks, game.ball_index, game.player, b.exists, b.neighbour, b.goal, program)
        rows.append(program.values.copy())
    return pd.DataFrame(rows, columns=list(FEATURES))


def feature_effects(tree, samples: pd.DataFrame) -> pd.DataFrame:
    """Per feature, the mean change of ``tree``'s cost when that feature alone grows by one over the
    positions of ``samples`` (``mean change``; positive: the tree dislikes more of it, as the distance
    dislikes steps) and the share of positions where the change is not zero (``moves it``)."""
    cost = python_evaluation(tree)
    base = np.array([cost(*row) for row in samples.to_numpy(float)], float)
    out = {}
    for k, name in enumerate(FEATURES):
        shifted = samples.to_numpy(float).copy()
        shifted[:, k] += 1
        change = np.array([cost(*row) for row in shifted], float) - base
        finite = np.isfinite(change)
        out[name] = {"mean change": float(np.mean(change[finite])) if finite.any() else float("nan"),
                     "moves it": float(np.mean(change[finite] != 0)) if finite.any() else float("nan")}
    return pd.DataFrame(out).T.rename_axis("feature")
