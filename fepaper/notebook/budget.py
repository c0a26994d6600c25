"""Notebook budgets: ``smoke`` (CI, seconds), ``quick`` (a laptop, minutes), ``paper`` (every
decidable claim on a 2-core machine in about two hours: what ``data/`` commits and the README
shows) and ``full`` (the thesis's scale).

Every notebook starts with ``BUDGET = "quick"``, then calls :func:`resolve`, which
lets the environment variable ``FEPAPER_BUDGET`` override it, and
:func:`output_dirs`, which sends a smoke run's files to a temporary folder so it
never writes over ``figures/`` or ``data/``. Notebooks whose runs resume from their
files (games, GA checkpoints) ask for folders of their budget's own
(``output_dirs(budget, own=True)``: ``data/<budget>/``), so that no budget's files
block another's.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .._checkout import find_checkout, is_checkout

__all__ = ["BUDGETS", "resolve", "output_dirs", "pick", "project_root", "checkout_root"]

BUDGETS = ("smoke", "quick", "paper", "full")

_SAME_AS_QUICK = object()


def resolve(default: str = "quick") -> str:
    """The budget in force: ``$FEPAPER_BUDGET`` if set, else ``default``."""
    value = os.environ.get("FEPAPER_BUDGET", default).strip().lower()
    if value not in BUDGETS:
        raise ValueError(f"budget must be one of {BUDGETS}, got {value!r} (check FEPAPER_BUDGET)")
    return value


def pick(budget: str, smoke, quick, full, *, paper=_SAME_AS_QUICK):
    """The value for ``budget``: ``pick(BUDGET, 10, 200, 2000, paper=500)``.

    ``paper`` defaults to the quick value: a notebook that decides no claim of the thesis
    runs at ``paper`` as at ``quick``.

    >>> pick("paper", 1, 2, 4), pick("paper", 1, 2, 4, paper=3), pick("full", 1, 2, 4, paper=3)
    (2, 3, 4)
    """
    if budget not in BUDGETS:
        raise ValueError(f"budget must be one of {BUDGETS}, got {budget!r}")
    if budget == "paper":
        return quick if paper is _SAME_AS_QUICK else paper
    return {"smoke": smoke, "quick": quick, "full": full}[budget]


#: Set by ``fepaper reproduce`` while it runs a notebook: a file where :func:`output_dirs`
#: notes the budget and the folders, so the runner can list what the notebook wrote.
LEDGER_ENV = "FEPAPER_LEDGER"


def project_root(start: Path | None = None) -> Path:
    """The fepaper checkout whose ``data/`` and ``figures/`` a notebook reads and writes.

    ``$FEPAPER_ROOT`` if set (``fepaper reproduce`` sets it for its notebooks); else the checkout
    holding ``start`` (default: the current folder, in Jupyter the notebook's own folder), found
    by walking up (:func:`checkout_root`); else the checkout the library was installed from
    (``pip install -e``).

    Raises
    ------
    ValueError
        When none of them is a checkout: a wheel used outside a clone has no committed data.
    """
    root = find_checkout(start)
    if root is not None:
        return root
    start = Path(start if start is not None else Path.cwd()).resolve()
    raise ValueError(f"{start} is not inside a fepaper checkout and fepaper is installed from a wheel: the "
                     "notebooks read the repository's committed data/ and write its figures/, so run them "
                     "inside a clone (git clone ... fepaper), or set FEPAPER_ROOT to one")


def checkout_root(start: Path | None = None) -> Path:
    """The fepaper checkout holding ``start`` (default: the current folder), found by walking up to
    the folder with fepaper's ``pyproject.toml`` and its ``notebooks/``.

    Raises
    ------
    ValueError
        When ``start`` lies in no checkout (an installed wheel has no notebooks to run).
    """
    start = Path(start if start is not None else Path.cwd()).resolve()
    for folder in (start, *start.parents):
        if is_checkout(folder):
            return folder
    raise ValueError(f"{start} is not inside a fepaper checkout: reproducing runs the repository's "
                     "notebooks, so clone it (git clone ... && cd fepaper) and run there, or give --root "
                     "the clone's folder")


def output_dirs(budget: str, own: bool = False, folder: str | None = None) -> tuple[Path, Path]:
    """``(figures, data)`` folders for ``budget``; a temporary pair for ``smoke``.

    With ``own``, each budget but smoke has its own pair, ``figures/<budget>/`` and
    ``data/<budget>/``. ``folder`` names a notebook's own folder of ``data/`` (notebook 08's
    ``strength``: ``data/strength/``, its match files and what the notebook writes beside them).
    """
    if folder is not None and (not folder or Path(folder).name != folder or folder in (".", "..")):
        raise ValueError(f"folder must be one folder's name under data/, got {folder!r}")
    if budget == "smoke":
        tmp = Path(tempfile.mkdtemp(prefix="fepaper-smoke-"))
        figures, data = tmp / "figures", tmp / "data"
    else:
        root = project_root()
        figures, data = root / "figures", root / "data"
        if own:
            figures, data = figures / budget, data / budget
    if folder is not None:
        data = data / folder
    figures.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    ledger = os.environ.get(LEDGER_ENV)
    if ledger:
        with open(ledger, "a", encoding="utf-8") as f:
            f.write(json.dumps({"budget": budget, "figures": str(figures), "data": str(data)}) + "\n")
    return figures, data


#: The environment variables ``fepaper reproduce --workers/--scheduler`` sets for the notebooks.
WORKERS_ENV, SCHEDULER_ENV = "FEPAPER_WORKERS", "FEPAPER_SCHEDULER"


def workers(default: int) -> int:
    """The processes a notebook plays on: ``$FEPAPER_WORKERS`` if set (``fepaper reproduce
    --workers``), else ``default`` (the budget's)."""
    value = os.environ.get(WORKERS_ENV, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"${WORKERS_ENV} must be a positive integer, got {value!r}")
    return int(value)


def scheduler() -> str | None:
    """The dask scheduler a notebook plays on: ``$FEPAPER_SCHEDULER`` (``fepaper reproduce
    --scheduler``), else ``None`` (this machine)."""
    return os.environ.get(SCHEDULER_ENV, "").strip() or None
