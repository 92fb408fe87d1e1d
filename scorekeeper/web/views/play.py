"""The table's pages, reached only through the game's record link: play, enter, correct, share.

The blueprint, what its pages share (a change appended as this phone, and answered), the hand
in play and its taps, and the game's other pages; a player's leftovers are entered on the
pages of ``play_leftovers``, which adds them to this blueprint."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from flask import Blueprint, jsonify, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...gamelog import (
    CONFIRM,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    Guard,
    SecondThoughts,
    TableError,
    TableState,
    describe,
)
from ...reports.qr import qr_svg
from ...storage.evening import settle_game
from ...storage.games import DIRECTOR, Appended, StoredGame, append, load_state
from .. import printer
from ..access import recording_game
from ..connection import get_db
from ..devices import client_address, record_source
from ..errors import go_back_on_refusal
from ..forms import ChangeForm
from ..installable import secure_origin
from ..pages import export_response, history_page, phone_copy_response, scores_context, sheet_response
from ..play_forms import ConfirmForm, LeftoversForm, NoteForm, OneCardForm, PressureForm, UndoForm
from ..responses import version_response, wants_json
from ..scoreboard import scoreboard

bp = Blueprint("play", __name__, url_prefix="/t/<token>")

SAME_PRESSURE_WINDOW = timedelta(seconds=5)
"""Two pressures on one player this close together are more often one pressure tapped twice
(a double tap, or two phones) than two: the second is recorded only once the player says so."""


def state_of(stored: StoredGame) -> TableState:
    return load_state(get_db(), stored)


def _back_url(token: str, hand: int | None = None) -> str:
    if request.form.get("back") == "detail" and hand:
        return url_for("play.hand_detail", token=token, number=hand)
    return url_for("play.hand", token=token)


def done(token: str, appended: Appended, message: str, next_url: str, undoable: bool = True) -> Response:
    """A change committed: the outbox gets JSON, a plain form a redirect; both go on to the next
    page with the confirmation (and its Undo, unless it is an undo) in its address
    (``app._saved_message``), not in the session: a save writes no cookie."""
    said = {"saved": appended.entry.id, "said": message} if undoable else {"said": message}
    next_url += ("&" if "?" in next_url else "?") + urlencode(said)
    if wants_json():
        return jsonify(
            {
                "ok": True,
                "entry": appended.entry.id,
                "version": appended.state.version,
                "duplicate": appended.duplicate,
                "message": message,
                "redirect": next_url,
            }
        )
    return redirect(next_url)


def change_source() -> str:
    from .director import is_director

    return DIRECTOR if is_director() else record_source()


def append_change(
    stored: StoredGame, change: Change, form: ChangeForm, guard: Guard | None = None, read: TableState | None = None
) -> Appended:
    """Append as this phone (its label and address), stamped with the time it was made (``made_at``,
    unless the change says); the logged-in director may also change a locked game.
    ``read``: the state this request has read already."""
    source = change_source()
    change = replace(change, address=client_address(), at=change.at or made_at(form).isoformat())
    appended = append(get_db(), stored, change, form.idem.data or "", source, source == DIRECTOR, guard, read)
    settle_game(get_db(), stored)
    return appended


def made_at(form: ChangeForm) -> datetime:
    """When the change was made at the table (a tap, a save): now, less the time it waited in the
    phone's outbox. Every change is stamped so, and the history shows it in that order of events."""
    return (datetime.now(UTC) - timedelta(milliseconds=form.waited_ms)).replace(microsecond=0)


def _same_pressure_guard(form: PressureForm, tapped: datetime) -> Guard | None:
    """Ask before a pressure on a player who took one moments before or after it, on this
    phone or another.

    The moments compared are the taps (each entry is stored with its tap's time): two
    pressures taken offline minutes apart and delivered together are not questioned, and
    one tapped offline a second before another phone's is.
    """
    if form.confirmed:
        return None
    player = str(form.player.data)
    source = change_source()

    def guard(state: TableState) -> None:
        for recent in state.pressures_on(form.hand.data or 0, player):
            if abs(tapped - datetime.fromisoformat(recent.created_at)) > SAME_PRESSURE_WINDOW:
                continue
            if recent.source == source:
                raise SecondThoughts(f"Another pressure on {player}? One was recorded moments ago.", "player")
            raise SecondThoughts(
                f"{player}'s pressure was just recorded on another phone. Is this a second one?", "player"
            )

    return guard


@bp.get("/")
def hand(token: str) -> str | Response:
    """The hand in play: the referee companion. After the last hand, the final standings."""
    stored = recording_game(token)
    state = state_of(stored)
    if state.current_hand is None:  # the confirmation of the change that got here goes on with it
        said = urlencode([(name, request.args[name]) for name in ("saved", "said") if name in request.args])
        return redirect(url_for("play.scores", token=token) + (f"?{said}" if said else ""))
    return render_template("play/hand.html", **_hand_context(stored, state), note_form=NoteForm())


def _hand_context(stored: StoredGame, state: TableState) -> dict[str, object]:
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
def pressure(token: str) -> Response:
    """One tap, one pressure: recorded at once, its cost and the side's next shown."""
    stored = recording_game(token)
    form = PressureForm()
    go_back_on_refusal(_back_url(token, form.hand.data))
    if not form.validate_on_submit():
        raise TableError("That pressure could not be recorded: reload the page and tap again.", "player")
    number = form.hand.data
    tapped = made_at(form)
    change = Change(PRESSURE, number, form.player.data, {}, at=tapped.isoformat())
    try:
        appended = append_change(stored, change, form, _same_pressure_guard(form, tapped))
    except SecondThoughts as error:
        if wants_json():
            raise
        return _ask_again(stored, form, str(error))
    state = appended.state
    side = state.game.side_of(appended.entry.player or "").name
    cost = state.pressure_cost(appended.entry)
    cost_text = f": {cost}" if cost is not None else ""
    message = f"Pressure to {appended.entry.player}{cost_text}. {side}'s next costs {state.next_pressure(side)}."
    next_url = _back_url(token, number)
    if form.ends_hand.data and number == state.current_hand:
        next_url = url_for("play.leftovers", token=token, number=number, seat=state.next_seat_to_enter(number) or 0)
    return done(token, appended, message, next_url)


def _ask_again(stored: StoredGame, form: PressureForm, question: str) -> Response:
    """Without JavaScript: the hand page again, with the question and a one-tap answer each way."""
    state = state_of(stored)
    ask = {
        "question": question,
        "fields": {
            "hand": form.hand.data,
            "player": form.player.data,
            "again": "1",
            "ends_hand": "y" if form.ends_hand.data else "",
        },
    }
    page = render_template("play/hand.html", **_hand_context(stored, state), note_form=NoteForm(), ask=ask)
    return make_response(page, 409)


@bp.post("/note")
def note(token: str) -> str | Response | tuple[str, int]:
    stored = recording_game(token)
    form = NoteForm()
    if form.validate_on_submit():
        text = (form.text.data or "").strip()
        try:
            appended = append_change(stored, Change(NOTE, form.hand.data, None, {"text": text}), form)
        except TableError as error:
            if wants_json():
                raise
            form.text.errors = [str(error)]
        else:
            return done(token, appended, f"Ruling noted on hand {form.hand.data}.", _back_url(token, form.hand.data))
    elif wants_json():
        raise TableError(first_error(form), "text")
    state = state_of(stored)
    return render_template("play/hand.html", **_hand_context(stored, state), note_form=form), 422


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
        raise TableError("That reminder could not be recorded: reload the page.", "player")
    owes = form.owes.data == "1"
    appended = append_change(stored, Change(ONE_CARD, form.hand.data, form.player.data, {"owes": owes}), form)
    message = f"{form.player.data} owes two cards." if owes else f"{form.player.data}'s reminder cleared."
    return done(token, appended, message, _back_url(token))


@bp.post("/undo")
def undo(token: str) -> Response:
    stored = recording_game(token)
    form = UndoForm()
    go_back_on_refusal(_back_url(token))
    if not form.validate_on_submit():
        raise TableError("That undo could not be recorded: reload the page.")
    target = state_of(stored).by_id.get(form.target.data or -1)
    hand_number = target.hand if target else None
    go_back_on_refusal(_back_url(token, hand_number))
    appended = append_change(stored, Change(VOID, target=form.target.data), form)
    what, old, _ = describe(appended.entry, appended.state.by_id)
    message = f"{what}{f' ({old})' if old else ''}."
    return done(token, appended, message, _back_url(token, hand_number), undoable=False)


@bp.post("/confirm")
def confirm(token: str) -> Response:
    """With verification on, a player of another side confirms a complete hand from their phone."""
    stored = recording_game(token)
    form = ConfirmForm()
    go_back_on_refusal(_back_url(token))
    if not form.validate_on_submit():
        raise TableError("That confirmation could not be recorded: reload the page.")
    appended = append_change(
        stored, Change(CONFIRM, form.hand.data, form.player.data, {"source": change_source()}), form
    )
    return done(token, appended, f"Hand {form.hand.data} confirmed by {form.player.data}.", _back_url(token))


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
@printer.prints
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
