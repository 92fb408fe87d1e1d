"""Error pages: a plain message and a way back, never a traceback."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from .responses import wants_json


def init_app(app: Flask) -> None:
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
