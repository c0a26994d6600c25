"""The pure-Python twin of the compiled turn kernels, written for clarity.

It works on the board's networkx graph with the marked edges as a ``frozenset`` of
edge ids, and follows ``docs/rules.md`` sentence by sentence, reading the rules' fields
itself (not the kernels' flags), so that it is an independent reading. It is slow on purpose only
in the sense that it makes no effort to be fast: the compiled core is tested
against it, and ``fepaper bench turns`` reports the ratio between the two.
"""

from __future__ import annotations

from ...game.board import DIRECTIONS, Board

__all__ = ["steps_from", "distinct_turns", "count_turns", "perft"]


def steps_from(board: Board, node: tuple[int, int]):
    """``(direction, neighbour, edge id)`` for every edge at ``node``, by direction."""
    out = []
    for nbr, data in board.graph[node].items():
        d = DIRECTIONS.index((nbr[0] - node[0], nbr[1] - node[1]))
        out.append((d, nbr, data["index"]))
    return sorted(out)


def _is_marked(board: Board, node, marked: frozenset[int]) -> bool:
    """A node is marked when any of its edges is marked."""
    return any(e in marked for _, _, e in steps_from(board, node))


def distinct_turns(board: Board, marked: frozenset[int], ball: tuple[int, int]) -> dict:
    """Every distinct turn from ``ball``.

    Returns a dict ``{(end node, marked edges after the turn): (steps, kind)}``,
    where ``kind`` is ``"end"`` (landed on an unmarked node), ``"stop"`` (stopped
    after a bounce), ``"goal"`` (landed in a goal) or ``"blocked"`` (landed on a marked
    node with no way on, where the mover is blocked: always under mandatory bounce, and
    under optional bounce when ``dead_end == "blocked"``).
    """
    rules = board.rules
    optional = rules.bounce == "optional"
    # A dead end: the mover is blocked there, unless the rules let it stop (and the opponent
    # is then the one who cannot move).
    stops_on_dead_end = optional and rules.dead_end == "stop"
    turns: dict = {}
    seen: set = set()
    stack = [(ball, marked, "")]
    while stack:
        node, marks, steps = stack.pop()
        for d, nxt, edge in steps_from(board, node):
            if edge in marks:
                continue
            after = marks | {edge}
            state = (nxt, after)
            if state in seen:
                continue
            seen.add(state)
            path = steps + str(d)
            bounces = _is_marked(board, nxt, marks)
            can_go_on = any(e not in after for _, _, e in steps_from(board, nxt))
            if board.graph.nodes[nxt]["goal"]:
                turns[state] = (path, "goal")
            elif not bounces:
                turns[state] = (path, "end")
            elif not can_go_on:
                turns[state] = (path, "stop" if stops_on_dead_end else "blocked")
            else:
                if optional:
                    turns[state] = (path, "stop")
                stack.append((nxt, after, path))
    return turns


def count_turns(board: Board, marked: frozenset[int], ball: tuple[int, int]) -> int:
    return len(distinct_turns(board, marked, ball))


def perft(board: Board, marked: frozenset[int], ball: tuple[int, int], player: int, depth: int,
          turns_played: int = 0) -> int:
    """Leaves of the tree of distinct turns ``depth`` turns deep; a finished game is a leaf."""
    max_turns = board.rules.max_turns
    if depth == 0:
        return 1
    total = 0
    for (end, after), (_, kind) in distinct_turns(board, marked, ball).items():
        finished = kind in ("goal", "blocked")
        finished = finished or not any(e not in after for _, _, e in steps_from(board, end))
        finished = finished or (max_turns is not None and turns_played + 1 >= max_turns)
        if finished or depth == 1:
            total += 1
        else:
            total += perft(board, after, end, 3 - player, depth - 1, turns_played + 1)
    return total
