"""Evaluation trees: the compiled stack program against DEAP's gp.compile, the features against the
board's, the distance tree against the searches' own distance, malformed trees refused by name."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fepaper._core import programs as kernel
from fepaper._core.features import leaf_value
from fepaper._core.paths import astar_distance
from fepaper.controllers import SpecError, make
from fepaper.search.programs import (
    DISTANCE,
    FEATURES,
    TURN_DISTANCE,
    TreeError,
    compile_tree,
    parse_tree,
    program_for,
    python_evaluation,
    random_tree,
)

from .helpers import position


def _features(game, program, player):
    b = game.board
    kernel.features(game.marks, game.ball_index, player, b.exists, b.neighbour, b.goal, program)
    return program.values.copy()


@settings(max_examples=25, deadline=None)
@given(tree_seed=st.integers(0, 2**32 - 1), game_seed=st.integers(0, 2**32 - 1),
       fraction=st.floats(0, 1), player=st.integers(1, 2))
def test_the_compiled_program_of_a_random_tree_is_deaps_compiled_tree(tree_seed, game_seed, fraction, player):
    tree = random_tree(tree_seed, 1, 5)
    game = position("standard", game_seed, fraction)
    program = program_for(tree, game.rules)
    values = _features(game, program, player)
    compiled = kernel.run(program.code, program.consts, values, program.stack)
    expected = float(python_evaluation(tree)(*values.tolist()))
    assert compiled == expected or (math.isnan(compiled) and math.isnan(expected)), str(tree)
    assert str(parse_tree(str(tree))) == str(tree)  # the text reads back to the same tree


@settings(max_examples=30, deadline=None)
@given(tree_seed=st.integers(0, 2**32 - 1), game_seed=st.integers(0, 2**32 - 1), fraction=st.floats(0, 1),
       height=st.integers(1, 6))
def test_the_folded_program_costs_what_the_whole_program_computes_bit_for_bit(tree_seed, game_seed, fraction,
                                                                               height):
    """At every node of a position, for either player: the leaf's cost (the folded program, its node-only
    subtrees read from tables) is the very float the tree's own program computes."""
    tree = random_tree(tree_seed, 1, height)
    game = position("thesis", game_seed, fraction)
    program = program_for(tree, game.rules)
    b = game.board
    for player in (1, 2):
        for ball in range(b.n_nodes):
            kernel.features(game.marks, ball, player, b.exists, b.neighbour, b.goal, program)
            whole = kernel.run(program.code, program.consts, program.values, program.stack)
            leaf = kernel.cost(game.marks, ball, player, b.exists, b.neighbour, b.goal, program)
            assert np.float64(leaf).tobytes() == np.float64(whole).tobytes() or (math.isnan(leaf) and
                                                                                 math.isnan(whole)), str(tree)


def test_node_only_subtrees_and_constants_fold_into_tables():
    game = position("thesis", 0, 0.0)
    rules = game.rules
    tree = "sub(sub(if_then_else(lt(traps, bounce), neg(mobility), neg(centre)), add(-3.0, 1.0)), mul(attack, -4.0))"
    program = program_for(tree, rules)
    ops = {name: k for k, (name, _) in enumerate(kernel.OPERATIONS)}
    column = kernel.TABLE + kernel.NODE_TABLES
    assert program.leaf_code.tolist() == [ops["sub"], ops["sub"], ops["if_then_else"], ops["lt"], kernel.FEATURE + 6,
                                          kernel.FEATURE + 5, ops["neg"], kernel.FEATURE + 4, column, column + 1,
                                          column + 2]
    assert program.tables.shape == (2, game.board.n_nodes, kernel.NODE_TABLES + 3)
    assert (program.tables[:, :, kernel.NODE_TABLES + 1] == -2.0).all()
    assert (program.tables[:, :, kernel.NODE_TABLES + 2] == -4.0 * program.tables[:, :, 0]).all()
    assert program_for(DISTANCE, rules).leaf_code.tolist() == [column]  # one read at a leaf
    assert program_for("neg(bounce)", rules).tables.shape[2] == kernel.NODE_TABLES


@pytest.mark.parametrize("code, words", [
    ([kernel.FEATURE, kernel.FEATURE], "node 1 follows a whole tree"),
    ([0, kernel.FEATURE], "the operation at node 0 lacks arguments"),
    ([99], "99 at node 0 is no operation"),
])
def test_a_program_that_is_not_one_tree_is_refused(code, words):
    b = position("thesis", 0, 0.0).board
    with pytest.raises(ValueError, match=words):
        kernel.fold(np.array(code), np.zeros(len(code)), b.distance, np.zeros(b.n_nodes))


@pytest.mark.parametrize("seed", range(3))
def test_the_features_are_the_boards_distances_and_the_searches_counts(seed):
    game = position("thesis", seed, 0.6)
    b = game.board
    every = "add(add(add(attack, defend), add(free_attack, free_defend)), add(add(mobility, bounce), traps))"
    program = program_for(every, game.rules)
    for player in (1, 2):
        values = dict(zip(FEATURES, _features(game, program, player)))
        ball = game.ball_index
        assert values["attack"] == b.distance[player - 1, ball]
        assert values["defend"] == b.distance[2 - player, ball]
        scratch, heap = np.zeros(2 * b.n_nodes + 1, np.int32), np.zeros(8 * b.n_nodes + 1, np.int64)
        assert values["free_attack"] == astar_distance(b.exists, b.neighbour, b.goal, game.marks, ball, player,
                                                       b.distance[player - 1], scratch, heap)
        for k, name in ((2, "mobility"), (3, "bounce")):
            weights = np.zeros(4, np.int64)
            weights[k] = 1
            a = b.arrays
            assert values[name] == leaf_value(game.marks, ball, player, a.exists, a.neighbour, a.goal, a.distance,
                                              weights)
        assert values["traps"] <= values["bounce"]
        assert values["centre"] == abs(b.node(ball)[0] - game.rules.width / 2)


@pytest.mark.parametrize("seed", range(3))
def test_the_distance_tree_plays_as_the_searches_own_distance(seed):
    game = position("thesis", seed, 0.3)
    thesis = make({"name": "alphabeta", "variant": "dynamic", "depth": 2})
    assert make({"name": "gp", "tree": DISTANCE, "depth": 2}).choose_turn(game) == thesis.choose_turn(game)
    turns = make({"name": "turnsearch", "depth": 2})
    as_tree = make({"name": "gp", "tree": TURN_DISTANCE, "search": "turnsearch", "depth": 2})
    assert as_tree.choose_turn(game) == turns.choose_turn(game)


def test_a_tree_changes_the_value_the_search_finds():
    game = position("thesis", 4, 0.5)
    plain, doubled = (make({"name": "gp", "tree": t, "depth": 1}) for t in (DISTANCE, "mul(2.0, attack)"))
    plain.choose_turn(game), doubled.choose_turn(game)
    assert plain.last.turn == doubled.last.turn  # a monotone change of the cost: the same choice


def test_compile_writes_one_entry_per_node_in_prefix_order():
    code, consts = compile_tree("if_then_else(lt(attack, 2.5), neg(bounce), defend)")
    ops = {name: k for k, (name, _) in enumerate(kernel.OPERATIONS)}
    assert code.tolist() == [ops["if_then_else"], ops["lt"], kernel.FEATURE + 0, kernel.CONSTANT, ops["neg"],
                             kernel.FEATURE + 5, kernel.FEATURE + 1]
    assert consts[3] == 2.5


@pytest.mark.parametrize("tree, words", [
    ("add(attack)", "add takes 2 arguments, got 1"),
    ("add(attack, 1, 2)", "add takes 2 arguments, got 3"),
    ("distance", "unknown name 'distance'"),
    ("lt(attack, 1)", "lt is a truth value where a number is expected"),
    ("if_then_else(attack, 1, 2)", "attack is a number where a truth value is expected"),
    ("add(attack, 1) defend", "text left over"),
    ("add(attack,", "ends where an argument is expected"),
    ("attack(1)", "attack is a leaf"),
    ("add(attack; 1)", "cannot read"),
    ("", "a tree is the text of an expression"),
])
def test_a_malformed_tree_is_refused_naming_what_is_wrong(tree, words):
    with pytest.raises(TreeError, match=words.replace("(", r"\(")):
        parse_tree(tree)
    with pytest.raises(SpecError, match=words.replace("(", r"\(")):
        make({"name": "gp", "tree": tree})


def test_a_tree_that_is_not_text_and_a_setting_that_does_not_apply_are_refused():
    with pytest.raises(SpecError, match="tree must be the text of an expression tree"):
        make({"name": "gp", "tree": 3})
    with pytest.raises(SpecError, match="max_bounces does not apply"):
        make({"name": "gp", "search": "turnsearch", "max_bounces": 3})
    assert make({"name": "gp", "tree": " sub( attack ,defend ) "}).spec["tree"] == "sub(attack, defend)"
