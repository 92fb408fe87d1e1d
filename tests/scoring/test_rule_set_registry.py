"""The registry of rule sets: found by id, configured from a record's options, offered at the table."""

import pytest

from scorekeeper.scoring import InvalidOptions, UnknownRuleSet, configure
from scorekeeper.scoring.rulesets import (
    AT_THE_TABLE,
    DEFAULT_RULE_SET,
    RULE_SETS,
    configure_known,
    find_rule_set,
)

BUILT_IN = [
    "crates",
    "crates-world-series",
    "creights",
    "crazy-eights",
    "crazy-eights-target",
    "hollywood-eights",
    "crazy-aces",
    "crazy-jacks",
    "crazy-pairs",
    "zodiac",
    "two-fifty",
]


def test_every_rule_set_is_found_by_its_own_id():
    assert list(RULE_SETS) == [*BUILT_IN, "house"]
    for rule_set_id in RULE_SETS:
        assert find_rule_set(rule_set_id).id == rule_set_id


@pytest.mark.parametrize("rule_set_id", ["bridge", "", None, ["crates"]])
def test_an_unknown_rule_set_is_refused_with_the_known_ones(rule_set_id):
    with pytest.raises(UnknownRuleSet) as refused:
        find_rule_set(rule_set_id)
    assert (
        str(refused.value) == f"unknown rule set {rule_set_id!r} (known: {', '.join([*BUILT_IN, 'house'])})."
    )  # a refusal is a sentence


def test_the_games_offered_at_the_table_are_the_built_in_ones_not_house_rules():
    # A house game is played from its saved definition, not from the list of built-in games.
    assert list(AT_THE_TABLE) == BUILT_IN
    assert len(AT_THE_TABLE) == len(BUILT_IN)
    assert AT_THE_TABLE["zodiac"] is RULE_SETS["zodiac"]
    assert "house" not in AT_THE_TABLE
    with pytest.raises(KeyError):
        AT_THE_TABLE["house"]
    assert [cls.id for cls in AT_THE_TABLE.values()] == BUILT_IN


def test_a_new_game_starts_as_crates_unless_another_is_chosen():
    assert DEFAULT_RULE_SET == "crates"


def test_configure_applies_the_options_and_refuses_one_the_rule_set_does_not_have():
    assert configure("crates").options() == configure("crates", {}).options()
    assert configure("crates", {"jokers": True}).options()["jokers"] is True
    with pytest.raises(InvalidOptions, match="two-fifty has no option 'wild'"):
        configure("two-fifty", {"wild": True})


def test_configure_known_keeps_only_the_options_the_rule_set_has():
    # The print form sends every option of every game: each rule set takes its own.
    assert configure_known("crates", {"jokers": True, "five_hundred": True}).options()["jokers"] is True
    assert configure_known("two-fifty", {"jokers": True, "five_hundred": True}).options() == {"five_hundred": True}
    assert configure_known("two-fifty", {}).options() == {"five_hundred": False}


def test_every_game_offered_has_a_name_and_a_summary_in_a_sentence():
    # The list of games on the home page and the start form shows each one's name and summary.
    names = [cls.name for cls in RULE_SETS.values()]
    assert len(set(names)) == len(names) and all(name.strip() for name in names)
    for cls in RULE_SETS.values():
        assert cls.summary.endswith(".") and cls.summary == cls.summary.strip(), cls.id
        assert len(cls.summary.split()) > 5, cls.id


def test_what_each_game_asks_of_the_table():
    # Crates (000) has the count, the "one card" call and pressures, and goes on after someone goes
    # out; the Eights family (002, 001) and the 250 game (001) have none of these and the hand ends
    # when someone goes out; in the Eights family the winner collects; the 250 game needs suits.
    rules = {rule_set_id: configure(rule_set_id) for rule_set_id in ("crates", "creights", "two-fifty", "crazy-eights")}
    rules["house"] = configure("house")
    rules["hollywood-eights"] = configure("hollywood-eights")
    flags = {
        rule_set_id: (
            r.has_count,
            r.has_one_card_penalty,
            r.has_pressures,
            r.one_goes_out,
            r.winner_collects,
            r.lowest_wins,
            r.needs_suits,
            r.game_columns,
            r.table_size,
            r.in_events,
        )
        for rule_set_id, r in rules.items()
    }
    assert flags == {
        "crates": (True, True, True, False, False, True, False, 0, 4, True),
        "creights": (True, True, True, False, False, True, False, 0, 4, True),
        "two-fifty": (False, False, False, True, False, True, True, 0, 4, True),
        "crazy-eights": (False, False, False, True, True, False, False, 0, 4, True),
        "house": (False, False, False, True, False, True, False, 0, 4, True),
        "hollywood-eights": (False, False, False, True, True, False, False, 3, 2, True),
    }


def test_every_option_has_a_label_and_a_kind_and_the_games_at_the_table_a_help():
    # The start form labels each option of the games at the table, with its help below it; a house
    # game's definition is read by the house-rules form, whose fields are its own.
    kinds = {"bool", "int", "optional_int", "str", "values", "special", "deal"}
    for rule_set_id, cls in RULE_SETS.items():
        for spec in cls.option_specs():
            assert spec.label.strip() and spec.kind in kinds, (rule_set_id, spec.name)
            if rule_set_id in AT_THE_TABLE:
                assert spec.help.endswith("."), (rule_set_id, spec.name)
