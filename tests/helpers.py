"""Shared helpers for the tests: reference states of a Game, an executor that dies mid-way."""

import numpy as np

from fepaper.game.game import Game
from fepaper.play.pools import SerialExecutor
from fepaper.play.randomplay import random_game

SMALL_RULES = [
    {"width": 4, "height": 6, "middle_line": False, "bounce": "optional"},
    {"width": 4, "height": 6, "middle_line": True, "bounce": "mandatory"},
    {"width": 6, "height": 8, "middle_line": False, "bounce": "mandatory"},
    {"width": 6, "height": 8, "middle_line": True, "bounce": "optional", "blocked": "draw"},
]


def marked_edges(game: Game) -> frozenset[int]:
    """The marked edge ids of a game (walls included), for the reference twin."""
    return frozenset(int(e) for e in (game.owner != 0).nonzero()[0])


def end_state(game: Game, steps: str):
    """(end node, marked edges) after playing ``steps`` from ``game``'s position."""
    trial = game.copy()
    for c in steps:
        trial.step(c)
    return trial.ball, marked_edges(trial)


def position(rules, seed: int, fraction: float) -> Game:
    """A turn-start position part-way through a seeded random game."""
    full = random_game(rules, seed=seed)
    k = int(fraction * len(full.history))
    if full.is_over and k == len(full.history):
        k -= 1
    return Game(rules, " ".join(full.history[:k]))


def small_turn_count(game: Game, cap: int = 20_000) -> int:
    """The number of distinct turns, or -1 if the walk passes ``cap`` states."""
    return game.turns().count(limit=cap)


def turn_position(game: Game, turn) -> Game:
    """A copy of ``game`` after ``turn`` (a :class:`~fepaper.game.game.Turn` of its position)."""
    trial = game.copy()
    trial.push(turn.steps)
    return trial


def goal_workspace(game: Game):
    """``(seen, stack)``: the workspace of :func:`fepaper._core.tactics.goal_in_one` on ``game``'s board."""
    n = game.board.n_nodes
    return np.zeros(n, np.uint8), np.zeros(n + 1, np.int32)


class Interrupt(Exception):
    """What :class:`DyingExecutor` raises: a kill, as the run sees it."""


class DyingExecutor(SerialExecutor):
    """Runs ``n`` tasks, then dies at the next, like a serial run killed mid-way."""

    def __init__(self, n):
        self.n = n

    def submit(self, fn, /, *args, **kwargs):
        self.n -= 1
        if self.n < 0:
            raise Interrupt
        return super().submit(fn, *args, **kwargs)


def reaches_goal(game: Game, goal: int) -> bool:
    """Slow reference of a cut-off: whether a path of unmarked edges leads the ball into goal
    ``goal`` (1 the top, 2 the bottom) through field nodes only (a goal ends the ball's way),
    found with networkx on :attr:`Game.graph`."""
    import networkx as nx

    b = game.board
    graph = game.graph
    free = nx.Graph((u, v) for u, v, data in graph.edges(data=True) if not data["marked"])
    field = free.subgraph(n for n in free if not b.goal[b.index[n]])
    ball = game.ball
    if ball not in field:
        return False
    return any(b.goal[b.index[g]] == goal for n in nx.node_connected_component(field, ball) for g in free[n])


def engine_game_positions(games: int = 12) -> list[Game]:
    """Every turn-start position, not over, of the first ``games`` games fepaper played against
    the QtPaperSoccer engine (``data/strength/referee_qtpapersoccer.jsonl``): positions where
    cut-offs happen, which random games hardly reach."""
    from pathlib import Path

    from fepaper.engines.matchfile import games_of

    out = []
    for full in games_of(Path(__file__).parents[1] / "data" / "strength" / "referee_qtpapersoccer.jsonl", games):
        game = Game(full.rules)
        for turn in full.history:
            game.play(turn)
            if game.is_over:
                break
            out.append(game.copy())
    return out
