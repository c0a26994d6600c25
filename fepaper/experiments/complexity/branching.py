"""Measurements of the game's complexity on real play: bounces, steps, branching, speed.

The thesis's §2.1 reasons from "at most 35 bounces", "4 steps from a node on
average, 7 at worst"; Foo's report speaks of the "space of moves" (8 at first,
usually 10-100, sometimes 1000, once about 5000 on 8 x 8). This module measures
those quantities on seeded games, each with its sample size:

* :func:`count_distinct_turns`: the distinct turns of a position with a cap on the
  walk's states; a capped count is *censored*: "at least N turns";
* :func:`count_step_sequences`: the ordered step sequences (turns without merging
  the ones that end alike), with a cap on the steps tried;
* :func:`sample_games` plays seeded random games, or games between controllers of
  the registry; :func:`measure_games` tabulates them (one row per game, per turn,
  per step); :func:`count_summary` gives percentiles that respect censoring;
The arithmetic of §2.1, the bounds and the walk's speed that feeds the estimate table
(:func:`~fepaper.experiments.complexity.estimates.walk_speed`) are in
:mod:`fepaper.experiments.complexity.estimates`; a search's nodes by depth in
:func:`fepaper.experiments.complexity.scaling.search_scaling`.

Examples
--------
>>> from fepaper.game import Game
>>> count_distinct_turns(Game("thesis")).turns
6
>>> bounces_per_turn(Game("thesis", "0 54"))
[0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._core.bundles import DONE, new_budget
from ..._core.sequences import count_sequences
from ..._core.turns import new_keyset, new_turn_buffer, new_walk, walk_turns
from ...game.counts import count_or_estimate
from ...game.game import Game
from ...game.progress import track
from ...game.rules import Rules
from ...play.arena import ArenaError, play_out
from ...play.randomplay import random_game

__all__ = [
    "TurnCount", "SequenceCount", "PHASES", "count_distinct_turns", "count_step_sequences",
    "bounces_per_turn", "phase_of", "sample_games", "play_controllers", "measure_games", "Measurement",
    "count_summary", "branching_distribution", "save_table", "summary_tables",
]

PHASES = ("opening", "middle", "end")


@dataclass(frozen=True)
class TurnCount:
    """Distinct turns of a position: all of them if ``complete``, else a lower bound
    found before the walk passed its cap of states."""

    turns: int
    states: int
    complete: bool

    def __str__(self) -> str:
        return str(self.turns) if self.complete else f"at least {self.turns} (more than {self.states} states)"


@dataclass(frozen=True)
class SequenceCount:
    """Ordered step sequences of a position (complete turns, nothing merged).

    ``steps`` are the steps tried (edges of the tree of step sequences) and
    ``expanded`` the nodes of that tree from which a step was tried, so
    ``steps / expanded`` is the mean number of free steps per node of a one-turn search.
    """

    sequences: int
    steps: int
    expanded: int
    complete: bool

    def __str__(self) -> str:
        return str(self.sequences) if self.complete else f"at least {self.sequences}"


def _check_cap(name: str, cap: int) -> int:
    if isinstance(cap, bool) or not isinstance(cap, int | np.integer) or cap < 1:
        raise ValueError(f"{name} must be a positive integer, got {cap!r}")
    return int(cap)


def _check_turn_start(game: Game) -> None:
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, got {type(game).__name__}")
    if game.is_over:
        raise ValueError(f"the game is over ({game.result}): a finished position has no turns")
    if game.current:
        raise ValueError("counts start at the start of a turn, not after a bounce")


def count_distinct_turns(game: Game, max_states: int = 1_000_000) -> TurnCount:
    """The distinct turns of ``game``'s position, walking at most ``max_states`` states.

    Raises
    ------
    ValueError
        If the game is over, inside a turn, or ``max_states`` is not a positive integer.
    """
    _check_turn_start(game)
    cap = _check_cap("max_states", max_states)
    b = game.board
    walk = new_walk(b.n_edges, game.ball_index)
    table = new_keyset(min(cap, 8192))
    count, _ = walk_turns(game.marks.copy(), b.arrays, game.rules.flags, walk, table, new_turn_buffer(0, 0),
                          -1, cap, new_budget(), True)
    return TurnCount(int(count), int(walk.used[0]), bool(walk.ctl[1] == DONE))


def count_step_sequences(game: Game, max_steps: int = 1_000_000) -> SequenceCount:
    """The ordered step sequences that are complete turns from ``game``'s position.

    Two sequences that mark the same edges and end on the same node are one
    distinct turn but two sequences here; the walk tries at most ``max_steps`` steps.

    Raises
    ------
    ValueError
        If the game is over, inside a turn, or ``max_steps`` is not a positive integer.
    """
    _check_turn_start(game)
    cap = _check_cap("max_steps", max_steps)
    s, n, e, ok = count_sequences(game.marks.copy(), game.ball_index, game.board.arrays, game.rules.flags,
                                  cap)
    return SequenceCount(int(s), int(n), int(e), bool(ok))


def bounces_per_turn(game: Game) -> list[int]:
    """Bounces in each completed turn: one per step after the first (``steps - 1``).

    A turn of ``k`` steps landed ``k - 1`` times on a marked node and went on; a
    final landing on a marked node where the player stopped is not counted.
    """
    return [len(turn) - 1 for turn in game.history]


def phase_of(index: int, length: int) -> str:
    """The third of a game of ``length`` turns that turn ``index`` (0-based) falls in."""
    if length < 1 or not 0 <= index < length:
        raise ValueError(f"need 0 <= index < length, got index={index}, length={length}")
    return PHASES[min(2, 3 * index // length)]


def play_controllers(rules, specs, seed: int = 0, max_turns: int = 500, opening: int = 0) -> Game:
    """Play one game between two controller specs (player 1 first); each controller
    without a ``seed`` in its spec gets one drawn from ``seed``. The first ``opening``
    turns are drawn uniformly among the distinct turns (seeded), so that games between
    deterministic controllers differ."""
    from ...controllers import make

    rng = np.random.default_rng(seed)
    players = []
    for spec in specs:
        spec = {"name": spec} if isinstance(spec, str) else dict(spec)
        spec.setdefault("seed", int(rng.integers(2**31)))
        players.append(make(spec))
    game = Game(rules)
    while not game.is_over and len(game.history) < opening:
        turns = [t.steps for t in game.turns()]
        game.push(turns[int(rng.integers(len(turns)))])
    broke = play_out(game, {1: players[0], 2: players[1]}, max_turns=max_turns)
    if broke is not None:  # a controller is a part of fepaper: its illegal turn is a bug
        raise ArenaError(f"{players[broke.player - 1].spec} played an illegal turn {broke.turn!r}: "
                         f"{broke.error}")
    return game


def sample_games(rules, n_games: int, seed: int = 0, source="random", stop_probability: float = 0.5,
                 max_turns: int = 500, opening: int = 0) -> list[Game]:
    """``n_games`` seeded games: random steps (``source="random"``) or a pair of controller
    specs, e.g. ``("greedy", "greedy")``, after ``opening`` random turns. Game ``k`` is
    seeded from ``(seed, k)``."""
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative integer, got {n_games!r}")
    rules = Rules.from_spec(rules)
    games = []
    what = "random games" if source == "random" else "games between controllers"
    for k in track(range(n_games), f"{rules}: {what} played", unit="game"):
        rng = np.random.default_rng([seed, k])
        if source == "random":
            games.append(random_game(rules, rng, stop_probability))
        elif isinstance(source, tuple | list) and len(source) == 2:
            games.append(play_controllers(rules, source, int(rng.integers(2**31)), max_turns, opening))
        else:
            raise ValueError(f"source must be 'random' or a pair of controller specs, got {source!r}")
    return games


@dataclass
class Measurement:
    """Tables of one sample: ``games`` (one row per game), ``turns`` (one row per
    turn-start position) and ``steps`` (one row per step), plus the settings."""

    games: pd.DataFrame
    turns: pd.DataFrame
    steps: pd.DataFrame
    settings: dict


def measure_games(games: list[Game], max_states: int = 200_000, max_steps: int | None = 200_000,
                  label: str = "", exact_limit: int | None = None, samples: int = 64,
                  sample_cap: int = 1 << 17, max_work: int | None = None) -> Measurement:
    """Replay ``games`` and measure every turn-start position and every step.

    ``turns`` has ``game, turn`` (1-based), ``player, phase, steps, bounces``,
    ``distinct`` (turns, a lower bound when ``censored``), ``states``, ``censored``,
    and (unless ``max_steps`` is None) ``sequences``, ``sequences_censored`` and
    ``free_per_node`` (mean free steps per node of the tree of step sequences).

    With ``exact_limit`` the distinct turns are never censored: each position is counted
    exactly up to ``exact_limit`` turns and estimated past it
    (:func:`fepaper.game.counts.count_or_estimate`, ``samples`` sub-trees of at most
    ``sample_cap`` units of work, seeded by the position's place), so ``distinct`` is
    exact or an estimate, ``distinct_low``/``distinct_high`` its 95 % interval (equal to
    it when exact), ``exact`` says which, and ``censored`` marks the rare position whose
    estimate passed its work budget, ``max_work`` units (default ``4 * samples * sample_cap``;
    then ``distinct`` is the lower bound counted and ``distinct_high`` infinite).
    ``steps`` has ``game, turn, step`` (1-based within the turn), ``free`` (free
    directions at the node the step leaves) and ``after_bounce``.
    """
    _check_cap("max_states", max_states)
    if max_steps is not None:
        _check_cap("max_steps", max_steps)
    game_rows, turn_rows, step_rows = [], [], []
    for g, played in enumerate(track(games, f"{label or 'games'}: positions measured", unit="game")):
        if not isinstance(played, Game):
            raise TypeError(f"games[{g}] is a {type(played).__name__}, not a Game")
        length = len(played.history)
        replay = Game(played.rules)
        for t, turn in enumerate(played.history):
            row = {"game": g, "turn": t + 1, "player": replay.player, "phase": phase_of(t, length),
                   "steps": len(turn), "bounces": len(turn) - 1}
            if exact_limit is None:
                count = count_distinct_turns(replay, max_states)
                row.update(distinct=count.turns, states=count.states, censored=not count.complete)
            else:
                est = count_or_estimate(replay, exact_limit, samples, sample_cap, seed=1000 * g + t,
                                        max_work=max_work)
                row.update(distinct=est.value, distinct_low=est.low, distinct_high=est.high, exact=est.exact,
                           censored=bool(np.isinf(est.high)))  # an estimate past its work: a lower bound
            if max_steps is not None:
                seq = count_step_sequences(replay, max_steps)
                per_node = seq.steps / seq.expanded if seq.complete and seq.expanded else np.nan
                row.update(sequences=seq.sequences, sequences_censored=not seq.complete,
                           free_per_node=per_node)
            turn_rows.append(row)
            for s, c in enumerate(turn):
                step_rows.append({"game": g, "turn": t + 1, "step": s + 1,
                                  "free": bin(replay.free_mask()).count("1"), "after_bounce": s > 0})
                replay.step(c)
            if replay.current:
                replay.stop()
        result = played.result
        game_rows.append({"game": g, "turns": length, "steps": sum(map(len, played.history)),
                          "max_bounces": max(bounces_per_turn(played), default=0),
                          "winner": None if result is None else result.winner,
                          "reason": "unfinished" if result is None else result.reason})
    rules = games[0].rules if games else None
    settings = {"label": label, "rules": rules.to_dict() if rules else None, "n_games": len(games),
                "max_states": max_states, "max_steps": max_steps, "exact_limit": exact_limit,
                "samples": samples, "sample_cap": sample_cap}
    return Measurement(pd.DataFrame(game_rows), pd.DataFrame(turn_rows), pd.DataFrame(step_rows), settings)


def count_summary(values, censored=None, quantiles=(0.1, 0.25, 0.5, 0.75, 0.9, 0.99), estimated=None) -> dict:
    """Summary of counts some of which are lower bounds (``censored``).

    A quantile is given as a number when censoring cannot change it (computed with the
    censored values as their lower bounds and as infinity, both agree) and as ``None``
    otherwise. ``mean`` and ``geometric_mean`` are lower bounds when ``n_censored`` > 0;
    ``max`` is the largest complete count, ``max_lower_bound`` the largest value seen.
    """
    v = np.asarray(values, dtype=float)
    c = np.zeros(v.shape, bool) if censored is None else np.asarray(censored, dtype=bool)
    if v.shape != c.shape:
        raise ValueError(f"values and censored differ in length: {v.shape} vs {c.shape}")
    if v.size == 0:
        raise ValueError("no values to summarize")
    if (v < 0).any():
        raise ValueError("counts must be >= 0 (a capped count is a lower bound with censored=True)")
    high = np.where(c, np.inf, v)
    out = {"n": int(v.size), "n_censored": int(c.sum()), "min": float(v.min())}
    for q in quantiles:
        lo = float(np.quantile(v, q, method="inverted_cdf"))
        hi = float(np.quantile(high, q, method="inverted_cdf"))
        out[f"p{round(100 * q):g}"] = lo if lo == hi else None
    out["mean"] = float(v.mean())
    out["geometric_mean"] = float(np.exp(np.log(np.maximum(v, 1)).mean()))
    out["max"] = float(v[~c].max()) if (~c).any() else None
    out["max_lower_bound"] = float(v.max())
    out["bounds"] = "lower bounds" if c.any() else "exact"
    out["std"] = float(v.std(ddof=1)) if v.size > 1 else 0.0
    if estimated is not None:  # counts past the exact budget enter as estimates (with intervals)
        e = np.asarray(estimated, dtype=bool)
        out["n_estimated"] = int(e.sum())
        if e.any() and not c.any():
            out["bounds"] = f"exact, {int(e.sum())} estimated"
    return out



def summary_tables(samples: dict[str, Measurement]) -> dict[str, pd.DataFrame]:
    """The standard tables over labelled samples, one row per label (and phase).

    Keys: ``"bounces"`` (per turn: mean, median, 99th percentile, max, vs the thesis's
    35), ``"bounce_counts"`` (how many turns had each number of bounces),
    ``"branching"`` (:func:`count_summary` of the distinct turns, for each phase and
    ``"all"``), ``"free_steps"`` (free directions at the nodes the ball left; mean free
    steps per node of the tree of step sequences), ``"length"`` (turns and steps per
    game) and ``"dedup"`` (ordered step sequences per distinct turn, where both are exact).
    """
    out = {k: [] for k in ("bounces", "bounce_counts", "branching", "free_steps", "length", "dedup")}
    for label, m in samples.items():
        t, st, g = m.turns, m.steps, m.games
        b = t.bounces
        out["bounces"].append({"sample": label, "turns": len(t), "mean": b.mean(), "median": b.median(),
                               "p99": b.quantile(0.99), "max": b.max(), "share_bouncing": (b > 0).mean(),
                               "thesis_max": 35})
        for k, n in b.value_counts().sort_index().items():
            out["bounce_counts"].append({"sample": label, "bounces": int(k), "turns": int(n)})
        for phase in ("all",) + PHASES:
            part = t if phase == "all" else t[t.phase == phase]
            if len(part):
                est = ~part.exact.astype(bool) if "exact" in part else None
                out["branching"].append({"sample": label, "phase": phase,
                                         **count_summary(part.distinct, part.censored, estimated=est)})
        first, later = st[~st.after_bounce].free, st[st.after_bounce].free
        row = {"sample": label, "steps": len(st), "mean": st.free.mean(), "mean_first_step": first.mean(),
               "max_first_step": first.max(), "mean_after_bounce": later.mean(),
               "max_after_bounce": later.max(), "thesis_mean": 4, "thesis_worst": 7}
        if "free_per_node" in t:
            row.update(per_node_of_turn_tree=t.free_per_node.mean(),
                       positions=int(t.free_per_node.notna().sum()))
        out["free_steps"].append(row)
        out["length"].append({"sample": label, "games": len(g), "turns_mean": g.turns.mean(),
                              "turns_median": g.turns.median(), "turns_max": g.turns.max(),
                              "steps_mean": g.steps.mean(), "steps_max": g.steps.max(),
                              "max_bounces": g.max_bounces.max()})
        if "sequences" in t:
            both = t[~t.censored & ~t.sequences_censored & (t.exact.astype(bool) if "exact" in t else True)]
            ratio = both.sequences / both.distinct
            out["dedup"].append({"sample": label, "positions": len(both), "censored": len(t) - len(both),
                                 "median_ratio": ratio.median(), "mean_ratio": ratio.mean(),
                                 "max_ratio": ratio.max(), "share_merged": (ratio > 1).mean(),
                                 "distinct_total": both.distinct.sum(),
                                 "sequences_total": both.sequences.sum()})
    return {k: pd.DataFrame(v) for k, v in out.items()}

def branching_distribution(rules="thesis", width: int | None = None, height: int | None = None,
                           phase: str = "all", n_games: int = 10, seed: int = 0,
                           max_states: int = 50_000) -> pd.DataFrame:
    """Distinct turns per turn-start position of ``n_games`` random games on a board of
    ``rules`` (optionally resized), in one phase (``"opening"``, ``"middle"``, ``"end"``)
    or ``"all"``: the computation behind the notebook's interactive explorer."""
    rules = Rules.from_spec(rules)
    if width is not None or height is not None:
        rules = rules.replace(width=width or rules.width, height=height or rules.height)
    if phase not in PHASES + ("all",):
        raise ValueError(f"phase must be one of {PHASES + ('all',)}, got {phase!r}")
    m = measure_games(sample_games(rules, n_games, seed), max_states=max_states, max_steps=None)
    turns = m.turns
    return turns if phase == "all" else turns[turns.phase == phase].reset_index(drop=True)


def save_table(table: pd.DataFrame, folder, name: str, meta: dict) -> tuple:
    """Write ``table`` to ``folder/name.csv`` and ``meta`` (rules, seed, budget, sample
    sizes, ...) with the library version to ``folder/name.json``; return both paths."""
    import json
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    from ...game.writes import write_atomic

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    csv, sidecar = folder / f"{name}.csv", folder / f"{name}.json"
    write_atomic(csv, table.to_csv(index=False), name)
    try:
        lib = version("fepaper")
    except PackageNotFoundError:
        lib = "unknown"
    side = {"fepaper": lib, "rows": len(table), **meta}
    write_atomic(sidecar, json.dumps(side, indent=2, default=str), name)
    return csv, sidecar
