"""Ctrl-C inside a compiled kernel: a kernel stops where it looks at its budget.

A compiled kernel runs no Python code, so Python's handler of ``SIGINT`` can only run where a
kernel calls back into Python: where it looks at the clock (:func:`fepaper._core.clock.now`,
through numba's object mode), which every kernel does every
:data:`~fepaper._core.clock.CHECK_EVERY` units of work, with or without a deadline. Python's own
handler raises ``KeyboardInterrupt`` wherever it happens to run, and none of those places takes
it well: in numba's glue around the object-mode call (``_numba_unpickle``) the exception is not
looked for (the call "returned a result with an exception set", a ``SystemError``, or the
interrupt was lost); raised in the clock's own frame it unwinds the kernel, which then never
releases the arrays it was given (an exact solve's table of 2**27 slots, 9 GB of address space,
stayed allocated after each interrupt, until a fork failed for want of memory); raised in
llvmlite's callbacks from C while numba compiles, it is printed, "ignored", and the command
runs on.

The handler here raises where Python's would, except in those places: there it marks the
interrupt pending and sets a trace function (as a debugger stops a program) on the frames
running and the ones to come. While an interrupt is pending :func:`clock` reads infinity, so
every budget is spent: the kernel stops at its next look, as at a deadline, and returns
normally; the next line of Python outside those places raises the ``KeyboardInterrupt``.

:func:`arm` puts the handler in place of Python's default one (only that one: a handler
someone else installed, ``SIG_IGN`` included, is left alone), in the main thread, when this
module is imported and again whenever a budget is made (a notebook's kernel puts the default
handler back around each cell). :func:`terminate_as_interrupt` makes ``SIGTERM`` interrupt the
same way for the ``fepaper`` command, so that what a command holds (a notebook's kernels, a
lock) is let go on either signal.
"""

from __future__ import annotations

import _signal
import _weakrefset
import math
import os
import resource
import signal
import sys
import threading
import time
import weakref

import llvmlite
from numba.core import pythonapi, serialize

__all__ = ["arm", "clock", "peak_rss_kb", "terminate_as_interrupt", "received"]

#: The glue numba runs before an object-mode call (the callee unpickled, compiled at its first
#: call): an exception raised there makes a SystemError, or unwinds the kernel.
_GLUE = (serialize._numba_unpickle.__code__, pythonapi.ObjModeUtils._call_objmode_dispatcher.__code__)
#: llvmlite's Python code, called back from C while numba compiles: an exception there is lost.
_LLVMLITE = os.path.dirname(llvmlite.__file__) + os.sep
#: Where weak references' callbacks run (``weakref.finalize``, weak dictionaries and sets): an
#: exception there is printed and dropped, as one in a ``__del__`` is.
_FINALISERS = frozenset({weakref.__file__, _weakrefset.__file__})

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


def clock() -> float:
    """:func:`time.perf_counter`, the clock kernels read through object mode; infinity while an
    interrupt is pending (every deadline passed: the kernel stops and returns)."""
    return math.inf if _pending[0] else time.perf_counter()


def peak_rss_kb() -> int:
    """The process's peak resident memory so far, in KB (Linux's ``ru_maxrss``), read through
    object mode as :func:`clock` is."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _deferred(frame) -> bool:
    """Whether an exception raised in ``frame`` would be lost or unwind a kernel: the clock,
    numba's glue of an object-mode call (the callee unpickled, or compiled at its first call),
    a named tuple made from a kernel's result, llvmlite's code, a finaliser (an object's
    ``__del__`` or a weak reference's callback, which the garbage collector runs wherever it
    happens to: Python prints what they raise and goes on), or what one of them called."""
    code = frame.f_code
    if code.co_filename == "<string>" and code.co_names == ("_tuple_new",):  # a namedtuple's __new__
        return True
    while frame is not None:
        code = frame.f_code
        if (code in _KERNEL_SIDE or code.co_name == "__del__" or code.co_filename in _FINALISERS
                or code.co_filename.startswith(_LLVMLITE)):
            return True
        frame = frame.f_back
    return False


def _raise_when_safe(frame, event, arg):
    if not _pending[0]:
        return None
    if event == "line" and not _deferred(frame):
        _raise(_pending[0])
    return _raise_when_safe  # each line of this frame, until one may raise


def _handler(signum, frame):
    if frame is None or not _deferred(frame):
        _raise(signum)
    if not _pending[0]:
        _trace_before[0] = sys.gettrace()
        sys.settrace(_raise_when_safe)  # the frames to come
        running = frame
        while running is not None:  # and the frames running: the next line of one raises
            running.f_trace = _raise_when_safe
            running = running.f_back
    _pending[0] = signum


#: Code where a kernel's call back into Python runs: never raise there.
_KERNEL_SIDE = frozenset({*_GLUE, clock.__code__, peak_rss_kb.__code__, _handler.__code__,
                          _raise_when_safe.__code__})


def arm() -> None:
    """Put the handler in place of Python's default ``SIGINT`` handler (main thread only). Called
    at every budget made: ``_signal``'s look, without ``signal``'s enum, costs a fraction of it."""
    if (_signal.getsignal(signal.SIGINT) is signal.default_int_handler
            and threading.current_thread() is threading.main_thread()):
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
