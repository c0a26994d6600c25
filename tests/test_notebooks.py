"""Every notebook runs headless at the smoke budget (it writes to a temporary folder), and its
page of the report builds from the executed notebook. Notebooks 06 and 11 run in
``tests/test_package.py`` instead, under the installed wheel, with the same checks."""

import html

import pytest

from fepaper.notebook.report import clean_executed, notebook_title, write_page
from fepaper.notebook.runner import execute, notebook_paths

pytestmark = pytest.mark.slow  # part of make test; left out of make quick

#: Run by the wheel's test (a notebook that reads committed data, one that writes figures).
UNDER_THE_WHEEL = ("06_interactive.ipynb", "11_solved_boards.ipynb")


def check_executed(nb, path, tmp_path):
    """No cell of ``nb`` (``path`` executed at smoke) failed, and its page of the report builds."""
    clean_executed(nb, {"budget": "smoke", "source": f"notebooks/{path.name}"})
    title = notebook_title(nb, path.stem)
    page = write_page(nb, tmp_path / f"{path.stem}.html", title=title, source=f"notebooks/{path.name}",
                      budget="smoke", link_base=path.parent).read_text()
    assert f"<title>{html.escape(title)}</title>" in page and "<main>" in page
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    assert "application/vnd.jupyter.widget-view+json" not in page


@pytest.mark.parametrize("path", [p for p in notebook_paths() if p.name not in UNDER_THE_WHEEL],
                         ids=lambda p: p.name)
def test_notebook_runs_at_smoke_budget_and_its_report_page_builds(path, tmp_path):
    check_executed(execute(path, budget="smoke", timeout=600), path, tmp_path)
