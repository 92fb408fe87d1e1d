"""A hand's leftovers at the table (the record link's pad): one player's, or the whole hand's
in one save, saved or corrected; a refusal names the player and, with another phone's entry
met, every seat; and the live score of cards being tapped in."""

from __future__ import annotations

from flask import flash, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...gamelog import LEFTOVERS, Change, StaleEdit, TableError
from ...scoring import ScoringError, parse_cards
from ...storage.evening import settle_game
from ...storage.games import DIRECTOR, Appended, append_all
from ..access import recording_game
from ..connection import get_db
from ..devices import client_address
from ..errors import refusal_json
from ..play_forms import HandLeftoversForm, LeftoversForm
from ..responses import wants_json
from .play import append_change, bp, change_source, done, first_error, made_at, state_of


@bp.route("/hand/<int:number>/seat/<int:seat>", methods=["GET", "POST"])
def leftovers(token: str, number: int, seat: int) -> str | Response | tuple[str, int]:
    """One player's leftovers: tap the cards, see the score live, save (or correct)."""
    stored = recording_game(token)
    state = state_of(stored)
    game = state.game
    if not 1 <= number <= state.last_hand or not 0 <= seat < len(game.players):
        if request.method == "POST" and wants_json():
            where = f"Hand {number} is not open" if not 1 <= number <= state.last_hand else f"There is no seat {seat}"
            raise TableError(f"{where}: nothing was saved.", "hand")
        return redirect(url_for("play.hand", token=token))
    player = game.players[seat]
    existing = state.leftovers.get((number, player))
    form = LeftoversForm()
    conflict = None
    status = 200
    if request.method == "GET" and existing is not None:
        form.cards.data = " ".join(card.token for card in existing.cards)
        form.went_out.data = not existing.cards
        form.replaces.data = str(existing.id)
    if request.method == "GET" and "cards" in request.args:
        form.cards.data = request.args["cards"][:200]
        form.went_out.data = not form.cards.data
    if form.validate_on_submit():
        change = Change(
            LEFTOVERS,
            number,
            player,
            {"cards": [c.token for c in form.parsed]},
            target=form.replaces_id,
        )
        try:
            appended = append_change(stored, change, form, read=state)
        except StaleEdit as error:
            if wants_json():
                raise
            conflict, status = error, error.status
            form.replaces.data = str(error.current.id) if error.current else ""
        except TableError as error:
            if wants_json():
                raise
            form.cards.errors = [str(error)]
            status = error.status
        else:
            return _after_leftovers(token, appended, number, player)
    elif form.is_submitted():
        if wants_json():
            raise TableError(first_error(form), "cards")
        status = 422
    return render_template(
        "play/leftovers.html",
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


@bp.post("/hand/<int:number>/leftovers")
def hand_leftovers(token: str, number: int) -> Response:
    """A whole hand's leftovers from one phone in one save: each player's its own entry with its
    own key, appended together in one transaction, so a refusal (naming the player) saves none."""
    stored = recording_game(token)
    state = state_of(stored)
    game = state.game
    form = HandLeftoversForm()
    seat: int | None = None
    try:
        if not form.validate_on_submit():
            raise TableError("That save could not be recorded: reload the page and tap again.", "cards")
        if not 1 <= number <= state.last_hand:
            raise TableError(f"Hand {number} is not open: nothing was saved.", "hand")
        try:
            form.read(request.form, len(game.players))
        except ValueError as error:
            seat = form.error_seat
            raise TableError(str(error), "cards") from None
        changes = []
        at = made_at(form).isoformat()
        for entry in form.entries:
            change = Change(
                LEFTOVERS,
                number,
                game.players[entry.seat],
                {"cards": [card.token for card in entry.cards]},
                target=entry.replaces,
                address=client_address(),
                at=at,
            )
            changes.append((change, f"{form.idem.data}-{entry.seat}"))
        source = change_source()
        appended = append_all(get_db(), stored, changes, source, source == DIRECTOR, read=state)
        settle_game(get_db(), stored)
    except TableError as error:
        if error.index is not None:
            seat = form.entries[error.index].seat
        return _refused_seat(token, number, seat, error, form)
    return _after_hand_leftovers(token, number, appended)


def _refused_seat(token: str, number: int, seat: int | None, error: TableError, form: HandLeftoversForm) -> Response:
    """A whole-hand save refused: the reason names the player, and the phone is told which seat.
    A conflict names every seat that met another phone's entry (``conflicts``: the seat, its player,
    and the entry that stands now), so the phone shows them all and keeps every entry it sent."""
    players = recording_game(token).game.players
    player = players[seat] if seat is not None and 0 <= seat < len(players) else None
    text = str(error)
    if player and not text.startswith(player) and not isinstance(error, StaleEdit):
        error = TableError(f"{player}: {text}", error.field)
    if not wants_json():
        flash(str(error), "error")
        return redirect(url_for("play.leftovers", token=token, number=number, seat=seat or 0))
    response = refusal_json(error)
    if seat is not None:
        body = response.get_json()
        body.update({"seat": seat, "player": player})
        if isinstance(error, StaleEdit):
            body["conflicts"] = _conflicts(error, form)
        response.set_data(jsonify(body).get_data())
    return response


def _conflicts(error: StaleEdit, form: HandLeftoversForm) -> list[dict[str, object]]:
    """Each seat of a whole-hand save that met an entry made meanwhile, with what stands now
    (``entry`` and ``cards`` None: undone meanwhile)."""
    return [
        {
            "seat": form.entries[each.index].seat if each.index is not None else None,
            "player": each.player,
            "entry": each.current.id if each.current else None,
            "cards": list(each.current.data.get("cards", [])) if each.current else None,
        }
        for each in error.conflicts
    ]


def _after_hand_leftovers(token: str, number: int, appended: list[Appended]) -> Response:
    last = appended[-1]
    state = last.state
    saved = ", ".join(
        f"{entry.player} {state.game.rules.score_leftovers(entry.cards).total}" for entry in (a.entry for a in appended)
    )
    message = f"Leftovers {'corrected' if len(appended) == 1 and last.entry.target else 'saved'}: {saved}."
    seat = state.next_seat_to_enter(number)
    if seat is not None:
        return done(token, last, message, url_for("play.leftovers", token=token, number=number, seat=seat))
    scored = state.hand_score(number)
    if scored is not None:
        message += (
            f" Hand {number} is complete: " + ", ".join(f"{n} {side.total}" for n, side in scored.sides.items()) + "."
        )
    if any(a.entry.target is not None for a in appended):
        return done(token, last, message, url_for("play.hand_detail", token=token, number=number))
    return done(token, last, message, url_for("play.hand", token=token))


def _after_leftovers(token: str, appended: Appended, number: int, player: str) -> Response:
    """Next: the next player still to enter, or the next hand once this one is complete."""
    state = appended.state
    points = state.game.rules.score_leftovers(appended.entry.cards).total
    message = f"{player}'s leftovers {'corrected' if appended.entry.target else 'saved'} ({points})."
    seat = state.next_seat_to_enter(number)
    if seat is not None:
        return done(token, appended, message, url_for("play.leftovers", token=token, number=number, seat=seat))
    scored = state.hand_score(number)
    if scored is not None:
        sides = scored.sides.items()
        message += f" Hand {number} is complete: " + ", ".join(f"{name} {side.total}" for name, side in sides) + "."
    if appended.entry.target is not None:
        return done(token, appended, message, url_for("play.hand_detail", token=token, number=number))
    return done(token, appended, message, url_for("play.hand", token=token))


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
