"""Ant colonies: legal turns, seeded determinism, goals in reach, pheromone arithmetic, specs."""

import numpy as np
import pytest

from fepaper._core.ants import AS, MMAS, RANK, evaporate, run_colony, step_cost, step_deposit
from fepaper.controllers import SpecError, make
from fepaper.controllers.aco import THESIS_DEFAULTS, AntColony, follow_pheromone
from fepaper.game.board import Board
from fepaper.game.game import Game
from fepaper.game.rules import Rules
from fepaper.play.randomplay import random_positions

SMALL = {"n_ants": 8, "iterations": 3}


def _positions(rules, n_games, every, seed=11):
    return [Game(rules, rec) for _, rec in random_positions(rules, n_games, seed=seed)[::every]]


@pytest.fixture(scope="module")
def goal_positions():
    """Turn-start positions where the player to move can step into the opponent's goal."""
    found = []
    for rules in ("thesis", "standard"):
        for _, rec in random_positions(rules, 60, seed=3):
            g = Game(rules, rec)
            b = g.board
            if any(b.goal[b.neighbour[g.ball_index, d]] == g.player for d in g.legal_steps()):
                found.append(g)
    assert len(found) >= 5
    return found


def _kernel(game, colony, seed):
    """The kernel's raw output for ``colony`` at ``game`` (as AntColony.walk calls it)."""
    return run_colony(game.marks, game.board.arrays, game.ball_index, game.player, colony.colony(), seed)


# -- legality ----------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["thesis", "standard", "foo"])
@pytest.mark.parametrize("variant", ["base", "ferdist", "ferdistrival"])
def test_always_a_legal_turn(rules, variant):
    games = _positions(rules, 4, 5)
    for system in ("as", "mmas", "rank"):
        for once in (False, True):
            colony = make({"name": "aco", "variant": variant, "system": system, "once_per_cycle": once,
                           "seed": 5, **SMALL})
            for game in games:
                turn = colony.choose_turn(game)
                assert turn in game.turns(), (rules, game.moves, turn)


def test_whole_games_are_legal_under_both_bounce_rules():
    for rules in ("thesis", "standard"):
        game = Game(rules)
        players = {1: make({"name": "aco", "variant": "ferdistrival", "seed": 1, **SMALL}),
                   2: make({"name": "aco", "variant": "base", "system": "rank", "seed": 2, **SMALL})}
        while not game.is_over:
            turn = players[game.player].choose_turn(game)
            assert turn in game.turns()
            game.push(turn)
        assert game.result is not None


def test_thesis_colony_plays_the_opening():
    colony = make({"name": "aco", "seed": 0})
    game = Game("thesis")
    turn = colony.choose_turn(game)
    assert turn in game.turns()
    assert turn[0] in "017"  # toward the top goal: up, up-right or up-left
    assert colony.last.nodes > THESIS_DEFAULTS["n_ants"] * THESIS_DEFAULTS["iterations"]


# -- determinism -------------------------------------------------------------------------------
def test_same_seed_same_turns_and_pheromone():
    games = _positions("thesis", 2, 4)
    for variant in ("base", "ferdist", "ferdistrival"):
        a = make({"name": "aco", "variant": variant, "seed": 9, **SMALL})
        b = make({"name": "aco", "variant": variant, "seed": 9, **SMALL})
        assert [a.choose_turn(g) for g in games] == [b.choose_turn(g) for g in games]
    colony = AntColony(variant="ferdist", **SMALL)
    runs = [colony.walk(games[1], seed=123) for _ in range(2)]
    assert np.array_equal(runs[0].tau, runs[1].tau) and runs[0].paths == runs[1].paths
    other = colony.walk(games[1], seed=124)
    assert not np.array_equal(runs[0].tau, other.tau)


# -- goals in reach ------------------------------------------------------------------------------
def test_scores_when_the_goal_is_one_step_away(goal_positions):
    for variant in ("base", "ferdist", "ferdistrival"):
        colony = make({"name": "aco", "variant": variant, "seed": 2})
        for game in goal_positions:
            g = game.copy()
            player = g.player
            g.push(colony.choose_turn(g))
            assert g.result is not None and g.result.winner == player, (variant, game.moves)


@pytest.mark.parametrize("variant", ["base", "ferdist"])
def test_the_colony_itself_puts_most_pheromone_on_the_goal_step(goal_positions, variant):
    colony = AntColony(variant=variant)
    for game in goal_positions:
        b = game.board
        tau = colony.walk(game, seed=5).tau
        free = game.legal_steps()
        best = max(free, key=lambda d: tau[b.edge_index[game.ball_index, d]])
        assert b.goal[b.neighbour[game.ball_index, best]] == game.player, game.moves


def test_ants_walk_to_the_opponents_goal_over_free_edges_without_revisiting():
    game = _positions("thesis", 1, 7)[0]
    b = game.board
    run = AntColony(n_ants=20, iterations=2).walk(game, seed=3)
    assert run.arrived > 0
    for path, reached in zip(run.paths, run.reached):
        assert path[0] == game.ball_index and len(set(path)) == len(path)
        assert all(b.goal[n] != 3 - game.player for n in path)
        if reached:
            assert b.goal[path[-1]] == game.player
        for n, m in zip(path, path[1:]):
            d = int(np.nonzero(b.neighbour[n] == m)[0][0])
            assert not game.marks[n] >> d & 1  # never a marked edge of the position


# -- arithmetic ------------------------------------------------------------------------------
def test_step_cost_deposit_and_evaporation_by_hand():
    game = Game("thesis", "0")
    b = game.board
    marks = game.marks
    assert step_cost(marks, b.goal, b.index[(4, 8)], 2.5) == 1.0  # the middle line: a bounce
    assert step_cost(marks, b.goal, b.index[(4, 6)], 2.5) == 2.5  # unmarked: the turn ends
    assert step_cost(marks, b.goal, b.index[(5, -1)], 2.5) == 1.0  # a goal
    assert step_deposit(2.0, 5, 7, 0.4, 10.0, 2.0) == pytest.approx(0.2 + 2.0 + 28.0)
    assert step_deposit(1.0, 0, 0, 1.0, 10.0, 0.0) == pytest.approx(11.0)  # d_opp = 0 counts as 1
    tau, new = np.array([1.0, 2.0, 0.5]), np.array([0.5, 0.0, 3.0])
    evaporate(tau, new, 0.4, False, 0.0, 0.0)
    assert tau == pytest.approx([1.1, 1.2, 3.3]) and not new.any()
    tau, new = np.array([1.0, 2.0, 0.5]), np.array([0.5, 0.0, 3.0])
    evaporate(tau, new, 0.4, True, 1.15, 2.0)
    assert tau == pytest.approx([1.15, 1.2, 2.0])


def _expected_tau(game, colony, nodes, dirs, lengths, states, n_edges):
    """Recompute one AS cycle from its paths: every ant deposits on the way, every ant that
    arrived deposits the same again on the way back (the cheapest one twice), then
    evaporation from tau = 1."""
    b, p, q = game.board, game.player, colony.params
    col = colony.colony()
    w_cost, w_dist, w_rival = col.w_cost, col.w_dist, col.w_rival
    total = np.zeros(n_edges)
    paths, costs = [], []
    for a in range(len(lengths)):
        path, cost = np.zeros(n_edges), 0.0
        for i in range(lengths[a]):
            n, m = nodes[a, i], nodes[a, i + 1]
            c = q["turn_cost"] if game.marks[m] == 0 and b.goal[m] == 0 else 1.0
            cost += c
            path[b.edge_index[n, dirs[a, i]]] += (w_cost / c + w_dist / max(b.distance[p - 1, m], 1)
                                                  + w_rival * c * b.distance[2 - p, m])
        total += path
        paths.append(path)
        costs.append(cost if states[a] == 1 else np.inf)
    best = int(np.argmin(costs))
    for a, path in enumerate(paths):
        if states[a] == 1:
            total += (2 if a == best else 1) * path
    return (1 - q["rho"]) + total


def test_one_ant_one_iteration_by_hand():
    """One ant that reaches the goal: every edge of its path gets 1/c on the way and 2 * 1/c
    back (the best ant goes back twice): tau = 0.6 + 3/c there, 0.6 elsewhere."""
    game = Game("thesis", "0 54")
    colony = AntColony(n_ants=1, iterations=1, rho=0.4)
    for seed in range(20):
        tau, steps, arrived, nodes, dirs, lengths, states = _kernel(game, colony, seed)
        if arrived:
            break
    assert arrived == 1 and steps == lengths[0]
    b = game.board
    expected = np.full(b.n_edges, 0.6)
    for i in range(lengths[0]):
        m = nodes[0, i + 1]
        c = 2.0 if game.marks[m] == 0 and b.goal[m] == 0 else 1.0
        expected[b.edge_index[nodes[0, i], dirs[0, i]]] += 3.0 / c
    assert tau == pytest.approx(expected)


@pytest.mark.parametrize("variant", ["base", "ferdistrival"])
def test_a_cycle_of_several_ants_matches_its_recomputation(variant):
    game = _positions("thesis", 1, 9)[0]
    colony = AntColony(variant=variant, n_ants=10, iterations=1)
    for seed in range(20):
        tau, _, arrived, nodes, dirs, lengths, states = _kernel(game, colony, seed)
        if arrived >= 2 and (states == 2).any() or seed == 19:
            break
    assert arrived >= 2
    assert tau == pytest.approx(_expected_tau(game, colony, nodes, dirs, lengths, states, len(tau)))


def test_maxmin_and_rank_deposit_only_after_the_cycle():
    game = _positions("thesis", 1, 9)[0]
    b = game.board
    mm = AntColony(system="mmas", n_ants=6, iterations=1, rho=0.5, tau_ratio=0.1)
    tau, _, arrived, nodes, dirs, lengths, states = _kernel(game, mm, 4)
    assert arrived >= 1
    costs = [sum(2.0 if game.marks[m] == 0 and b.goal[m] == 0 else 1.0 for m in nodes[a, 1:lengths[a] + 1])
             if states[a] == 1 else np.inf for a in range(6)]
    best = int(np.argmin(costs))
    deposits = {}
    for i in range(lengths[best]):
        m = nodes[best, i + 1]
        deposits[b.edge_index[nodes[best, i], dirs[best, i]]] = 1 / (2.0 if game.marks[m] == 0 and b.goal[m] == 0
                                                                     else 1.0)
    tau_max = max(deposits.values()) / 0.5
    expected = np.full(b.n_edges, max(0.5, 0.1 * tau_max))
    for e, dep in deposits.items():
        expected[e] = min(0.5 + dep, tau_max)
    assert tau == pytest.approx(expected)
    rank = AntColony(system="rank", n_ants=6, iterations=1, rho=0.5, rank_w=3)
    tau, _, arrived, nodes, dirs, lengths, states = _kernel(game, rank, 4)
    assert set(np.round(tau, 9)) >= {0.5} and tau.max() > 0.5
    assert len(tau[tau > 0.5 + 1e-12]) <= sum(lengths[a] for a in range(6) if states[a] == 1)


def test_once_per_cycle_changes_what_the_ants_see():
    game = _positions("thesis", 1, 9)[0]
    per_move = _kernel(game, AntColony(n_ants=20, iterations=2), 8)[0]
    per_cycle = _kernel(game, AntColony(n_ants=20, iterations=2, once_per_cycle=True), 8)[0]
    assert not np.array_equal(per_move, per_cycle)


def test_systems_are_numbered_as_the_kernel_expects():
    assert (AS, MMAS, RANK) == (0, 1, 2)


# -- following the pheromone -----------------------------------------------------------------------
def test_follow_pheromone_and_the_tolerance():
    game = Game("thesis", "0")  # player 2 at (5, 7)
    b = game.board
    tau = np.zeros(b.n_edges)
    tau[b.edge_between((5, 7), (4, 8))] = 5.0  # down-left: a bounce on the middle line
    tau[b.edge_between((4, 8), (4, 7))] = 5.0  # then up: away from the bottom goal, ends the turn
    assert follow_pheromone(game, tau) == "50"
    assert b.goal_distance(b.index[(4, 7)], 2) == b.goal_distance(b.index[(4, 8)], 2) + 1
    d_here = b.goal_distance(b.index[(4, 8)], 2)
    assert follow_pheromone(game, tau, tolerance=0.5 / d_here) == "5"  # stops on the bounce
    assert follow_pheromone(game, tau, tolerance=1.5 / d_here) == "50"
    mandatory = Game({"preset": "thesis", "bounce": "mandatory"}, "0")
    assert follow_pheromone(mandatory, tau, tolerance=0.0) == "50"  # no stopping under mandatory bounce


def test_never_steps_into_its_own_goal_when_it_can_stop():
    game = Game("thesis", "0")
    b = game.board
    tau = np.zeros(b.n_edges)
    tau[b.edge_between((5, 7), (4, 8))] = 5.0
    for d in range(8):  # lure the ball straight down from (4, 8)
        if b.neighbour[b.index[(4, 8)], d] >= 0:
            tau[b.edge_index[b.index[(4, 8)], d]] = 1.0
    tau[b.edge_between((4, 8), (4, 9))] = 9.0
    turn = follow_pheromone(game, tau)
    assert turn.startswith("54") and turn in game.turns()


# -- specs ---------------------------------------------------------------------------------------
def test_spec_round_trip_and_defaults():
    colony = make({"name": "aco", "variant": "ferdistrival", "system": "mmas", "seed": 3})
    spec = colony.spec
    assert spec["w_rival"] == THESIS_DEFAULTS["w_rival"] and spec["tau_ratio"] == THESIS_DEFAULTS["tau_ratio"]
    assert make(spec).spec == spec
    base = make({"name": "aco"}).spec
    assert {k: base[k] for k in ("n_ants", "iterations", "alpha", "beta", "rho", "heuristic")} == {
        "n_ants": 87, "iterations": 15, "alpha": 1.15, "beta": 0.87, "rho": 0.4, "heuristic": 0.87}
    assert "tolerance" not in base and "w_dist" not in base


@pytest.mark.parametrize("bad, words", [
    ({"variant": "hormigas"}, "variant"),
    ({"system": "acs"}, "system"),
    ({"n_ants": 0}, "n_ants"),
    ({"n_ants": 2.5}, "n_ants"),
    ({"iterations": True}, "iterations"),
    ({"rho": 0}, "rho"),
    ({"rho": 1.5}, "rho"),
    ({"alpha": -1}, "alpha"),
    ({"beta": float("nan")}, "beta"),
    ({"heuristic": "0.87"}, "heuristic"),
    ({"turn_cost": 0.5}, "turn_cost"),
    ({"tolerance": 0.1}, "tolerance"),
    ({"variant": "ferdist", "w_rival": 2}, "w_rival"),
    ({"tau_ratio": 0.1}, "tau_ratio"),
    ({"system": "mmas", "tau_ratio": 1.0}, "tau_ratio"),
    ({"system": "rank", "rank_w": 1}, "rank_w"),
    ({"once_per_cycle": "yes"}, "once_per_cycle"),
    ({"ants": 10}, "ants"),
])
def test_bad_specs_raise_spec_error(bad, words):
    with pytest.raises(SpecError, match=words):
        make({"name": "aco", **bad})


def test_board_distances_are_what_the_colony_uses():
    b = Board.of(Rules.preset("thesis"))
    assert b.goal_distance(b.index[(5, 0)], 1) == 1 and b.goal_distance(b.index[(5, 16)], 2) == 1
