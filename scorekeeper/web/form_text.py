"""A posted form's text read as UTF-8 or refused: never with its unreadable bytes made into other text.

Werkzeug reads a URL-encoded form's bytes that are not UTF-8 as the text "%ED%B2%80", and a
multipart form's (the import's pasted record) with each replaced by U+FFFD, which a note, a
name or a record would then keep; here such a form is refused (``NotText``, a refusal beside
the field that holds them), as an imported file that is not UTF-8 is. (Files are bytes: each
reader decodes its own.)
"""

from __future__ import annotations

import io
import typing as t
from urllib.parse import parse_qsl, unquote_plus

from flask import Request
from werkzeug.datastructures import MultiDict
from werkzeug.formparser import FormDataParser

from ..scoring import Refusal

_Parsed = tuple[t.IO[bytes], MultiDict[str, t.Any], MultiDict[str, t.Any]]


class NotText(Refusal):
    """A form whose bytes are not UTF-8 text."""

    def __init__(self, field: str) -> None:
        super().__init__(f"What was sent as {field!r} is not UTF-8 text: nothing was saved.", field)


class StrictFormDataParser(FormDataParser):
    """Werkzeug's parser, refusing what it would read with its bytes made into other text.

    Werkzeug's ``parse`` takes any ValueError for a form it cannot read and hands on an empty
    one; the refusal is kept aside and raised once it has returned."""

    refused: NotText | None = None

    def parse(
        self, stream: t.IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str] | None = None
    ) -> _Parsed:
        parsed = super().parse(stream, mimetype, content_length, options)
        if self.refused is not None:
            raise self.refused
        return parsed

    def _parse_urlencoded(
        self, stream: t.IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str]
    ) -> _Parsed:
        body = stream.read()
        try:
            items = parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            self.refused = NotText(_unreadable(body))
            raise self.refused from None
        return stream, self.cls(items), self.cls()

    def _parse_multipart(
        self, stream: t.IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str]
    ) -> _Parsed:
        body = stream.read()  # no more than the app's MAX_CONTENT_LENGTH: werkzeug limits the stream
        _, form, files = super()._parse_multipart(io.BytesIO(body), mimetype, len(body), options)
        values = [(name, value) for name, value in form.items(multi=True) if "\ufffd" in value]
        if sum(value.count("\ufffd") for _, value in values) > body.count("\ufffd".encode()):
            self.refused = NotText(values[0][0])
            raise self.refused
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
    """The app's request: its form read by ``StrictFormDataParser``; a refused form is empty
    from then on, so that the page answering the refusal does not read it again."""

    form_data_parser_class = StrictFormDataParser

    def _load_form_data(self) -> None:
        try:
            super()._load_form_data()
        except NotText:
            self.__dict__["form"] = self.parameter_storage_class()
            self.__dict__["files"] = self.parameter_storage_class()
            raise
