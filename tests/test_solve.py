"""The exact solver against its slow twins: plain minimax over TurnState, and MCTS-Solver's proofs.

On the smallest boards the solver's value and its list of best first turns equal those of
fepaper.search.reference.minimax searching to the end of the game; on positions drawn from
seeded random games (hypothesis) on small boards, under every rule that changes who wins
(bounce, dead end, middle line, a blocked player drawing, a turn limit), the three agree.
"""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fepaper._core import solve as kernel
from fepaper.cli import main
from fepaper.experiments.complexity.solved import COLUMNS, read_table, solve_board
from fepaper.game import Game
from fepaper.play.randomplay import random_game
from fepaper.search.mcts import mcts_search
from fepaper.search.reference import minimax
from fepaper.search.reference.state import TurnState
from fepaper.search.solve import solve

RULES = [
    {"width": 2, "height": 2, "middle_line": False, "bounce": "mandatory"},
    {"width": 2, "height": 2, "middle_line": True, "bounce": "mandatory"},
    {"width": 2, "height": 4, "middle_line": False, "bounce": "optional"},
    {"width": 2, "height": 4, "middle_line": True, "bounce": "optional", "dead_end": "stop"},
    {"width": 2, "height": 4, "middle_line": False, "bounce": "mandatory", "blocked": "draw"},
    {"width": 4, "height": 4, "middle_line": False, "bounce": "mandatory", "max_turns": 6},
    {"width": 4, "height": 4, "middle_line": True, "bounce": "optional"},
]


class _TooBig(Exception):
    pass


def reference(game, cap=200):
    """Plain minimax to the end of the game over TurnState: (value for the mover, best turns),
    or None past ``cap`` leaves."""
    leaves = [0]

    def evaluate(state, player):
        leaves[0] += 1
        if leaves[0] > cap:
            raise _TooBig
        return state.returns()[player]

    state = TurnState(game)
    try:
        result = minimax(state, None, state.current_player(), evaluate)
    except _TooBig:
        return None
    return result.value, sorted(result.details["best"])


@pytest.mark.parametrize("rules", RULES[:2] + [dict(RULES[0], blocked="draw"), dict(RULES[0], max_turns=2)],
                         ids=lambda r: "-".join(str(v) for v in r.values()))
def test_kick_off_of_the_smallest_boards_equals_plain_minimax(rules):
    game = Game(rules)
    expected = reference(game, cap=10**6)
    assert expected is not None
    result = solve(game)
    assert (result.value, sorted(result.details["best"])) == expected
    assert result.details["best_complete"] and result.details["stopped"] is None
    assert result.turn in result.details["best"]


def _position(rules, seed, back):
    """The position ``back`` turns before the end of a seeded random game (the kick-off at most)."""
    full = random_game(rules, seed=seed)
    return Game(rules, " ".join(full.history[:max(0, len(full.history) - back)]))


# One turn before the end and up to 2000 leaves: one drawn position in five is small enough for plain
# minimax (four turns back and 200 leaves, one in forty: a minute of positions drawn again).
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.filter_too_much])
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 10**6))
def test_mid_game_positions_agree_with_minimax(rules, seed):
    game = _position(rules, seed, 1)
    assume(not game.is_over)
    expected = reference(game, cap=2000)
    assume(expected is not None)
    result = solve(game, table_bits=12)
    assert (result.value, sorted(result.details["best"])) == expected, game.moves
    # a table of 4 slots forgets almost everything: the values stay exact
    small = solve(game, table_bits=2)
    assert (small.value, sorted(small.details["best"])) == expected, game.moves


def test_mcts_solver_proofs_agree_with_the_solver():
    """MCTS-Solver's proven values equal the solver's wherever it proves one (and it proves many)."""
    proven = 0
    for seed in range(20):
        rules = RULES[2 + seed % 5]
        game = _position(rules, seed, 4 + seed % 4)
        if game.is_over:
            continue
        value = solve(game, table_bits=14).value
        mcts = mcts_search(game, 2000, max_children=10_000, seed=seed).details["proven"]
        if mcts is not None:
            proven += 1
            assert 2 * mcts - 1 == value, (rules, game.moves, mcts, value)
    assert proven >= 10


def test_an_exhausted_budget_answers_unknown():
    game = Game({"width": 4, "height": 6, "middle_line": False})
    for result in (solve(game, max_nodes=100), solve(game, seconds=0.01)):
        assert result.value is None and result.turn == "" and result.details["winner"] is None
        assert result.details["stopped"] == "budget" and result.details["best"] == []


def test_a_memory_cap_passed_stops_the_search():
    game = Game({"width": 4, "height": 4, "middle_line": False})
    from fepaper._core.bundles import new_budget
    from fepaper._core.turnsearch import TurnSearch, new_table

    budget = new_budget(None, 0)
    search = TurnSearch(game.board.arrays, game.rules.flags, np.zeros(4, np.int64), True, True, False, 0, 0, 64,
                        0, new_table(0), budget)
    sv = kernel.Solver(search, kernel.new_solve_table(1 << 10, 2), kernel.new_ctl(1))  # a 1 KB cap
    bits = np.zeros(2, np.uint64)
    _, count, complete, lower, upper = kernel.solve_root(game.marks.copy(), bits, game.ball_index, np.uint64(0),
                                                         1, True, sv)
    assert sv.ctl[0] == kernel.STOP_MEMORY
    assert lower.max() < upper.max()  # nothing proven at the root
    assert budget.ctl[4] <= kernel.MEMORY_EVERY + 1


def test_bad_calls_are_refused():
    over = Game({"width": 2, "height": 2, "bounce": "mandatory"}, "17")
    with pytest.raises(ValueError, match="over"):
        solve(over)
    game = Game({"width": 2, "height": 2, "middle_line": False})
    game.step(2)  # onto the side wall: a bounce, the turn goes on
    assert game.current
    with pytest.raises(ValueError, match="in progress"):
        solve(game)
    fresh = Game({"width": 2, "height": 4})
    for kwargs, match in (({"memory_gb": 0}, "memory_gb"), ({"memory_gb": 0.01}, "already holds"),
                          ({"max_nodes": -1}, "max_nodes"), ({"table_bits": 1}, "table_bits"),
                          ({"seconds": -1}, "seconds")):
        with pytest.raises(ValueError, match=match):
            solve(fresh, **kwargs)


def test_the_table_is_appended_once_per_board(tmp_path):
    out = tmp_path / "solved.csv"
    rules = {"width": 2, "height": 2, "middle_line": False}
    first = solve_board(rules, out, seconds=60)
    assert first["solved_now"] and first["value"] == "first player wins"
    again = solve_board(rules, out, seconds=60)
    assert not again["solved_now"] and again == {**first, "solved_now": False}  # typed alike
    rows = read_table(out)
    assert len(rows) == 1 and tuple(rows[0]) == COLUMNS
    record = json.loads(out.with_suffix(".json").read_text())["records"][0]
    assert record["rules"]["width"] == 2 and record["best_first_turns"] == first["winning_first_turns"].split()
    solve_board(rules, out, seconds=60, again=True)
    assert len(read_table(out)) == 2


def test_the_solve_command(tmp_path, capsys):
    out = tmp_path / "solved.csv"
    rules = '{"width": 2, "height": 2, "bounce": "mandatory"}'
    assert main(["solve", "--rules", rules, "--out", str(out), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["value"] == "first player wins" and row["winning_first_turns"] == "17 71"
    assert main(["solve", "--rules", rules, "--out", str(out)]) == 0
    assert "already in" in capsys.readouterr().out
    assert main(["solve", "--rules", rules, "--out", str(tmp_path / "no" / "x.csv")]) == 2
    assert "fepaper solve: error: --out" in capsys.readouterr().err


def test_the_effort_fit_recovers_a_known_growth_and_widens_away_from_its_data():
    from fepaper.experiments.complexity.solved import effort_fit

    rows = [{"method": "dfpn", "value": "first player wins", "free_edges": e, "nodes": int(2000 * 1.1 ** e * k)}
            for e, k in ((20, 1.0), (40, 1.3), (60, 0.8), (80, 1.1), (100, 0.9))]
    near, far = effort_fit(rows, 60), effort_fit(rows, 300)
    assert abs(near["growth"] - 1.1) < 0.01 and near["boards"] == 5
    assert far["low"] < far["nodes"] < far["high"] and far["high"] / far["low"] > near["high"] / near["low"]
    with pytest.raises(ValueError, match="at least 3 are needed"):
        effort_fit(rows[:2], 60)
    # one rule variant: a steeper one among the pooled boards is fitted on its own
    steep = [{**r, "bounce": "mandatory", "nodes": int(2000 * 1.2 ** r["free_edges"])} for r in rows[1:]]
    pooled = effort_fit(rows + steep, 300)
    own = effort_fit(rows + steep, 300, where={"bounce": "mandatory"})
    assert own["boards"] == 4 and abs(own["growth"] - 1.2) < 0.01 and own["nodes"] > pooled["nodes"]
    with pytest.raises(ValueError, match="with \\{'bounce': 'optional'\\}"):
        effort_fit(rows + steep, 300, where={"bounce": "optional"})
