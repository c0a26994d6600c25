"""The genetic-programming controller (the thesis's §6): ``gp``, a search whose leaves an evolved
expression tree evaluates.

The tree is :mod:`fepaper.search.programs`'s (its features, primitives and text); the search is
the thesis's dynamic alpha-beta (:func:`~fepaper.search.alphabeta.thesis_turn`, ``search:
"alphabeta"``) or the turn search (:func:`~fepaper.search.turnsearch.search_turns`, ``search:
"turnsearch"``), the tree compiled into the search's kernel in place of its distance. With the tree
``attack`` (:data:`~fepaper.search.programs.DISTANCE`) the alpha-beta plays as the thesis's does.

Examples
--------
>>> from fepaper.game import Game
>>> bot = GeneticProgram(tree="sub(attack, mul(0.5, bounce))", depth=2)
>>> bot.spec["tree"], bot.choose_turn(Game("thesis")) in Game("thesis").turns()
('sub(attack, mul(0.5, bounce))', True)
"""

from __future__ import annotations

from ..game import Game
from ..search.alphabeta import thesis_turn
from ..search.programs import DISTANCE, tree_text
from ..search.result import SearchResult
from ..search.turnsearch import search_turns
from .base import Controller, register
from .params import Choice, Custom, Int, spec_check
from .turnsearch import MAX_STATES

__all__ = ["GeneticProgram", "SEARCHES"]

#: The searches an evaluation tree plugs into.
SEARCHES = ("alphabeta", "turnsearch")


def _tree(value, owner: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{owner}: tree must be the text of an expression tree such as {DISTANCE!r}, "
                         f"got {value!r}")
    return tree_text(value)


@register
class GeneticProgram(Controller):
    """A search evaluated at its leaves by an expression tree.

    Parameters
    ----------
    tree : str
        The evaluation, a cost for the player the search serves (:mod:`fepaper.search.programs`);
        default ``"attack"``, the thesis's distance. The spec holds its canonical text.
    search : {"alphabeta", "turnsearch"}
        The thesis's dynamic alpha-beta over steps (§4.1, its nearest-first order and bounce limit),
        or the complete-turn search (transposition table, iterative deepening).
    depth : int
        Turns searched (the alpha-beta's level).
    max_bounces : int or None
        Bounces the alpha-beta explores per turn (the thesis: 15; ``None``: all).
    max_nodes : int or None
        Nodes searched per decision at most (a deterministic budget; the alpha-beta's steps or the
        turn search's positions).
    seed, time_limit
        As for every controller.
    """

    name = "gp"
    PARAMS = (
        Custom("tree", DISTANCE, spec_check(_tree), doc="the evaluation tree, a cost (default: attack, the "
               "thesis's distance)"),
        Choice("search", "alphabeta", SEARCHES, doc="the search the tree evaluates the leaves of"),
        Int("depth", 2, 1, 10, doc="turns searched"),
        Int("max_bounces", 15, 0, 10_000, nullable=True, applies=lambda v: v["search"] == "alphabeta",
            doc="bounces the alpha-beta explores per turn (None: all)"),
        Int("max_nodes", None, 1, 10**15, shown="set", doc="nodes searched per decision at most"),
    )

    def setup(self) -> None:
        self.tree = self.tree if self.tree is not None else DISTANCE

    def decide(self, game: Game) -> SearchResult:
        if self.search == "turnsearch":
            return search_turns(game, self.depth, time_limit=self.time_limit, max_nodes=self.max_nodes or 0,
                                max_states=MAX_STATES, program=self.tree)
        bounces = -1 if self.max_bounces is None else self.max_bounces
        return thesis_turn(game, "dynamic", self.depth, bounces, time_limit=self.time_limit,
                           max_nodes=self.max_nodes, program=self.tree)
