"""A folder of static pages: the club's results as a club puts them on any web host or opens them
from a disk, with the app's look, no script, relative links that resolve inside the folder, and
stable file names (ids, never names: a player shown by initials is not named by a file either).

``Site`` collects the files as they are made (pages from the ``publish/`` templates, CSVs, the
HTML of each PDF to render); ``publish.py`` fills it from the club's record and writes it out.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape

from .csv_text import csv_text

_env = Environment(loader=PackageLoader("scorekeeper", "templates"), autoescape=select_autoescape(["html"]))
_env.add_extension("jinja2.ext.do")

#: The published pages' stylesheet: the app's own, then what only published pages need.
STYLE = "style.css"


@dataclass(frozen=True)
class SiteFile:
    """One file of the folder: its path (``/`` between folders) and its bytes, or the HTML whose
    PDF it is (rendered when the folder is written, by whoever writes it: the command line in
    this process, the server in its printing processes)."""

    path: str
    content: bytes = b""
    pdf_of: str = ""


class Site:
    def __init__(self, title: str, published_at: str = "") -> None:
        self.title = title
        self.published_at = published_at
        #: What every page is given besides its own (the ladders the header links to).
        self.context: dict[str, object] = {}
        self.files: dict[str, SiteFile] = {}
        self.add(STYLE, _style())

    def add(self, path: str, content: bytes) -> None:
        self.files[path] = SiteFile(path, content)

    def page(self, path: str, template: str, **context: object) -> None:
        """A page from ``templates/publish/``; ``link(target)`` in it is ``target`` relative to this page."""
        here = posixpath.dirname(path)

        def link(target: str) -> str:
            return posixpath.relpath(target, here or ".")

        html = _env.get_template(f"publish/{template}").render(
            link=link, site_title=self.title, published_at=self.published_at, path=path, **{**self.context, **context}
        )
        self.add(path, html.encode())

    def csv(self, path: str, rows: Iterable[Sequence[object]]) -> None:
        """A CSV of its own, every cell neutralised as the event's CSV is."""
        self.add(path, csv_text(rows).encode())

    def pdf(self, path: str, html: str) -> None:
        self.files[path] = SiteFile(path, pdf_of=html)

    def has(self, path: str) -> bool:
        return path in self.files


def _style() -> bytes:
    package = resources.files("scorekeeper")
    own = package / "templates" / "publish" / "published.css"
    return (package / "static" / "app.css").read_bytes() + b"\n" + own.read_bytes()


def zipped(files: Iterable[tuple[str, bytes]]) -> bytes:
    """Files as one zip, their paths as given."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, content in files:
            archive.writestr(path, content)
    return buffer.getvalue()
