"""Train a value network by self-play: games, positions, inputs, a fit in numpy, a file.

1. :func:`selfplay` plays ``games`` games of one controller spec against itself, each from
   its own seeded random opening (``openings``: a range of turn counts), through
   :func:`fepaper.play.arena.run_games` (a resumable games file, a pool of workers).
   With a fixed number of iterations per decision the games, and so everything after, are
   the same on every run.
2. :func:`positions` turns every turn-start position of those games into an example:
   the marks, the ball, the player to move, the turns played, and the game's result for
   that player (+1 won, -1 lost, 0 drawn).
3. :func:`encode` lists each example's active inputs
   (:func:`fepaper._core.valuenet.active_inputs`), also mirrored left to right.
4. :func:`fit` trains the network of :mod:`fepaper._core.valuenet` on them (mean squared
   error of ``tanh``'s output, Adam, minibatches, a validation share of whole games held
   out, the epoch with the lowest validation error kept), in float32 numpy on the CPU.
5. :func:`fepaper.search.valuefile.save_value_net` writes the ``.npz``.

Instead of self-play, :func:`train` can fit on given games with their groups, such as the
games of ``fepaper referee`` files (:func:`fepaper.engines.training.training_rows`:
fepaper's games against other engines, or an engine's against itself, both sides'
positions, the games from one opening held out together, since a nearly deterministic
engine replays much the same game from the same opening), or on given games and self-play
games together (``selfplay_games``): one step of reinforcement, the self-play player being
the search with the network fitted before (a ``bestfirst`` spec with ``evaluator`` ``net``).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._core.tactics import new_scratch
from .._core.valuenet import dense_inputs, encode_examples, layout_of
from ..controllers import spec_of
from ..game.game import Game
from ..game.rules import Rules
from ..play.arena import run_games
from ..play.randomplay import random_game
from .examples import PositionArrays
from .imitation import choice_loss, choice_rows, choices

__all__ = ["selfplay_jobs", "selfplay", "selfplay_rows", "positions", "encode", "FitResult", "fit",
           "SELFPLAY_SPEC", "SELFPLAY_NAME", "blend", "train"]


def selfplay_jobs(spec, games: int, seed: int = 0, rules="codingame", openings=(2, 8)) -> list[dict]:
    """The schedule of :func:`selfplay`: game ``k`` starts from a random game (uniform random
    steps) of ``lo .. hi`` turns seeded by ``[seed, k]``, with player 1 and 2 alternating the
    spec's two copies (A is player 1 in even games)."""
    rules = Rules.from_spec(rules)
    spec = spec_of(spec)
    lo, hi = openings
    if not (isinstance(lo, int) and isinstance(hi, int) and 0 <= lo <= hi):
        raise ValueError(f"openings must be a range (lo, hi) of turn counts, got {openings!r}")
    jobs = []
    for k in range(games):
        rng = np.random.default_rng([seed, k])
        while True:
            opening = random_game(rules, seed=rng, max_turns=int(rng.integers(lo, hi + 1)))
            if not opening.is_over:
                break
        jobs.append(
            {
                "pairing": 0,
                "game": k,
                "rules": rules.to_dict(),
                "spec_a": spec,
                "spec_b": spec,
                "seed": int(rng.integers(2**63)),
                "a_player": 1 + k % 2,
                "opening": opening.moves,
            }
        )
    return jobs


def selfplay(
    spec,
    games: int,
    out=None,
    seed: int = 0,
    rules="codingame",
    openings=(2, 8),
    executor=None,
    progress: bool = True,
) -> list[dict]:
    """Play (or resume, from ``out``) the games of :func:`selfplay_jobs`; return their rows."""
    from ..play.gamefile import PLAY_VERSION

    jobs = selfplay_jobs(spec, games, seed, rules, openings)
    meta = {
        "library": "fepaper",
        "version": PLAY_VERSION,
        "rules": Rules.from_spec(rules).to_dict(),
        "specs": [spec_of(spec)],
        "games": games,
        "seed": seed,
        "budget": None,
        "opening_turns": list(openings),
    }
    return run_games(jobs, out, executor, progress=progress, meta=meta)


def positions(rows: list[dict], rules="codingame") -> dict[str, np.ndarray]:
    """Every turn-start position of the games in ``rows`` (arena rows), with its label.

    Returns arrays ``marks`` (positions x nodes), ``ball``, ``mover``, ``played`` (turns
    before it), ``target`` (the result for the mover: 1, -1 or 0) and ``game`` (the row's
    index).
    """
    rules = Rules.from_spec(rules)
    found, target, game_of = PositionArrays(Game(rules).board.n_nodes), [], []
    for k, row in enumerate(rows):
        turns = row["moves"].split()
        game = Game(rules)
        winner = {"a": row["a_player"], "b": 3 - row["a_player"], "draw": 0}[row["winner"]]
        for turn in turns:
            found.add(game.marks, game.ball_index, game.player, len(game.history))
            target.append(0.0 if winner == 0 else (1.0 if winner == game.player else -1.0))
            game_of.append(k)
            game.push(turn)
    return {**found.arrays(), "target": np.array(target, np.float32), "game": np.array(game_of, np.int64)}


def encode(pos: dict, rules="codingame", k: int = 6, turn_slots: int = 12, mirror: bool = False):
    """``(indices, offsets)``: the active inputs of example ``i`` are
    ``indices[offsets[i]:offsets[i + 1]]`` (int16), mirrored with ``mirror``."""
    rules = Rules.from_spec(rules)
    game = Game(rules)
    board = game.board
    layout = layout_of(board, k, turn_slots)
    dist, queue = new_scratch(board.n_nodes)
    scratch = np.zeros(2 * board.n_nodes + board.n_edges + 2, np.int64)
    return encode_examples(
        pos["marks"],
        pos["ball"],
        pos["mover"],
        pos["played"],
        rules.flags.max_turns,
        board.arrays,
        layout,
        mirror,
        dist,
        queue,
        scratch,
    )


@dataclass
class FitResult:
    """The weights of :func:`fit` (``w1, b1, w2, b2, w3, b3``), its ``history`` (one dict per
    epoch: ``epoch``, ``train``, ``validation`` mean squared errors, ``seconds``) and the
    ``best_epoch`` whose weights are kept."""

    weights: dict
    history: list = field(default_factory=list)
    best_epoch: int = 0


def _stack(data):
    """One (indices, offsets) of all encodings: example ``e * n + i`` is example ``i`` of encoding ``e``."""
    indices = np.concatenate([d[0] for d in data])
    offsets = [np.zeros(1, np.int64)]
    base = 0
    for idx, off in data:
        offsets.append(off[1:] + base)
        base += idx.shape[0]
    return indices, np.concatenate(offsets)


def _forward(w, x):
    z1 = x @ w["w1"] + w["b1"]
    a1 = np.maximum(z1, 0)
    z2 = a1 @ w["w2"] + w["b2"]
    a2 = np.maximum(z2, 0)
    y = np.tanh(a2 @ w["w3"] + w["b3"])
    return z1, a1, z2, a2, y


def _error(w, data, rows, target, n_inputs, batch=2048) -> float:
    total = 0.0
    for s in range(0, len(rows), batch):
        part = rows[s : s + batch]
        y = _forward(w, dense_inputs(data[0], data[1], part, n_inputs))[-1]
        total += float(np.sum((y - target[part]) ** 2))
    return total / max(len(rows), 1)


def _choice_error(w, data, first, counts, chosen, n_inputs, beta, batch=512):
    """Mean cross-entropy and share of agreement over the decisions ``first``/``counts``."""
    loss = agree = 0.0
    for s in range(0, len(first), batch):
        rows, which = choice_rows(first[s : s + batch], counts[s : s + batch])
        y = _forward(w, dense_inputs(data[0], data[1], rows, n_inputs))[-1]
        part_loss, _, part_agree = choice_loss(y, chosen[rows], which, len(first[s : s + batch]), beta)
        loss += part_loss * len(first[s : s + batch])
        agree += part_agree
    return loss / max(len(first), 1), agree / max(len(first), 1)


def fit(
    data: list[tuple[np.ndarray, np.ndarray]],
    target: np.ndarray,
    groups: np.ndarray,
    n_inputs: int,
    hidden: tuple[int, int] = (64, 32),
    epochs: int = 20,
    batch: int = 256,
    lr: float = 1e-3,
    l2: float = 1e-5,
    validation: float = 0.1,
    seed: int = 0,
    progress=None,
    choice=None,
    choice_weight: float = 0.25,
    beta: float = 5.0,
) -> FitResult:
    """Fit the value network to ``target`` (one value per example).

    Parameters
    ----------
    data : list of (indices, offsets)
        The examples' active inputs, once per encoding (e.g. as is and mirrored): every
        encoding of an example is trained on, with the same target.
    groups : ndarray
        The game of each example: a ``validation`` share of whole games (drawn with
        ``seed``) is held out.
    hidden : (int, int)
        Units of the two hidden layers.
    progress : callable, optional
        ``progress(history_row)`` after each epoch.
    choice : (list of (indices, offsets), decision, chosen), optional
        Decisions to learn from as well (:func:`fepaper.engines.imitation.choices`): the
        positions after the turns, once per encoding as ``data``, the example each decision
        was made at, and which turn was chosen. A minibatch's examples that are decisions add
        ``choice_weight`` times the softmax cross-entropy of ``-beta`` times the values of
        their positions (the mover's preference) against the chosen turn; the decisions are
        held out with their games, and an epoch's held-out score adds theirs the same way.
        The history then also holds ``choice`` and ``choice_validation``, ``choice_uniform``
        (the held-out cross-entropy of a uniform guess), and ``agree``: the held-out share of
        decisions whose chosen turn the network values best.
    """
    from .._blas import fit_kernels_warning

    why = fit_kernels_warning()
    if why:
        warnings.warn(why, RuntimeWarning, stacklevel=2)
    rng = np.random.default_rng(seed)
    games = np.unique(groups)
    held = (
        set(rng.choice(games, size=max(1, int(round(validation * len(games)))), replace=False).tolist())
        if validation > 0
        else set()
    )
    is_val = np.array([g in held for g in groups])
    train_rows = np.flatnonzero(~is_val)
    val_rows = np.flatnonzero(is_val)
    h1, h2 = hidden
    w = {
        "w1": (rng.standard_normal((n_inputs, h1)) / np.sqrt(120.0)).astype(np.float32),
        "b1": np.zeros(h1, np.float32),
        "w2": (rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)).astype(np.float32),
        "b2": np.zeros(h2, np.float32),
        "w3": (rng.standard_normal(h2) * np.sqrt(1.0 / h2)).astype(np.float32),
        "b3": np.zeros(1, np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in w.items()}
    v2 = {k: np.zeros_like(v) for k, v in w.items()}
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    step = 0
    best = (np.inf, 0, {k: a.copy() for k, a in w.items()})
    history = []
    n = target.shape[0]
    indices, offsets = _stack(data)
    order = np.concatenate([e * n + train_rows for e in range(len(data))]).astype(np.int64)
    if choice is not None:
        choice_data, decision, chosen = choice
        n_choice = len(chosen)
        c_indices, c_offsets = _stack(choice_data)
        c_start = np.zeros(n, np.int64)
        c_count = np.zeros(n, np.int64)
        at = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
        c_start[decision[at]] = at
        c_count[decision[at]] = np.diff(np.r_[at, n_choice])
        held_decisions = val_rows[c_count[val_rows] > 0]
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        rng.shuffle(order)
        total = choice_total = 0.0
        for s in range(0, len(order), batch):
            part = order[s : s + batch]
            x = dense_inputs(indices, offsets, part, n_inputs)
            t = target[part % n]
            if choice is not None:  # the decisions among the examples: their positions after the turns, below
                ex = part % n
                made = c_count[ex] > 0
                first = c_start[ex[made]] + (part[made] // n) * n_choice  # the encoding's block of positions
                rows, which = choice_rows(first, c_count[ex[made]])
                x = np.vstack([x, dense_inputs(c_indices, c_offsets, rows, n_inputs)])
            z1, a1, z2, a2, y = _forward(w, x)
            diff = y[: len(part)] - t
            total += float(np.sum(diff**2))
            dy = (2.0 / len(part)) * diff
            if choice is not None and len(rows):
                decided = int(made.sum())
                loss, grad, _ = choice_loss(y[len(part):], chosen[rows % n_choice], which, decided, beta)
                choice_total += loss * decided
                dy = np.concatenate([dy, choice_weight * grad])
            dz3 = dy * (1.0 - y * y)
            grads = {"w3": a2.T @ dz3, "b3": np.array([dz3.sum()], np.float32)}
            dz2 = np.outer(dz3, w["w3"]) * (z2 > 0)
            grads["w2"], grads["b2"] = a1.T @ dz2, dz2.sum(axis=0)
            dz1 = (dz2 @ w["w2"].T) * (z1 > 0)
            grads["w1"], grads["b1"] = x.T @ dz1, dz1.sum(axis=0)
            step += 1
            for k in w:
                g = grads[k].astype(np.float32) + (l2 * w[k] if k.startswith("w") else 0)
                m[k] = b1_ * m[k] + (1 - b1_) * g
                v2[k] = b2_ * v2[k] + (1 - b2_) * g * g
                mh = m[k] / (1 - b1_**step)
                vh = v2[k] / (1 - b2_**step)
                w[k] = (w[k] - lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        val = _error(w, data[0], val_rows, target, n_inputs) if len(val_rows) else float("nan")
        row = {
            "epoch": epoch,
            "train": total / len(order),
            "validation": val,
            "seconds": time.perf_counter() - start,
        }
        score = val if len(val_rows) else row["train"]
        if choice is not None:
            row["choice"] = choice_total / max(1, int(np.sum(c_count[order % n] > 0)))
            if len(held_decisions):
                held = (c_start[held_decisions], c_count[held_decisions])
                row["choice_validation"], row["agree"] = _choice_error(
                    w, (c_indices, c_offsets), *held, chosen, n_inputs, beta)
                row["choice_uniform"] = float(np.mean(np.log(held[1])))
            else:
                row["choice_validation"] = row["agree"] = row["choice_uniform"] = float("nan")
            score += choice_weight * (row["choice_validation"] if len(held_decisions) else row["choice"])
        history.append(row)
        if progress is not None:
            progress(row)
        if score < best[0]:
            best = (score, epoch, {k: a.copy() for k, a in w.items()})
    return FitResult(best[2], history, best[1])


#: The self-play player of :func:`train`: best-first minimax valued by turn distances, a fixed
#: number of iterations per decision (so the games do not depend on the machine's speed).
SELFPLAY_SPEC = {"name": "bestfirst", "evaluator": "distance", "iterations": 80}
#: The self-play games of a fit from self-play alone (:func:`train`, ``fepaper net fit``).
SELFPLAY_GAMES = 160


#: The name both sides of a self-play game have among given referee games (never imitated).
SELFPLAY_NAME = "self-play"


def selfplay_rows(rows: list[dict]) -> list[dict]:
    """Self-play games (:func:`selfplay`'s rows) as the rows of referee files
    (:func:`fepaper.engines.training.training_rows`): both sides named :data:`SELFPLAY_NAME`,
    the opening's turns counted."""
    return [{"moves": row["moves"], "a_player": row["a_player"], "winner": row["winner"],
             "names": (SELFPLAY_NAME, SELFPLAY_NAME), "opening_turns": len(row["opening"].split())}
            for row in rows]


def _report(row) -> None:
    text = f"epoch {row['epoch']}: train {row['train']:.4f}, validation {row['validation']:.4f}"
    if "choice" in row:
        text += (f"; choices: train {row['choice']:.4f}, validation {row['choice_validation']:.4f}, "
                 f"chosen turn valued best {row['agree']:.1%}")
    print(f"{text} ({row['seconds']:.1f} s)", flush=True)


def blend(target: np.ndarray, values: np.ndarray, weight: float) -> np.ndarray:
    """``target`` with each position that has a search value replaced by ``(1 - weight) *
    target + weight * value``.

    >>> blend(np.array([1.0, -1.0]), np.array([0.5, np.nan]), 0.5).tolist()
    [0.75, -1.0]
    """
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"the search values' weight must be in [0, 1], got {weight}")
    if target.shape != values.shape:
        raise ValueError(f"{values.shape[0]} search values for {target.shape[0]} positions")
    has = ~np.isnan(values)
    mixed = target.astype(np.float32, copy=True)
    mixed[has] = (1.0 - weight) * target[has] + weight * values[has]
    return mixed


def train(
    out,
    games: int = SELFPLAY_GAMES,
    seed: int = 0,
    spec=None,
    rules="codingame",
    openings=(2, 8),
    hidden: tuple[int, int] = (64, 32),
    epochs: int = 30,
    k: int = 6,
    turn_slots: int = 12,
    games_file=None,
    executor=None,
    progress: bool = True,
    given=None,
    imitate=(),
    sample: int = 16,
    choice_weight: float = 0.25,
    values: np.ndarray | None = None,
    value_weight: float = 0.5,
    selfplay_games: int = 0,
) -> FitResult:
    """Self-play, encode (as is and mirrored), fit and write the network file ``out``.

    Every random choice is seeded from ``seed`` (openings, games, the validation games, the
    initial weights, the minibatches), and the self-play player searches a fixed number of
    iterations, so the same call writes the same file. ``games_file``: keep the self-play
    games there (resumable); default a temporary file. ``given``: ``(rows, group of each
    row)`` to fit on instead of playing (``games``, ``spec``, ``openings`` and ``games_file``
    are then unused); the groups are held out whole. ``imitate``: the names of the sides of
    ``given``'s referee files whose turns the network also learns to prefer
    (:func:`fepaper.engines.imitation.choices` with ``sample``; ``choice_weight`` of
    :func:`fit`). ``values``: a search value per position of ``given``'s games (NaN for none,
    :func:`fepaper.engines.searchvalues.search_values`), blended into the results with
    ``value_weight`` (:func:`blend`). ``selfplay_games``: with
    ``given``, also play that many self-play games (``spec``, ``openings``, ``games_file``, as
    without ``given``) and fit on both: each self-play game is its own group, and the self-play
    side's turns are never imitated (its name in the rows is :data:`SELFPLAY_NAME`).

    Raises
    ------
    ValueError
        ``selfplay_games`` without ``given``, or a self-play ``spec`` with a ``time_limit`` (its
        games would depend on the machine's speed).
    """
    import tempfile
    from pathlib import Path

    from ..search.valuefile import save_value_net

    if selfplay_games and given is None:
        raise ValueError("selfplay_games adds self-play games to given games; without given, use games")
    if values is not None and given is None:
        raise ValueError("search values belong to given games, not to self-play")
    played = selfplay_games if given is not None else games
    if played:
        spec = spec_of(SELFPLAY_SPEC if spec is None else spec)
        if spec.get("time_limit") is not None:
            raise ValueError(f"the self-play spec has a time_limit ({spec['time_limit']} s): its games would "
                             "depend on the machine's speed; give it a number of iterations instead")
        with tempfile.TemporaryDirectory() as tmp:
            kept = games_file or Path(tmp) / "selfplay.csv"
            own = selfplay(spec, played, kept, seed, rules, openings, executor, progress)
    if given is None:
        rows, group = own, np.arange(len(own))  # each game its own group
    else:
        rows, group = list(given[0]), np.asarray(given[1], np.int64)
        given_positions = sum(len(row["moves"].split()) for row in rows)
        if played:
            rows += selfplay_rows(own)
            group = np.concatenate([group, group.max(initial=-1) + 1 + np.arange(len(own))])
    pos = positions(rows, rules)
    if values is not None:
        values = np.asarray(values, np.float32)
        if values.shape != (given_positions,):
            raise ValueError(f"{values.shape[0]} search values for the {given_positions} positions of the "
                             "given games")
        values = np.concatenate([values, np.full(len(pos["target"]) - given_positions, np.nan, np.float32)])
        pos["target"] = blend(pos["target"], values, value_weight)
    groups = np.asarray(group, np.int64)[pos["game"]]
    data = [encode(pos, rules, k, turn_slots, mirror=m) for m in (False, True)]
    layout = layout_of(Game(rules).board, k, turn_slots)
    choice = None
    if imitate:
        if given is None:
            raise ValueError("imitate needs given games (the sides are named in referee files)")
        made = choices(rows, imitate, rules, sample, seed)
        if not len(made["chosen"]):
            raise ValueError(f"imitate: no side named {sorted(imitate)} chose a turn in these games")
        choice = ([encode(made, rules, k, turn_slots, mirror=m) for m in (False, True)], made["decision"],
                  made["chosen"])
    result = fit(data, pos["target"], groups, layout.n_inputs, hidden, epochs, seed=seed,
                 progress=_report if progress else None, choice=choice, choice_weight=choice_weight)
    w = result.weights
    save_value_net(out, w["w1"], w["b1"], w["w2"], w["b2"], w["w3"], float(w["b3"][0]), rules, k, turn_slots)
    return result
