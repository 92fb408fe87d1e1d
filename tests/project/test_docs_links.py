"""The README and docs/ stand alone: every link between them reaches a file of the repository and,
where it names one, a heading of that file (a section moved keeps its readers)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent
LINK = re.compile(r"\]\(([^)#\s]*)(#[^)\s]*)?\)")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    found = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            words = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower())
            found.add(words.replace(" ", "-"))
    return found


def test_every_link_of_the_readme_and_the_docs_reaches_its_file_and_heading():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    checked = 0
    for page in pages:
        for match in LINK.finditer(page.read_text()):
            target, anchor = match.groups()
            if target.startswith(("http://", "https://")):
                continue
            path = page.parent / target if target else page
            assert path.exists(), (page.name, target)
            if anchor and path.suffix == ".md":
                assert anchor[1:] in anchors(path), (page.name, target, anchor)
            checked += 1
    assert checked > 20


def test_the_readme_and_the_docs_never_point_outside_the_repository():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in page.read_text() and "/work/" not in page.read_text(), page.name
