"""Execute the notebooks headless and publish what they found (``fepaper reproduce``, ``make reproduce``).

For each notebook, :func:`run_notebooks`

1. executes it in a fresh kernel in its own folder (:func:`execute`), printing in the terminal
   the progress bars of its long loops (:mod:`fepaper.game.progress`) and the cells
   that run long, while the notebook's own outputs stay free of bars;
2. compares the files it wrote under ``data/`` and ``figures/`` and its outputs with the
   committed ones (:mod:`fepaper.notebook.publish`): if only timings changed, the committed
   files are put back and the report is left as it is; otherwise everything is kept and
   the notebook's page of the report is written (:mod:`fepaper.notebook.report`);
3. at the end, writes the report's index and ``docs/figures.md`` and prints a summary of
   every file written.

At the ``smoke`` budget the notebooks write to temporary folders (see
:func:`fepaper.notebook.budget.output_dirs`) and so does the report; nothing committed
changes.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .._blas import pinned_environment
from ..game.progress import PROGRESS_ENV
from ..game.writes import write_atomic
from ..play.pools import environment
from .budget import BUDGETS, LEDGER_ENV, project_root
from .publish import Outcome, Snapshot, compare, material_outputs, restore
from .report import REPORT_DIR, clean_executed, notebook_title, write_figures_page, write_index, write_page

__all__ = ["notebook_paths", "execute", "run_notebooks", "rebuild_report", "NotebookRun"]

# A cell running longer than this is announced in the terminal.
_LONG_CELL = 10.0


def notebook_paths(root: Path | None = None) -> list[Path]:
    return sorted(((root or project_root()) / "notebooks").glob("*.ipynb"))


class _Watcher:
    """Prints, while a notebook runs, the lines its progress bars write and its long cells."""

    def __init__(self, name: str, progress_file: Path, n_cells: int, out) -> None:
        self.name, self.file, self.n_cells, self.out = name, progress_file, n_cells, out
        self.cell: tuple[int, str, float] | None = None
        self.announced = False
        self._stop = threading.Event()
        self._offset = 0
        self._lock = threading.Lock()  # the loop and cell_done both drain the file
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)
        self._drain()

    def cell_started(self, cell, cell_index: int, **_) -> None:
        first = next((line for line in cell.source.splitlines() if line.strip()), "")
        self.cell, self.announced = (cell_index + 1, first[:70], time.monotonic()), False

    def cell_done(self, cell, cell_index: int, **_) -> None:
        if self.cell is not None and self.announced:
            self._drain()  # the cell's last progress lines come before its end
            self.out(f"  [{self.name}] cell {self.cell[0]}/{self.n_cells} done in "
                     f"{time.monotonic() - self.cell[2]:.0f} s")
        self.cell = None

    def _drain(self) -> None:
        with self._lock:
            self._drain_locked()

    def _drain_locked(self) -> None:
        try:
            with open(self.file, encoding="utf-8", errors="replace") as f:
                f.seek(self._offset)
                chunk = f.read()
                self._offset = f.tell()
        except OSError:
            return
        # tqdm redraws with carriage returns: print the last state of each refresh.
        for part in chunk.replace("\r", "\n").split("\n"):
            if part.strip():
                self.out(f"    {part.strip()}")

    def _loop(self) -> None:
        while not self._stop.wait(1.0):
            cell = self.cell
            if cell is not None and not self.announced and time.monotonic() - cell[2] > _LONG_CELL:
                self.announced = True
                self.out(f"  [{self.name}] cell {cell[0]}/{self.n_cells} is running: {cell[1]}")
            self._drain()


def execute(path: Path, budget: str | None = None, timeout: int = 3600, *, out=None):
    """Run one notebook in a fresh kernel in its own folder; return the executed notebook.

    ``budget`` overrides the notebook's ``BUDGET`` (through ``$FEPAPER_BUDGET``). With
    ``out`` (a function taking a line), long cells and progress bars are reported as they
    run; the notebook itself is not written.
    """
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    if budget is not None and budget not in BUDGETS:
        raise ValueError(f"budget must be one of {BUDGETS}, got {budget!r}")
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="fepaper-run-") as tmp:
        progress_file = Path(tmp) / "progress.txt"
        progress_file.touch()
        watcher = _Watcher(path.stem, progress_file, len(nb.cells), out or (lambda line: None))
        env = {PROGRESS_ENV: str(progress_file)}
        # The kernels refit networks (notebook 08) on the kernels the shipped ones were fitted with.
        env.update({k: v for k, v in pinned_environment().items() if k == "OPENBLAS_CORETYPE"})
        if budget is not None:
            env["FEPAPER_BUDGET"] = budget
        # Local sockets: no network port, and no warning about unencrypted TCP from the kernel.
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(tmp) / "kernel"))
        with environment(**env), watcher:
            # Widget state is kept while running (nbclient's hook of an Output widget, e.g. in
            # ipywidgets.interactive, writes into it: without it a KeyError ends the run) and
            # dropped afterwards.
            client = NotebookClient(nb, km=km, timeout=timeout, kernel_name="python3", record_timing=False,
                                    store_widget_state=True, on_cell_start=watcher.cell_started,
                                    on_cell_executed=watcher.cell_done,
                                    resources={"metadata": {"path": str(path.parent)}})
            _interruptible(lambda: client.execute(cleanup_kc=True), km)
    nb.metadata.pop("widgets", None)  # each widget's static picture is what a saved notebook shows
    return nb


def _interruptible(run, km) -> None:
    """``run()`` (a notebook's execution) in a thread of its own, the main thread waiting in short
    joins; on Ctrl-C or ``SIGTERM`` (``KeyboardInterrupt``), kill the kernel's process group and
    raise.

    In the main thread, nbclient waits for the kernel in a blocking poll of its socket that a
    signal delivered to one of jupyter's other threads never wakes, and the kernel runs in a
    session of its own that a terminal's Ctrl-C does not reach: ``fepaper reproduce`` ignored
    ``SIGINT`` and ``SIGTERM`` and only ``SIGKILL`` ended it, leaving its kernel running. What
    the kernel was writing is left as a kill leaves it (docs/reliability.md, promises 1 to 4c).
    """
    failure: list[BaseException] = []

    def target():
        try:
            run()
        except BaseException as exc:  # handed to the main thread
            failure.append(exc)

    thread = threading.Thread(target=target, name="fepaper-notebook", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.1)
    except KeyboardInterrupt:
        _kill_kernel(km)
        thread.join(0.5)  # nbclient's own clean-up, if it is quick; the thread dies with the process
        raise
    if failure:
        raise failure[0]


def _kill_kernel(km) -> None:
    """Kill a kernel's process group (the kernel and what it started), if it is running."""
    import signal

    process = getattr(getattr(km, "provisioner", None), "process", None)
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)  # jupyter starts a kernel in a new session
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


@dataclass
class NotebookRun:
    """What :func:`run_notebooks` did with one notebook."""

    path: Path
    seconds: float = 0.0
    budget: str = "?"
    error: str | None = None
    outcome: Outcome = field(default_factory=Outcome)
    kept_committed: bool = False  # only timing noise: the committed files were put back
    kept_larger: str | None = None  # the larger budget whose shared files and page were kept
    written: list[Path] = field(default_factory=list)  # smoke: the files of its temporary folders
    folders: list[Path] = field(default_factory=list)  # smoke: those folders
    report: list[Path] = field(default_factory=list)
    report_why: str = ""


def _ledger(path: Path) -> list[dict]:
    import json

    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _files(folders) -> list[Path]:
    folders = [Path(f) for f in folders if Path(f).is_dir()]
    return sorted(p for folder in folders for p in folder.rglob("*") if p.is_file())


def _report_change(nb, old_path: Path) -> str | None:
    """Why the committed page of ``nb`` no longer shows it (``None``: it still does)."""
    import json

    import nbformat

    if not old_path.exists():
        return "no committed page yet"
    old = nbformat.read(old_path, as_version=4)
    if old.metadata.get("fepaper") != nb.metadata.get("fepaper"):
        return "the budget or the source differs"
    before, after = json.loads(material_outputs(old)), json.loads(material_outputs(nb))
    if len(before) != len(after):
        return "the notebook has other cells"
    for k, (a, b) in enumerate(zip(before, after)):
        if a != b:
            what = "source" if a[1] != b[1] else "outputs"
            hint = "" if what == "source" else " (if they are timings, tag the cell 'timing')"
            return f"cell {k + 1}: its {what} differ{hint}"
    return None


def _larger_page(old_path: Path, budget: str) -> str | None:
    """The budget of the committed page at ``old_path`` when it is larger than ``budget`` (a
    ``quick`` run does not replace the ``paper`` page of a notebook that decides claims)."""
    import nbformat

    if not old_path.exists():
        return None
    committed = nbformat.read(old_path, as_version=4).metadata.get("fepaper", {}).get("budget")
    if committed in BUDGETS and budget in BUDGETS and BUDGETS.index(committed) > BUDGETS.index(budget):
        return committed
    return None


def _page(nb, name: str, source_path: Path, budget: str, root: Path, report_dir: Path) -> Path:
    source = os.path.relpath(source_path.resolve(), root.resolve())
    return write_page(nb, report_dir / f"{name}.html", title=notebook_title(nb, name), source=source,
                      budget=budget, nav={"index of the report": "index.html", "figures": os.path.relpath(
                          (root / "docs" / "figures.md").resolve(), report_dir.resolve())},
                      link_base=source_path.parent.resolve())


def _publish_report(nb, run: NotebookRun, root: Path, report_dir: Path) -> list[Path]:
    import nbformat

    report_dir.mkdir(parents=True, exist_ok=True)
    nb_out = report_dir / f"{run.path.stem}.ipynb"
    text = nbformat.writes(nb)
    write_atomic(nb_out, text if text.endswith("\n") else text + "\n", "report")
    return [nb_out, _page(nb, run.path.stem, run.path, run.budget, root, report_dir)]


def rebuild_report(root: Path | None = None, out=None) -> list[Path]:
    """Write every page of the report, its index and ``docs/figures.md`` again from the executed
    notebooks already in ``docs/report/``, running nothing (after a change to the pages' form)."""
    import nbformat

    root = Path(root) if root is not None else project_root()
    report_dir = root / REPORT_DIR
    out = out or (lambda line: print(line, flush=True))
    written = []
    for nb_path in sorted(report_dir.glob("*.ipynb")):
        nb = nbformat.read(nb_path, as_version=4)
        meta = nb.metadata.get("fepaper", {})
        source = root / meta.get("source", f"notebooks/{nb_path.name}")
        written.append(_page(nb, nb_path.stem, source, meta.get("budget", "?"), root, report_dir))
    written += write_index(report_dir, root / "notebooks")
    if (root / "figures").is_dir():
        written.append(write_figures_page(root / "figures", root / "docs" / "figures.md", root / "notebooks"))
    for path in written:
        out(f"wrote {_rel(path, root)}")
    return written


def _error_text(exc: Exception) -> str:
    """The error of a failed notebook: the exception raised in its cell first, then the cell's traceback."""
    import re

    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    head = f"{ename}: {evalue}" if ename else f"{type(exc).__name__}"
    detail = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))[-3000:]
    return f"{head}\n{detail}"


def _one(path: Path, budget: str | None, timeout: int, root: Path, report: bool, smoke_report: Path,
         refresh: bool, out) -> NotebookRun:
    run = NotebookRun(path)
    folders = [root / "data", root / "figures"]
    before = Snapshot.take(folders)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fepaper-ledger-") as tmp:
        ledger = Path(tmp) / "ledger.jsonl"
        try:
            with environment(**{LEDGER_ENV: str(ledger)}):
                nb = execute(path, budget, timeout, out=out)
        except Exception as exc:  # report every notebook, then fail
            run.error = _error_text(exc)
            nb = None
        except KeyboardInterrupt:  # stopped half-way: new results stay (they resume), new timings go
            if not refresh:
                restore(compare(before, Snapshot.take(folders)).noise, before)
            raise
        entries = _ledger(ledger)
    run.seconds = time.monotonic() - start
    run.budget = entries[-1]["budget"] if entries else (budget or "?")
    if run.budget == "smoke":
        run.folders = sorted({Path(e[k]) for e in entries for k in ("figures", "data")})
        run.written = _files(run.folders)
    else:
        run.outcome = compare(before, Snapshot.take(folders))
        restore(run.outcome.version, before)  # a version is not a result, also when the notebook fails
    if nb is None:
        return run
    source = os.path.relpath(path.resolve(), root.resolve())
    clean_executed(nb, {"budget": run.budget, "source": source})
    report_dir = None if not report else smoke_report if run.budget == "smoke" else root / REPORT_DIR
    if run.budget == "smoke":
        if report_dir is not None:
            run.report = _publish_report(nb, run, root, report_dir)
        return run
    larger = _larger_page(root / REPORT_DIR / f"{path.stem}.ipynb", run.budget)
    if larger:  # its figures, captions and shared tables stay the larger budget's, as its page does
        shared = [p for p in run.outcome.modified + run.outcome.noise if not _own_folder(p, root)]
        restore(shared, before)
        for created in [p for p in run.outcome.created if not _own_folder(p, root)]:
            created.unlink()
        run.outcome = compare(before, Snapshot.take(folders))
        run.kept_larger = larger
    why = None
    if not larger and report_dir is not None:
        why = ("new results" if run.outcome.material else "--refresh" if refresh
               else _report_change(nb, report_dir / f"{path.stem}.ipynb"))
    # A page written again shows this run's figures and timings: the files beside it stay this run's
    # too (a figure drawn from timings, kept as committed, was another run's than its page's).
    if not (run.outcome.material or refresh or why):
        restore(run.outcome.noise, before)
        run.kept_committed = True
    if larger:
        run.report_why = f"kept: the committed page is the {larger} budget's"
    elif why:
        run.report, run.report_why = _publish_report(nb, run, root, report_dir), why
    return run


def _own_folder(path: Path, root: Path) -> bool:
    """Whether ``path`` lies in a budget's own folder (``data/quick/``, ``figures/paper/``...),
    where each budget keeps its resumable runs, rather than in the folders the budgets share."""
    parts = path.resolve().relative_to(root.resolve()).parts
    return len(parts) > 2 and parts[0] in ("data", "figures") and parts[1] in BUDGETS


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _describe(run: NotebookRun, root: Path) -> list[str]:
    o = run.outcome
    head = f"{run.path.stem}: {run.budget}, {run.seconds:.0f} s"
    if run.error:
        first, _, rest = run.error.partition("\n")
        return [f"{head}: FAILED ({first[:300]})"] + [f"    {line}" for line in rest.splitlines()[-25:]]
    lines = []
    if run.budget == "smoke":
        where = ", ".join(str(folder) for folder in run.folders if folder.is_dir())
        lines.append(f"{head}: wrote {len(run.written)} file(s) to temporary folders"
                     + (f" ({where})" if where else ""))
    elif run.kept_committed:
        noise = (f"; {len(o.noise)} file(s) differed by timings only: the committed ones were kept"
                 if o.noise else "")
        larger = (f"; the figures and tables it shares with the {run.kept_larger} budget stay that budget's"
                  if run.kept_larger else "")
        lines.append(f"{head}: results unchanged{noise}{larger}")
    else:
        lines.append(f"{head}: {len(o.created)} new, {len(o.modified)} changed, {len(o.noise)} with new "
                     f"timings, {len(o.deleted)} deleted")
        for label, paths in (("new", o.created), ("changed", o.modified), ("new timings", o.noise),
                             ("deleted", o.deleted)):
            lines += [f"    {label:<12} {_rel(p, root)}" for p in paths]
    if run.report:
        why = f" ({run.report_why})" if run.report_why else ""
        lines.append("    report       " + ", ".join(_rel(p, root) for p in run.report) + why)
    elif run.budget != "smoke":
        lines.append("    report       " + (run.report_why or "unchanged"))
    return lines


def run_notebooks(names: list[str] | None = None, budget: str | None = None, timeout: int = 3600, *,
                  refresh: bool = False, report: bool = True, root: Path | None = None, out=None,
                  done: list | None = None) -> int:
    """Execute notebooks (default: every ``notebooks/*.ipynb``), publish their results and the report.

    Parameters
    ----------
    names : list of str, optional
        Notebook paths.
    budget : str, optional
        Overrides every notebook's budget.
    timeout : int
        Seconds per cell.
    refresh : bool
        Keep the new files even when only timings changed (new timings for the record).
    report : bool
        Write the report (``docs/report/``, or a temporary folder at ``smoke``) and
        ``docs/figures.md``.
    root : Path, optional
        The project's folder (default :func:`~fepaper.notebook.budget.project_root`).
    out : callable, optional
        Where lines go (default: print to stdout).
    done : list, optional
        Each notebook's :class:`NotebookRun` is appended to it.

    Returns
    -------
    int
        0 if every notebook ran, 1 otherwise.
    """
    root = Path(root) if root is not None else project_root()
    out = out or (lambda line: print(line, flush=True))
    paths = [Path(n) for n in names] if names else notebook_paths(root)
    if not paths:
        raise ValueError(f"no notebooks in {root / 'notebooks'}")
    smoke_report = Path(tempfile.mkdtemp(prefix="fepaper-smoke-report-"))
    runs = []
    for path in paths:
        out(f"running {_rel(path, root)} ...")
        with environment(FEPAPER_ROOT=str(root)):
            run = _one(path, budget, timeout, root, report, smoke_report, refresh, out)
        runs.append(run)
        if done is not None:
            done.append(run)
        for line in _describe(run, root):
            (print(line, file=sys.stderr, flush=True) if run.error else out(line))
    index = []
    if report and any(r.budget == "smoke" and r.report for r in runs):
        index += write_index(smoke_report)
    else:
        smoke_report.rmdir()
    if report and any(r.budget != "smoke" for r in runs):
        report_dir = root / REPORT_DIR
        if report_dir.is_dir():
            index += write_index(report_dir, root / "notebooks")
        if (root / "figures").is_dir():
            index.append(write_figures_page(root / "figures", root / "docs" / "figures.md",
                                            root / "notebooks"))
    out("")
    out(f"summary: {sum(r.error is None for r in runs)} of {len(runs)} notebook(s) ran, "
        f"{sum(r.seconds for r in runs):.0f} s in all")
    for run in runs:
        for line in _describe(run, root):
            out("  " + line)
    if index:
        out("  the report: " + ", ".join(_rel(p, root) for p in index))
    return 1 if any(r.error for r in runs) else 0
