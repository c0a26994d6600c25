"""Value networks as plain ``.npz`` files: find by name, write, read (checked), cache.

A file holds float32 arrays ``w1`` (inputs x hidden1), ``b1``, ``w2`` (hidden1 x hidden2),
``b2``, ``w3`` (hidden2), ``b3`` (one value) and int64 arrays ``board`` (width, height,
goal width), ``k`` and ``turn_slots`` (the input layout of
:func:`fepaper._core.valuenet.layout_of`); nothing is pickled (it is read with
``allow_pickle=False``), so a file can be inspected with numpy alone.
"""

from __future__ import annotations

import os
import stat
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from .._checkout import find_checkout
from .._core.valuenet import ValueNet, layout_of
from ..game.board import Board
from ..game.rules import Rules

__all__ = ["save_value_net", "load_value_net", "null_net", "net_arrays", "network_path", "network_folders",
           "SHIPPED_NETS", "DEFAULT_NET", "SEARCH_NET", "NETWORKS_ENV", "CHECKOUT_NETS"]

#: The networks fepaper ships (package data): the default of ``bestfirst``'s ``net``, which is also the
#: best measured against the public engines (docs/interpretation.md: "the defaults of bestfirst").
SHIPPED_NETS = Path(__file__).parent.parent / "data"
#: The default network of ``bestfirst`` (CodinGame rules, 8 x 10).
DEFAULT_NET = SHIPPED_NETS / "value_engines25w2.npz"
#: The network that values positions by search (``fepaper net searchvalues``) unless told otherwise.
SEARCH_NET = DEFAULT_NET.name
#: An environment variable: more folders of networks, separated by ``os.pathsep``, searched by name
#: after the shipped ones.
NETWORKS_ENV = "FEPAPER_NETWORKS"
#: Where the networks fepaper does not ship lie in a checkout of its repository, next to the games
#: they were fitted on (relative to the checkout's root).
CHECKOUT_NETS = Path("data") / "strength" / "networks"


def network_folders() -> list[Path]:
    """The folders a network's bare name is looked up in, in order: the shipped networks
    (:data:`SHIPPED_NETS`), each folder of :data:`NETWORKS_ENV`, then, when fepaper serves a
    checkout of its repository (the one a run is started in, or installed from: see
    :mod:`fepaper._checkout`), the checkout's :data:`CHECKOUT_NETS`."""
    folders = [SHIPPED_NETS]
    folders += [Path(f) for f in os.environ.get(NETWORKS_ENV, "").split(os.pathsep) if f.strip()]
    root = find_checkout()
    if root is not None and (root / CHECKOUT_NETS).is_dir():
        folders.append(root / CHECKOUT_NETS)
    return folders


def network_path(net: str | Path | None) -> Path:
    """The file of a spec's ``net``: ``None`` is :data:`DEFAULT_NET`; a bare file name (no folder)
    is looked up in :func:`network_folders`, the first that holds it; anything else is a path.

    Raises
    ------
    ValueError
        For a bare name no folder holds, naming the folders searched and how to add one.

    Examples
    --------
    >>> network_path(None).name
    'value_engines25w2.npz'
    >>> network_path("./mine.npz")
    PosixPath('mine.npz')
    """
    if net is None:
        return DEFAULT_NET
    if not (isinstance(net, str) and Path(net).name == net):
        return Path(net)
    folders = network_folders()
    for folder in folders:
        if (folder / net).is_file():
            return folder / net
    shipped = ", ".join(sorted(f.name for f in SHIPPED_NETS.glob("*.npz")))
    raise ValueError(f"no network {net!r}: fepaper ships {shipped}; the others lie in its repository's "
                     f"{CHECKOUT_NETS.as_posix()}/ (found when fepaper runs inside a clone) or in a folder "
                     f"named by the environment variable {NETWORKS_ENV} (searched: "
                     f"{', '.join(map(str, folders))}); or give the file's path, e.g. ./{net}")

_KEYS = ("w1", "b1", "w2", "b2", "w3", "b3", "board", "k", "turn_slots")


def save_value_net(
    path: str | Path, w1, b1, w2, b2, w3, b3, rules: Rules | str, k: int, turn_slots: int
) -> Path:
    """Write a network for ``rules``' board (:func:`fepaper.game.writes.write_atomic`: a temporary
    file, ``fsync``, a rename; never through a link, in a folder that exists)."""
    import io

    from ..game.writes import write_atomic

    rules = Rules.from_spec(rules)
    buffer = io.BytesIO()
    np.savez(
        buffer,
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
    return write_atomic(path, buffer.getvalue(), "network file")


#: The largest hidden layer a network file may declare (the shipped networks have 32 to 128 units).
MAX_HIDDEN = 4096
#: The largest turn distance a network's inputs may tell apart (``k``; the shipped networks: 6).
MAX_K = 64
#: The most turn slots a network's inputs may have (``turn_slots``; the shipped networks: 12).
MAX_TURN_SLOTS = 1024
#: The most bytes a network file's arrays may take, checked before any is read (the shipped
#: networks take under 1 MB).
MAX_BYTES = 1 << 28

_FLOAT_NDIM = {"w1": 2, "b1": 1, "w2": 2, "b2": 1, "w3": 1, "b3": 1}


def _headers(path: Path) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """The shape and dtype of every array of an ``.npz`` file, from the headers alone (no array read)."""
    out = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.filename.endswith(".npy"):
                raise ValueError(f"{info.filename!r} is not an array")
            with archive.open(info) as member:
                version = np.lib.format.read_magic(member)
                if version == (1, 0):
                    shape, _, dtype = np.lib.format.read_array_header_1_0(member)
                else:
                    shape, _, dtype = np.lib.format.read_array_header_2_0(member)
            out[info.filename[:-4]] = (shape, dtype)
    return out


def net_arrays(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of a network file, checked completely before any array is read: names,
    dtypes, every shape against the board the file claims and its input layout (``k`` in
    ``0 .. MAX_K``, ``turn_slots`` in ``1 .. MAX_TURN_SLOTS``, hidden layers of at most
    :data:`MAX_HIDDEN` units, at most :data:`MAX_BYTES` in all), then finite values.

    Raises
    ------
    ValueError
        Naming the file, the field and what is wrong.
    """
    path = Path(path)

    def bad(field: str, why: str):
        raise ValueError(f"{path}: {field}: {why}")

    try:
        info = os.stat(path)
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):  # a device or FIFO would be read for ever
        raise ValueError(f"{path}: not a value network file (not a regular file)")
    if info.st_size > MAX_BYTES + (1 << 20):
        raise ValueError(f"{path}: not a value network file ({info.st_size:,} bytes, more than a network "
                         f"of {MAX_BYTES:,} bytes of weights)")
    try:
        headers = _headers(path)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, SyntaxError) as exc:
        raise ValueError(f"{path}: not a value network file ({' '.join(str(exc).split())[:200]})") from None
    if sorted(headers) != sorted(_KEYS):
        names = sorted(headers)[:20]
        raise ValueError(f"{path}: a value network file holds exactly {list(_KEYS)}, got {names}")
    shape = {key: headers[key][0] for key in _KEYS}
    for key in _KEYS:
        want = np.dtype(np.float32) if key in _FLOAT_NDIM else np.dtype(np.int64)
        if headers[key][1] != want:
            bad(key, f"must be {want} (little-endian), got {headers[key][1]}")
        ndim = _FLOAT_NDIM.get(key, 1)
        if len(shape[key]) != ndim:
            bad(key, f"must have {ndim} dimension(s), got shape {shape[key]}")
    for key, size in (("board", 3), ("k", 1), ("turn_slots", 1), ("b3", 1)):
        if shape[key] != (size,):
            bad(key, f"must have shape ({size},), got {shape[key]}")
    hidden1, hidden2 = shape["w1"][1], shape["w2"][1]
    for key, units in (("w1", hidden1), ("w2", hidden2)):
        if not 1 <= units <= MAX_HIDDEN:
            bad(key, f"a hidden layer has 1 to {MAX_HIDDEN} units, got {units}")
    chained = {"b1": (hidden1,), "w2": (hidden1, hidden2), "b2": (hidden2,), "w3": (hidden2,)}
    for key, want in chained.items():
        if shape[key] != want:
            bad(key, f"the layers' shapes do not fit together: shape {shape[key]}, not {want}")
    with np.load(path, allow_pickle=False) as data:  # three small arrays, their shapes checked above
        board, k, slots = (data[key] for key in ("board", "k", "turn_slots"))
    try:
        sides = {"width": int(board[0]), "height": int(board[1]), "goal_width": int(board[2])}
        rules = [Rules.from_spec({"preset": "standard", **sides, "middle_line": m}) for m in (False, True)]
    except ValueError as exc:
        bad("board", f"not a board fepaper plays on: {exc}")
    k, slots = int(k[0]), int(slots[0])
    if not 0 <= k <= MAX_K:
        bad("k", f"turn distances one-hot up to k, with k from 0 to {MAX_K}, got {k}")
    if not 1 <= slots <= MAX_TURN_SLOTS:
        bad("turn_slots", f"from 1 to {MAX_TURN_SLOTS}, got {slots}")
    # the file does not say whether the middle line is marked from the start (its edges are then no input)
    layouts = {_layout(r, k, slots).n_inputs for r in rules}
    inputs = shape["w1"][0]
    if inputs not in layouts:
        made = " or ".join(map(str, sorted(layouts)))
        bad("w1", f"{inputs} input rows, but k = {k} and turn_slots = {slots} on a {rules[0].width} x "
            f"{rules[0].height} board (goal {rules[0].goal_width}) make {made} inputs")
    size = 4 * (inputs * hidden1 + hidden1 * hidden2 + hidden1 + 2 * hidden2 + 1)
    if size > MAX_BYTES:
        bad("w1", f"the layers take {size:,} bytes, more than the {MAX_BYTES:,} a network file may")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in _KEYS}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: not a value network file ({' '.join(str(exc).split())[:200]})") from None
    for key in _FLOAT_NDIM:
        if arrays[key].shape != shape[key] or not np.all(np.isfinite(arrays[key])):
            bad(key, "must hold finite float32 values")
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
