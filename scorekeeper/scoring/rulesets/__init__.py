"""The registry of rule sets: ``find_rule_set("crates")``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..errors import UnknownRuleSet
from .base import SINGLE_HAND, CardAction, OptionSpec, RuleSet
from .crates import Crates, CratesWorldSeries, Creights
from .eights import CrazyAces, CrazyEights, CrazyEightsTarget, CrazyJacks, CrazyPairs, HollywoodEights, Zodiac
from .house import HouseRules
from .two_fifty import TwoFifty

RULE_SETS: dict[str, type[RuleSet]] = {
    cls.id: cls
    for cls in (
        Crates,
        CratesWorldSeries,
        Creights,
        CrazyEights,
        CrazyEightsTarget,
        HollywoodEights,
        CrazyAces,
        CrazyJacks,
        CrazyPairs,
        Zodiac,
        TwoFifty,
        HouseRules,
    )
}


class _AtTheTable(Mapping[str, type[RuleSet]]):
    """The registry's rule sets played from the list of built-in games, read when asked, so that
    the forms offer whatever ``RULE_SETS`` holds then."""

    def __getitem__(self, key: str) -> type[RuleSet]:
        cls = RULE_SETS[key]
        if not cls.at_the_table:
            raise KeyError(key)
        return cls

    def __iter__(self) -> Iterator[str]:
        return iter([key for key, cls in RULE_SETS.items() if cls.at_the_table])

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: The built-in games the start, event and print forms offer (house games are added from their saved list).
AT_THE_TABLE: Mapping[str, type[RuleSet]] = _AtTheTable()
DEFAULT_RULE_SET = Crates.id


def find_rule_set(rule_set_id: str) -> type[RuleSet]:
    try:
        return RULE_SETS[rule_set_id]
    except (KeyError, TypeError):
        known = ", ".join(RULE_SETS)
        raise UnknownRuleSet(f"unknown rule set {rule_set_id!r} (known: {known})") from None


def configure_known(rule_set_id: str, options: Mapping[str, object]) -> RuleSet:
    """Configure with those of ``options`` the rule set has (e.g. ``jokers`` where there are jokers)."""
    known = {spec.name for spec in find_rule_set(rule_set_id).option_specs()}
    return configure(rule_set_id, {name: value for name, value in options.items() if name in known})


def configure(rule_set_id: str, options: Mapping[str, object] | None = None) -> RuleSet:
    """A rule set with its options checked and applied."""
    return find_rule_set(rule_set_id).from_options(options)


__all__ = [
    "DEFAULT_RULE_SET",
    "AT_THE_TABLE",
    "RULE_SETS",
    "SINGLE_HAND",
    "CardAction",
    "Crates",
    "CratesWorldSeries",
    "OptionSpec",
    "RuleSet",
    "configure",
    "configure_known",
    "find_rule_set",
]
