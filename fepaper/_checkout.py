"""Which fepaper checkout a run serves: the one named by ``$FEPAPER_ROOT``, else the one holding
a folder (the current one), found by walking up, else the one the library was installed from
(``pip install -e``). A wheel's files lie in no checkout; the committed data, figures and
networks of the repository are found through the clone a run is started in.

Imports nothing of fepaper, so every layer may ask (the notebooks for their data, the value
networks' lookup for the repository's networks).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ROOT_ENV", "is_checkout", "find_checkout"]

#: The environment variable naming the checkout (``fepaper reproduce`` sets it for its notebooks).
ROOT_ENV = "FEPAPER_ROOT"


def is_checkout(folder: Path) -> bool:
    """Whether ``folder`` is a fepaper checkout: fepaper's ``pyproject.toml`` and ``notebooks/``."""
    project = folder / "pyproject.toml"
    if not ((folder / "notebooks").is_dir() and project.is_file()):
        return False
    return 'name = "fepaper"' in project.read_text(encoding="utf-8", errors="replace")


def find_checkout(start: Path | None = None, *, installed: bool = True) -> Path | None:
    """``$FEPAPER_ROOT`` if set; else the checkout holding ``start`` (default: the current folder);
    else, with ``installed``, the checkout the library was installed from; else None."""
    if os.environ.get(ROOT_ENV):
        return Path(os.environ[ROOT_ENV]).resolve()
    start = Path(start if start is not None else Path.cwd()).resolve()
    folders = (start, *start.parents, *([Path(__file__).resolve().parents[1]] if installed else []))
    return next((folder for folder in folders if is_checkout(folder)), None)
