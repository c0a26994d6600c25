"""The ``fepaper`` command, its commands by what they are for (:data:`.parser.GROUPS`): the game
(perft, show, count, solve, verify-proof), the thesis's experiments (match, tournament, tune, evolve,
reproduce, claims-table), speed (bench, warm-up), engines (bot, referee), and the value networks'
research tools under one command (net fit, net agree, net searchvalues).

Run ``fepaper --help`` or ``fepaper COMMAND --help``. Each group's module (:mod:`.game`,
:mod:`.thesis`, :mod:`.speed`, :mod:`.engines`, :mod:`.networks`) declares its commands once, each a
:class:`~fepaper.cli.command.Command` (help, arguments and what it does); :mod:`.options` holds the
options they share (one default for ``--workers``: every core), :mod:`.arguments` checks the values,
:mod:`.parser` puts the commands under one parser; :func:`main` turns an error a user can cause into
one line.
"""

from __future__ import annotations

import signal
import sys

__all__ = ["main", "build_parser"]


def __getattr__(name: str):
    """``build_parser`` on first use: this package loads without the library's kernels, so that
    :func:`main` is running (and catches a Ctrl-C) while they load."""
    if name == "build_parser":
        from .parser import build_parser

        return build_parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: The longest error line the command prints.
MAX_MESSAGE = 600


def _user_errors() -> tuple[type[BaseException], ...]:
    """What a user's input can cause: bad values and files, and a controller breaking the rules."""
    arena = sys.modules.get("fepaper.play.arena")
    return (ValueError, OSError) + ((arena.ArenaError,) if arena is not None else ())


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, BrokenPipeError):
        return "the other end of the pipe closed"
    if isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    else:
        text = " ".join(str(exc).split()) or type(exc).__name__
    if len(text) > MAX_MESSAGE:  # an input echoed whole (a 10 MB name) is cut to a readable length
        keep = MAX_MESSAGE - 100
        text = f"{text[:keep]} ... [{len(text) - keep - 40:,} characters cut] ... {text[-40:]}"
    return text


def _interrupt_while_loading() -> tuple[list[int], object]:
    """Make ``SIGTERM`` raise ``KeyboardInterrupt`` while the library loads, before its own handler
    (:func:`fepaper._core.interrupt.terminate_as_interrupt`) takes over; returns the list the
    signal's number is noted in and the handler it replaced (None outside the main thread)."""
    loading = [0]

    def stop(signum, frame):
        loading[0] = signum
        raise KeyboardInterrupt

    try:
        return loading, signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: signals are the main thread's
        return loading, None


def main(argv: list[str] | None = None) -> int:
    """Run ``fepaper``; an error a user can cause prints ``fepaper CMD: error: ...`` and returns 2
    (with ``--debug``, its traceback); a command interrupted (Ctrl-C, ``SIGTERM``) prints
    ``fepaper CMD: interrupted`` and returns 128 + the signal's number (130, 143)."""
    words = list(sys.argv[1:] if argv is None else argv)
    name = "fepaper" + (f" {words[0]}" if words and not words[0].startswith("-") else "")
    loading, before = _interrupt_while_loading()
    args = None
    try:
        from .._core import interrupt  # numba, networkx and the commands load here: a second or more
        from .parser import build_parser

        interrupt.terminate_as_interrupt()
        args = build_parser().parse_args(argv)  # an interrupt while it parses ends as one in the command
        args.argv = None if argv is None else list(argv)  # None: this process's own command line
        name = f"fepaper {args.command}"
        return args.func(args)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        loaded = sys.modules.get("fepaper._core.interrupt")
        return 128 + ((loaded.received() if loaded is not None else 0) or loading[0] or signal.SIGINT)
    except Exception as exc:
        if args is None or getattr(args, "debug", False) or not isinstance(exc, _user_errors()):
            raise
        print(f"fepaper {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    finally:
        if before is not None:  # main() called in a process of its own keeps that process's handler
            signal.signal(signal.SIGTERM, before)
