"""Process pools whose workers die with their parent.

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
from concurrent.futures import ProcessPoolExecutor

__all__ = ["PARENT_POLL_SECONDS", "worker_pool"]

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
    return ProcessPoolExecutor(max_workers=workers, initializer=_watch_parent, initargs=(interval,))
