"""The arithmetic of the thesis's complexity analysis (§2.1), estimate tables and bounds.

Everything here but the speeds is exact arithmetic on the thesis's inputs or on the
board's geometry (the measurements on real play are in :mod:`fepaper.experiments.complexity.branching`).

* :func:`thesis_claims` recomputes every figure of §2.1 of the thesis and says,
  for each, whether it follows from its inputs.
* :func:`estimate_table` turns a branching factor and a speed into nodes and
  seconds per depth, as Tabela 2 of the Aboyne report does (minimax ``b^d``,
  alpha-beta ``b^(3d/4)`` on average and ``b^(d/2)`` at best);
  :func:`aboyne_table` is that table itself.
* :func:`state_space_bounds` bounds the number of positions of a board;
  :func:`game_tree_size` is the ``b^d`` estimate of the game tree;
* :func:`walk_speed` and :func:`search_by_depth` measure the nodes per second that the
  estimate table needs (the only functions here that play).

Examples
--------
>>> table = thesis_claims()
>>> row = table.set_index("claim").loc["years for 3.78e19 s"]
>>> row["verdict"]
'does not follow: right value is 1.200e+12'
>>> round(2 ** 45 / 10 ** 10 / 60, 2)
58.64
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import networkx as nx
import numpy as np
import pandas as pd

from ...game.board import Board
from ...game.game import Game
from ...game.rules import Rules
from .branching import count_distinct_turns

__all__ = [
    "JULIAN_YEAR", "THESIS_SPEED", "verdict", "thesis_claims", "alphabeta_best_case",
    "pearl_branching", "estimate_table", "aboyne_table", "state_space_bounds", "game_tree_size",
    "walk_speed", "search_speed", "registered_search", "search_by_depth",
]

#: Seconds in a Julian year (365.25 days), the year of astronomy and of SI-derived tables.
JULIAN_YEAR = 365.25 * 24 * 3600
#: The thesis's assumed speed: "the computer explores 10^10 nodes per second".
THESIS_SPEED = 10**10


def _sig(x: float, digits: int, mode: str = "round") -> float:
    """``x`` to ``digits`` significant figures, rounded or truncated."""
    if x == 0:
        return 0.0
    exponent = math.floor(math.log10(abs(x))) - digits + 1
    scaled = Fraction(x) / Fraction(10) ** exponent
    kept = round(scaled) if mode == "round" else math.floor(scaled)
    return float(Fraction(kept) * Fraction(10) ** exponent)


def _fmt(x: float) -> str:
    return f"{x:.4g}" if 1e-3 <= abs(x) < 1e6 else f"{x:.3e}"


def verdict(stated: float, right: float, digits: int) -> str:
    """Whether a figure stated to ``digits`` significant figures follows from its inputs.

    ``"agrees"`` if ``right`` rounds to ``stated``; ``"agrees (truncated, not rounded: ...)"``
    if it truncates to it; ``"approximately: right value is ..."`` within 10 %;
    otherwise ``"does not follow: right value is ..."``.

    Examples
    --------
    >>> verdict(3.52e13, 4 ** 22.5, 3)
    'agrees'
    >>> verdict(1.43e59, 7 ** 70, 3)
    'agrees (truncated, not rounded: 1.44e+59)'
    >>> verdict(2.88e25, 1.2e12, 3)
    'does not follow: right value is 1.200e+12'
    """
    if digits < 1:
        raise ValueError(f"digits must be >= 1, got {digits}")
    if right == 0:
        raise ValueError("the right value must not be 0 (the relative error is undefined)")
    if math.isclose(_sig(right, digits), stated, rel_tol=1e-12):
        return "agrees"
    if math.isclose(_sig(right, digits, "truncate"), stated, rel_tol=1e-12):
        return f"agrees (truncated, not rounded: {_sig(right, digits):.{digits - 1}e})"
    if abs(stated / right - 1) < 0.1:
        return f"approximately: right value is {_fmt(right)}"
    return f"does not follow: right value is {_fmt(right)}"


def alphabeta_best_case(b: int, d: int) -> int:
    """Leaves alpha-beta examines with perfect move ordering (Knuth and Moore, 1975):
    ``b^ceil(d/2) + b^floor(d/2) - 1`` on a uniform tree of branching ``b``, depth ``d``."""
    if b < 1 or d < 0:
        raise ValueError(f"need b >= 1 and d >= 0, got b={b}, d={d}")
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


def pearl_branching(b: int) -> float:
    """Alpha-beta's effective branching factor on random uniform trees (Pearl, 1982):
    ``xi / (1 - xi)`` where ``xi`` is the positive root of ``x^b + x - 1 = 0``."""
    if b < 2:
        raise ValueError(f"b must be >= 2, got {b}")
    lo, hi = 0.0, 1.0
    for _ in range(200):  # bisection: x^b + x - 1 is increasing on [0, 1]
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mid**b + mid - 1 < 0 else (lo, mid)
    xi = (lo + hi) / 2
    return xi / (1 - xi)


def thesis_claims() -> pd.DataFrame:
    """Every figure of §2.1 of the thesis, recomputed.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``claim``, ``inputs`` (how it is computed), ``thesis``
        (the value as stated, a float), ``recomputed`` (exact, then as float),
        ``relative_error`` (``thesis / recomputed - 1``), ``verdict`` and ``note``,
        and how the figure is read (declared here, before any verdict): ``kind``
        (``exact``: to the digits stated; ``upper bound``: a worst case the right value must
        not exceed; ``approximately``: within the relative ``tolerance``), with the
        ``reason`` for the reading. The verdicts are computed by :func:`verdict` from the
        stated number of significant figures, never written in.
    """
    rows = []

    def claim(name, inputs, stated, digits, right, note="", kind="exact", tolerance=None, reason=""):
        right_f = float(right)
        rows.append({
            "claim": name, "inputs": inputs, "thesis": stated, "recomputed": right_f,
            "relative_error": (stated / right_f - 1) if stated is not None else float("nan"),
            "verdict": verdict(stated, right_f, digits) if stated is not None else "(no value stated)",
            "note": note, "kind": kind, "tolerance": tolerance, "reason": reason,
        })

    bounces, turns = 35, 2
    claim("search depth of two turns: 35 x 2", "35 bounces x 2 turns", 70, 2, bounces * turns,
          "the thesis counts one step per bounce; a turn of 35 bounces has 36 steps, "
          f"so two such turns are 72 steps and 7^72 = {float(7**72):.3e}")
    claim("worst-case steps from a node: 8 - 1", "8 directions minus the edge just used", 7, 1, 8 - 1,
          "true after a bounce; the first step of a turn can have all 8 (e.g. the standard kick-off)")
    claim("worst-case steps after a bounce: 7", "8 minus the edge just used minus the marked edge "
          "that made the node bounce", 7, 1, 8 - 2,
          "a bounce lands on a node with a marked edge besides the one just used: at most 6 free "
          "steps; 7 only at the start of a turn (8 at an unmarked kick-off)", kind="upper bound",
          reason="\"in the worst case, the maximum number of movements\": a bound on every node")
    claim("worst-case sequences of one turn of 35 steps: 7^35", "7 x 6 ** 34 (7 first, then 6)",
          float(7**35), 3, 7 * 6**34, "7^35 is a valid upper bound but (7/6)^34 = "
          f"{(7 / 6) ** 34:.0f} times too loose", kind="upper bound",
          reason="\"the number of explored nodes in the worst case\": a bound on the tree")
    claim("minimax nodes, two turns of 35 steps: 7^70", "7 ** 70", 1.43e59, 3, 7**70)
    claim("minimax nodes, one turn of 35 steps: 7^35", "7 ** 35", None, 3, 7**35,
          f"the thesis writes 7^35 without a value; exactly {7**35}")
    seconds = Fraction(7**35, THESIS_SPEED)
    claim("seconds for 7^35 nodes at 1e10 nodes/s", "7 ** 35 / 1e10", 3.78e19, 3, seconds)
    years = seconds / Fraction(JULIAN_YEAR)
    claim("years for 3.78e19 s", "7 ** 35 / 1e10 / (365.25 x 86400)", 2.88e25, 3, years,
          f"2.88e25 years would be {2.88e25 * JULIAN_YEAR:.3e} s; with 365-day years the value is "
          f"{float(seconds / (365 * 86400)):.3e}; no simple unit slip gives 2.88e25")
    claim("average-case alpha-beta exponent: 30 x 3/4 = 45/2", "(15 x 2) x 3/4", 22.5, 3,
          Fraction(15 * 2) * Fraction(3, 4), "30 = 15 bounces x 2 turns, again one step per bounce")
    claim("alpha-beta nodes, average case: 4^(45/2)", "4 ** 22.5 = 2 ** 45", 3.52e13, 3, 2**45)
    claim("seconds for 4^(45/2) nodes at 1e10 nodes/s", "2 ** 45 / 1e10", 3.52e3, 3,
          Fraction(2**45, THESIS_SPEED))
    claim("minutes for 4^(45/2) nodes at 1e10 nodes/s", "2 ** 45 / 1e10 / 60", 58.64, 4,
          Fraction(2**45, THESIS_SPEED * 60), "from the unrounded seconds (3518.4 s); 3.52e3 / 60 = 58.67")
    best = alphabeta_best_case(4, 30)
    claim("best case: alpha-beta halves the exponent (b = 4, d = 30)",
          "Knuth-Moore: log_4(4^15 + 4^15 - 1) / 30", 0.5, 1, math.log(best, 4) / 30,
          f"the exact minimal tree has {best} leaves, about twice 4^15: the exponent is halved "
          "up to a factor 2 in the count", kind="approximately", tolerance=0.5,
          reason="\"a half\" is a fraction in halves: read to the nearest half, within 1/4, half of 1/2")
    ratio = math.log(pearl_branching(4)) / math.log(4)
    claim("average case: alpha-beta exponent factor 3/4 (b = 4)", "Pearl: log(xi/(1-xi)) / log b",
          0.75, 2, ratio,
          "3/4 is the usual rule of thumb for random trees; Pearl's exact factor is about 0.70 for "
          "2 <= b <= 20 and reaches 3/4 only near b = 500; on well-ordered real trees it is lower",
          kind="approximately", tolerance=1 / 6,
          reason="3/4 is a fraction in quarters, the textbook's rough average case: read to the nearest "
          "quarter, within 1/8, 1/6 of 3/4")
    return pd.DataFrame(rows)


def estimate_table(branching: float, nodes_per_second: float | list[float], depths=range(1, 9),
                   first_level: int = 1) -> pd.DataFrame:
    """Nodes and seconds per depth from a branching factor, as Tabela 2 of the Aboyne report.

    Parameters
    ----------
    branching : float
        Turns per position (say which average it is: mean, median or geometric).
    nodes_per_second : float or list of float
        One or more speeds; each gives a ``seconds_*`` column per kind of search.
    depths : iterable of int
        Depths in turns (plies). Aboyne counts its levels from 0, with ``b^(level + 1)``
        nodes at level ``level``: pass ``first_level=0`` for that numbering.
    first_level : int
        The number of the first level of a one-turn search (1 here, 0 in Aboyne).

    Returns
    -------
    pandas.DataFrame
        ``depth``, ``minimax`` (``b^d``), ``alphabeta_average`` (``b^(3d/4)``),
        ``alphabeta_best`` (``b^(d/2)``), and ``seconds_<kind>@<speed>`` columns.
    """
    speeds = [nodes_per_second] if isinstance(nodes_per_second, int | float) else list(nodes_per_second)
    if not branching >= 1:
        raise ValueError(f"branching must be >= 1, got {branching!r}")
    if not speeds or any(not s > 0 for s in speeds):
        raise ValueError(f"nodes_per_second must be positive, got {nodes_per_second!r}")
    rows = []
    for level in depths:
        d = level - first_level + 1
        if d < 1:
            raise ValueError(f"depth {level} is below the first level {first_level}")
        row = {"depth": level, "minimax": branching**d, "alphabeta_average": branching ** (0.75 * d),
               "alphabeta_best": branching ** (0.5 * d)}
        for s in speeds:
            for kind in ("minimax", "alphabeta_average", "alphabeta_best"):
                row[f"seconds_{kind}@{s:g}"] = row[kind] / s
        rows.append(row)
    return pd.DataFrame(rows)


def aboyne_table() -> pd.DataFrame:
    """Tabela 2 of the Aboyne report recomputed: ``b = 18``, levels 0..8, speeds 1e3..1e6
    states per second (minimax only, as in the report)."""
    table = estimate_table(18, [1e3, 1e4, 1e5, 1e6], range(0, 9), first_level=0)
    keep = ["depth", "minimax"] + [c for c in table if c.startswith("seconds_minimax")]
    return table[keep].rename(columns={"depth": "level"})


def _trail_graph(board: Board) -> nx.Graph:
    """The field's edges a game can mark: not walls, not touching a goal node."""
    return nx.Graph([(u, v) for u, v, wall in board.graph.edges(data="wall")
                     if not wall and not board.graph.nodes[u]["goal"] and not board.graph.nodes[v]["goal"]])


def state_space_bounds(rules: Rules | str | dict) -> pd.DataFrame:
    """Upper bounds on the number of positions (ball on the field, game not over).

    Returns
    -------
    pandas.DataFrame
        One row per bound with ``bound``, ``value`` (an exact Python int), ``log10``
        and ``assumption``:

        * ``naive``: ``2^(free edges) x field nodes x 2`` (any set of marked edges,
          any ball node, either player to move);
        * ``trail parity``: the marked edges are one trail from the kick-off to the
          ball, so every node but those two has even marked degree. For a graph with
          ``m`` edges, ``n`` nodes and ``c`` components the edge sets with a given set
          of odd nodes are a coset of the cycle space, ``2^(m - n + c)`` of them; and
          the ball is the odd node other than the kick-off, so it is not a free
          factor: ``(field nodes) x 2^(m - n + c) x 2``;
        * ``turn start``: also the ball at the start of a turn. Under mandatory
          bounce a turn ends only on a node unmarked before (an inner node), or the
          game is at kick-off; and the player to move is the parity of the turns
          played, which is the number of such nodes the trail touches, so the ``x 2``
          goes too. Under optional bounce a turn may stop anywhere; the bound keeps
          every field node and both players.
    """
    rules = Rules.from_spec(rules)
    board = Board.of(rules)
    field = [p for p in board.nodes if not board.graph.nodes[p]["goal"]]
    free = int((~board.is_wall).sum())
    trail = _trail_graph(board)
    m, n, c = trail.number_of_edges(), trail.number_of_nodes(), nx.number_connected_components(trail)
    cycles = 2 ** (m - n + c)
    naive = 2**free * len(field) * 2
    parity = len(field) * cycles * 2
    if rules.bounce == "mandatory":
        inner = [p for p in field if board.initial_marks[board.index[p]] == 0 and p != board.kickoff]
        start = 1 + len(inner) * cycles
        how = (f"mandatory bounce: the ball on one of {len(inner)} inner nodes (or the kick-off at the "
               "start); the player to move follows from the marked edges")
    else:
        start = parity
        how = "optional bounce: a turn can stop on any node; no gain over trail parity"
    rows = [
        ("naive", naive, f"2^{free} edge sets (free edges, goal edges included) x {len(field)} "
                         "ball nodes x 2 players"),
        ("trail parity", parity, f"cycle space of the field's free edges: 2^({m} - {n} + {c}) "
                                 f"edge sets per ball node x {len(field)} x 2"),
        ("turn start", start, how),
    ]
    return pd.DataFrame([{"bound": b, "value": v, "log10": math.log10(v), "assumption": a}
                         for b, v, a in rows])


def game_tree_size(branching: float, length: float) -> dict[str, float]:
    """The ``b^d`` estimate of the number of games: ``log10`` and the assumption.

    ``branching`` is turns per position (one average of it) and ``length`` turns per
    game; the estimate assumes every position of every game has ``branching`` turns
    and every game ``length`` turns, which neither is.
    """
    if not branching >= 1 or not length > 0:
        raise ValueError(f"need branching >= 1 and length > 0, got {branching!r}, {length!r}")
    log10 = length * math.log10(branching)
    return {"branching": branching, "length": length, "log10": log10,
            "assumption": "uniform tree: every position has b turns, every game d turns"}


# -- speeds that feed the estimate table ----------------------------------------------------
def walk_speed(games: list[Game], max_states: int = 200_000) -> dict:
    """States per second of the distinct-turn walk over the turn-start positions of ``games``
    (the compiled kernel is warmed up first, outside the timing)."""
    positions = []
    for played in games:
        replay = Game(played.rules)
        for turn in played.history:
            positions.append(replay.copy())
            replay.play(turn)
            if replay.is_over:
                break
    if not positions:
        raise ValueError("no positions: pass games with at least one turn")
    count_distinct_turns(positions[0], 10)
    states, start = 0, time.perf_counter()
    for p in positions:
        states += count_distinct_turns(p, max_states).states
    seconds = time.perf_counter() - start
    return {"positions": len(positions), "states": states, "seconds": seconds,
            "nodes_per_second": states / seconds if seconds > 0 else math.inf}


def search_speed(spec: dict, positions: list[Game]) -> pd.DataFrame:
    """Time one decision of the controller ``spec`` at each position: nodes, seconds and
    nodes per second per decision (from its :class:`~fepaper.search.result.SearchResult`)."""
    from ...controllers import make

    controller = make(spec)
    rows = []
    for i, game in enumerate(positions):
        controller.choose_turn(game)
        d = controller.last
        rows.append({"position": i, "turn": len(game.history) + 1, "nodes": d.nodes, "seconds": d.seconds,
                     "nodes_per_second": d.nodes / d.seconds if d.seconds > 0 else np.nan})
    return pd.DataFrame(rows)


def registered_search(names=("turnsearch", "alphabeta")) -> str | None:
    """The first of ``names`` that the controller registry holds, or ``None``.

    A name not registered yet is looked for as the module ``fepaper.controllers.<name>``
    (importing it registers it); a module that is missing or fails to import is skipped.
    """
    import importlib

    from ...controllers import REGISTRY

    for n in names:
        if n not in REGISTRY:
            try:
                importlib.import_module(f"fepaper.controllers.{n}")
            except Exception:  # a controller being written may not import yet: skip it
                continue
        if n in REGISTRY:
            return n
    return None


def _search_rows(spec: dict, records: list[tuple[dict, str]]) -> list[dict]:
    """Worker of :func:`search_by_depth`: plain data in, plain rows out."""
    registered_search((spec["name"],))
    positions = [Game(rules, moves) for rules, moves in records]
    search_speed(spec, positions[:1])  # warm-up: compiling or loading kernels is not search time
    return search_speed(spec, positions).to_dict("records")


def search_by_depth(name: str, positions: list[Game], depths=range(1, 6), max_seconds: float = 5.0,
                    extra: dict | None = None, isolate: bool = True) -> pd.DataFrame:
    """Nodes and seconds per decision of controller ``name`` at each depth of ``depths``.

    Builds ``{"name": name, "depth": d, **extra}``; stops at the first depth the
    controller does not accept, after a depth whose mean decision took more than
    ``max_seconds``, or when the search fails. With ``isolate`` each depth runs in a
    child process, so a search that crashes the interpreter ends the table instead
    of the caller. One row per depth: ``depth, decisions, nodes, seconds`` (means) and
    ``nodes_per_second`` (total nodes / total seconds); ``table.attrs["stopped"]``
    says why the table ends.
    """
    from ...controllers import SpecError, make
    from ..play.pools import worker_pool

    registered_search((name,))
    records = [(g.rules.to_dict(), g.moves) for g in positions]
    rows, stopped = [], "all depths done"
    for d in depths:
        spec = {"name": name, "depth": int(d), **(extra or {})}
        try:
            make(spec)
        except SpecError as exc:
            stopped = f"depth {d} not accepted: {exc}"
            break
        try:
            if isolate:
                with worker_pool(1) as pool:
                    per = pd.DataFrame(pool.submit(_search_rows, spec, records).result())
            else:
                per = pd.DataFrame(_search_rows(spec, records))
        except Exception as exc:  # a crashed or failing search ends the table, not the caller
            stopped = f"depth {d} failed: {type(exc).__name__}: {exc}"
            break
        total = per.seconds.sum()
        rows.append({"depth": int(d), "decisions": len(per), "nodes": per.nodes.mean(),
                     "seconds": per.seconds.mean(),
                     "nodes_per_second": per.nodes.sum() / total if total > 0 else np.nan})
        if per.seconds.mean() > max_seconds:
            stopped = f"depth {d} took {per.seconds.mean():.1f} s per decision (> {max_seconds} s)"
            break
    table = pd.DataFrame(rows, columns=["depth", "decisions", "nodes", "seconds", "nodes_per_second"])
    table.attrs["stopped"] = stopped
    return table
