"""Value networks as plain ``.npz`` files: write, read (checked), cache.

A file holds float32 arrays ``w1`` (inputs x hidden1), ``b1``, ``w2`` (hidden1 x hidden2),
``b2``, ``w3`` (hidden2), ``b3`` (one value) and int64 arrays ``board`` (width, height,
goal width), ``k`` and ``turn_slots`` (the input layout of
:func:`fepaper._core.valuenet.layout_of`); nothing is pickled (it is read with
``allow_pickle=False``), so a file can be inspected with numpy alone.
"""

from __future__ import annotations

import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from .._core.valuenet import ValueNet, layout_of
from ..game.board import Board
from ..game.rules import Rules

__all__ = ["save_value_net", "load_value_net", "null_net", "net_arrays"]

_KEYS = ("w1", "b1", "w2", "b2", "w3", "b3", "board", "k", "turn_slots")


def save_value_net(
    path: str | Path, w1, b1, w2, b2, w3, b3, rules: Rules | str, k: int, turn_slots: int
) -> Path:
    """Write a network for ``rules``' board (atomically: a temporary file, then a rename)."""
    rules = Rules.from_spec(rules)
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(
        tmp,
        w1=np.asarray(w1, np.float32),
        b1=np.asarray(b1, np.float32),
        w2=np.asarray(w2, np.float32),
        b2=np.asarray(b2, np.float32),
        w3=np.asarray(w3, np.float32),
        b3=np.asarray([b3], np.float32),
        board=np.array([rules.width, rules.height, rules.goal_width], np.int64),
        k=np.array([k], np.int64),
        turn_slots=np.array([turn_slots], np.int64),
    )
    tmp.replace(path)
    return path


def net_arrays(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of a network file, checked (names, dtypes, shapes, finite values).

    Raises
    ------
    ValueError
        Naming the file and what is wrong.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: not a value network file ({exc})") from None
    if sorted(arrays) != sorted(_KEYS):
        raise ValueError(f"{path}: a value network file holds exactly {list(_KEYS)}, got {sorted(arrays)}")
    w1, b1, w2, b2, w3, b3 = (arrays[k] for k in _KEYS[:6])
    shapes_ok = (
        w1.ndim == 2
        and b1.shape == (w1.shape[1],)
        and w2.ndim == 2
        and w2.shape[0] == w1.shape[1]
        and b2.shape == (w2.shape[1],)
        and w3.shape == (w2.shape[1],)
        and b3.shape == (1,)
        and arrays["board"].shape == (3,)
        and arrays["k"].shape == (1,)
        and arrays["turn_slots"].shape == (1,)
    )
    if not shapes_ok:
        raise ValueError(f"{path}: the layers' shapes do not fit together")
    for key in _KEYS[:6]:
        if arrays[key].dtype != np.float32 or not np.all(np.isfinite(arrays[key])):
            raise ValueError(f"{path}: {key} must hold finite float32 values")
    return arrays


@lru_cache(maxsize=8)
def _load(path: str, mtime: float) -> tuple[dict, tuple]:
    arrays = net_arrays(path)
    width, height, goal = (int(x) for x in arrays["board"])
    return arrays, (width, height, goal)


def load_value_net(path: str | Path, rules: Rules | str | None) -> ValueNet:
    """The :class:`~fepaper._core.valuenet.ValueNet` of a file, for ``rules``' board (``None``:
    just check the file). Cached by path and modification time.

    Raises
    ------
    ValueError
        For a damaged file, or a network of another board or input layout.
    """
    path = Path(path)
    try:
        mtime = path.stat().st_mtime
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None
    arrays, shape = _load(str(path), mtime)
    if rules is None:
        rules = Rules.from_spec(
            {"preset": "standard", "width": shape[0], "height": shape[1], "goal_width": shape[2]}
        )
    rules = Rules.from_spec(rules)
    if (rules.width, rules.height, rules.goal_width) != shape:
        raise ValueError(
            f"{path}: a network of a {shape[0]} x {shape[1]} board (goal {shape[2]}), not of "
            f"{rules.width} x {rules.height} (goal {rules.goal_width})"
        )
    layout = _layout(rules, int(arrays["k"][0]), int(arrays["turn_slots"][0]))
    if arrays["w1"].shape[0] != layout.n_inputs:
        raise ValueError(
            f"{path}: {arrays['w1'].shape[0]} inputs, but this board's layout has {layout.n_inputs}"
        )
    return ValueNet(
        arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"], arrays["w3"], float(arrays["b3"][0]), layout
    )


@lru_cache(maxsize=8)
def _layout(rules: Rules, k: int, turn_slots: int):
    return layout_of(Board.of(rules), k, turn_slots)


def null_net(board: Board) -> ValueNet:
    """A network of one hidden unit on ``board`` (for searches whose evaluator is not a network:
    the compiled code takes a network either way)."""
    layout = _layout(board.rules, 6, 12)
    z = np.zeros
    return ValueNet(
        z((layout.n_inputs, 1), np.float32),
        z(1, np.float32),
        z((1, 1), np.float32),
        z(1, np.float32),
        z(1, np.float32),
        0.0,
        layout,
    )
