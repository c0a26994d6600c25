"""Random playouts and ranked turn lists over a :class:`~fepaper.game.Game`: the Python front
ends of :mod:`fepaper._core.playout` and :mod:`fepaper._core.picks` that the MCTS, greedy
and Foo controllers, the benchmarks and the complexity measurements share.
"""

from __future__ import annotations

import numpy as np

from .._core.bundles import new_budget
from .._core.picks import ORDERS, collect_turns, new_picks
from .._core.playout import STOP_CODE, many_playouts, playout
from .._core.turns import new_keyset
from ..game import Game

__all__ = ["seed_state", "random_state", "random_playout", "playout_wins", "choose_turns", "turns_of",
           "any_turn"]


def seed_state(seed: int) -> np.ndarray:
    """A xorshift64* state array from an integer seed (SplitMix64 of it; never zero)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return np.array([z or 0x2545F4914F6CDD1D], dtype=np.uint64)


def random_state(seed=None) -> np.ndarray:
    """A xorshift64* state from ``seed``: an int, a numpy Generator (one draw), ``None``
    (fresh entropy) or a state array (returned as is, to be advanced in place)."""
    if isinstance(seed, np.ndarray):
        if seed.dtype != np.uint64 or seed.shape != (1,) or seed[0] == 0:
            raise ValueError("a random state is a nonzero uint64 array of one element")
        return seed
    if isinstance(seed, np.random.Generator):
        return seed_state(int(seed.integers(2**63)))
    if seed is None:
        return seed_state(int(np.random.SeedSequence().generate_state(1, np.uint64)[0]))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, a numpy Generator or None, got {type(seed).__name__}")
    return seed_state(int(seed))


def _turn_start(game: Game) -> None:
    if game.result is not None:
        raise ValueError(f"the game is over ({game.result})")
    if game.current:
        raise ValueError(f"a turn is in progress ({game.current!r}): call at the start of a turn")


def random_playout(game: Game, seed=None, stop_probability: float = 0.5, record: bool = False):
    """Play one random game to its end from ``game`` (not changed), in the compiled core.

    Returns ``(winner, steps)``, or ``(winner, steps, codes)`` with ``record``: ``codes``
    is the string of the playout's steps, with ``"s"`` where the player stopped on a
    bounce. ``winner`` is 1, 2 or 0 (a draw).
    """
    _turn_start(game)
    if not 0 <= stop_probability <= 1:
        raise ValueError(f"stop_probability must be in [0, 1], got {stop_probability!r}")
    b = game.board
    out = np.zeros(2 * b.n_edges + 2 if record else 0, np.int8)
    winner, steps, written = playout(game.marks.copy(), game.ball_index, game.player, len(game.history),
                                     b.arrays, game.rules.flags, float(stop_probability), random_state(seed),
                                     out)
    if not record:
        return int(winner), int(steps)
    codes = "".join("s" if c == STOP_CODE else str(c) for c in out[:written])
    return int(winner), int(steps), codes


def playout_wins(game: Game, n: int, seed=None, stop_probability: float = 0.5):
    """``(wins, steps)`` of ``n`` random playouts from ``game``: ``wins[w]`` counts the
    playouts won by player ``w`` (``wins[0]``: drawn); ``steps`` is their total."""
    _turn_start(game)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    wins, steps = many_playouts(game.marks, game.ball_index, game.player, len(game.history),
                                game.board.arrays, game.rules.flags, float(stop_probability),
                                random_state(seed), int(n))
    return wins, int(steps)


def choose_turns(game: Game, cap: int, order: str = "random", seed=None, max_states: int = 0,
                 stop_at_win: bool = False, time_limit: float | None = None):
    """The ``cap`` best distinct turns of ``game``'s position by ``order``
    (:mod:`fepaper._core.picks`).

    Returns ``(turns, total, truncated)``: ``turns`` is a list of ``(steps, end node
    index, outcome)`` best first (outcome one of ``OUTCOME_NAMES`` as its code), ``total``
    the distinct turns seen, ``truncated`` whether the walk stopped at ``max_states``
    states or at ``time_limit``. With ``stop_at_win`` the walk stops at the first winning turn.
    """
    _turn_start(game)
    if order not in ORDERS:
        raise ValueError(f"order must be one of {sorted(ORDERS)}, got {order!r}")
    if cap < 1:
        raise ValueError(f"cap must be >= 1, got {cap}")
    b = game.board
    picks = new_picks(b.n_nodes, b.n_edges, int(cap))
    kept, total, truncated, _ = collect_turns(
        game.marks, game.ball_index, game.player, len(game.history), b.arrays, game.rules.flags,
        ORDERS[order], int(cap), int(max_states), bool(stop_at_win), random_state(seed), picks,
        new_keyset(32), new_budget(time_limit))
    return turns_of(picks, kept), int(total), bool(truncated)


def any_turn(game: Game) -> str:
    """A legal turn of ``game``'s position found without listing any: a walk of single steps
    that takes a step onto a fresh node (it ends the turn) when there is one, else a bounce.
    Each step marks an edge, so it ends within the board's edges whatever the position (a
    listing of a late position can walk more than 10**8 states): what a search under a
    deadline plays when its time ran out before it listed a turn.

    >>> any_turn(Game("codingame")) in Game("codingame").turns()
    True
    """
    _turn_start(game)
    here = game.copy()
    played = len(here.history)
    b = here.board
    while len(here.history) == played:
        steps = here.legal_steps()
        fresh = [d for d in steps if here.marks[b.neighbour[here.ball_index, d]] == 0]
        here.step((fresh or steps)[0])
    return here.history[played]


def turns_of(picks, kept: int) -> list[tuple[str, int, int]]:
    """The ``kept`` turns of a :class:`~fepaper._core.picks.Picks` filled by ``collect_turns``,
    best first."""
    out = []
    for i in range(kept):
        s = picks.order[i]
        steps = (picks.steps[s, : picks.lengths[s]] + 48).tobytes().decode()
        out.append((steps, int(picks.ends[s]), int(picks.outcomes[s])))
    return out
