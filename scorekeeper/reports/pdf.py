"""The one place WeasyPrint is used: HTML (from our print templates) to PDF bytes.

WeasyPrint is imported lazily (it costs ~0.65 s), and its fetcher only reads local
files and data URLs, so a sheet never reaches the network. The web app renders in separate processes
(``web/printer.py``), so that a render never holds a worker's GIL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: The print stylesheet lives beside the print templates: phones never download it.
PRINT_ASSETS = Path(__file__).parent.parent / "templates" / "print"


def render_pdf(html: str) -> bytes:
    """One document rendered in this process; its relative links (the print stylesheet) resolve beside the templates."""
    import weasyprint  # type: ignore[import-untyped]

    document = weasyprint.HTML(string=html, base_url=str(PRINT_ASSETS) + "/", url_fetcher=_fetcher()).render()
    return bytes(document.write_pdf())


def render_booklet(htmls: Sequence[str], progress: Callable[[int], None] | None = None) -> bytes:
    """Several documents as one PDF, each starting on a new page (e.g. every table's sheet)."""
    import weasyprint

    fetcher = _fetcher()
    documents = []
    for done, html in enumerate(htmls, start=1):
        documents.append(weasyprint.HTML(string=html, base_url=str(PRINT_ASSETS) + "/", url_fetcher=fetcher).render())
        if progress is not None:
            progress(done)
    pages = [page for document in documents for page in document.pages]
    return bytes(documents[0].copy(pages).write_pdf())


def warm_up() -> None:
    """Import WeasyPrint and lay out a tiny page (fonts load then), so the first real sheet pays for neither."""
    render_pdf("<!doctype html><p>Scorekeeper</p>")


def _fetcher() -> Any:
    import weasyprint

    return weasyprint.URLFetcher(allowed_protocols=["file", "data"])
