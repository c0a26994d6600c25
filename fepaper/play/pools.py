"""Where a run's games are played: this process, a process pool, or a dask cluster.

:func:`executor` chooses: :class:`SerialExecutor` (this process) for one worker, a
:func:`worker_pool` of processes for more, or the executor of the dask cluster at a scheduler's
address (``tcp://host:8786``; the ``cluster`` extra). The games of a run, and so its results,
are the same on each (the runs plan their games from their settings only).

Process pools whose workers die with their parent.

A :class:`~concurrent.futures.ProcessPoolExecutor` worker outlives a parent killed
with ``SIGKILL``: it is re-parented to init and waits forever for tasks (about
125 MB each with numba loaded). :func:`worker_pool` gives every worker a daemon
thread that watches its parent and ends the worker when the parent is gone. Every
pool fepaper creates comes from here.

Examples
--------
>>> with worker_pool(1) as pool:
...     pool.submit(sum, [1, 2, 3]).result()
6
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager

__all__ = ["PARENT_POLL_SECONDS", "SerialExecutor", "worker_pool", "executor", "environment",
           "in_fresh_interpreter"]

#: How often a worker checks that its parent is alive.
PARENT_POLL_SECONDS = 0.25


def _exit_when_orphaned(parent: int, interval: float) -> None:
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(1)  # nothing to save: the parent that wanted the results is gone


def _watch_parent(interval: float) -> None:
    """Pool initializer: start the watch thread (module level, so any start method can pickle it)."""
    thread = threading.Thread(target=_exit_when_orphaned, args=(os.getppid(), interval),
                              name="fepaper-parent-watch", daemon=True)
    thread.start()


class _WorkerPool(ProcessPoolExecutor):
    """A process pool that, left by an interrupt (Ctrl-C, ``SIGTERM``), kills its workers instead
    of waiting for their tasks: ``match --workers 2`` given ``SIGTERM`` played its games in flight
    to the end, 19 s, before it exited (a terminal's Ctrl-C reaches the workers too, a ``kill``
    of the parent does not). What was in flight is lost, as in a kill (docs/reliability.md,
    promise 1)."""

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, KeyboardInterrupt):
            # A task already cancelled gets a stand-in future: the pool's thread, finding its workers
            # killed, sets an exception on every pending future, and a cancelled one raises an
            # InvalidStateError. The table itself is the thread's: taking its items out of it raced
            # the thread's own reads (a KeyError printed from the thread).
            pending = getattr(self, "_pending_work_items", None) or {}
            for item in list(pending.values()):
                if item.future.done():
                    item.future = Future()
            workers = list((getattr(self, "_processes", None) or {}).values())
            for process in workers:
                process.kill()
            _reap(workers, 5.0)
            self.shutdown(wait=False, cancel_futures=True)
        return super().__exit__(exc_type, exc, tb)


def _reap(workers: list, seconds: float) -> None:
    """Wait up to ``seconds`` until every killed worker has its exit code. A ``join`` alone may
    return early: the pool's own thread reaps the same process, and the join that loses that race
    finds no child left and returns before the winner has stored the code (one worker of two read
    ``None`` right after a kill)."""
    deadline = time.monotonic() + seconds
    for process in workers:
        process.join(max(0.0, deadline - time.monotonic()))
        while process.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.01)


def worker_pool(workers: int, interval: float = PARENT_POLL_SECONDS) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes that exit within ``interval`` seconds of their parent.

    Parameters
    ----------
    workers : int
        At least 1.
    interval : float
        Seconds between two checks of the parent.

    Returns
    -------
    ProcessPoolExecutor
        Whose workers are killed when an interrupt leaves its ``with`` block.

    Raises
    ------
    ValueError
        If ``workers`` is not a positive integer.

    Notes
    -----
    The watch compares the worker's parent process id with the one it had at start;
    a thread rather than ``prctl(PR_SET_PDEATHSIG)`` because that signal follows the
    *thread* that started the worker, and pools start workers from passing threads.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    return _WorkerPool(max_workers=workers, initializer=_watch_parent, initargs=(interval,))


class SerialExecutor(Executor):
    """An Executor that runs each task at once in this process (tests, notebooks, debugging)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, like a pool would
            future.set_exception(exc)
        return future


@contextmanager
def executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[Executor]:
    """The executor a run plays on, for the ``with`` block: the dask cluster at ``scheduler`` (its
    address; ``workers`` then unused), else this process for one worker, else a pool of
    ``workers`` processes (default: every core).

    >>> with executor(1) as run:
    ...     run.submit(sum, [1, 2]).result()
    3

    Raises
    ------
    ValueError
        ``workers`` not a positive integer.
    ImportError
        A scheduler's address without dask's ``distributed`` (the ``cluster`` extra).
    """
    if scheduler:
        try:
            import distributed
        except ImportError:
            raise ImportError("a dask scheduler's address needs dask's distributed: "
                              "pip install 'fepaper[cluster]'") from None
        with distributed.Client(scheduler) as client:
            yield client.get_executor()
        return
    workers = os.cpu_count() or 1 if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if workers == 1:
        yield SerialExecutor()
        return
    with worker_pool(workers) as pool:
        yield pool


@contextmanager
def environment(**values: str | None) -> Iterator[None]:
    """This process's environment variables set to ``values`` (``None``: unset) for the ``with``
    block, then as they were: what the processes started inside it inherit."""
    old = {k: os.environ.get(k) for k in values}
    for k, v in values.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def in_fresh_interpreter(fn, /, *args, env: dict[str, str] | None = None, **kwargs):
    """``fn(*args, **kwargs)`` in a fresh interpreter (spawned, not forked: nothing of this process's
    loaded libraries), started with the variables ``env`` set (e.g. a library's choice read at its load);
    its result, or its exception, comes back. The interpreter exits if this process is killed."""
    import multiprocessing

    with environment(**(env or {})):  # read at the child's start
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_watch_parent, initargs=(PARENT_POLL_SECONDS,)) as pool:
            future = pool.submit(fn, *args, **kwargs)
            future.exception()  # wait here, the environment still the child's
    return future.result()
