"""The turns a strong player chose, each among turns it did not choose: examples for a value network.

A game's result says little about each of its positions (one label for some fifty positions
of one game, most of them far from the end). A strong player's choice of turn says more: the
position it chose to leave its opponent in should be worth less to that opponent than the
positions its other turns lead to. :func:`choices` lists, for every turn a named side played
after the opening in the games of ``fepaper referee`` files, the position the chosen turn
leads to and a seeded random sample of the positions of the turns not chosen, all as
turn-start positions of the opponent. :func:`fepaper.engines.valuefit.fit` learns from
them with a softmax over the mover's preferences (``-value`` of each position for the
opponent) whose right answer is the chosen turn: :func:`choice_loss`, over the positions
:func:`choice_rows` gathers for a minibatch of decisions. :func:`agreement` measures a fitted
network the same way on games it was not fitted on, against (nearly) all the turns of each
decision: how often the turn the player chose is the one the network values best.

Turns that end the game, and turns after which the opponent can score at once, are left out
of every sample: the best-first search values those positions exactly and never asks the
network. A decision whose chosen turn is one of them, or that has no other turn to compare
with, gives no example.
"""

from __future__ import annotations

import numpy as np

from .._core.bundles import new_budget
from .._core.picks import CONTINUE, RANDOM, collect_turns, new_picks
from .._core.playout import apply_turn
from .._core.tactics import goal_in_one, goal_of
from .._core.turns import new_keyset
from .._core.valuenet import net_values
from ..game.game import Game
from ..game.rules import Rules
from ..search.playouts import random_state
from .examples import PositionArrays

__all__ = ["choices", "choice_rows", "choice_loss", "agreement", "clustered_interval"]


def choices(rows: list[dict], imitate, rules="codingame", sample: int = 16, seed: int = 0,
            max_states: int = 200_000) -> dict[str, np.ndarray]:
    """The decisions of the sides named in ``imitate`` in ``rows``, each with other turns.

    ``rows`` are the rows of :func:`fepaper.engines.training.training_rows` (with ``names``
    and ``opening_turns``). Each decision is the position before the turn, as the example
    index :func:`fepaper.engines.valuefit.positions` gives it (``rows`` in order, every
    turn-start position), and at most ``sample`` positions after it: the chosen turn's and
    up to ``sample - 1`` others drawn at random (seeded by ``seed``) from the turns that do
    not end the game or let the opponent score at once.

    Returns arrays over the positions after the turns: ``marks``, ``ball``, ``mover`` (the
    opponent, to move there), ``played``, ``decision`` (the example index of the position
    before), ``chosen`` (1 for the chosen turn), ``game`` (the index of its row); a decision's
    positions are consecutive.
    """
    rules = Rules.from_spec(rules)
    imitate = set(imitate)
    if sample < 2:
        raise ValueError(f"sample must be at least 2 (the chosen turn and another), got {sample}")
    board = Game(rules).board
    arrays, flags = board.arrays, rules.flags
    picks = new_picks(board.n_nodes, board.n_edges, sample)
    table = new_keyset(32)
    state = random_state(seed)
    seen = np.zeros(board.n_nodes, np.uint8)
    stack = np.zeros(board.n_nodes + 1, np.int32)
    found, decision_out, chosen_out, game_out = PositionArrays(board.n_nodes), [], [], []
    example = 0
    for g, row in enumerate(rows):
        sides = {row["a_player"]: row["names"][0], 3 - row["a_player"]: row["names"][1]}
        game = Game(rules)
        turns = row["moves"].split()
        for t, turn in enumerate(turns):
            mover, before, ball, played = game.player, game.marks.copy(), game.ball_index, len(game.history)
            game.push(turn)
            if t < row["opening_turns"] or sides[mover] not in imitate or game.is_over:
                example += 1
                continue
            opponent = 3 - mover
            if goal_in_one(game.marks, game.ball_index, arrays, goal_of(opponent), seen, stack):
                example += 1
                continue
            target = (game.ball_index, game.marks.tobytes())
            kept, _, _, table = collect_turns(before, ball, mover, played, arrays, flags, RANDOM, sample,
                                              max_states, False, state, picks, table, new_budget())
            others = []
            for i in range(kept):
                s = picks.order[i]
                if picks.outcomes[s] != CONTINUE:
                    continue
                child = before.copy()
                end = apply_turn(child, arrays.neighbour, ball, picks.steps[s], picks.lengths[s])
                if (end, child.tobytes()) == target:
                    continue  # the chosen turn comes first, below
                if not goal_in_one(child, end, arrays, goal_of(opponent), seen, stack):
                    others.append((child, end))
            others = others[: sample - 1]
            if others:
                for k, (child, end) in enumerate([(game.marks, game.ball_index)] + others):
                    found.add(child, end, opponent, played + 1)
                    decision_out.append(example)
                    chosen_out.append(1 if k == 0 else 0)
                    game_out.append(g)
            example += 1
    return {
        **found.arrays(),
        "decision": np.array(decision_out, np.int64),
        "chosen": np.array(chosen_out, np.int8),
        "game": np.array(game_out, np.int64),
    }


def choice_rows(first, counts):
    """The rows ``first[j] .. first[j] + counts[j] - 1`` of every decision ``j``, one after the
    other, and the decision of each row."""
    which = np.repeat(np.arange(len(first)), counts)
    shift = np.repeat(first - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return shift + np.arange(int(counts.sum())), which


def choice_loss(y, chosen, which, n, beta):
    """The mean over ``n`` decisions of the softmax cross-entropy of the mover's preferences
    ``-beta * y`` (``y``: each position's value for the opponent) against the chosen turn,
    its gradient with respect to ``y``, and how many chosen turns have the best preference."""
    pref = -beta * y
    top = np.full(n, -np.inf, y.dtype)
    np.maximum.at(top, which, pref)
    e = np.exp(pref - top[which])
    total = np.zeros(n, y.dtype)
    np.add.at(total, which, e)
    p = e / total[which]
    picked = chosen == 1
    loss = -float(np.sum(np.log(np.maximum(p[picked], 1e-12)))) / n
    agree = int(np.sum(pref[picked] >= top[which[picked]]))
    return loss, (-beta * (p - chosen) / n).astype(y.dtype), agree


def agreement(nets, rows: list[dict], imitate, rules="codingame", limit: int = 400,
              seed: int = 0) -> list[dict]:
    """How often each network of ``nets`` (:class:`~fepaper._core.valuenet.ValueNet` s) values
    best the turn the sides named in ``imitate`` chose, in ``rows`` (as :func:`choices` reads
    them); one dict per network.

    Every decision of :func:`choices` with ``sample=limit`` is compared: the chosen turn's
    position against those of the player's other turns (all of them when it has fewer than
    ``limit``, else ``limit - 1`` drawn with ``seed``), leaving out the turns the best-first
    search values exactly (game over, or the opponent scores at once). A network values each
    position for the opponent, as the search asks it; the chosen turn *agrees* when no other
    turn leaves the opponent a lower value.

    Each dict: ``decisions``, ``agree`` (how many agree), ``share`` with its 95 % interval
    ``low`` .. ``high`` over games (the decisions of one game are not independent: the
    normal interval of a ratio with the variance summed game by game, :func:`clustered_interval`),
    ``rank`` (the mean share of the other turns valued better than the chosen one: 0 is
    perfect, about 0.5 a guess), ``turns`` (the mean turns compared per decision) and
    ``guess`` (the share a uniform random pick would agree on).

    Raises
    ------
    ValueError
        If no side named in ``imitate`` made a decision in ``rows``, or ``limit`` < 2.
    """
    rules = Rules.from_spec(rules)
    made = choices(rows, imitate, rules, limit, seed)
    if not len(made["chosen"]):
        raise ValueError(f"no side named {sorted(set(imitate))} chose a turn in these games")
    board = Game(rules).board.arrays
    start = np.flatnonzero(made["chosen"] == 1)
    count = np.diff(np.r_[start, len(made["chosen"])])
    results = []
    for net in nets:
        value = net_values(net, made["marks"], made["ball"], made["mover"], made["played"],
                           rules.flags.max_turns, board)
        below = (value < np.repeat(value[start], count)).astype(np.int64)  # never the chosen turn itself
        better = np.add.reduceat(below, start)
        agree = int(np.sum(better == 0))
        low, high = clustered_interval(better == 0, made["game"][start])
        results.append({"decisions": len(start), "agree": agree, "share": agree / len(start), "low": low,
                        "high": high, "rank": float(np.mean(better / (count - 1))),
                        "turns": float(np.mean(count)), "guess": float(np.mean(1.0 / count))})
    return results


def clustered_interval(hits, cluster, z: float = 1.959963984540054) -> tuple[float, float]:
    """The normal interval (95 % by default) of the share of ``hits`` when the trials come in
    clusters (``cluster``: the cluster of each trial) that need not be independent inside:
    the share's variance is the clustered ("sandwich") one, ``G / (G - 1) * sum over clusters
    of (hits - share * trials)^2 / N^2`` for ``G`` clusters and ``N`` trials; clipped to [0, 1]."""
    hits = np.asarray(hits, np.float64)
    _, which = np.unique(np.asarray(cluster), return_inverse=True)
    n, groups = len(hits), int(which.max()) + 1 if len(hits) else 0
    if groups < 2:
        return (0.0, 1.0)
    share = hits.mean()
    residual = np.bincount(which, hits - share, minlength=groups)
    half = z * np.sqrt(groups / (groups - 1) * np.sum(residual**2)) / n
    return (max(0.0, share - half), min(1.0, share + half))
