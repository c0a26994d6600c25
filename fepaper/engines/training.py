"""The games of referee files as training rows of a value network (:func:`training_rows`), and a
shipped recipe's network fitted again from its files (:func:`fit_engine_net`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..game.rules import Rules
from .matchfile import read_games

__all__ = ["training_rows", "fit_engine_net"]


def training_rows(paths, rules: Rules | str = "codingame") -> tuple[list[dict], np.ndarray]:
    """The games of referee files as the rows :func:`fepaper.engines.valuefit.positions`
    reads (to train a value network on), and the index of each game's opening (the same
    opening in any of the files: the same index). Each row also holds the file's ``names``
    of sides A and B and the number of ``opening_turns`` (what
    :func:`fepaper.engines.imitation.choices` reads).

    Raises
    ------
    ValueError
        If a file's games were played under other rules than ``rules``.
    """
    rules = Rules.from_spec(rules)
    rows, openings, index = [], [], {}
    for path in paths:
        settings, games = read_games(path)
        if Rules.from_spec(settings["rules"]) != rules:
            raise ValueError(f"{path}: its games are played under {settings['rules']}, not {rules.to_dict()}")
        for g in games:  # side A plays player 1 when it moves first after the opening
            rows.append({"moves": g["moves"], "a_player": 1 if g["first"] == "A" else 2,
                         "winner": {"A": "a", "B": "b"}.get(g["winner"], "draw"),
                         "names": tuple(settings["names"]), "opening_turns": len(g["opening"].split())})
            openings.append(index.setdefault(g["opening"], len(index)))
    return rows, np.array(openings, np.int64)


def fit_engine_net(net: str, out, data_dir, progress: bool = False):
    """Fit ``net`` of :data:`fepaper.engines.enginenets.ENGINE_NETS` again from its files under
    ``data_dir`` into ``out``; returns the :class:`~fepaper.engines.valuefit.FitResult` and the
    number of engine games it read (a recipe's self-play games are counted in its ``selfplay``)."""
    from .enginenets import ENGINE_NETS, fit_recipe

    recipe = ENGINE_NETS[net]
    rows, opening = training_rows([Path(data_dir) / name for name in recipe["files"]])
    return fit_recipe(recipe, rows, opening, out, data_dir, progress), len(rows)
