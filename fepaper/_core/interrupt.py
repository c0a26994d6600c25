"""Ctrl-C inside a compiled kernel: a kernel stops where it looks at its budget.

A compiled kernel runs no Python code, so Python's handler of ``SIGINT`` can only run where a
kernel calls back into Python: where it looks at the clock (:func:`fepaper._core.clock.now`,
through numba's object mode), which every kernel does every
:data:`~fepaper._core.clock.CHECK_EVERY` units of work, with or without a deadline. There
Python's own handler raises ``KeyboardInterrupt`` wherever it happens to run, and two kinds
of place do not look for an exception: numba's glue around an object-mode call
(``_numba_unpickle``: the call "returned a result with an exception set", a ``SystemError``,
or the interrupt was lost) and llvmlite's callbacks from C while numba compiles (the
exception is printed, "ignored", and the command runs on). The handler here raises where
Python's would, except in those places: there it marks the interrupt pending, and it is
raised at the next Python call outside them, by a trace function set until then (as a
debugger stops a program): after numba's glue, that call is :func:`clock` itself, whose
exception numba passes up through the kernel as the ``KeyboardInterrupt`` Python code expects.

:func:`arm` puts the handler in place of Python's default one (only that one: a handler
someone else installed, ``SIG_IGN`` included, is left alone), in the main thread, when this
module is imported and again whenever a budget is made (a notebook's kernel puts the default
handler back around each cell). :func:`terminate_as_interrupt` makes ``SIGTERM`` interrupt the
same way for the ``fepaper`` command, so that what a command holds (a notebook's kernels, a
lock) is let go on either signal.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
import threading
import time

import llvmlite
from numba.core import serialize

__all__ = ["arm", "clock", "peak_rss_kb", "terminate_as_interrupt", "received"]

#: The glue numba runs before an object-mode call: a handler raising there makes a SystemError.
_GLUE = serialize._numba_unpickle.__code__
#: llvmlite's Python code, called back from C while numba compiles: an exception there is lost.
_LLVMLITE = os.path.dirname(llvmlite.__file__) + os.sep

_pending: list[int] = [0]  # the signal number of an interrupt not raised yet, 0 if none
_received: list[int] = [0]  # the last signal this handler turned into KeyboardInterrupt
_trace_before: list = [None]  # the trace function the pending interrupt's one replaced


def received() -> int:
    """The signal (``SIGINT`` or ``SIGTERM``) behind the last ``KeyboardInterrupt`` raised here, or 0."""
    return _received[0]


def _raise(signum: int):
    if _pending[0]:
        _pending[0] = 0
        sys.settrace(_trace_before[0])
    _received[0] = signum
    raise KeyboardInterrupt


def _unsafe(frame) -> bool:
    """Whether an exception raised in ``frame`` may be lost (see the module's docstring)."""
    code = frame.f_code
    return code is _GLUE or code is _handler.__code__ or code.co_filename.startswith(_LLVMLITE)


def _raise_when_safe(frame, event, arg):
    if _pending[0] and not _unsafe(frame):
        _raise(_pending[0])
    return None


def _handler(signum, frame):
    if frame is None or not _unsafe(frame):
        _raise(signum)
    if not _pending[0]:
        _trace_before[0] = sys.gettrace()
        sys.settrace(_raise_when_safe)
    _pending[0] = signum


def _raise_pending() -> None:
    if _pending[0]:
        _raise(_pending[0])


def clock() -> float:
    """:func:`time.perf_counter`, the clock kernels read through object mode; raises an interrupt
    marked pending on the way in."""
    _raise_pending()
    return time.perf_counter()


def peak_rss_kb() -> int:
    """The process's peak resident memory so far, in KB (Linux's ``ru_maxrss``), read through
    object mode as :func:`clock` is."""
    _raise_pending()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def arm() -> None:
    """Put the handler in place of Python's default ``SIGINT`` handler (main thread only)."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, _handler)


def terminate_as_interrupt():
    """Make ``SIGTERM`` interrupt as ``SIGINT`` does (for the ``fepaper`` command's process);
    returns the handler it replaced (to put back), or None outside the main thread."""
    _received[0] = 0
    arm()
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _handler)


arm()
