"""The solver spread over workers: a proof tree kept by the client, leaf jobs of bounded effort.

:func:`job_solve` decides who wins a position as the job-level proof-number searches that solved
Connect6 openings do: the client keeps a tree of positions (keyed by the game from the position
solved) and hands its open leaves to an :class:`~concurrent.futures.Executor` as jobs, each a
df-pn search of that leaf with a node budget (:func:`leaf_job`); a job that proves its leaf sends
the value back, and one that runs out of budget makes the client split the leaf into its turns,
which become leaves in their turn. Values go up the tree as they come (a position is won when one
of its turns leaves the opponent lost, lost when every turn leaves the opponent won), and a leaf
below a decided position is not sent. The leaves are sent shallowest first, a few more than the
workers at a time.

The executor is any: this process, a pool of processes, or a dask cluster
(:func:`fepaper.play.pools.executor`, a ``LocalCluster``'s or a scheduler's). A job is plain data
(rules, the game, a node budget) and has no side effect, so a job lost with its worker is simply
run again: dask's scheduler does it itself, and a job whose future fails is sent again here (at
most :data:`RETRIES` times). With a ``journal`` the client writes every leaf's answer (the whole
file, atomically, every :data:`JOURNAL_EVERY` answers and at the end); a solve killed and started
again with the same journal reads the answers back and sends only what is missing.

On 16 or 160 cores the same client keeps the tree and the jobs grow in number, not in size: the
number in flight is ``in_flight`` (two per worker by default), and the tree is split where the
jobs ran out of budget, so more workers solve more leaves at a time. The client's tree, a few
bytes per leaf, is the only shared state; each worker holds its own table.

Rules with draws (a blocked player drawing, a turn limit) are refused: a leaf's answer is a win or
a loss here.
"""

from __future__ import annotations

import json
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from contextlib import nullcontext
from pathlib import Path

from ...game import Game, Rules
from ...game.jsonio import JSONInputError, loads, read_bytes
from ...game.writes import write_atomic
from ...play.filelock import exclusive_folder
from ...search.solve import solve

__all__ = ["FORMAT", "RETRIES", "JOURNAL_EVERY", "JOB_NODES", "JournalError", "job_table_bits", "leaf_job",
           "job_solve"]

#: The journal's format name.
FORMAT = "fepaper-job-solve/1"
#: Times a job whose future failed is sent again before the solve gives up.
RETRIES = 3
#: Answers between two writes of the journal.
JOURNAL_EVERY = 16
#: The node budget of one job unless told: a second or two of df-pn, against a few milliseconds a
#: job costs (its table, its game, the executor's round trip).
JOB_NODES = 20_000
#: The largest job table (2 ** 24 slots): past it a job's nodes overwrite one another's slots.
_JOB_TABLE_BITS = 24


class JournalError(ValueError):
    """A journal that is not one of this solve (other rules or job budget), or not a journal."""


def job_table_bits(max_nodes: int) -> int:
    """The table of a job of ``max_nodes`` nodes: twice as many slots as the positions it can store
    (one a node at most), so a job's table is a few MB rather than what its memory cap allows (a
    table sized by the cap took three times a small job's time to set up)."""
    return min(_JOB_TABLE_BITS, max(4, (2 * max_nodes).bit_length()))


def leaf_job(rules: dict, moves: str, max_nodes: int, memory_gb: float) -> tuple[str, int | None, int]:
    """One job: df-pn on the position after ``moves`` within ``max_nodes`` nodes; ``(moves, value for
    the player to move (1, -1) or None, nodes)``."""
    result = solve(Game(rules, moves), memory_gb=memory_gb, max_nodes=max_nodes, method="dfpn",
                   all_wins=False, table_bits=job_table_bits(max_nodes))
    return moves, None if result.value is None else int(result.value), result.nodes


class _Tree:
    """The client's tree: per game (turns separated by spaces) its value for the player to move
    (1, -1, or None) and its turns once split."""

    def __init__(self, rules: Rules, root: str) -> None:
        self.rules, self.root = rules, root
        self.value: dict[str, int | None] = {root: None}
        self.children: dict[str, list[str]] = {}
        self.parent: dict[str, str] = {}

    def split(self, moves: str) -> list[str]:
        """The turns of ``moves``' position as leaves; those that end the game get their value."""
        game = Game(self.rules, moves)
        kids = []
        for turn in game.turns():
            child = f"{moves} {turn.steps}".strip()
            after = game.copy()
            after.push(turn.steps)
            self.parent[child] = moves
            self.value[child] = None
            if after.is_over:
                self.value[child] = 1 if after.result.winner == after.player else -1
            kids.append(child)
        self.children[moves] = kids
        for child in kids:
            if self.value[child] is not None:
                self.settle(child)
        return [k for k in kids if self.value[k] is None]

    def settle(self, moves: str) -> None:
        """A value found at ``moves``: carry it up as far as it decides its ancestors."""
        while moves in self.parent:
            up = self.parent[moves]
            if self.value[up] is not None:
                return
            kids = [self.value[k] for k in self.children[up]]
            if -1 in kids:
                self.value[up] = 1
            elif all(v == 1 for v in kids):
                self.value[up] = -1
            else:
                return
            moves = up

    def open(self, moves: str) -> bool:
        """Whether ``moves`` is still worth a job: no value, and no ancestor with one."""
        while True:
            if self.value[moves] is not None:
                return False
            if moves not in self.parent:
                return True
            moves = self.parent[moves]


def _read_journal(path: Path, header: dict) -> list[tuple[str, int | None]]:
    try:
        data = loads(read_bytes(path, "journal").decode("utf-8"), "journal")
    except (JSONInputError, UnicodeDecodeError) as exc:
        raise JournalError(f"journal {path}: {exc}") from None
    if not isinstance(data, dict) or {k: data.get(k) for k in header} != header:
        raise JournalError(f"journal {path}: not a journal of this solve ({', '.join(header)} must be "
                           f"{json.dumps(header)})")
    answers = data.get("answers")
    if not isinstance(answers, list) or not all(isinstance(a, list) and len(a) == 2 and isinstance(a[0], str)
                                                and a[1] in (1, -1, None) for a in answers):
        raise JournalError(f"journal {path}: answers must be a list of [game, 1 | -1 | null]")
    return [(a[0], a[1]) for a in answers]


def job_solve(rules, executor: Executor, moves: str = "", *, job_nodes: int = JOB_NODES,
              memory_gb: float = 1.0, seconds: float | None = None, in_flight: int = 4,
              journal: str | Path | None = None, stop_after: int | None = None) -> dict:
    """Who wins the position after ``moves`` (default the kick-off), solved by leaf jobs on ``executor``.

    Parameters
    ----------
    job_nodes : int
        The node budget of one job (df-pn nodes).
    memory_gb : float
        Each job's cap on its process's peak memory.
    seconds : float, optional
        The client's budget: past it no job is sent and the answer is unknown if the root is not
        decided.
    in_flight : int
        Jobs sent at a time (a few more than the workers keeps them busy).
    journal : path, optional
        The file of answers to write, and to resume from when it exists; one solve at a time
        writes it (its folder's lock, held to the end: a second is refused at once).
    stop_after : int, optional
        Stop after this many jobs answered (a kill, in the tests).

    Returns
    -------
    dict
        ``value`` (1, -1 for the player to move, None unknown), ``winner``, ``jobs`` (sent by this
        call), ``resumed`` (answers read from the journal), ``leaves`` (positions in the tree),
        ``nodes`` (of this call's jobs), ``seconds``.
    """
    rules = Rules.from_spec(rules)
    if rules.blocked != "loss" or rules.max_turns is not None:
        raise ValueError("job_solve: rules with draws (blocked='draw' or a turn limit) are not supported")
    with exclusive_folder(journal, "journal") if journal is not None else nullcontext():
        return _solve(rules, executor, moves, job_nodes, memory_gb, seconds, in_flight, journal, stop_after)


def _solve(rules: Rules, executor: Executor, moves: str, job_nodes: int, memory_gb: float,
           seconds: float | None, in_flight: int, journal: str | Path | None, stop_after: int | None) -> dict:
    """:func:`job_solve`'s work, its journal (if any) locked."""
    start = time.perf_counter()
    tree = _Tree(rules, moves)
    header = {"format": FORMAT, "rules": rules.to_dict(), "moves": moves, "job_nodes": job_nodes}
    answers: list[tuple[str, int | None]] = []
    queue: deque[str] = deque([moves])
    if journal is not None and Path(journal).exists():
        answers = _read_journal(Path(journal), header)
        for leaf, value in answers:  # in the order found: a leaf's parent was split before it
            if leaf not in tree.value:
                raise JournalError(f"journal {journal}: {leaf!r} is not a leaf of this tree")
            if value is None:
                queue.extend(tree.split(leaf))
            else:
                tree.value[leaf] = value
                tree.settle(leaf)
    resumed = len(answers)
    answered = {leaf for leaf, _ in answers}
    queue = deque(leaf for leaf in queue if leaf not in answered)
    # The first wave: split the shallowest leaves here, without a job, until every job in flight has
    # a leaf of its own (a lone root job left all workers but one idle for its whole budget). A
    # split goes in the journal as an answer without a value, as a job's that ran out of budget.
    while tree.value[moves] is None and queue and sum(map(tree.open, queue)) < in_flight:
        leaf = queue.popleft()
        if tree.open(leaf):
            answers.append((leaf, None))
            queue.extend(tree.split(leaf))

    def save() -> None:
        if journal is not None:
            write_atomic(journal, json.dumps({**header, "answers": answers}) + "\n", "journal")

    pending: dict = {}
    tries: dict[str, int] = {}
    jobs = nodes = got = 0
    while tree.value[moves] is None:
        late = seconds is not None and time.perf_counter() - start > seconds
        while not late and len(pending) < in_flight and queue:
            leaf = queue.popleft()
            if tree.open(leaf):
                pending[executor.submit(leaf_job, rules.to_dict(), leaf, job_nodes, memory_gb)] = leaf
                jobs += 1
        if not pending:
            break
        done, _ = wait(pending, timeout=None if seconds is None else max(0.1, seconds / 10),
                       return_when=FIRST_COMPLETED)
        for future in [f for f in pending if f in done]:  # in the order sent: a set's order is its
            leaf = pending.pop(future)                    # futures' addresses, another each run
            try:
                _, value, spent = future.result()
            except Exception:  # a job lost with its worker, or a pool broken: send it again
                tries[leaf] = tries.get(leaf, 0) + 1
                if tries[leaf] > RETRIES:
                    raise
                queue.appendleft(leaf)
                continue
            nodes += spent
            got += 1
            answers.append((leaf, value))
            if value is None:
                queue.extend(tree.split(leaf))
            else:
                tree.value[leaf] = value
                tree.settle(leaf)
            if len(answers) % JOURNAL_EVERY == 0:
                save()
            if stop_after is not None and got >= stop_after:
                save()
                return _summary(tree, moves, jobs, resumed, nodes, start, stopped=True)
    for future in pending:
        future.cancel()
    save()
    return _summary(tree, moves, jobs, resumed, nodes, start)


def _summary(tree: _Tree, moves: str, jobs: int, resumed: int, nodes: int, start: float,
             stopped: bool = False) -> dict:
    value = tree.value[moves]
    player = Game(tree.rules, moves).player
    return {"value": value, "winner": None if value is None else player if value == 1 else 3 - player,
            "jobs": jobs, "resumed": resumed, "leaves": len(tree.value), "nodes": nodes,
            "seconds": time.perf_counter() - start, "stopped": stopped}
