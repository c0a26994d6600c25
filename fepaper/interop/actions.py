"""Actions of the adapters: a step in one of the 8 directions, or stop.

Action ``d`` for ``d`` in 0-7 is the step in direction ``d`` of docs/rules.md's notation
(``0`` up, then clockwise); :data:`STOP` (8) ends the turn on a bounce where the rules allow
stopping (``bounce="optional"``). An action is legal when :meth:`Game.step` or
:meth:`Game.stop` would take it; :func:`apply_action` says what is wrong with one that is not,
naming the action and the position, and leaves the game as it was.

>>> from fepaper.game import Game
>>> game = Game("thesis")
>>> legal_actions(game)
[0, 1, 3, 4, 5, 7]
>>> try:
...     apply_action(game, 2)
... except IllegalAction as exc:
...     print(*str(exc).split(": "), sep="\\n")
action 2 (right) is illegal at ball (5, 8), player 1 to move, moves ''
direction 2 (right) from (5, 8) runs along the middle line
>>> game.moves
''
"""

from __future__ import annotations

import numpy as np

from ..game.board import DIRECTION_NAMES
from ..game.game import Game, IllegalStep

__all__ = ["STOP", "N_ACTIONS", "ACTION_NAMES", "IllegalAction", "legal_actions", "action_mask",
           "action_name", "position_text", "is_action_id", "apply_action"]

STOP = 8
N_ACTIONS = 9
ACTION_NAMES = (*DIRECTION_NAMES, "stop")


class IllegalAction(ValueError):
    """An action the position does not allow; the message names the action and the position."""


def legal_actions(game: Game) -> list[int]:
    """The legal actions, ascending: the free directions, then :data:`STOP` where allowed."""
    if game.result is not None:
        return []
    free = game.free_mask()
    out = [d for d in range(8) if free >> d & 1]
    if game.current and game.rules.flags.optional:
        out.append(STOP)
    return out


#: Row ``free | can_stop << 8`` is the mask of those legal actions (a table: no list per call).
_MASKS = np.unpackbits(np.arange(512, dtype=">u2").view(np.uint8).reshape(512, 2)[:, ::-1], axis=1,
                       bitorder="little")[:, :N_ACTIONS].astype(np.int8)


def action_mask(game: Game) -> np.ndarray:
    """The legal actions as a new 0/1 ``int8`` vector of length :data:`N_ACTIONS`."""
    if game.result is not None:
        return np.zeros(N_ACTIONS, dtype=np.int8)
    stop = 256 if game.current and game.rules.flags.optional else 0
    return _MASKS[game.free_mask() | stop].copy()


def action_name(action) -> str:
    """``"2 (right)"``, ``"8 (stop)"``, or the repr of something that is not an action id."""
    if is_action_id(action):
        return f"{int(action)} ({ACTION_NAMES[int(action)]})"
    return repr(action)


def position_text(game: Game) -> str:
    """The position in one line: the ball, who moves (or the result), the record so far."""
    if game.result is not None:
        return f"the end of the game ({game.result}), moves {game.moves!r}"
    bounce = ", bouncing" if game.current else ""
    return f"ball {game.ball}, player {game.player} to move{bounce}, moves {game.moves!r}"


def is_action_id(action) -> bool:
    """Whether ``action`` is an integer id 0-8 (legal here or not)."""
    return (isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
            and 0 <= action < N_ACTIONS)


def apply_action(game: Game, action) -> None:
    """Play ``action`` on ``game``: a step, or the stop after a bounce.

    Raises
    ------
    IllegalAction
        If ``action`` is not an id 0-8, the game is over, or the position does not allow it;
        the message names the action and the position, and ``game`` is unchanged.
    """
    if not is_action_id(action):
        raise IllegalAction(f"action {action!r} is not an action id: expected 0-7 (a step in that "
                            f"direction) or {STOP} (stop), at {position_text(game)}")
    if game.result is not None:
        raise IllegalAction(f"action {action_name(action)} comes after {position_text(game)}")
    action = int(action)
    try:
        if action == STOP:
            game.stop()
        else:
            game.step(action)
    except IllegalStep as exc:
        raise IllegalAction(f"action {action_name(action)} is illegal at {position_text(game)}: "
                            f"{exc}") from None
