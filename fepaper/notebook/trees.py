"""Evaluation trees drawn as graphs: DEAP's ``gp.graph`` laid out as a tree with networkx.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> ax = draw_tree("sub(attack, mul(0.5, bounce))")
>>> sorted(t.get_text() for t in ax.texts)
['0.5', 'attack', 'bounce', 'mul', 'sub']
"""

from __future__ import annotations

from deap import gp

from ..search.programs import parse_tree

__all__ = ["tree_positions", "draw_tree"]


def tree_positions(nodes: list[int], edges: list[tuple[int, int]],
                   widths: dict[int, float] | None = None) -> dict[int, tuple[float, float]]:
    """Where each node of a tree (DEAP's ``gp.graph`` numbering: 0 the root, prefix order) goes:
    leaves side by side from left to right, each ``widths[leaf]`` wide (default 1), a parent above
    the middle of its children, one row per depth."""
    children: dict[int, list[int]] = {n: [] for n in nodes}
    for parent, child in edges:
        children[parent].append(child)
    pos: dict[int, tuple[float, float]] = {}
    next_leaf = [0.0]

    def place(node: int, depth: int) -> float:
        kids = sorted(children[node])
        if kids:
            xs = [place(k, depth + 1) for k in kids]
            x = (xs[0] + xs[-1]) / 2
        else:
            width = 1.0 if widths is None else widths[node]
            x = next_leaf[0] + width / 2
            next_leaf[0] += width
        pos[node] = (x, -depth)
        return x

    if nodes:
        place(0, 0)
    return pos


def draw_tree(tree, ax=None, title: str | None = None, colour: str = "#dde6f0"):
    """Draw ``tree`` (a tree or its text) on ``ax`` (a new figure if None): primitives and leaves as
    labelled boxes, the root on top. Returns the axes."""
    import matplotlib.pyplot as plt
    import networkx as nx

    nodes, edges, labels = gp.graph(parse_tree(tree))
    labels = {k: (f"{v:g}" if isinstance(v, float) else str(v)) for k, v in labels.items()}
    if ax is None:
        _, ax = plt.subplots(figsize=(max(2.5, 0.55 * len(nodes)), 2.5))
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    widths = {k: 0.3 + 0.15 * len(v) for k, v in labels.items()}  # a leaf's share: its box, and a margin
    pos = tree_positions(nodes, edges, widths)
    xs = [x for x, _ in pos.values()] or [0]
    ys = [y for _, y in pos.values()] or [0]
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
    nx.draw_networkx_edges(graph, pos, ax=ax, edge_color="#888888")
    texts = {node: ax.text(x, y, labels[node], ha="center", va="center", fontsize=7,
                           bbox={"boxstyle": "round,pad=0.25", "facecolor": colour, "edgecolor": "#667788"})
             for node, (x, y) in pos.items()}
    ax.set_ylim(min(ys) - 0.6, 0.6)
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=8.5)
    # A wide tree on a page-wide axes gets a smaller font, so that each leaf's box fits its share of
    # the row: the boxes measured as drawn, against the shares in display units.
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    leaves = set(nodes) - {parent for parent, _ in edges}
    per_unit = ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0]
    fit = min(widths[k] * per_unit / texts[k].get_bbox_patch().get_window_extent(renderer).width
              for k in leaves)
    for text in texts.values():
        text.set_fontsize(7 * min(1.0, 0.9 * fit))
    return ax
