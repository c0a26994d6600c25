"""Results, figures, the timing-noise policy and the report: what `fepaper reproduce` leaves to a reader."""

import json
import shutil
import textwrap
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import pandas as pd
import pytest

import fepaper
from fepaper.notebook import plots, publish, report, results
from fepaper.notebook.runner import rebuild_report, run_notebooks

matplotlib.use("Agg")


# -- result files and what in them is noise ------------------------------------------------------
def test_timing_columns_and_keys_are_not_material(tmp_path):
    table = pd.DataFrame({"depth": [1, 2], "nodes": [7, 49], "seconds": [0.001, 0.004]})
    csv, side = results.save_table(table, tmp_path, "t", {"seed": 1, "speed": 3e6}, timing=["seconds"],
                                   timing_keys=["speed"])
    assert json.loads(side.read_text())["timing_columns"] == ["seconds"]
    old = (results.material(csv, csv.read_bytes(), side.read_bytes()),
           results.material(side, side.read_bytes()))
    results.save_table(table.assign(seconds=[0.3, 0.5]), tmp_path, "t", {"seed": 1, "speed": 1e6},
                       timing=["seconds"], timing_keys=["speed"])
    assert (results.material(csv, csv.read_bytes(), side.read_bytes()),
            results.material(side, side.read_bytes())) == old
    results.save_table(table.assign(nodes=[7, 50]), tmp_path, "t", {"seed": 1, "speed": 1e6},
                       timing=["seconds"], timing_keys=["speed"])
    assert results.material(csv, csv.read_bytes(), side.read_bytes()) != old[0]
    with pytest.raises(ValueError, match="not columns"):
        results.save_table(table, tmp_path, "t", {}, timing=["ms"])


def test_rows_counted_by_timings_are_not_material(tmp_path):
    # pairs timed until a sequential test stops: the second run timed more pairs of the same cases
    def pairs(counts):
        return pd.DataFrame([{"case": c, "pair": k, "nodes": 7 * len(c), "cpu": 0.01 * (k + 1)}
                             for c, n in counts.items() for k in range(n)])

    csv, side = results.save_table(pairs({"a": 3, "b": 22}), tmp_path, "t", {"seed": 1},
                                   timing=["pair", "cpu"], timing_rows=True)
    assert json.loads(side.read_text())["timing_keys"] == ["rows"]
    old = (results.material(csv, csv.read_bytes(), side.read_bytes()), results.material(side, side.read_bytes()))
    results.save_table(pairs({"a": 5, "b": 40}), tmp_path, "t", {"seed": 1}, timing=["pair", "cpu"],
                       timing_rows=True)
    assert (results.material(csv, csv.read_bytes(), side.read_bytes()),
            results.material(side, side.read_bytes())) == old
    results.save_table(pairs({"a": 5, "c": 40}), tmp_path, "t", {"seed": 1}, timing=["pair", "cpu"],
                       timing_rows=True)  # another case is material
    assert results.material(csv, csv.read_bytes(), side.read_bytes()) != old[0]
    results.save_table(pairs({"a": 5, "b": 40}), tmp_path, "t", {"seed": 1}, timing=["pair", "cpu"])
    assert results.material(csv, csv.read_bytes(), side.read_bytes()) != old[0]  # rows count without it


def test_a_figure_carries_its_caption_and_whether_it_draws_timings(tmp_path):
    fig, ax = plots.figure()
    ax.plot([1, 2], [3, 4])
    path = plots.save_figure(fig, tmp_path, "01_demo", "A line, for the test.", timing=True)
    text = results.png_text(path.read_bytes())
    assert text["Description"] == "A line, for the test." and text[results.PNG_TIMING_KEY] == "1"
    ax.plot([1, 2], [4, 3])
    again = plots.save_figure(fig, tmp_path, "01_again", "Other lines, for the test.", timing=True)
    assert again.read_bytes() != path.read_bytes()
    assert results.material(path, path.read_bytes()) == results.material(again, again.read_bytes())
    plain = plots.save_figure(fig, tmp_path, "01_plain", "The same line.")
    assert results.material(plain, plain.read_bytes()) == plain.read_bytes()
    wide, _ = plots.figure()
    wide.set_size_inches(12, 3)
    with pytest.raises(ValueError, match="wide"):
        plots.save_figure(wide, tmp_path, "01_wide", "Too wide.")
    with pytest.raises(ValueError, match="one line"):
        plots.save_figure(fig, tmp_path, "01_none", "  ")


def test_panel_grids_wrap_at_page_width():
    fig, axes = plots.panel_grid(6, ncols=3)
    assert len(axes) == 6 and fig.get_size_inches()[0] == plots.PAGE_WIDTH
    assert len({round(ax.get_position().y0, 3) for ax in axes}) == 2  # two rows, not one strip
    fig, axes = plots.panel_grid(4, ncols=3)
    assert len(axes) == 4 and len(fig.axes) == 4  # the spare cells are gone


def test_every_player_has_one_name_and_colour_everywhere():
    specs = [{"name": "alphabeta", "variant": v, "depth": 2} for v in ("static", "costs", "nocycles", "dynamic")]
    specs += [{"name": "aco", "variant": v} for v in ("base", "ferdist", "ferdistrival")]
    specs += [{"name": "aco", "variant": "ferdist", "n_ants": 12, "alpha": 2.0}, {"name": "mcts", "iterations": 2000},
              {"name": "turnsearch", "depth": 2, "time_limit": 1.0}, "greedy", "random",
              {"name": "random", "mode": "turns"}]
    table = plots.players_table(specs)
    assert table.player.is_unique and len(table) == len(specs)
    assert table.player.tolist()[:4] == ["AB-static L2", "AB-costs L2", "AB-nocycles L2", "AB-dynamic L2"]
    tuned = table.iloc[7]
    assert tuned.player.startswith("ACO-FerDist *") and tuned.marker == "D"
    assert tuned.colour == table.iloc[5].colour  # a tuned colony keeps its variant's colour
    # the same spec, written otherwise, is the same player
    assert plots.short_name({"name": "aco", "variant": "ferdist", "alpha": 2.0, "n_ants": 12}) == tuned.player
    assert plots.short_name({"name": "alphabeta", "depth": 2}) == "AB-dynamic L2"
    assert len(set(table.colour[:7])) == 7
    # a search valued by a network is named by the network's file
    net = {"name": "bestfirst", "evaluator": "net", "net": "value_engines9.npz"}
    assert plots.short_name({**net, "time_limit": 0.1}) == "BF value_engines9 0.1s"
    assert plots.short_name({**net, "iterations": 2000}) == "BF 2k value_engines9"
    assert plots.short_name({"name": "bestfirst", "evaluator": "net", "iterations": 2000}) == "BF 2k net"
    assert plots.colour(net) != plots.colour({"name": "bestfirst", "evaluator": "distance"})


def test_distributions_are_steps_over_shared_integer_bins():
    fig, ax = plots.figure()
    a, b = [1, 1, 2, 6], [3, 3, 3]
    bins = plots.integer_bins([a, b])
    assert bins.tolist() == [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
    steps = plots.step_hist(ax, a, bins)
    values = steps.get_data().values
    assert values.tolist() == [0.5, 0.25, 0.0, 0.0, 0.0, 0.25]  # empty bins drawn at zero


def test_an_estimate_is_drawn_with_its_interval():
    fig, ax = plots.figure()
    drawn = plots.errorbars(ax, [1, 2], [0.5, 0.2], [0.3, 0.0], [0.8, 0.6])
    segments = drawn.lines[2][0].get_segments()  # one vertical segment per point: low to high
    assert [(seg[0][1], seg[1][1]) for seg in segments] == [(0.3, 0.8), (0.0, 0.6)]


def test_labels_of_points_do_not_overlap():
    fig, ax = plots.figure()
    xs, ys = np.array([1.0, 1.02, 1.04, 3.0]), np.array([1.0, 1.0, 1.01, 2.0])
    ax.scatter(xs, ys)
    ax.set_xlim(0, 4)
    ax.set_ylim(0, 3)
    texts = plots.label_points(ax, xs, ys, ["AB-dynamic L2", "AB-static L2", "ACO-base", "greedy"])
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in texts]
    assert not any(boxes[i].overlaps(boxes[j]) for i in range(4) for j in range(i + 1, 4))


# -- publishing: noise is put back, real changes are kept ----------------------------------------
def test_compare_sorts_changes_and_restore_puts_noise_back(tmp_path):
    table = pd.DataFrame({"n": [1], "seconds": [0.1]})
    results.save_table(table, tmp_path, "a", {}, timing=["seconds"])
    (tmp_path / "b.txt").write_text("b")
    before = publish.Snapshot.take([tmp_path])
    results.save_table(table.assign(seconds=[0.2]), tmp_path, "a", {}, timing=["seconds"])
    (tmp_path / "b.txt").write_text("B")
    (tmp_path / "c.txt").write_text("c")
    out = publish.compare(before, publish.Snapshot.take([tmp_path]))
    assert out.noise == [tmp_path / "a.csv"] and out.modified == [tmp_path / "b.txt"]
    assert out.created == [tmp_path / "c.txt"] and out.material
    publish.restore(out.noise, before)
    assert "0.1" in (tmp_path / "a.csv").read_text()


def test_material_outputs_mask_numbers_only_in_timing_cells():
    def nb(seconds, nodes, tag=True):
        cell = nbformat.v4.new_code_cell("x", metadata={"tags": ["timing"] if tag else []}, outputs=[
            nbformat.v4.new_output("stream", text=f"{seconds} s\n")])
        plain = nbformat.v4.new_code_cell("y", outputs=[nbformat.v4.new_output("stream", text=f"{nodes} nodes\n")])
        return nbformat.v4.new_notebook(cells=[cell, plain])

    assert publish.material_outputs(nb(0.5, 7)) == publish.material_outputs(nb(0.9, 7))
    assert publish.material_outputs(nb(0.5, 7)) != publish.material_outputs(nb(0.5, 8))
    assert publish.material_outputs(nb(0.5, 7, tag=False)) != publish.material_outputs(nb(0.9, 7, tag=False))
    # in a timing cell, timings decide how many numbers a list holds and how wide a column is
    assert publish.material_outputs(nb("faster at depths 2, 3, 4 and 5:", 7)) == publish.material_outputs(
        nb("faster at depths 2 and 3:", 7))
    assert publish.material_outputs(nb("seconds\n   0.5  0.25", 7)) == publish.material_outputs(
        nb("seconds\n  0.51 0.2", 7))
    assert publish.material_outputs(nb("faster at depths 2, 3:", 7)) != publish.material_outputs(
        nb("slower at depths 2, 3:", 7))
    # a verdict resting on timings: alpha-beta slower in 1 of 6 cases, confirmed; in 0, not decided
    assert publish.material_outputs(nb("slower in 1 of 6 cases | confirmed", 7)) == publish.material_outputs(
        nb("slower in 0 of 6 cases | not decided", 7))
    assert publish.material_outputs(nb(0.5, "confirmed: 7", tag=False)) != publish.material_outputs(
        nb(0.5, "not decided: 7", tag=False))


def test_the_random_id_of_a_styled_table_is_not_material():
    def nb(table):
        html = table.style.format(precision=2).to_html()
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("t", outputs=[
            nbformat.v4.new_output("display_data", data={"text/html": html})])])

    table = pd.DataFrame({"nodes": [31, 1587]})
    first, second = nb(table), nb(table)
    assert first.cells[0].outputs[0].data != second.cells[0].outputs[0].data  # pandas draws a new id
    assert publish.material_outputs(first) == publish.material_outputs(second)
    assert publish.material_outputs(first) != publish.material_outputs(nb(pd.DataFrame({"nodes": [31, 1588]})))


NOTEBOOK = '''
BUDGET = "quick"
---
import random
from fepaper.notebook.budget import output_dirs, resolve
from fepaper.notebook import plots, results
BUDGET = resolve(BUDGET)
FIGURES, DATA = output_dirs(BUDGET)
NODES = {nodes}
---
seconds = random.uniform(0.1, 0.9)  # a timing: different on every run
results.save_table(__import__("pandas").DataFrame({{"nodes": [NODES], "seconds": [seconds]}}), DATA, "09_demo",
                   {{"budget": BUDGET}}, timing=["seconds"])
print(f"{{NODES}} nodes")
---timing
fig, ax = plots.figure()
ax.bar([0], [seconds])
plots.save_figure(fig, FIGURES, "09_demo", "A timing, for the test.", timing=True)
print(f"{{seconds:.3f}} s")
'''


def _project(root: Path, nodes: int) -> Path:
    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").touch()
    cells = []
    for k, part in enumerate(NOTEBOOK.format(nodes=nodes).strip().split("\n---")):
        tags = ["timing"] if part.startswith("timing") else []
        source = part.removeprefix("timing").strip()
        cells.append(nbformat.v4.new_markdown_cell("# 09 · Demo") if k == 0 else None)
        cells.append(nbformat.v4.new_code_cell(source, metadata={"tags": tags}))
    nb = nbformat.v4.new_notebook(cells=[c for c in cells if c is not None], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    path = root / "notebooks" / "09_demo.ipynb"
    nbformat.write(nb, path)
    return path


def _tree(root: Path) -> dict:
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_a_second_run_that_differs_by_timings_only_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    monkeypatch.delenv("FEPAPER_BUDGET", raising=False)  # make test sets smoke, which writes nowhere
    _project(tmp_path, nodes=7)
    lines = []
    assert run_notebooks(root=tmp_path, out=lines.append) == 0
    first = _tree(tmp_path)
    for name in ("data/09_demo.csv", "figures/09_demo.png", "docs/report/09_demo.html",
                 "docs/report/09_demo.ipynb", "docs/report/index.html", "docs/report/README.md", "docs/report/style.css",
                 "docs/figures.md"):
        assert Path(name) in first, name
    assert "A timing, for the test." in (tmp_path / "docs" / "figures.md").read_text()
    page = (tmp_path / "docs" / "report" / "09_demo.html").read_text()
    assert "<h1" in page and "7 nodes" in page and "http" not in page.replace("http://www.w3.org", "")

    sidecar = tmp_path / "data" / "09_demo.json"  # as an older version of the library wrote it
    sidecar.write_text(sidecar.read_text().replace(f'"fepaper": "{fepaper.__version__}"', '"fepaper": "0.0.1"'))
    first = _tree(tmp_path)
    lines.clear()
    assert run_notebooks(root=tmp_path, out=lines.append) == 0
    assert _tree(tmp_path) == first, "a rerun with new timings and a new version only changed committed files"
    assert any("results unchanged" in line and "timings only" in line for line in lines), lines

    # a page written again for a new source keeps this run's timings beside it: its figure is the page's
    notebook = nbformat.read(tmp_path / "notebooks" / "09_demo.ipynb", as_version=4)
    notebook.cells.insert(1, nbformat.v4.new_markdown_cell("A word more."))
    nbformat.write(notebook, tmp_path / "notebooks" / "09_demo.ipynb")
    lines.clear()
    assert run_notebooks(root=tmp_path, out=lines.append) == 0
    page = nbformat.read(tmp_path / "docs" / "report" / "09_demo.ipynb", as_version=4)
    shown = [o.text for c in page.cells if c.cell_type == "code" for o in c.outputs if o.get("text", "").endswith(" s\n")]
    assert shown and f"{pd.read_csv(tmp_path / 'data' / '09_demo.csv').seconds[0]:.3f} s\n" == shown[0]
    assert (tmp_path / "figures" / "09_demo.png").read_bytes() != first[Path("figures/09_demo.png")]
    assert any("new timings" in line for line in lines), lines

    _project(tmp_path, nodes=8)  # a real change: everything of the run is kept, the report rewritten
    lines.clear()
    assert run_notebooks(root=tmp_path, out=lines.append) == 0
    assert "8 nodes" in (tmp_path / "docs" / "report" / "09_demo.html").read_text()
    assert ",8," in (tmp_path / "data" / "09_demo.csv").read_text().replace("\n", ",")
    assert f'"fepaper": "{fepaper.__version__}"' in sidecar.read_text()  # a new table: its writer's version
    assert any("changed" in line and "data/09_demo.csv" in line for line in lines), lines

    # the pages are a function of the executed notebooks: rebuilt without running, they are the same
    pages = _tree(tmp_path / "docs")
    (tmp_path / "docs" / "report" / "09_demo.html").unlink()
    rebuild_report(tmp_path, out=lines.append)
    assert _tree(tmp_path / "docs") == pages


@pytest.mark.slow
def test_a_quick_run_keeps_the_committed_page_of_the_paper_budget(tmp_path, monkeypatch):
    """Notebooks 03 and 04 commit their `paper` pages: a default (`quick`) reproduction must not
    replace them, nor the figures, captions and tables beside them, with its smaller run."""
    monkeypatch.delenv("FEPAPER_BUDGET", raising=False)
    _project(tmp_path, nodes=7)
    assert run_notebooks(root=tmp_path, budget="paper", out=lambda line: None) == 0
    page = tmp_path / "docs" / "report" / "09_demo.ipynb"
    assert nbformat.read(page, as_version=4).metadata["fepaper"]["budget"] == "paper"
    paper = _tree(tmp_path)
    _project(tmp_path, nodes=8)
    lines = []
    assert run_notebooks(root=tmp_path, budget="quick", out=lines.append) == 0
    assert nbformat.read(page, as_version=4).metadata["fepaper"]["budget"] == "paper"
    assert "7 nodes" in (tmp_path / "docs" / "report" / "09_demo.html").read_text()
    assert any("kept: the committed page is the paper budget's" in line for line in lines), lines
    assert any("stay that budget's" in line for line in lines), lines
    now = _tree(tmp_path)
    assert {k for k in now if now[k] != paper.get(k)} == {Path("notebooks/09_demo.ipynb")}  # the new source alone


@pytest.mark.slow
def test_a_smoke_run_changes_nothing_of_the_project_and_says_where_it_wrote(tmp_path):
    _project(tmp_path, nodes=7)
    before = _tree(tmp_path)
    lines = []
    assert run_notebooks(root=tmp_path, budget="smoke", out=lines.append) == 0
    assert _tree(tmp_path) == before
    line = next(line for line in lines if line.startswith("09_demo: smoke"))
    assert "wrote 3 file(s) to temporary folders (" in line, lines  # the table, its sidecar, the figure
    folders = [Path(f) for f in line.split("folders (", 1)[1].rstrip(")").split(", ")]
    assert [f.name for f in folders] == ["data", "figures"]
    assert all(f.is_dir() and not f.is_relative_to(tmp_path) for f in folders)
    for folder in folders:
        shutil.rmtree(folder.parent, ignore_errors=True)  # the run's own temporary folder


def test_the_report_page_of_an_executed_notebook(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# 07 · Title\n\nSee [the rules](../docs/rules.md)."),
        nbformat.v4.new_code_cell("print(1)", outputs=[nbformat.v4.new_output("stream", text="1\n")]),
        nbformat.v4.new_code_cell("w", outputs=[nbformat.v4.new_output("display_data", data={
            "text/plain": "Box(...)", "text/html": "<div>static</div>",
            "application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2}})]),
    ])
    report.clean_executed(nb, {"budget": "quick", "source": "notebooks/07_t.ipynb"})
    assert "application/vnd.jupyter.widget-view+json" not in nb.cells[2].outputs[0].data
    out = tmp_path / "docs" / "report"
    out.mkdir(parents=True)
    page = report.write_page(nb, out / "07_t.html", title="07 · Title", source="notebooks/07_t.ipynb",
                             budget="quick", link_base=tmp_path / "notebooks").read_text()
    assert '<a href="../rules.md">' in page  # the notebook's link, rewritten for the page's folder
    assert "<div>static</div>" in page and "<script" not in page
    nbformat.write(nb, out / "07_t.ipynb")
    (tmp_path / "notebooks").mkdir()
    for name in ("07_t.ipynb", "08_new.ipynb"):
        nbformat.write(nbformat.v4.new_notebook(), tmp_path / "notebooks" / name)
    report.write_index(out, tmp_path / "notebooks")
    index = (out / "README.md").read_text()
    assert "[07 · Title](07_t.html)" in index and "`notebooks/08_new.ipynb`: no page yet" in index
    assert "07_t.ipynb`: no page" not in index
    assert textwrap.dedent("<title>fepaper report</title>") in (out / "index.html").read_text()


def test_bars_write_plain_lines_to_the_progress_file_and_close_once(tmp_path, monkeypatch):
    import gc

    from fepaper.game.progress import PROGRESS_ENV, bar, track

    path = tmp_path / "progress.txt"
    monkeypatch.setenv(PROGRESS_ENV, str(path))
    assert list(track(range(3), "steps")) == [0, 1, 2]
    b = bar(2, "games", "game")
    b.update(2)
    b.close()
    del b
    gc.collect()  # tqdm closes again when collected: nothing may be written to the closed file
    lines = [line for line in path.read_text().replace("\r", "\n").splitlines() if line.strip()]
    assert lines[-1].startswith("games: 100%") and "3/3" in path.read_text()
    assert all(ch.isascii() for ch in path.read_text())


def test_a_long_cell_prints_its_last_progress_lines_before_its_end(tmp_path):
    from fepaper.notebook.runner import _Watcher

    path = tmp_path / "progress.txt"
    path.write_text("")
    lines = []
    watcher = _Watcher("02_x", path, 24, lines.append)  # its polling thread not started: no race
    cell = nbformat.v4.new_code_cell("table = search_scaling()\nplot(table)")
    watcher.cell_started(cell, 7)
    watcher.announced = True  # as the polling loop does once the cell has run long
    path.write_text("searches: 50%| 20/40\rsearches: 100%| 40/40\r")
    watcher.cell_done(cell, 7)
    assert lines == ["    searches: 50%| 20/40", "    searches: 100%| 40/40",
                     lines[-1]] and lines[-1].startswith("  [02_x] cell 8/24 done in ")


def test_a_notebook_with_an_output_widget_runs(tmp_path):
    # ipywidgets.interactive prints into an Output widget while the cell runs (notebook 05 does)
    from fepaper.notebook.runner import execute

    path = tmp_path / "09_widget.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import ipywidgets as W\nW.interactive(lambda x: print('x is', x), x=W.IntSlider(value=3))")]), path)
    nb = execute(path, budget="smoke", timeout=120)
    assert nb.cells[0].outputs  # the widget's view (and its static form where it has one)
    report.clean_executed(nb, {"budget": "smoke"})
    assert "widgets" not in nb.metadata  # the state kept while running is not saved


def test_a_run_stopped_half_way_puts_back_files_with_new_timings_and_keeps_new_results(tmp_path, monkeypatch):
    import pandas as pd

    from fepaper.notebook import runner
    from fepaper.notebook.results import save_table

    monkeypatch.delenv("FEPAPER_BUDGET", raising=False)
    _project(tmp_path, nodes=7)
    data = tmp_path / "data"
    data.mkdir()
    save_table(pd.DataFrame({"nodes": [7], "seconds": [0.5]}), data, "09_demo", {"budget": "quick"},
               timing=["seconds"])
    save_table(pd.DataFrame({"games": [1]}), data, "09_games", {"budget": "quick"})
    before = _tree(tmp_path)

    def stopped(path, budget=None, timeout=3600, *, out=None):  # the notebook's first cells ran, then Ctrl-C
        save_table(pd.DataFrame({"nodes": [7], "seconds": [0.7]}), data, "09_demo", {"budget": "quick"},
                   timing=["seconds"])
        save_table(pd.DataFrame({"games": [1, 2]}), data, "09_games", {"budget": "quick"})
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "execute", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_notebooks(root=tmp_path, out=lambda line: None)
    after = _tree(tmp_path)
    timed = Path("data/09_demo.csv")
    assert after[timed] == before[timed], "new timings alone were kept"
    assert after[Path("data/09_games.csv")] != before[Path("data/09_games.csv")], "a new result was lost"


def test_project_root_walks_up_from_a_notebooks_folder_to_its_checkout(tmp_path, monkeypatch):
    from fepaper.notebook.budget import project_root

    clone = tmp_path / "clone"
    (clone / "notebooks" / "deeper").mkdir(parents=True)
    (clone / "pyproject.toml").write_text('[project]\nname = "fepaper"\n')
    monkeypatch.delenv("FEPAPER_ROOT", raising=False)
    assert project_root(clone / "notebooks" / "deeper") == clone.resolve()
    monkeypatch.chdir(clone / "notebooks")
    assert project_root() == clone.resolve()
    other = tmp_path / "other"
    (other / "notebooks").mkdir(parents=True)
    (other / "pyproject.toml").write_text('[project]\nname = "another"\n')
    assert project_root(other / "notebooks") != other.resolve()  # not fepaper's: the next candidate
    monkeypatch.setenv("FEPAPER_ROOT", str(other))
    assert project_root(clone) == other.resolve()


@pytest.mark.slow
def test_reproducing_a_notebook_over_a_copy_of_the_checkout_changes_no_committed_file(tmp_path, monkeypatch):
    """`make reproduce` on a fresh clone changes no tracked file but those with new results: notebook
    01 (its figures, their captions, its page) at its own budget (quick) over a copy of every
    tracked file. (The version a sidecar records: the test above.)"""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    monkeypatch.delenv("FEPAPER_BUDGET", raising=False)
    try:
        tracked = subprocess.check_output(["git", "ls-files"], cwd=root, text=True).splitlines()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for name in tracked:
        if (root / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, tmp_path / name)
    before = _tree(tmp_path)
    lines = []
    assert run_notebooks([str(tmp_path / "notebooks" / "01_rules_and_board.ipynb")], root=tmp_path,
                         out=lines.append) == 0
    after = _tree(tmp_path)
    assert [str(k) for k in after if before.get(k) != after[k]] == [], lines
    assert any("01_rules_and_board: quick" in line and "results unchanged" in line for line in lines), lines


def test_no_committed_report_page_shows_a_warning_a_machine_path_or_a_bare_figure():
    """A reader's page holds results: no warning printed to stderr, no path of the machine that ran
    it (a temporary folder, a home), every image's alt text says what it shows, and no table cell
    holds pandas' default scientific notation (``5.832000e+00``)."""
    import re

    pages = sorted((Path(__file__).resolve().parent.parent / "docs" / "report").glob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        stderr = re.findall(r'<pre class="stderr">(.*?)</pre>', text, flags=re.S)
        assert not [s for s in stderr if "Warning" in s], f"{page.name}: a warning block"
        found = re.findall(r"(?:/tmp/|/home/|/root/|/Users/|/work/|ipykernel_)[^\s<\"']*", text)
        assert not found, f"{page.name}: a path of the machine that ran it: {found[:3]}"
        assert "<Figure size" not in text, f"{page.name}: an image whose alt text is matplotlib's repr"
        raw = re.findall(r"<td>-?\d\.\d{6}e[+-]\d\d</td>", text)
        assert not raw, f"{page.name}: numbers in pandas' default format: {raw[:3]}"
