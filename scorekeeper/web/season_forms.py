"""The forms of the club's seasons: a season made or changed, an event added to one or taken out."""

from __future__ import annotations

from typing import Any

from wtforms import SelectChoice, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, ValidationError

from ..club.ladder import BEST, LADDER_RULES
from ..storage.seasons import MAX_BEST, RULE_NAMES, SEASON_NAME_MAX_LENGTH
from .forms import PAPER_CHOICES, Form, SubmissionKeyField, TextRule, new_idem_key, whole_number

#: How long a number of evenings may be typed (the largest allowed has three digits).
BEST_MAX_LENGTH = 6


class SeasonForm(Form):
    """A season's name, the rule of its ladder (with how many evenings count for the best N) and
    the paper its ladder prints on."""

    name = StringField(
        "Name",
        validators=[
            DataRequired(message="Type the season's name."),
            Length(max=SEASON_NAME_MAX_LENGTH),
            TextRule("the season's name"),
        ],
        description="For example Winter 2026.",
    )
    rule = SelectField(
        "Ladder by",
        choices=[SelectChoice(rule, RULE_NAMES[rule]) for rule in LADDER_RULES],
        default="points",
        description="Placement points: 1 for every player placed below you that evening, ½ for every player "
        "tied with you. The rating: each player's cautious rating after the season's last table.",
    )
    best = StringField(
        "Evenings that count (for the best N)",
        validators=[Length(max=BEST_MAX_LENGTH)],
        description="Each player's best N evenings count; the others are shown in brackets.",
    )
    paper = SelectField("Paper", choices=PAPER_CHOICES, default="a4", description="What the ladder prints on.")

    def validate_best(self, field: Any) -> None:
        """A number of evenings is needed for a ladder of the best N (and only then read)."""
        if self.rule.data != BEST:
            return
        text = (field.data or "").strip()
        if not text.isdigit() or not 1 <= int(text) <= MAX_BEST:
            raise ValidationError(f"How many evenings count: a whole number from 1 to {MAX_BEST}.")

    @property
    def best_number(self) -> int | None:
        text = (self.best.data or "").strip()
        return int(text) if self.rule.data == BEST and text.isdigit() else None


class NewSeasonForm(SeasonForm):
    """A new season: its key makes it once, however often the form is sent (a double click)."""

    idem = SubmissionKeyField(
        default=new_idem_key, validators=[DataRequired(message="This page is out of date: reload it.")]
    )


class SeasonEventForm(Form):
    """An event added to a season (chosen from those not in it) or taken out of it."""

    event = SelectField(
        "Add an event",
        coerce=whole_number,
        choices=[],
        validate_choice=False,
        validators=[InputRequired(message="Choose an event.")],
    )
