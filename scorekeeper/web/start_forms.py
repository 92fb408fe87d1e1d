"""The forms of the front door: a game started, joined by its code, or imported from its record."""

from __future__ import annotations

from typing import Any

from flask_wtf.file import FileField
from wtforms import BooleanField, FieldList, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from ..scoring import Game, InvalidSeating
from ..scoring.errors import sentence
from ..scoring.game import partners_opposite, with_joiner
from ..storage.exchange import TITLE_MAX_LENGTH
from ..tournament.seating import NAME_MAX_LENGTH, name_key
from .forms import Form, TextRule
from .rule_forms import RuleOptionsForm

MAX_PLAYERS = 10
#: Player slots shown open on the start form; the rest are behind "More players".
OPEN_PLAYER_SLOTS = 5


class NewGameForm(RuleOptionsForm):
    """Start a game: rule set and options, players in seating order, partnerships, first dealer."""

    title = StringField(
        "Table or game name", validators=[Optional(), Length(max=TITLE_MAX_LENGTH), TextRule("the title")]
    )
    players = FieldList(
        StringField(validators=[Optional(), Length(max=NAME_MAX_LENGTH), TextRule("a name")]),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    partnerships = BooleanField(
        "Play in partnerships",
        description="Four players: 1st & 3rd against 2nd & 4th (partners opposite).",
    )
    first_dealer = SelectField(
        "First dealer",
        choices=[SelectChoice(str(i), f"Player {i + 1}") for i in range(MAX_PLAYERS)],
        default="0",
    )

    game: Game | None = None

    def validate(self, extra_validators: Any = None) -> bool:
        """Field checks, then the rule set's own: seating, options, dealer."""
        if not super().validate(extra_validators):
            return False
        names = [(name or "").strip() for name in self.players.data]
        seated = [name for name in names if name]
        if len(seated) < 2:
            self.players.errors = ["Enter the names of at least two players."]
            return False
        if not self._names_differ(names):
            return False
        rules = self.configured_rules()
        if rules is None:
            return False
        seated = list(with_joiner(rules, seated))
        dealer_index = int(self.first_dealer.data or 0)
        if dealer_index >= len(names) or not names[dealer_index]:
            self.first_dealer.errors = ["Choose a seat that has a player."]
            return False
        teams: tuple[tuple[str, ...], ...] = ()
        if self.partnerships.data:
            if len(seated) != 4:
                self.partnerships.errors = ["Partnerships need exactly four players."]
                return False
            teams = partners_opposite(seated)
        try:
            self.game = Game(rules, tuple(seated), teams, names[dealer_index])
        except InvalidSeating as error:
            target = {"first_dealer": self.first_dealer, "partnerships": self.partnerships}.get(
                error.field or "", self.players
            )
            target.errors = [sentence(str(error))]
            return False
        return True

    def _names_differ(self, names: list[str]) -> bool:
        """A name typed twice is marked beside the later field only, not on every name (a name
        the text rule refuses was refused beside its own field already)."""
        seen: set[str] = set()
        for entry, name in zip(self.players.entries, names, strict=True):
            if name and name_key(name) in seen:
                entry.errors = [f"Another player is already called {name}: give each a different name."]
            seen.add(name_key(name))
        return not any(entry.errors for entry in self.players.entries)

    def dealer_choices_from_names(self) -> None:
        """Once names are typed (a form sent back with an error), the dealer is chosen by name."""
        names = [(name or "").strip() for name in self.players.data]
        self.first_dealer.choices = [SelectChoice(str(i), names[i] or f"Player {i + 1}") for i in range(MAX_PLAYERS)]


class JoinForm(Form):
    code = StringField("Game code", validators=[DataRequired(message="Type the code shown on the table's phone.")])


#: The longest game record taken, pasted or as a file (the largest the limits allow is far shorter).
IMPORT_MAX_LENGTH = 200_000


class ImportForm(Form):
    file = FileField("Game record file (.json)")
    text = TextAreaField("…or paste the record", validators=[Optional(), Length(max=IMPORT_MAX_LENGTH)])

    def record_text(self) -> str | None:
        """The record as text, from the file or else the box; None, with the reason beside the
        file, when the file is longer than a pasted record may be or is not UTF-8 text (never
        read with its unreadable bytes replaced: a record is refused, not silently changed)."""
        upload = self.file.data
        if not upload:
            return str(self.text.data or "")
        data: bytes = upload.read(4 * IMPORT_MAX_LENGTH + 1)
        try:
            text = data.decode("utf-8") if len(data) <= 4 * IMPORT_MAX_LENGTH else None
        except UnicodeDecodeError as error:
            self.file.errors = [
                f"This file is not UTF-8 text (byte {error.start + 1:,} is not): a game record is UTF-8 JSON."
            ]
            return None
        if text is None or len(text) > IMPORT_MAX_LENGTH:
            self.file.errors = [
                f"This file is longer than {IMPORT_MAX_LENGTH:,} characters: no game record is that long."
            ]
            return None
        return text
