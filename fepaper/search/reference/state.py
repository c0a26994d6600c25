"""A :class:`~fepaper.game.Game` as a reference-search ``State`` whose actions are its distinct turns.

This is how the compiled engines are checked against :mod:`fepaper.search.reference`: the
same position, searched slowly and obviously by the generic minimax, alpha-beta or MCTS.

Examples
--------
>>> from fepaper.game import Game
>>> from fepaper.search.reference import minimax
>>> state = TurnState(Game("standard"))
>>> len(state.legal_actions()), state.current_player()
(8, 0)
"""

from __future__ import annotations

from ...game import Game

__all__ = ["TurnState", "WIN"]

#: A won game is worth ``WIN - plies`` to the winner (a faster win is better), as in the
#: compiled turn search.
WIN = 1_000_000


class TurnState:
    """``game`` as a State (players 0 and 1 are fepaper's 1 and 2); ``plies`` counts turns played
    since the search's root. ``weights`` (one per feature of
    :data:`fepaper._core.features.FEATURES`) weigh the evaluation, as the turn search does;
    the default is the distance difference."""

    def __init__(self, game: Game, plies: int = 0, weights=(1, 0, 0, 0)) -> None:
        self.game, self.plies, self.weights = game, plies, tuple(weights)

    def current_player(self) -> int:
        return -1 if self.game.is_over else self.game.player - 1

    def legal_actions(self) -> list[str]:
        return [] if self.game.is_over else [t.steps for t in self.game.turns()]

    def apply_action(self, action: str) -> None:
        self.game.push(action)
        self.plies += 1

    def clone(self) -> TurnState:
        return TurnState(self.game.copy(), self.plies, self.weights)

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        w = self.game.result.winner
        return [0.0, 0.0] if w is None else [1.0, -1.0] if w == 1 else [-1.0, 1.0]

    def evaluate(self, player: int) -> float:
        """``player``'s value: ``+-(WIN - plies)`` for a finished game (0 for a draw), else the
        weighted features (written out here, independently of the kernel) for ``player``,
        as if ``player`` were to move."""
        g, p = self.game, player + 1
        if g.is_over:
            w = g.result.winner
            return 0 if w is None else (WIN - self.plies) * (1 if w == p else -1)
        d, ball = g.board.distance, g.ball_index
        attack = int(d[p - 1, ball])
        free = [k for k in range(8) if g.free_mask() >> k & 1]
        bounce = sum(1 for k in free if not g.board.goal[g.board.neighbour[ball, k]]
                     and g.marks[g.board.neighbour[ball, k]])
        wd, wa, wm, wb = self.weights
        return wd * (int(d[2 - p, ball]) - attack) - wa * attack + wm * len(free) + wb * bounce
