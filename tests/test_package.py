"""The package as a user installs it: a wheel built from the repository, installed in a fresh virtual
environment outside it, plays from there.

The new environment installs the wheel alone (``--no-deps``) and finds numpy, numba and the rest in
this environment's site-packages, added to its path by a ``.pth`` file (whose own ``.pth`` files,
among them the editable install of the checkout, are not read), so the test needs no network and
``import fepaper`` there can only be the wheel's.
"""

import json
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

import fepaper

ROOT = Path(__file__).parents[1]
pytestmark = pytest.mark.slow  # a wheel build and a cold numba compile: part of make test, not make quick


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(out), str(ROOT)], check=True)
    (found,) = out.glob("fepaper-*.whl")
    return found


def test_the_wheel_carries_the_licence_the_networks_and_the_version(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert wheel.name.startswith(f"fepaper-{fepaper.__version__}-")
    assert any(n.endswith("licenses/LICENSE") for n in names), names
    assert [n for n in names if n.endswith(".npz")] == ["fepaper/data/value_engines25w2.npz"]  # the default alone
    assert any(n.endswith("/perft_reference.csv") for n in names), names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    core = [r for r in requires if "extra ==" not in r]
    assert not any(name in r for r in core for name in ("jupyterlab", "ipywidgets", "ipyevents")), core


def test_the_installed_wheel_plays_from_a_folder_outside_the_repository(wheel, tmp_path):
    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    theirs = Path(subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                          text=True).strip())
    ours = [p for p in site.getsitepackages() + [sysconfig.get_path("purelib")] if Path(p).is_dir()]
    (theirs / "dependencies.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                   check=True)
    work = tmp_path / "work"
    work.mkdir()

    def run(*args):
        done = subprocess.run([python, "-m", "fepaper.cli", *args], cwd=work, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = subprocess.check_output([python, "-c", "import fepaper; print(fepaper.__file__)"], cwd=work, text=True)
    assert Path(where.strip()).is_relative_to(env), where
    assert run("--version").strip() == f"fepaper {fepaper.__version__}"
    assert json.loads(run("perft", "--rules", "standard", "--depth", "2", "--json"))["total"] == 56
    net = json.dumps({"name": "bestfirst", "iterations": 20})  # the shipped network, the default
    played = json.loads(run("match", net, "greedy", "--rules", "codingame", "--games", "2", "--json"))
    assert played["games"] == 2 and played["wins_a"] + played["wins_b"] + played["draws"] == 2
    other = json.dumps({"name": "bestfirst", "net": "value_engines9.npz", "iterations": 20})  # not shipped
    done = subprocess.run([python, "-m", "fepaper.cli", "match", other, "greedy", "--rules", "codingame"], cwd=work,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and "no network 'value_engines9.npz'" in done.stderr and "FEPAPER_NETWORKS" in done.stderr
    done = subprocess.run([python, "-m", "fepaper.cli", "reproduce", "--budget", "smoke"], cwd=work,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and "not inside a fepaper checkout" in done.stderr
    assert list(work.iterdir()) == []
