"""Run one program of the referee so that nothing it starts outlives it or the referee (Linux).

Started by :class:`fepaper.engines.programs.Program` as ``python -I jail.py REFEREE_PID
ARGS...`` (a script of the standard library alone, so it starts in tens of milliseconds): it

* makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a process the program
  starts that leaves its parent, its process group or its session (``setsid sleep 77 &``) is
  re-parented to this jail when its parent ends, not to init, so the jail always sees every
  descendant in ``/proc``;
* asks for ``SIGTERM`` when the referee dies (``prctl(PR_SET_PDEATHSIG)``), a ``SIGKILL`` of
  the referee included, and checks that the referee did not die before it asked;
* runs the program on its own standard input and output (the referee's pipes, passed on:
  nothing is relayed) and waits for it;
* when the program ends, or on ``SIGTERM`` (the referee died, or closed the program), kills
  every descendant with ``SIGKILL``, again until none is left, and exits with the program's
  status (128 + the signal for a program killed by one; 143 when it was told to stop).

Not covered: a ``SIGKILL`` of the jail itself (its descendants are then re-parented above it);
a descendant that escapes into another PID namespace or is started through a daemon (``at``,
``systemd-run``); ``PR_SET_PDEATHSIG`` follows the thread that started the jail, so a referee
run from a thread that ends before the game does would end the game.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


class _Stop(Exception):
    """SIGTERM: the referee died or closed the program."""


def descendants(root: int) -> list[int]:
    """The process ids of every descendant of ``root`` (from ``/proc``'s parent ids)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        ppid = int(data[data.rfind(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_descendants() -> None:
    """``SIGKILL`` every descendant of this process and reap them, until none is left."""
    me = os.getpid()
    for _ in range(200):
        found = descendants(me)
        if not found:
            return
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        time.sleep(0.01)


def _stop(signum, frame):
    raise _Stop


def main(argv: list[str]) -> int:
    referee, args = int(argv[0]), argv[1:]
    signal.signal(signal.SIGTERM, _stop)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != referee:  # the referee died before the jail asked to hear of it
        return 143
    status = 143
    try:
        program = subprocess.Popen(args)  # its standard input and output: the referee's pipes
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)  # the jail keeps no end of the pipes: the program's end is the referee's EOF
        os.dup2(null, 1)
        code = program.wait()
        status = 128 - code if code < 0 else code
    except _Stop:
        pass
    except OSError as exc:
        print(f"jail: cannot start {args[0]!r}: {exc.strerror or exc}", file=sys.stderr)
        status = 127
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        kill_descendants()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
