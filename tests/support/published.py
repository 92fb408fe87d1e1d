"""A club's evening ready to publish, and what a published folder is checked for: links that stay
inside it, no script, and no secret of the app's (record, view and wall tokens, join codes)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from scorekeeper.gamelog.entries import NOTE, Change
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.games import append
from scorekeeper.storage.seasons import add_event, create_season
from tests.support.club import new_event, play, seat

SCRIPT = str(Path(sys.executable).parent / "scorekeeper")
EIGHT = [("Ann Smith", "North", "1042"), ("Bob Stone", "North", "2001"), "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def club_instance(folder: Path) -> Path:
    """An instance folder whose database holds a season of two evenings: the first of two rounds
    (tables closed by the director after 12 hands, a ruling naming Ann), the second of one table;
    Ann asked to be shown by initials."""
    instance = folder / "instance"
    instance.mkdir()
    path = str(instance / "scorekeeper.db")
    migrate(path)
    db = connect(path)
    try:
        first = new_event(db, EIGHT, name="Autumn Crates", held_on="2026-11-02")
        one, two = seat(db, first, [["Ann Smith", "Bob Stone", "Cy", "Di"], ["Ed", "Flo", "Gus", "Hal"]])
        play(db, one, {"Ann Smith": 1, "Bob Stone": 2, "Cy": 3, "Di": 3}, at="2026-11-02T19:30:00+00:00")
        append(
            db,
            one.game,
            Change(NOTE, 3, None, {"text": "Ann Smith played out of turn; no penalty"}),
            "n1",
            "director",
            True,
        )
        play(db, two, {"Ed": 1, "Flo": 2, "Gus": 3, "Hal": 4}, at="2026-11-02T19:40:00+00:00")
        three, four = seat(db, first, [["Ann Smith", "Ed", "Bob Stone", "Flo"], ["Cy", "Gus", "Di", "Hal"]])
        play(db, three, {"Ann Smith": 2, "Ed": 1, "Bob Stone": 4, "Flo": 3}, at="2026-11-02T20:30:00+00:00")
        play(db, four, {"Cy": 1, "Gus": 2, "Di": 3, "Hal": 4}, at="2026-11-02T20:40:00+00:00")
        second = new_event(
            db, [("Ann Smith", "", "1042"), "Bob Stone", "Cy", "Di"], name="Week two", held_on="2026-11-09"
        )
        (five,) = seat(db, second, [["Ann Smith", "Bob Stone", "Cy", "Di"]])
        play(db, five, {"Ann Smith": 3, "Bob Stone": 1, "Cy": 2, "Di": 4}, at="2026-11-09T20:00:00+00:00")
        db.conn.execute("UPDATE members SET initials = 1 WHERE name = 'Ann Smith'")
        season, _ = create_season(db, "Autumn 2026", "points", None, "a4", "director")
        add_event(db, season.id, first.id, "director")
        add_event(db, season.id, second.id, "director")
    finally:
        db.conn.close()
    return instance


def secrets_of(instance: Path) -> set[str]:
    """Every record, view and wall token and join code the instance holds (as stored and as shown)."""
    db = connect(str(instance / "scorekeeper.db"))
    try:
        found: set[str] = set()
        for record, view, code in db.execute("SELECT record_token, view_token, code FROM games"):
            found |= {record, view, code, f"{code[:4]}-{code[4:]}"}
        found |= {row[0] for row in db.execute("SELECT wall_token FROM events")}
        found |= {row[0] for row in db.execute("SELECT wall_token FROM seasons")}
        return found
    finally:
        db.conn.close()


def publish(instance: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    return subprocess.run([SCRIPT, "publish", *args], capture_output=True, text=True, env=env, timeout=300)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts += 1
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name.startswith("on"):
                self.scripts += 1


def links_and_scripts(page: Path) -> tuple[list[str], int]:
    parser = _Links()
    parser.feed(page.read_text())
    return parser.links, parser.scripts


def broken_links(folder: Path) -> list[str]:
    """Every link of every page that leaves the folder or names no file in it (a fragment alone is fine)."""
    broken = []
    for page in sorted(folder.rglob("*.html")):
        for link in links_and_scripts(page)[0]:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("/"):
                broken.append(f"{page.relative_to(folder)}: {link} leaves the folder")
                continue
            if not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_relative_to(folder.resolve()) or not target.is_file():
                broken.append(f"{page.relative_to(folder)}: {link} names no file of the folder")
    return broken


def folder_text(folder: Path) -> dict[str, str]:
    """Every file of the folder as text: pages and CSVs as they are, PDFs through pdftotext."""
    texts = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".pdf":
            texts[str(path)] = subprocess.run(
                ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
            ).stdout
        else:
            texts[str(path)] = path.read_bytes().decode("utf-8", errors="replace")
    return texts


def secrets_found(folder: Path, secrets: set[str]) -> list[str]:
    """Each secret found in a file, also where a PDF's text broke it at a hyphen or a line's end."""
    found = []
    for path, text in folder_text(folder).items():
        flat = re.sub(r"[\s-]", "", text)
        for secret in secrets:
            if secret in text or re.sub(r"-", "", secret) in flat:
                found.append(f"{path}: {secret}")
    return found
