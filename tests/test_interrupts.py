"""Ctrl-C everywhere (docs/reliability.md, promise 6e): a compiled kernel interrupted at a few
random instants raises KeyboardInterrupt at its next look at the clock (never a SystemError, never
ignored), the searches work after it, a command prints one line and returns 130 (143 for SIGTERM)
leaving its files valid, and an interrupted notebook run kills its kernel.

The signals are sent by a thread to this very process, while the main thread runs work that never
ends by itself (each kernel called in a loop), so no signal can land outside the ``try``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from fepaper.cli import main
from fepaper.controllers import make
from fepaper.experiments.complexity import solved
from fepaper.experiments.complexity.solvedtable import read_table
from fepaper.game import Game
from fepaper.search.bestfirst import bestfirst_search
from fepaper.search.mcts import mcts_search
from fepaper.search.solve import solve
from tests.test_bounds import HEAVY


@pytest.fixture(autouse=True, scope="module")
def _python_default_sigint():
    """The tests signal as a terminal's Ctrl-C does a process with Python's default handler. A run
    started in the background by a shell inherits SIGINT ignored (POSIX: an asynchronous list
    ignores SIGINT and SIGQUIT), Python leaves it ignored, and so does fepaper (a handler someone
    else installed is left alone): the kernel tests waited forever for a signal that never came.
    This process gets Python's default for the module, and so the commands it starts."""
    from fepaper._core import interrupt

    before = signal.getsignal(signal.SIGINT)
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    interrupt.arm()
    yield
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _memory_gb() -> float:
    """A memory cap half a GB above what this process holds already (a test process that ran many
    tests holds more than a fresh one): room for the solver's table, the same in every process."""
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20 + 0.5, 2)


#: Work that runs for minutes: each entry (a short call to load its kernels, the endless call).
KERNELS = {
    "alpha-beta at depth 10, no deadline": (lambda: make({"name": "alphabeta", "depth": 1}).decide(Game()),
                                            lambda: make({"name": "alphabeta", "depth": 10}).decide(Game())),
    "MCTS": (lambda: mcts_search(Game("standard"), 8, seed=0), lambda: mcts_search(Game("standard"), 10**9,
                                                                                   seed=0)),
    "best-first": (lambda: bestfirst_search(Game("codingame"), 8),
                   lambda: bestfirst_search(Game("codingame"), 10**9, max_nodes=10**7)),
    "a count of 10**8 turns": (lambda: Game("standard", HEAVY[1]).turns().count(limit=10),
                               lambda: Game("standard", HEAVY[0]).turns().count()),
    "the exact solver": (lambda: solve(Game({"width": 2, "height": 2})),
                         lambda: solve(Game("standard"), memory_gb=_memory_gb())),
}


class _Signal:
    """Send ``signum`` to this process after ``delay`` seconds, from a thread; ``sent`` is when."""

    def __init__(self, delay: float, signum: int = signal.SIGINT):
        self.sent = None
        self.thread = threading.Thread(target=self._run, args=(delay, signum))
        self.thread.start()

    def _run(self, delay, signum):
        time.sleep(delay)
        self.sent = time.perf_counter()
        os.kill(os.getpid(), signum)

    def absorb(self) -> None:
        """Take the signal here when the work ended before it came (not in pytest's own code)."""
        try:
            self.thread.join()
            time.sleep(0.5)
        except KeyboardInterrupt:
            pass


def _interrupted(work, delay: float) -> float:
    """Run ``work`` again and again until the signal sent after ``delay`` interrupts it; the
    seconds from the signal to the KeyboardInterrupt."""
    sender = _Signal(delay)
    try:
        while True:
            work()
    except KeyboardInterrupt:
        caught = time.perf_counter()
    except BaseException:
        sender.absorb()
        raise
    sender.thread.join()
    return caught - sender.sent


@pytest.mark.parametrize("name", list(KERNELS))
def test_a_kernel_interrupted_at_random_instants_raises_keyboard_interrupt(name):
    warm, endless = KERNELS[name]
    warm()
    trace = sys.gettrace()
    for delay in np.random.default_rng(len(name)).uniform(0.005, 0.06, 2):
        assert _interrupted(endless, float(delay)) < 2.0  # alpha-beta ran 190 s after a Ctrl-C
        assert sys.gettrace() is trace  # what a pending interrupt set is gone
    warm()  # the kernels work after an interrupt


def _address_space_kb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmSize"))


def test_an_interrupted_kernel_releases_what_it_was_given():
    """Raised through the kernel, an interrupt left each exact solve's table allocated (9 GB of
    address space at 2**27 slots) until a fork failed for want of memory."""
    solve(Game({"width": 2, "height": 2}))
    before = _address_space_kb()
    for delay in (0.05, 0.2):
        _interrupted(lambda: solve(Game("standard"), memory_gb=64, table_bits=27), delay)
    assert _address_space_kb() - before < 2**20  # less than 1 GB, not 18


def test_an_interrupted_solve_returns_130_in_one_line_and_leaves_its_table(tmp_path, capsys):
    out = tmp_path / "solved.csv"
    solved.solve_board({"width": 2, "height": 2}, out, seconds=60)
    before = out.read_bytes(), out.with_suffix(".json").read_bytes()
    for signum in (signal.SIGINT, signal.SIGTERM):
        sender = _Signal(1.0, signum)  # past the parsing, on a loaded machine too
        try:
            code = main(["solve", "--rules", "standard", "--out", str(out), "--seconds", "600", "--memory-gb",
                         str(_memory_gb())])
        except BaseException:
            sender.absorb()
            raise
        if code != 128 + signum:
            sender.absorb()
        sender.thread.join()
        assert code == 128 + signum and capsys.readouterr().err == "fepaper solve: interrupted\n"
        assert (out.read_bytes(), out.with_suffix(".json").read_bytes()) == before
        assert len(read_table(out)) == 1
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # main() put back this process's handler


def test_an_interrupted_match_returns_130_in_one_line_with_whole_rows(tmp_path):
    """Best-first against the turn search ignored SIGINT and ran to the end (exit 0)."""
    out = tmp_path / "games.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "fepaper.cli", "match", json.dumps({"name": "bestfirst", "time_limit": 0.05}),
         json.dumps({"name": "turnsearch", "depth": 3}), "--rules", "codingame", "--games", "40",
         "--out", str(out)], stderr=subprocess.PIPE, text=True)
    seen = ""
    while "games:" not in seen:  # playing: past the start-up, whose Ctrl-C is Python's own
        seen += proc.stderr.read(1)
        assert seen or proc.poll() is None
    time.sleep(float(np.random.default_rng(7).uniform(0.1, 0.6)))
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=30)[1]
    lines = [line for line in (seen + err).replace("\r", "\n").splitlines() if line and "game" not in line]
    assert proc.returncode == 130 and lines == ["fepaper match: interrupted"]
    rows = out.read_bytes()
    assert rows.endswith(b"\n") and len(rows.splitlines()) < 41  # whole rows, the header's included


def test_an_interrupt_kills_a_pools_workers_instead_of_waiting_for_their_tasks():
    """``match --workers 2`` given SIGTERM played its games in flight to the end (19 s)."""
    from fepaper.play.pools import worker_pool

    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2) as pool:
            for _ in range(3):
                pool.submit(time.sleep, 60)
            workers = list(pool._processes.values())
            raise KeyboardInterrupt
    assert time.perf_counter() - start < 20 and [w.exitcode for w in workers] == [-signal.SIGKILL] * 2


def test_an_interrupted_notebook_run_kills_its_kernel(tmp_path):
    """nbclient waits in a poll no signal wakes, and the kernel runs in a session of its own:
    ``fepaper reproduce`` ignored SIGINT and SIGTERM and its kernel outlived it."""
    from fepaper.notebook import runner

    kernel = subprocess.Popen(["sleep", "600"], start_new_session=True)  # a kernel's own session
    km = SimpleNamespace(provisioner=SimpleNamespace(process=kernel))
    sender = _Signal(0.2)
    try:
        runner._interruptible(kernel.wait, km)  # waits as nbclient does, for a kernel that does not end
    except KeyboardInterrupt:
        pass
    else:
        sender.absorb()
        pytest.fail("not interrupted")
    sender.thread.join()
    assert time.perf_counter() - sender.sent < 2.0
    assert kernel.wait(timeout=5) == -signal.SIGKILL


#: A process that runs the ``fepaper`` command and signals itself the moment numba starts to load
#: (an import hook), as a Ctrl-C in the first second of a command does.
_SIGNAL_WHILE_LOADING = """
import os, signal, sys

class SignalAtNumba:
    def find_spec(self, name, path=None, target=None):
        if name == "numba":
            os.kill(os.getpid(), getattr(signal, sys.argv[1]))
        return None

import fepaper.cli
assert "numba" not in sys.modules and "numpy" not in sys.modules, "the command loads before main runs"
sys.meta_path.insert(0, SignalAtNumba())
sys.exit(fepaper.cli.main(["perft", "--depth", "1"]))
"""


@pytest.mark.parametrize("name, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_an_interrupt_while_the_library_loads_prints_one_line(name, code):
    """A Ctrl-C in the first second of a command, while numba and networkx load, was Python's own
    traceback: ``fepaper`` and ``fepaper.cli`` now load without them, and main() catches it."""
    done = subprocess.run([sys.executable, "-c", _SIGNAL_WHILE_LOADING, name], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (code, "fepaper perft: interrupted\n", "")


class _Finalised:
    def __del__(self):
        total = 0
        for i in range(3):
            total += i  # lines a pending interrupt must not be raised in: Python would print and drop it


def _one_line():
    return None


def test_a_pending_interrupt_waits_until_a_finaliser_returns():
    """Raised in a ``__del__`` the garbage collector ran after a kernel stopped, a pending
    interrupt was printed and dropped, and the next kernel ran on (alpha-beta at depth 10, for
    minutes, in a test process that had made and dropped many objects)."""
    from fepaper._core import interrupt

    trace = sys.gettrace()
    thing = _Finalised()
    interrupt._pending[0] = signal.SIGINT  # as the handler leaves it when it came in a kernel's clock
    interrupt._trace_before[0] = trace
    sys.settrace(interrupt._raise_when_safe)
    try:
        del thing  # its __del__ runs, traced
        _one_line()  # the first line outside a finaliser raises
    except KeyboardInterrupt:
        raised = True
    else:
        raised = False
    finally:
        sys.settrace(trace)
        interrupt._pending[0] = 0
    assert raised and interrupt.received() == signal.SIGINT
