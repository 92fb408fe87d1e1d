"""The table's pages, reached only through the game's record link: play, enter, correct, share."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .access import record_source, recording_game
from .db import get_db
from .forms import LeftoversForm, NoteForm, OneCardForm, PressureForm, UndoForm
from .pages import export_response, history_lines, scores_context
from .qr import qr_svg
from .scoreboard import scoreboard
from .scoring import ScoringError, parse_cards
from .storage import Appended, StoredGame, append, load_state
from .table_log import (
    LEFTOVERS,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    StaleEdit,
    TableError,
    TableState,
    describe,
)

bp = Blueprint("table", __name__, url_prefix="/t/<token>")


def _state(stored: StoredGame) -> TableState:
    return load_state(get_db(), stored)


def _saved(token: str, text: str, appended: Appended) -> None:
    """Remember the confirmation (with its Undo) for the next page this phone shows."""
    session["saved"] = {"token": token, "text": text, "undo": appended.entry.id}


def _back(token: str, hand: int | None = None) -> Response:
    if request.form.get("back") == "detail" and hand:
        return redirect(url_for("table.hand_detail", token=token, number=hand))
    return redirect(url_for("table.hand", token=token))


def _append(stored: StoredGame, change: Change, idem: str | None) -> Appended:
    return append(get_db(), stored, change, idem or "", record_source())


@bp.get("/")
def hand(token: str) -> str | Response:
    """The hand in play: the referee companion. After the last hand, the final standings."""
    stored = recording_game(token)
    state = _state(stored)
    if state.current_hand is None:
        return redirect(url_for("table.scores", token=token))
    return render_template("hand.html", **_hand_context(stored, state), note_form=NoteForm())


def _hand_context(stored: StoredGame, state: TableState) -> dict[str, object]:
    number = state.current_hand or state.game.hand_count
    game = state.game
    return {
        "stored": stored,
        "state": state,
        "game": game,
        "number": number,
        "board": scoreboard(state),
        "pending": state.pending_pressures(),
        "owing": state.owing(number),
        "notes": state.notes.get(number, []),
        "entered": state.hand_leftovers(number),
        "actions": game.rules.card_actions(game),
        "can_edit": True,
    }


@bp.post("/pressure")
def pressure(token: str) -> Response:
    """One tap, one pressure: recorded at once, its cost and the side's next shown."""
    stored = recording_game(token)
    form = PressureForm()
    if not form.validate_on_submit():
        flash("That pressure could not be recorded: reload the page and tap again.", "error")
        return _back(token)
    number = form.hand.data
    try:
        appended = _append(stored, Change(PRESSURE, number, form.player.data, {}), form.idem.data)
    except TableError as error:
        flash(str(error), "error")
        return _back(token, number)
    state = appended.state
    side = state.game.side_of(appended.entry.player or "").name
    cost = next((v for e, _, v in state.pending_pressures() if e.id == appended.entry.id), None)
    cost_text = f": {cost}" if cost is not None else ""
    _saved(
        token,
        f"Pressure to {appended.entry.player}{cost_text}. {side}'s next costs {state.next_pressure(side)}.",
        appended,
    )
    if form.ends_hand.data and number == state.current_hand:
        return redirect(url_for("table.leftovers", token=token, number=number, seat=0))
    return _back(token, number)


@bp.post("/note")
def note(token: str) -> str | Response:
    stored = recording_game(token)
    form = NoteForm()
    if form.validate_on_submit():
        try:
            appended = _append(
                stored,
                Change(NOTE, form.hand.data, None, {"text": form.text.data.strip()}),
                form.idem.data,
            )
        except TableError as error:
            form.text.errors = [str(error)]
        else:
            _saved(token, f"Ruling noted on hand {form.hand.data}.", appended)
            return _back(token, form.hand.data)
    state = _state(stored)
    return render_template("hand.html", **_hand_context(stored, state), note_form=form), 422


@bp.post("/one-card")
def one_card(token: str) -> Response:
    stored = recording_game(token)
    form = OneCardForm()
    if form.validate_on_submit():
        owes = form.owes.data == "1"
        try:
            _append(
                stored,
                Change(ONE_CARD, form.hand.data, form.player.data, {"owes": owes}),
                form.idem.data,
            )
        except TableError as error:
            flash(str(error), "error")
    return _back(token)


@bp.post("/undo")
def undo(token: str) -> Response:
    stored = recording_game(token)
    form = UndoForm()
    hand_number = None
    if form.validate_on_submit():
        state = _state(stored)
        target = state.by_id.get(form.target.data or -1)
        hand_number = target.hand if target else None
        try:
            appended = _append(stored, Change(VOID, target=form.target.data), form.idem.data)
        except TableError as error:
            flash(str(error), "error")
        else:
            what, old, _ = describe(appended.entry, appended.state)
            flash(f"{what}{f' ({old})' if old else ''}.", "ok")
            session.pop("saved", None)
    return _back(token, hand_number)


@bp.route("/hand/<int:number>/seat/<int:seat>", methods=["GET", "POST"])
def leftovers(token: str, number: int, seat: int) -> str | Response | tuple[str, int]:
    """One player's leftovers: tap the cards, see the score live, save (or correct)."""
    stored = recording_game(token)
    state = _state(stored)
    game = state.game
    if not 1 <= number <= (state.current_hand or game.hand_count) or not 0 <= seat < len(game.players):
        return redirect(url_for("table.hand", token=token))
    player = game.players[seat]
    existing = state.leftovers.get((number, player))
    form = LeftoversForm()
    conflict = None
    status = 200
    if request.method == "GET" and existing is not None:
        form.cards.data = " ".join(card.token for card in existing.cards)
        form.went_out.data = not existing.cards
        form.replaces.data = str(existing.id)
    if form.validate_on_submit():
        change = Change(
            LEFTOVERS,
            number,
            player,
            {"cards": [c.token for c in form.parsed]},
            target=form.replaces_id,
        )
        try:
            appended = _append(stored, change, form.idem.data)
        except StaleEdit as error:
            conflict, status = error, 409
            form.replaces.data = str(error.current.id) if error.current else ""
        except TableError as error:
            form.cards.errors = [str(error)]
            status = 422
        else:
            return _after_leftovers(token, appended, number, player)
    elif form.is_submitted():
        status = 422
    return render_template(
        "leftovers.html",
        stored=stored,
        state=state,
        game=game,
        number=number,
        seat=seat,
        player=player,
        existing=existing,
        form=form,
        conflict=conflict,
        entered=state.hand_leftovers(number),
        can_edit=True,
    ), status


def _after_leftovers(token: str, appended: Appended, number: int, player: str) -> Response:
    state = appended.state
    points = state.game.rules.score_leftovers(appended.entry.cards).total
    corrected = "corrected" if appended.entry.target else "saved"
    if state.hand_is_complete(number):
        hand_score = state.score.hands[number - 1] if number <= len(state.score.hands) else None
        summary = ""
        if hand_score is not None:
            summary = ": " + ", ".join(f"{name} {side.total}" for name, side in hand_score.sides.items())
        _saved(
            token,
            f"{player}'s leftovers {corrected} ({points}). Hand {number} is complete{summary}.",
            appended,
        )
        if appended.entry.target:
            return redirect(url_for("table.hand_detail", token=token, number=number))
        return redirect(url_for("table.hand", token=token))
    _saved(token, f"{player}'s leftovers {corrected} ({points}).", appended)
    missing = [seat for seat, p in enumerate(state.game.players) if (number, p) not in state.leftovers]
    return redirect(url_for("table.leftovers", token=token, number=number, seat=missing[0]))


@bp.get("/preview")
def preview(token: str) -> Response:
    """The live score of cards being tapped in, with the covering the engine chose (JSON)."""
    stored = recording_game(token)
    rules = stored.game.rules
    try:
        cards = parse_cards(request.args.get("cards", "").split())
        rules.check_leftovers({"hand": cards})
        scored = rules.score_leftovers(cards)
    except ScoringError as error:
        return jsonify({"error": str(error)})
    return jsonify(
        {
            "total": scored.total,
            "covering": scored.compact,
            "lines": [{"label": label, "points": points} for label, points in scored.breakdown()],
        }
    )


@bp.get("/hand/<int:number>")
def hand_detail(token: str, number: int) -> str | Response:
    """A hand's row opened up: each player's cards and covering, pressures, notes; corrections."""
    stored = recording_game(token)
    state = _state(stored)
    if not 1 <= number <= (state.current_hand or state.game.hand_count):
        return redirect(url_for("table.scores", token=token))
    return render_template("hand_detail.html", **_detail_context(stored, state, number), can_edit=True)


def _detail_context(stored: StoredGame, state: TableState, number: int) -> dict[str, object]:
    rules = state.game.rules
    entered = state.hand_leftovers(number)
    return {
        "stored": stored,
        "state": state,
        "game": state.game,
        "number": number,
        "entered": entered,
        "scored": {player: rules.score_leftovers(entry.cards) for player, entry in entered.items()},
        "hand_score": state.score.hands[number - 1] if number <= len(state.score.hands) else None,
        "pressures": state.hand_pressures(number),
        "notes": state.notes.get(number, []),
        "note_form": NoteForm(),
    }


@bp.get("/scores")
def scores(token: str) -> str:
    stored = recording_game(token)
    state = _state(stored)
    return render_template("scores.html", **scores_context(stored, state), can_edit=True)


@bp.get("/history")
def history(token: str) -> str:
    stored = recording_game(token)
    state = _state(stored)
    return render_template(
        "history.html",
        stored=stored,
        state=state,
        game=state.game,
        lines=history_lines(state),
        can_edit=True,
    )


@bp.get("/share")
def share(token: str) -> str:
    """The join QR code and code for other phones, and the read-only link for spectators."""
    stored = recording_game(token)
    state = _state(stored)
    record_url = url_for("table.hand", token=token, _external=True)
    view_url = url_for("view.scores", token=stored.view_token, _external=True)
    return render_template(
        "share.html",
        stored=stored,
        state=state,
        game=state.game,
        record_url=record_url,
        view_url=view_url,
        record_qr=qr_svg(record_url),
        view_qr=qr_svg(view_url, scale=3),
        new=request.args.get("new") == "1",
        can_edit=True,
    )


@bp.get("/export.json")
def export(token: str) -> Response:
    stored = recording_game(token)
    return export_response(stored, _state(stored))
