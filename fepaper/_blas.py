"""Pin OpenBLAS to its AVX2 kernels, so that a value network fitted here is the same to the bit
on every x86-64 machine.

numpy's matrix products go through OpenBLAS, which picks its kernels by CPU when it loads. On
a CPU with AVX-512 it sums in another order than on one with AVX2 only, and a fit of several
epochs turns that last-bit difference into other weights (0.009 apart for
``value_engines.npz``, 0.99 for ``value_engines25.npz``). The shipped networks were fitted
with the AVX2 kernels (OpenBLAS's ``Haswell``), which every x86-64 CPU with AVX2 and FMA runs.
:func:`pin_kernels` chooses them on such a CPU unless ``OPENBLAS_CORETYPE`` is set already.
It must run before numpy is first imported: ``fepaper/__init__.py`` runs it before anything
else, so a program that imports numpy before fepaper keeps the kernels its CPU chose.
"""

from __future__ import annotations

import os
import platform

__all__ = ["pin_kernels"]


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def pin_kernels() -> str | None:
    """Set ``OPENBLAS_CORETYPE=Haswell`` on an x86-64 CPU with AVX2 and FMA, unless it is set;
    returns the core type in force (``None``: OpenBLAS chooses)."""
    if "OPENBLAS_CORETYPE" not in os.environ and platform.machine().lower() in ("x86_64", "amd64") \
            and {"avx2", "fma"} <= _cpu_flags():
        os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    return os.environ.get("OPENBLAS_CORETYPE")
