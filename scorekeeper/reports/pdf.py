"""The one place WeasyPrint is used: HTML (from our print templates) to PDF bytes.

WeasyPrint is imported lazily (it costs ~0.65 s), and its fetcher only reads local
files and data URLs, so a sheet never reaches the network. The web app renders in separate processes
(``web/render_pool.py``), so that a render never holds a worker's GIL.

A process parses the print stylesheet once and keeps one font configuration: every
render after the first reuses both (about a fifth of a sheet's render time). The
stylesheet is then applied as a user stylesheet instead of through the page's link; the
print templates have no other author styles but the page size, which still wins, so the
pages come out the same (a test compares them pixel for pixel).

A render also keeps Python's cyclic garbage collector out of the way (``_few_collections``):
WeasyPrint builds a tree of some hundred thousand small objects that all live until the PDF is
written, so the collector's passes during a render free next to nothing yet scan every one of
them, and every older object of the process, again and again. Measured in ``make bench``'s
process, that was a fifth of a sheet's time.
"""

from __future__ import annotations

import gc
import io
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

#: The print stylesheet lives beside the print templates: phones never download it.
PRINT_ASSETS = Path(__file__).parent.parent / "templates" / "sheets"
#: How ``_print_base.html`` links it; a page with this exact link gets the parsed copy.
STYLESHEET_LINK = '<link rel="stylesheet" href="print.css">'
#: Allocations between two passes of the youngest generation during a render (Python's default is 700).
RENDER_GC_THRESHOLD = 50_000


def render_pdf(html: str) -> bytes:
    """One document rendered in this process; its relative links resolve beside the templates."""
    with _few_collections():
        return bytes(_document(html).write_pdf())


def render_booklet(htmls: Sequence[str], progress: Callable[[int], None] | None = None) -> bytes:
    """Several documents as one PDF, each starting on a new page (e.g. every table's sheet), in this process."""
    documents = []
    with _few_collections():
        for done, html in enumerate(htmls, start=1):
            documents.append(_document(html))
            if progress is not None:
                progress(done)
        pages = [page for document in documents for page in document.pages]
        return bytes(documents[0].copy(pages).write_pdf())


def join_pdfs(parts: Sequence[bytes]) -> bytes:
    """PDFs rendered apart (in several processes, or cached) as one, in order; fonts they share are stored once."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    writer.compress_identical_objects()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def warm_up() -> None:
    """Import WeasyPrint, parse the stylesheet and lay out a tiny page (fonts load then), so the
    first real sheet pays for none of them."""
    render_pdf(f"<!doctype html><html><head>{STYLESHEET_LINK}</head><body><p>Scorekeeper</p></body></html>")


@contextmanager
def _few_collections() -> Iterator[None]:
    """The collector's youngest generation passes every ``RENDER_GC_THRESHOLD`` allocations instead
    of every 700 until the render is done; what the render leaves behind is collected as usual after."""
    before = gc.get_threshold()
    gc.set_threshold(RENDER_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _document(html: str) -> Any:
    import weasyprint  # type: ignore[import-untyped]

    fonts, stylesheet = _shared()
    stylesheets = []
    if STYLESHEET_LINK in html:
        html = html.replace(STYLESHEET_LINK, "", 1)
        stylesheets.append(stylesheet)
    page = weasyprint.HTML(string=html, base_url=str(PRINT_ASSETS) + "/", url_fetcher=_fetcher())
    return page.render(stylesheets=stylesheets, font_config=fonts)


@cache
def _shared() -> tuple[Any, Any]:
    """This process's font configuration and the print stylesheet parsed with it."""
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration  # type: ignore[import-untyped]

    fonts = FontConfiguration()
    stylesheet = weasyprint.CSS(filename=str(PRINT_ASSETS / "print.css"), font_config=fonts, url_fetcher=_fetcher())
    return fonts, stylesheet


def _fetcher() -> Any:
    import weasyprint

    return weasyprint.URLFetcher(allowed_protocols=["file", "data"])
