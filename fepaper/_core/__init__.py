"""The numba-compiled core: named bundles of plain arrays in, plain numbers out.

No Python object (a game, a board, a rules value) ever enters a kernel: kernels take the
bundles of :mod:`fepaper._core.bundles`. Each kernel has a pure-Python twin written for
clarity (:mod:`fepaper.search.reference`); the tests compare them on random positions.
"""

import hashlib
import os
from pathlib import Path

import numba

__all__ = ["source_digest", "cache_dir"]


def source_digest(folder: Path | None = None) -> str:
    """A digest of every kernel's source (the ``.py`` files of ``folder``, this package's)."""
    folder = Path(__file__).parent if folder is None else Path(folder)
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Where numba keeps the compiled kernels: a folder named by :func:`source_digest`.

    numba's own cache checks only the source file of the function it loads, not the files
    of the kernels that function calls (each kernel is compiled into its callers): after an
    edit of ``turns.py`` the turn search would load its old machine code, with the old
    ``walk_turns`` inside, and run code no source says. Keyed by all of ``_core``'s
    sources, any edit starts a fresh cache. ``NUMBA_CACHE_DIR``, when set, is used as is.
    """
    return Path(__file__).parent / "__pycache__" / f"numba-{source_digest()}"


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())
