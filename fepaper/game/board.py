"""The geometry of a paper-soccer board as a networkx graph, and its arrays.

The graph is the single source of truth for the topology: nodes are lattice
points ``(x, y)`` (``y`` grows downward, as in the thesis), edges join nodes one
step apart in one of the eight directions and exist only where their midpoint
lies inside, or on the outline of, the field or a goal box. The compiled core
never sees the graph; it sees the arrays derived from it once per board.

Examples
--------
>>> from fepaper.game.rules import Rules
>>> board = Board(Rules.preset("thesis"))
>>> board.graph.number_of_edges(), board.n_walls
(684, 66)
>>> board.kickoff
(5, 8)
"""

from __future__ import annotations

from functools import lru_cache

import networkx as nx
import numpy as np

from .._core.bundles import BoardArrays
from .rules import Rules

__all__ = ["Board", "DIRECTIONS", "DIRECTION_NAMES", "NO_NODE", "TOP", "BOTTOM"]

#: (dx, dy) of the step digits 0..7: 0 up (y - 1), then clockwise.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1),
)
DIRECTION_NAMES = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")
NO_NODE = -1
#: Goal codes of ``Board.goal``: the top goal (player 1 attacks it) and the bottom goal.
TOP, BOTTOM = 1, 2


def _in_box(px: float, py: float, x0: float, y0: float, x1: float, y1: float) -> bool:
    return x0 <= px <= x1 and y0 <= py <= y1


def _on_outline(px: float, py: float, x0: float, y0: float, x1: float, y1: float) -> bool:
    return _in_box(px, py, x0, y0, x1, y1) and (px in (x0, x1) or py in (y0, y1))


class Board:
    """The board of a set of rules: its graph, node indexing and core arrays.

    Parameters
    ----------
    rules : Rules

    Attributes
    ----------
    graph : networkx.Graph
        Nodes ``(x, y)`` with ``"pos"`` (``(x, -y)``, so that drawing shows up as
        up), ``"index"`` and ``"goal"`` (0, :data:`TOP` or :data:`BOTTOM`); edges
        with ``"wall"`` (marked from the start), ``"index"`` and ``"direction"``
        (the step digit from the lexicographically smaller endpoint).
    nodes : list of (x, y)
        Node index to coordinates.
    neighbour : ndarray (n_nodes, 8) int32
        The node one step away in each direction, or ``NO_NODE`` if no edge.
    edge_index : ndarray (n_nodes, 8) int32
        The edge id of each (node, direction), or -1.
    exists : ndarray (n_nodes,) uint8
        Bitmask of the directions in which the node has an edge.
    initial_marks : ndarray (n_nodes,) uint8
        Bitmask of the directions whose edges are walls.
    goal : ndarray (n_nodes,) int8
        0 for field nodes, ``TOP`` or ``BOTTOM`` for goal nodes.
    distance : ndarray (2, n_nodes) int32
        Steps from each node to the nearest node of the top (row 0) and bottom
        (row 1) goal over the edges that are not walls.
    edge_keys, node_keys : ndarray uint64
        Zobrist keys per edge and per node (fixed seed: the same on every run).
    arrays : BoardArrays
        The arrays above as the one bundle the compiled kernels take. Every array of a
        board is read-only: boards are cached and shared.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        w, h, g = rules.width, rules.height, rules.goal_width
        lo, hi = w // 2 - g // 2, w // 2 + g // 2
        self.kickoff = (w // 2, h // 2)
        nodes = [(x, -1) for x in range(lo, hi + 1)]
        nodes += [(x, y) for y in range(h + 1) for x in range(w + 1)]
        nodes += [(x, h + 1) for x in range(lo, hi + 1)]
        self.nodes: list[tuple[int, int]] = nodes
        self.index: dict[tuple[int, int], int] = {p: i for i, p in enumerate(nodes)}
        boxes = [(0, 0, w, h), (lo, -1, hi, 0), (lo, h, hi, h + 1)]

        def goal_of(y: int) -> int:
            return TOP if y < 0 else BOTTOM if y > h else 0

        def is_wall(a: tuple[int, int], b: tuple[int, int]) -> bool:
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            if goal_of(a[1]) and goal_of(b[1]):
                return True  # between goal nodes
            if any(_on_outline(mx, my, *box) for box in boxes[1:]) and a[1] != b[1]:
                return mx in (lo, hi)  # a side of a goal box
            if _on_outline(mx, my, *boxes[0]):
                in_mouth = my in (0, h) and lo <= mx <= hi
                return not in_mouth
            return rules.middle_line and a[1] == b[1] == h // 2

        graph = nx.Graph(rules=rules)
        for i, (x, y) in enumerate(nodes):
            graph.add_node((x, y), pos=(x, -y), index=i, goal=goal_of(y))
        n = len(nodes)
        neighbour = np.full((n, 8), NO_NODE, dtype=np.int32)
        edge_index = np.full((n, 8), -1, dtype=np.int32)
        walls: list[bool] = []
        for i, (x, y) in enumerate(nodes):
            for d, (dx, dy) in enumerate(DIRECTIONS):
                q = (x + dx, y + dy)
                j = self.index.get(q)
                if j is None:
                    continue
                mx, my = x + dx / 2, y + dy / 2
                if not any(_in_box(mx, my, *box) for box in boxes):
                    continue
                neighbour[i, d] = j
                if j > i:
                    e = len(walls)
                    wall = is_wall((x, y), q)
                    first = min((x, y), q)
                    direction = d if first == (x, y) else (d + 4) % 8
                    graph.add_edge((x, y), q, wall=wall, index=e, direction=direction)
                    walls.append(wall)
                edge_index[i, d] = graph.edges[(x, y), q]["index"]
        self.graph = graph
        self.neighbour = neighbour
        self.edge_index = edge_index
        ends = {e: (u, v) if u < v else (v, u) for u, v, e in graph.edges(data="index")}
        self.edges: list[tuple[tuple[int, int], tuple[int, int]]] = [ends[e] for e in range(len(ends))]
        self.is_wall = np.array(walls, dtype=np.bool_)
        self.n_walls = int(self.is_wall.sum())
        self.exists = np.zeros(n, dtype=np.uint8)
        self.initial_marks = np.zeros(n, dtype=np.uint8)
        for i in range(n):
            for d in range(8):
                if neighbour[i, d] != NO_NODE:
                    self.exists[i] |= 1 << d
                    if self.is_wall[edge_index[i, d]]:
                        self.initial_marks[i] |= 1 << d
        self.goal = np.array([goal_of(y) for _, y in nodes], dtype=np.int8)
        open_graph = nx.Graph([(u, v) for u, v, wall in graph.edges(data="wall") if not wall])
        self.distance = np.zeros((2, n), dtype=np.int32)
        for row, code in enumerate((TOP, BOTTOM)):
            sources = [p for p in nodes if goal_of(p[1]) == code]
            lengths = nx.multi_source_dijkstra_path_length(open_graph, sources)
            for p, length in lengths.items():
                self.distance[row, self.index[p]] = length
        rng = np.random.Generator(np.random.PCG64(0x5EED_F00D))
        keys = rng.integers(1, 2**63, size=graph.number_of_edges() + n, dtype=np.int64).astype(np.uint64)
        self.edge_keys, self.node_keys = keys[: self.n_edges], keys[self.n_edges:]
        self.kickoff_index = self.index[self.kickoff]
        self.arrays = BoardArrays(self.exists, self.neighbour, self.edge_index, self.goal, self.edge_keys,
                                  self.node_keys, self.distance, self.initial_marks)
        for array in (*self.arrays, self.is_wall):
            array.setflags(write=False)

    @classmethod
    def of(cls, rules: Rules) -> "Board":
        """The shared board of ``rules`` (boards are immutable and cached)."""
        return _board(rules)

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    @property
    def n_edges(self) -> int:
        return len(self.edges)

    def node(self, index: int) -> tuple[int, int]:
        return self.nodes[index]

    def edge_between(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """The id of the edge joining ``a`` and ``b``."""
        return self.graph.edges[a, b]["index"]

    def goal_distance(self, node: int, player: int) -> int:
        """Steps from ``node`` to the goal that ``player`` (1 or 2) attacks."""
        return int(self.distance[player - 1, node])

    def __repr__(self) -> str:
        return f"Board({self.rules!s}: {self.n_nodes} nodes, {self.n_edges} edges, {self.n_walls} walls)"


@lru_cache(maxsize=32)
def _board(rules: Rules) -> Board:
    return Board(rules)
