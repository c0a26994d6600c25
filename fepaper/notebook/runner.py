"""Execute the notebooks headless (``fepaper reproduce`` and the notebook tests)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from .budget import BUDGETS, project_root

__all__ = ["notebook_paths", "execute", "run_notebooks"]


def notebook_paths() -> list[Path]:
    return sorted((project_root() / "notebooks").glob("*.ipynb"))


def execute(path: Path, budget: str | None = None, timeout: int = 3600) -> None:
    """Run one notebook in a fresh kernel in its own folder; outputs are not saved back."""
    import nbformat
    from nbclient import NotebookClient

    if budget is not None and budget not in BUDGETS:
        raise ValueError(f"budget must be one of {BUDGETS}, got {budget!r}")
    nb = nbformat.read(path, as_version=4)
    old = os.environ.get("FEPAPER_BUDGET")
    if budget is not None:
        os.environ["FEPAPER_BUDGET"] = budget
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        if budget is not None:
            if old is None:
                os.environ.pop("FEPAPER_BUDGET", None)
            else:
                os.environ["FEPAPER_BUDGET"] = old


def run_notebooks(names: list[str] | None = None, budget: str | None = None, timeout: int = 3600) -> int:
    paths = [Path(n) for n in names] if names else notebook_paths()
    failed = 0
    for path in paths:
        start = time.perf_counter()
        print(f"running {path} ...", flush=True)
        try:
            execute(path, budget, timeout)
        except Exception as exc:  # report every notebook, then fail
            failed += 1
            print(f"FAILED {path}: {type(exc).__name__}: {str(exc)[-2000:]}", file=sys.stderr)
        else:
            print(f"done {path} in {time.perf_counter() - start:.1f} s", flush=True)
    return 1 if failed else 0
