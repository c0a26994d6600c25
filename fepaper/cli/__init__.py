"""The ``fepaper`` command, its commands by what they are for (:data:`.parser.GROUPS`): the game
(perft, show, count, solve, verify-proof), the thesis's experiments (match, tournament, tune, reproduce,
claims-table), speed (bench), engines (bot, referee), and the value networks' research tools
under one command (net fit, net agree, net searchvalues).

Run ``fepaper --help`` or ``fepaper COMMAND --help``. Each group's module (:mod:`.game`,
:mod:`.thesis`, :mod:`.speed`, :mod:`.engines`, :mod:`.networks`) declares its commands once, each a
:class:`~fepaper.cli.command.Command` (help, arguments and what it does); :mod:`.options` holds the
options they share (one default for ``--workers``: every core), :mod:`.arguments` checks the values,
:mod:`.parser` puts the commands under one parser; :func:`main` turns an error a user can cause into
one line.
"""

from __future__ import annotations

import sys

from .parser import build_parser

__all__ = ["main", "build_parser"]

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


def main(argv: list[str] | None = None) -> int:
    """Run ``fepaper``; an error a user can cause prints ``fepaper CMD: error: ...`` and returns 2
    (with ``--debug``, its traceback); an interrupted command returns 130."""
    args = build_parser().parse_args(argv)
    args.argv = None if argv is None else list(argv)  # None: this process's own command line
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"fepaper {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if getattr(args, "debug", False) or not isinstance(exc, _user_errors()):
            raise
        print(f"fepaper {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
