"""The form of the printed pages that belong to no game: the game, the players, jokers and paper."""

from __future__ import annotations

from wtforms import SelectChoice, SelectField

from ..scoring import Game, InvalidSeating, RuleSet
from ..scoring.errors import sentence
from ..scoring.game import blank_table
from ..scoring.rulesets import DEFAULT_RULE_SET, configure_known
from .forms import PAPER_CHOICES, Form, YesNoField
from .rule_forms import HouseChoices, game_choices


def _lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


class PrintForm(HouseChoices, Form):
    """What to print (a GET form: it changes nothing, so it carries no CSRF token)."""

    rules = SelectField("Game", choices=game_choices, default=DEFAULT_RULE_SET)
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
