"""The home page."""

from __future__ import annotations

from flask import Blueprint, render_template

from .scoring import RULE_SETS

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    return render_template("home.html", rule_sets=RULE_SETS.values())
