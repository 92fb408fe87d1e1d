"""The forms of the club's list: a member added or edited, two entries merged, a roster file imported."""

from __future__ import annotations

import base64
import binascii

from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, HiddenField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, Optional

from ..club.roster import MAX_ROSTER_BYTES, MAX_ROSTER_ROWS
from ..club.roster_plan import FILE_NAME_MAX_LENGTH
from .forms import Form, MemberRule, whole_number

#: The longest file a confirmation carries back, as base64 (4 characters for each 3 bytes).
ROSTER_CONTENT_MAX_LENGTH = 4 * ((MAX_ROSTER_BYTES + 2) // 3)
STALE_ROSTER = "This preview is out of date: upload the file again."


class MemberForm(Form):
    """A member's name, club, membership number and privacy, each checked by the club's one rule
    (storage checks them again: the rule holds whatever the form)."""

    name = StringField("Name", validators=[DataRequired(message="Type the name."), MemberRule("name")])
    club = StringField("Club (optional)", validators=[Optional(), MemberRule("club")])
    number = StringField(
        "Membership number (optional)",
        validators=[Optional(), MemberRule("number")],
        description="The number tells two members of one name apart, and keeps a member's results together "
        "when the spelling of their name changes.",
    )
    initials = BooleanField(
        "Show by initials on public pages",
        description="Public and published pages show A. S. instead of the name; the director's pages keep it.",
    )


class RosterUploadForm(Form):
    """A roster's CSV file, uploaded for its preview (nothing is stored until it is confirmed)."""

    roster = FileField(
        "Roster file (CSV)",
        validators=[FileRequired(message="Choose the roster's CSV file.")],
        description=f"Columns: name, club, membership number (club and number may be empty); a header row "
        f"is optional. Saved from a spreadsheet as CSV, in UTF-8 or Windows Latin-1; at most "
        f"{MAX_ROSTER_ROWS:,} players and {MAX_ROSTER_BYTES // 1000:,} kB.",
    )

    def content(self) -> bytes:
        """The file's bytes (one more than a roster may hold, so that a larger file is refused as such)."""
        return bytes(self.roster.data.read(MAX_ROSTER_BYTES + 1))


class RosterConfirmForm(Form):
    """The previewed file sent back to be imported: its bytes (read and matched again, never
    trusted from the preview), its name, and what the preview showed (the plan's digest)."""

    content = HiddenField(validators=[DataRequired(STALE_ROSTER), Length(max=ROSTER_CONTENT_MAX_LENGTH)])
    file_name = HiddenField(validators=[Optional(), Length(max=FILE_NAME_MAX_LENGTH)])
    digest = HiddenField(validators=[DataRequired(STALE_ROSTER), Length(max=64)])

    @staticmethod
    def carried(data: bytes) -> str:
        """A file's bytes as the confirmation carries them."""
        return base64.b64encode(data).decode("ascii")

    def file_bytes(self) -> bytes | None:
        """The file's bytes as the preview sent them; None when they do not read as base64."""
        try:
            return base64.b64decode(self.content.data or "", validate=True)
        except (binascii.Error, ValueError):
            return None


class MergeForm(Form):
    """Another entry of the list merged into the member whose page this is: chosen, then confirmed."""

    absorb = SelectField(
        "Merge this entry into this one",
        coerce=whole_number,
        validate_choice=False,  # an entry merged or removed meanwhile is refused by the list, in words
        validators=[InputRequired(message="Choose the entry to merge into this one.")],
        description="Its evenings become this member's; its name is no longer on the list. Undo it from the history.",
    )
    confirm = HiddenField()

    @property
    def confirmed(self) -> bool:
        return bool(self.confirm.data == "y")
