"""The documentation site's hooks (mkdocs.yml): the repository's figures/ served beside the pages,
the report's links to the Markdown pages pointed at their HTML, and every internal link and image
of the built site checked (the report's pages are copied untouched, so MkDocs checks none of theirs).
"""

from __future__ import annotations

import html.parser
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from mkdocs.exceptions import Abort
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
_MD_LINK = re.compile(r'(href="(?:\.\./)*[\w/-]+)\.md(#[^"]*)?"')


def on_files(files, config):
    """The repository's figures/ as the site's figures/ (docs/figures.md shows them)."""
    for png in sorted((ROOT / "figures").glob("*.png")):
        files.append(File(f"figures/{png.name}", str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files):
    """docs/figures.md links ../figures/ in the repository; in the site they lie beside it. The
    report's index is its HTML page (report/README.md is the same list for a repository browser)."""
    if page.file.src_uri == "figures.md":
        markdown = markdown.replace("](../figures/", "](figures/")
    return markdown.replace("](report/README.md)", "](report/index.html)")


def on_post_build(config):
    site = Path(config["site_dir"])
    for page in sorted((site / "report").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        page.write_text(_MD_LINK.sub(_html_link, text), encoding="utf-8")
    pages = [p for p in sorted(site.rglob("*.html")) if p.name != "404.html"]  # 404's links are absolute
    broken = [f"{page.relative_to(site)}: {link}" for page in pages
              for link in _internal_links(page.read_text(encoding="utf-8"))
              if not _target(site, page, link).exists()]
    if broken:
        raise Abort(f"{len(broken)} internal link(s) of the site find no target:\n  "
                    + "\n  ".join(broken[:40]))


def _html_link(found: re.Match) -> str:
    """A link to a Markdown page as the site names it: NAME.html, a README the folder's index."""
    stem = found.group(1)
    page = stem[: -len("README")] + "index" if stem.endswith(("/README", '"README')) else stem
    return f'{page}.html{found.group(2) or ""}"'


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)


def _internal_links(text: str) -> list[str]:
    parser = _Links()
    parser.feed(text)
    out = []
    for link in parser.links:
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or link.startswith("#"):
            continue  # http(s), data:, mailto: and anchors within the page
        out.append(unquote(parts.path))
    return out


def _target(site: Path, page: Path, link: str) -> Path:
    relative = posixpath.normpath(posixpath.join(page.parent.relative_to(site).as_posix(), link))
    target = site / relative
    return target / "index.html" if target.is_dir() else target
