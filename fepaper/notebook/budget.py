"""Notebook budgets: ``smoke`` (CI, seconds), ``quick`` (a laptop, minutes), ``full`` (thesis scale).

Every notebook starts with ``BUDGET = "quick"``, then calls :func:`resolve`, which
lets the environment variable ``FEPAPER_BUDGET`` override it, and
:func:`output_dirs`, which sends a smoke run's files to a temporary folder so it
never writes over ``figures/`` or ``data/``.
"""

from __future__ import annotations

import json
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


#: Set by ``fepaper reproduce`` while it runs a notebook: a file where :func:`output_dirs`
#: notes the budget and the folders, so the runner can list what the notebook wrote.
LEDGER_ENV = "FEPAPER_LEDGER"


def project_root() -> Path:
    """The checkout's top folder (where ``pyproject.toml`` is); ``$FEPAPER_ROOT`` overrides it."""
    if os.environ.get("FEPAPER_ROOT"):
        return Path(os.environ["FEPAPER_ROOT"]).resolve()
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
    ledger = os.environ.get(LEDGER_ENV)
    if ledger:
        with open(ledger, "a", encoding="utf-8") as f:
            f.write(json.dumps({"budget": budget, "figures": str(figures), "data": str(data)}) + "\n")
    return figures, data
