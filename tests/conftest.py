import os
import shutil
import tempfile

import numpy as np
import pytest
from hypothesis import settings

settings.register_profile("fepaper", deadline=None, max_examples=40, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fepaper"))


def pytest_configure(config):
    """Every temporary file of the run (the tests', the doctests', the notebook kernels' smoke
    folders ``fepaper-smoke-*``) in one folder of this process, removed at its end: they were
    left in the system's temporary folder (30 after two runs of make test)."""
    folder = tempfile.mkdtemp(prefix="fepaper-tests-")
    config.stash[_TEMPORARY] = (folder, os.environ.get("TMPDIR"))
    os.environ["TMPDIR"] = folder  # the processes the tests start inherit it
    tempfile.tempdir = None  # this process's tempfile looks at TMPDIR again


def pytest_unconfigure(config):
    folder, before = config.stash.get(_TEMPORARY, (None, None))
    if folder is None:
        return
    if before is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before
    tempfile.tempdir = None
    shutil.rmtree(folder, ignore_errors=True)


_TEMPORARY = pytest.StashKey()



@pytest.fixture
def rng():
    return np.random.default_rng(42)
