"""The forms of the club's list: a member added or edited, two entries merged."""

from __future__ import annotations

from wtforms import BooleanField, HiddenField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, Optional

from ..storage.members import CLUB_MAX_LENGTH, NUMBER_MAX_LENGTH
from ..tournament.seating import NAME_MAX_LENGTH
from .forms import Form


class MemberForm(Form):
    """A member's name, club, membership number and privacy."""

    name = StringField("Name", validators=[DataRequired(message="Type the name."), Length(max=NAME_MAX_LENGTH)])
    club = StringField("Club (optional)", validators=[Optional(), Length(max=CLUB_MAX_LENGTH)])
    number = StringField(
        "Membership number (optional)",
        validators=[Optional(), Length(max=NUMBER_MAX_LENGTH)],
        description="The number tells two members of one name apart, and keeps a member's results together "
        "when the spelling of their name changes.",
    )
    initials = BooleanField(
        "Show by initials on public pages",
        description="Public and published pages show A. S. instead of the name; the director's pages keep it.",
    )


class MergeForm(Form):
    """Another entry of the list merged into the member whose page this is: chosen, then confirmed."""

    absorb = SelectField(
        "Merge this entry into this one",
        coerce=int,
        validate_choice=False,  # an entry merged or removed meanwhile is refused by the list, in words
        validators=[InputRequired(message="Choose the entry to merge into this one.")],
        description="Its evenings become this member's; its name is no longer on the list. Undo it from the history.",
    )
    confirm = HiddenField()

    @property
    def confirmed(self) -> bool:
        return bool(self.confirm.data == "y")
