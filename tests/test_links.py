"""Every link of the README, the docs and the notebooks stays inside the repository and finds its
target; every work they cite by name is in docs/references.md."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
REFERENCES = (ROOT / "docs" / "references.md").read_text()
# Works cited by name somewhere in fepaper: each must be in docs/references.md.
NAMES = ["the thesis", "Connect Four report", "Aboyne report", "Foo", "Pearl", "Knuth", "Wilson", "Bradley",
         "Elo", "Wald", "Holm", "fishtest", "Dorigo", "MCTS-Solver", "Cohen-Solal", "QtPaperSoccer",
         "YaPaperSoccer", "UCB1", "bootstrap"]
# The projects' old numbers for the related works ("seed 002") are not citations a reader can follow.
SEED_CITATION = re.compile(r"\bseed\s+`?00[0-9]|\bseed\s+`00[0-9]_", re.IGNORECASE)


def documents() -> list[tuple[str, Path, str]]:
    """(name, folder links start from, markdown text) of the README, docs/ and every notebook."""
    out = [("README.md", ROOT, (ROOT / "README.md").read_text())]
    for path in sorted((ROOT / "docs").rglob("*.md")):
        out.append((str(path.relative_to(ROOT)), path.parent, path.read_text()))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        text = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        out.append((str(path.relative_to(ROOT)), path.parent, text))
    return out


DOCUMENTS = documents()


@pytest.mark.parametrize("name, base, text", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_links_stay_in_the_repository_and_resolve(name, base, text):
    bad = []
    for target in LINK.findall(text):
        if target.startswith("#"):
            continue
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            bad.append(f"{target}: leaves the repository")
            continue
        path = (base / target.split("#")[0]).resolve()
        if not path.is_relative_to(ROOT):
            bad.append(f"{target}: outside the repository")
        elif not path.exists():
            bad.append(f"{target}: no such file")
    assert not bad, f"{name}: " + "; ".join(bad)


@pytest.mark.parametrize("name, base, text", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_related_works_are_cited_by_name(name, base, text):
    if name == "docs/references.md":
        return
    assert not SEED_CITATION.search(text), f"{name} cites a work by its seed number: {SEED_CITATION.search(text)[0]!r}"


def test_every_name_cited_is_in_the_references():
    texts = [text for name, _, text in DOCUMENTS if name != "docs/references.md"]
    cited = [n for n in NAMES if any(n in text for text in texts)]
    missing = [n for n in cited if n.lower() not in REFERENCES.lower()]
    assert cited and not missing, f"cited but not in docs/references.md: {missing}"
