"""The tactics of a turn-start position, exact: the turn distances (node by node and on the bit
grid) and a goal in one, against every turn of random positions; a cut-off, against networkx
on the positions of games against the QtPaperSoccer engine."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper._core.bitgrid import bit_distances, fill_masks, grid_of, new_masks, play_masks
from fepaper._core.tactics import UNREACHED, cut_off, goal_distance, goal_in_one, new_scratch, turn_distances

from .helpers import (
    SMALL_RULES,
    engine_game_positions,
    goal_workspace,
    position,
    reaches_goal,
    small_turn_count,
    turn_position,
)

RULES = [*SMALL_RULES, "codingame"]


@given(st.sampled_from(RULES), st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_goal_in_one_and_turn_distances_agree_with_every_turn(rules, seed, fraction):
    """A goal in one is a goal 0 turns away (best-first minimax reads it from the distances it
    computes anyway), and the nodes 1 turn away are where the turns land."""
    game = position(rules, seed, fraction)
    if game.is_over or not 0 <= small_turn_count(game) <= 5000:
        return
    turns = list(game.turns())
    b = game.board
    seen, stack = goal_workspace(game)
    dist, queue = new_scratch(b.n_nodes)
    turn_distances(game.marks, game.ball_index, b.arrays, dist, queue)
    for goal in (1, 2):
        scores = any(t.kind == "goal" and b.goal[b.index[t.end]] == goal for t in turns)
        assert goal_in_one(game.marks, game.ball_index, b.arrays, goal, seen, stack) == scores, game.moves
        reach = min(dist[i] for i in range(b.n_nodes) if b.goal[i] == goal)
        assert (reach == 0) == scores
    ends = {b.index[t.end] for t in turns if t.kind == "end"}  # landings on fresh nodes
    fresh_at_one = {i for i in range(b.n_nodes) if dist[i] == 1 and game.marks[i] == 0 and not b.goal[i]}
    assert ends == fresh_at_one, game.moves
    assert all(dist[i] == UNREACHED or dist[i] >= 0 for i in range(b.n_nodes))


@given(st.sampled_from([*RULES, "thesis"]), st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_the_bit_grid_gives_the_turn_distances_of_every_turns_position(rules, seed, fraction):
    """:func:`bit_distances` on the masks of a position is :func:`turn_distances`, node for
    node; a child's masks made from its parent's by its turn's edges (:func:`play_masks`) are
    its own (:func:`fill_masks`). A board of more than 128 cells has no grid."""
    game = position(rules, seed, fraction)
    grid = grid_of(game.board)
    cells = {(x, y) for x, y in game.board.nodes}
    width = max(x for x, _ in cells) - min(x for x, _ in cells) + 1
    height = max(y for _, y in cells) - min(y for _, y in cells) + 1
    assert grid.usable == (width * height <= 128)
    if not grid.usable or game.is_over or game.current or not 0 < small_turn_count(game) <= 3000:
        return
    b = game.board.arrays
    dist, queue = new_scratch(game.board.n_nodes)
    bits = dist.copy()
    free, bounce = new_masks()
    fill_masks(game.marks, b, grid, free, bounce)
    far = turn_distances(game.marks, game.ball_index, b, dist, queue)
    assert bit_distances(free, bounce, game.ball_index, grid, bits) == far and np.array_equal(bits, dist)
    own_free, own_bounce = new_masks()
    for turn in list(game.turns())[:60]:
        child = turn_position(game, turn)
        child_free, child_bounce = free.copy(), bounce.copy()
        steps = np.array([int(c) for c in turn.steps], np.int8)
        play_masks(child_free, child_bounce, b, grid, game.ball_index, steps, len(steps))
        fill_masks(child.marks, b, grid, own_free, own_bounce)
        assert np.array_equal(child_free, own_free) and np.array_equal(child_bounce, own_bounce), turn.steps
        far = turn_distances(child.marks, child.ball_index, b, dist, queue)
        assert bit_distances(child_free, child_bounce, child.ball_index, grid, bits) == far
        assert np.array_equal(bits, dist), (game.moves, turn.steps)


def test_a_goal_is_unreached_exactly_when_no_free_path_leads_the_ball_into_it():
    """:func:`goal_distance` says a side is cut off exactly when networkx finds no path of
    unmarked edges from the ball into the goal it attacks, on every position of 12 games
    against the QtPaperSoccer engine (random games hardly ever cut a side off)."""
    cut = 0
    for game in engine_game_positions(12):
        b = game.board
        dist, queue = new_scratch(b.n_nodes)
        turn_distances(game.marks, game.ball_index, b.arrays, dist, queue)
        for goal in (1, 2):
            never = goal_distance(dist, b.arrays, goal) == UNREACHED
            assert never == (not reaches_goal(game, goal)), (game.moves, goal)
            cut += never
    assert cut >= 50


@pytest.mark.parametrize(
    "attack, defend, expected",
    [(3, 5, 0.4), (UNREACHED, UNREACHED, 0.4), (UNREACHED, 2, 0.1 * 0.4 - 0.9), (4, UNREACHED, 0.1 * 0.4 + 0.9)],
)
def test_a_one_sided_cut_off_moves_a_value_toward_its_result(attack, defend, expected):
    assert cut_off(0.4, attack, defend, 0.9) == pytest.approx(expected)
