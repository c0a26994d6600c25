"""OpenBLAS is pinned to its AVX2 kernels before numpy loads (fepaper._blas), unless the user chose."""

import os
import platform
import subprocess
import sys

import pytest

from fepaper._blas import _cpu_flags

PROBE = "import os, fepaper, numpy; print(os.environ.get('OPENBLAS_CORETYPE'))"


def _core_type_in_a_fresh_interpreter(**env) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    done = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout.strip()


def test_importing_fepaper_pins_the_avx2_kernels_where_the_cpu_has_them():
    pinned = platform.machine().lower() in ("x86_64", "amd64") and {"avx2", "fma"} <= _cpu_flags()
    assert _core_type_in_a_fresh_interpreter() == ("Haswell" if pinned else "None")


@pytest.mark.parametrize("chosen", ["Zen", "Prescott"])
def test_a_core_type_the_user_set_is_kept(chosen):
    assert _core_type_in_a_fresh_interpreter(OPENBLAS_CORETYPE=chosen) == chosen
