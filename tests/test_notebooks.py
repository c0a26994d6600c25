"""Every notebook runs headless at the smoke budget (it writes to a temporary folder)."""

import pytest

from fepaper.notebook.runner import execute, notebook_paths

pytestmark = pytest.mark.slow  # part of make test; left out of make quick


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.name)
def test_notebook_runs_at_smoke_budget(path):
    execute(path, budget="smoke", timeout=600)
