"""Responses every part of the site gives alike: JSON for the phone's outbox, the version a
live page polls (an ETag, 304 when unchanged), downloads named without secrets, and the
paper a printout's link asks for."""

from __future__ import annotations

import json
import re
import unicodedata

from flask import Response, abort, jsonify, request

from ..reports.sheets import DEFAULT_PAPER, PAPER_SIZES
from ..scoring import FiledUnder
from ..storage.games import StoredGame, game_version
from .access import holds_a_link
from .connection import get_db


def wants_json() -> bool:
    """A submission from the phone's outbox (JavaScript) rather than a plain form post."""
    return request.headers.get("X-Requested-With") == "outbox"


def version_response(column: str, token: str) -> Response:
    """The game's version for live polling: 304 when the phone already has it."""
    version = game_version(get_db(), column, token)
    if version is None:
        abort(404)
    holds_a_link()
    return polled_version(version)


def polled_version(version: int) -> Response:
    """A version for a live page to poll (a game's, an event's): 304 when the page has it already (its ETag)."""
    etag = str(version)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = jsonify({"version": version})
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


#: The longest part of a download's name that comes from the game's title (or its event's name).
NAME_SLUG = 60


def download_name(stored: StoredGame, kind: str, extension: str, filed: FiledUnder | None = None) -> str:
    """A file name from the game's date and title: never its join code or a token, because the view
    link serves these files too, and either of those would let whoever sees the name change the game.

    An event's game (``filed``) is named by the event's date and name and always ends in its round
    and table, the event's name shortened to make room, so that no two tables share a name."""
    if filed is None:
        date, title = stored.created_at[:10], _slug(stored.title, NAME_SLUG)
    else:
        where = f"round-{filed.round}-table-{filed.table}"
        date, title = (
            _slug(filed.held_on, NAME_SLUG),
            "-".join(part for part in (_slug(filed.event, NAME_SLUG - len(where) - 1), where) if part),
        )
    return "-".join(part for part in (kind, date, title) if part) + "." + extension


def event_file_name(name: str, held_on: str, what: str, extension: str) -> str:
    """An event's download named by the event and its date, in safe ASCII:
    ``thursday-club-2026-11-19-standings.pdf``; ``what`` says which of its files it is."""
    head = "-".join(part for part in (_slug(name, NAME_SLUG), _slug(held_on, 20)) if part) or "event"
    return f"{head}-{what}.{extension}"


def _slug(text: str, most: int) -> str:
    """``text`` in lower-case ASCII letters and digits joined by dashes, at most ``most`` characters."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:most].rstrip("-")


def download_response(body: str | bytes, mimetype: str, filename: str, inline: bool = False) -> Response:
    """A file named ``filename``: to save (an attachment), or ``inline`` to open in the browser's viewer."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{filename}"'
    return response


def pdf_response(body: bytes, filename: str) -> Response:
    """A PDF opens in the browser's viewer, from which it prints."""
    return download_response(body, "application/pdf", filename, inline=True)


def json_download(data: object, filename: str) -> Response:
    """An export to save: indented, and non-ASCII names as they are written."""
    return download_response(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "application/json", filename)


def requested_paper(default: str | None = None) -> str:
    """The ``?paper=`` of a printout's link: a4 or letter, in any case (when not given, ``default``,
    an event's own paper for its printouts, or else a4); 400 otherwise."""
    paper = (request.args.get("paper") or default or DEFAULT_PAPER).lower()
    if paper not in PAPER_SIZES:
        abort(400, description=f"paper must be one of {', '.join(PAPER_SIZES)}")
    return paper
