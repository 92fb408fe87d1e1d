"""The forms of a game's record link, each a change appended to the game's log (``ChangeForm``):
a hand's leftovers (one player's, or several at once), a pressure, a ruling note, a one-card
call, a confirmation, an undo."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from wtforms import BooleanField, HiddenField, StringField, TextAreaField
from wtforms.validators import AnyOf, DataRequired, InputRequired, Length

from ..gamelog import NOTE_MAX_LENGTH
from ..scoring import Card, InvalidCard
from ..scoring.errors import sentence
from .forms import ChangeForm, NoteRule, WholeNumberField, row_id


class LeftoversForm(ChangeForm):
    """One player's cards left at the end of a hand; ``replaces`` is the entry being corrected."""

    cards = StringField("Cards left", validators=[Length(max=200)])
    went_out = BooleanField("Went out (no cards left)")
    replaces = HiddenField()

    parsed: tuple[Card, ...] = ()

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        try:
            self.parsed = parse_leftovers(self.cards.data, bool(self.went_out.data))
        except ValueError as error:
            self.cards.errors = [str(error)]
            return False
        return True

    @property
    def replaces_id(self) -> int | None:
        return row_id(self.replaces.data)


def parse_leftovers(text: str | None, went_out: bool) -> tuple[Card, ...]:
    """The cards typed or tapped for one player; ValueError (a sentence) when they cannot stand."""
    tokens = (text or "").replace(",", " ").split()
    if went_out and tokens:
        raise ValueError("Either tap the cards left or OUT, not both.")
    if not went_out and not tokens:
        raise ValueError("Tap the cards left in the hand, or OUT if the player went out.")
    try:
        return tuple(Card.parse(token) for token in tokens)
    except InvalidCard as error:
        raise ValueError(sentence(str(error))) from None


@dataclasses.dataclass(frozen=True)
class SeatEntry:
    """One player's part of a whole hand's save."""

    seat: int
    cards: tuple[Card, ...]
    replaces: int | None


class HandLeftoversForm(ChangeForm):
    """Several players' leftovers saved at once from one phone: ``seats`` lists them, and each
    seat ``n`` brings ``cards-n`` (or ``out-n``) and ``replaces-n``; the entries get the keys
    ``idem-n``, so a retried save is recorded once per player."""

    seats = StringField(validators=[Length(max=60)])

    entries: tuple[SeatEntry, ...] = ()
    error_seat: int | None = None

    def read(self, fields: Mapping[str, str], players: int) -> None:
        """Fill ``entries`` from the posted ``fields``; ValueError names the seat (``error_seat``) that cannot stand."""
        seats = [row_id(text) for text in (self.seats.data or "").split(",") if text.strip()]
        if not seats or any(seat is None or seat >= players for seat in seats) or len(set(seats)) != len(seats):
            raise ValueError("Nothing to save: tap the cards left for a player first.")
        entries = []
        for seat in seats:
            assert seat is not None
            self.error_seat = seat
            cards = parse_leftovers(fields.get(f"cards-{seat}"), bool(fields.get(f"out-{seat}")))
            entries.append(SeatEntry(seat, cards, row_id(fields.get(f"replaces-{seat}"))))
        self.error_seat = None
        self.entries = tuple(entries)


class PressureForm(ChangeForm):
    player = HiddenField(validators=[InputRequired()])
    hand = WholeNumberField(validators=[InputRequired()])
    ends_hand = BooleanField("Both piles empty: the hand ends now")
    again = HiddenField()

    @property
    def confirmed(self) -> bool:
        """The player was asked whether this is a second pressure, and said yes."""
        return str(self.again.data) == "1"


class NoteForm(ChangeForm):
    hand = WholeNumberField(validators=[InputRequired()])
    text = TextAreaField(
        "Ruling note",
        validators=[DataRequired(message="Write the ruling first."), Length(max=NOTE_MAX_LENGTH), NoteRule()],
    )


class OneCardForm(ChangeForm):
    hand = WholeNumberField(validators=[InputRequired()])
    player = HiddenField(validators=[InputRequired()])
    owes = HiddenField(validators=[AnyOf(["0", "1"], message="Reload the page and tap again.")])


class ConfirmForm(ChangeForm):
    hand = WholeNumberField(validators=[InputRequired()])
    player = HiddenField(validators=[InputRequired()])


class UndoForm(ChangeForm):
    target = WholeNumberField(validators=[InputRequired()])
