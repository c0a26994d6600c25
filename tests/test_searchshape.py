"""How the thesis's search spends its steps (experiments/thesis/searchshape.py): the expansion
order of its alpha-beta (the ``ordering`` field), the average-case node count read as a base, and
the random step sequences of a turn that close a cycle (the compiled walk against its plain twin
over ``Game``)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper._core.cycles import closing_sequences
from fepaper.controllers import make, spec_of
from fepaper.controllers.params import SpecError
from fepaper.experiments.thesis.searchclaims import decision_costs
from fepaper.experiments.thesis.searchshape import (
    ORDERING_COLUMNS,
    closing_sequences_reference,
    cycle_shares,
    nodes_average_row,
    ordering_row,
    ordering_steps,
    useless_cycles_row,
)
from fepaper.game import Game
from fepaper.notebook.plots import short_name
from fepaper.play.randomplay import random_game
from fepaper.search.alphabeta import expansion_orders, thesis_line

SMALL = {"preset": "thesis", "width": 4, "height": 6}
DECIDER = {"name": "alphabeta", "variant": "dynamic", "depth": 2, "max_bounces": 15, "max_nodes": 1000000}
POSITIONS = ("0 54 2", "5 4 3 3 0 3 1 3", "5 4 3 3 0 3 1 3 17 54 666 4 7 4 1021 32")


def _position(rules, seed: int, cut: float) -> Game:
    """A turn start part-way through a seeded random game."""
    played = random_game(rules, np.random.default_rng(seed))
    return Game(rules, " ".join(played.history[: int(len(played.history) * cut)]))


# -- the expansion order -------------------------------------------------------------------------
def test_the_default_order_leaves_every_spec_and_label_as_it_was():
    """The field is shown only when it is not the thesis's order: the specs, hashes and labels of
    the players already played do not move."""
    assert spec_of(DECIDER) == DECIDER
    assert spec_of({**DECIDER, "ordering": "nearest"}) == DECIDER
    assert short_name(DECIDER) == short_name({**DECIDER, "ordering": "nearest"}) == "AB-dynamic L2 *fe78"
    fixed = spec_of({**DECIDER, "ordering": "fixed"})
    assert fixed == {**DECIDER, "ordering": "fixed"} and make(fixed).spec == fixed
    assert short_name(fixed) != short_name(DECIDER)
    with pytest.raises(SpecError, match="ordering"):
        make({**DECIDER, "ordering": "random"})
    with pytest.raises(ValueError, match="ordering"):
        thesis_line(Game("thesis"), ordering="random")


def test_the_fixed_order_is_the_directions_for_both_players_and_the_thesis_reverses_for_max():
    rules = Game("thesis").rules
    for row in (0, 1):
        near, far = expansion_orders(rules, row, "nearest")
        assert (far == near[:, ::-1]).all()
        fixed_min, fixed_max = expansion_orders(rules, row, "fixed")
        assert (fixed_min == np.arange(8)).all() and (fixed_max == np.arange(8)).all()


@given(st.integers(0, 10_000), st.floats(0.0, 0.9), st.integers(1, 2), st.sampled_from(["dynamic", "static"]))
def test_the_fixed_order_finds_the_same_values(seed, cut, level, variant):
    """Alpha-beta's root value does not depend on the order it tries the children in: only the
    steps it needs, and which of the tied turns it returns."""
    game = _position(SMALL, seed, cut)
    if game.is_over:
        return
    near = thesis_line(game, variant, level, 6)
    fixed = thesis_line(game, variant, level, 6, ordering="fixed")
    assert fixed.value == near.value and fixed.nodes > 0


def test_the_fixed_order_plays_a_legal_turn_under_a_cap():
    for moves in POSITIONS:
        game = Game("thesis", moves)
        for cap in (1, 500, None):
            spec = {**DECIDER, "ordering": "fixed", "max_nodes": cap}
            assert make(spec).choose_turn(game) in game.turns()


def test_ordering_steps_count_both_orders_and_reuse_the_thesis_decisions():
    positions = [Game("thesis", m) for m in POSITIONS]
    table = ordering_steps(positions, cap=20_000)
    assert list(table.columns) == ORDERING_COLUMNS and len(table) == 3
    assert (table[["steps_nearest", "steps_fixed"]] <= 20_000).all().all()
    assert (table[["steps_nearest", "steps_fixed"]] > 0).all().all()
    nearest = decision_costs(positions, 20_000)
    assert table.equals(ordering_steps(positions, cap=20_000, nearest=nearest))
    assert (table["steps_nearest"] == np.minimum(nearest["steps"], 20_000)).all()
    with pytest.raises(ValueError, match="nearest"):
        ordering_steps(positions, cap=20_000, nearest=nearest.head(2))
    r = ordering_row("thesis", table, seed=1)
    assert r["key"] == "ordering-effective" and r["unit"] == "ratio" and "counts as the cap" in r["note"]
    assert r["estimate"] == pytest.approx(table["steps_nearest"].sum() / table["steps_fixed"].sum())


def _steps(nearest, fixed):
    n = len(nearest)
    return pd.DataFrame({"position": range(n), "steps_nearest": nearest, "steps_fixed": fixed,
                         "stopped_nearest": False, "stopped_fixed": False, "same_turn": True})


def test_the_ordering_row_confirms_fewer_steps_and_refutes_more():
    rng = np.random.default_rng(3)
    base = rng.integers(1000, 100_000, 40)
    assert ordering_row("thesis", _steps(base // 2, base))["verdict"] == "confirmed"
    assert ordering_row("thesis", _steps(base * 2, base))["verdict"] == "refuted"
    assert ordering_row("thesis", _steps(base[:1], base[:1]))["verdict"] == "not decided"
    assert ordering_row("thesis", _steps([], []))["verdict"] == "not testable here"


# -- the average-case node count -----------------------------------------------------------------
def test_the_average_node_count_is_read_as_a_base():
    exact = nodes_average_row("thesis", pd.DataFrame({"steps": [4 ** 22.5] * 5, "stopped": False}), cap=10**15)
    assert exact["verdict"] == "confirmed" and exact["estimate"] == pytest.approx(4.0)
    small = nodes_average_row("thesis", pd.DataFrame({"steps": [1000, 3000, 2000, 5000], "stopped": False}))
    assert small["verdict"] == "refuted" and small["unit"] == "base b"
    assert small["estimate"] == pytest.approx(2750 ** (2 / 45))
    assert small["low"] <= small["estimate"] <= small["high"]
    assert "median 2,500" in small["note"] and "0 of 4" in small["note"]
    # a decision the cap stopped counts as the cap
    capped = nodes_average_row("thesis", pd.DataFrame({"steps": [100, 1030], "stopped": [False, True]}), cap=1000)
    assert capped["estimate"] == pytest.approx(550 ** (2 / 45)) and "1 of 2" in capped["note"]
    one = nodes_average_row("thesis", pd.DataFrame({"steps": [4 ** 22.5], "stopped": False}), cap=10**15)
    assert one["verdict"] == "not decided"
    none = nodes_average_row("thesis", pd.DataFrame({"steps": [], "stopped": []}))
    assert none["verdict"] == "not testable here"


# -- useless cycles ------------------------------------------------------------------------------
@given(st.integers(0, 10_000), st.floats(0.0, 1.0), st.integers(1, 20),
       st.sampled_from([SMALL, {**SMALL, "dead_end": "stop"}, "thesis", {"preset": "standard", "width": 4,
                                                                        "height": 4}]))
def test_the_compiled_sequences_close_the_cycles_their_twin_closes(seed, cut, max_bounces, rules):
    game = _position(rules, seed, cut)
    if game.is_over:
        return
    uniforms = np.random.default_rng(seed).random((60, max_bounces + 1))
    marks = game.marks.copy()
    fast = closing_sequences(marks, game.ball_index, game.board.arrays, game.rules.flags, max_bounces, uniforms)
    assert (marks == game.marks).all()
    assert (fast == closing_sequences_reference(game, uniforms, max_bounces)).all()


def test_sequences_close_cycles_where_the_ball_bounces_and_never_before_three_bounces():
    positions = [g for g in (_position(SMALL, s, 0.9) for s in range(12)) if not g.is_over]
    table = cycle_shares(positions, sequences=300, seed=5)
    assert table["closing"].sum() > 0
    assert ((table["share"] == table["closing"] / 300) & (table["sequences"] == 300)).all()
    # a cycle needs three steps back to a node (an edge is used once): two bounces stop before it
    assert cycle_shares(positions, sequences=300, seed=5, max_bounces=2)["closing"].sum() == 0
    assert table.equals(cycle_shares(positions, sequences=300, seed=5))
    assert cycle_shares(positions[:1], sequences=300, seed=5).iloc[0].equals(table.iloc[0])
    bounced = Game("thesis", "0")
    bounced.step(5)  # onto the middle line: a bounce, in the middle of a turn
    with pytest.raises(ValueError, match="turn start"):
        cycle_shares([bounced])


def test_the_useless_cycles_row_reads_rare_positions_of_few_cycles():
    def table(shares):
        return pd.DataFrame({"position": range(len(shares)), "sequences": 100, "closing": [int(s * 100) for s in shares],
                             "share": shares})

    assert useless_cycles_row("thesis", table([0.9] * 30))["verdict"] == "confirmed"
    refuted = useless_cycles_row("thesis", table([0.3] * 30))
    assert refuted["verdict"] == "refuted" and refuted["note"].startswith("30 of 30")
    assert useless_cycles_row("thesis", table([0.5, 0.9]))["note"].startswith("1 of 2")  # at most half: an event
    assert useless_cycles_row("thesis", table([]))["verdict"] == "not testable here"
