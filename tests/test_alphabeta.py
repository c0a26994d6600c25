"""Alpha-beta: the thesis's step-level versions and the complete-turn search, against the
reference search of fepaper.search.reference and a pure-Python step minimax."""

import numpy as np
import pytest

from fepaper._core.clock import CHECK_EVERY
from fepaper.controllers import SpecError, make
from fepaper.controllers.alphabeta import AlphaBeta
from fepaper.game.board import TOP
from fepaper.game.game import Game
from fepaper.play.randomplay import random_game, random_positions
from fepaper.search import reference as search
from fepaper.search.alphabeta import thesis_line
from fepaper.search.perft import perft
from fepaper.search.reference.state import TurnState
from fepaper.search.turnsearch import WIN, search_turns

from .helpers import small_turn_count

SMALL = [
    {"width": 4, "height": 6, "middle_line": False, "bounce": "optional"},
    {"width": 4, "height": 6, "middle_line": False, "bounce": "mandatory"},
    {"width": 6, "height": 8, "middle_line": False, "bounce": "optional"},
    {"width": 6, "height": 8, "middle_line": True, "bounce": "mandatory"},
]


def tree_size(game, depth, cap):
    """Positions in the tree of turns ``depth`` deep (the root included), or -1 past ``cap``."""
    if depth == 0 or game.is_over:
        return 1
    n = small_turn_count(game, 4 * cap)
    if not 0 <= n <= cap:
        return -1
    total = 1
    for turn in game.turns():
        child = game.copy()
        child.push(turn.steps)
        below = tree_size(child, depth - 1, cap - total)
        if below < 0:
            return -1
        total += below
        if total > cap:
            return -1
    return total


def small_positions(rules, depth, count, seed, cap=20_000):
    """Seeded turn-start positions with at most 300 turns whose tree ``depth`` turns deep has
    at most ``cap`` positions."""
    rng = np.random.default_rng(seed)
    records = sorted({r for _, r in random_positions(rules, 6, seed=seed)})
    out = []
    for i in rng.permutation(len(records)):
        game = Game(rules, records[i])
        if 0 <= small_turn_count(game, 3000) <= 300 and tree_size(game, depth, cap) > 0:
            out.append(game)
            if len(out) == count:
                break
    return out


@pytest.mark.slow
# --- the complete-turn search against the reference -------------------------------------------
@pytest.mark.parametrize("rules", SMALL, ids=lambda r: f"{r['width']}x{r['height']}-{r['bounce']}")
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_turn_search_equals_reference_minimax(rules, depth):
    games = small_positions(rules, depth, 3 if depth < 3 else 2, seed=10 * depth + len(rules["bounce"]))
    assert games
    for game in games:
        mover = game.player - 1
        ref = search.minimax(TurnState(game), depth, mover)
        ref_value, ref_best = ref.value, ref.details["best"]
        plain = search_turns(game, depth, pruning=False, ordering=False, transposition=False,
                             iterative=False, exact=True)
        assert plain.value == ref_value and set(plain.details["best"]) == set(ref_best), game.moves
        assert plain.nodes == ref.nodes
        for kw in ({}, {"ordering": False}, {"transposition": False}, {"iterative": False}):
            found = search_turns(game, depth, exact=True, **kw)
            assert found.value == ref_value, (game.moves, kw)
            assert set(found.details["best"]) == set(ref_best), (game.moves, kw)
            assert found.turn in ref_best
        game.push(plain.turn)  # the chosen turn is legal


def test_alphabeta_without_ordering_visits_the_reference_alphabeta_nodes():
    for rules in SMALL[:2]:
        for game in small_positions(rules, 2, 3, seed=5):
            ref = search.alphabeta(TurnState(game), 2, game.player - 1)
            found = search_turns(game, 2, ordering=False, transposition=False, iterative=False, exact=True)
            assert (found.value, set(found.details["best"])) == (ref.value, set(ref.details["best"]))
            assert found.nodes == ref.nodes


def test_pruning_and_ordering_save_nodes_on_the_thesis_board():
    game = Game("thesis", "0 54 2 5")
    plain = search_turns(game, 3, pruning=False, ordering=False, transposition=False, iterative=False)
    unordered = search_turns(game, 3, ordering=False, transposition=False, iterative=False)
    ordered = search_turns(game, 3, iterative=False)
    assert plain.value == unordered.value == ordered.value
    assert plain.nodes == 1 + perft(game, 1) + perft(game, 2) + perft(game, 3)
    assert ordered.nodes < unordered.nodes < plain.nodes


def test_turn_search_prefers_the_fastest_win():
    # player 1 can score at once from (5, 1): the immediate goal beats any later one
    game = Game("thesis")
    game.marks[:] = game.board.initial_marks
    game.ball_index = game.board.index[(5, 1)]
    found = search_turns(game, 3, exact=True)
    assert found.value == WIN - 1
    end = {t: _end(game, t) for t in found.details["best"]}
    assert all(game.board.goal[e] == TOP for e in end.values())


def _end(game, steps):
    trial = game.copy()
    for c in steps:
        trial.step(c)
    return trial.ball_index


def test_turn_search_time_and_node_budgets_return_a_legal_turn():
    game = random_game("thesis", seed=3, max_turns=20)
    found = search_turns(game, 8, max_nodes=3_000)
    assert found.depth < 8 and found.turn in game.turns()
    capped = search_turns(game, 2, max_turns_per_node=3, iterative=False)
    assert capped.turn in game.turns()
    assert capped.nodes <= 1 + 3 + 9


def test_turn_search_controllers_and_specs():
    game = Game("standard", "3 5")
    for spec in ({"name": "turnsearch", "depth": 2}, {"name": "turnsearch", "depth": 2, "ordering": False},
                 {"name": "minimax", "depth": 2}, {"name": "turnsearch", "time_limit": 0.05, "depth": 30}):
        controller = make(spec)
        assert controller.choose_turn(game) in game.turns()
        assert make(controller.spec).spec == controller.spec
    with pytest.raises(SpecError, match="depth"):
        make({"name": "turnsearch", "depth": 0})
    with pytest.raises(SpecError, match="max_turns_per_node"):
        make({"name": "minimax", "max_turns_per_node": 0})
    with pytest.raises(ValueError, match="over"):
        search_turns(_finished(), 1)


def _finished():
    game = random_game("standard", seed=1)
    assert game.is_over
    return game


# --- the thesis's step-level alpha-beta ------------------------------------------------------
def step_minimax(game, level, max_bounces=15, costs=(0, 0, 1)):
    """Pure-Python twin of the thesis's dynamic search (no pruning): the root player is MIN.

    ``costs``: ``(end, bounce, sign)``: a step that ends the turn adds ``end`` to the path's
    cost, one that bounces (or enters a goal) ``bounce``; MAX's steps count ``sign`` times."""
    b = game.board
    me = game.player
    dist = b.distance[me - 1]
    target = TOP if me == 1 else 3 - TOP
    # a dead end: the mover is blocked there, unless it may stop there (the opponent is blocked)
    mover_blocked = game.rules.bounce == "mandatory" or game.rules.dead_end == "blocked"
    big = 1_000_000

    end, bounce, sign = costs

    def value(g, turn, bounces, paid):
        mover_min = g.player == me
        results = []
        for d in g.legal_steps():
            m = int(b.neighbour[g.ball_index, d])
            was_marked = g.marks[m] != 0
            cost = paid + (bounce if was_marked else end) * (1 if mover_min else sign)
            g.step(d)
            if b.goal[m]:
                v = cost if b.goal[m] == target else big
            elif not was_marked:
                v = int(dist[m]) + cost if turn + 1 >= level else value(g, turn + 1, 0, cost)
            elif not g.free_mask(m):
                v = big if (mover_min if mover_blocked else not mover_min) else -big
            elif bounces + 1 > max_bounces:
                v = int(dist[m]) + cost
            else:
                v = value(g, turn, bounces + 1, cost)
            g.undo()
            results.append(v)
        return min(results) if mover_min else max(results)

    return value(game.copy(), 0, 0, 0)


@pytest.mark.parametrize("rules", SMALL[:2] + ["thesis", {"preset": "thesis", "dead_end": "stop"},
                                                {**SMALL[0], "dead_end": "stop"}], ids=str)
def test_dynamic_value_equals_step_minimax(rules):
    positions = [Game(rules, r) for _, r in random_positions(rules, 2, seed=7)][::3][:8]
    for game in positions:
        for level in (1, 2):
            if perft(game, level) > 400:
                continue
            value = thesis_line(game, "dynamic", level, 4).value
            assert value == step_minimax(game, level, 4), (game.moves, level)


@pytest.mark.parametrize("costs", ["bounces", "steps"])
def test_costs_value_equals_step_minimax_with_costs(costs):
    """Both readings of the costs version against the twin: "bounces" rewards each bounce
    by one for its mover (MAX's count against MIN), "steps" charges every step 1."""
    readings = {"bounces": (0, -1, -1), "steps": (1, 1, 1)}
    checked = 0
    for rules in (SMALL[0], SMALL[1], "thesis"):
        for game in [Game(rules, r) for _, r in random_positions(rules, 2, seed=9)][::3][:6]:
            for level in (1, 2):
                if perft(game, level) > 400:
                    continue
                value = thesis_line(game, "costs", level, 4, costs=costs).value
                assert value == step_minimax(game, level, 4, readings[costs]), (rules, game.moves, level)
                checked += 1
    assert checked >= 10


def test_the_bounce_costs_make_the_searcher_prefer_bouncing():
    """A bounce is worth one step of distance to its mover: the costs version values a
    position lower (better for MIN) than the plain search exactly when MIN's line bounces."""
    found = 0
    for _, record in random_positions("thesis", 3, seed=12)[::2]:
        game = Game("thesis", record)
        plain = thesis_line(game, "static", 1)
        costed = thesis_line(game, "costs", 1)
        assert costed.value <= plain.value
        found += costed.value < plain.value
    assert found > 0


def test_a_node_cap_bounds_each_decision_and_deepens_level_by_level():
    game = random_game("thesis", seed=4, max_turns=30)
    full = AlphaBeta(depth=3)
    full.choose_turn(game)
    cap = max(1, full.last.nodes // 20)
    capped = AlphaBeta(depth=3, max_nodes=cap)
    assert capped.choose_turn(game) in game.turns()
    assert capped.last.depth < 3
    assert capped.last.nodes <= cap + CHECK_EVERY  # the kernel looks at its budget every CHECK_EVERY steps
    roomy = AlphaBeta(depth=3, max_nodes=10 * full.last.nodes + 1000)
    assert roomy.choose_turn(game) == full.choose_turn(game) and roomy.last.depth == 3
    assert make(capped.spec).spec == capped.spec and capped.spec["max_nodes"] == cap
    with pytest.raises(SpecError, match="max_nodes"):
        make({"name": "alphabeta", "max_nodes": 0})
    with pytest.raises(SpecError, match="costs"):
        make({"name": "alphabeta", "variant": "dynamic", "costs": "steps"})


@pytest.mark.parametrize("variant", ["static", "costs", "nocycles", "dynamic"])
def test_thesis_variants_always_play_a_legal_turn(variant):
    for rules in ("thesis", "standard"):
        for _, record in random_positions(rules, 3, seed=11)[::4]:
            game = Game(rules, record)
            turn = AlphaBeta(variant=variant, depth=2, max_bounces=6).choose_turn(game)
            assert turn in game.turns(), (rules, record, variant)


def _goal_in_one(rules, seed):
    """Positions from which the player to move can score in one turn."""
    out = []
    for _, record in random_positions(rules, 8, seed=seed):
        game = Game(rules, record)
        if not 0 <= small_turn_count(game, 20_000) <= 2000:
            continue
        target = TOP if game.player == 1 else 3 - TOP
        if any(t.kind == "goal" and game.board.goal[game.board.index[t.end]] == target for t in game.turns()):
            out.append(game)
    return out


@pytest.mark.parametrize("variant", ["dynamic", "nocycles"])
def test_dynamic_and_nocycles_score_in_one_turn_when_they_can(variant):
    games = _goal_in_one("standard", seed=4)[:10]
    assert len(games) >= 3
    for game in games:
        trial = game.copy()
        trial.push(AlphaBeta(variant=variant, depth=1).choose_turn(game))
        assert trial.result is not None and trial.result.winner == game.player, (variant, game.moves)


def test_thesis_variants_avoid_own_goals():
    checked = 0
    for _, record in random_positions("standard", 12, seed=8):
        game = Game("standard", record)
        if not 0 <= small_turn_count(game, 20_000) <= 2000:
            continue
        turns = list(game.turns())
        own = [t for t in turns if t.kind == "goal" and _scorer(game, t) != game.player]
        if not own or len(own) == len(turns):
            continue
        checked += 1
        for variant in ("static", "costs", "nocycles", "dynamic"):
            trial = game.copy()
            trial.push(AlphaBeta(variant=variant, depth=1).choose_turn(game))
            assert not (trial.result and trial.result.reason == "own goal"), (variant, record)
    assert checked >= 3


def _scorer(game, turn):
    return 1 if game.board.goal[game.board.index[turn.end]] == TOP else 2


def test_static_overwrites_differ_from_dynamic():
    differ = 0
    for _, record in random_positions("thesis", 2, seed=3)[::3]:
        game = Game("thesis", record)
        a = AlphaBeta(variant="static", depth=2).choose_turn(game)
        b = AlphaBeta(variant="dynamic", depth=2).choose_turn(game)
        differ += a != b
    assert differ > 0


def test_thesis_search_is_deterministic_and_counts_nodes():
    game = Game("thesis", "0 54 2")
    for variant in ("static", "costs", "nocycles", "dynamic"):
        first = thesis_line(game, variant, 3)
        again = thesis_line(game, variant, 3)
        assert (again.turn, again.value, again.nodes) == (first.turn, first.value, first.nodes)
        assert first.nodes > 0 and not first.details["stopped"] and first.depth == 3
        assert AlphaBeta(variant=variant, depth=2).choose_turn(game) == \
            AlphaBeta(variant=variant, depth=2).choose_turn(game)


def test_thesis_controller_budgets_and_specs():
    game = random_game("thesis", seed=2, max_turns=12)
    timed = AlphaBeta(depth=10, time_limit=0.2)
    assert timed.choose_turn(game) in game.turns()
    assert make(timed.spec).spec == timed.spec == {"name": "alphabeta", "variant": "dynamic", "depth": 10,
                                                   "max_bounces": 15, "time_limit": 0.2}
    for bad in ({"variant": "fast"}, {"depth": 11}, {"depth": 0}, {"max_bounces": -1}):
        with pytest.raises(SpecError):
            make({"name": "alphabeta", **bad})
    with pytest.raises(ValueError, match="variant"):
        thesis_line(game, "fast")



@pytest.mark.slow
# --- weighted leaf evaluation -----------------------------------------------------------------
@pytest.mark.parametrize("weights", [(1, 0, 0, 0), (2, 1, 1, 0), (0, 0, 1, -3), (2, -1, 0, 1)], ids=str)
def test_weighted_turn_search_equals_reference_minimax(weights):
    for rules in SMALL[::3]:
        for game in small_positions(rules, 2, 3, seed=21):
            ref = search.minimax(TurnState(game, weights=weights), 2, game.player - 1)
            for kw in ({"pruning": False, "ordering": False, "transposition": False}, {}):
                found = search_turns(game, 2, exact=True, weights=list(weights), **kw)
                assert found.value == ref.value, (game.moves, kw)
                assert set(found.details["best"]) == set(ref.details["best"]), (game.moves, kw)


def test_default_weights_are_the_distance_difference():
    checked = 0
    for _, record in random_positions("thesis", 2, seed=4)[::5]:
        game = Game("thesis", record)
        if not 0 <= small_turn_count(game, 3000) <= 300:
            continue
        plain = search_turns(game, 2, exact=True)
        for weights in ({"distance": 1}, [1, 0, 0, 0], np.array([1, 0, 0, 0])):
            found = search_turns(game, 2, exact=True, weights=weights)
            assert (found.value, found.turn, found.details["best"], found.nodes) == \
                (plain.value, plain.turn, plain.details["best"], plain.nodes)
        checked += 1
    assert checked >= 3


def test_other_weights_change_the_chosen_turn():
    changed = 0
    for _, record in random_positions("thesis", 2, seed=6)[::4]:
        game = Game("thesis", record)
        if not 0 <= small_turn_count(game, 3000) <= 300:
            continue
        if search_turns(game, 1).turn != search_turns(game, 1, weights={"distance": 1, "mobility": 3}).turn:
            changed += 1
    assert changed > 0


def test_weights_in_specs_and_bad_weights():
    game = Game("thesis", "0 54 2")
    spec = {"name": "turnsearch", "depth": 2, "weights": [2, 1, 0, 1], "ties": "random", "seed": 3}
    controller = make(spec)
    assert controller.spec["weights"] == {"distance": 2, "attack": 1, "bounce": 1}
    assert make(controller.spec).spec == controller.spec
    assert controller.choose_turn(game) in game.turns()
    assert "weights" not in make({"name": "turnsearch", "weights": {"distance": 1}}).spec
    assert "ties" not in make({"name": "turnsearch"}).spec
    for bad in ({"speed": 1}, [1, 0], {"distance": 1.5}, {"distance": True}, [0, 0, 0, 0], "distance"):
        with pytest.raises(SpecError, match="distance.*attack.*mobility.*bounce"):
            make({"name": "turnsearch", "weights": bad})
    with pytest.raises(SpecError, match="ties"):
        make({"name": "turnsearch", "ties": "last"})
    with pytest.raises(ValueError, match="features"):  # the search's own check; a spec's is a SpecError
        search_turns(game, 1, weights={"speed": 1})


def test_random_ties_pick_among_the_best_turns():
    game = Game("thesis", "0 54 2 5")
    best = set(search_turns(game, 2, exact=True).details["best"])
    assert len(best) > 1
    picks = {make({"name": "turnsearch", "depth": 2, "ties": "random", "seed": s}).choose_turn(game)
             for s in range(12)}
    assert picks <= best and len(picks) > 1


def test_a_search_with_a_deadline_decodes_only_the_first_best_turns(monkeypatch):
    # turning millions of tied root turns into strings once took a third of a 1 s budget
    from fepaper.search import turnsearch

    game = Game("thesis", "0 54 2 5")
    full = search_turns(game, 2, exact=True)
    values = full.details["values"]
    assert full.details["n_best"] == len(full.details["best"]) > 3
    assert all(values[t] == full.value for t in full.details["best"])
    assert set(values) <= {t.steps for t in game.turns()}
    monkeypatch.setattr(turnsearch, "VALUES_SHOWN", 3)
    timed = search_turns(game, 2, exact=True, time_limit=60.0)
    assert timed.details["best"] == full.details["best"][:3]
    assert timed.details["n_best"] == full.details["n_best"]
    assert timed.details["values"] == {t: values[t] for t in full.details["best"][:3]}
    untimed = search_turns(game, 2, exact=True)
    assert untimed.details["best"] == full.details["best"]


def test_a_search_with_a_deadline_names_only_the_turns_its_reserve_decodes(monkeypatch):
    # minimax at 5 ms once spent half its budget naming the 9,792 turns of its root
    from fepaper.search import turnsearch
    from fepaper.search.budget import reserve

    assert turnsearch.turns_shown(0.005) < turnsearch.turns_shown(0.1) < turnsearch.turns_shown(None)
    game = Game("thesis", "0 54 2 5")
    full = search_turns(game, 2, exact=True)
    monkeypatch.setattr(turnsearch, "DECODE_RATE", 3.5 / (0.5 * reserve(60.0)))  # 3 turns in half of it
    assert turnsearch.turns_shown(60.0) == 3 and turnsearch.turns_shown(None) == turnsearch.VALUES_SHOWN
    timed = search_turns(game, 2, exact=True, time_limit=60.0)
    assert timed.details["best"] == full.details["best"][:3]
    assert timed.details["n_best"] == full.details["n_best"]
    assert timed.details["values"] == {t: full.details["values"][t] for t in full.details["best"][:3]}


@pytest.mark.slow
def test_turn_search_to_the_end_equals_the_solved_positions_deeper_than_three_turns():
    """The oracle: searched deep enough to reach the end of every line (each turn marks an edge,
    so no game lasts more turns than there are free edges), the turn search's value is the
    solver's: a win or a loss in some number of turns, and a proven win starts with a winning turn."""
    import json
    from pathlib import Path

    solved = json.loads((Path(__file__).parent / "data" / "solved_positions.json").read_text())
    solved = [p for p in solved if p["nodes"] <= 35_000]  # the smaller trees: the test stays under a minute
    assert len(solved) >= 3 and {p["value"] for p in solved} == {-1, 1}
    for p in solved:
        game = Game(p["rules"], p["moves"])
        free = int((game.owner == 0).sum())
        result = search_turns(game, free, iterative=True, exact=True, tt_bits=20)
        assert abs(result.value) > WIN - 1000 and (result.value > 0) == (p["value"] > 0), (p["moves"], result.value)
        if p["value"] > 0:
            assert set(result.details["best"]) <= set(p["winning_turns"]), p["moves"]
