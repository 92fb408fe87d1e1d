"""Every form of the app: Flask-WTF, so each carries its CSRF token; validation lives here."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.csrf import _FlaskFormCSRF
from flask_wtf.file import FileField
from markupsafe import Markup, escape
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.utils import unset_value
from wtforms.validators import (
    AnyOf,
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)
from wtforms.widgets import Select, html_params

from ..club.members import CLUB_MAX_LENGTH, MEMBER_FIELDS, NUMBER_MAX_LENGTH, MemberRefusal, field_fault, read_listed
from ..gamelog import NOTE_MAX_LENGTH
from ..gamelog.memo import Memo
from ..scoring import Card, Game, InvalidCard, InvalidOptions, InvalidSeating, RuleSet, configure
from ..scoring.cards import STANDARD_RANKS, Rank
from ..scoring.errors import sentence
from ..scoring.game import blank_table, partners_opposite, with_joiner
from ..scoring.record import NUMBER_MAX_DIGITS
from ..scoring.rulesets import AT_THE_TABLE, DEFAULT_RULE_SET, OptionSpec, configure_known
from ..scoring.rulesets.house import FACE_VALUES, HANDS, LOSS_LINE, OWN, TARGET, WINNER, HouseRules
from ..scoring.text import text_fault
from ..storage.event_roster import REASON_MAX_LENGTH
from ..storage.exchange import EVENT_NAME_MAX_LENGTH, TITLE_MAX_LENGTH
from ..storage.round_clock import MAX_MINUTES as MAX_CLOCK_MINUTES
from ..tournament.plan import MAX_ROUNDS
from ..tournament.seating import MAX_EVENT_PLAYERS, NAME_MAX_LENGTH, name_key
from ..tournament.standings import (
    ADJUSTED,
    AVERAGE,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    BELOW,
    MISSED,
    PRORATED,
    WITH_THE_REST,
)

MAX_PLAYERS = 10
#: Player slots shown open on the start form; the rest are behind "More players".
OPEN_PLAYER_SLOTS = 5
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


def _all_option_specs() -> dict[str, OptionSpec]:
    """One field per option name; where games give it different defaults, the help lists them."""
    specs: dict[str, OptionSpec] = {}
    defaults: dict[str, dict[object, list[str]]] = {}
    for rules in AT_THE_TABLE.values():
        for spec in rules.option_specs():
            specs.setdefault(spec.name, spec)
            defaults.setdefault(spec.name, {}).setdefault(spec.default, []).append(rules.name)
    for name, by_default in defaults.items():
        if len(by_default) > 1:
            shown = "; ".join(
                f"{', '.join(games)}: {'by players' if default is None else default}"
                for default, games in by_default.items()
            )
            specs[name] = dataclasses.replace(specs[name], help=f"Blank: the game's own ({shown}).")
    return specs


def option_games(name: str) -> str:
    """The ids of the games that have this option, space-separated (the page shows only theirs)."""
    return " ".join(rules.id for rules in AT_THE_TABLE.values() if any(s.name == name for s in rules.option_specs()))


def _games() -> list[SelectChoice]:
    """The built-in games, as the registry holds them when a form is made."""
    return [SelectChoice(rs.id, rs.name) for rs in AT_THE_TABLE.values()]


def _event_games() -> list[SelectChoice]:
    return [SelectChoice(rs.id, rs.name) for rs in AT_THE_TABLE.values() if rs.in_events]


def _option_field(spec: OptionSpec) -> Field:
    if spec.kind == "bool":
        return BooleanField(spec.label, default=spec.default, description=spec.help)
    if spec.kind in ("int", "optional_int") and spec.choices:
        choices = [SelectChoice(str(choice), str(choice)) for choice in spec.choices]
        return SelectField(spec.label, choices=choices, default=str(spec.default), description=spec.help)
    if spec.kind in ("int", "optional_int"):
        return WholeNumberField(
            spec.label,
            validators=[Optional(), NumberRange(min=spec.minimum)],
            description=spec.help,
        )
    return StringField(
        spec.label,
        default=spec.default,
        validators=[Optional(), Length(max=NAME_MAX_LENGTH), TextRule(spec.label.lower())],
        description=spec.help,
    )


class HouseChoices:
    """A form whose choice of game also offers the table's saved house games."""

    rules: SelectField
    house: dict[str, RuleSet] = {}

    def offer_house_rules(self, saved: Sequence[tuple[str, str, RuleSet]]) -> None:
        """Add saved games (choice value, name, rules) to the choice of game."""
        self.house = {value: rules for value, _, rules in saved}
        extra = [SelectChoice(value, f"{name} (house rules)") for value, name, _ in saved]
        self.rules.choices = [*self.rules.choices, *extra]

    def choice_values(self) -> list[str]:
        return [choice.value for choice in self.rules.choices]


class RuleOptionsForm(HouseChoices, Form):
    """A form that chooses a rule set and its options (the option fields come from the rule sets)."""

    rules = SelectField("Game", choices=_games, default=DEFAULT_RULE_SET)
    OPTION_SPECS = _all_option_specs()

    def option_fields(self) -> list[tuple[Field, str]]:
        """Each option's field with the ids of the games that use it."""
        return [(getattr(self, f"option_{name}"), option_games(name)) for name in self.OPTION_SPECS]

    def configured_rules(self) -> RuleSet | None:
        """The chosen rule set with its options, or None with the error beside the option's field."""
        if self.rules.data in self.house:
            return self.house[self.rules.data]
        rules_cls = AT_THE_TABLE[self.rules.data]
        try:
            return configure(rules_cls.id, {spec.name: self._option_value(spec) for spec in rules_cls.option_specs()})
        except InvalidOptions as error:
            self._error_on_option(error)
            return None

    def _option_value(self, spec: OptionSpec) -> object:
        data = getattr(self, f"option_{spec.name}").data
        if spec.kind == "bool":
            return bool(data)
        if spec.kind in ("int", "optional_int"):
            return spec.default if data in (None, "") else int(data)
        return (data or "").strip() or spec.default

    def _error_on_option(self, error: InvalidOptions) -> None:
        """Beside the option it names; an error about no one option goes beside the game."""
        target = getattr(self, f"option_{error.field}") if error.field in self.OPTION_SPECS else self.rules
        target.errors = [str(error)]


for _name, _spec in RuleOptionsForm.OPTION_SPECS.items():
    setattr(RuleOptionsForm, f"option_{_name}", _option_field(_spec))


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


def _lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


class PrintForm(HouseChoices, Form):
    """What to print (a GET form: it changes nothing, so it carries no CSRF token)."""

    rules = SelectField("Game", choices=_games, default=DEFAULT_RULE_SET)
    players = SelectField(
        "Players (or sides)", choices=[SelectChoice(str(n), str(n)) for n in range(2, 6)], default="4"
    )
    jokers = YesNoField("Jokers (Standig adjunct)")
    paper = SelectField("Paper", choices=PAPER_CHOICES, default="a4", filters=[_lower])

    class Meta:
        csrf = False

    def configured_rules(self) -> RuleSet:
        if self.rules.data in self.house:
            return self.house[self.rules.data]
        return configure_known(self.rules.data, {"jokers": bool(self.jokers.data)})

    def blank_table(self) -> Game | None:
        """The blank sheet's table, or None with the rule set's refusal beside the number of players."""
        try:
            return blank_table(self.configured_rules(), int(self.players.data))
        except InvalidSeating as error:
            self.players.errors = [sentence(str(error))]
            return None


class DirectorPasswordForm(Form):
    password = PasswordField(
        "Director password",
        validators=[DataRequired(), Length(min=10, max=200, message="Use at least 10 characters.")],
    )
    confirm = PasswordField(
        "The same password again", validators=[DataRequired(), EqualTo("password", message="The two passwords differ.")]
    )


class LoginForm(Form):
    password = PasswordField("Director password", validators=[DataRequired(message="Type the director password.")])


#: The longest line the player search takes: a name, a club and a number, with their commas.
PICK_MAX_LENGTH = NAME_MAX_LENGTH + CLUB_MAX_LENGTH + NUMBER_MAX_LENGTH + 4


#: What takes up the players tables of four leave over (``tournament.seating.ODD_TABLES``).
ODD_TABLE_CHOICES = [
    SelectChoice("usual", "As the count falls: a five for one player over, threes for two or three"),
    SelectChoice("threes", "Tables of three"),
    SelectChoice("fives", "Tables of five (where the count allows)"),
]


class EventForm(RuleOptionsForm):
    """A new event: its rules, how standings are ranked, partnerships, and the players."""

    rules = SelectField(
        "Game",
        choices=_event_games,
        default=DEFAULT_RULE_SET,
        description="Standings follow the game: lowest totals for Crates, highest where the winner collects.",
    )
    name = StringField(
        "Event name", validators=[DataRequired(), Length(max=EVENT_NAME_MAX_LENGTH), TextRule("the event's name")]
    )
    held_on = StringField(
        "Date", validators=[DataRequired(), Length(max=20), TextRule("the date")], description="For example 2026-11-22."
    )
    scoring = SelectField(
        "Standings by",
        choices=[
            SelectChoice("total", "Total points (the game's best: lowest in Crates)"),
            SelectChoice("placement", "Placement points per table"),
        ],
        default="total",
    )
    partnerships = SelectField(
        "Partnerships",
        choices=[
            SelectChoice("none", "None: everyone plays alone"),
            SelectChoice("fixed", "Fixed partners (listed in pairs)"),
            SelectChoice("rotate", "Rotating partners"),
        ],
        default="none",
    )
    paper = SelectField(
        "Paper",
        choices=PAPER_CHOICES,
        default="a4",
        description="What the score sheets, standings, table cards and booklet print on.",
    )
    rounds = WholeNumberField(
        "Rounds",
        validators=[Optional(), NumberRange(min=1, max=MAX_ROUNDS, message=f"From 1 to {MAX_ROUNDS} rounds.")],
        description="Every round is planned at once, so that players meet again as little as possible. "
        "Empty: each round is planned when the one before is seated.",
    )
    odd_tables = SelectField(
        "Beside the tables of four",
        choices=ODD_TABLE_CHOICES,
        default="usual",
        description="Where the players do not fill tables of four, the rest sit at a table of five or at "
        "tables of three, shared out so nobody sits at one twice before everyone has once. The event's plan "
        "says how the other choice would do; you can change it on the event's page.",
    )
    sit_out = SelectField(
        "A round a player misses counts",
        choices=[
            SelectChoice("average", "As the average of their rounds (sat out, late or withdrawn)"),
            SelectChoice("zero", "As nothing (in Crates, where the lowest total wins, that favours them)"),
        ],
        default="average",
    )
    lock_at_end = BooleanField(
        "Lock each table when its game ends",
        description="As soon as a table's last hand is complete (and confirmed, where hands must be), the table is "
        "locked: only the director can change it afterwards.",
    )
    withdrawn_ranked = SelectField(
        "A withdrawn player is ranked",
        choices=[
            SelectChoice(WITH_THE_REST, "With the rest, their missed rounds counted as above"),
            SelectChoice(BELOW, "Below everyone still playing"),
        ],
        default=WITH_THE_REST,
        description="Most clubs rank everyone together: the rounds a player missed count by the rule above.",
    )
    verify = BooleanField(
        "Hands must be confirmed",
        description="A hand is final only when it is confirmed on another phone than the one that last changed it: a player of another side confirms it on their own.",
    )
    players = TextAreaField(
        "Players",
        validators=[DataRequired(message="List the players, one a line.")],
        description="One a line: name, then optionally a club and a membership number, separated by commas. "
        "Fixed partners: list partners one after the other.",
    )
    pick = StringField(
        "Find a player on the list",
        validators=[Optional(), Length(max=PICK_MAX_LENGTH)],
        description="Type part of a name or a number: the club's players are offered as you type. Add puts the "
        "line in the Players list below; a name the list does not know joins it as a new player.",
    )
    #: The picker's Add button: without script it sends the whole form, which comes back with the line added.
    add_player = SubmitField("Add")

    parsed_players: list[tuple[str, str, str]] = []
    #: Each parsed player's line in the list (blank lines are skipped), for refusals by line.
    parsed_lines: list[int] = []

    def add_picked(self) -> bool:
        """The line picked (or typed) in the search put at the end of the Players list, the search
        emptied: what the Add button does without script (pick.js does it in place). False, with
        the reason beside the search, for a line too long."""
        if not self.pick.validate(self):
            return False
        line = (self.pick.data or "").strip()
        if line:
            kept = (self.players.data or "").rstrip()
            self.players.data = f"{kept}\n{line}" if kept else line
        self.pick.data = ""
        return True

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        rows, seen = [], []
        for number, line in enumerate((self.players.data or "").splitlines(), start=1):
            if not line.strip():
                continue
            try:  # the club's one rule for a member's fields, and no part beyond the number
                listed = read_listed(number, line)
            except MemberRefusal as refusal:
                self.players.errors = [str(refusal)]
                return False
            rows.append((listed.name, listed.club, listed.number))
            seen.append(number)
        if len(rows) < 2:
            self.players.errors = ["An event needs at least two players."]
            return False
        if len(rows) > MAX_EVENT_PLAYERS:
            self.players.errors = [f"An event seats at most {MAX_EVENT_PLAYERS} players; this list has {len(rows)}."]
            return False
        self.parsed_players, self.parsed_lines = rows, seen
        return self.configured_rules() is not None


#: A round of the largest event written out: every name at its longest, ", " between, a line a table.
SEATING_MAX_LENGTH = MAX_EVENT_PLAYERS * (NAME_MAX_LENGTH + 2) + MAX_EVENT_PLAYERS


class SeatingForm(Form):
    """The tables of the next round, one a line, players in clockwise seating order."""

    tables = TextAreaField("Tables", validators=[DataRequired(), Length(max=SEATING_MAX_LENGTH)])
    #: The round this form seats: submitting it twice must not seat two rounds.
    number = WholeNumberField(
        validators=[InputRequired(message="This page is out of date: reload it."), NumberRange(min=1)]
    )
    #: Seat it although tables of the round before are still playing (asked first).
    anyway = BooleanField("Seat it anyway")
    #: Propose the round by the standings so far instead of the plan (changes nothing).
    by_standings = SubmitField("Propose by the standings")
    #: Set when the tables were proposed by the standings ("the standings after round 2").
    seated_by = HiddenField()
    reason = StringField(
        "Reason, if you seat otherwise than planned (optional)",
        validators=[Optional(), Length(max=REASON_MAX_LENGTH), TextRule("the reason")],
    )


class OddTablesForm(Form):
    """What takes up the players an event's tables of four leave over, from the next round seated on."""

    odd_tables = SelectField("Beside the tables of four", choices=ODD_TABLE_CHOICES, default="usual")


class HistoryReasonForm(Form):
    """A reason given afterwards to a line of an event's history."""

    reason = StringField(
        "Reason",
        validators=[DataRequired(message="Type the reason."), Length(max=REASON_MAX_LENGTH), TextRule("the reason")],
    )


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


class RosterChangeForm(Form):
    """What every change to an event's players names: the round it takes effect from, and why."""

    from_round = WholeNumberField(
        "From round", validators=[InputRequired(message="Which round?"), NumberRange(min=1, max=MAX_ROUNDS)]
    )
    reason = StringField(
        "Reason (optional)", validators=[Optional(), Length(max=REASON_MAX_LENGTH), TextRule("the reason")]
    )


class QuickSelect(Select):
    """WTForms' select, with the markup of a plain option (no attributes of its own) written
    directly, and the whole select kept by what it shows: a 300-player event's list of names was
    a quarter of its page's time, and it changes only when a player comes or goes."""

    def __init__(self) -> None:
        super().__init__()
        self._drawn: Memo[Markup] = Memo(64)

    def __call__(self, field: Any, **kwargs: Any) -> Markup:
        try:
            key = (field.name, field.id, repr(field.data), tuple(field.choices or ()), tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # a choice or an attribute that cannot be a key: drawn as it is
            return Markup(super().__call__(field, **kwargs))
        return self._drawn.get(key, lambda: self._draw(field, kwargs))

    def _draw(self, field: Any, kwargs: dict[str, Any]) -> Markup:
        """Plain choices (names, or pairs of value and label, as text) written directly, as WTForms
        would write them (its three passes over 300 names made a new list cost a millisecond);
        any other drawn by WTForms."""
        choices = field.choices
        pairs = [(choice, choice) if isinstance(choice, str) else choice for choice in choices or ()]
        plain = isinstance(choices, list | tuple) and all(
            isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], str)
            for pair in pairs
        )
        if self.multiple or field.coerce is not str or not plain:
            return Markup(super().__call__(field, **kwargs))
        kwargs.setdefault("id", field.id)
        flags = getattr(field, "flags", {})
        for name in dir(flags):
            if name in self.validation_attrs and name not in kwargs:
                kwargs[name] = getattr(flags, name)
        options = "".join(
            f'<option{" selected" if value == field.data else ""} value="{escape(value)}">{escape(label or value)}</option>'
            for value, label in pairs
        )
        return Markup(f"<select {html_params(name=field.name, **kwargs)}>{options}</select>")

    @classmethod
    def render_option(cls, choice: Any, **kwargs: Any) -> Markup:
        if kwargs or choice.render_kw or isinstance(choice.value, bool):
            return Markup(super().render_option(choice, **kwargs))
        selected = " selected" if choice.selected else ""
        return Markup(
            f'<option{selected} value="{escape(choice.value)}">{escape(choice.label or choice.value)}</option>'
        )


class WithdrawPlayerForm(RosterChangeForm):
    """A player who plays no more from a round on (rounds seated stay as played)."""

    name = SelectField("Player", choices=[], validate_choice=False, widget=QuickSelect())


class LatePlayerForm(RosterChangeForm):
    """A player who joins the event from a round on."""

    name = StringField("Name", validators=[DataRequired(message="Type the player's name."), MemberRule("name")])
    club = StringField("Club (optional)", validators=[Optional(), MemberRule("club")])
    number = StringField("Membership number (optional)", validators=[Optional(), MemberRule("number")])


class EmptyForm(Form):
    """A bare POST button: it still carries the CSRF token."""


class LockForm(Form):
    """Lock (or unlock) a table; ``anyway`` when the director was asked about a table still playing,
    with how it counts (``treatment``; prorated unless chosen otherwise), and for an adjusted score
    its level and reason."""

    anyway = BooleanField()
    treatment = RadioField(
        "How its result counts",
        choices=[
            SelectChoice(PRORATED, "Prorated to the whole game"),
            SelectChoice(MISSED, "Counted as a missed round"),
            SelectChoice(ADJUSTED, "An adjusted score"),
        ],
        default=PRORATED,
    )
    level = SelectField(
        "Adjusted score",
        choices=[
            SelectChoice(AVERAGE_PLUS, "Average-plus (a tenth better than the round's average)"),
            SelectChoice(AVERAGE, "Average (the round's average)"),
            SelectChoice(AVERAGE_MINUS, "Average-minus (a tenth worse)"),
        ],
        default=AVERAGE,
    )
    reason = StringField(
        "Reason (needed for an adjusted score)",
        validators=[Optional(), Length(max=REASON_MAX_LENGTH), TextRule("the reason")],
    )


class PenaltyForm(Form):
    """A director's penalty or adjustment: points on a player of a table (or every player of it), with its reason."""

    round = WholeNumberField(
        "Round", validators=[InputRequired(message="Which round?"), NumberRange(min=1, max=MAX_ROUNDS)]
    )
    table = WholeNumberField(
        "Table", validators=[InputRequired(message="Which table?"), NumberRange(min=1, max=MAX_EVENT_PLAYERS)]
    )
    player = StringField(
        "Player (empty: every player of the table)",
        validators=[Optional(), Length(max=NAME_MAX_LENGTH + NUMBER_MAX_LENGTH + 3), TextRule("the player's name")],
    )
    points = WholeNumberField(
        "Points added to the total",
        validators=[InputRequired(message="How many points?"), NumberRange(min=-1000, max=1000)],
        description="Added to the player's total in that round: where the lowest total wins (Crates) a penalty "
        "is above 0 and an adjustment in the player's favour below; where the highest wins, the other way round.",
    )
    reason = StringField(
        "Reason",
        validators=[
            DataRequired(message="Say why: a revoke, a slow table."),
            Length(max=REASON_MAX_LENGTH),
            TextRule("the reason"),
        ],
    )


class NoShowForm(Form):
    """A player seated who did not come: who takes their seat, or nobody (their table plays short)."""

    missing = SelectField(
        "Did not come",
        choices=[],
        validate_choice=False,
        validators=[DataRequired(message="Who did not come?")],
        widget=QuickSelect(),
    )
    replacement = SelectField("Plays in their seat", choices=[], validate_choice=False, widget=QuickSelect())
    reason = StringField(
        "Reason (optional)", validators=[Optional(), Length(max=REASON_MAX_LENGTH), TextRule("the reason")]
    )


class RoundClockForm(Form):
    """A round's clock: started with the round's length, extended by some minutes; ``mark`` is the
    clock as it stood when the button was drawn (a second press of it changes nothing)."""

    minutes = WholeNumberField(
        "Minutes",
        validators=[InputRequired(message="How many minutes?"), NumberRange(min=1, max=MAX_CLOCK_MINUTES)],
    )
    mark = HiddenField()


class KeyedForm(Form):
    """A POST button that must act once however often it is pressed: the page gives it a key."""

    idem = HiddenField(validators=[DataRequired(message="This page is out of date: reload it."), Length(max=100)])


def _value_field(rank: Rank) -> WholeNumberField:
    return WholeNumberField(
        rank.value,
        default=FACE_VALUES[rank],
        validators=[InputRequired(message="Points for every rank."), NumberRange(min=-1000, max=1000)],
    )


#: The house-rules definition keys that have a field of the same name on the form (``values``
#: has one per rank: an error about it goes beside the name, as one no field shows).
DEFINITION_FIELDS = (
    "name",
    "joker",
    "special",
    "decks",
    "scoring",
    "end",
    "deal",
    "limit",
    "pressures",
    "pressure_cap",
)


class HouseRulesForm(Form):
    """Define a house game: card values, who scores, the end, pressures. Checked by the engine."""

    name = StringField(
        "Name of the game",
        validators=[DataRequired(message="Give the game a name."), Length(max=40), TextRule("the game's name")],
    )
    joker = WholeNumberField(
        "Joker",
        validators=[Optional(), NumberRange(min=-1000, max=1000)],
        description="Points for a joker left in hand; blank: no jokers (two a deck when used).",
    )
    special = StringField(
        "Special cards",
        validators=[Length(max=200)],
        description="Suited cards worth something else, e.g. QS=50, JH=25. Their rank then needs suits.",
    )
    decks = SelectField("Decks", choices=[SelectChoice("1", "One deck"), SelectChoice("2", "Two decks")], default="1")
    scoring = SelectField(
        "Who scores",
        choices=[SelectChoice(OWN, "Each their own cards"), SelectChoice(WINNER, "The winner collects")],
        default=OWN,
        description="Own cards: lowest total wins. The player who goes out collects the others' cards: highest wins.",
    )
    end = SelectField(
        "The game ends",
        choices=[
            SelectChoice(HANDS, "After fixed hands"),
            SelectChoice(TARGET, "At a target"),
            SelectChoice(LOSS_LINE, "At a loss line"),
        ],
        default=HANDS,
    )
    deal = StringField(
        "Cards dealt",
        default="7",
        validators=[DataRequired(message="How many cards are dealt?"), Length(max=200)],
        description="Fixed hands: the cards in each hand, e.g. 8 7 6 5 4 3 2 1. Otherwise one number.",
    )
    limit = WholeNumberField(
        "Target or loss line",
        validators=[Optional()],
        description="A target ends the game when someone reaches it; at a loss line, all but one past it.",
    )
    pressures = BooleanField("Pressures", description="Crates' pressures: 5, then doubling, per side.")
    pressure_cap = WholeNumberField(
        "Pressure increase cap",
        validators=[Optional(), NumberRange(min=1)],
        description="Blank: each pressure doubles. 20: 5, 10, 20, 40, 60, …",
    )
    replaces = HiddenField()

    rules: HouseRules | None = None

    def value_fields(self) -> list[Field]:
        return [getattr(self, f"value_{rank.name}") for rank in STANDARD_RANKS]

    def fill(self, rules: HouseRules) -> None:
        """Show a saved definition for editing."""
        self.name.data = rules.title
        for rank, points in rules.values:
            getattr(self, f"value_{rank.name}").data = points
        self.joker.data = rules.joker
        self.special.data = ", ".join(f"{card.token.upper()}={points}" for card, points in rules.special)
        self.decks.data = str(rules.decks)
        self.scoring.data, self.end.data = rules.scoring, rules.end
        self.deal.data = " ".join(map(str, rules.deal))
        self.limit.data, self.pressures.data, self.pressure_cap.data = rules.limit, rules.pressures, rules.pressure_cap

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        definition: dict[str, object] = {
            "name": (self.name.data or "").strip(),
            "values": {rank.value: getattr(self, f"value_{rank.name}").data for rank in STANDARD_RANKS},
            "joker": self.joker.data,
            "decks": int(self.decks.data or 1),
            "scoring": self.scoring.data,
            "end": self.end.data,
            "limit": self.limit.data,
            "pressures": bool(self.pressures.data),
            "pressure_cap": self.pressure_cap.data,
        }
        try:
            definition["special"] = _parse_pairs(self.special.data or "")
        except ValueError as error:
            self.special.errors = [str(error)]
            return False
        try:
            definition["deal"] = [int(n) for n in (self.deal.data or "").replace(",", " ").split()]
        except ValueError:
            self.deal.errors = ["Whole numbers of cards, separated by spaces: 8 7 6 …"]
            return False
        try:
            rules = configure(HouseRules.id, definition)
        except InvalidOptions as error:
            target = getattr(self, error.field) if error.field in DEFINITION_FIELDS else self.name
            target.errors = [sentence(str(error))]
            return False
        assert isinstance(rules, HouseRules)
        self.rules = rules
        return True


def _parse_pairs(text: str) -> dict[str, int]:
    pairs: dict[str, int] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        card, sep, points = item.partition("=")
        name, digits = card.strip().upper(), points.strip().removeprefix("-")
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"Write each special card as card=points, e.g. QS=50 (not {item.strip()!r})")
        if name in pairs:
            raise ValueError(f"{name} is listed twice: give each special card once")
        pairs[name] = int(points)
    return pairs


for _rank in STANDARD_RANKS:
    setattr(HouseRulesForm, f"value_{_rank.name}", _value_field(_rank))
