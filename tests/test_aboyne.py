"""Aboyne: the rules against a second move generator written independently (Abalone-style
coordinates, a dict board), perft against its reference file, the notation, the errors, the
drawing, the reference searches playing it unchanged, and the report's claims' rules."""

import random

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper.experiments.reference import aboyne as ex
from fepaper.experiments.reference import aboyne_claims as cl
from fepaper.experiments.reference import aboyne_report as rp
from fepaper.games.aboyne import GOALS, HEURISTICS, NAMES, START, Aboyne, features, report_score
from fepaper.games.aboyne_draw import cell_at, centre, svg
from fepaper.games.aboyne_perft import divide, perft, reference_counts
from fepaper.search.reference import alphabeta, mcts, minimax
from fepaper.stats.sequential import SignSPRT

# -- the second generator: written from the rules, sharing nothing with fepaper.games ---------
ROWS = "abcdefghi"
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))  # (row, diagonal number)


def on_board(row: int, num: int) -> bool:
    return 0 <= row <= 8 and 1 <= num <= 9 and abs(num - row - 1) <= 4


def name(row: int, num: int) -> str:
    return f"{ROWS[row]}{num}"


def parse(cell: str) -> tuple[int, int]:
    return ROWS.index(cell[0]), int(cell[1])


ALL = [name(r, n) for r in range(9) for n in range(1, 10) if on_board(r, n)]
GOAL = {"red": "e9", "blue": "e1"}
OTHER = {"red": "blue", "blue": "red"}


def second_moves(board: dict, mover: str) -> set[str]:
    """Moves of ``mover`` on ``board`` (cell name -> "red"/"blue"), as "from-to" texts."""
    out = set()
    enemy, barred = OTHER[mover], GOAL[OTHER[mover]]
    for cell, owner in board.items():
        if owner != mover:
            continue
        row, num = parse(cell)
        around = [name(row + dr, num + dn) for dr, dn in STEPS if on_board(row + dr, num + dn)]
        if any(board.get(c) == enemy for c in around):
            continue
        for dr, dn in STEPS:
            r, n = row + dr, num + dn
            jumped = 0
            while on_board(r, n) and board.get(name(r, n)) == mover:
                r, n, jumped = r + dr, n + dn, jumped + 1
            if not on_board(r, n) or name(r, n) == barred:
                continue
            if jumped == 0 and board.get(name(r, n)) is not None:
                continue  # a step goes to an empty cell
            out.add(f"{cell}-{name(r, n)}")
    return out


def second_play(board: dict, mover: str, move: str) -> str | None:
    """Play ``move`` in place; the winner's colour or None."""
    frm, to = move.split("-")
    board.pop(to, None)
    board[to] = board.pop(frm)
    if to == GOAL[mover]:
        return mover
    if not second_moves(board, OTHER[mover]):
        return mover
    return None


def second_start() -> dict:
    board = {c: "red" for c in ("a1", "b1", "c1", "d1", "e2", "f2", "g3", "h4", "i5")}
    board.update({c: "blue" for c in ("a5", "b6", "c7", "d8", "e8", "f9", "g9", "h9", "i9")})
    return board


def second_perft(board: dict, mover: str, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in second_moves(board, mover):
        child = dict(board)
        if second_play(child, mover, move) is not None or depth == 1:
            total += 1
        else:
            total += second_perft(child, OTHER[mover], depth - 1)
    return total


def board_of(game: Aboyne) -> dict:
    return {NAMES[c]: ("red", "blue")[p] for p in (0, 1) for c in game.cells_of(p)}


def texts(game: Aboyne) -> set[str]:
    return {game.action_to_string(a) for a in game.legal_actions()}


# -- the rules -----------------------------------------------------------------------------------
def test_the_board_has_61_cells_named_as_on_an_abalone_board():
    assert sorted(NAMES) == sorted(ALL) and len(NAMES) == 61
    assert (NAMES[GOALS[0]], NAMES[GOALS[1]]) == ("e9", "e1")
    assert board_of(Aboyne()) == second_start()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 160))
def test_legal_moves_and_results_agree_with_the_second_generator_along_random_games(seed, plies):
    rng = random.Random(seed)
    game, board, mover, winner = Aboyne(), second_start(), "red", None
    for _ in range(plies):
        assert board_of(game) == board
        assert texts(game) == (set() if winner else second_moves(board, mover))
        assert game.is_terminal() == (winner is not None)
        if winner is not None:
            assert game.returns() == ([1.0, -1.0] if winner == "red" else [-1.0, 1.0])
            assert game.current_player() == -1
            return
        move = rng.choice(sorted(second_moves(board, mover)))
        game.apply_action(game.string_to_action(move))
        winner = second_play(board, mover, move)
        mover = OTHER[mover]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 80))
def test_perft_2_agrees_with_the_second_generator_on_random_positions(seed, plies):
    game = Aboyne(ex.random_record(seed, plies))
    mover = ("red", "blue")[game.player]
    if game.is_terminal():
        assert perft(game, 2) == 1
        return
    assert perft(game, 2) == second_perft(board_of(game), mover, 2)


def test_perft_reference_counts_hold_and_the_small_ones_agree_with_the_second_generator():
    rows = reference_counts()
    assert {r.depth for r in rows if r.moves == ""} == {1, 2, 3, 4, 5}
    for r in rows:
        if r.count < 400_000:
            assert perft(Aboyne(r.moves), r.depth) == r.count, r
        if r.count < 10_000:
            game = Aboyne(r.moves)
            assert second_perft(board_of(game), ("red", "blue")[game.player], r.depth) == r.count, r


def test_the_reference_positions_are_the_seeded_random_records_they_say_they_are():
    from fepaper.games.aboyne_perft import REFERENCE_CASES

    records = [moves for moves, _ in REFERENCE_CASES]
    assert records == ["", ex.random_record(1, 10), ex.random_record(2, 25), ex.random_record(3, 40)]


@pytest.mark.slow
def test_perft_reference_counts_the_deep_ones():
    for r in reference_counts():
        if r.count >= 400_000 and r.count < 3_000_000:
            assert perft(Aboyne(r.moves), r.depth) == r.count, r


def test_divide_sums_to_perft_and_perft_checks_its_depth():
    game = Aboyne("e2-e3 e8-e7")
    parts = divide(game, 3)
    assert sum(parts.values()) == perft(game, 3) and set(parts) == texts(game)
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="depth"):
            perft(game, bad)


def test_the_first_moves_of_the_start_and_its_symmetry():
    first = ex.first_moves()
    assert first["count"] == 19 and first["breakdown"] == {3: 1, 2: 8}
    assert first["per_stone"]["e2"] == 3  # e3, f3 and d2
    # the report's count: directions (steps), the two jumps d1-f3 and f2-d2 left out
    assert first["steps"] == 17 and first["steps_breakdown"] == {3: 1, 2: 6, 1: 2}
    assert first["steps_per_stone"]["d1"] == 1 and first["steps_per_stone"]["f2"] == 1
    blue = Aboyne.from_cells(START[0], START[1], to_move=1)
    assert ex.first_moves(blue)["breakdown"] == first["breakdown"]
    assert ex.first_moves(blue)["steps_breakdown"] == first["steps_breakdown"]
    assert "d1-f3" in texts(Aboyne())  # a jump over e2
    assert "a1-e1" not in texts(Aboyne()) and "b1-e1" not in texts(Aboyne())  # e1 is blue's goal


def test_the_reports_figure_2_capture_and_the_end_when_the_opponent_cannot_move():
    # red's free stone on a1 jumps over its blocked stone on b1 and captures the blue stone on c1
    game = Aboyne.from_cells(["a1", "b1", "i5"], ["c1", "c2", "h9"], to_move=0)
    assert game.blocked(0) == [Aboyne.string_to_action("b1-a1") // 61]
    game.play("a1-c1")
    assert game.stones[1].bit_count() == 2 and not game.is_terminal()
    # the only red stone gets blocked: red has no move, blue wins
    game = Aboyne.from_cells(["e5"], ["g7", "a5"], to_move=1)
    game.play("g7-f6")
    assert game.winner == 1 and game.returns() == [-1.0, 1.0] and game.legal_actions() == []


def test_a_stone_reaching_its_goal_wins():
    game = Aboyne.from_cells(["e7", "a1"], ["a5"], to_move=0)
    game.play("e7-e8")
    assert not game.is_terminal()
    game.play("a5-a4")
    game.play("e8-e9")
    assert game.winner == 0 and game.is_terminal() and game.current_player() == -1


# -- notation and errors ------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 100))
def test_the_notation_round_trips_and_a_record_replays(seed, plies):
    game = Aboyne(ex.random_record(seed, plies))
    for a in game.legal_actions():
        assert game.string_to_action(game.action_to_string(a)) == a
    again = Aboyne(game.moves)
    assert again.stones == game.stones and again.player == game.player and again.winner == game.winner


@pytest.mark.parametrize("move, why", [
    ("e5-e6", "e5 holds no stone"),
    ("e7-e6", "e7 holds a blue stone"),
    ("a1-a3", "broken at a2"),
    ("e3-g4", "not on one line"),
    ("c1-d1", "holds red's own stone"),
    ("a1-e1", "e1 is blue's goal"),
])
def test_an_illegal_move_names_the_move_and_why_and_leaves_the_position(move, why):
    game = Aboyne("e2-e3 e8-e7")
    before = (game.stones.copy(), game.player, game.moves, game.legal_actions())
    with pytest.raises(ValueError, match=why) as info:
        game.play(move)
    assert f"'{move}'" in str(info.value)
    assert (game.stones, game.player, game.moves, game.legal_actions()) == before


def test_a_blocked_stone_and_a_finished_game_are_explained():
    game = Aboyne.from_cells(["e5", "a1"], ["e6", "i9"], to_move=0)
    with pytest.raises(ValueError, match="e5 is blocked: it is next to blue's stone on e6"):
        game.play("e5-d4")
    game = Aboyne.from_cells(["e8"], ["a5"], to_move=0)
    game.play("e8-e9")
    with pytest.raises(ValueError, match="the game is over: red has won"):
        game.play("a5-a4")


@pytest.mark.parametrize("text, why", [("e2e3", "malformed"), ("e2-", "malformed"), ("j1-e3", "malformed"),
                                       ("a9-a8", "'a9' is not a cell"), ("e2-e2", "same cell"), (2.5, "not an action code")])
def test_a_malformed_move_text_is_refused(text, why):
    game = Aboyne()
    with pytest.raises(ValueError, match=why):
        game.play([text])
    assert game.moves == "" and len(game.legal_actions()) == 19


def test_a_bad_record_leaves_the_game_as_before_it():
    game = Aboyne("e2-e3")
    with pytest.raises(ValueError, match="e8-e9"):
        game.play("e8-e7 e3-e4 e8-e9")
    assert game.moves == "e2-e3" and game.player == 1


def test_from_cells_refuses_impossible_set_ups():
    with pytest.raises(ValueError, match="hold a red and a blue stone"):
        Aboyne.from_cells(["e5"], ["e5"])
    with pytest.raises(ValueError, match="not a cell"):
        Aboyne.from_cells(["z9"], ["e5"])
    with pytest.raises(ValueError, match="blue's goal"):
        Aboyne.from_cells(["e1"], ["e5"])
    with pytest.raises(ValueError, match="to_move"):
        Aboyne.from_cells(["e2"], ["e5"], to_move=2)
    with pytest.raises(ValueError, match="max_plies"):
        Aboyne(max_plies=0)


def test_a_numpy_integer_action_is_played_as_an_int():
    import numpy as np

    game = Aboyne()
    game.apply_action(np.int64(game.string_to_action("e2-e3")))
    assert game.moves == "e2-e3" and type(game.history[0]) is int


def test_bad_inputs_are_value_errors_naming_them_and_change_nothing():
    import numpy as np

    game = Aboyne("e2-e3")
    legal = game.legal_actions()[0]
    for action in (float(legal), np.float64(legal), True, None, str(legal), [legal]):
        with pytest.raises(ValueError, match="is not an action code"):
            game.apply_action(action)  # 1.0 equals a legal action's code, and is not one
    assert game.moves == "e2-e3"
    calls = [(Aboyne, (5,), "moves must be a list"), (Aboyne, (None,), "moves must be a list"),
             (game.play, (None,), "moves must be a list"), (Aboyne.from_cells, (5, []), "red must be a list"),
             (Aboyne.from_cells, (["e5"], "a5"), "blue must be a list"),
             (Aboyne.from_cells, (["e5"], ["a5"], True), "to_move must be 0"),
             (Aboyne.from_cells, (["e5"], ["a5"], 0.0), "to_move must be 0"),
             (Aboyne.from_cells, ([1.0], []), "not a cell index"),
             (Aboyne.from_cells, (["e9"], ["e1"]), "both cannot have won"),
             (game.blocked, ("x",), "player must be 0"), (game.cells_of, (2,), "player must be 0"),
             (game.evaluate, (None,), "player must be 0"), (features, (game, 3), "player must be 0"),
             (report_score, (game, 0, None), "weights must map"),
             (report_score, (game, 0, {"win": 1}), "weights must map")]
    for call, args, words in calls:
        with pytest.raises(ValueError, match=words):
            call(*args)
    assert game.moves == "e2-e3"


def test_a_set_up_with_a_stone_on_its_goal_is_already_won_by_it():
    for red, blue, to_move, winner in ((["e9"], ["a5"], 0, 0), (["e9"], ["a5"], 1, 0),
                                       (["a5"], ["e1"], 1, 1), (["a5"], ["e1"], 0, 1)):
        game = Aboyne.from_cells(red, blue, to_move)
        assert game.winner == winner and game.is_terminal() and game.legal_actions() == []
        assert game.result_text() == f"{('red', 'blue')[winner]} wins"


def test_max_plies_ends_the_game_drawn():
    game = Aboyne("e2-e3 e8-e7", max_plies=2)
    assert game.is_terminal() and game.winner is None and game.returns() == [0.0, 0.0]
    with pytest.raises(ValueError, match="drawn after 2 moves"):
        game.apply_action(Aboyne().legal_actions()[0])


# -- the drawing -----------------------------------------------------------------------------------
def test_the_svg_draws_every_cell_stone_goal_and_ring():
    game = Aboyne("e2-e3")
    picture = game._repr_svg_()
    assert picture.startswith("<svg") and picture.count("<polygon") == 61
    assert picture.count('class="stone red"') == 9 and picture.count('class="stone blue"') == 9
    assert 'class="cell goal red"' in picture and 'class="cell goal blue"' in picture
    ringed = svg(game, selected=30, targets=[31, 32, 33])
    assert ringed.count('class="target"') == 3 and ringed.count('class="selected"') == 1


def test_a_pixel_maps_back_to_its_cell_at_any_size():
    for size in (None, 300.0, 600.0):
        scale = 1.0 if size is None else size / float(svg(Aboyne()).split('viewBox="0 0 ')[1].split()[0])
        for c in range(61):
            x, y = centre(c)
            assert cell_at(x * scale, y * scale, size) == c
    assert cell_at(1.0, 1.0, None) is None


# -- the reference searches play it unchanged -----------------------------------------------
def test_minimax_and_alphabeta_agree_and_mcts_finds_a_win_in_one():
    ev = ex.heuristic("report 2")
    for record in ex.STATES.values():
        game = Aboyne(record)
        a = minimax(game, 2, game.current_player(), ev)
        b = alphabeta(game, 2, game.current_player(), ev)
        assert (a.value, a.details["best"]) == (b.value, b.details["best"]) and b.nodes <= a.nodes
    game = Aboyne.from_cells(["e8", "a1"], ["a5", "b6"], to_move=0)
    result = mcts(game, 200, 0, seed=1)
    assert game.action_to_string(result.turn) == "e8-e9"


def test_the_report_heuristics_terms():
    game = Aboyne.from_cells(["e5", "e7", "a1"], ["e6", "i9"], to_move=0)
    f = features(game, 0)
    assert f["stones"] == (3, 2)
    assert f["blocking"] == (1, 2)  # red blocks e6; blue blocks e5 and e7
    assert f["closeness"] == (8 - 2, 8 - 5)  # e7 is 2 from e9; e6 is 5 from e1 (i9 is 8)
    w = HEURISTICS["report 1"]
    assert report_score(game, 0, w) == 10 * 6 - 10 * 3 + 50 * 3 - 50 * 2 + 100 * 1 - 100 * 2
    game = Aboyne.from_cells(["e8", "a1"], ["a5"], to_move=0)
    game.play("e8-e9")
    assert report_score(game, 0, w) == 10000 and report_score(game, 1, w) == -10000


# -- the experiment and the claims' rules ------------------------------------------------------
def test_the_fixed_states_are_recomputed_and_a_duel_is_reproducible():
    assert ex.make_states() == ex.STATES
    a = ex.duel(ex.STATES["state 2"], 1, 1, max_plies=40)
    b = ex.duel(ex.STATES["state 2"], 1, 1, max_plies=40)
    assert a["record"] == b["record"] and a["winner"] in (0, 1, 2)
    assert ex.duel(ex.STATES["state 2"], 1, 2, max_plies=40)["heuristic 1 side"] == "blue"


def test_the_report_tables_recompute_and_the_rules_decide():
    report = [18.0 ** (k + 1) for k in range(9)]
    assert rp.accepted_levels(report)[:8] == list(rp.ACCEPTED)
    assert round(rp.levels_on_average(report) * 26) == 100
    assert [round(x) for x in rp.levels_best_worst(report)] == [6, 2]  # "6 at best, 2 at worst"
    assert rp.table_1_mean() == 17.5
    grown = rp.extrapolate({1: 10, 2: 100}, [1, 2, 3])
    assert grown[3] == (1000.0, True) and grown[1] == (10.0, False)


def test_the_report_result_tables_are_quoted_with_their_means():
    results = rp.report_results()
    assert len(results) == 90 and set(results.winner) == {1, 2}
    for state, mean in rp.RESULTS_MEAN.items():  # each "Média" row: the majority winner, the mean time
        cells = mean.split()
        for k, depth in enumerate((1, 2, 3)):
            part = results[(results.state == state) & (results.depth == depth)]
            assert int(cells[2 * k]) == (2 if (part.winner == 2).sum() > 5 else 1)
            unit = 0.1 if depth < 3 else 1  # the mean of printed cells: within one unit of the last digit
            assert abs(part.tempo.mean() - rp.printed(cells[2 * k + 1])) <= unit + 1e-9
    assert results.groupby("depth").winner.apply(lambda w: int((w == 2).sum())).tolist() == [15, 15, 16]


def test_the_sign_tests_of_processor_time_decide_each_case():
    # slow: alpha-beta longer in every pair; fast: shorter in every pair; even: longer in alternate pairs;
    # most: longer in 4 of every 5 pairs
    def cpu(s, k):
        return {"slow": 1.1, "fast": 0.9, "even": 1.0 + (-1) ** k * 0.1, "most": 0.9 if k % 5 == 0 else 1.1}[s]

    rows = [{"state": s, "depth": 2, "pair": k, "nodes_minimax": 10, "nodes_alphabeta": 8 if s == "fast" else 10,
             "cpu_minimax": 1.0, "cpu_alphabeta": cpu(s, k)}
            for s in ("slow", "fast", "even", "most") for k in range(400)]
    test = cl.slower_test(4)  # at 0.05 / 4 the upper bound is 4.33: 24 wins in a row
    assert test.alpha == pytest.approx(0.05 / 4) and (test.p0, test.p1) == cl.SLOWER_SHARES
    cases = cl.slower_cases(pd.DataFrame(rows), test).set_index("state")
    assert cases.case.to_dict() == {"even": "not slower", "fast": "not slower", "most": "slower", "slow": "slower"}
    assert cases.trials.to_dict() == {"even": test.run([k % 2 == 0 for k in range(400)]).trials, "fast": 22,
                                      "most": test.run([k % 5 != 0 for k in range(400)]).trials, "slow": 24}
    # the replaced reading on the first 21 pairs, Holm over the four cases
    assert cases.sign21_slower.to_dict() == {"even": False, "fast": False, "most": True, "slow": True}
    assert cases.sign21_faster.to_dict() == {"even": False, "fast": True, "most": False, "slow": False}
    assert cases.loc["slow", "sign21_p_slower"] == pytest.approx(0.5 ** 21)
    assert (cases.sign21_pairs == 21).all() and (cases.pairs == 400).all()
    # pairs of equal times are no trials
    tied = pd.DataFrame(rows).assign(cpu_alphabeta=lambda t: np.where(t.pair % 3 == 0, 1.0, t.cpu_alphabeta))
    assert cl.slower_cases(tied, test).set_index("state").loc["slow", "trials"] == 24
    claims = cl.claims_table(*_tiny_inputs(), pd.DataFrame(rows), test).set_index("key")
    assert claims.loc["alphabeta-slower-sprt", "verdict"] == "confirmed"
    assert claims.loc["alphabeta-slower-cpu", "reading"] == "replaced by alphabeta-slower-sprt"
    refuted = pd.DataFrame([r for r in rows if r["state"] in ("fast", "even")])
    claims = cl.claims_table(*_tiny_inputs(), refuted, test).set_index("key")
    assert claims.loc["alphabeta-slower-sprt", "verdict"] == "refuted"
    assert claims.loc["alphabeta-slower-cpu", "verdict"] == "not decided"  # "even" neither slower nor faster
    with pytest.raises(ValueError, match="cases"):
        cl.slower_test(0)


def test_paired_timings_stop_where_the_test_stops():
    test = SignSPRT(0.5, 0.6, first_look=2, every=2, max_trials=4)
    timings = ex.paired_timings({"state 2": ex.STATES["state 2"]}, [1, 2], test)
    for _, part in timings.groupby("depth"):
        played = part.cpu_alphabeta != part.cpu_minimax
        assert part.pair.tolist() == list(range(len(part)))
        assert played.sum() == test.run((part.cpu_alphabeta > part.cpu_minimax)[played].tolist()).trials
        assert 2 <= len(part) and played.sum() <= 4
    assert (timings[timings.depth == 2].nodes_alphabeta == 668).all()  # no cut at state 2, depth 2


def _tiny_inputs():
    """The claims table's inputs but the timings, at a tiny size."""
    samples = ex.branching_samples(4, 1, depth=1, seed=1)
    summary = ex.branching_summary(samples, resamples=200)
    costs = ex.search_costs({"state 1": ""}, [1, 2])
    nodes = costs.pivot_table(index="depth", columns="algorithm", values="nodes")
    counts = {r.depth: r.count for r in reference_counts() if r.moves == ""}
    table2 = cl.table_2_comparison(counts, nodes["alpha-beta"].to_dict(), 20_000.0, 20_000.0,
                                   minimax_nodes=nodes["minimax"].to_dict())
    duels = ex.duels({"state 2": ex.STATES["state 2"]}, depths=(1,), tests=2, max_plies=30)
    blue = ex.first_moves(Aboyne.from_cells(START[0], START[1], to_move=1))
    return ex.first_moves(), blue, summary, table2, costs, duels


def test_the_claims_table_at_a_tiny_size():
    inputs = _tiny_inputs()
    assert set(inputs[2].phase) == {"all", *ex.PHASES}
    capped = ex.branching_samples(3, 0, seed=1, random_cap=6)  # every random game drawn at its cap
    assert capped.drawn.all() and (capped.plies == 6).all()
    kept = ex.branching_summary(capped, resamples=50).set_index(["games kept", "phase"])
    assert kept.loc[("drawn at the cap", "all"), "drawn games"] == 3 and ("ended", "all") not in kept.index
    test = cl.slower_test(1, first_look=2, max_trials=2)
    timings = ex.paired_timings({"state 2": ex.STATES["state 2"]}, [2], test)
    claims = cl.claims_table(*inputs, timings, test).set_index("key")
    assert list(claims.index) == [c.key for c in cl.CLAIMS]
    assert claims.loc["first-moves", "verdict"] == "refuted"  # 19, not 17
    assert claims.loc["first-moves", "reading"] == "replaced by first-moves-steps"
    assert claims.loc["first-moves-steps", "verdict"] == "confirmed"  # 17 steps
    assert claims.loc["first-moves-by-stone-steps", "verdict"] == "confirmed"
    assert claims.loc["best-worst-arithmetic", "verdict"] == "confirmed"
    assert claims.loc["heuristics-equal-shallow-report", "verdict"] == "confirmed"  # 30 of 60
    assert claims.loc["alphabeta-more-nodes", "verdict"] == "refuted"  # never more than minimax
    assert claims.loc["alphabeta-slower-cpu", "verdict"] == "not decided"  # two pairs cannot decide
    assert claims.loc["alphabeta-slower-sprt", "verdict"] == "not decided"  # nor two trials
    assert claims.loc["table-2-arithmetic", "verdict"] == "confirmed"
    assert claims.loc["four-levels-arithmetic", "verdict"] == "confirmed"
    assert claims.loc["table-2-level-0", "verdict"] == "confirmed"  # 19 against 18
    assert claims.loc["heuristic-2-deeper", "verdict"] == "not decided"  # depth 3 not played
    assert set(claims.verdict) <= {"confirmed", "refuted", "not decided"}


def test_the_aboyne_benchmark_reports_rates_and_a_ratio():
    from fepaper.bench import BENCHMARKS
    from fepaper.bench.aboyne import bench_aboyne

    figures = bench_aboyne(repeat=1, depth=1)
    assert "aboyne" in BENCHMARKS
    assert {"perft 4 from the start: moves/s", "random game: moves/s", "minimax depth 1: states/s",
            "alpha-beta depth 1: states/s", "alpha-beta / minimax seconds"} <= set(figures)
    assert all(v > 0 for v in figures.values())
