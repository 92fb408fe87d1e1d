"""The home page: start a game, join one, the games this phone holds."""

from __future__ import annotations

from flask import Blueprint, render_template

from ...scoring.rulesets import AT_THE_TABLE

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    return render_template("home/home.html", rule_sets=AT_THE_TABLE.values())
