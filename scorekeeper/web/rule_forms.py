"""The choice of game and its options, which the start, event and print forms share: the built-in
games offered (with the table's saved house games), each option of each game a field."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from wtforms import BooleanField, Field, SelectChoice, SelectField, StringField
from wtforms.validators import Length, NumberRange, Optional

from ..scoring import InvalidOptions, RuleSet, configure
from ..scoring.rulesets import AT_THE_TABLE, DEFAULT_RULE_SET, OptionSpec
from ..tournament.seating import NAME_MAX_LENGTH
from .forms import Form, TextRule, WholeNumberField


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


def game_choices() -> list[SelectChoice]:
    """The built-in games, as the registry holds them when a form is made."""
    return [SelectChoice(rs.id, rs.name) for rs in AT_THE_TABLE.values()]


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

    rules = SelectField("Game", choices=game_choices, default=DEFAULT_RULE_SET)
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
