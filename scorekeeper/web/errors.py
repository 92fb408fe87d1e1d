"""Error pages: a plain message and a way back, never a traceback; and the one answer to a refusal."""

from __future__ import annotations

from http import HTTPStatus

from flask import Flask, Response, flash, g, jsonify, redirect, render_template
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, UnprocessableEntity, default_exceptions
from werkzeug.wrappers import Response as BaseResponse

from ..scoring import Refusal
from ..scoring.errors import sentence
from .responses import wants_json


def go_back_on_refusal(url: str) -> None:
    """Where a plain form (no JavaScript) is sent back to, with the refusal shown, if this request is refused."""
    g.back_on_refusal = url


class InvalidForm(Refusal):
    """A form sent with fields it cannot take: each field's message is shown beside it."""

    def __init__(self, message: str = "Some fields need another look: see the messages beside them.") -> None:
        super().__init__(message)


class TooLarge(Refusal):
    """More than the server reads at once (a file past its limit): the message says the limit."""

    status = 413


def refused_headers(error: Refusal) -> dict[str, str]:
    """How long to wait before trying again, where the refusal says."""
    return {} if error.retry_after is None else {"Retry-After": str(error.retry_after)}


def refused_page(body: str, error: Refusal) -> tuple[str, int, dict[str, str]]:
    """A page that shows ``error`` (beside its field, on a form kept as typed), answered with its status."""
    return body, error.status, refused_headers(error)


def form_page(body: str, form: FlaskForm, refused: Refusal | None = None) -> tuple[str, int, dict[str, str]]:
    """A page with a form: as asked for; sent and not taken, with ``refused`` (its own refusal, or
    ``InvalidForm`` when its fields hold the messages)."""
    if refused is None and not form.is_submitted():
        return body, HTTPStatus.OK, {}
    return refused_page(body, refused or InvalidForm())


def page_answer(body: str, refused: Refusal | None = None) -> tuple[str, int, dict[str, str]]:
    """A page as asked for, or showing ``refused`` beside its field."""
    return (body, HTTPStatus.OK, {}) if refused is None else refused_page(body, refused)


def refusal_json(error: Refusal) -> Response:
    """A refusal as a phone's outbox reads it: the sentence, its field, and what stands now."""
    body: dict[str, object] = {"ok": False, "error": str(error), "field": error.field, **error.details()}
    response = jsonify(body)
    response.status_code = error.status
    response.headers.update(refused_headers(error))
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(Refusal)
    def refused(error: Refusal) -> tuple[str, int, dict[str, str]] | BaseResponse:
        """Any refusal a view lets through: JSON for the outbox; for a plain form, back where it came
        from with the sentence shown; else a page saying it."""
        if wants_json():
            return refusal_json(error)
        back = g.get("back_on_refusal")
        if back:
            flash(str(error), "error")
            return redirect(back)
        shown = default_exceptions.get(error.status, UnprocessableEntity)(description=sentence(str(error)))
        return refused_page(render_template("error.html", error=shown), error)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str | Response, int]:
        if wants_json():
            body = {"ok": False, "error": error.description, "csrf": isinstance(error, CSRFError)}
            return jsonify(body), error.code or 500
        if isinstance(error, CSRFError):
            error.description = "This page is out of date (or was open too long): go back, reload it, and try again."
        return render_template("error.html", error=error), error.code or 500

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> tuple[str | Response, int]:
        app.logger.exception("unhandled error")
        if wants_json():
            return jsonify({"ok": False, "error": "the server failed; it will be retried"}), 500
        return render_template("error.html", error=InternalServerError()), 500
