"""Positions as the arrays a value network reads, gathered one at a time and stacked once.

:func:`fepaper.engines.valuefit.positions` (every turn-start position of some games) and
:func:`fepaper.engines.imitation.choices` (the positions a player's turns lead to) both
gather positions this way: ``marks`` (positions x nodes, uint8), ``ball``, ``mover`` (the player
to move there) and ``played`` (turns played before it), int64.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PositionArrays"]


class PositionArrays:
    """Positions added one by one (:meth:`add`), stacked by :meth:`arrays`.

    >>> from fepaper.game import Game
    >>> game = Game("codingame")
    >>> found = PositionArrays(game.board.n_nodes)
    >>> found.add(game.marks, game.ball_index, game.player, 0)
    >>> {key: value.shape for key, value in found.arrays().items()}
    {'marks': (1, 105), 'ball': (1,), 'mover': (1,), 'played': (1,)}
    """

    def __init__(self, n_nodes: int) -> None:
        self.n_nodes = n_nodes
        self.marks: list[np.ndarray] = []
        self.ball: list[int] = []
        self.mover: list[int] = []
        self.played: list[int] = []

    def add(self, marks: np.ndarray, ball: int, mover: int, played: int) -> None:
        """One position: a copy of ``marks``, the ball's node, the player to move, the turns before it."""
        self.marks.append(np.array(marks, np.uint8))
        self.ball.append(ball)
        self.mover.append(mover)
        self.played.append(played)

    def __len__(self) -> int:
        return len(self.ball)

    def arrays(self) -> dict[str, np.ndarray]:
        """The positions as arrays: ``marks`` (positions x nodes), ``ball``, ``mover``, ``played``."""
        return {
            "marks": np.array(self.marks, np.uint8).reshape(-1, self.n_nodes),
            "ball": np.array(self.ball, np.int64),
            "mover": np.array(self.mover, np.int64),
            "played": np.array(self.played, np.int64),
        }
