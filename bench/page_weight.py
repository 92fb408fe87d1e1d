"""The first visit of a game's hand page, as a phone's browser makes it: the bytes as served.

A phone that has never seen the app asks for the page (``Accept-Encoding: gzip, deflate, br``), then
for every style sheet, script and icon the page links, then for every module those scripts import,
found through the page's import map as the browser finds it. Counted: each response's status line,
headers and body as sent (compressed where the server compressed it). Used by `make bench` and by
``tests/web/test_page_weight.py`` (the budget: 100 KB).
"""

from __future__ import annotations

import gzip
import http.client
import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import brotli

from scorekeeper.storage import game_imports
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.exchange import import_changes

from .games import full_game_record

BUDGET = 100 * 1024
ACCEPT_ENCODING = "gzip, deflate, br"
HANDS_PLAYED = 14

_LINKED = re.compile(r'<(?:link|script)\b[^>]*?\b(?:href|src)="([^"]+)"')
_IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)
_MODULE_SPECIFIERS = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)""",
    re.M,
)
_CSS_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']""")


@dataclass(frozen=True)
class Transfer:
    """One response as the phone received it."""

    path: str
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    header_bytes: int

    @property
    def size(self) -> int:
        return self.header_bytes + len(self.body)

    def text(self) -> str:
        encoding = self.headers.get("Content-Encoding", "")
        data = self.body
        if encoding == "br":
            data = brotli.decompress(data)
        elif encoding == "gzip":
            data = gzip.decompress(data)
        return data.decode()


def fetch(base: str, path: str) -> Transfer:
    """One GET as a browser sends it on a first visit (nothing cached, compression accepted)."""
    address = urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=30)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": ACCEPT_ENCODING})
        response = connection.getresponse()
        body = response.read()
        status_line = f"HTTP/1.1 {response.status} {response.reason}\r\n"
        header_bytes = len(status_line.encode()) + len(response.headers.as_bytes())
        return Transfer(path, response.status, response.headers, body, header_bytes)
    finally:
        connection.close()


def import_map(html: str) -> dict[str, str]:
    found = _IMPORT_MAP.search(html)
    return dict(json.loads(found.group(1))["imports"]) if found else {}


def first_visit(base: str, path: str) -> list[Transfer]:
    """The page and everything of this server it brings in, each asked for once, in order."""
    page = fetch(base, path)
    assert page.status == 200, (path, page.status)
    html = page.text()
    return [page, *brought_in(base, [urljoin(path, link) for link in _LINKED.findall(html)], import_map(html))]


def brought_in(base: str, wanted: list[str], mapped: dict[str, str]) -> list[Transfer]:
    """The files at ``wanted`` and all they bring in: a module's imports (through the import map,
    as the browser resolves them), a style sheet's ``url()``s and ``@import``s."""
    wanted = list(wanted)
    transfers = []
    seen: set[str] = set()
    while wanted:
        url = wanted.pop(0)
        if url in seen or urlsplit(url).netloc:
            continue  # asked already, or another server's (nothing is: the CSP allows only our own)
        seen.add(url)
        transfer = fetch(base, url)
        transfers.append(transfer)
        kind = transfer.headers.get_content_type()
        if kind in ("text/javascript", "application/javascript"):
            for specifiers in _MODULE_SPECIFIERS.findall(transfer.text()):
                for specifier in filter(None, specifiers):
                    resolved = urljoin(url, specifier)
                    wanted.append(mapped.get(resolved, resolved))
        elif kind == "text/css":
            for links in _CSS_URLS.findall(transfer.text()):
                wanted.extend(urljoin(url, link) for link in links if link and not link.startswith("data:"))
    return transfers


def game_in_play(folder: Path) -> str:
    """An instance folder holding a 5-player game with 14 of its 15 hands played; its record token."""
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    record = full_game_record()
    record["hands"] = record["hands"][:HANDS_PLAYED]  # type: ignore[index]
    parsed, changes = import_changes(record)
    stored = game_imports.import_game(db, parsed.game, changes, "bench")
    db.conn.close()
    return stored.record_token


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def main() -> None:
    import tempfile

    from .servers import app_server

    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    token = game_in_play(folder)
    with app_server(folder) as app:
        transfers = first_visit(app.base, f"/t/{token}/")
    page, files = transfers[0], transfers[1:]
    total = sum(transfer.size for transfer in transfers)
    print(
        f"Page weight: first visit of a game's hand page (5 players, hand {HANDS_PLAYED + 1}), "
        f"transferred {kb(total)} (budget {kb(BUDGET)}): the page {kb(page.size)}, "
        f"{len(files)} static files {kb(sum(transfer.size for transfer in files))}, "
        f"compressed as served, headers included"
    )
