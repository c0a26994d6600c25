"""The recipes of the value networks fitted on the games against the public engines.

:data:`ENGINE_NETS` maps each ``value_engines*.npz`` (the shipped one in ``fepaper/data/``, the
others in ``data/strength/networks/``) to the ``fepaper net fit --referee`` arguments that fit it
again from the project's ``data/strength/`` (the files, ``--epochs``, ``--hidden1``/``--hidden2``
and, from ``value_engines19.npz`` on, ``--imitate`` and ``--choice-weight``; always ``--seed 0``).
:func:`fepaper.engines.training.fit_engine_net` refits one; notebook 08 refits them all at the
``paper`` budget, and a test refits a tiny network on a few games.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ENGINE_NETS", "ENGINE_VALUER", "fit_recipe", "program_of"]

_DISTANCE_GAMES = ("referee_challenger.jsonl", "referee_qtpapersoccer.jsonl",
                   "referee_variants/challenger_steps-reuse.jsonl",
                   "referee_variants/challenger_steps-scale.jsonl",
                   "referee_variants/challenger_steps.jsonl",
                   "referee_variants/qtpapersoccer_steps-reuse.jsonl",
                   "referee_variants/qtpapersoccer_steps-scale.jsonl")


def _net_games(*names: str) -> tuple[str, ...]:
    return tuple(f"referee_variants/{engine}_{name}.jsonl" for name in names
                 for engine in ("challenger", "qtpapersoccer"))


#: QtPaperSoccer's engine against itself (200 ms first turn, 30 ms after), colour-swapped pairs from
#: the random 4-turn openings of seed 100 and the 8-turn openings of seed 101: positions of strong
#: play on both sides, whose results are not all one side's.
_ENGINE_SELFPLAY = tuple(f"engine_selfplay/qtpapersoccer_{n}turn.jsonl" for n in (4, 8))
#: More of the same, each file named by the seed of its openings: the 4-turn openings of seed 102 and
#: the 8-turn openings of seed 103, then of seeds 104 and 105.
_SELFPLAY_SEEDS_102_103 = ("engine_selfplay/qtpapersoccer_4turn_seed102.jsonl",
                           "engine_selfplay/qtpapersoccer_8turn_seed103.jsonl")
_SELFPLAY_SEEDS_104_105 = ("engine_selfplay/qtpapersoccer_4turn_seed104.jsonl",
                           "engine_selfplay/qtpapersoccer_8turn_seed105.jsonl")
#: More of the same, from the 4-turn openings of seed 107 (its one-thread build, as the matches below).
_SELFPLAY_SEED_107 = ("engine_selfplay/qtpapersoccer_4turn_seed107.jsonl",)
#: ``value_engines25.npz``'s matches against the rebuilt engines (its one-thread builds): the QtPaperSoccer
#: engine at its match budget of 900 / 80 ms, a stronger teacher than its 200 / 30 ms games against itself.
_SEARCH_GAMES = tuple(f"referee_search/{name}.jsonl" for name in (
    "challenger_net25-fast-reuse", "qtpapersoccer_net25", "qtpapersoccer_net25-reuse",
    "qtpapersoccer_net25-500ms", "qtpapersoccer_net25-fast", "qtpapersoccer_net25-fast-reuse",
    "qtpapersoccer_net25-fast-reuse-c0.1"))
#: The names the QtPaperSoccer engine plays under in those files: the side whose turns the
#: networks from ``value_engines19.npz`` on learn to prefer.
_QT_NAMES = ("qtpapersoccer", "qt_a", "qt_b")


def _glob_order(files) -> tuple[str, ...]:
    """Files in the order of the shell's glob (top folder first, then byte order)."""
    return tuple(sorted(files, key=lambda f: (f.count("/"), f.encode())))


#: The networks fitted on engine games: each one's ``fepaper net fit
#: --referee`` files (under the project's ``data/strength/``, in the order given: the shell's glob
#: ``data/strength/referee_*.jsonl data/strength/referee_variants/*.jsonl`` before the network's own matches,
#: then, from ``value_engines17.npz`` on, ``data/strength/engine_selfplay/*.jsonl``), ``--epochs`` and
#: ``--hidden1``, ``--hidden2`` (``--seed 0``), and from ``value_engines19.npz`` on ``--imitate`` and
#: ``--choice-weight``. The first is fitted on fepaper's games against the engines with the distance
#: evaluations; each later one on those and the games of the networks before it (play, fit again on
#: every game so far, play again); from ``value_engines17.npz`` on also on the QtPaperSoccer
#: engine's games against itself, and from ``value_engines19.npz`` on a network also learns which
#: turns that engine chose (:mod:`fepaper.engines.imitation`). The number in a name counts its
#: files, but for ``value_engines19.npz``: 21 files (it was named before the second pair of the
#: engine's games against itself was counted); ``w2``: the choices weigh twice the results' error.
#: ``value_engines35w2.npz`` also reads ``value_engines25.npz``'s matches of ``data/strength/referee_search/``
#: (between the top folder's files and the variants', in the glob's order).
_NET25_FILES = (_glob_order(_DISTANCE_GAMES + _net_games("net", "net9", "net11", "net13", "net17", "net19"))
                + _glob_order(_ENGINE_SELFPLAY + _SELFPLAY_SEEDS_102_103 + _SELFPLAY_SEEDS_104_105))
_NET35_FILES = (_glob_order(_DISTANCE_GAMES + _SEARCH_GAMES
                            + _net_games("net", "net9", "net11", "net13", "net17", "net19", "net25"))
                + _glob_order(_ENGINE_SELFPLAY + _SELFPLAY_SEEDS_102_103 + _SELFPLAY_SEEDS_104_105
                              + _SELFPLAY_SEED_107))
#: ``value_engines25w2s.npz``: ``value_engines25w2.npz``'s recipe with search values as half the target of
#: every fourth position (:mod:`fepaper.engines.searchvalues`; ``fepaper net fit --search-values``);
#: ``value_engines25w2s1.npz``: the same with those positions' targets their search values alone.
_SEARCH_VALUES_25W2 = {"file": "search_values/value_engines25w2_it100_every4.jsonl",
                       "net": "value_engines25w2.npz", "iterations": 100, "every": 4, "weight": 0.5}
#: The environment variable holding the command of the program that values positions by the QtPaperSoccer
#: engine's own search, 74 ms a position (built outside the repository; it answers ``fepaper net searchvalues
#: --program``: a position a line in, its value for the player to move out). Only making the engine's values
#: file again needs it (:func:`fit_recipe`); a complete file is read without it.
ENGINE_VALUER = "FEPAPER_ENGINE_VALUER"
#: ``value_engines25w2t.npz``: ``value_engines25w2.npz``'s recipe with the QtPaperSoccer engine's own search
#: value (the program of :data:`ENGINE_VALUER`: its -Ofast -march=native one-thread build on a second machine)
#: as half the target of every eighth position;
#: ``value_engines25w2t1.npz``: the same with those positions' targets the engine's values alone. The engine's
#: search is random: a file made again holds other values.
_ENGINE_VALUES_25W2 = {"file": "search_values/qtpapersoccer_74ms_every8.jsonl", "every": 8, "weight": 0.5,
                       "program_from": ENGINE_VALUER}
#: ``value_engines25w2r.npz``: ``value_engines25w2.npz``'s recipe with 4,000 more games, of that network's
#: search (200 iterations a turn, the tree kept) against itself from random openings of 2 to 8 turns (seed 0):
#: one step of reinforcement (``fepaper net fit --referee ... --games 4000 --player ...``). The games are
#: kept in the file, played again if it is missing or cut (the same games: a fixed number of iterations).
_SELFPLAY_25W2 = {"file": "selfplay/value_engines25w2_it200.csv", "games": 4000,
                  "player": {"name": "bestfirst", "evaluator": "net", "net": "value_engines25w2.npz",
                             "iterations": 200, "reuse": True}}
ENGINE_NETS = {
    "value_engines.npz": {"files": _DISTANCE_GAMES, "epochs": 4, "hidden": (64, 32)},
    "value_engines9.npz": {"files": _glob_order(_DISTANCE_GAMES + _net_games("net")), "epochs": 6,
                           "hidden": (64, 32)},
    "value_engines11.npz": {"files": _glob_order(_DISTANCE_GAMES + _net_games("net", "net9")), "epochs": 6,
                            "hidden": (64, 32)},
    "value_engines13.npz": {"files": _glob_order(_DISTANCE_GAMES + _net_games("net", "net9", "net11")),
                            "epochs": 6, "hidden": (64, 32)},
    "value_engines17.npz": {"files": _glob_order(_DISTANCE_GAMES + _net_games("net", "net9", "net11",
                                                                              "net13")) + _ENGINE_SELFPLAY,
                            "epochs": 6, "hidden": (64, 32)},
    "value_engines19.npz": {"files": _glob_order(_DISTANCE_GAMES + _net_games("net", "net9", "net11", "net13",
                                                                              "net17"))
                            + _glob_order(_ENGINE_SELFPLAY + _SELFPLAY_SEEDS_102_103),
                            "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES, "choice_weight": 0.5},
    "value_engines25.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                            "choice_weight": 1.0},
    "value_engines25w2.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                              "choice_weight": 2.0},
    "value_engines25w2s.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                               "choice_weight": 2.0, "search": _SEARCH_VALUES_25W2},
    "value_engines25w2s1.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                                "choice_weight": 2.0, "search": {**_SEARCH_VALUES_25W2, "weight": 1.0}},
    "value_engines25w2t.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                               "choice_weight": 2.0, "search": _ENGINE_VALUES_25W2},
    "value_engines25w2t1.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                                "choice_weight": 2.0, "search": {**_ENGINE_VALUES_25W2, "weight": 1.0}},
    "value_engines25w2r.npz": {"files": _NET25_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                               "choice_weight": 2.0, "selfplay": _SELFPLAY_25W2},
    "value_engines35w2.npz": {"files": _NET35_FILES, "epochs": 4, "hidden": (128, 32), "imitate": _QT_NAMES,
                              "choice_weight": 2.0},
}


def fit_recipe(recipe: dict, rows: list[dict], opening, out, data_dir, progress: bool = False):
    """Fit the network of ``recipe`` (an entry of :data:`ENGINE_NETS`) on ``rows`` (its files' games,
    :func:`fepaper.engines.training.training_rows`, with their ``opening`` groups) into ``out``;
    returns the :class:`~fepaper.engines.valuefit.FitResult`. A recipe with ``search`` blends
    the search values of its file under ``data_dir`` into the results (the file is made, or
    finished, first if it is missing or cut: :func:`fepaper.engines.searchvalues.search_values`; an
    outside program's values are read if the file is complete, else made or finished by the program
    :func:`program_of` names: :func:`~fepaper.engines.searchvalues.program_values`). A
    recipe with ``selfplay`` also fits on its self-play games, kept in its file under ``data_dir`` (played
    first if the file is missing or cut)."""
    from .._blas import PINNED, needs_pinning
    from ..play.pools import in_fresh_interpreter
    from .searchvalues import SearchValuesError, program_values, search_values, values_of_file
    from .valuefit import train

    if needs_pinning():  # the same weights on every x86-64 CPU: fitted on the AVX2 kernels
        return in_fresh_interpreter(fit_recipe, recipe, rows, opening, out, data_dir, progress,
                                    env={"OPENBLAS_CORETYPE": PINNED})

    values, weight = None, 0.5
    if "search" in recipe:
        s = recipe["search"]
        path = Path(data_dir) / s["file"]
        if "program_from" in s:
            try:
                values = values_of_file(rows, path)
            except SearchValuesError as exc:  # missing or not finished: the program makes the rest
                values = program_values(rows, path, program_of(s, exc), every=s["every"], progress=progress)
        else:
            values = search_values(rows, path, net=s["net"], iterations=s["iterations"], every=s["every"],
                                   progress=progress)
        weight = s["weight"]
    own = recipe.get("selfplay")
    more = {} if own is None else {"selfplay_games": own["games"], "spec": own["player"],
                                   "games_file": Path(data_dir) / own["file"]}
    return train(out, epochs=recipe["epochs"], hidden=recipe["hidden"], seed=0, given=(rows, opening),
                 progress=progress, imitate=recipe.get("imitate", ()),
                 choice_weight=recipe.get("choice_weight", 0.25), values=values, value_weight=weight, **more)


def program_of(search: dict, why: Exception | None = None) -> str:
    """The command of the program that values a recipe's positions (``search["program_from"]``: the
    environment variable that holds it).

    Raises
    ------
    ValueError
        If the variable is not set, naming it and what the program does (and ``why`` it is needed).
    """
    command = os.environ.get(search["program_from"], "").strip()
    if not command:
        need = f"{why}; making " if why is not None else "Making "
        raise ValueError(f"{need}{search['file']} needs the program that values positions by the "
                         "QtPaperSoccer engine's search (built outside fepaper; it answers fepaper net "
                         f"searchvalues --program): set the environment variable {search['program_from']} "
                         "to its command")
    return command
