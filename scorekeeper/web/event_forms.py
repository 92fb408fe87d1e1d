"""The forms of the director's events: a new event, a round seated, the odd tables, a reason given
to a line of the history, a player withdrawn, late or absent, a table locked, a penalty, the
round clock."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape
from wtforms import (
    BooleanField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional
from wtforms.widgets import Select, html_params

from ..club.members import CLUB_MAX_LENGTH, NUMBER_MAX_LENGTH, MemberRefusal, read_listed
from ..gamelog.memo import Memo
from ..scoring.rulesets import AT_THE_TABLE, DEFAULT_RULE_SET
from ..storage.event_roster import REASON_MAX_LENGTH
from ..storage.exchange import EVENT_NAME_MAX_LENGTH
from ..storage.round_clock import MAX_MINUTES as MAX_CLOCK_MINUTES
from ..tournament.plan import MAX_ROUNDS
from ..tournament.seating import MAX_EVENT_PLAYERS, NAME_MAX_LENGTH
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
from .forms import PAPER_CHOICES, Form, MemberRule, TextRule, WholeNumberField
from .rule_forms import RuleOptionsForm


def _event_games() -> list[SelectChoice]:
    return [SelectChoice(rs.id, rs.name) for rs in AT_THE_TABLE.values() if rs.in_events]


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
