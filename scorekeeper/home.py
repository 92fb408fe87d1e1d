"""The home page."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template
from flask_wtf.csrf import generate_csrf

from .scoring.rulesets import AT_THE_TABLE

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    return render_template("home.html", rule_sets=AT_THE_TABLE.values())


@bp.get("/csrf")
def csrf() -> Response:
    """A fresh CSRF token, for an outbox replaying submissions after the old one expired."""
    response = jsonify({"token": generate_csrf()})
    response.headers["Cache-Control"] = "no-store"
    return response
