"""Random playouts, turns by priority, MCTS, greedy and Foo's machines (issue 3)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper._core import picks
from fepaper.controllers import SpecError, make
from fepaper.controllers.foo import MACHINES
from fepaper.game.game import Game
from fepaper.play.randomplay import random_game
from fepaper.search import playouts as P
from fepaper.search.mcts import mcts_search

from .helpers import end_state, position, small_turn_count, turn_position

SMALL = {"width": 4, "height": 6, "middle_line": False, "bounce": "optional"}
RULES = [
    "thesis", "standard", "foo", SMALL,
    {"width": 4, "height": 6, "middle_line": True, "bounce": "mandatory", "blocked": "draw", "max_turns": 9},
]


def _replay(rules, codes: str) -> Game:
    game = Game(rules)
    for c in codes:
        if c == "s":
            game.stop()
        else:
            game.step(int(c))
    return game


# -- playouts --------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULES)
def test_recorded_playouts_replay_through_game(rules):
    for seed in range(25):
        winner, steps, codes = P.random_playout(Game(rules), seed=seed, record=True)
        game = _replay(rules, codes)
        assert game.is_over, codes
        assert (game.result.winner or 0) == winner
        assert steps == len(codes.replace("s", ""))


def test_playout_from_a_midgame_position_replays():
    start = position("thesis", 3, 0.5)
    for seed in range(10):
        winner, _, codes = P.random_playout(start, seed=seed, record=True)
        game = Game("thesis", start.moves)
        for c in codes:
            if c == "s":
                game.stop()
            else:
                game.step(int(c))
        assert (game.result.winner or 0) == winner


def test_playout_is_reproducible_and_leaves_the_game_alone():
    game = Game("thesis", "0 54")
    marks = game.marks.copy()
    assert P.random_playout(game, seed=9, record=True) == P.random_playout(game, seed=9, record=True)
    assert (game.marks == marks).all() and game.moves == "0 54"


def test_playout_distribution_agrees_with_random_game():
    # optional bounce with a stop probability other than 1/2, on a board where games are short
    rules, p, n = SMALL, 0.3, 1500
    rng = np.random.default_rng(5)
    python = np.zeros(3)
    for _ in range(n):
        result = random_game(rules, seed=rng, stop_probability=p).result
        python[result.winner or 0] += 1
    wins, _ = P.playout_wins(Game(rules), 20_000, seed=5, stop_probability=p)
    kernel = wins / wins.sum()
    for w in (1, 2):
        sigma = np.sqrt(kernel[w] * (1 - kernel[w]) / n)
        assert abs(python[w] / n - kernel[w]) < 4 * sigma + 1e-3, (python / n, kernel)


def test_stop_probability_only_decides_who_moves():
    # A stop draws its random number whatever the probability, and uniform steps do not
    # depend on whose turn it is: the same seed gives the same steps, stops in between.
    for seed in range(5):
        _, _, never = P.random_playout(Game(SMALL), seed=seed, stop_probability=0.0, record=True)
        _, _, always = P.random_playout(Game(SMALL), seed=seed, stop_probability=1.0, record=True)
        assert "s" not in never and always.replace("s", "") == never
        assert all(len(turn) == 1 for turn in _replay(SMALL, always).history)  # stopped at every bounce


def test_playout_rejects_bad_input():
    with pytest.raises(ValueError, match="stop_probability"):
        P.random_playout(Game("thesis"), stop_probability=1.5)
    with pytest.raises(TypeError, match="seed"):
        P.random_playout(Game("thesis"), seed="x")
    over = Game(SMALL)
    while not over.is_over:
        over.push(make({"name": "greedy", "seed": 0}).choose_turn(over))
    with pytest.raises(ValueError, match="over"):
        P.random_playout(over)


# -- turns by priority ---------------------------------------------------------------------
def _outcome(game: Game, steps: str) -> int:
    after = game.copy()
    after.push(steps)
    if after.result is None:
        return picks.CONTINUE
    if after.result.winner is None:
        return picks.DRAW
    return picks.WIN if after.result.winner == game.player else picks.LOSS


@pytest.mark.parametrize("rules", RULES)
def test_collected_turns_are_the_distinct_turns_with_their_outcomes(rules):
    for seed, fraction in [(1, 0.3), (2, 0.6), (3, 0.9)]:
        game = position(rules, seed, fraction)
        count = game.turns().count()
        if count > 3000:
            continue
        turns, total, truncated = P.choose_turns(game, count, "random", seed=seed)
        assert not truncated and total == len(turns) == game.turns().count()
        expected = {end_state(game, t.steps): t for t in game.turns()}
        assert {end_state(game, s) for s, _, _ in turns} == set(expected)
        for steps, end, outcome in turns:
            assert game.board.nodes[end] == expected[end_state(game, steps)].end
            assert outcome == _outcome(game, steps), steps


def test_orders_keep_the_turns_they_promise():
    game = position("standard", 4, 0.5)
    every = [t.steps for t in game.turns()]
    shortest, _, _ = P.choose_turns(game, 5, "shortest", seed=0)
    assert [len(s) for s, _, _ in shortest] == sorted(len(s) for s in every)[:5]
    nearest, _, _ = P.choose_turns(game, 3, "nearest", seed=0)
    b, me = game.board, game.player
    ends = sorted(b.goal_distance(b.index[t.end], me) for t in game.turns() if t.kind != "goal")
    assert [b.goal_distance(e, me) for _, e, o in nearest if o == picks.CONTINUE][:1] == ends[:1]
    sample = {s for s, _, _ in P.choose_turns(game, 4, "random", seed=1)[0]}
    assert len(sample) == 4 and sample <= set(every)


def test_walk_cap_truncates():
    game = Game("thesis")
    turns, total, truncated = P.choose_turns(game, 10, max_states=1)
    assert truncated and total <= 1


# -- MCTS -----------------------------------------------------------------------------------
def _scoring_position(rules, seed=0) -> Game:
    """The position before the last turn of the first seeded random game won by a goal."""
    while True:
        full = random_game(rules, seed=seed)
        if full.result.reason == "goal":
            return Game(rules, " ".join(full.history[:-1]))
        seed += 1


def test_mcts_scores_when_it_can():
    game = _scoring_position("thesis")
    goals = [t.steps for t in game.turns() if t.kind == "goal" and _outcome(game, t.steps) == picks.WIN]
    assert goals
    result = mcts_search(game, 200, seed=1)
    turn, stats = result.turn, result.details
    assert turn in goals and stats["proven"] == 1.0 and stats["iterations"] <= 1


def test_mcts_is_deterministic_with_a_seed():
    game = position("thesis", 8, 0.4)
    a = make({"name": "mcts", "iterations": 3000, "seed": 7})
    b = make({"name": "mcts", "iterations": 3000, "seed": 7})
    assert [a.choose_turn(game) for _ in range(3)] == [b.choose_turn(game) for _ in range(3)]
    assert a.last.details["visits"] == b.last.details["visits"]


@pytest.mark.parametrize("rules", ["thesis", "standard", SMALL])
def test_mcts_plays_legal_turns(rules):
    player = make({"name": "mcts", "iterations": 400, "max_children": 16, "seed": 2})
    for seed in range(6):
        game = position(rules, seed, (seed + 1) / 7)
        turn = player.choose_turn(game)
        assert turn in game.turns()


def test_mcts_time_limit_and_spec_errors():
    player = make({"name": "mcts", "time_limit": 0.05, "seed": 1})
    assert player.iterations is None
    player.choose_turn(Game("thesis"))
    assert player.last.details["iterations"] > 0  # how close it keeps the clock: fepaper bench clock
    assert make(player.spec).spec == player.spec
    for bad in ({"iterations": 0}, {"max_children": 0}, {"c": -1}, {"stop_probability": 2},
                {"max_states": 5}):
        with pytest.raises(SpecError):
            make({"name": "mcts", **bad})


@pytest.mark.parametrize("evaluator", ["playout", "features"])
def test_mcts_looks_at_the_clock_every_few_iterations(evaluator):
    # it looked every 64 iterations: in a late position, with long listings and playouts,
    # that once took a 1 s decision to 1.22 s (fepaper bench clock)
    import time

    from fepaper._core import mcts as kernel
    from fepaper._core.bundles import new_budget
    from fepaper._core.evaluate import EVALUATORS, Evaluator
    from fepaper._core.turns import new_keyset

    game = Game("codingame", "5 6 0 7 61 1 3 6 4 2 532 2 0 3 2 7 5771 60 2 43 0 61 3 63 1 63 07")
    b = game.board
    weights = np.array([1.0, 0.0, 0.0, 0.0]) if evaluator == "features" else np.zeros(0)
    ev = Evaluator(EVALUATORS.index(evaluator), 0.0, weights, np.zeros(0, np.int8))
    cfg = kernel.MCTSConfig(1.4, True, 64, 100_000)
    tree = kernel.new_tree(game.player)
    passed = new_budget(1.0, 0, time.perf_counter() - 10.0)  # its deadline has passed
    done, status, _ = kernel.mcts_run(tree, game.marks, game.ball_index, len(game.history), b.arrays,
                                      game.rules.flags, cfg, ev, P.random_state(0),
                                      picks.new_picks(b.n_nodes, b.n_edges, 64), new_keyset(32), 1000, passed)
    assert status == kernel.OUT_OF_BUDGET and done < kernel.CHECK_ITERATIONS
    # the root's listing looked at the clock and found it passed: the run ends after that iteration
    # (it went on for up to 7 more, listing and playing out, before its own look)
    assert done == 1 and passed.ctl[1] == 1


def test_a_search_grows_its_tree_only_with_the_time_to_copy_it():
    import time

    from fepaper.search.budget import GROW_RATE, time_to_grow

    big, small = (np.zeros(int(GROW_RATE) // 2, np.uint8),), (np.zeros(500, np.uint8),)
    assert time_to_grow(0.0, big)  # no deadline
    assert time_to_grow(time.perf_counter() + 60.0, small)
    assert not time_to_grow(time.perf_counter() + 0.5, big)  # copying it into twice its size takes 1 s


def test_a_timed_search_starts_with_room_for_what_its_time_can_fill(monkeypatch):
    """A 4,096-node tree filled in a few ms, and growing it late in the budget ended the search
    early (time_to_grow): most of fepaper bench clock's mcts decisions at 0.1 s stopped so, before
    0.9 of the budget. A timed search now starts with the room its time can fill."""
    from fepaper._core import mcts as kernel
    from fepaper.search.budget import tree_room

    mcts_search(Game("codingame"), 8, seed=0)  # the kernels loaded (a warm-up makes its own trees)
    sizes, real = [], kernel.new_tree
    monkeypatch.setattr(kernel, "new_tree", lambda mover, capacity, steps: sizes.append(capacity)
                        or real(mover, capacity, steps))
    mcts_search(Game("codingame", "2 0 3"), None, time_limit=0.05, seed=0)
    mcts_search(Game("codingame", "2 0 3"), 20, seed=0)
    assert sizes == [tree_room(0.05, rate=4e6), tree_room(None)] and sizes[0] >= 1 << 17


@pytest.mark.slow
# -- greedy ---------------------------------------------------------------------------------
def test_greedy_scores_and_never_scores_against_itself():
    game = _scoring_position("standard", 5)
    greedy = make({"name": "greedy", "seed": 0})
    assert _outcome(game, greedy.choose_turn(game)) == picks.WIN
    for seed in range(8):
        game = position("standard", seed, 0.7)
        turn = greedy.choose_turn(game)
        assert turn in game.turns()
        if game.turns().count() > 400:
            continue
        outcomes = {_outcome(game, t.steps) for t in game.turns()}
        if outcomes - {picks.LOSS}:
            assert _outcome(game, turn) != picks.LOSS


def test_greedy_goes_nearest_to_the_goal():
    game = position("thesis", 5, 0.3)
    assert game.turns().count() < 2000
    b, me = game.board, game.player
    turn = make({"name": "greedy", "seed": 3}).choose_turn(game)
    if _outcome(game, turn) == picks.CONTINUE:
        after = game.copy()
        after.push(turn)
        best = min(b.goal_distance(b.index[t.end], me) for t in game.turns()
                   if _outcome(game, t.steps) == picks.CONTINUE)
        assert b.goal_distance(after.ball_index, me) == best


def test_greedy_blocks_the_opponent_when_that_wins():
    game = Game({"preset": "thesis", "dead_end": "stop"}, BLOCKING)
    blocking = [t.steps for t in game.turns() if _outcome(game, t.steps) == picks.WIN]
    assert blocking and all(t.kind == "stop" for t in game.turns() if t.steps in blocking)
    assert make({"name": "greedy", "seed": 0}).choose_turn(game) in blocking


# -- Foo's machines --------------------------------------------------------------------------
def test_every_machine_plays_legal_turns():
    games = [position("foo", seed, fraction) for seed, fraction in [(1, 0.2), (2, 0.5), (3, 0.8)]]
    for name, (level, _, _) in MACHINES.items():
        player = make({"name": "foo", "machine": name, "seed": level})
        for game in games:
            assert player.choose_turn(game) in game.turns()
    assert make({"name": "foo", "level": 5}).machine == "Watch2Ahead"
    for bad in ({"machine": "GoSideways"}, {"level": 7}, {"machine": "GoAhead", "level": 3},
                {"order": "best"}):
        with pytest.raises(SpecError):
            make({"name": "foo", **bad})


@given(st.integers(0, 10**6), st.floats(0.0, 0.95))
def test_a_foo_machine_reports_the_turns_it_lists(seed, fraction):
    """What Foo calls the moves scanned, against a slow count through Game: GoAhead lists the
    position's turns once; PreventingOpponent40, where it keeps every turn, lists the position and
    the replies after each turn that does not end the game."""
    game = position("foo", seed, fraction)
    count = small_turn_count(game, cap=5_000)
    if count < 0:  # a late random position can hold 10^8 turns: GoAhead's walk stops at its cap
        return
    ahead = make({"name": "foo", "machine": "GoAhead", "seed": seed})
    ahead.choose_turn(game)
    assert dict(ahead.last.details) == {"listed": count, "listings": 1, "full": int(count >= 1000), "truncated": 0}
    assert ahead.last.nodes == min(count, 1000)
    if count > 40:
        return
    children = [turn_position(game, t).turns().count() for t in game.turns() if t.kind == "end"]
    preventing = make({"name": "foo", "machine": "PreventingOpponent40", "seed": seed})
    preventing.choose_turn(game)
    assert dict(preventing.last.details) == {
        "listed": count + sum(children), "listings": 1 + len(children),
        "full": int(count >= 40) + sum(c >= 40 for c in children), "truncated": 0}
    assert preventing.last.nodes == count + sum(min(c, 40) for c in children)


def _play(spec1, spec2, seed, rules="foo"):
    game = Game(rules)
    players = {1: make({**spec1, "seed": seed}), 2: make({**spec2, "seed": seed + 1000})}
    while not game.is_over:
        game.push(players[game.player].choose_turn(game))
    return game.result.winner


def test_preventing_opponent_beats_go_ahead():
    strong, weak = {"name": "foo", "machine": "PreventingOpponent40"}, {"name": "foo", "machine": "GoAhead"}
    score = 0.0
    for k in range(10):
        first, second = (strong, weak) if k % 2 == 0 else (weak, strong)
        winner = _play(first, second, k)
        strong_side = 1 if k % 2 == 0 else 2
        score += 0.5 if winner is None else float(winner == strong_side)
    assert score > 5


# Thesis read with dead_end="stop", player 1 to move: no goal in reach, but stopping on a dead
# end blocks player 2.
BLOCKING = "7 5 3 0 07 4 55 4"


def test_a_foo_machine_with_a_clock_stops_searching_when_it_runs_out(monkeypatch):
    """Watch3Ahead (4 plies of 18 turns) took 2.6 to 2.9 times a 0.1 s budget before its minimax
    looked at the clock. With the clock run out from the start, its minimax values the first root
    turn by its end node alone and the root stops there: it examines the root's listing and
    nothing below it (how close it keeps a real clock: ``fepaper bench clock``)."""
    from fepaper.controllers import foo

    game = Game("codingame", "2 0 3 1 7 0 5 5 31 654 3 3 0 0 3 55 5 7 2 7 447 6 1 1 2 57 46 43177 27")
    kept = MACHINES["Watch3Ahead"][2]
    patient = make({"name": "foo", "machine": "Watch3Ahead", "seed": 1})
    patient.choose_turn(game)
    monkeypatch.setattr(foo._Search, "out_of_time", lambda self: True)
    hurried = make({"name": "foo", "machine": "Watch3Ahead", "time_limit": 0.1, "seed": 1})
    turn = hurried.choose_turn(game)
    assert turn in game.turns()
    assert hurried.last.nodes == min(kept, game.turns().count()) < patient.last.nodes
