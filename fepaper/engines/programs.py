"""A CodinGame-protocol program seen from the referee's side: start it, talk to it, time it, end it.

A program is a command line (``CMD``, split like a shell would with :func:`shlex.split`,
no shell in between). It runs in its own session (its own process group), and on Linux under
a :mod:`~fepaper.engines.jail`: a process that kills every descendant of the program, those
that left its process group or session included, when the program ends, when the referee
closes it, and when the referee dies (a ``SIGKILL`` included); :meth:`Program.close` kills the
program's process group as well, on every exit path of the referee. Its stdout is read
through ``select`` with a deadline, so a silent program costs the referee no more than the
deadline; its stderr goes to a log file or nowhere.

The only extension of the protocol is how a program learns a game's *opening* (turns
played before the programs take over, so that nearly deterministic engines do not replay
one game): the placeholder ``{opening}`` in its ``CMD`` is replaced by the opening turns
that the program is not told through the protocol, as one argument of turns separated by
spaces (``''`` for none). ``fepaper bot SPEC --opening {opening}`` plays them before it
reads its id.
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..game.game import Game
from ..play.arena import Forfeit

__all__ = ["OPENING", "JAIL", "Program", "ProgramPlayer", "command_args", "takes_opening"]

#: The placeholder of a program's command line that receives the opening.
OPENING = "{opening}"
#: The script each program runs under on Linux (:mod:`fepaper.engines.jail`).
JAIL = Path(__file__).with_name("jail.py")


def takes_opening(cmd: str) -> bool:
    """Whether ``cmd`` has the :data:`OPENING` placeholder."""
    return OPENING in cmd


def command_args(cmd: str, opening: str = "") -> list[str]:
    """The argument list of ``cmd`` with :data:`OPENING` replaced by ``opening``.

    Raises
    ------
    ValueError
        For an empty command or one a shell could not split (an open quote).

    Examples
    --------
    >>> command_args("fepaper bot greedy --opening {opening}", "2 0")
    ['fepaper', 'bot', 'greedy', '--opening', '2 0']
    >>> command_args("prog --opening={opening}")
    ['prog', '--opening=']
    """
    if not isinstance(cmd, str) or not cmd.strip():
        raise ValueError("a program is a non-empty command line")
    try:
        args = shlex.split(cmd.replace(OPENING, shlex.quote(opening)))
    except ValueError as exc:
        raise ValueError(f"cannot split the command {cmd!r}: {exc}") from None
    if not args:
        raise ValueError(f"the command {cmd!r} is empty")
    return args


class Program:
    """One running program: :meth:`send` lines, :meth:`read_line` with a deadline, :meth:`close`.

    Parameters
    ----------
    cmd : str
        The command line.
    opening : str
        What replaces :data:`OPENING` in ``cmd``.
    log : path, optional
        Append the program's stderr here (default: discarded).

    Raises
    ------
    OSError
        If the program cannot be started (no such file, not executable).
    """

    def __init__(self, cmd: str, opening: str = "", log: str | Path | None = None) -> None:
        self.args = command_args(cmd, opening)
        if shutil.which(self.args[0]) is None:
            raise FileNotFoundError(2, "no such program", self.args[0])
        jailed = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()
        start = ([sys.executable, "-I", str(JAIL), str(os.getpid()), *self.args] if jailed else self.args)
        self._log = open(log, "ab") if log is not None else None
        try:
            self.proc = subprocess.Popen(start, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._log if self._log is not None else subprocess.DEVNULL,
                                         bufsize=0, start_new_session=True)
        except OSError:
            if self._log is not None:
                self._log.close()
            raise
        self._buffer = b""
        self._eof = False

    def send(self, text: str) -> bool:
        """Write ``text``; ``False`` if the program no longer reads (it ended or closed stdin)."""
        try:
            self.proc.stdin.write(text.encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, ValueError, OSError):
            return False

    def read_line(self, timeout: float | None, limit: int = 1 << 16) -> str | None:
        """The next line (without its line ending), or ``None`` when none came within
        ``timeout`` seconds (``None``: no deadline) or the program closed its stdout
        (:attr:`ended` tells which). A line longer than ``limit`` bytes is returned cut at ``limit``."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer and len(self._buffer) < limit:
            if self._eof:
                return None
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                self._eof = True
                continue
            self._buffer += chunk
        line, sep, rest = self._buffer.partition(b"\n")
        if not sep:
            line, rest = self._buffer[:limit], self._buffer[limit:]
        self._buffer = rest
        return line.decode("utf-8", "replace").rstrip("\r")

    @property
    def ended(self) -> bool:
        """Whether the program closed its stdout (it exited or will not answer again)."""
        return self._eof

    def close(self, grace: float = 1.0) -> int | None:
        """Close its stdin, give it ``grace`` seconds to exit, then kill its session.
        Returns its exit status (``None`` if it had to be killed)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        status = None
        try:
            status = self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            try:  # the jail kills every descendant of the program, then ends
                self.proc.send_signal(signal.SIGTERM)
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        try:  # whatever is left of its session, and only that
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if status is None:
            self.proc.wait()
        self.proc.stdout.close()
        if self._log is not None:
            self._log.close()
        return status

    def __enter__(self) -> Program:
        return self

    def __exit__(self, *exc) -> None:
        self.close(grace=0.2)


class ProgramPlayer:
    """A :class:`Program` playing one side of a game over the protocol: a
    :class:`~fepaper.play.arena.Player` of
    :func:`~fepaper.play.arena.play_out`, like a controller.

    Each :meth:`choose_turn` sends the opponent's last turn (``1`` and ``-`` when the program has
    nothing new to hear: the first move of a game) and reads the program's answer within
    ``hard_factor`` times its budget (``ms_first`` for its first answer, ``ms`` after), timed on the
    wall clock from writing the input to reading the answer's line ending; :attr:`ms` holds each
    answer's milliseconds. ``told`` is how many turns of the game the program knows before its first
    answer (the opening turns its command line received).

    Raises
    ------
    Forfeit
        From :meth:`choose_turn`: ``crash`` (the program ended), ``timeout`` (no answer within the
        hard limit) or ``garbage`` (an answer that is not a turn's digits).
    """

    def __init__(self, program: Program, told: int = 0, ms_first: float = 1000, ms: float = 100,
                 hard_factor: float = 3.0) -> None:
        self.program, self.told = program, told
        self.ms_first, self.ms_later, self.hard_factor = ms_first, ms, hard_factor
        self.ms: list[float] = []

    def choose_turn(self, game: Game) -> str:
        budget = self.ms_first if not self.ms else self.ms_later
        last = game.history[-1] if len(game.history) > self.told else None
        start = time.perf_counter()
        sent = self.program.send(f"{len(last)}\n{last}\n" if last else "1\n-\n")
        line = self.program.read_line(budget * self.hard_factor / 1000) if sent else None
        self.ms.append(round((time.perf_counter() - start) * 1000, 3))
        if line is None:
            if not sent or self.program.ended:
                raise Forfeit("crash", f"it ended (exit status {self.program.proc.poll()})")
            raise Forfeit("timeout", f"no answer within {budget * self.hard_factor:g} ms")
        text = line.strip()
        if not text or any(c not in "01234567" for c in text):
            raise Forfeit("garbage", f"{text[:80]!r} is not a turn", text)
        self.told = len(game.history) + 1  # and its own turn, once played
        return text
