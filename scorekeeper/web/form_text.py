"""A posted form's text read as UTF-8 or refused: never with its unreadable bytes made into other text.

Werkzeug reads a URL-encoded form's bytes that are not UTF-8 as the text "%ED%B2%80", and a
multipart form's (the import's pasted record) with each replaced by U+FFFD, which a note, a
name or a record would then keep; here such a form is refused (400, naming the field), as an
imported file that is not UTF-8 is. (Files are bytes: each reader decodes its own.)
"""

from __future__ import annotations

import io
import typing as t
from urllib.parse import parse_qsl, unquote_plus

from flask import Request
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest
from werkzeug.formparser import FormDataParser


class NotText(BadRequest):
    """A form whose bytes are not UTF-8 text."""


class StrictFormDataParser(FormDataParser):
    def _parse_urlencoded(
        self, stream: t.IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str]
    ) -> tuple[t.IO[bytes], MultiDict[str, t.Any], MultiDict[str, t.Any]]:
        body = stream.read()
        try:
            items = parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            raise NotText(f"What was sent as {_unreadable(body)!r} is not UTF-8 text: nothing was saved.") from None
        return stream, self.cls(items), self.cls()

    def _parse_multipart(
        self, stream: t.IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str]
    ) -> tuple[t.IO[bytes], MultiDict[str, t.Any], MultiDict[str, t.Any]]:
        body = stream.read()  # no more than the app's MAX_CONTENT_LENGTH: werkzeug limits the stream
        _, form, files = super()._parse_multipart(io.BytesIO(body), mimetype, len(body), options)
        values = [(name, value) for name, value in form.items(multi=True) if "\ufffd" in value]
        if sum(value.count("\ufffd") for _, value in values) > body.count("\ufffd".encode()):
            raise NotText(f"What was sent as {values[0][0]!r} is not UTF-8 text: nothing was saved.")
        return stream, form, files


def _unreadable(body: bytes) -> str:
    """The name of the first field whose value is not UTF-8 (its name as best it reads)."""
    for pair in body.decode("utf-8", "replace").split("&"):
        name, _, value = pair.partition("=")
        try:
            unquote_plus(value, errors="strict")
            unquote_plus(name, errors="strict")
        except UnicodeDecodeError:
            return unquote_plus(name, errors="replace")
    return "the form"


class StrictRequest(Request):
    """The app's request: its form read by ``StrictFormDataParser``."""

    form_data_parser_class = StrictFormDataParser
