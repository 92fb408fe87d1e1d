"""Error pages: a plain message and a way back, never a traceback; and the one answer to a refusal."""

from __future__ import annotations

from flask import Flask, Response, flash, g, jsonify, redirect, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, UnprocessableEntity, default_exceptions
from werkzeug.wrappers import Response as BaseResponse

from ..scoring import Refusal
from ..scoring.errors import sentence
from .responses import wants_json


def go_back_on_refusal(url: str) -> None:
    """Where a plain form (no JavaScript) is sent back to, with the refusal shown, if this request is refused."""
    g.back_on_refusal = url


def refusal_json(error: Refusal) -> Response:
    """A refusal as a phone's outbox reads it: the sentence, its field, and what stands now."""
    body: dict[str, object] = {"ok": False, "error": str(error), "field": error.field, **error.details()}
    response = jsonify(body)
    response.status_code = error.status
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(Refusal)
    def refused(error: Refusal) -> tuple[str, int] | BaseResponse:
        """Any refusal a view lets through: JSON for the outbox; for a plain form, back where it came
        from with the sentence shown; else a page saying it."""
        if wants_json():
            return refusal_json(error)
        back = g.get("back_on_refusal")
        if back:
            flash(str(error), "error")
            return redirect(back)
        shown = default_exceptions.get(error.status, UnprocessableEntity)(description=sentence(str(error)))
        return render_template("error.html", error=shown), error.status

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
