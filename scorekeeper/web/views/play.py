"""The table's pages, reached only through the game's record link: play, enter, correct, share.

The blueprint, what its pages share (a change appended as this phone, and answered), the hand
in play and its taps, and the game's other pages; a player's leftovers are entered on the
pages of ``play_leftovers``, which adds them to this blueprint."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...gamelog import (
    CONFIRM,
    DIRECTOR,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    ChangeRefusal,
    GameState,
    SecondThoughts,
    Sender,
    Taken,
)
from ...reports.qr import qr_svg
from ...storage.games import StoredGame, load_state, now
from ...storage.saving import save
from .. import render_pool
from ..access import recording_game
from ..connection import get_db
from ..devices import client_address, record_source
from ..errors import go_back_on_refusal, refused_page
from ..forms import ChangeForm
from ..installable import secure_origin
from ..pages import export_response, history_page, phone_copy_response, scores_context, sheet_response
from ..play_forms import ConfirmForm, LeftoversForm, NoteForm, OneCardForm, PressureForm, UndoForm
from ..responses import version_response, wants_json
from ..scoreboard import scoreboard

bp = Blueprint("play", __name__, url_prefix="/t/<token>")


def state_of(stored: StoredGame) -> GameState:
    return load_state(get_db(), stored)


def _back_url(token: str, hand: int | None = None) -> str:
    if request.form.get("back") == "detail" and hand:
        return url_for("play.hand_detail", token=token, number=hand)
    return url_for("play.hand", token=token)


def done(taken: Taken, next_url: str, undoable: bool = True) -> Response:
    """A save committed: the outbox gets JSON, a plain form a redirect; both go on to the next
    page with what the log said of it (and its Undo, unless it is an undo) in its address
    (``app._saved_message``), not in the session: a save writes no cookie."""
    said = {"saved": taken.last.entry.id, "said": taken.said} if undoable else {"said": taken.said}
    next_url += ("&" if "?" in next_url else "?") + urlencode(said)
    if wants_json():
        return jsonify(
            {
                "ok": True,
                "entry": taken.last.entry.id,
                "version": taken.state.version,
                "duplicate": taken.last.duplicate,
                "message": taken.said,
                "redirect": next_url,
            }
        )
    return redirect(next_url)


def sender() -> Sender:
    """This phone (its label), or the logged-in director, who may also change a locked game."""
    from .director import is_director

    director = is_director()
    return Sender(DIRECTOR if director else record_source(), now(), director)


def save_changes(
    stored: StoredGame,
    changes: list[tuple[Change, str]],
    form: ChangeForm,
    read: GameState | None = None,
    whole_hand: bool = False,
) -> Taken:
    """Saved as this phone (its network address on each change), each change stamped with the
    time it was made (``made_at``) and keyed by the form's key and the suffix beside it (a seat's,
    when a whole hand is saved together). ``read``: the state this request has read already."""
    at, address, key = made_at(form).isoformat(), client_address(), form.idem.data or ""
    sent = [(replace(change, address=address, at=at), key + suffix) for change, suffix in changes]
    return save(get_db(), stored, sent, sender(), read, whole_hand)


def made_at(form: ChangeForm) -> datetime:
    """When the change was made at the table (a tap, a save): now, less the time it waited in the
    phone's outbox. Every change is stamped so, and the history shows it in that order of events."""
    return (datetime.now(UTC) - timedelta(milliseconds=form.waited_ms)).replace(microsecond=0)


@bp.get("/")
def hand(token: str) -> str | Response:
    """The hand in play: the referee companion. After the last hand, the final standings."""
    stored = recording_game(token)
    state = state_of(stored)
    if state.current_hand is None:  # the confirmation of the change that got here goes on with it
        said = urlencode([(name, request.args[name]) for name in ("saved", "said") if name in request.args])
        return redirect(url_for("play.scores", token=token) + (f"?{said}" if said else ""))
    return render_template("play/hand.html", **_hand_context(stored, state), note_form=NoteForm())


def _hand_context(stored: StoredGame, state: GameState) -> dict[str, object]:
    number = state.last_hand
    game = state.game
    return {
        "stored": stored,
        "state": state,
        "game": game,
        "number": number,
        "board": scoreboard(state),
        "pending": state.pending_pressures(),
        "owing": state.owing(number),
        "notes": state.notes.get(number, ()),
        "entered": state.hand_leftovers(number),
        "actions": game.rules.card_actions(len(game.players)),
        "to_confirm": state.unconfirmed_hands if stored.verify else [],
        "can_edit": True,
    }


@bp.post("/pressure")
def pressure(token: str) -> Response | tuple[str, int, dict[str, str]]:
    """One tap, one pressure: recorded at once, its cost and the side's next shown."""
    stored = recording_game(token)
    form = PressureForm()
    go_back_on_refusal(_back_url(token, form.hand.data))
    if not form.validate_on_submit():
        raise ChangeRefusal("That pressure could not be recorded: reload the page and tap again.", "player")
    number = form.hand.data
    change = Change(PRESSURE, number, form.player.data, {}, again=form.confirmed)
    try:
        taken = save_changes(stored, [(change, "")], form)
    except SecondThoughts as error:
        if wants_json():
            raise
        return _ask_again(stored, form, error)
    next_url = _back_url(token, number)
    if form.ends_hand.data and number == taken.state.current_hand:
        next_url = url_for("play.leftovers", token=token, number=number, seat=taken.next_seat or 0)
    return done(taken, next_url)


def _ask_again(stored: StoredGame, form: PressureForm, question: SecondThoughts) -> tuple[str, int, dict[str, str]]:
    """Without JavaScript: the hand page again, with the question and a one-tap answer each way."""
    state = state_of(stored)
    ask = {
        "question": str(question),
        "fields": {
            "hand": form.hand.data,
            "player": form.player.data,
            "again": "1",
            "ends_hand": "y" if form.ends_hand.data else "",
        },
    }
    page = render_template("play/hand.html", **_hand_context(stored, state), note_form=NoteForm(), ask=ask)
    return refused_page(page, question)


@bp.post("/note")
def note(token: str) -> Response | tuple[str, int, dict[str, str]]:
    stored = recording_game(token)
    form = NoteForm()
    try:
        if not form.validate_on_submit():
            raise ChangeRefusal(first_error(form), "text")
        text = (form.text.data or "").strip()
        taken = save_changes(stored, [(Change(NOTE, form.hand.data, None, {"text": text}), "")], form)
    except ChangeRefusal as error:
        if wants_json():
            raise
        form.text.errors = form.text.errors or [str(error)]
        page = render_template("play/hand.html", **_hand_context(stored, state_of(stored)), note_form=form)
        return refused_page(page, error)
    return done(taken, _back_url(token, form.hand.data))


def first_error(form: NoteForm | LeftoversForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return "the form is incomplete: reload the page"


@bp.post("/one-card")
def one_card(token: str) -> Response:
    stored = recording_game(token)
    form = OneCardForm()
    go_back_on_refusal(_back_url(token))
    if not form.validate_on_submit():
        raise ChangeRefusal("That reminder could not be recorded: reload the page.", "player")
    owes = form.owes.data == "1"
    taken = save_changes(stored, [(Change(ONE_CARD, form.hand.data, form.player.data, {"owes": owes}), "")], form)
    return done(taken, _back_url(token))


@bp.post("/undo")
def undo(token: str) -> Response:
    stored = recording_game(token)
    form = UndoForm()
    go_back_on_refusal(_back_url(token))
    if not form.validate_on_submit():
        raise ChangeRefusal("That undo could not be recorded: reload the page.")
    target = state_of(stored).by_id.get(form.target.data or -1)
    hand_number = target.hand if target else None
    go_back_on_refusal(_back_url(token, hand_number))
    taken = save_changes(stored, [(Change(VOID, target=form.target.data), "")], form)
    return done(taken, _back_url(token, hand_number), undoable=False)


@bp.post("/confirm")
def confirm(token: str) -> Response:
    """With verification on, a player of another side confirms a complete hand from their phone."""
    stored = recording_game(token)
    form = ConfirmForm()
    go_back_on_refusal(_back_url(token))
    if not form.validate_on_submit():
        raise ChangeRefusal("That confirmation could not be recorded: reload the page.")
    change = Change(CONFIRM, form.hand.data, form.player.data, {"source": sender().source})
    taken = save_changes(stored, [(change, "")], form)
    return done(taken, _back_url(token))


@bp.get("/version")
def version(token: str) -> Response:
    """The game's version, for phones following it live (ETag: a 304 when nothing changed)."""
    return version_response("record_token", token)


@bp.get("/hand/<int:number>")
def hand_detail(token: str, number: int) -> str | Response:
    """A hand's row opened up: each player's cards and covering, pressures, notes; corrections."""
    stored = recording_game(token)
    state = state_of(stored)
    if not 1 <= number <= state.last_hand:
        return redirect(url_for("play.scores", token=token))
    return render_template("play/hand_detail.html", **_detail_context(stored, state, number), can_edit=True)


def _detail_context(stored: StoredGame, state: GameState, number: int) -> dict[str, object]:
    rules = state.game.rules
    entered = state.hand_leftovers(number)
    return {
        "stored": stored,
        "state": state,
        "game": state.game,
        "number": number,
        "entered": entered,
        "scored": {player: rules.score_leftovers(entry.cards) for player, entry in entered.items()},
        "hand_score": state.hand_score(number),
        "pressures": state.hand_pressures(number),
        "notes": state.notes.get(number, ()),
        "note_form": NoteForm(),
        "threes_verb": rules.threes_verb,
    }


@bp.get("/scores")
def scores(token: str) -> str:
    stored = recording_game(token)
    state = state_of(stored)
    return render_template("game/scores.html", **scores_context(stored, state), can_edit=True)


@bp.get("/history")
def history(token: str) -> str:
    stored = recording_game(token)
    state = state_of(stored)
    return history_page(stored, state, can_edit=True)


@bp.get("/share")
def share(token: str) -> str:
    """The join QR code and code for other phones, and the read-only link for spectators."""
    stored = recording_game(token)
    state = state_of(stored)
    record_url = url_for("play.hand", token=token, _external=True)
    view_url = url_for("view.scores", token=stored.view_token, _external=True)
    return render_template(
        "play/share.html",
        stored=stored,
        state=state,
        game=state.game,
        record_url=record_url,
        view_url=view_url,
        record_qr=qr_svg(record_url),
        view_qr=qr_svg(view_url, scale=3),
        new=request.args.get("new") == "1",
        secure_origin=secure_origin(),
        can_edit=True,
    )


@bp.get("/sheet.pdf")
@render_pool.prints
def sheet(token: str) -> Response:
    """The score sheet to print and sign, with a QR code to the read-only page."""
    stored = recording_game(token)
    return sheet_response(stored, state_of(stored), url_for("view.scores", token=stored.view_token, _external=True))


@bp.get("/export.json")
def export(token: str) -> Response:
    stored = recording_game(token)
    return export_response(stored, state_of(stored))


@bp.get("/copy.json")
def copy(token: str) -> Response:
    """The game as the phone keeps it, to play on without the server (``static/copy.js``)."""
    stored = recording_game(token)
    return phone_copy_response(stored, state_of(stored))
