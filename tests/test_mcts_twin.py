"""MCTS-Solver against its slow twin: the outcomes it proves are the reference search's.

The forced wins and losses are derived here, not typed in: the reference alpha-beta
(fepaper.search.reference, itself tested equal to minimax, over
fepaper.search.reference.state.TurnState) searches three turns deep, scoring a finished game by its
result and an unfinished leaf as unknown (0). On rules where no game is drawn, +1 is a win
the mover can force within three turns and -1 a loss it cannot avoid. The compiled
MCTS-Solver, keeping every turn of each node, must prove exactly those values, and when it
proves a win it must play a turn that keeps it. On 4 x 6 (both bounce rules, both dead-end
readings) forced wins and forced losses are both checked; on 6 x 8 (mandatory bounce) the
random endgames rarely hold a loss forced within three turns, so there the forced wins are.
"""

import functools
import json
from pathlib import Path

import pytest

from fepaper.game import Game
from fepaper.play.randomplay import random_game
from fepaper.search.mcts import mcts_search
from fepaper.search.reference import alphabeta
from fepaper.search.reference.state import TurnState

SMALL = [
    {"width": 4, "height": 6, "middle_line": False, "bounce": "mandatory"},
    {"width": 4, "height": 6, "middle_line": False, "bounce": "optional"},
    {"width": 4, "height": 6, "middle_line": True, "bounce": "optional", "dead_end": "stop"},
    {"width": 6, "height": 8, "middle_line": False, "bounce": "mandatory"},
]


class _TooBig(Exception):
    pass


def forced_value(game, depth: int, cap: int = 20_000) -> float | None:
    """+1 if the player to move can force a win within ``depth`` turns, -1 if it cannot avoid
    a loss within them, 0 otherwise; ``None`` if the reference search passes ``cap`` leaves."""
    leaves = [0]

    def evaluate(state, player):
        leaves[0] += 1
        if leaves[0] > cap:
            raise _TooBig
        return state.returns()[player] if state.is_terminal() else 0.0

    state = TurnState(game)
    try:
        return alphabeta(state, depth, state.current_player(), evaluate).value
    except _TooBig:
        return None


@functools.cache
def _decided(rules: tuple, want: int) -> tuple:
    return tuple(decided_positions(dict(rules), want))


def decided_positions(rules, want: int):
    """``(game, value)``: positions near the end of seeded random games whose outcome is forced
    within three turns (value +1 or -1)."""
    # On 4 x 6 the forced losses need trees of up to 20,000 leaves; on 6 x 8 a 5,000-leaf cap finds
    # the same positions as 20,000 in a quarter of the time (the larger trees there are left out either way).
    cap = 20_000 if rules["width"] == 4 else 5_000
    out = []
    for seed in range(200):
        full = random_game(rules, seed=seed)
        for t in range(len(full.history) - 1, max(len(full.history) - 4, -1), -1):
            game = Game(rules, " ".join(full.history[:t]))
            if not 0 < game.turns().count(limit=5000) <= 60:
                continue
            value = forced_value(game, 3, cap)
            if value:
                out.append((game, value))
        if len(out) >= want:
            break
    return out


def keeps_the_win(game, turn) -> bool:
    child = game.copy()
    child.push(turn)
    if child.is_over:
        return child.result.winner == game.player
    return forced_value(child, 2) == -1  # the opponent is lost within two turns


@pytest.mark.slow
@pytest.mark.parametrize("rules", SMALL, ids=lambda r: "-".join(str(v) for v in r.values()))
def test_solver_proves_the_forced_outcomes_of_the_reference(rules):
    want = 12 if rules["width"] == 4 else 6  # a 6 x 8 position costs the reference search several times more
    positions = _decided(tuple(rules.items()), want)
    assert len(positions) >= want - 2, "too few decided positions: the test would prove little"
    values = {v for _, v in positions}
    if rules["width"] == 4:
        assert values == {-1.0, 1.0}, "forced wins and forced losses are both checked"
    else:  # random endgames on 6 x 8 rarely hold a loss forced within three turns
        assert 1.0 in values, "forced wins are checked"
    for game, value in positions:
        result = mcts_search(game, 30_000, max_children=10_000, seed=1)
        proven = result.details["proven"]
        assert proven is not None and 2 * proven - 1 == value, (game.moves, proven, value)
        if value > 0:
            assert keeps_the_win(game, result.turn), (game.moves, result.turn)


@pytest.mark.slow
def test_forced_wins_that_are_not_goals_in_one_are_proven_and_played():
    """The forced-win fixtures: a win within three turns, but no goal this turn."""
    checked = 0
    for game, value in _decided(tuple(SMALL[0].items()), 12):  # the positions the test above found
        if value < 0 or any(t.kind == "goal" for t in game.turns()):
            continue
        result = mcts_search(game, 30_000, max_children=10_000, seed=3)
        assert result.details["proven"] == 1.0, game.moves
        assert keeps_the_win(game, result.turn), (game.moves, result.turn)
        checked += 1
    assert checked >= 2


#: Solved positions not forced within three turns (written by ``fepaper solve --fixture``).
SOLVED = json.loads((Path(__file__).parent / "data" / "solved_positions.json").read_text())


def test_solver_proofs_equal_the_exact_values_of_positions_deeper_than_three_turns():
    """The oracle: every value MCTS-Solver proves on a solved position is the solver's, and a
    proven win is played with one of the winning turns."""
    assert len(SOLVED) >= 4
    proven = 0
    for p in SOLVED:
        game = Game(p["rules"], p["moves"])
        result = mcts_search(game, 20_000, max_children=10_000, seed=1)
        mcts = result.details["proven"]
        if mcts is None:
            continue
        proven += 1
        assert 2 * mcts - 1 == p["value"], (p["moves"], mcts, p["value"])
        if p["value"] > 0:
            assert result.turn in p["winning_turns"], (p["moves"], result.turn)
    assert proven >= len(SOLVED) // 2
