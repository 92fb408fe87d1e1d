"""Error pages: a plain message and a way back, never a traceback."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException, InternalServerError


def init_app(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        return render_template("error.html", error=error), error.code or 500

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> tuple[str, int]:
        app.logger.exception("unhandled error")
        return render_template("error.html", error=InternalServerError()), 500
