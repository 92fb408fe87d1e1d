"""A hand's leftovers at the table (the record link's pad): one player's, or the whole hand's
in one save, saved or corrected; a refusal names the player and, with another phone's entry
met, every seat; and the live score of cards being tapped in."""

from __future__ import annotations

from flask import jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...gamelog import LEFTOVERS, Change, ChangeRefusal, StaleEdit, Taken
from ...scoring import ScoringError, parse_cards
from ..access import recording_game
from ..errors import form_page, go_back_on_refusal
from ..play_forms import HandLeftoversForm, LeftoversForm
from ..responses import wants_json
from .play import bp, done, first_error, save_changes, state_of


@bp.route("/hand/<int:number>/seat/<int:seat>", methods=["GET", "POST"])
def leftovers(token: str, number: int, seat: int) -> Response | tuple[str, int, dict[str, str]]:
    """One player's leftovers: tap the cards, see the score live, save (or correct)."""
    stored = recording_game(token)
    state = state_of(stored)
    game = state.game
    if not 1 <= number <= state.last_hand or not 0 <= seat < len(game.players):
        if request.method == "POST" and wants_json():
            where = f"Hand {number} is not open" if not 1 <= number <= state.last_hand else f"There is no seat {seat}"
            raise ChangeRefusal(f"{where}: nothing was saved.", "hand")
        return redirect(url_for("play.hand", token=token))
    player = game.players[seat]
    existing = state.leftovers.get((number, player))
    form = LeftoversForm()
    conflict: StaleEdit | None = None
    refused: ChangeRefusal | None = None
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
            taken = save_changes(stored, [(change, "")], form, read=state)
        except ChangeRefusal as error:
            if wants_json():
                raise
            refused = error
            if isinstance(error, StaleEdit):
                conflict = error
                form.replaces.data = str(error.current.id) if error.current else ""
            else:
                form.cards.errors = [str(error)]
        else:
            return _after_leftovers(token, taken, number)
    elif form.is_submitted() and wants_json():
        raise ChangeRefusal(first_error(form), "cards")
    page = render_template(
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
    )
    return form_page(page, form, refused)


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
            raise ChangeRefusal("That save could not be recorded: reload the page and tap again.", "cards")
        if not 1 <= number <= state.last_hand:
            raise ChangeRefusal(f"Hand {number} is not open: nothing was saved.", "hand")
        try:
            form.read(request.form, len(game.players))
        except ValueError as error:
            seat = form.error_seat
            raise ChangeRefusal(str(error), "cards") from None
        changes = [
            (
                Change(
                    LEFTOVERS,
                    number,
                    game.players[entry.seat],
                    {"cards": [card.token for card in entry.cards]},
                    target=entry.replaces,
                ),
                f"-{entry.seat}",
            )
            for entry in form.entries
        ]
        taken = save_changes(stored, changes, form, read=state, whole_hand=True)
    except ChangeRefusal as error:
        if error.index is not None:
            seat = form.entries[error.index].seat
        player = game.players[seat] if seat is not None and 0 <= seat < len(game.players) else None
        go_back_on_refusal(url_for("play.leftovers", token=token, number=number, seat=seat or 0))
        raise RefusedAtSeat(error, seat, player, form) from None
    return _after_leftovers(token, taken, number)


class RefusedAtSeat(ChangeRefusal):
    """A whole-hand save refused: the reason names the player, and the phone is told which seat.
    A conflict names every seat that met another phone's entry (``conflicts``: the seat, its player,
    and the entry that stands now), so the phone shows them all and keeps every entry it sent."""

    def __init__(self, error: ChangeRefusal, seat: int | None, player: str | None, form: HandLeftoversForm) -> None:
        text = str(error)
        if player and not text.startswith(player) and not isinstance(error, StaleEdit):
            text = f"{player}: {text}"
        super().__init__(text, error.field)
        self.status = error.status
        self.seat, self.player, self.error = seat, player, error
        self.conflicts = _conflicts(error, form) if isinstance(error, StaleEdit) else None

    def details(self) -> dict[str, object]:
        if self.seat is None:
            return self.error.details()
        more = {} if self.conflicts is None else {"conflicts": self.conflicts}
        return {**self.error.details(), "seat": self.seat, "player": self.player, **more}


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


def _after_leftovers(token: str, taken: Taken, number: int) -> Response:
    """Next: the next player still to enter, or the next hand once this one is complete (the
    hand's detail after a correction)."""
    if taken.next_seat is not None:
        return done(taken, url_for("play.leftovers", token=token, number=number, seat=taken.next_seat))
    if taken.corrects:
        return done(taken, url_for("play.hand_detail", token=token, number=number))
    return done(taken, url_for("play.hand", token=token))


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
