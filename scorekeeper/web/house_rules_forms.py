"""The form of a house game's definition: card values, who scores, the end, pressures; checked by
the engine when it is sent."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, Field, HiddenField, SelectChoice, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from ..scoring import InvalidOptions, configure
from ..scoring.cards import STANDARD_RANKS, Rank
from ..scoring.errors import sentence
from ..scoring.rulesets.house import FACE_VALUES, HANDS, LOSS_LINE, OWN, TARGET, WINNER, HouseRules
from .forms import Form, TextRule, WholeNumberField


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
