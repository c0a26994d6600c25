"""fepaper inside the frameworks researchers already use: OpenSpiel, PettingZoo and Gymnasium.

- :mod:`fepaper.interop.openspiel` registers the OpenSpiel game ``python_paper_soccer``;
- :mod:`fepaper.interop.pettingzoo` is the PettingZoo AEC environment ``paper_soccer_v0``;
- :mod:`fepaper.interop.gym` is a Gymnasium single-agent environment against a fepaper controller.

All three play fepaper's own :class:`~fepaper.game.Game` one **step** at a time: action ``d``
(0-7) is the step in direction ``d`` of docs/rules.md's notation, action 8 is *stop* after a
bounce where the rules allow stopping (:mod:`fepaper.interop.actions`), and they share one
observation, a tensor and a text board (:mod:`fepaper.interop.observation`).

Why not whole turns as actions: a turn is a path of steps through the bounces, and a late
position holds up to 10^8 distinct turns, so no fixed action set of turns exists, and listing a
position's turns can take seconds (``Game.turns().count()``). One step at a time, a player has
at most 9 actions, the player to move stays the same through a bounce (OpenSpiel's
``current_player`` and PettingZoo's ``agent_selection`` allow that), and the rules stay those of
``Game.step``, perft-tested. What it costs: fepaper's searches work on *distinct* turns (two
step orders that draw the same lines are one turn, docs/rules.md), and a search over steps
sees every order of the same turn as a separate line of play, so its tree of a turn is a tree
of step paths, larger than the number of distinct turns.

These modules need the frameworks (``pip install fepaper[interop]``); importing
``fepaper`` or this package does not.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, package: str, user: str) -> ModuleType:
    """Import ``module`` for the adapter ``user``, or say what to install.

    Raises
    ------
    ImportError
        Naming the missing ``package`` and ``pip install fepaper[interop]``.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{user} needs {package} (not importable here: {exc}); "
                          f"install it with: pip install fepaper[interop]") from exc
