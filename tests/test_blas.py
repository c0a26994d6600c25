"""Importing fepaper leaves OpenBLAS's kernels to the user; the processes that fit networks pin the
AVX2 kernels the shipped networks were fitted with (fepaper._blas), unless the user chose."""

import os
import platform
import subprocess
import sys

import pytest

from fepaper._blas import PINNED, _cpu_flags, pinned_environment

PROBE = "import os, fepaper, numpy; print(os.environ.get('OPENBLAS_CORETYPE'))"
RUNS_AVX2 = platform.machine().lower() in ("x86_64", "amd64") and {"avx2", "fma"} <= _cpu_flags()


def _core_type_in_a_fresh_interpreter(**env) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    done = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout.strip()


def test_importing_fepaper_changes_nothing_in_how_numpy_runs():
    assert _core_type_in_a_fresh_interpreter() == "None"
    assert _core_type_in_a_fresh_interpreter(OPENBLAS_CORETYPE="Zen") == "Zen"


@pytest.mark.parametrize("chosen", ["Zen", "Prescott"])
def test_a_fit_keeps_a_core_type_the_user_set(chosen):
    assert pinned_environment({"OPENBLAS_CORETYPE": chosen})["OPENBLAS_CORETYPE"] == chosen


def test_a_fit_runs_on_the_avx2_kernels_where_the_cpu_has_them():
    env = pinned_environment({"PATH": "/bin"})
    assert env.get("OPENBLAS_CORETYPE") == (PINNED if RUNS_AVX2 else None) and env["PATH"] == "/bin"


@pytest.mark.skipif(not RUNS_AVX2, reason="the AVX2 kernels are pinned only on an x86-64 CPU with AVX2 and FMA")
def test_net_fit_starts_again_on_the_avx2_kernels(monkeypatch, tmp_path):
    import fepaper._blas as blas
    from fepaper.cli import main

    started = []

    class Started(Exception):
        pass

    def execve(path, argv, env):
        started.append((argv, env))
        raise Started

    monkeypatch.setattr(blas, "CORE_TYPE_AT_IMPORT", None)
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.setattr(os, "execve", execve)
    command = ["net", "fit", "--out", str(tmp_path / "n.npz"), "--games", "2"]
    monkeypatch.setattr(sys, "argv", ["fepaper", *command])
    with pytest.raises(Started):
        main()
    (argv, env), = started
    assert argv[1:] == ["-m", "fepaper.cli", *command] and env["OPENBLAS_CORETYPE"] == PINNED
    assert not (tmp_path / "n.npz").exists()
