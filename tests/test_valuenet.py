"""The compiled value network against the trainer's numpy forward pass (its slow reference)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fepaper._core.tactics import new_scratch
from fepaper._core.valuenet import ValueNet, dense_inputs, encode_examples, layout_of, net_values
from fepaper.engines.valuefit import _forward

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


# -- network files: every field checked before any kernel sees it ------------------------------------------
def _npz(path, arrays: dict, huge: dict | None = None):
    """Write ``arrays`` as an ``.npz``; each of ``huge`` (name: shape) as a header declaring that
    shape over no data (a file that asks the reader to allocate it)."""
    import io
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name, value in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(value))
            archive.writestr(f"{name}.npy", buffer.getvalue())
        for name, shape in (huge or {}).items():
            buffer = io.BytesIO()
            np.lib.format.write_array_header_1_0(buffer, {"descr": "<f4", "fortran_order": False,
                                                          "shape": shape})
            archive.writestr(f"{name}.npy", buffer.getvalue() + b"\0" * 64)
    return path


def _shipped():
    from fepaper.search.valuefile import SHIPPED_NETS, net_arrays

    return net_arrays(SHIPPED_NETS / "value_engines25w2.npz")


def test_a_crafted_network_file_is_refused_before_any_kernel_sees_it(tmp_path):
    """The tracker's files: ``k`` of -10**7 with ``turn_slots`` making the input count match
    ``w1`` (a segmentation fault in the kernels), ``k`` of -5 (reads out of bounds), a header
    declaring 4.6 TiB; and more: every index range and shape against the board the file claims."""
    from fepaper.search.valuefile import load_value_net, net_arrays

    good = _shipped()
    inputs = good["w1"].shape[0]
    n_nodes = 105
    # k = -10**7: the input count n * (k + 2) + ... + turn_slots still equals w1's rows
    slots = inputs - (n_nodes * (-10**7 + 2) + (inputs - 12 - n_nodes * 8 - n_nodes) + n_nodes)
    cases = {
        "k": ({"k": np.array([-10**7], np.int64), "turn_slots": np.array([slots], np.int64)}, None),
        "k ": ({"k": np.array([-5], np.int64)}, None),
        "turn_slots": ({"turn_slots": np.array([0], np.int64)}, None),
        "turn_slots ": ({"turn_slots": np.array([10**9], np.int64)}, None),
        "board": ({"board": np.array([1000, 10, 2], np.int64)}, None),
        "board ": ({"board": np.array([7, 10, 2], np.int64)}, None),
        "w1": ({}, {"w1": (inputs, 10**9)}),
        "w1 ": ({}, {"w1": (10**9, 128)}),
        "b3": ({"b3": np.zeros(3, np.float32)}, None),
        "k  ": ({"k": np.array([6.0], np.float64)}, None),
        "w2": ({"w2": good["w2"].astype(np.float64)}, None),
    }
    for field, (changed, huge) in cases.items():
        arrays = {key: value for key, value in {**good, **changed}.items() if key not in (huge or {})}
        path = _npz(tmp_path / f"bad{len(list(tmp_path.iterdir()))}.npz", arrays, huge)
        with pytest.raises(ValueError, match=f"^{path}: {field.strip()}: ") as caught:
            net_arrays(path)
        assert len(str(caught.value)) < 300
        with pytest.raises(ValueError, match=field.strip()):
            load_value_net(path, "codingame")
    for device in ("/dev/urandom", "/dev/zero"):  # read for ever before
        with pytest.raises(ValueError, match="not a regular file"):
            net_arrays(device)
    # the untouched arrays, rewritten the same way, are a network
    assert net_arrays(_npz(tmp_path / "same.npz", dict(good)))["k"][0] == 6


def test_a_crafted_network_file_is_a_one_line_error_of_agree(tmp_path):
    import subprocess
    import sys

    good = _shipped()
    path = _npz(tmp_path / "bad.npz", {**good, "k": np.array([-5], np.int64)})
    games = tmp_path / "games.jsonl"
    games.write_text("")
    run = subprocess.run([sys.executable, "-m", "fepaper.cli", "net", "agree", str(path), "--games", str(games),
                          "--imitate", "A"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("fepaper net agree: error: ") and f"{path}: k: " in run.stderr
    assert run.stderr.count("\n") == 1
