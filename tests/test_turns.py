"""The compiled turn walk against the pure-Python twin and a brute force over step paths."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fepaper._core.bundles import CAPPED, DONE, OUT_OF_BUDGET, new_budget
from fepaper._core.turns import KIND_NAMES, count_turns
from fepaper.game import Game
from fepaper.game.walks import TooManyTurns, iter_turns
from fepaper.play.randomplay import random_game
from fepaper.search.perft import divide, perft, reference_counts
from fepaper.search.reference import turns as reference

from .helpers import SMALL_RULES, end_state, marked_edges, position, small_turn_count

PRESETS = ["thesis", "standard", "foo", {"preset": "thesis", "bounce": "mandatory"},
           {"preset": "thesis", "dead_end": "stop"}]


def core_turns(game: Game, chunk=4096):
    return list(iter_turns(game.marks, game.ball_index, game.board, game.rules, chunk=chunk))


def brute_force(game: Game, limit=200_000):
    """Every step path of one turn, merged by end state (no pruning at all)."""
    optional = game.rules.bounce == "optional"
    out = {}
    paths = 0

    def go(g: Game, steps: str, turns_before: int):
        nonlocal paths
        for d in g.legal_steps():
            paths += 1
            if paths > limit:
                raise OverflowError
            g.step(d)
            path = steps + str(d)
            ended = len(g.history) > turns_before
            if ended or optional:
                # a finished turn, or a bounce the player may stop on
                key = (g.ball, marked_edges(g))
                out.setdefault(key, path)
            if not ended:
                go(g, path, turns_before)
            g.undo()

    go(game.copy(), "", len(game.history))
    return out


@pytest.mark.parametrize("row", reference_counts(), ids=lambda r: f"{r.rules}-{r.moves or 'start'}-{r.depth}")
def test_reference_counts_of_the_data_file(row):
    """Every row of perft_reference.csv, by the compiled core and by the pure-Python twin."""
    game = Game(row.rules, row.moves)
    assert perft(game, row.depth) == row.count
    b = game.board
    assert reference.perft(b, marked_edges(game), game.ball, game.player, row.depth) == row.count


def test_the_data_file_holds_the_rules_contract():
    rows = {(str(r.rules), r.moves, r.depth): r.count for r in reference_counts()}
    assert [rows[("thesis", "", d)] for d in (1, 2, 3)] == [6, 102, 2034]
    assert [rows[("standard", "", d)] for d in (1, 2, 3)] == [8, 56, 512]
    assert any(r.rules.dead_end == "stop" for r in reference_counts())


def test_divide_sums_to_perft():
    game = Game("thesis", "0 54")
    parts = divide(game, 2)
    assert sum(parts.values()) == perft(game, 2)
    assert set(parts) == {t.steps for t in game.turns()}


@given(st.sampled_from(PRESETS + SMALL_RULES), st.integers(0, 10**6), st.floats(0, 1))
def test_core_agrees_with_reference(rules, seed, fraction):
    game = position(rules, seed, fraction)
    assume(not game.is_over and small_turn_count(game) >= 0)
    b = game.board
    ref = reference.distinct_turns(b, marked_edges(game), game.ball)
    core = core_turns(game)
    assert len(core) == len(ref) == game.turns().count()
    got = {}
    for steps, kind, end in core:
        state = end_state(game, steps)
        assert state not in got, f"turn {steps} repeats {got.get(state)}"
        assert b.nodes[end] == state[0]
        got[state] = KIND_NAMES[kind]
    assert got == {state: kind for state, (_, kind) in ref.items()}


@given(st.sampled_from(SMALL_RULES), st.integers(0, 10**6), st.floats(0, 1))
def test_turns_equal_brute_force_on_small_boards(rules, seed, fraction):
    game = position(rules, seed, fraction)
    assume(not game.is_over and small_turn_count(game, 5000) >= 0)
    try:
        brute = brute_force(game)
    except OverflowError:
        assume(False)
    assert {end_state(game, t.steps) for t in game.turns()} == set(brute)


@given(st.sampled_from(PRESETS), st.integers(0, 10**6), st.floats(0, 1), st.integers(1, 7))
def test_chunked_walk_resumes_without_losing_a_turn(rules, seed, fraction, chunk):
    game = position(rules, seed, fraction)
    assume(not game.is_over and small_turn_count(game, 50_000) >= 0)
    assert core_turns(game, chunk=chunk) == core_turns(game)


def test_walk_restores_marks_and_counts_big_positions():
    game = next(g for g in (position("standard", 1, k / 30) for k in range(30))
                if small_turn_count(g, 1_000_000) > 10_000)
    before = game.marks.copy()
    n = game.turns().count()
    assert n == sum(1 for _ in game.turns())
    assert (game.marks == before).all()


def test_state_limit_and_budget_give_up_cleanly():
    game = Game("thesis", "0 54 1")
    before = game.marks.copy()
    arrays, flags = game.board.arrays, game.rules.flags
    n, status = count_turns(game.marks, game.ball_index, arrays, flags, 3, new_budget())
    assert status == CAPPED and 0 <= n <= 3
    assert (game.marks == before).all()  # unwound after the cut
    budget = new_budget(max_nodes=0)
    budget.ctl[1] = 1  # already spent
    assert count_turns(game.marks, game.ball_index, arrays, flags, 0, budget)[1] == OUT_OF_BUDGET
    assert count_turns(game.marks, game.ball_index, arrays, flags, 0, new_budget())[1] == DONE
    assert (game.marks == before).all()
    assert game.turns().count(limit=3) == -1
    with pytest.raises(TooManyTurns):
        list(iter_turns(game.marks, game.ball_index, game.board, game.rules, max_states=3))
    assert (game.marks == before).all()


def test_a_deadline_cuts_a_huge_walk_short():
    """The walk reads the clock every CHECK_EVERY states: a deadline already passed stops a walk of
    more than 10**8 turns at its first look, after exactly that much work, with its marks back."""
    from time import perf_counter

    from fepaper._core.clock import CHECK_EVERY

    game = Game("standard", "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7 5771 60 2 43 0 61 3 63 1 63 07 0 14 57 5312 4167545")
    marks = game.marks.copy()
    passed = new_budget(1.0, 0, perf_counter() - 10.0)
    n, status = count_turns(marks, game.ball_index, game.board.arrays, game.rules.flags, 0, passed)
    assert status == OUT_OF_BUDGET and n > 0 and passed.ctl[0] == CHECK_EVERY
    assert (marks == game.marks).all()


def test_a_walk_does_not_grow_its_key_set_past_its_deadline():
    """A key set's growth is work the walk's clock never sees. With a deadline nearer than the growth
    would take, the walk stops where its set of 256 slots is half full, before its first look at the
    clock, with the set not grown and the budget spent; without a deadline the same walk grows it."""
    from fepaper._core.clock import CHECK_EVERY
    from fepaper._core.turns import (
        KEYSET_GROW_RATE,
        grow_in_time,
        new_keyset,
        new_turn_buffer,
        new_walk,
        walk_turns,
    )

    game = Game("standard", HEAVY_STANDARD)
    b = game.board
    growth = 2 * new_keyset(128).nbytes / KEYSET_GROW_RATE  # the seconds the set of 256 slots takes to double
    for seconds, grown in ((0.5 * growth, False), (None, True)):
        marks, walk, budget = game.marks.copy(), new_walk(b.n_edges, game.ball_index), new_budget(seconds)
        out, table = new_turn_buffer(64, 64 * (b.n_edges + 1)), new_keyset(128)
        while walk.ctl[1] == 0:  # RUNNING: the buffer was full
            out.offsets[0] = 0
            _, table = walk_turns(marks, b.arrays, game.rules.flags, walk, table, out, -1, 1000, budget, False)
        if grown:
            assert walk.ctl[1] == CAPPED and table.shape[0] > 256 and budget.ctl[1] == 0
        else:
            assert walk.ctl[1] == OUT_OF_BUDGET and table.shape[0] == 256 and walk.used[0] == 128
            assert budget.ctl[1] == 1 and budget.ctl[0] < CHECK_EVERY  # stopped before any look
    far, near = new_budget(60.0), new_budget(0.5 * growth)
    used = np.array([128], np.int64)
    assert grow_in_time(new_keyset(128), np.array([127], np.int64), near)[1]  # one more key fits: no growth
    table, fits = grow_in_time(new_keyset(128), used, far)
    assert fits and table.shape[0] == 512 and far.ctl[1] == 0
    table, fits = grow_in_time(new_keyset(128), used, near)
    assert not fits and table.shape[0] == 256 and near.ctl[1] == 1


def test_perft_deeper_matches_reference():
    for rules in ("standard", {"preset": "thesis", "bounce": "mandatory"}):
        game = Game(rules)
        b = game.board
        assert perft(game, 4) == reference.perft(b, marked_edges(game), b.kickoff, 1, 4)

@pytest.mark.slow

def test_perft_counts_finished_games_as_leaves():
    # a 4x4 board where goals come within three turns
    rules = {"width": 4, "height": 4, "middle_line": False, "bounce": "optional"}
    game = Game(rules)
    b = game.board
    for d in (1, 2, 3, 4):
        assert perft(game, d) == reference.perft(b, marked_edges(game), b.kickoff, 1, d)
    limited = Game({**rules, "max_turns": 2})
    assert perft(limited, 3) == perft(limited, 2)


def test_turn_view_answers_bool_without_a_walk_and_has_no_len():
    game = Game("thesis")
    assert game.turns()
    assert not hasattr(game.turns(), "__len__")  # list() and sorted() must not count first
    over = random_game("standard", seed=1)
    assert over.is_over and not over.turns() and list(over.turns()) == []


@pytest.mark.slow
@pytest.mark.parametrize("dead_end", ["blocked", "stop"])
def test_a_dead_end_under_both_readings(dead_end):
    """A step onto a marked node with no free edge: the mover is blocked there, or stops
    and leaves the opponent blocked; the twin and the core agree on every position."""
    rules = {"width": 4, "height": 6, "middle_line": True, "bounce": "optional", "dead_end": dead_end}
    found = checked = 0
    for seed in range(400):
        if found >= 8 and checked >= 60:  # the rule exercised on enough positions: stop early
            break
        game = position(rules, seed, 0.9)
        if game.is_over or small_turn_count(game) < 0:
            continue
        checked += 1
        ref = reference.distinct_turns(game.board, marked_edges(game), game.ball)
        kinds = {KIND_NAMES[k] for _, k, _ in core_turns(game)}
        assert sorted(KIND_NAMES[k] for _, k, _ in core_turns(game)) == sorted(k for _, k in ref.values())
        for steps, (path, kind) in ref.items():
            end, marked = steps
            dead = not any(e not in marked for _, _, e in reference.steps_from(game.board, end))
            if dead and not game.board.graph.nodes[end]["goal"] and len(path) > 0 and kind in ("blocked", "stop"):
                trial = game.copy()
                trial.push(path)
                found += 1
                if dead_end == "blocked":
                    assert trial.result.reason == "blocked" and trial.result.winner == 3 - game.player
                else:
                    assert trial.result.reason == "blocked" and trial.result.winner == game.player
        assert kinds <= {"end", "stop", "goal", "blocked"}
    assert found >= 5  # the rule was exercised


HEAVY_STANDARD = "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7 5771 60 2 43 0 61 3 63 1 63 07 0 14 57 5312 4167545"


def test_a_listing_filled_in_short_calls_still_reaches_its_clock():
    """A turn buffer of 4 turns on a position of more than 10**8 turns: every call of the walk
    does a little work, and the budget's deadline (already passed) must still stop it after
    one clock countdown, not after the whole listing (the heavy-position search ran 338 s)."""
    from fepaper._core.clock import CHECK_EVERY
    from fepaper._core.turns import new_keyset, new_turn_buffer, new_walk, walk_turns

    game = Game("standard", HEAVY_STANDARD)
    b = game.board
    marks = game.marks.copy()
    walk = new_walk(b.n_edges, game.ball_index)
    table = new_keyset(64)
    out = new_turn_buffer(4, 4 * (b.n_edges + 1))
    budget = new_budget(1e-9)
    calls = turns = 0
    while walk.ctl[1] == 0:
        out.offsets[0] = 0
        written, table = walk_turns(marks, b.arrays, game.rules.flags, walk, table, out, -1, 0, budget, False)
        calls += 1
        turns += written
        assert calls <= CHECK_EVERY, "the walk never looked at the clock"
    assert walk.ctl[1] == OUT_OF_BUDGET
    assert budget.ctl[1] == 1 and budget.ctl[0] <= 2 * CHECK_EVERY
    assert 0 < turns <= 4 * calls


@pytest.mark.parametrize("record", ["", "2 4 6 7 1", HEAVY_STANDARD])
def test_a_listing_out_of_budget_before_its_first_turn_still_keeps_one(record):
    """A search that lists a position after its budget is spent gets one legal turn, flagged as
    truncated, never an empty listing (an MCTS node with no children read garbage)."""
    from fepaper._core.bundles import Budget
    from fepaper._core.picks import RANDOM, collect_turns, new_picks
    from fepaper._core.turns import new_keyset
    from fepaper.search.playouts import random_state, turns_of

    game = Game("standard", record)
    b = game.board
    spent = Budget(np.array([0, 1, 0, 1024, 0], np.int64), 1.0)
    before = game.marks.copy()
    picks = new_picks(b.n_nodes, b.n_edges, 8)
    kept, total, truncated, _ = collect_turns(game.marks, game.ball_index, game.player, len(game.history), b.arrays,
                                              game.rules.flags, RANDOM, 8, 0, False, random_state(1), picks,
                                              new_keyset(32), spent)
    assert kept >= 1 and total >= kept
    assert truncated or total == game.turns().count(limit=10_000)
    assert (game.marks == before).all()
    for steps, _end, _outcome in turns_of(picks, kept):
        assert steps in game.turns()
