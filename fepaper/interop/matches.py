"""Games between OpenSpiel's MCTS and fepaper's controllers, played through the OpenSpiel adapter.

:func:`mcts_bot` is OpenSpiel's own ``MCTSBot`` (UCT over the actions of
:mod:`fepaper.interop.openspiel`: one step each, random-rollout evaluation, seeded), and
:func:`match` plays it against a fepaper controller (:class:`~fepaper.interop.openspiel.ControllerBot`)
with OpenSpiel's ``evaluate_bots``, the sides alternating, one row per game. Every game's record
replays on a plain :class:`~fepaper.game.Game` to the same result (checked).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..controllers import make
from ..game.game import Game
from ..game.rules import Rules
from .openspiel import ControllerBot, parameters, pyspiel

__all__ = ["mcts_bot", "play", "match"]


def mcts_bot(game, simulations: int, seed: int, uct_c: float = 2.0, rollouts: int = 1):
    """OpenSpiel's ``MCTSBot`` with ``simulations`` per action and random rollouts, seeded."""
    from open_spiel.python.algorithms import mcts

    rs = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(rollouts, rs), random_state=rs,
                        solve=True)


def play(game, bots: list, seed: int) -> dict:
    """One game of ``bots`` (player 1's first) through ``evaluate_bots``: its record, result, actions."""
    from open_spiel.python.algorithms import evaluate_bots

    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seed))
    record = state.game
    replayed = Game(record.rules, record.moves)
    if replayed.result != record.result:
        raise RuntimeError(f"the record {record.moves!r} replays to {replayed.result}, not {record.result}")
    return {"moves": record.moves, "winner": record.result.winner, "reason": record.result.reason,
            "returns": returns, "turns": len(record.history), "actions": len(state.history())}


def match(rules: Rules | str | dict, opponent: dict | str, games: int, simulations: int, seed: int = 0,
          progress=None) -> pd.DataFrame:
    """``games`` games of OpenSpiel's MCTS (``simulations`` per action) against ``opponent``, MCTS
    player 1 in the even games and player 2 in the odd ones; a row per game, with ``mcts_score``
    1, ½ or 0."""
    rules = Rules.from_spec(rules)
    game = pyspiel.load_game("python_paper_soccer", parameters(rules))
    spec = make(opponent).spec
    rows = []
    for k in range(games):
        mcts_player = 1 + k % 2
        bot = mcts_bot(game, simulations, seed=seed * 10_000 + k)
        controller = ControllerBot({**spec, "seed": seed * 10_000 + k})
        bots = [bot, controller] if mcts_player == 1 else [controller, bot]
        row = play(game, bots, seed=k)
        winner = row["winner"]
        rows.append({"game": k, "mcts_player": mcts_player, **row,
                     "mcts_score": 0.5 if winner is None else float(winner == mcts_player)})
        if progress is not None:
            progress.update(1)
    return pd.DataFrame(rows)
