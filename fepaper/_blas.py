"""OpenBLAS's kernels and the value networks: a fit is the same to the bit only on the same kernels.

numpy's matrix products go through OpenBLAS, which picks its kernels by CPU when it loads. On
a CPU with AVX-512 it sums in another order than on one with AVX2 only, and a fit of several
epochs turns that last-bit difference into other weights (0.009 apart for
``value_engines.npz``, 0.99 for ``value_engines25.npz``). The shipped networks were fitted
with the AVX2 kernels (OpenBLAS's ``Haswell``), which every x86-64 CPU with AVX2 and FMA runs.

The kernels are chosen once, when numpy loads, from ``OPENBLAS_CORETYPE``. Importing fepaper
changes nothing in how the user's numpy runs: it only notes the core type in force when it was
imported (:data:`CORE_TYPE_AT_IMPORT`). Pinning is done where a network is fitted:

- the processes that refit the shipped networks start with the AVX2 kernels
  (:func:`pinned_environment`): ``fepaper net fit`` starts itself again with them before it
  fits, ``fepaper reproduce`` starts its notebook kernels with them (notebook 08 refits
  every shipped network and reports its largest gap to the shipped weights), and a shipped
  network's recipe fitted in a process on other kernels runs in a fresh interpreter on them
  (:func:`needs_pinning`; :func:`fepaper.play.pools.in_fresh_interpreter`);
- a fit in a process whose kernels may differ from the shipped networks' (a CPU with AVX-512 and
  no core type chosen) warns that its last bits may differ (:func:`fit_kernels_warning`).
A core type the user set is always kept.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping

__all__ = ["CORE_TYPE_AT_IMPORT", "PINNED", "note_core_type", "pinned_environment", "needs_pinning",
           "fit_kernels_warning"]

#: The AVX2 kernels the shipped networks were fitted with.
PINNED = "Haswell"
#: ``OPENBLAS_CORETYPE`` when fepaper was imported (set by :func:`note_core_type`).
CORE_TYPE_AT_IMPORT: str | None = None


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _runs_avx2() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64") and {"avx2", "fma"} <= _cpu_flags()


def note_core_type() -> str | None:
    """Note (and return) the core type in force now: ``fepaper/__init__.py`` calls it first."""
    global CORE_TYPE_AT_IMPORT
    CORE_TYPE_AT_IMPORT = os.environ.get("OPENBLAS_CORETYPE")
    return CORE_TYPE_AT_IMPORT


def pinned_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's environment) with ``OPENBLAS_CORETYPE`` set to the AVX2
    kernels on an x86-64 CPU with AVX2 and FMA, unless it is set already: the environment of a
    process that fits a network to the bit of the shipped ones."""
    out = dict(os.environ if env is None else env)
    if "OPENBLAS_CORETYPE" not in out and _runs_avx2():
        out["OPENBLAS_CORETYPE"] = PINNED
    return out


def fit_kernels_warning() -> str | None:
    """Why a fit in this process may differ in its last bits from the shipped networks' (a CPU
    with AVX-512 whose OpenBLAS chose its own kernels), or ``None``."""
    if CORE_TYPE_AT_IMPORT is not None or not _runs_avx2() or "avx512f" not in _cpu_flags():
        return None
    return ("OpenBLAS runs its AVX-512 kernels here: a fit's weights may differ in their last bits from "
            "the shipped networks' (fitted on the AVX2 kernels). For the same weights, start Python with "
            f"OPENBLAS_CORETYPE={PINNED}, or fit with `fepaper net fit`, which does.")


def needs_pinning() -> bool:
    """Whether this process's OpenBLAS may run other kernels than the shipped networks were fitted
    on: no core type was chosen when fepaper was imported, on a CPU that runs the AVX2 ones."""
    return CORE_TYPE_AT_IMPORT is None and _runs_avx2()
