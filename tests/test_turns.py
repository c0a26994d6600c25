"""The compiled turn walk against the pure-Python twin and a brute force over step paths."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fepaper import _core
from fepaper.experiments.perft import divide, perft
from fepaper.game.game import Game
from fepaper.search import twin as reference

from .helpers import SMALL_RULES, end_state, marked_edges, position, small_turn_count

PRESETS = ["thesis", "standard", "foo", {"preset": "thesis", "bounce": "mandatory"}]


def core_turns(game: Game, chunk=4096):
    return list(_core.iter_turns(game.marks, game.ball_index, *game.board.walk_arrays,
                                 game.rules.bounce == "optional", chunk=chunk))


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


@pytest.mark.parametrize(
    "rules, counts",
    [
        ("thesis", [6, 102, 2034]),
        ({"preset": "thesis", "bounce": "mandatory"}, [6, 90, 1686]),
        ("standard", [8, 56, 512]),
    ],
)
def test_rules_md_reference_counts(rules, counts):
    game = Game(rules)
    assert [perft(game, d) for d in (1, 2, 3)] == counts
    b = game.board
    walls = marked_edges(game)
    assert [reference.perft(b, walls, b.kickoff, 1, d) for d in (1, 2, 3)] == counts


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
        got[state] = _core.KIND_NAMES[kind]
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


def test_state_limit_gives_up_cleanly():
    game = Game("thesis", "0 54 1")
    b = game.board
    args = (*b.walk_arrays, True)
    assert _core.count_turns(game.marks.copy(), game.ball_index, *args, -1, 3) == -1
    with pytest.raises(_core.TooManyTurns):
        list(_core.iter_turns(game.marks, game.ball_index, *args, max_states=3))


def test_perft_deeper_matches_reference():
    for rules in ("standard", {"preset": "thesis", "bounce": "mandatory"}):
        game = Game(rules)
        b = game.board
        assert perft(game, 4) == reference.perft(b, marked_edges(game), b.kickoff, 1, 4)


def test_perft_counts_finished_games_as_leaves():
    # a 4x4 board where goals come within three turns
    rules = {"width": 4, "height": 4, "middle_line": False, "bounce": "optional"}
    game = Game(rules)
    b = game.board
    for d in (1, 2, 3, 4):
        assert perft(game, d) == reference.perft(b, marked_edges(game), b.kickoff, 1, d)
    limited = Game({**rules, "max_turns": 2})
    assert perft(limited, 3) == perft(limited, 2)
