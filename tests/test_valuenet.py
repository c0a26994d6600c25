"""The compiled value network against the trainer's numpy forward pass (its slow reference)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper._core.tactics import new_scratch
from fepaper._core.valuenet import ValueNet, dense_inputs, encode_examples, layout_of, net_values
from fepaper.experiments.valuefit import _forward

from .helpers import position


def _random_net(board, hidden1, hidden2, seed):
    """A network of random weights (biases included, some large enough to switch units off)."""
    layout = layout_of(board)
    rng = np.random.default_rng(seed)
    w = {"w1": rng.normal(0, 0.3, (layout.n_inputs, hidden1)), "b1": rng.normal(0, 1.0, hidden1),
         "w2": rng.normal(0, 0.5, (hidden1, hidden2)), "b2": rng.normal(0, 0.5, hidden2),
         "w3": rng.normal(0, 0.5, hidden2), "b3": rng.normal(0, 0.3, 1)}
    w = {k: v.astype(np.float32) for k, v in w.items()}
    net = ValueNet(w["w1"], w["b1"], w["w2"], w["b2"], w["w3"], float(w["b3"][0]), layout)
    return net, w


@given(st.integers(0, 10_000), st.floats(0.0, 1.0), st.sampled_from([1, 3, 4, 7, 128]),
       st.sampled_from([1, 5, 32]), st.integers(0, 2**16), st.sampled_from([0, 66]))
def test_the_compiled_network_values_a_position_as_the_trainers_forward_pass(seed, fraction, hidden1, hidden2,
                                                                              wseed, max_turns):
    """The search's network (its first layer a sum of rows, its second four rows a pass) gives
    every position the value of the numpy forward pass the trainer fits, on the position's
    dense inputs, for random weights and hidden sizes that are and are not multiples of four."""
    game = position("codingame", seed, fraction)
    if game.is_over:
        return
    b = game.board
    net, w = _random_net(b, hidden1, hidden2, wseed)
    marks, ball = game.marks[None, :].copy(), np.array([game.ball_index], np.int64)
    mover, played = np.array([game.player], np.int64), np.array([len(game.history)], np.int64)
    fast = net_values(net, marks, ball, mover, played, max_turns, b.arrays)
    dist, queue = new_scratch(b.n_nodes)
    scratch = np.zeros(2 * b.n_nodes + b.n_edges + 2, np.int64)
    indices, offsets = encode_examples(marks, ball, mover, played, max_turns, b.arrays, net.layout, False, dist,
                                       queue, scratch)
    x = dense_inputs(indices, offsets, np.arange(1), net.layout.n_inputs)
    slow = _forward(w, x)[-1]
    assert fast[0] == pytest.approx(float(slow[0]), abs=1e-5), (game.moves, hidden1, hidden2)
