"""The static report: every executed notebook as a page a reader opens without running anything.

``fepaper reproduce`` keeps each executed notebook in ``docs/report/`` twice: ``NN_name.ipynb``
(with its outputs; GitHub and Jupyter show it) and ``NN_name.html`` (:func:`write_page`: one
page, figures embedded, code folded under the prose and results, the shared ``style.css``, no
script and no link outside the repository). :func:`write_index` lists the pages
(``docs/report/index.html`` and ``docs/report/README.md``); :func:`write_figures_page` makes
``docs/figures.md``, every figure of ``figures/`` with the one-line caption saved in it
(:func:`fepaper.notebook.plots.save_figure`).

Everything written here is a function of the executed notebooks and the figures only (no
date, no path of this machine), so writing it twice gives the same bytes.
"""

from __future__ import annotations

import base64
import html
import os
import re
from pathlib import Path

from ..game.writes import write_atomic

__all__ = ["REPORT_DIR", "clean_executed", "notebook_title", "write_page", "write_index", "data_markdown",
           "write_figures_page"]

#: Where the report of the committed budget lives, relative to the project root.
REPORT_DIR = Path("docs") / "report"
_WIDGET = "application/vnd.jupyter.widget-view+json"

_CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 15px;
       line-height: 1.5; color: #1f2328; max-width: 980px; margin: 0 auto; padding: 0 24px 48px; }
header.report { border-bottom: 1px solid #d0d7de; margin-bottom: 16px; padding: 12px 0 8px;
                font-size: 13px; color: #57606a; }
header.report a, footer.report a { color: #0969da; }
footer.report { border-top: 1px solid #d0d7de; margin-top: 32px; padding-top: 8px; font-size: 13px; }
h1 { font-size: 1.8em; } h2 { font-size: 1.35em; border-bottom: 1px solid #eaeef2; padding-bottom: .2em; }
a.anchor-link { display: none; }
code { background: #f3f4f6; padding: .1em .3em; border-radius: 4px; font-size: 90%; }
pre { background: #f6f8fa; padding: 8px 10px; overflow-x: auto; font-size: 12.5px; line-height: 1.35;
      border-radius: 6px; }
details.code { margin: 6px 0 2px; }
details.code > summary { cursor: pointer; color: #57606a; font-size: 12.5px; }
div.output { margin: 4px 0 14px; overflow-x: auto; }
div.output img { max-width: 100%; height: auto; display: block; }
pre.stderr { background: #fff5f5; } pre.error { background: #ffebe9; color: #82071e; }
table { border-collapse: collapse; font-size: 12.5px; margin: 4px 0; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: right; vertical-align: top; }
thead th { background: #f6f8fa; }
td:first-child, th:first-child { text-align: left; }
ul.index li { margin-bottom: 10px; }
"""


# -- the executed notebook ------------------------------------------------------------------------
def clean_executed(nb, meta: dict):
    """The executed notebook as the report keeps it: widget views dropped where a static form
    exists (their model ids change every run), widget state and timing metadata removed, and
    ``meta`` (budget, source) under ``metadata.fepaper``."""
    nb.metadata.pop("widgets", None)
    nb.metadata["fepaper"] = dict(meta)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data and _WIDGET in data:
                del data[_WIDGET]
                data.setdefault("text/plain", "(an interactive widget: open the notebook in Jupyter)")
            out.get("metadata", {}).pop(_WIDGET, None)
    return nb


def notebook_title(nb, fallback: str) -> str:
    """The text of the notebook's first ``#`` heading."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


# -- one page ---------------------------------------------------------------------------------------
def _markdown(text: str, link_base: Path | None, page_dir: Path) -> str:
    from nbconvert.filters import markdown2html

    out = markdown2html(text)
    return _relink(out, link_base, page_dir) if link_base is not None else out


def data_markdown(text: str) -> str:
    """HTML of markdown that a cell printed (``text/markdown``: tables and prose built from data
    files): raw HTML in it is escaped, shown as text, never kept as markup, so a ``<script>``
    in a data file cannot reach the page; links to ``javascript:`` and the like are dropped
    (mistune's safe links). A notebook's own markdown cells are rendered as written.

    >>> data_markdown("| a |\\n|---|\\n| <script>x</script> |").count("&lt;script&gt;")
    1
    """
    import mistune

    return mistune.create_markdown(escape=True, plugins=["table", "strikethrough"])(text)


def _relink(text: str, link_base: Path, page_dir: Path) -> str:
    """Relative links written from ``link_base`` (the notebooks' folder) rewritten for ``page_dir``."""

    def fix(match):
        target = match.group(2)
        if re.match(r"^[a-z]+:|^#|^/", target):
            return match.group(0)
        resolved = os.path.normpath(link_base / target)
        return f'{match.group(1)}"{os.path.relpath(resolved, page_dir)}"'

    return re.sub(r'(href=|src=)"([^"]+)"', fix, text)


def _code(source: str) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    return highlight(source, PythonLexer(), HtmlFormatter(cssclass="highlight", nowrap=False))


_SAVED_FIGURE = re.compile(r"""save_figure\(\s*\w+\s*,\s*[\w.]+\s*,\s*f?["']([^"'{}]+)["']""")


def _captions(source: str, figures: Path | None) -> list[str]:
    """The captions of the figures a cell saves (``plots.save_figure(fig, FIGURES, "NAME", ...)``),
    in order, as the committed ``figures/NAME.png`` carries them."""
    from .results import png_text

    out = []
    for name in _SAVED_FIGURE.findall(source):
        png = figures / f"{name}.png" if figures is not None else None
        caption = png_text(png.read_bytes()).get("Description") if png is not None and png.is_file() else None
        if caption:
            out.append(caption)
    return out


def _alt(data: dict, captions: list[str]) -> str:
    """What an image shows, for its alt text: its own text unless it is matplotlib's bare
    ``<Figure size ... with N Axes>``, else the caption of the figure the cell saved."""
    text = str(data.get("text/plain", "")).strip()
    if text and not text.startswith("<Figure size"):
        return text
    return captions.pop(0) if captions else "a figure drawn by the code above"


def _output(out, captions: list[str]) -> str:
    kind = out.get("output_type")
    if kind == "stream":
        cls = "stderr" if out.get("name") == "stderr" else "stdout"
        return f'<pre class="{cls}">{html.escape(out.get("text", ""))}</pre>'
    if kind == "error":
        from nbconvert.filters import strip_ansi

        trace = strip_ansi("\n".join(out.get("traceback", []))) or f"{out.get('ename')}: {out.get('evalue')}"
        return f'<pre class="error">{html.escape(trace)}</pre>'
    data = out.get("data", {})
    if "image/png" in data:
        alt = html.escape(_alt(data, captions))
        png = data["image/png"] if isinstance(data["image/png"], str) else base64.b64encode(data["image/png"])
        return f'<img alt="{alt}" src="data:image/png;base64,{png.strip()}">'
    if "image/svg+xml" in data:
        svg = data["image/svg+xml"]
        return svg if isinstance(svg, str) else "".join(svg)
    if "text/html" in data:
        return data["text/html"] if isinstance(data["text/html"], str) else "".join(data["text/html"])
    if "text/markdown" in data:
        text = data["text/markdown"]
        return data_markdown(text if isinstance(text, str) else "".join(text))
    if "text/plain" in data:
        return f'<pre>{html.escape(data["text/plain"])}</pre>'
    return ""


def _style() -> str:
    from pygments.formatters import HtmlFormatter

    return _CSS + HtmlFormatter(style="default").get_style_defs(".highlight")


#: The stylesheet every page of the report links (written next to the pages).
STYLESHEET = "style.css"


def _write_style(folder: Path) -> None:
    write_atomic(folder / STYLESHEET, _style().strip() + "\n", "report")


def _head(title: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n"
            f"<link rel=\"stylesheet\" href=\"{STYLESHEET}\">\n</head>\n")


def write_page(nb, path, *, title: str, source: str, budget: str, nav: dict[str, str] | None = None,
               link_base: Path | None = None) -> Path:
    """Write the executed notebook ``nb`` as one self-contained HTML page at ``path``.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        Executed (see :func:`clean_executed`).
    path : path
        The page, e.g. ``docs/report/02_search_scaling.html``.
    title, source, budget : str
        Shown in the page's header: the notebook's title, its path in the repository, the
        budget it ran at.
    nav : dict, optional
        Links of the header: text -> relative address (the index, the previous and next pages).
    link_base : Path, optional
        The folder the notebook's own relative links start from (its ``notebooks/`` folder).
    """
    path = Path(path)
    page_dir = path.parent.resolve()
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            parts.append(f'<section class="markdown">{_markdown(cell.source, link_base, page_dir)}</section>')
        elif cell.cell_type == "code":
            if cell.source.strip():
                lines = cell.source.count("\n") + 1
                parts.append(f'<details class="code"><summary>code ({lines} line{"s" * (lines != 1)})'
                             f"</summary>{_code(cell.source)}</details>")
            captions = _captions(cell.source, link_base.parent / "figures" if link_base is not None else None)
            outputs = [_output(o, captions) for o in cell.get("outputs", [])]
            outputs = [o for o in outputs if o]
            if outputs:
                parts.append('<div class="output">' + "\n".join(outputs) + "</div>")
    links = " · ".join(f'<a href="{html.escape(href)}">{html.escape(text)}</a>'
                       for text, href in (nav or {}).items())
    header = (f'<header class="report">{links}<br>Executed notebook <code>{html.escape(source)}</code> '
              f"at the <b>{html.escape(budget)}</b> budget, as <code>fepaper reproduce</code> ran it; "
              "the code of each cell is folded above its output.</header>")
    page = (_head(title) + f"<body>\n{header}\n<main>\n" + "\n".join(parts) + "\n</main>\n"
            f'<footer class="report">{links}</footer>\n</body>\n</html>\n')
    write_atomic(path, page, "report")
    _write_style(path.parent)
    return path


# -- the index and the figures page ---------------------------------------------------------------
def _pages(report_dir: Path) -> list[tuple[Path, dict]]:
    import nbformat

    out = []
    for nb_path in sorted(report_dir.glob("*.ipynb")):
        nb = nbformat.read(nb_path, as_version=4)
        meta = dict(nb.metadata.get("fepaper", {}))
        meta["title"] = notebook_title(nb, nb_path.stem)
        out.append((nb_path, meta))
    return out


def write_index(report_dir, notebooks_dir=None) -> list[Path]:
    """Write ``index.html`` and ``README.md`` of ``report_dir``: one entry per executed notebook
    there (its title, budget, page and notebook), and with ``notebooks_dir`` a line for each
    notebook that has no page yet; returns the two paths."""
    report_dir = Path(report_dir)
    pages = _pages(report_dir)
    missing = sorted(p.name for p in Path(notebooks_dir).glob("*.ipynb")
                     if not (report_dir / p.name).exists()) if notebooks_dir else []
    items_html, items_md = [], []
    for nb_path, meta in pages:
        page = nb_path.with_suffix(".html").name
        budget = meta.get("budget", "?")
        items_html.append(f'<li><a href="{page}">{html.escape(meta["title"])}</a> '
                          f"<br><small>budget {html.escape(budget)} · "
                          f'<a href="{nb_path.name}">executed notebook</a> · source '
                          f"<code>{html.escape(meta.get('source', ''))}</code></small></li>")
        items_md.append(f"- [{meta['title']}]({page}) ([executed notebook]({nb_path.name}); "
                        f"budget `{budget}`; source `{meta.get('source', '')}`)")
    for name in missing:
        items_html.append(f"<li><code>notebooks/{html.escape(name)}</code>: no page yet (<code>fepaper "
                          f"reproduce notebooks/{html.escape(name)}</code> writes it)</li>")
        items_md.append(f"- `notebooks/{name}`: no page yet (`fepaper reproduce notebooks/{name}` writes it)")
    intro = ("Every notebook of fepaper, executed by <code>fepaper reproduce</code> (<code>make "
             "reproduce</code>): read the results without running anything. Figures alone, with a "
             'line on each: <a href="../figures.md">docs/figures.md</a>.')
    _write_style(report_dir)
    index = (_head("fepaper report") + "<body>\n"
             f"<h1>fepaper: the report</h1>\n<p>{intro}</p>\n<ul class=\"index\">\n"
             + "\n".join(items_html) + "\n</ul>\n</body>\n</html>\n")
    readme = ("# The report\n\nEvery notebook of fepaper, executed by `fepaper reproduce` "
              "(`make reproduce`): each page holds the notebook's prose, tables and figures, its code "
              "folded. Open a page in a browser, or the executed notebook here on GitHub or in "
              "Jupyter. The figures alone, each with one line saying what it shows: "
              "[docs/figures.md](../figures.md).\n\n"
              + "\n".join(items_md) + "\n")
    paths = [report_dir / "index.html", report_dir / "README.md"]
    write_atomic(paths[0], index, "report")
    write_atomic(paths[1], readme, "report")
    return paths


def write_figures_page(figures_dir, out, notebooks_dir=None) -> Path:
    """Write ``out`` (``docs/figures.md``): each figure of ``figures_dir``, by notebook, with the
    caption saved in it; a figure saved without one says so."""
    from .results import png_text

    figures_dir, out = Path(figures_dir), Path(out)
    notebooks = {p.name[:2]: p for p in sorted(Path(notebooks_dir).glob("*.ipynb"))} if notebooks_dir else {}
    lines = ["# Figures", "",
             "Every figure of `figures/`, as the committed run of `make reproduce` drew it, with the line",
             "saved in it by `fepaper.notebook.plots.save_figure`. Generated by `fepaper reproduce`; the",
             "pages of [the report](report/README.md) show each in its notebook, with its numbers.", ""]
    current = None
    for png in sorted(figures_dir.glob("*.png")):
        prefix = png.name[:2]
        if prefix != current:
            current = prefix
            nb = notebooks.get(prefix)
            lines += [f"## {nb.stem if nb else prefix}", ""]
        text = png_text(png.read_bytes())
        caption = text.get("Description") or ("(no caption: this figure was not saved with "
                                              "`fepaper.notebook.plots.save_figure`)")
        rel = os.path.relpath(png.resolve(), out.parent.resolve())
        lines += [f"### `{png.name}`", "", caption, "", f"![{png.stem}]({rel})", ""]
    return write_atomic(out, "\n".join(lines), "figures page")
