"""Check a certificate by playing every defence against it, with the pure-Python rules.

:func:`verify_proof` reads a certificate (:mod:`fepaper.search.prooffile`) and replays the
winner's strategy from the position it claims, using only the reference turn walk of
:mod:`fepaper.search.reference.turns` (which reads the rules itself) and the board's graph: at
each position of the winner it plays the certificate's turn, which must be one of the position's
distinct turns; at each position of the loser it plays **every** distinct turn. Every game must
end in the winner's win: a goal it scores or an own goal of the loser, or the loser blocked (when
a blocked player loses). Nothing of the solvers is used (no table, no kernel), so a certificate
that passes is a proof whatever wrote it; a position already checked is not checked again (the
strategy is a DAG: distinct turn sequences transpose).

Errors say what is wrong and where, as the game from the position proven::

    ProofError: certificate x.proof.gz: after 1 54: no turn of the winner (player 1) for this position

Examples
--------
A strategy of one turn (the first player's ``1`` from the kick-off) is not a proof: the second
player's ``6`` leaves a position it has no answer for.

>>> import tempfile, pathlib
>>> from fepaper.game import Board, Rules
>>> from fepaper.search.prooffile import write_proof
>>> board = Board(Rules.from_spec({"width": 2, "height": 2, "middle_line": False}))
>>> walls = sum(1 << e for e in range(board.n_edges) if board.is_wall[e])
>>> path = write_proof(pathlib.Path(tempfile.mkdtemp()) / "p.proof.gz", board.rules, "", 1, board.n_edges,
...                    [(walls, board.kickoff, 0, "1")])
>>> verify_proof(path)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fepaper.search.reference.proofcheck.ProofError: certificate ...: after 1 6: no turn of the winner ...
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ...game.board import Board
from ...game.rules import Rules
from ..prooffile import read_proof
from .turns import distinct_turns, steps_from

__all__ = ["ProofError", "verify_proof"]


class ProofError(ValueError):
    """A certificate that does not prove what it claims, naming the first position where it fails."""


def _turn_of(board: Board, marked: frozenset, ball, steps: str):
    """The position ``(end, marked after)`` a turn's steps reach (each an unmarked edge), or None."""
    node = ball
    for ch in steps:
        step = [(nbr, e) for d, nbr, e in steps_from(board, node) if d == int(ch)]
        if not step or step[0][1] in marked:
            return None
        node, marked = step[0][0], marked | {step[0][1]}
    return node, marked


def _free(board: Board, marked: frozenset, node) -> bool:
    return any(e not in marked for _, _, e in steps_from(board, node))


def _finished(board: Board, rules: Rules, kind: str, end, after: frozenset, mover: int, played: int):
    """How a game stands after ``mover``'s turn: ``None`` (it goes on), or the winner (0: a draw)."""
    if kind == "goal":
        return 1 if board.graph.nodes[end]["goal"] == 1 else 2  # player 1 attacks the top goal
    if kind == "blocked":
        return 3 - mover if rules.blocked == "loss" else 0
    if rules.max_turns is not None and played + 1 >= rules.max_turns:
        return 0
    if not _free(board, after, end):  # the opponent cannot make a step
        return mover if rules.blocked == "loss" else 0
    return None


def _start(board: Board, moves: str, where: str):
    """The position after ``moves`` from the kick-off, each turn one of the reference's distinct turns."""
    marked = frozenset(e for e in range(board.n_edges) if board.is_wall[e])
    ball, player, played = board.kickoff, 1, 0
    for turn in moves.split():
        reached = _turn_of(board, marked, ball, turn)
        turns = distinct_turns(board, marked, ball)
        if reached is None or reached not in turns:
            raise ProofError(f"{where}: the position's moves: {turn!r} after {played} turns is not a turn")
        if _finished(board, board.rules, turns[reached][1], *reached, player, played) is not None:
            raise ProofError(f"{where}: the position's moves end the game")
        (ball, marked), player, played = reached, 3 - player, played + 1
    return marked, ball, player, played


def verify_proof(path: str | Path) -> dict:
    """Check the certificate ``path``; a summary if it proves its claim.

    Returns
    -------
    dict
        ``rules``, ``moves``, ``winner``, ``winner_positions`` (positions of the winner checked),
        ``loser_positions``, ``unused_records`` (records no defence reaches), ``seconds``.

    Raises
    ------
    ProofError
        Naming the game that reaches the first position where the strategy fails: no turn there,
        a turn that is not a distinct turn of the position, a game the loser wins or draws.
    ProofFileError
        If the file is not a certificate (:func:`fepaper.search.prooffile.read_proof`).
    """
    start = time.perf_counter()
    where = f"certificate {path}"
    header, strategy = read_proof(path)
    rules = Rules.from_spec(header["rules"])
    board = Board(rules)
    if header["edges"] != board.n_edges:
        raise ProofError(f"{where}: {header['edges']} edges, the rules' board has {board.n_edges}")
    winner = header["winner"]
    limit = rules.max_turns is not None
    marked, ball, player, played = _start(board, header["moves"], where)
    done: set = set()
    used: set = set()
    counts = {"winner": 0, "loser": 0}

    def at(line):
        return f"{where}: after {' '.join(line)}" if line else f"{where}: at the position proven"

    def bits(m):
        return sum(1 << e for e in m)

    def check(marked, ball, player, played, line):
        key = (marked, ball, played if limit else 0)
        if key in done:
            return
        if not _free(board, marked, ball):
            if player == winner or rules.blocked != "loss":
                raise ProofError(f"{at(line)}: player {player} cannot move and the winner does not win")
            done.add(key)
            return
        turns = distinct_turns(board, marked, ball)
        if player == winner:
            counts["winner"] += 1
            record = (bits(marked), ball, played if limit else 0)
            steps = strategy.get(record)
            if steps is None:
                raise ProofError(f"{at(line)}: no turn of the winner (player {winner}) for this position")
            used.add(record)
            reached = _turn_of(board, marked, ball, steps)
            if reached is None or reached not in turns:
                raise ProofError(f"{at(line)}: the winner's turn {steps} is not a turn of this position")
            plays = [(steps, *reached, turns[reached][1])]
        else:
            counts["loser"] += 1
            plays = [(s, end, after, kind) for (end, after), (s, kind) in turns.items()]
        for steps, end, after, kind in plays:
            result = _finished(board, rules, kind, end, after, player, played)
            if result is None:
                check(after, end, 3 - player, played + 1, [*line, steps])
            elif result != winner:
                raise ProofError(f"{at([*line, steps])}: the game ends "
                                 + ("drawn" if result == 0 else f"won by player {result}, not the winner"))
        done.add(key)

    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(max(depth, 4 * board.n_edges + 100))
    try:
        check(marked, ball, player, played, [])
    finally:
        sys.setrecursionlimit(depth)
    return {"rules": rules.to_dict(), "moves": header["moves"], "winner": winner,
            "winner_positions": counts["winner"], "loser_positions": counts["loser"],
            "unused_records": len(strategy) - len(used), "seconds": time.perf_counter() - start}
