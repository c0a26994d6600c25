"""Best-first minimax and its parts: the search, the network's inputs, its file, its training (its tactics: test_tactics.py)."""

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper._core.bestfirst import PROVEN
from fepaper._core.tactics import UNREACHED, goal_distance, goal_in_one, goal_of, new_scratch, turn_distances
from fepaper._core.valuenet import active_inputs, child_net_value, layout_of, net_value, shared_sums
from fepaper.controllers import make
from fepaper.game.game import Game
from fepaper.play.randomplay import random_game
from fepaper.search import reference as search
from fepaper.search.bestfirst import bestfirst_search
from fepaper.search.reference.state import TurnState

from .helpers import (
    SMALL_RULES,
    engine_game_positions,
    goal_workspace,
    position,
    small_turn_count,
    turn_position,
)


def _turned(game, o):
    """(marks, ball) of ``game``'s position in orientation ``o`` of the layout (1: half a turn, 2:
    mirrored left to right, 3: upside down)."""
    b = game.board
    layout = layout_of(b)
    nmap = layout.node_map[o]
    assert sorted(nmap.tolist()) == list(range(b.n_nodes))  # the board turned or mirrored onto itself
    from fepaper.game.board import DIRECTIONS

    flip = {1: lambda dx, dy: (-dx, -dy), 2: lambda dx, dy: (-dx, dy), 3: lambda dx, dy: (dx, -dy)}[o]
    new_dir = {d: DIRECTIONS.index(flip(*DIRECTIONS[d])) for d in range(8)}
    marks = np.zeros_like(game.marks)
    for n in range(b.n_nodes):
        for d in range(8):
            if game.marks[n] >> d & 1:
                marks[nmap[n]] |= np.uint8(1 << new_dir[d])
    return marks, int(nmap[game.ball_index])


@given(st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_the_networks_inputs_face_the_player_to_move(seed, fraction):
    game = position("codingame", seed, fraction)
    if game.is_over:
        return
    b = game.board
    layout = layout_of(b)
    dist, queue = new_scratch(b.n_nodes)
    out = np.zeros(2 * b.n_nodes + b.n_edges + 2, np.int64)

    def inputs(marks, ball, mover, mirror=False):
        k = active_inputs(marks, ball, mover, 30, b.arrays, layout, dist, queue, out, mirror)
        return sorted(out[:k].tolist())

    mine = inputs(game.marks, game.ball_index, game.player)
    # the same position turned half a turn, seen by the other player, is the same input
    assert inputs(*_turned(game, 1), 3 - game.player) == mine
    # mirrored left to right: the mirrored inputs
    assert inputs(*_turned(game, 2), game.player) == inputs(game.marks, game.ball_index, game.player, True)
    assert len(set(mine)) == len(mine) and all(0 <= i < layout.n_inputs for i in mine)


@given(st.integers(0, 10_000), st.floats(0.0, 1.0), st.sampled_from(["value_engines25.npz", "value_codingame.npz"]))
def test_a_childs_value_from_the_shared_sums_is_its_whole_positions_value(seed, fraction, name):
    """The search values a node's children from the first-layer sums of the edges they share
    (added once per node) plus each child's own: the same value as adding up every input of
    the child's position, on every turn of random positions."""
    from fepaper.search.valuefile import load_value_net, network_path

    game = position("codingame", seed, fraction)
    if game.is_over or not 0 <= small_turn_count(game) <= 300:
        return
    b = game.board
    net = load_value_net(network_path(name), "codingame")
    n1, n2 = net.b1.shape[0], net.b2.shape[0]
    dist, queue = new_scratch(b.n_nodes)
    rows = np.zeros(2 * b.n_nodes + b.n_edges + 2, np.int64)
    base, h1, h2 = np.zeros(n1, np.float32), np.zeros(n1, np.float32), np.zeros(n2, np.float32)
    mover = 3 - game.player
    shared_sums(net, game.marks, mover, b.arrays, rows, base)
    checked = 0
    for turn in game.turns():
        child = turn_position(game, turn)
        if child.is_over:
            continue
        steps = np.array([int(c) for c in turn.steps], np.int8)
        left = 7 + checked % 5
        turn_distances(child.marks, child.ball_index, b.arrays, dist, queue)
        fast = child_net_value(net, base, dist, child.ball_index, mover, left, b.arrays, game.ball_index, steps,
                               len(steps), rows, h1, h2)
        k = active_inputs(child.marks, child.ball_index, mover, left, b.arrays, net.layout, dist, queue, rows)
        whole = net_value(net, rows, k, h1, h2)
        assert fast == pytest.approx(whole, abs=1e-5), (game.moves, turn.steps)
        checked += 1


def _mate(state, player):
    """Reference leaf value: ``WIN - plies`` for a won game, its negation for a lost one, 0 for a
    draw or a position at the depth limit (nothing known)."""
    return state.evaluate(player) if state.is_terminal() else 0


def _two_turns_small(game, first=40, second=2000):
    """Whether ``game`` is on with at most ``first`` turns, each followed by at most ``second``
    (so the reference searches two turns deep in seconds)."""
    if game.is_over or not 0 < small_turn_count(game) <= first:
        return False
    for turn in game.turns():
        after = turn_position(game, turn)
        if not after.is_over and not 0 < small_turn_count(after) <= second:
            return False
    return True


@pytest.mark.parametrize("rules", [*SMALL_RULES, "codingame"],
                         ids=lambda r: r if isinstance(r, str) else f"{r['width']}x{r['height']}-{r['bounce']}")
def test_every_proof_of_the_search_is_the_reference_searchs(rules):
    """A searched-out best-first tree proves a win (or a loss) in ``p`` turns exactly when the
    reference alpha-beta, ``p`` turns deep with no evaluation (only finished games count),
    finds a forced win (loss) within ``p`` turns; an unproven root has no forced result within
    the turns the reference can search."""
    proofs = unproven = 0
    for seed in range(400):
        full = random_game(rules, seed=seed)
        game = Game(rules, " ".join(full.history[:max(0, len(full.history) - 1 - seed % 4)]))
        if not _two_turns_small(game):
            continue
        found = bestfirst_search(game, 300, evaluator="distance", max_children=100_000, seed=1)
        v = found.value
        state = TurnState(game)
        if abs(v) > 1.5:
            plies = round((2 - abs(v)) * 1000)
            if plies > 2:
                continue
            ref = search.alphabeta(state, plies, game.player - 1, _mate)
            assert np.sign(ref.value) == np.sign(v), (game.moves, v, ref.value)
            if v > 0:  # the turn it plays wins as fast as it claims
                after = game.copy()
                after.push(found.turn)
                check = search.alphabeta(TurnState(after, 1), plies - 1, game.player - 1, _mate)
                assert check.value > 0, (game.moves, found.turn)
            proofs += 1
        elif found.details["proven"] is False and v != 0:
            ref = search.alphabeta(state, 2, game.player - 1, _mate)
            assert ref.value == 0, (game.moves, v, ref.value)
            unproven += 1
        if proofs >= 8 and unproven >= 4:
            break
    assert proofs >= 4 and unproven >= 2, (proofs, unproven)


@given(st.integers(0, 10_000), st.floats(0.3, 1.0))
def test_it_scores_when_it_can_and_never_offers_a_goal_it_could_refuse(seed, fraction):
    game = position("codingame", seed, fraction)
    if game.is_over or not 0 < small_turn_count(game) <= 3000:
        return
    turns = list(game.turns())
    result = bestfirst_search(game, 30, evaluator="distance", max_children=5000, seed=2)
    b = game.board
    attack = 1 if game.player == 1 else 2
    scoring = [t for t in turns if t.kind == "goal" and b.goal[b.index[t.end]] == attack]
    after = turn_position(game, next(t for t in turns if t.steps == result.turn))
    if scoring:
        assert after.is_over and after.result.winner == game.player
        return
    seen, stack = goal_workspace(game)

    def offers(t):
        g = turn_position(game, t)
        return not g.is_over and goal_in_one(g.marks, g.ball_index, b.arrays, 1 if g.player == 1 else 2,
                                             seen, stack)

    if after.is_over:
        assert after.result.winner in (None, game.player)
    elif offers(next(t for t in turns if t.steps == result.turn)):
        assert all(offers(t) or turn_position(game, t).is_over for t in turns), game.moves


def _grain_checks(game, steps) -> int:
    """With ``steps`` the distance evaluator adds, for the player who moves next, ``steps`` times
    (its own goal's step distance - the attacked goal's) over the square root of the nodes:
    seen from the root, a turn whose ball ends nearer the goal the root's mover attacks moves
    up when ``steps > 0`` and down when ``steps < 0``, by no more than the grain. Returns the
    turns checked."""
    plain, grained = (bestfirst_search(game, 1, evaluator="distance", max_children=5000, steps=w, seed=2)
                      for w in (0.0, steps))
    b = game.board
    own, attacked = (0, 1) if game.player == 2 else (1, 0)  # rows of distance: 0 top (player 1 attacks it)
    checked = 0
    for turn, before in plain.details["values"].items():
        after = grained.details["values"][turn]
        if abs(before) > 1.5:  # proven: no evaluator
            assert after == before
            continue
        g = turn_position(game, next(t for t in game.turns() if t.steps == turn))
        away = int(b.arrays.distance[own, g.ball_index]) - int(b.arrays.distance[attacked, g.ball_index])
        expected = np.sign(steps * away)
        assert np.sign(round(after - before, 12)) == expected, (turn, before, after, away)
        assert abs(np.arctanh(-after) - np.arctanh(-before)) <= abs(steps * away) / np.sqrt(b.n_nodes) + 1e-9
        checked += 1
    return checked


@given(st.integers(0, 10_000), st.floats(0.2, 0.8), st.sampled_from([-0.3, 0.7]))
def test_the_step_grain_moves_each_turns_value_by_where_its_ball_ends(seed, fraction, steps):
    game = position("codingame", seed, fraction)
    if not game.is_over and not game.current and 0 < small_turn_count(game) <= 400:
        _grain_checks(game, steps)
    assert _grain_checks(Game("codingame", "2 0 3 1 7"), -0.3) >= 5


def reaches(game, goal):
    """Whether the ball can still get into goal ``goal``: its turn distance is finite."""
    dist, queue = new_scratch(game.board.n_nodes)
    turn_distances(game.marks, game.ball_index, game.board.arrays, dist, queue)
    return goal_distance(dist, game.board.arrays, goal) < UNREACHED


def test_a_cut_off_moves_the_value_of_every_turn_that_makes_one_and_of_no_other():
    """With ``cutoff``, each root turn after which exactly one side can never reach the goal
    it attacks (:func:`reaches`: the turn distances, which test_tactics.py checks against
    networkx) is valued ``(1 - cutoff) * value + cutoff`` when
    the opponent is the one cut off, ``- cutoff`` when the mover is; every other turn, and every
    proven one, keeps its value. The positions: those of games against the QtPaperSoccer
    engine where no side is cut off yet, until turns of both kinds were seen; the network's
    values (the distance evaluator's are already near their extremes there: its distances
    stop at 12)."""
    moved = {1: 0, -1: 0}
    for before in engine_game_positions(12):
        if min(moved.values()) >= 3:
            break
        if not all(reaches(before, g) for g in (1, 2)):
            continue
        kw = {"evaluator": "net", "net": "value_engines25w2.npz", "seed": 0}
        plain = bestfirst_search(before, 1, **kw).details["values"]
        cut = bestfirst_search(before, 1, cutoff=0.9, **kw).details["values"]
        assert cut.keys() == plain.keys()
        for turn, value in plain.items():
            child = before.copy()
            child.push(turn)
            mine, theirs = reaches(child, goal_of(before.player)), reaches(child, goal_of(child.player))
            if abs(value) > PROVEN or mine == theirs:
                assert cut[turn] == value, turn
                continue
            side = 1 if mine else -1
            assert cut[turn] == pytest.approx(min(max(0.1 * value + 0.9 * side, -0.999), 0.999), abs=1e-4), turn
            moved[side] += abs(value) < 0.999
    assert min(moved.values()) >= 3, moved


def test_the_controller_is_a_spec_and_plays_legal_turns():
    game = Game("codingame", "2 0 3")
    for spec in ({"name": "bestfirst", "iterations": 20}, {"name": "bestfirst", "evaluator": "distance",
                                                            "time_limit": 0.05, "c": 0.5}):
        controller = make(spec)
        assert controller.choose_turn(game) in game.turns()
        assert make(controller.spec).spec == controller.spec
    with pytest.raises(ValueError, match="net"):
        make({"name": "bestfirst", "net": "nowhere.npz"})


def _turn_of(tree, node):
    off, length = int(tree.off[node]), int(tree.length[node])
    return (tree.steps[off:off + length] + 48).tobytes().decode()


def _same_subtree(a, i, b, j):
    """Node ``i`` of tree ``a`` and node ``j`` of ``b`` hold the same search below them."""
    assert ((a.value[i], a.closed[i], a.visits[i], a.total[i], a.cut[i])
            == (b.value[j], b.closed[j], b.visits[j], b.total[j], b.cut[j]))
    assert (a.first[i] < 0) == (b.first[j] < 0) and a.count[i] == b.count[j]
    if a.first[i] < 0:
        return 1
    size = 1
    for k in range(int(a.count[i])):
        ci, cj = int(a.first[i]) + k, int(b.first[j]) + k
        assert b.parent[cj] == j and _turn_of(a, ci) == _turn_of(b, cj)
        size += _same_subtree(a, ci, b, cj)
    return size


def _expanded_below_the_root(tree):
    return [n for n in range(1, int(tree.ctl[0])) if tree.first[n] >= 0]


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_a_kept_tree_goes_on_from_the_position_reached_with_the_same_search(alpha):
    from fepaper._core import bestfirst as kernel

    controller = make({"name": "bestfirst", "iterations": 400, "reuse": True, "seed": 1, "alpha": alpha})
    game = Game("codingame", "2 0 3 1 7")
    first = controller.decide(game)
    old = controller._kept.tree
    grandchildren = [g for n in _expanded_below_the_root(old) if old.parent[n] == 0 and _turn_of(old, n) == first.turn
                     for g in range(int(old.first[n]), int(old.first[n] + old.count[n])) if old.first[g] >= 0]
    assert grandchildren, "the searched line has no expanded reply"
    for node in grandchildren[:5]:
        nodes, steps = kernel.subtree_size(old, node)
        out = kernel.new_tree(2 * nodes, 2 * steps)
        kernel.reroot(old, node, out)
        assert _same_subtree(old, node, out, 0) == nodes == out.ctl[0]
        assert out.ctl[1] == steps - old.length[node]
    reply = first.details["line"][1]
    game.play(first.turn)
    game.play(reply)
    second = controller.decide(game)
    assert second.details["reused"] > 1 and second.turn in game.turns()
    fresh = make({"name": "bestfirst", "iterations": 400, "seed": 1})
    assert fresh.decide(Game("codingame", "2 0 3 1 7")).details["reused"] == 0


def _config(**changed):
    """The config of a best-first search with the network value_engines25w2.npz, the rest at its
    defaults but ``changed``."""
    return make({"name": "bestfirst", "evaluator": "net", "net": "value_engines25w2.npz", **changed}).config


def _tree_after(game, iterations, alpha, c):
    from fepaper.search.bestfirst import bestfirst_tree

    return bestfirst_tree(game, iterations, None, _config(alpha=alpha, c=c), 1, 64)[1].tree


@pytest.mark.parametrize("alpha, c", [(0.4, 0.0), (0.7, 0.25), (0.0, 0.1)])
def test_each_iteration_goes_down_the_children_selection_names_and_backs_its_leafs_value_up(alpha, c):
    """One more iteration visits one line from the root: at every node the open child of the
    highest ``alpha * (-value) + (1 - alpha) * (-mean) + c * sqrt(ln(N + 1) / (n + 1))``
    (the tree before it; ``mean = total / (visits + 1)``); every node on the line adds the
    leaf's new value (clipped to [-1, 1]), negated on the other player's nodes, to its total;
    every new child starts with its own value as its total."""
    game = Game("codingame", "2 0 3 1 7")
    lines = 0
    for k in (3, 40, 150, 400):
        before, after = _tree_after(game, k, alpha, c), _tree_after(game, k + 1, alpha, c)
        line, node = [0], 0
        while before.first[node] >= 0:
            kids = range(int(before.first[node]), int(before.first[node] + before.count[node]))
            open_kids = [ch for ch in kids if not before.closed[ch]]
            stepped = [ch for ch in kids if after.visits[ch] == before.visits[ch] + 1]
            assert all(after.visits[ch] == before.visits[ch] for ch in kids if ch not in stepped)
            if not open_kids:
                assert not stepped
                break
            assert len(stepped) == 1

            def worth(ch, node=node, before=before):
                mean = before.total[ch] / (before.visits[ch] + 1)
                explore = c * np.sqrt(np.log(before.visits[node] + 1.0) / (before.visits[ch] + 1.0))
                return alpha * -before.value[ch] + (1 - alpha) * -mean + explore

            assert worth(stepped[0]) >= max(worth(ch) for ch in open_kids) - 1e-12, (k, line)
            node = stepped[0]
            line.append(node)
        sample = np.clip(after.value[line[-1]], -1.0, 1.0)
        for depth, n in enumerate(line):
            sign = 1 if (len(line) - 1 - depth) % 2 == 0 else -1
            assert after.visits[n] == before.visits[n] + 1
            assert after.total[n] - before.total[n] == pytest.approx(sign * sample, abs=1e-12), (k, depth)
        new = range(int(before.ctl[0]), int(after.ctl[0]))
        assert all(after.total[ch] == np.clip(after.value[ch], -1.0, 1.0) for ch in new)
        lines += len(line) > 2
    assert lines >= 2  # lines that went below the root's children
    with pytest.raises(ValueError, match="alpha"):
        make({"name": "bestfirst", "alpha": -0.1})


_VALUES = st.one_of(st.floats(-0.999, 0.999), st.sampled_from([1.995, 1.998, -1.995, -1.998, 0.0]))


@given(st.lists(st.tuples(_VALUES, st.integers(0, 6)), min_size=1, max_size=12), st.sampled_from([0.0, 0.05, 0.3, 4.0]))
def test_the_turn_chosen_is_the_most_searched_near_the_best_and_never_a_proven_loss_beside_another(kids, margin):
    """The choice rule against its definition: a proven win, or with no margin the best value,
    else the most iterations among the turns within ``margin`` of the best and not proven lost
    (ties: the better value, then the first)."""
    from fepaper.search.bestfirst import _chosen

    seen = np.array([v for v, _ in kids])
    visits = np.array([n for _, n in kids], np.int64)
    got = _chosen(seen, visits, margin)
    best = int(np.argmax(seen))
    near = [i for i in range(len(kids)) if seen[i] >= seen[best] - margin and seen[i] > -1.5]
    if margin == 0.0 or seen[best] > 1.5 or not near:
        assert got == best
    else:
        assert got == min(near, key=lambda i: (-visits[i], -seen[i], i))
        assert seen[got] > -1.5 and visits[got] == max(visits[i] for i in near)


def test_a_choice_margin_chooses_the_most_searched_turn_of_the_same_tree():
    """The margin changes the choice only: the same tree, and with margin 0 the same result; the
    turn chosen with a wide margin is the root's child searched most that is not proven lost."""
    from fepaper.search.bestfirst import bestfirst_tree

    # a position of a game against the QtPaperSoccer engine where the two choices differ at 300 iterations
    game = Game("codingame", "7 5 5 72 1 4646171 324 70 1 2 2 4 3 1 35 75 665 3 4 2 0 56 5 471")

    def run(margin):
        return bestfirst_tree(game, 300, None, _config(choice_margin=margin), 1, 64)

    (plain, kept), (wide, kept_wide) = run(0.0), run(4.0)
    default = bestfirst_search(game, 300, evaluator="net", net="value_engines25w2.npz", seed=1)
    assert (plain.turn, plain.value, plain.details) == (default.turn, default.value, default.details)
    tree = kept_wide.tree
    assert tree.ctl.tolist() == kept.tree.ctl.tolist()
    for field in ("parent", "visits", "value", "total", "closed"):
        assert np.array_equal(getattr(tree, field)[: tree.ctl[0]], getattr(kept.tree, field)[: tree.ctl[0]]), field
    kids = range(int(tree.first[0]), int(tree.first[0] + tree.count[0]))
    alive = [k for k in kids if -tree.value[k] > -1.5]
    most = max(alive, key=lambda k: (tree.visits[k], -tree.value[k]))
    assert wide.turn == _turn_of(tree, most) and kept_wide.chosen == most
    assert wide.turn != plain.turn  # the position was chosen for this
    assert wide.value == plain.value  # the root's value either way
    with pytest.raises(ValueError, match="choice_margin"):
        make({"name": "bestfirst", "choice_margin": -1})


def test_a_search_out_of_time_leaves_no_node_below_the_root_listed_in_part():
    # a kept tree must not hold a node whose turns the clock cut short: it would never be listed again
    game = Game("codingame", "5 6 0 7 61 1 3 6 4 2 532 2")
    bestfirst_search(game, 5)  # compiled code loaded outside the clock
    controller = make({"name": "bestfirst", "time_limit": 0.2, "reuse": True, "max_children": 50, "seed": 2})
    controller.decide(game)
    tree = controller._kept.tree
    checked = 0
    for node in _expanded_below_the_root(tree)[-40:]:  # the last listed, nearest the deadline
        line, n = [], node
        while n != 0:
            line.append(_turn_of(tree, n))
            n = int(tree.parent[n])
        there = Game("codingame", game.moves + " " + " ".join(reversed(line)))
        children = range(int(tree.first[node]), int(tree.first[node] + tree.count[node]))
        if any(tree.value[c] < -1.5 for c in children):
            continue  # a winning turn ends the listing early, by design
        assert tree.count[node] == min(50, there.turns().count(limit=10**6)), there.moves
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("record", ["", "2 0 3", "2 0 3 1 7"])
def test_the_shipped_network_values_the_root_as_its_best_child(record):
    """One iteration expands the root and values each child by the default network: the root's
    value is the best of the children's values for the player to move, as the network gives them
    position by position (``net_values``), to float32 precision."""
    from fepaper._core.valuenet import net_values
    from fepaper.search.valuefile import DEFAULT_NET, load_value_net

    game = Game("codingame", record)
    net = load_value_net(DEFAULT_NET, "codingame")
    children = [Game("codingame", f"{game.moves} {turn.steps}".strip()) for turn in game.turns()]
    assert not any(child.is_over for child in children)  # no proven child: every value is the network's
    values = [-net_values(net, child.marks[None, :].copy(), np.array([child.ball_index]), np.array([child.player]),
                          np.array([len(child.history)]), child.rules.max_turns, child.board.arrays)[0]
              for child in children]
    result = bestfirst_search(game, 1, evaluator="net", seed=1)
    assert result.value == pytest.approx(max(values), abs=1e-6)
    assert result.turn in game.turns()


def test_a_damaged_or_foreign_network_file_is_refused_in_one_line(tmp_path):
    from fepaper.search.valuefile import DEFAULT_NET, load_value_net, net_arrays, save_value_net

    good = net_arrays(DEFAULT_NET)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(DEFAULT_NET.read_bytes()[:1000])
    with pytest.raises(ValueError, match="not a value network file"):
        load_value_net(truncated, "codingame")
    garbage = tmp_path / "garbage.npz"
    garbage.write_text("not numpy at all")
    with pytest.raises(ValueError, match="not a value network file"):
        load_value_net(garbage, "codingame")
    with pytest.raises(ValueError, match="No such file"):
        load_value_net(tmp_path / "missing.npz", "codingame")
    # a network of the 8 x 10 board refused on another board
    with pytest.raises(ValueError, match="8 x 10 board"):
        load_value_net(DEFAULT_NET, "thesis")
    # layers whose shapes do not chain
    weights = {k: good[k] for k in ("w1", "b1", "w2", "b2", "w3")}
    bad_shape = tmp_path / "shape.npz"
    save_value_net(bad_shape, weights["w1"], weights["b1"][:-1], weights["w2"], weights["b2"], weights["w3"],
                   float(good["b3"][0]), "codingame", int(good["k"][0]), int(good["turn_slots"][0]))
    with pytest.raises(ValueError, match="shapes"):
        load_value_net(bad_shape, "codingame")
    # another input layout (k) than the weights were trained for
    other_k = tmp_path / "k.npz"
    save_value_net(other_k, *weights.values(), float(good["b3"][0]), "codingame", int(good["k"][0]) + 1,
                   int(good["turn_slots"][0]))
    with pytest.raises(ValueError, match="inputs"):
        load_value_net(other_k, "codingame")
    # a value that is not finite
    nan = tmp_path / "nan.npz"
    w1 = weights["w1"].copy()
    w1[0, 0] = np.nan
    save_value_net(nan, w1, *list(weights.values())[1:], float(good["b3"][0]), "codingame",
                   int(good["k"][0]), int(good["turn_slots"][0]))
    with pytest.raises(ValueError, match="finite"):
        load_value_net(nan, "codingame")
    # a pickled object array is never loaded
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, **{k: good[k] for k in good if k != "w1"}, w1=np.array([object()], dtype=object))
    with pytest.raises(ValueError, match="w1: must be float32"):
        load_value_net(pickled, "codingame")
    # and the controller's spec says which field is wrong
    with pytest.raises(ValueError, match="bestfirst: net"):
        make({"name": "bestfirst", "evaluator": "net", "net": str(truncated)})


def _tactical_positions(kind, wanted=5):
    """CodinGame positions of seeded random games where the player to move can score
    (``"score"``), or where some turns let the opponent score at once and some do not
    (``"refuse"``), found by listing every turn."""
    found = []
    for seed in range(300):
        full = random_game("codingame", seed=seed)
        for t in range(len(full.history)):
            game = Game("codingame", " ".join(full.history[:t]))
            if game.is_over or not 0 < small_turn_count(game) <= 3000:
                continue
            b = game.board
            turns = list(game.turns())
            attack = 1 if game.player == 1 else 2
            if kind == "score":
                if any(x.kind == "goal" and b.goal[b.index[x.end]] == attack for x in turns):
                    found.append(game)
                    break
            else:
                seen, stack = goal_workspace(game)
                offers = []
                for x in turns:
                    after = turn_position(game, x)
                    lost = after.is_over and after.result.winner != game.player  # own goal, blocked
                    offers.append(lost or (not after.is_over and goal_in_one(
                        after.marks, after.ball_index, b.arrays, 1 if after.player == 1 else 2, seen, stack)))
                if any(offers) and not all(offers) and sum(offers) > len(offers) // 2:
                    found.append((game, {x.steps for x, o in zip(turns, offers) if o}))
                    break
        if len(found) == wanted:
            return found
    return found


@pytest.mark.parametrize("evaluator", ["distance", "net"])
def test_it_takes_a_goal_in_one_and_refuses_the_opponents(evaluator):
    scoring = _tactical_positions("score")
    refusing = _tactical_positions("refuse")
    assert len(scoring) == 5 and len(refusing) == 5
    for game in scoring:  # even a search of one expansion scores
        for spec in ({"iterations": 1}, {"time_limit": 0.05}):
            result = bestfirst_search(game, evaluator=evaluator, seed=3, **spec)
            after = game.copy()
            after.push(result.turn)
            assert after.is_over and after.result.winner == game.player, (game.moves, result.turn)
    for game, offering in refusing:  # most turns lose or let the opponent score; it plays one that does not
        result = bestfirst_search(game, 5, evaluator=evaluator, max_children=100_000, seed=3)
        assert result.turn not in offering, (game.moves, result.turn)


def test_valuefit_writes_a_network_that_loads_and_the_same_seed_writes_the_same_games(tmp_path):
    from fepaper.engines.valuefit import selfplay_jobs, train
    from fepaper.play.pools import SerialExecutor
    from fepaper.search.valuefile import load_value_net, net_arrays

    spec = {"name": "bestfirst", "evaluator": "distance", "iterations": 3}
    assert selfplay_jobs(spec, 4, seed=5) == selfplay_jobs(spec, 4, seed=5)
    assert selfplay_jobs(spec, 4, seed=5) != selfplay_jobs(spec, 4, seed=6)
    runs = []
    for k in range(2):
        out = tmp_path / f"net{k}.npz"
        result = train(out, games=4, seed=5, spec=spec, hidden=(8, 4), epochs=2, executor=SerialExecutor(),
                       games_file=tmp_path / f"games{k}.csv", progress=False)
        assert len(result.history) == 2 and 1 <= result.best_epoch <= 2
        load_value_net(out, "codingame")
        with open(tmp_path / f"games{k}.csv", newline="") as f:
            games = [(row["moves"], row["winner"]) for row in csv.DictReader(f)]
        runs.append((net_arrays(out), games))
    (first, games_a), (second, games_b) = runs
    assert len(games_a) == 4 and games_a == games_b
    assert all(np.allclose(first[key], second[key], atol=1e-5) for key in first)


def test_valuefit_fits_on_referee_games_labelled_by_their_results(tmp_path):
    from pathlib import Path

    from fepaper.engines.training import training_rows
    from fepaper.engines.valuefit import positions, train
    from fepaper.search.valuefile import load_value_net, net_arrays

    path = Path(__file__).parents[1] / "data" / "strength" / "referee_challenger.jsonl"
    rows, opening = training_rows([path, path])
    assert len(rows) == 400 and (opening[:200] == opening[200:]).all()  # one opening, one index
    assert sorted(set(opening.tolist())) == list(range(opening.max() + 1)) and opening.max() < 100
    for row in rows[:20]:  # the label is the game's result, replayed
        winner = Game("codingame", row["moves"]).result.winner
        assert (winner == row["a_player"]) == (row["winner"] == "a")
    pos = positions(rows[:20])
    assert set(pos["target"].tolist()) <= {-1.0, 1.0} and len(pos["target"]) > 20 * 30
    nets = []
    for k in range(2):
        out = tmp_path / f"net{k}.npz"
        result = train(out, hidden=(8, 4), epochs=1, given=(rows[:40], opening[:40]), progress=False)
        assert len(result.history) == 1
        load_value_net(out, "codingame")
        nets.append(net_arrays(out))
    assert all(np.allclose(nets[0][key], nets[1][key], atol=1e-5) for key in nets[0])
    with pytest.raises(ValueError, match="not"):
        training_rows([path], "standard")


def test_valuefit_adds_self_play_games_of_a_network_player_to_referee_games(tmp_path, monkeypatch):
    from pathlib import Path

    from fepaper.engines import valuefit
    from fepaper.engines.imitation import choices
    from fepaper.engines.training import training_rows
    from fepaper.play.pools import SerialExecutor
    from fepaper.search.valuefile import load_value_net

    path = Path(__file__).parents[1] / "data" / "strength" / "referee_challenger.jsonl"
    rows, opening = training_rows([path])
    rows, opening = rows[:10], opening[:10]
    seen = {}
    real_fit = valuefit.fit

    def spy(data, target, groups, *args, **kwargs):
        seen.update(target=target, groups=groups, choice=kwargs.get("choice"))
        return real_fit(data, target, groups, *args, **kwargs)

    monkeypatch.setattr(valuefit, "fit", spy)
    player = {"name": "bestfirst", "evaluator": "net", "net": "value_engines25w2.npz", "iterations": 3}
    kept = tmp_path / "selfplay.csv"
    out = tmp_path / "net.npz"
    valuefit.train(out, hidden=(8, 4), epochs=1, given=(rows, opening), selfplay_games=3, spec=player,
                   games_file=kept, executor=SerialExecutor(), progress=False, imitate=("challenger",), sample=4)
    load_value_net(out, "codingame")
    with open(kept, newline="") as f:
        played = list(csv.DictReader(f))
    assert len(played) == 3 and all(json.loads(row["spec_a"])["evaluator"] == "net" for row in played)
    own = valuefit.selfplay(player, 3, kept, progress=False)  # resumed from the kept file: no new game
    both = rows + valuefit.selfplay_rows(own)
    # every position of both kinds of games is a target, labelled by its game's result
    assert np.array_equal(seen["target"], valuefit.positions(both)["target"])
    given_positions = sum(len(row["moves"].split()) for row in rows)
    game_of = valuefit.positions(both)["game"]
    assert (seen["groups"][:given_positions] == opening[game_of[:given_positions]]).all()
    own_groups = seen["groups"][given_positions:]  # each self-play game is a group of its own, apart from the given
    assert own_groups.min() > opening.max() and len(set(own_groups.tolist())) == 3
    # the self-play side's turns are never imitated: the same decisions as the given games' alone
    assert np.array_equal(seen["choice"][1], choices(rows, ("challenger",), sample=4)["decision"])
    for row, game in zip(valuefit.selfplay_rows(own), own):
        assert row["names"] == (valuefit.SELFPLAY_NAME,) * 2
        assert row["opening_turns"] == len(game["opening"].split()) and row["moves"].startswith(game["opening"])


def test_valuefit_command_fits_on_referee_and_self_play_games(tmp_path, capsys):
    from pathlib import Path

    from fepaper.cli import main

    referee = Path(__file__).parents[1] / "data" / "strength" / "referee_challenger.jsonl"
    kept, out = tmp_path / "games.csv", tmp_path / "net.npz"
    player = '{"name": "bestfirst", "evaluator": "net", "net": "value_engines25w2.npz", "iterations": 2}'
    assert main(["net", "fit", "--referee", str(referee), "--games", "2", "--player", player, "--games-file", str(kept),
                 "--epochs", "1", "--hidden1", "8", "--hidden2", "4", "--workers", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"wrote {out}: epoch 1 of 1")
    with open(kept, newline="") as f:
        assert [json.loads(row["spec_a"])["iterations"] for row in csv.DictReader(f)] == [2, 2]


def test_valuefit_refuses_self_play_it_cannot_repeat_before_any_game(tmp_path):
    from pathlib import Path

    from fepaper.engines.training import training_rows
    from fepaper.engines.valuefit import train

    rows, opening = training_rows([Path(__file__).parents[1] / "data" / "strength" / "referee_challenger.jsonl"])
    kept = tmp_path / "selfplay.csv"
    with pytest.raises(ValueError, match="time_limit"):
        train(tmp_path / "a.npz", given=(rows[:4], opening[:4]), selfplay_games=2, games_file=kept,
              spec={"name": "bestfirst", "time_limit": 0.01}, progress=False)
    with pytest.raises(ValueError, match="without given"):
        train(tmp_path / "b.npz", selfplay_games=2, games_file=kept, progress=False)
    with pytest.raises(ValueError, match="search values for the"):
        train(tmp_path / "c.npz", given=(rows[:4], opening[:4]), values=np.zeros(5), progress=False)
    assert not kept.exists() and not list(tmp_path.glob("*.npz"))


#: A network fitted as the shipped engine networks are (fepaper.engines.enginenets.fit_recipe: the
#: referee files' positions, the engine's choices imitated), tiny and on 30 of the held-out engine games,
#: so the whole path runs in seconds. Refitting the fourteen shipped networks themselves takes tens of
#: minutes: notebook 08 does it at the paper budget (FEPAPER_BUDGET=paper fepaper reproduce
#: notebooks/08_strength.ipynb) and reports each one's largest gap to the shipped weights.
TINY_RECIPE = {"files": ("engine_games_30.jsonl",), "epochs": 2, "hidden": (8, 4), "imitate": ("qt_a", "qt_b"),
               "choice_weight": 2.0}
TINY_NET = Path(__file__).parent / "data" / "engine_net_tiny.npz"


def test_a_network_fitted_on_engine_games_is_the_committed_one_to_the_bit(tmp_path):
    """The engine networks' fitting path (training rows, imitation, seeded training, the file written)
    gives the same weights as when the committed file was written. To write it again after a deliberate
    change: FEPAPER_WRITE_FIXTURES=1 pytest -k committed_one_to_the_bit."""
    import os

    from fepaper.engines.enginenets import fit_recipe
    from fepaper.engines.training import training_rows
    from fepaper.search.valuefile import net_arrays

    data = TINY_NET.parent
    rows, opening = training_rows([data / name for name in TINY_RECIPE["files"]])
    assert len(rows) == 30
    out = TINY_NET if os.environ.get("FEPAPER_WRITE_FIXTURES") else tmp_path / "net.npz"
    result = fit_recipe(TINY_RECIPE, rows, opening, out, data)
    assert [h["epoch"] for h in result.history] == [1, 2]
    assert all(h["validation"] < 2.0 and h["choice"] > 0 for h in result.history)
    ours, committed = net_arrays(out), net_arrays(TINY_NET)
    assert sorted(ours) == sorted(committed)
    for key in committed:
        assert np.array_equal(ours[key], committed[key]), key


def test_a_spec_names_a_network_by_its_file_name_wherever_it_lies(tmp_path, monkeypatch):
    """A bare name is the shipped network, then one of a folder of FEPAPER_NETWORKS, then one of the
    checkout's data/strength/networks/ (the networks fepaper does not ship); a name none holds is
    refused naming the folders searched."""
    import shutil

    from fepaper.search.valuefile import (
        CHECKOUT_NETS,
        DEFAULT_NET,
        NETWORKS_ENV,
        SHIPPED_NETS,
        network_folders,
        network_path,
    )

    root = Path(__file__).parents[1]
    monkeypatch.delenv(NETWORKS_ENV, raising=False)
    assert network_path(None) == DEFAULT_NET and DEFAULT_NET.parent == SHIPPED_NETS
    assert network_path(DEFAULT_NET.name) == DEFAULT_NET
    assert network_folders() == [SHIPPED_NETS, root / CHECKOUT_NETS]
    assert network_path("value_engines9.npz") == root / CHECKOUT_NETS / "value_engines9.npz"
    assert network_path(str(tmp_path / "mine.npz")) == tmp_path / "mine.npz"
    with pytest.raises(ValueError, match=f"no network 'mine.npz'.*{NETWORKS_ENV}"):
        network_path("mine.npz")
    shutil.copy(root / CHECKOUT_NETS / "value_engines9.npz", tmp_path / "mine.npz")
    monkeypatch.setenv(NETWORKS_ENV, f"{tmp_path / 'empty'}{os.pathsep}{tmp_path}")
    assert network_path("mine.npz") == tmp_path / "mine.npz"
    game = Game("codingame", "2 0 3")
    bot = make({"name": "bestfirst", "net": "value_engines9.npz", "iterations": 20})
    assert bot.spec["net"] == "value_engines9.npz"  # the spec stays the same on any machine
    assert bot.choose_turn(game) in game.turns()
    with pytest.raises(ValueError, match="no network 'nowhere.npz'"):
        make({"name": "bestfirst", "net": "nowhere.npz"})


def test_the_package_ships_its_default_network_alone():
    """The networks fepaper ships are the default of bestfirst (the best measured); the others lie
    with their data."""
    from fepaper.controllers.bestfirst import BestFirst
    from fepaper.search.valuefile import DEFAULT_NET, SHIPPED_NETS

    assert sorted(SHIPPED_NETS.glob("*.npz")) == [DEFAULT_NET]
    assert make({"name": "bestfirst"}).evaluator == "net" and BestFirst.declared()["net"].default is None


@given(st.sampled_from(["codingame", "thesis", "standard", {"preset": "standard", "width": 4, "height": 6}]),
       st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_any_turn_is_a_legal_turn_found_without_a_listing(rules, seed, fraction):
    """``any_turn``, what a search plays when its clock ran out before it listed a turn, is one of
    the position's distinct turns (the slow listing, the reference), on random positions."""
    from fepaper.search.playouts import any_turn

    game = position(rules, seed, fraction)
    if game.is_over or small_turn_count(game) < 0:
        return
    assert any_turn(game) in {t.steps for t in game.turns()}


def test_a_search_that_lists_no_root_turn_answers_within_its_clock(monkeypatch):
    """With no root turn listed, best-first used to list the nearest turn with no clock at all
    (``max_states`` 200,000): ``time_limit`` 0.001 to 0.003 took 32 to 55 ms on a heavy position,
    and ``fepaper bot --ms 5`` answered in 99.7 ms. Now that listing gets only the time left, and
    with none left a walk of single steps gives a turn without listing any (no wall time is
    asserted: the listing's time limit and the walk are)."""
    import time

    import fepaper.search.bestfirst as bf
    from fepaper.bench.clock import TRACKER_POSITIONS
    from fepaper.game.game import TurnView

    limits = []

    def listing(*args, time_limit=None, **kw):
        limits.append(time_limit)
        return [], 0, True  # the clock cut it before its first turn

    def every_turn(self):
        raise AssertionError("a listing of every turn, without a clock")

    monkeypatch.setattr(bf, "choose_turns", listing)
    monkeypatch.setattr(TurnView, "__iter__", every_turn)
    for record in TRACKER_POSITIONS:
        for spent in (0.0, 1.0):  # a second of the budget spent: past the deadline
            game = Game("codingame", record)
            cfg = type("Settings", (), {"max_states": 200_000,
                                        "budget": bf.new_budget(0.001, start=time.perf_counter() - spent)})
            result, chosen = bf._answer(game, bf.kernel.new_tree(16, 128), cfg, bf.kernel.OUT_OF_TIME, 0.0, 1, 0)
            assert chosen == -1
            game.copy().push(result.turn)  # a legal whole turn
            if spent:
                assert limits == []  # no listing at all once the time is out
            else:
                assert limits.pop() <= 0.001
