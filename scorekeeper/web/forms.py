"""What every form of the app shares: Flask-WTF's base, so each carries its CSRF token; the one
number field and the one text rule; the key and the wait a change to a game's log carries. Each
blueprint's forms live beside its views, in a module named for it (``play_forms.py``, ``event_forms.py``, …)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.csrf import _FlaskFormCSRF
from markupsafe import escape
from wtforms import BooleanField, Field, HiddenField, IntegerField, SelectChoice
from wtforms.utils import unset_value
from wtforms.validators import DataRequired, Length, StopValidation, ValidationError

from ..club.members import MEMBER_FIELDS, field_fault
from ..scoring.errors import sentence
from ..scoring.record import NUMBER_MAX_DIGITS
from ..scoring.text import text_fault

#: The paper a printout is made on: an event's sheets, a season's ladder, the blank sheets.
PAPER_CHOICES = [SelectChoice("a4", "A4"), SelectChoice("letter", "US Letter")]


NOT_A_WHOLE_NUMBER = "A whole number, such as 25 or -10."


def number_fault(typed: object) -> str | None:
    """Why ``typed`` is too long to be read as a number, or None (a sign and spaces around do not count)."""
    digits = str(typed).strip().lstrip("+-").lstrip("0")
    if len(digits) > NUMBER_MAX_DIGITS:
        return f"A number of at most {NUMBER_MAX_DIGITS} digits: this one has {len(digits):,}."
    return None


def whole_number(typed: object) -> int:
    """A choice's number as a ``SelectField(coerce=whole_number)`` reads it: bounded like ``WholeNumberField``."""
    fault = number_fault(typed)
    if fault is not None:
        raise ValueError(fault)
    return int(str(typed))


class WholeNumberField(IntegerField):
    """Every number a form takes: its length is checked before it is read, so that a number of
    hundreds of digits is refused beside its field (and kept as typed) instead of answering 500."""

    unread = False

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.unread = bool(valuelist) and number_fault(valuelist[0]) is not None
        if self.unread:
            raise ValueError(number_fault(valuelist[0]))  # the data stays the field's default: nothing is read
        try:
            super().process_formdata(valuelist)
        except ValueError:
            if not str(valuelist[0]).strip():
                raise  # an empty field: left to ``Optional`` or ``InputRequired``
            self.unread = True
            raise ValueError(NOT_A_WHOLE_NUMBER) from None

    def pre_validate(self, form: Any) -> None:
        """A number refused for its length, or not a whole number, is refused once: no range check
        runs on nothing (an empty field's own error is left to ``Optional``, which clears it)."""
        if self.unread:
            raise StopValidation()


class NoteRule:
    """A ruling note held to the rule a note is held to wherever it comes in (the game's log,
    ``gamelog``'s check): the same as ``TextRule``'s, its line breaks and tabs allowed."""

    def __call__(self, form: Form, field: Field) -> None:
        text = (field.data or "").strip()
        fault = text_fault(text, "a note", lines=True) if text else None
        if fault is not None:
            raise ValidationError(sentence(fault))


class TextRule:
    """A text field held to the one rule for every text that comes in (``scoring.text.text_fault``:
    no control or invisible character, something visible), refused beside the field in the words
    every other way in refuses with. ``words`` names the field in the sentence ("the title")."""

    def __init__(self, words: str) -> None:
        self.words = words

    def __call__(self, form: Form, field: Field) -> None:
        text = (field.data or "").strip()
        fault = text_fault(text, self.words) if text else None
        if fault is not None:
            raise ValidationError(sentence(fault))


def new_idem_key() -> str:
    return secrets.token_urlsafe(12)


class _LazyToken:
    """A form's CSRF token, signed the first time it is rendered: a save answered with JSON or
    a redirect draws no form, and signing a token it throws away was 4% of a save's CPU."""

    __slots__ = ("_make", "_text")

    def __init__(self, make: Callable[[], str]) -> None:
        self._make, self._text = make, ""

    def __str__(self) -> str:
        if not self._text:
            self._text = self._make()
        return self._text

    def __html__(self) -> str:
        return str(escape(str(self)))


class _LazyCSRF(_FlaskFormCSRF):
    def generate_csrf_token(self, csrf_token_field: Field) -> _LazyToken:
        return _LazyToken(lambda: str(super(_LazyCSRF, self).generate_csrf_token(csrf_token_field)))


class Form(FlaskForm):
    """Every form's base: Flask-WTF's, its CSRF token signed only when the form is drawn."""

    class Meta:
        csrf_class = _LazyCSRF


class SubmissionKeyField(HiddenField):
    """A new key when the form is drawn; the one it was drawn with when it comes back (a save
    does not draw a key it throws away: that costs a system call on every tap)."""

    def process(self, formdata: Any, data: Any = unset_value, extra_filters: Any = None) -> None:
        if data is unset_value and formdata is not None and self.name in formdata:
            data = ""
        super().process(formdata, data, extra_filters)


MAX_WAITED_MS = 24 * 3600 * 1000
"""A phone's outbox may hold a change for a day at most: an older claim is taken as a day."""


class ChangeForm(Form):
    """A form that appends to a game's log: it carries a key so a retry is recorded once, and
    how long the change waited in the phone's outbox, so it is stamped with the time it was made."""

    idem = SubmissionKeyField(default=new_idem_key)
    waited = HiddenField()

    @property
    def waited_ms(self) -> int:
        """How long the change waited in the phone's outbox before it was sent (0 without JavaScript)."""
        digits = str(self.waited.data or "")
        return min(int(digits), MAX_WAITED_MS) if digits.isascii() and digits.isdigit() and len(digits) <= 12 else 0


def row_id(text: object) -> int | None:
    """A database row's number from a hidden field: plain digits that fit SQLite, else None."""
    digits = str(text or "")
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 18 else None


class YesNoField(BooleanField):
    """A checkbox that is also typed into links: on or off said in any of the usual ways (any
    case), and anything else refused beside the field rather than read as on."""

    ON = frozenset({"true", "yes", "on", "1", "y"})
    OFF = frozenset({"false", "no", "off", "0", "n", ""})

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            self.data = False
            return
        said = str(valuelist[0]).strip().lower()
        self.data = said in self.ON
        if said not in self.ON | self.OFF:
            raise ValueError(f"On or off: say yes or no (or true or false, 1 or 0), not {valuelist[0]!r}.")


class MemberRule:
    """A member's name, club or number checked by the club's one rule (``club.members.field_fault``),
    so that a form refuses beside the field in the words every other way in refuses with; the
    field's longest goes to the browser as ``maxlength``."""

    def __init__(self, field: str) -> None:
        self.field = field
        self.field_flags = {"maxlength": MEMBER_FIELDS[field][1]}

    def __call__(self, form: Form, field: Field) -> None:
        fault = field_fault(self.field, field.data or "")
        if fault is not None:
            raise ValidationError(fault)


class EmptyForm(Form):
    """A bare POST button: it still carries the CSRF token."""


class KeyedForm(Form):
    """A POST button that must act once however often it is pressed: the page gives it a key."""

    idem = HiddenField(validators=[DataRequired(message="This page is out of date: reload it."), Length(max=100)])
