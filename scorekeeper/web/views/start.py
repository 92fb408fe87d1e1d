"""Starting, joining and importing games."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...scoring import Refusal
from ...scoring.errors import TooMany, sentence
from ...storage.game_joins import JoinLimits, join_by_code
from ...storage.game_starts import STARTED
from ...storage.games import create_game
from ...storage.house_rules import house_choices
from .. import starting
from ..connection import get_db
from ..devices import client_address, guesser_key
from ..errors import form_page, refused_page
from ..start_forms import OPEN_PLAYER_SLOTS, ImportForm, JoinForm, NewGameForm

bp = Blueprint("start", __name__)


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> Response | tuple[str, int, dict[str, str]]:
    """The start form; on success the table page of the new game, with its join code shown.
    New games are counted against the budget (``starting.admit``)."""
    form = NewGameForm()
    form.offer_house_rules(house_choices(get_db()))
    if request.method == "GET" and request.args.get("rules") in form.choice_values():
        form.rules.data = request.args["rules"]
    refused: Refusal | None = None
    if form.validate_on_submit() and form.game is not None:
        try:
            starting.admit(STARTED, "players")
        except Refusal as error:
            form.players.errors = [str(error)]
            refused = error
        else:
            stored = create_game(get_db(), form.game, form.title.data or "")
            return redirect(url_for("play.share", token=stored.record_token, new=1))
    if form.is_submitted():
        form.dealer_choices_from_names()
    return form_page(render_template("start/new_game.html", form=form, open_slots=OPEN_PLAYER_SLOTS), form, refused)


JOIN_REFUSALS = {
    None: "No game has that code. Check it on the phone that started the game.",
    "address": "Too many wrong codes from this address: wait a minute, then type the code again.",
    "everyone": "Too many wrong codes are being tried on this server just now: "
    "check the code on the phone that started the game and type it again.",
}


@bp.route("/join", methods=["GET", "POST"])
def join() -> Response | tuple[str, int, dict[str, str]]:
    """The join code opens the record link: a password, so wrong guesses are limited (see ``join_by_code``)."""
    form = JoinForm()
    if form.validate_on_submit():
        limits = JoinLimits(
            per_address=current_app.config.get("JOIN_LIMIT_PER_ADDRESS", JoinLimits.per_address),
            everyone=current_app.config.get("JOIN_LIMIT_EVERYONE", JoinLimits.everyone),
        )
        attempt = join_by_code(get_db(), form.code.data or "", guesser_key(client_address()), limits)
        if attempt.game is not None:
            return redirect(url_for("play.hand", token=attempt.game.record_token))
        message = JOIN_REFUSALS[attempt.refused]
        form.code.errors = [message]
        if attempt.refused:
            refused = TooMany(message, "code", int(limits.window_seconds))
            return refused_page(render_template("start/join.html", form=form), refused)
    return form_page(render_template("start/join.html", form=form), form)


@bp.route("/import", methods=["GET", "POST"])
def import_record() -> Response | tuple[str, int, dict[str, str]]:
    """A game record file (or pasted text) becomes a new game with its whole log: counted against
    the budget, then checked and stored by the worker's import process (``starting``), one at a time."""
    form = ImportForm()
    text = form.record_text() if form.validate_on_submit() else None
    refused: Refusal | None = None
    if text is not None:
        try:
            with starting.checking_an_import("text"):
                token = starting.import_record(text, "text")
        except Refusal as error:
            form.text.errors = [sentence(str(error))]
            refused = error
        else:
            return redirect(url_for("play.share", token=token))
    return form_page(render_template("start/import.html", form=form), form, refused)
