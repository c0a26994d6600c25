"""What a command of ``fepaper`` is (:class:`Command`: its name, group, help, arguments and what it
does, declared once, in its group's module), and what the commands' handlers share: JSON and
rounded output, the executor games are played on, files that must exist, a README's table."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..game.writes import check_writable, write_atomic

__all__ = ["Command", "print_json", "rounded", "existing", "executor", "write_readme_table"]


@dataclass(frozen=True)
class Command:
    """One command: ``name`` (``"net fit"`` for a command of ``fepaper net``), the ``group`` of
    ``fepaper --help`` it is listed under, its one-line ``help`` and ``description``, the function
    that declares its ``arguments`` on its parser, and the one that ``run``\\ s it (returning the
    exit status)."""

    name: str
    group: str
    help: str
    description: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def print_json(value) -> None:
    print(json.dumps(value))


def rounded(value):
    """A float to 6 significant digits (``0.9999999999999999`` prints as ``1.0``); others as they are."""
    return float(f"{value:.6g}") if isinstance(value, float) else value


def existing(paths: list[str], flag: str) -> list[str]:
    """``paths``, each an existing file (else a ValueError naming ``flag`` and the path)."""
    for path in paths:
        if not Path(path).is_file():
            raise ValueError(f"{flag}: no file {path}")
    return paths


def executor(workers: int, scheduler: str | None = None):
    """The dask cluster at ``scheduler``, else this process for one worker, else a pool whose
    workers exit if this process is killed."""
    from ..play.pools import executor

    return executor(workers, scheduler)


def write_readme_table(readme: str, check: bool, what: str, regenerate, source) -> int:
    """Write the README ``readme`` with its ``what`` table as ``regenerate(old text)`` gives it (from
    ``source``), or with ``check`` only say whether it is stale (exit 1 if so). The README is
    checked before the table is made: a regular file (never a FIFO or a link), writable."""
    from ..game.jsonio import read_text

    if not Path(readme).is_symlink() and not Path(readme).exists():
        raise ValueError(f"--write: no file {readme}")
    path = Path(readme) if check else check_writable(readme, "--write")
    old = read_text(path, "--write")
    new = regenerate(old)
    if check:
        print(f"{path}: the {what} table is {'up to date' if new == old else 'stale'}")
        return 0 if new == old else 1
    write_atomic(path, new, "--write")
    print(f"{path}: {what} table written from {source}")
    return 0
