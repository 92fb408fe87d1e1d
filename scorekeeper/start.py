"""Starting, joining and importing games."""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .db import get_db
from .exchange import import_changes
from .forms import OPEN_PLAYER_SLOTS, ImportForm, JoinForm, NewGameForm
from .house_store import house_choices
from .scoring import ScoringError
from .storage import create_game, game_by_code, import_game
from .table_log import TableError

bp = Blueprint("start", __name__)


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> Response | tuple[str, int] | str:
    """The start form; on success the table page of the new game, with its join code shown."""
    form = NewGameForm()
    form.offer_house_rules(house_choices(get_db()))
    if request.method == "GET" and request.args.get("rules") in form.choice_values():
        form.rules.data = request.args["rules"]
    if form.validate_on_submit() and form.game is not None:
        stored = create_game(get_db(), form.game, form.title.data or "")
        return redirect(url_for("table.share", token=stored.record_token, new=1))
    status = 422 if form.is_submitted() else 200
    return render_template("new_game.html", form=form, open_slots=OPEN_PLAYER_SLOTS), status


@bp.route("/join", methods=["GET", "POST"])
def join() -> Response | tuple[str, int]:
    form = JoinForm()
    if form.validate_on_submit():
        stored = game_by_code(get_db(), form.code.data or "")
        if stored is not None:
            return redirect(url_for("table.hand", token=stored.record_token))
        form.code.errors = ["No game has that code. Check it on the phone that started the game."]
    status = 422 if form.is_submitted() else 200
    return render_template("join.html", form=form), status


@bp.route("/import", methods=["GET", "POST"])
def import_record() -> Response | tuple[str, int]:
    """A game record file (or pasted text) becomes a new game with its whole log."""
    form = ImportForm()
    if form.validate_on_submit():
        upload = form.file.data
        text = upload.read().decode("utf-8", "replace") if upload else (form.text.data or "")
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ScoringError("the record must be a JSON object")
            record, changes = import_changes(data)
            stored = import_game(get_db(), record.game, changes, "import", str(data.get("title") or ""))
        except json.JSONDecodeError as error:
            form.text.errors = [f"Not JSON: {error.msg} at line {error.lineno}, column {error.colno}."]
        except (ScoringError, TableError) as error:
            form.text.errors = [str(error)]
        else:
            return redirect(url_for("table.share", token=stored.record_token))
    status = 422 if form.is_submitted() else 200
    return render_template("import.html", form=form), status
