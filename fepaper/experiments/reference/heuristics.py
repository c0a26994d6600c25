"""Heuristics compared from fixed positions, as the Aboyne report does (its "Resultados").

The Aboyne report lets two computer players with different heuristics play from three
fixed game states at depths 1 to 3, ten tests per state and depth, and tabulates the
winner and the time of each test. Here the players are the complete-turn alpha-beta
(``{"name": "turnsearch", "depth": d, "weights": ...}``) and a heuristic is a set of
integer weights over the leaf features of
:data:`fepaper.search.turnsearch.FEATURES` (all from the side to move's point of
view): ``distance`` = (steps to the goal it defends) - (steps to the goal it attacks),
``attack`` = -(steps to the goal it attacks), ``mobility`` = free steps at the ball,
``bounce`` = free steps at the ball onto an already marked field node.

Readings chosen where the report is silent:

- **The positions** (:data:`POSITIONS`) are mid-game states on the thesis rules, made
  reproducibly by :func:`make_positions`: a seeded random opening of two turns
  (:func:`fepaper.play.arena.opening_bank` with seed 2), then two ``turnsearch`` depth-2
  players with the default heuristic; the states after turns 10, 20 and 30 (player 1 to
  move in each; 27, 63 and 21 distinct turns).
- **Who plays which side.** The position fixes the side to move; odd tests give that
  side to heuristic A, even tests to heuristic B (a colour swap, as in
  :func:`fepaper.play.arena.schedule`).
- **Why tests differ.** The search is deterministic (the first best turn in search order),
  so ten plain tests would be one game ten times. The players break ties at random
  (``turnsearch`` with ``ties="random"``: a seeded uniform choice among *all* the turns
  of the best value, the root being searched exactly), as a program that keeps the best
  moves in a list and picks one would; the weights decide which turns are best, chance
  only which of the equals is played. Test ``t`` at depth ``d`` is seeded from
  ``(seed, crc32(position), d, t)``. Optionally (``opening_turns > 0``) each pair of tests
  ``2k + 1``, ``2k + 2`` also starts with the same seeded random turns (uniform among the
  distinct turns that do not end the game) from the position; that is off by default, as
  a random turn in a tight mid-game often decides the game by itself.
- **Time** is the mean seconds per decision in the test's game (both players; per player
  in ``seconds_per_move_a`` / ``_b``); the report's "Tempo" is not defined further.
- **Better** (:func:`summarise_duels`): the heuristic with the higher score (a win 1, a
  draw 1/2) over the tests of a position and depth; ``"even"`` on equal scores.

Examples
--------
>>> sorted(HEURISTICS)[:2]
['attack+mobility', 'bounce']
>>> spec_for("distance", 2)
{'name': 'turnsearch', 'depth': 2, 'weights': {'distance': 1}, 'ties': 'random'}
"""

from __future__ import annotations

import zlib
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from ...controllers import make
from ...game.game import Game
from ...play.arena import opening_bank, play_game
from ...play.pools import SerialExecutor
from ...search.turnsearch import FEATURES, weights_dict

__all__ = ["FEATURES", "HEURISTICS", "POSITIONS", "RULES", "spec_for", "make_positions", "random_opening",
           "duel", "run_duels", "heuristic_table", "summarise_duels"]

RULES = "thesis"

#: Named heuristics: integer weights over :data:`FEATURES`.
HEURISTICS: dict[str, dict[str, int]] = {
    # the thesis's distance heuristic (the turnsearch default): defend - attack
    "distance": {"distance": 1},
    # lean to attack and keep the ball where it has room:
    # 2 * (steps to its own goal) - 3 * (steps to the goal it attacks) + (free steps at the ball)
    "attack+mobility": {"distance": 2, "attack": 1, "mobility": 1},
    # 2 * (steps to its own goal) - (steps to the goal it attacks): safety first
    "defence-first": {"distance": 2, "attack": -1},
    # distance, plus the steps at the ball that bounce (a way to go on in this turn)
    "bounce": {"distance": 2, "bounce": 1},
}

#: The three fixed states (move records on the thesis rules), from :func:`make_positions`
#: (seed 2, turnsearch depth 2 against itself, after turns 10, 20, 30).
POSITIONS: dict[str, str] = {
    "state 1": "0 1 0 3 1 4 667 5 0 5",
    "state 2": "0 1 0 3 1 4 667 5 0 5 7 4 227 4 3 0333 07 572244 1 3",
    "state 3": "0 1 0 3 1 4 667 5 0 5 7 4 227 4 3 0333 07 572244 1 3 052117 65 05036 7 025450172 0 0 3 1 3",
}


def _weights(heuristic) -> dict[str, int]:
    """The canonical weights of a heuristic name, a weights dict or a list."""
    if isinstance(heuristic, str):
        if heuristic not in HEURISTICS:
            raise ValueError(f"unknown heuristic {heuristic!r}; named heuristics: {sorted(HEURISTICS)} "
                             f"(or pass weights over {list(FEATURES)})")
        heuristic = HEURISTICS[heuristic]
    return weights_dict(heuristic)


def _label(heuristic) -> str:
    if isinstance(heuristic, str):
        return heuristic
    return "+".join(f"{w}*{f}" for f, w in _weights(heuristic).items())


def spec_for(heuristic, depth: int, ties: str = "random", **extra) -> dict:
    """The ``turnsearch`` spec that plays ``heuristic`` (a name of :data:`HEURISTICS` or
    weights) ``depth`` turns deep, breaking ties at random by default."""
    return {"name": "turnsearch", "depth": int(depth), "weights": _weights(heuristic), "ties": ties, **extra}


def make_positions(seed: int = 2, depth: int = 2, at=(10, 20, 30), rules=RULES) -> dict[str, str]:
    """Rebuild :data:`POSITIONS`: a seeded random opening of two turns, then ``turnsearch``
    at ``depth`` (default heuristic) for both sides; the records after the turns ``at``.

    Raises
    ------
    ValueError
        If the game ends before the last of ``at``.
    """
    game = Game(rules, opening_bank(rules, 1, 2, seed=seed)[0])
    player = make({"name": "turnsearch", "depth": depth})
    out = {}
    while len(out) < len(at):
        if game.is_over:
            raise ValueError(f"the game of seed {seed} ended after {len(game.history)} turns ({game.result})")
        game.push(player.choose_turn(game))
        if len(game.history) in at:
            out[f"state {len(out) + 1}"] = game.moves
    return out


def random_opening(position: str, turns: int, seed, rules=RULES) -> str:
    """``turns`` seeded random turns from ``position`` (uniform over the distinct turns
    that do not end the game), as a record to append to it (``""`` for ``turns=0``)."""
    game = Game(rules, position)
    rng = np.random.default_rng(seed)
    played = []
    for _ in range(turns):
        options = [t.steps for t in game.turns() if t.kind in ("end", "stop")]
        rng.shuffle(options)
        for steps in options:
            trial = game.copy()
            trial.push(steps)
            if not trial.is_over:
                game, chosen = trial, steps
                break
        else:
            raise ValueError(f"no random turn keeps the game going after {game.moves!r}")
        played.append(chosen)
    return " ".join(played)


def duel_test(position: str, heuristic_a, heuristic_b, depth: int, test: int, seed: int = 0,
              opening_turns: int = 0, rules=RULES) -> dict:
    """Test ``test`` (from 1) of :func:`duel`: one game, as a row."""
    crc = zlib.crc32(position.encode())
    a_first = test % 2 == 1
    opening = random_opening(position, opening_turns, [int(seed), crc, (test - 1) // 2], rules)
    game_seed = int(np.random.SeedSequence([int(seed), crc, int(depth), int(test)]).generate_state(1)[0])
    start = Game(rules, position)
    to_move = start.player
    a_player = to_move if a_first else 3 - to_move
    record = f"{position} {opening}".strip()
    row = play_game(rules, spec_for(heuristic_a, depth), spec_for(heuristic_b, depth), seed=game_seed,
                    opening=record, a_player=a_player)
    name_a, name_b = _label(heuristic_a), _label(heuristic_b)
    winner = row["winner"]
    decisions = row["decisions_a"] + row["decisions_b"]
    return {
        "test": int(test), "depth": int(depth), "heuristic_a": name_a, "heuristic_b": name_b,
        "a_moves_first": a_first, "a_player": a_player, "random_turns": opening, "winner": winner,
        "winner_heuristic": {"a": name_a, "b": name_b}.get(winner, "draw"), "reason": row["reason"],
        "seed": game_seed, "turns": row["turns"],
        "seconds": round(row["seconds_a"] + row["seconds_b"], 4),
        "seconds_per_move": round((row["seconds_a"] + row["seconds_b"]) / max(decisions, 1), 5),
        "seconds_per_move_a": round(row["seconds_a"] / max(row["decisions_a"], 1), 5),
        "seconds_per_move_b": round(row["seconds_b"] / max(row["decisions_b"], 1), 5),
        "nodes_a": row["nodes_a"], "nodes_b": row["nodes_b"], "moves": row["moves"],
    }


def duel(position: str, heuristic_a, heuristic_b, depth: int, tests: int = 10, seed: int = 0,
         opening_turns: int = 0, rules=RULES, executor: Executor | None = None) -> pd.DataFrame:
    """``tests`` games of ``heuristic_a`` against ``heuristic_b`` from ``position`` (a move
    record), both searching ``depth`` turns; one row per test.

    Odd tests give the side to move to A, even tests to B; both break ties at random with
    a seeded generator; with ``opening_turns``, tests ``2k + 1`` and ``2k + 2`` first play
    the same seeded random turns (see the module notes).
    Columns: ``test``, ``depth``, ``winner`` (``"a"``, ``"b"``, ``"draw"``),
    ``winner_heuristic``, ``reason``, ``turns`` (after the random opening), ``seconds``,
    ``seconds_per_move`` (and per heuristic), nodes and the full record ``moves``.
    """
    if tests < 1:
        raise ValueError(f"tests must be >= 1, got {tests}")
    executor = executor or SerialExecutor()
    futures = [executor.submit(duel_test, position, heuristic_a, heuristic_b, depth, t, seed, opening_turns,
                               rules) for t in range(1, tests + 1)]
    return pd.DataFrame([f.result() for f in futures])


def run_duels(heuristic_a, heuristic_b, depths=(1, 2, 3), tests: int = 10, seed: int = 0,
              positions: dict | None = None, opening_turns: int = 0, rules=RULES,
              executor: Executor | None = None) -> pd.DataFrame:
    """:func:`duel` for every position of ``positions`` (default :data:`POSITIONS`) and
    depth; the rows gain a ``position`` column."""
    positions = POSITIONS if positions is None else positions
    frames = []
    for name, record in positions.items():
        for depth in depths:
            rows = duel(record, heuristic_a, heuristic_b, depth, tests, seed, opening_turns, rules, executor)
            rows.insert(0, "position", name)
            frames.append(rows)
    return pd.concat(frames, ignore_index=True)


def _majority(winners: pd.Series) -> str:
    counts = winners.value_counts()
    top = counts[counts == counts.max()].index
    return top[0] if len(top) == 1 else "tie"


def heuristic_table(rows: pd.DataFrame, position: str, time: str = "seconds_per_move") -> pd.DataFrame:
    """The report's table for one position: one row per test, columns ``(depth d,
    "winner")`` and ``(depth d, time)``, and a last row ``"mean"`` with the majority
    winner (``"tie"`` if none) and the mean time."""
    sub = rows[rows["position"] == position]
    if sub.empty:
        raise ValueError(f"no rows for position {position!r}; positions: {sorted(rows['position'].unique())}")
    parts = {}
    for depth, part in sub.groupby("depth"):
        part = part.set_index("test").sort_index()
        winners = part["winner_heuristic"].astype(object)
        times = part[time].astype(float)
        winners.loc["mean"] = _majority(part["winner_heuristic"])
        times.loc["mean"] = round(float(part[time].mean()), 5)
        parts[(f"depth {depth}", "winner")] = winners
        parts[(f"depth {depth}", time)] = times
    table = pd.DataFrame(parts)
    table.columns = pd.MultiIndex.from_tuples(table.columns)
    table.index.name = "test"
    return table


def summarise_duels(rows: pd.DataFrame) -> pd.DataFrame:
    """Which heuristic is better where: per position and depth (and ``"all"`` positions
    per depth), the wins of each, draws, A's score (win 1, draw 1/2, per test), the mean
    seconds per move of each and ``better`` (the heuristic with the higher score, or
    ``"even"``)."""
    out = []
    groups = [(p, d, g) for (p, d), g in rows.groupby(["position", "depth"], sort=False)]
    groups += [("all", d, g) for d, g in rows.groupby("depth")]
    for position, depth, g in groups:
        a, b = g["heuristic_a"].iloc[0], g["heuristic_b"].iloc[0]
        wins_a, wins_b = int((g["winner"] == "a").sum()), int((g["winner"] == "b").sum())
        draws = len(g) - wins_a - wins_b
        score = (wins_a + 0.5 * draws) / len(g)
        out.append({
            "position": position, "depth": int(depth), "tests": len(g), "heuristic_a": a, "heuristic_b": b,
            "wins_a": wins_a, "wins_b": wins_b, "draws": draws, "score_a": round(score, 3),
            "seconds_per_move_a": round(float(g["seconds_per_move_a"].mean()), 5),
            "seconds_per_move_b": round(float(g["seconds_per_move_b"].mean()), 5),
            "better": a if score > 0.5 else b if score < 0.5 else "even",
        })
    return pd.DataFrame(out)
