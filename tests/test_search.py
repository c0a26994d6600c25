"""The reference search (fepaper.search.reference) on tic-tac-toe, Connect Four and tiny custom games."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper.games.toygames import (
    _TTT_LINES,
    SEGMENT_SCORES,
    WIN_SCORE,
    ConnectFour,
    TicTacToe,
    connect_four_score,
    segment_score,
)
from fepaper.search.reference import SearchStats, alphabeta, evaluation_order, mcts, minimax

# --- helpers ------------------------------------------------------------------------------


def random_position(game_cls, seed: int, plies: int):
    """``plies`` uniformly random moves from the start (fewer if the game ends first)."""
    rng = np.random.default_rng(seed)
    state = game_cls()
    for _ in range(plies):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[rng.integers(len(actions))])
    return state


def ttt_lines(state, player: int) -> float:
    """A tic-tac-toe heuristic with many ties: open lines for ``player`` minus the opponent's;
    +-10 for a finished game."""
    if state.is_terminal():
        return 10 * state.returns()[player]
    score = 0
    for line in _TTT_LINES:
        marks = {state.cells[i] for i in line} - {-1}
        if marks == {player}:
            score += 1
        elif marks == {1 - player}:
            score -= 1
    return score


def vb(result):
    """(value, best actions) of a search result."""
    return result.value, result.details["best"]


def both(state, depth, player, evaluate=None, order=None):
    """minimax's and alpha-beta's (value, best actions) and node counts."""
    s_mm, s_ab = SearchStats(), SearchStats()
    mm = minimax(state, depth, player, evaluate, stats=s_mm)
    ab = alphabeta(state, depth, player, evaluate, order, stats=s_ab)
    assert (mm.nodes, ab.nodes) == (s_mm.nodes, s_ab.nodes)  # one search: the result counts what stats do
    return vb(mm), vb(ab), s_mm, s_ab


class TakeTwoAgain:
    """Nim with a bounce: take 1 or 2 stones, taking the last stone wins, and whoever takes 2
    stones (leaving some) moves again, so the same player can move twice in a row."""

    def __init__(self, stones: int, player: int = 0):
        self.stones, self.player, self.last = stones, player, None

    def current_player(self):
        return -1 if self.is_terminal() else self.player

    def legal_actions(self):
        return [] if self.is_terminal() else [a for a in (1, 2) if a <= self.stones]

    def apply_action(self, a):
        assert a in self.legal_actions()
        self.stones -= a
        self.last = self.player
        if a == 1 or self.stones == 0:
            self.player = 1 - self.player

    def clone(self):
        other = TakeTwoAgain(self.stones, self.player)
        other.last = self.last
        return other

    def is_terminal(self):
        return self.stones == 0

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.last == 0 else [-1.0, 1.0]

    def __repr__(self):
        return f"TakeTwoAgain({self.stones}, {self.player})"


def take_two_again_wins(stones: int) -> bool:
    """Independent answer: does the player to move win? (W(0) = lost, already taken.)"""
    win = [False, True]
    for n in range(2, stones + 1):
        # take 1: the opponent faces n - 1; take 2: I face n - 2 myself (or I took the last)
        win.append(not win[n - 1] or n == 2 or win[n - 2])
    return win[stones]


class RandomTree:
    """A synthetic game tree: 1-3 actions per node, leaves 4 plies down with small integer
    values (many ties), and the side to move drawn at random at every node."""

    def __init__(self, seed: int, path=()):
        self.seed, self.path = seed, tuple(path)

    def _rng(self):
        return random.Random(f"{self.seed}/{self.path}")

    def current_player(self):
        return -1 if self.is_terminal() else self._rng().randrange(2)

    def legal_actions(self):
        return [] if self.is_terminal() else list(range(1 + self._rng().randrange(3)))

    def apply_action(self, a):
        self.path += (a,)

    def clone(self):
        return RandomTree(self.seed, self.path)

    def is_terminal(self):
        return len(self.path) == 4

    def returns(self):
        v = float(self._rng().randrange(-2, 3))
        return [v, -v]

    def __repr__(self):
        return f"RandomTree({self.seed}, {self.path})"


# --- exact values and node counts -------------------------------------------------------

@pytest.mark.slow

def test_tictactoe_is_a_draw_and_alphabeta_visits_fewer_nodes():
    (v_mm, best_mm), (v_ab, best_ab), s_mm, s_ab = both(TicTacToe(), None, 0)
    assert v_mm == v_ab == 0
    assert best_mm == best_ab == list(range(9))  # every first move draws
    assert (s_mm.nodes, s_mm.leaves) == (549946, 255168)  # the whole game tree
    assert s_ab.nodes < s_mm.nodes // 10


def test_tictactoe_values_for_the_second_player():
    assert vb(minimax(TicTacToe([4]), None, 1)) == (0.0, [0, 2, 6, 8])  # only corners hold
    assert vb(alphabeta(TicTacToe([0, 3, 1, 4]), None, 1)) == (-1.0, [2])


def test_connect_four_from_the_start():
    for depth, value, best in [(1, 7, [3]), (2, -3, [1, 2, 3, 4, 5]), (3, 20, [3])]:
        (v_mm, b_mm), (v_ab, b_ab), s_mm, s_ab = both(ConnectFour(), depth, 0)
        assert (v_mm, b_mm) == (v_ab, b_ab) == (value, best)
        assert s_mm.nodes == sum(7**k for k in range(depth + 1))
        assert s_ab.nodes <= s_mm.nodes


def test_depth_zero_and_finished_roots():
    assert vb(minimax(ConnectFour("3"), 0, 0)) == (7, [])
    won = TicTacToe([0, 3, 1, 4, 2])
    assert vb(minimax(won, 3, 1)) == vb(alphabeta(won, 3, 1)) == (-1.0, [])
    with pytest.raises(ValueError, match="no evaluation"):
        minimax(TicTacToe(), 2, 0)
    with pytest.raises(ValueError, match="depth"):
        alphabeta(TicTacToe(), -1, 0)


# --- alpha-beta agrees with minimax ---------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 8), depth=st.integers(1, 4))
def test_alphabeta_matches_minimax_tictactoe(seed, plies, depth):
    state = random_position(TicTacToe, seed, plies)
    player = seed % 2
    mm, ab, s_mm, s_ab = both(state, depth, player, ttt_lines)
    assert ab == mm
    assert s_ab.nodes <= s_mm.nodes
    ordered = alphabeta(state, depth, player, ttt_lines, evaluation_order(ttt_lines))
    assert vb(ordered) == mm
    if plies >= 3:  # small enough to search to the end with the game's own returns
        full_mm, full_ab, *_ = both(state, None, player)
        assert full_ab == full_mm


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), depth=st.integers(1, 4))
def test_alphabeta_matches_minimax_connect_four(seed, plies, depth):
    state = random_position(ConnectFour, seed, plies)
    player = seed % 2
    mm, ab, s_mm, s_ab = both(state, depth, player)
    assert ab == mm
    assert s_ab.nodes <= s_mm.nodes
    assert vb(alphabeta(state, depth, player, order=evaluation_order())) == mm


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1))
def test_alphabeta_matches_minimax_on_trees_with_ties_and_no_alternation(seed, player):
    mm, ab, s_mm, s_ab = both(RandomTree(seed), None, player)
    assert ab == mm
    assert s_ab.nodes <= s_mm.nodes
    assert minimax(RandomTree(seed), None, 1 - player).value == -mm[0]  # zero-sum


# --- the side to move is asked at every node ------------------------------------------------


@pytest.mark.parametrize("stones", range(1, 9))
def test_a_player_moving_twice_is_asked_not_assumed(stones):
    wins = take_two_again_wins(stones)
    for search in (minimax, alphabeta):
        for player in (0, 1):
            value, best = vb(search(TakeTwoAgain(stones), None, player))
            expected = 1.0 if wins == (player == 0) else -1.0
            assert value == expected
    # Taking 2 keeps the move, so every pile is a first-player win; an engine that assumed
    # alternation would call piles of 3 and 6 (multiples of 3, as in plain Nim) lost.
    assert wins
    if stones in (3, 6):
        assert vb(minimax(TakeTwoAgain(stones), None, 0)) == (1.0, [2])
        result = mcts(TakeTwoAgain(stones), 200, 0, seed=0)
        assert result.turn == 2 and result.details["proven"] == 1.0


def test_depth_counts_plies_not_turns():
    def no_idea(state, player):
        return state.returns()[player]  # 0 until someone has won

    # From 3 stones player 0 wins with 2 then 1: one turn, two plies.
    assert vb(alphabeta(TakeTwoAgain(3), 1, 0, no_idea)) == (0.0, [1, 2])
    assert vb(alphabeta(TakeTwoAgain(3), 2, 0, no_idea)) == (1.0, [2])
    assert vb(minimax(TakeTwoAgain(3), 2, 0, no_idea)) == (1.0, [2])


# --- MCTS ------------------------------------------------------------------------------------


def test_mcts_is_deterministic_given_a_seed():
    state = ConnectFour("33")
    a = mcts(state, 300, 0, seed=11)
    b = mcts(state, 300, 0, seed=np.random.default_rng(11))
    assert (a.turn, a.value, a.nodes, a.details) == (b.turn, b.value, b.nodes, b.details)
    assert a.details["iterations"] == 300 and sum(a.details["visits"].values()) == 300
    assert a.nodes == 301 and a.details["proven"] is None
    assert mcts(state, 300, 0, seed=12).details["visits"] != a.details["visits"]
    assert state.history == [3, 3]  # untouched


@pytest.mark.parametrize("solver", [True, False])
def test_mcts_finds_an_immediate_connect_four_win(solver):
    state = ConnectFour("001122")  # x has three on the bottom row; column 3 wins
    result = mcts(state, 400, 0, seed=3, solver=solver)
    action, stats = result.turn, result.details
    assert action == 3
    if solver:
        assert stats["proven"] == 1.0 and stats["iterations"] < 400  # stops once proven


def test_mcts_finds_a_connect_four_win_for_the_second_player():
    state = ConnectFour("6162535")  # o has three on the bottom row (columns 1-3); o to move
    assert state.current_player() == 1
    result = mcts(state, 400, 1, seed=5)
    action, stats = result.turn, result.details
    assert action in (0, 4) and stats["proven"] == 1.0


def test_mcts_solver_proves_won_and_lost_tictactoe_positions():
    won = TicTacToe([0, 1])  # X to move wins (an edge reply loses)
    result = mcts(won, 5000, 0, seed=0)
    action, stats = result.turn, result.details
    assert stats["proven"] == 1.0
    assert action in minimax(won, None, 0).details["best"]
    lost = TicTacToe([0, 1, 4])  # O to move: X's fork comes whatever O does
    result = mcts(lost, 5000, 1, seed=0)
    action, stats = result.turn, result.details
    assert stats["proven"] == -1.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(2, 7))
def test_mcts_solver_agrees_with_minimax(seed, plies):
    state = random_position(TicTacToe, seed, plies)
    if state.is_terminal():
        return
    player = state.current_player()
    value, best = vb(minimax(state, None, player))
    result = mcts(state, 3000, player, seed=seed)
    action, stats = result.turn, result.details
    assert stats["proven"] in (None, value)
    if stats["proven"] is not None:
        assert action in best


def test_mcts_rejects_bad_calls():
    with pytest.raises(ValueError, match="side to move"):
        mcts(TicTacToe(), 10, 1, seed=0)
    with pytest.raises(ValueError, match="unfinished"):
        mcts(TicTacToe([0, 3, 1, 4, 2]), 10, 1, seed=0)


# --- the Connect Four report's evaluation (section 3, Table 1) ------------------------------


@pytest.mark.parametrize(
    "segment, score",
    [
        ([1, 1, 1, -1], -50),  # 3 'o', no 'x'
        ([1, -1, 1, -1], -10),  # 2 'o', no 'x'
        ([-1, -1, 1, -1], -1),  # 1 'o', no 'x'
        ([0, 1, -1, -1], 0),  # 'o' and 'x' mixed
        ([0, 0, 0, 1], 0),
        ([-1, 0, -1, -1], 1),  # 1 'x', no 'o'
        ([0, -1, -1, 0], 10),  # 2 'x', no 'o'
        ([0, 0, -1, 0], 50),  # 3 'x', no 'o'
        ([-1, -1, -1, -1], 0),  # empty: not in Table 1
    ],
)
def test_table_1_segment_scores(segment, score):
    assert segment_score(segment) == score


def test_table_1_as_printed():
    assert SEGMENT_SCORES == {(0, 3): -50, (0, 2): -10, (0, 1): -1, (1, 0): 1, (2, 0): 10, (3, 0): 50}
    assert WIN_SCORE == 512


def test_connect_four_evaluation_by_hand():
    assert ConnectFour().evaluate(0) == 0
    # one x in a bottom corner lies in 3 segments (row, column, diagonal): 3 x (+1)
    assert ConnectFour("0").evaluate(0) == 3
    # x in the bottom middle: 4 row segments, 1 column, 2 diagonals
    assert ConnectFour("3").evaluate(0) == 7
    assert ConnectFour("3").evaluate(1) == -7
    # "33": x's 4 row + 2 diagonal segments (+6); o's 4 row + 1 column + 4 diagonal (-9);
    # the column segment holding both is mixed (0)
    assert ConnectFour("33").evaluate(0) == -3
    # "A win of x scores 512 and a win of o -512 despite the segments score."
    x_won = ConnectFour("0101010")
    assert x_won.is_terminal() and x_won.returns() == [1.0, -1.0]
    assert x_won.evaluate(0) == 512 and x_won.evaluate(1) == -512
    o_won = ConnectFour("60515243")
    assert o_won.returns() == [-1.0, 1.0] and o_won.evaluate(0) == -512
    assert connect_four_score([-1] * 42) == 0


def test_connect_four_rules():
    state = ConnectFour("000000")
    assert state.legal_actions() == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="column 0"):
        state.apply_action(0)
    draw = ConnectFour("555054466351352123041430222100021613443666")  # a full board, no four
    assert draw.is_terminal() and draw.winner is None and draw.current_player() == -1
    assert draw.returns() == [0.0, 0.0] and draw.evaluate(0) == 0 and draw.legal_actions() == []
