"""The one answer of every engine: :class:`SearchResult`.

The reference searches of :mod:`fepaper.search.reference`, the compiled engines behind the
controllers (:func:`~fepaper.search.turnsearch.search_turns`,
:func:`~fepaper.search.alphabeta.thesis_line`,
:func:`~fepaper.search.mcts.mcts_search`, ...) and ``Controller.decide`` all return
one; arena rows, widgets and benchmarks read only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["SearchResult"]


@dataclass(frozen=True)
class SearchResult:
    """What one search found and what it spent.

    Attributes
    ----------
    turn : str (or the game's action)
        The chosen turn's step string (for another game searched by the reference search, a
        State of :mod:`fepaper.games` such as tic-tac-toe, the chosen action); ``""`` when
        there is nothing to choose.
    value : float or None
        The root value for the player who moves, on the engine's own scale (a distance,
        ``WIN - plies``, a mean score in [0, 1], ...), or ``None`` when it has none.
    nodes : int
        The work the engine counts (search nodes, steps, iterations, ant steps: each
        engine says which in its docstring).
    seconds : float
        Wall time of the search (for ``Controller.decide``: of the whole decision,
        fepaper's own overhead included).
    depth : int
        The deepest depth completed (turns or plies; 0 when the engine has no depth or the
        budget ran out before the first).
    details : mapping
        Engine-specific figures, e.g. ``best`` (every action with the root
        value), ``values``, ``visits``, ``proven``, ``iterations``, ``stopped``.
    """

    turn: Any = ""
    value: float | None = None
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0
    details: Mapping[str, Any] = field(default_factory=dict)

    def timed(self, seconds: float) -> SearchResult:
        """The same result with ``seconds`` replaced (a controller's wall time)."""
        return replace(self, seconds=float(seconds))
