"""Notebook budgets: ``smoke`` (CI, seconds), ``quick`` (a laptop, minutes), ``full`` (thesis scale).

Every notebook starts with ``BUDGET = "quick"``, then calls :func:`resolve`, which
lets the environment variable ``FEPAPER_BUDGET`` override it, and
:func:`output_dirs`, which sends a smoke run's files to a temporary folder so it
never writes over ``figures/`` or ``data/``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["BUDGETS", "resolve", "output_dirs", "pick", "project_root"]

BUDGETS = ("smoke", "quick", "full")


def resolve(default: str = "quick") -> str:
    """The budget in force: ``$FEPAPER_BUDGET`` if set, else ``default``."""
    value = os.environ.get("FEPAPER_BUDGET", default).strip().lower()
    if value not in BUDGETS:
        raise ValueError(f"budget must be one of {BUDGETS}, got {value!r} (check FEPAPER_BUDGET)")
    return value


def pick(budget: str, smoke, quick, full):
    """The value for ``budget``: ``pick(BUDGET, 10, 200, 2000)``."""
    return {"smoke": smoke, "quick": quick, "full": full}[budget]


def project_root() -> Path:
    """The checkout's top folder (where ``pyproject.toml`` is)."""
    here = Path(__file__).resolve().parents[2]
    return here if (here / "pyproject.toml").exists() else Path.cwd()


def output_dirs(budget: str) -> tuple[Path, Path]:
    """``(figures, data)`` folders for ``budget``; a temporary pair for ``smoke``."""
    if budget == "smoke":
        tmp = Path(tempfile.mkdtemp(prefix="fepaper-smoke-"))
        figures, data = tmp / "figures", tmp / "data"
    else:
        root = project_root()
        figures, data = root / "figures", root / "data"
    figures.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    return figures, data
