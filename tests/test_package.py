"""The package as a user installs it: a wheel built from the repository, installed in a fresh virtual
environment outside it, plays from there.

The new environment installs the wheel alone (``--no-deps``) and finds numpy, numba and the rest in
this environment's site-packages, added to its path by a ``.pth`` file (whose own ``.pth`` files,
among them the editable install of the checkout, are not read), so the test needs no network and
``import fepaper`` there can only be the wheel's.
"""

import json
import os
import re
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import nbformat
import pytest

import fepaper

from .test_notebooks import UNDER_THE_WHEEL, check_executed

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
    assert "fepaper/py.typed" in names and "Classifier: Typing :: Typed" in metadata
    assert "Provides-Extra: cluster" in metadata and "`cluster`" in metadata  # the extra and its line
    description = metadata.split("\n\n", 1)[1]
    relative = [t for t in re.findall(r"\]\(([^)]+)\)", description) if not t.startswith("https://")]
    assert description.startswith("# fepaper") and not relative, relative  # read off the repository


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """The python of a fresh environment holding the wheel alone (its dependencies read from ours)."""
    env = tmp_path_factory.mktemp("env")
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    theirs = Path(subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                          text=True).strip())
    ours = [p for p in site.getsitepackages() + [sysconfig.get_path("purelib")] if Path(p).is_dir()]
    (theirs / "dependencies.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
                   check=True)
    return python


def test_the_installed_wheel_plays_from_a_folder_outside_the_repository(installed, tmp_path):
    python, env = installed, installed.parents[1]
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
    for command, flag in ((["solve", "--rules", '{"width": 2, "height": 4}'], "--out"), (["claims-table"], "--data")):
        done = subprocess.run([python, "-m", "fepaper.cli", *command], cwd=work, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 2 and f"{flag} defaults to a checkout's" in done.stderr, done.stderr
    assert list(work.iterdir()) == []


def test_the_installed_wheel_runs_the_notebooks_of_the_checkout_it_is_started_in(installed, tmp_path):
    """Jupyter starts a notebook's kernel in the notebook's folder: the wheel finds the checkout by
    walking up from there, reads its committed data (notebook 11) and its networks (notebook 08's,
    which the wheel does not ship) and writes nothing into ``notebooks/`` (notebook 06's figures go
    to the smoke budget's temporary folder)."""
    before = sorted(p.name for p in (ROOT / "notebooks").iterdir())
    script = ("import sys, nbformat, fepaper\n"
              "from fepaper.notebook.runner import execute\n"
              "assert fepaper.__file__.startswith(sys.prefix), fepaper.__file__\n"
              "for name in sys.argv[2:]:\n"
              "    nbformat.write(execute(name, budget='smoke', timeout=600), f'{sys.argv[1]}/{name}')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("FEPAPER_ROOT", "FEPAPER_BUDGET")}
    done = subprocess.run([installed, "-c", script, str(tmp_path), *UNDER_THE_WHEEL], cwd=ROOT / "notebooks",
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(p.name for p in (ROOT / "notebooks").iterdir()) == before
    for name in UNDER_THE_WHEEL:
        check_executed(nbformat.read(tmp_path / name, as_version=4), ROOT / "notebooks" / name, tmp_path)
    found = subprocess.run([installed, "-c", "from fepaper.search.valuefile import network_path; "
                            "print(network_path('value_engines9.npz'))"], cwd=ROOT / "notebooks", env=env,
                           capture_output=True, text=True, timeout=120)
    assert found.returncode == 0 and Path(found.stdout.strip()).parent == ROOT / "data" / "strength" / "networks"
    outside = subprocess.run([installed, "-c", "from fepaper.notebook.budget import project_root; project_root()"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert outside.returncode == 1
    assert "is not inside a fepaper checkout and fepaper is installed from a wheel" in outside.stderr
    assert "set FEPAPER_ROOT" in outside.stderr
