"""Solved boards: who wins the kick-off with perfect play, board by board.

:func:`solve_board` solves one rules' kick-off with :func:`fepaper.search.solve.solve` and adds one
row to a table of solved boards (``data/solved_boards.csv``, :mod:`.solvedtable`: every row checked
and sealed with a digest, the table and its JSON sidecar replaced atomically, one writer at a time):
the rules, the value, every winning first turn, the effort (nodes, positions stored, seconds, the
process's peak memory), the budget and the fepaper commit that solved it. A board already in the
table is not solved again unless asked (``again``); its row is returned as it stands.

Examples
--------
>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "solved.csv"
>>> row = solve_board({"width": 2, "height": 2, "middle_line": False}, out, seconds=60)
>>> row["value"], row["winning_first_turns"], row["nodes"] > 0
('first player wins', '1 17 2 6 7 71', True)
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

from ...game import Game, Rules
from ...search.prooffile import proof_name, write_proof
from ...search.solve import DEFAULT_MEMORY_GB, solve
from ...stats.regression import fit_line
from .solvedtable import (
    COLUMNS,
    VALUE_NAMES,
    append,
    locked,
    read_table,
    read_text,
    row_cells,
    rules_key,
    sidecar_path,
    sync_sidecar,
    typed_row,
)

__all__ = ["COLUMNS", "VALUE_NAMES", "solve_board", "read_table", "rules_key", "free_edges", "commit",
           "effort_fit"]


_WARM_UP = {"width": 2, "height": 2, "bounce": "mandatory"}


def free_edges(rules) -> int:
    """Edges not marked at the kick-off (walls and the middle line excluded)."""
    board = Game(rules).board
    return int(board.n_edges - board.is_wall.sum())


def commit() -> str:
    """The fepaper commit (short hash, ``+modified`` when the package has uncommitted changes;
    ``"unknown"`` outside a git checkout)."""
    here = Path(__file__).resolve().parents[2]  # the fepaper package
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--", "."],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+modified" if dirty else "")


def _solved(rules: Rules, seconds: float | None, memory_gb: float, method: str, proofs: Path | None,
            all_wins: bool = True) -> dict:
    """The record of one solve of ``rules``' kick-off: every column of the table but its digest; with
    df-pn and a folder ``proofs``, a won board's certificate is written there. Without ``all_wins``
    the search ends at the first winning first turn it proves (the others not asked)."""
    dfpn = method == "dfpn"
    solve(Game(_WARM_UP), table_bits=4, method=method, proof=dfpn)  # load the kernels before the clock
    game = Game(rules)
    result = solve(game, seconds, memory_gb, method=method, proof=dfpn and proofs is not None,
                   all_wins=all_wins)
    d = result.details
    first = d["winner"] == 1
    certificate, size = "", 0
    if d.get("proof") and d["proof_complete"]:
        path = write_proof(Path(proofs) / proof_name(rules), rules, "", d["winner"], game.board.n_edges,
                           d["proof"])
        certificate, size = path.name, path.stat().st_size
    return {
        "rules": rules_key(rules), "width": rules.width, "height": rules.height,
        "middle_line": rules.middle_line, "bounce": rules.bounce, "dead_end": rules.dead_end,
        "blocked": rules.blocked, "max_turns": rules.max_turns, "free_edges": free_edges(rules),
        "value": VALUE_NAMES[d["winner"]], "winning_first_turns": " ".join(d["best"]) if first else "",
        "all_winning_turns": d["best_complete"] if first else None, "first_turns": d["turns"],
        "proven_first_turns": d["proven"], "nodes": result.nodes, "positions": d["positions"],
        "deepest": result.depth, "seconds": round(result.seconds, 3),
        "peak_rss_mb": round(d["peak_rss_mb"], 1),
        "budget_seconds": seconds, "memory_cap_gb": memory_gb, "stopped": d["stopped"] or "",
        "commit": commit(), "best_first_turns": " ".join(d["best"]), "first_turns_won": d["wins"],
        "first_turns_not_won": d["not_wins"], "table_slots": d["table_slots"],
        "table_mb": round(d["table_mb"], 1), "writes": d["writes"], "hits": d["hits"], "method": method,
        "certificate": certificate, "certificate_bytes": size,
    }


def solve_board(rules, out=None, *, seconds: float | None = 300.0, memory_gb: float = DEFAULT_MEMORY_GB,
                again: bool = False, method: str = "alphabeta", proofs=None, all_wins: bool = True) -> dict:
    """Solve the kick-off of ``rules`` with ``method`` (``"alphabeta"`` or ``"dfpn"``) and add its row
    to the table ``out`` (a ``.csv`` file; its sidecar ``.json`` beside it); a board ``out`` holds a
    row of, by the same method, is returned from the file unless ``again``. ``out=None`` writes
    nothing. With df-pn and a folder ``proofs``, a
    won board's certificate is written there (:func:`fepaper.search.prooffile.proof_name`) and named
    in the row. Without ``all_wins`` the search ends at the first winning first turn it proves: the
    row's ``all_winning_turns`` is then False.

    Returns the row (a dict of :data:`COLUMNS`, typed alike whether solved now or read back) with
    ``"solved_now"`` saying whether it was solved by this call.

    Raises
    ------
    SolvedTableError
        If ``out`` holds a row fepaper did not write as it stands (named by its line), before any
        solving.
    FileBusyError
        If another run is updating a table of the same folder.
    """
    rules = Rules.from_spec(rules)
    key = rules_key(rules)
    if out is None:
        record = _solved(rules, seconds, memory_gb, method, proofs, all_wins)
        return {**typed_row(row_cells(record)), "solved_now": True}
    sidecar_path(out)  # a table is a .csv file, never its own sidecar
    with locked(out) as path:
        text, rows = read_text(path)
        if text:
            sync_sidecar(path, text, rows)
        if not again:
            for row in rows:
                if row["rules"] == key and row["method"] == method:
                    return {**row, "solved_now": False}
        row = append(path, text, rows, _solved(rules, seconds, memory_gb, method, proofs, all_wins))
    return {**row, "solved_now": True}


def effort_fit(rows: list[dict], at: float, *, method: str = "dfpn", min_nodes: int = 1000,
               level: float = 0.95, where: dict | None = None) -> dict:
    """The growth of the solving effort with the board: a least-squares line of log(nodes) on the
    free edges over the rows of ``method`` that were solved with more than ``min_nodes`` nodes (and,
    with ``where``, whose fields equal its values: one rule variant, such as the standard board's),
    and what it gives at ``at`` free edges with its ``level`` prediction interval (Student's t with
    n - 2 degrees of freedom, the scatter of the boards about the line included).

    Returns ``{"boards", "slope", "growth" (nodes x per free edge), "intercept", "range" (fitted free
    edges, lowest and highest), "at", "nodes", "low", "high", "residual_sd"}``; ``at`` beyond the
    range is an extrapolation, and the interval holds only if the growth stays exponential there.

    Raises
    ------
    ValueError
        With fewer than three rows to fit.
    """
    where = where or {}
    points = [(r["free_edges"], r["nodes"]) for r in rows
              if r["method"] == method and r["value"] != VALUE_NAMES[None] and r["nodes"] > min_nodes
              and all(r.get(k) == v for k, v in where.items())]
    if len(points) < 3:
        among = f" with {where}" if where else ""
        raise ValueError(f"effort_fit: {len(points)} solved rows of {method}{among} with more than "
                         f"{min_nodes} nodes; at least 3 are needed")
    line = fit_line([p[0] for p in points], np.log(np.array([p[1] for p in points], float)))
    mid, low, high = line.predict(at, level)
    return {"boards": len(points), "slope": line.slope, "growth": float(np.exp(line.slope)),
            "intercept": line.intercept, "range": (float(line.x.min()), float(line.x.max())), "at": at,
            "nodes": float(np.exp(mid)), "low": float(np.exp(low)), "high": float(np.exp(high)),
            "residual_sd": line.residual_sd}


def forced_within(game: Game, turns: int, cap: int = 20_000) -> float | None:
    """+1 if the player to move can force a win within ``turns`` turns, -1 if it cannot avoid a
    loss within them, 0 otherwise (the reference alpha-beta over TurnState, an unfinished leaf
    worth 0); ``None`` past ``cap`` leaves."""
    from ...search.reference import alphabeta
    from ...search.reference.state import TurnState

    leaves = [0]

    class _TooBig(Exception):
        pass

    def evaluate(state, player):
        leaves[0] += 1
        if leaves[0] > cap:
            raise _TooBig
        return state.returns()[player] if state.is_terminal() else 0.0

    state = TurnState(game)
    try:
        return alphabeta(state, turns, state.current_player(), evaluate).value
    except _TooBig:
        return None


def oracle_positions(rules, count: int, seed: int = 0, max_nodes: int = 300_000) -> list[dict]:
    """``count`` positions of ``rules`` whose outcome the solver proves (within ``max_nodes``) but
    that are not forced within three turns (the reference alpha-beta says so): each a few turns
    before the end of a seeded random game, of at most ``100 * count`` games (fewer positions when
    those hold fewer: a small board has few), ``count`` at most
    :data:`~fepaper.play.limits.MAX_ORACLE_POSITIONS`. Each is a dict: rules, moves, player, value (for the
    player to move: 1 or -1), winning_turns (every winning turn, when it wins), nodes."""
    from ...play.limits import MAX_ORACLE_POSITIONS, count_within
    from ...play.randomplay import random_game

    count_within(count, 1, MAX_ORACLE_POSITIONS, "count")
    rules = Rules.from_spec(rules)
    out: list[dict] = []
    for game_seed in range(seed, seed + 100 * count):
        full = random_game(rules, seed=game_seed)
        for back in range(10, 3, -1):
            if len(full.history) <= back:
                continue
            game = Game(rules, " ".join(full.history[:len(full.history) - back]))
            result = solve(game, max_nodes=max_nodes, table_bits=20)
            if result.value is None or result.value == 0 or not result.details["best_complete"]:
                continue
            if any(p["moves"] == game.moves for p in out) or forced_within(game, 3) != 0:
                continue  # forced within three turns, or too big for the reference to say
            out.append({"rules": rules.to_dict(), "moves": game.moves, "player": game.player,
                        "value": int(result.value),
                        "winning_turns": result.details["best"] if result.value > 0 else [],
                        "nodes": result.nodes})
            break
        if len(out) >= count:
            break
    return out
