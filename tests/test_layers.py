"""The package's layers as docs/architecture.md draws them: compiled code only in ``_core``, and a
``_core`` that imports nothing of fepaper above it; numba's cache follows every kernel source."""

import ast
from pathlib import Path

import fepaper
from fepaper import _core

PACKAGE = Path(fepaper.__file__).parent


def _imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")


def test_numba_is_imported_only_by_the_core():
    outside = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if p.parent.name != "_core" and any(m.split(".")[0] == "numba" for m in _imports(p))]
    assert outside == []


def test_the_core_imports_nothing_above_it():
    above = {str(p.relative_to(PACKAGE)): m for p in (PACKAGE / "_core").glob("*.py") for m in _imports(p)
             if m.startswith("..") or m.startswith("fepaper")}
    assert above == {}


def test_an_edit_of_any_kernel_source_moves_the_compiled_cache(tmp_path):
    for name, text in (("turns.py", "def walk(): pass\n"), ("turnsearch.py", "from .turns import walk\n")):
        (tmp_path / name).write_text(text)
    before = _core.source_digest(tmp_path)
    (tmp_path / "turns.py").write_text("def walk(): return 1\n")
    assert _core.source_digest(tmp_path) != before
    assert _core.cache_dir().name == f"numba-{_core.source_digest()}"
