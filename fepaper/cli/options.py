"""The options many commands share, declared once: the position (``--rules``, ``--moves``), the
number of games, the seed, the workers (one default for every command: every core), and
``--json``; and the value types the commands' own options use."""

from __future__ import annotations

import argparse
import os

from ..game.rules import Rules
from ..play.limits import MAX_GAMES
from ..search.valuefile import MAX_HIDDEN
from .arguments import RULES_HELP, integer_at_least, rules

__all__ = ["positive", "natural", "games", "ms", "iterations", "hidden", "add_position", "add_rules",
           "add_games", "add_seed", "add_workers", "add_json", "CORES"]

positive, natural = integer_at_least(1), integer_at_least(0)
games = integer_at_least(1, MAX_GAMES)
ms = integer_at_least(1, 3_600_000)
iterations, hidden = integer_at_least(1, 10**9), integer_at_least(1, MAX_HIDDEN)
#: This machine's cores: the default of every --workers.
CORES = os.cpu_count() or 1


def add_rules(p: argparse.ArgumentParser, default: str | None = "thesis", required: bool = False) -> None:
    """``--rules`` (a preset's name or a JSON object of Rules fields), the ``default`` preset's (None:
    the command fills it in, so that it can tell a ``--rules`` given from none)."""
    if required:
        p.add_argument("--rules", type=rules, required=True, help=RULES_HELP)
    else:
        p.add_argument("--rules", type=rules, default=default and Rules.preset(default), help=RULES_HELP)


def add_position(p: argparse.ArgumentParser, default_rules: str | None = "thesis") -> None:
    """A position: ``--rules`` and ``--moves``, a record of whole turns played first."""
    add_rules(p, default_rules)
    p.add_argument("--moves", default="", help='a record of whole turns to play first, e.g. "0 54"')


def add_games(p: argparse.ArgumentParser, default: int = 20, what: str = "number of games") -> None:
    p.add_argument("--games", type=games, default=default, help=f"{what} (default {default})")


def add_seed(p: argparse.ArgumentParser, what: str = "run seed") -> None:
    p.add_argument("--seed", type=natural, default=0, help=f"{what} (default 0)")


def add_workers(p: argparse.ArgumentParser, what: str = "play games") -> None:
    """``--workers``: processes to ``what`` in, every core by default (1: in this process)."""
    p.add_argument("--workers", type=integer_at_least(1, 256), default=CORES,
                   help=f"processes to {what} in (default: every core, {CORES} here; 1 plays in this "
                   "process); the results are the same on any number")


def add_scheduler(p: argparse.ArgumentParser, what: str) -> None:
    """``--scheduler``: the address of a dask scheduler to ``what`` on, instead of ``--workers``."""
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help=f"{what} on the dask cluster of this scheduler (e.g. tcp://host:8786; needs the "
                   "cluster extra) instead of --workers processes")


def scheduler_of(args: argparse.Namespace) -> str | None:
    """``args.scheduler``, checked before any work: an address needs dask's ``distributed``."""
    if args.scheduler:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ValueError("--scheduler needs dask's distributed: pip install 'fepaper[cluster]'") from None
    return args.scheduler


def add_json(p: argparse.ArgumentParser, what: str, note: str = "") -> None:
    """``--json``: print ``what`` as JSON instead of text (``note``: its shape, or what it leaves out)."""
    p.add_argument("--json", action="store_true",
                   help=f"print {what} as JSON" + (f": {note}" if note else ""))
