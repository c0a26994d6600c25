"""The package's layers as docs/architecture.md draws them: every package in the import contract and
in that page, compiled code only in ``_core``, and a ``_core`` that imports nothing of fepaper above
it; numba's cache follows every kernel source."""

import ast
import re
import tomllib
from pathlib import Path

import fepaper
from fepaper import _core

PACKAGE = Path(fepaper.__file__).parent
ROOT = PACKAGE.parent


def _packages(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}


def test_every_package_has_its_layer_in_the_contract_and_the_architecture_page():
    """A package added without its place in the layers would escape lint-imports: each folder of
    fepaper, and each subpackage of experiments, is named in a layers contract of pyproject.toml
    and drawn in docs/architecture.md, each module of search in search's contract, and the
    contracts name no package that is gone."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    top = next(c for c in contracts if not c.get("containers"))
    inner = next(c for c in contracts if c.get("containers") == ["fepaper.experiments"])
    named = {name.strip().removeprefix("fepaper.") for layer in top["layers"] for name in layer.split("|")}
    assert named == _packages(PACKAGE)
    assert {name.strip() for layer in inner["layers"] for name in layer.split("|")} == _packages(
        PACKAGE / "experiments")
    search = next(c for c in contracts if c.get("containers") == ["fepaper.search"])
    modules = {p.stem for p in (PACKAGE / "search").glob("*.py") if p.stem != "__init__"}
    assert {name.strip() for layer in search["layers"] for name in layer.split("|")} == modules | _packages(
        PACKAGE / "search")
    page = (ROOT / "docs" / "architecture.md").read_text()
    drawn = set(re.findall(r"^ +(?:│ +)?(_?[a-z]+)/ ", page, re.M))
    assert _packages(PACKAGE) | _packages(PACKAGE / "experiments") <= drawn


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
