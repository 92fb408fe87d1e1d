"""The game record ``scorekeeper-game/1`` and its replay output (specs/game-record.md)."""

import copy
import json

import pytest

from scorekeeper.scoring import (
    FORMAT,
    InvalidOptions,
    InvalidRecord,
    InvalidSeating,
    RefereeError,
    ScoringError,
    UnknownRuleSet,
    dump_record,
    load_record,
    parse_record,
)

SPEC_EXAMPLE = {
    "format": "scorekeeper-game/1",
    "rules": "crates",
    "options": {"pressure_increase_cap": 20, "jokers": False, "decks": 1},
    "players": ["Ann", "Bob", "Cy", "Di"],
    "partnerships": [["Ann", "Cy"], ["Bob", "Di"]],
    "first_dealer": "Ann",
    "hands": [
        {
            "leftovers": {"Ann": ["A", "3", "3", "6"], "Bob": [], "Cy": ["8"], "Di": ["K", "10h"]},
            "pressures": ["Bob", "Cy", "Bob"],
        }
    ],
}


def with_changes(**changes):
    record = copy.deepcopy(SPEC_EXAMPLE)
    record.update(changes)
    return record


def test_the_spec_example_replays():
    output = parse_record(SPEC_EXAMPLE).score().to_json()
    # Ann: the threes cover the 6 and the pair, leaving A: 3 + 1 = 4. Cy: 8 = 50.
    # Cy's pressure is Ann & Cy's first: 5. Di: K + 10 = 35; Bob's two: 5 + 10.
    assert output["sides"] == [
        {
            "name": "Ann & Cy",
            "members": ["Ann", "Cy"],
            "hands": [59],
            "pressures": [5],
            "total": 59,
            "start": 0,
        },
        {
            "name": "Bob & Di",
            "members": ["Bob", "Di"],
            "hands": [50],
            "pressures": [15],
            "total": 50,
            "start": 0,
        },
    ]
    assert output["leader"] == ["Bob & Di"]


def test_sides_are_players_when_there_are_no_partnerships():
    record = with_changes(partnerships=None)
    del record["partnerships"]
    output = parse_record(record).score().to_json()
    assert [side["name"] for side in output["sides"]] == ["Ann", "Bob", "Cy", "Di"]
    assert [side["members"] for side in output["sides"]] == [["Ann"], ["Bob"], ["Cy"], ["Di"]]


def test_defaults_for_absent_options_dealer_and_pressures():
    record = {
        "format": FORMAT,
        "rules": "crates",
        "players": ["Ann", "Bob"],
        "hands": [{"leftovers": {"Ann": ["K"], "Bob": []}}],
    }
    parsed = parse_record(record)
    assert parsed.game.dealer(1) == "Ann"
    assert parsed.game.rules.options() == {
        "jokers": False,
        "pressure_increase_cap": None,
        "decks": 1,
    }
    assert parsed.score().to_json()["sides"][0]["total"] == 10


def test_a_game_in_progress_and_an_empty_game():
    assert parse_record(with_changes(hands=[])).score().to_json()["hands_played"] == 0
    assert parse_record(SPEC_EXAMPLE).score().finished is False


def test_world_series_total_includes_the_dummys_start():
    record = {
        "format": FORMAT,
        "rules": "crates-world-series",
        "options": {"dummy": "Figgy"},
        "players": ["Ann", "Figgy", "Bob"],
        "hands": [{"leftovers": {"Ann": [], "Figgy": ["K"], "Bob": ["3", "3"]}}],
    }
    sides = {s["name"]: s for s in parse_record(record).score().to_json()["sides"]}
    assert sides["Figgy"]["hands"] == [10]
    assert sides["Figgy"]["total"] == -40
    assert sides["Bob"]["total"] == -100


def test_round_trip_keeps_the_record_and_unknown_keys():
    record = with_changes(event="Club night", table=3)
    parsed = parse_record(record)
    again = load_record(dump_record(parsed))
    assert again.to_dict()["event"] == "Club night"
    assert again.score().to_json() == parsed.score().to_json()
    assert again.to_dict()["hands"][0]["leftovers"]["Di"] == ["K", "10h"]


@pytest.mark.parametrize(
    "record, error, message",
    [
        (with_changes(format="scorekeeper-game/2"), InvalidRecord, "unknown format"),
        (with_changes(rules="bridge"), UnknownRuleSet, "unknown rule set 'bridge'"),
        (with_changes(options={"jokers": "yes"}), InvalidOptions, "'jokers' must be true or false"),
        (with_changes(options={"decks": 3}), InvalidOptions, "'decks' must be 1 or 2"),
        (with_changes(options={"pressure_increase_cap": 0}), InvalidOptions, "at least 1"),
        (with_changes(options={"pressure_cap": 20}), InvalidOptions, "no option 'pressure_cap'"),
        (with_changes(players=["Ann", "Ann", "Cy", "Di"]), InvalidSeating, "two players"),
        (with_changes(players="Ann Bob"), InvalidRecord, "'players' must be a list"),
        (with_changes(first_dealer="Zed"), InvalidSeating, "first dealer 'Zed'"),
        (with_changes(hands={"leftovers": {}}), InvalidRecord, "'hands' must be a list"),
        (
            with_changes(hands=[{"leftovers": {"Ann": ["Z"], "Bob": [], "Cy": [], "Di": []}}]),
            InvalidRecord,
            "Hand 1, Ann: unknown card 'Z'",
        ),
        (
            with_changes(hands=[{"leftovers": {"Ann": [], "Bob": [], "Cy": []}}]),
            RefereeError,
            "Hand 1, Di: no leftovers given",
        ),
        (
            with_changes(hands=[{"leftovers": {"Ann": [], "Bob": [], "Cy": [], "Di": [], "Ed": []}}]),
            RefereeError,
            "Hand 1: 'Ed' is not a player",
        ),
        (
            with_changes(hands=[{"leftovers": {"Ann": ["JK"], "Bob": [], "Cy": [], "Di": []}}]),
            RefereeError,
            "Hand 1: Ann has a joker, but jokers are off",
        ),
        (
            with_changes(hands=[{"leftovers": {"Ann": [], "Bob": [], "Cy": [], "Di": []}}] * 16),
            RefereeError,
            "Hand 16",
        ),
        (
            with_changes(hands=[{"leftovers": {"Ann": "A"}}]),
            InvalidRecord,
            "Hand 1, Ann: leftovers must be a list",
        ),
        ([], InvalidRecord, "must be a JSON object"),
    ],
)
def test_a_record_that_breaks_a_rule_is_refused_whole(record, error, message):
    with pytest.raises(error, match=message):
        parse_record(record)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"jokers": "yes"}, "jokers"),
        ({"decks": 3}, "decks"),
        ({"pressure_increase_cap": 0}, "pressure_increase_cap"),
        ({"pressure_cap": 20}, "pressure_cap"),
    ],
)
def test_a_refused_option_is_named_as_the_field_of_the_refusal(options, field):
    with pytest.raises(InvalidOptions) as refused:
        parse_record(with_changes(options=options))
    assert refused.value.field == field


def test_an_option_a_game_always_has_one_way_is_named_when_refused():
    with pytest.raises(InvalidOptions) as refused:
        parse_record(with_changes(rules="two-fifty", options={"jokers": True}))
    assert refused.value.field == "jokers"


FILED = {"event": "Club night", "held_on": "2026-11-22", "round": 2, "table": 3}


def test_a_well_shaped_filed_under_is_read():
    filed = parse_record(with_changes(filed_under=FILED)).filed_under
    assert filed is not None and filed.to_dict() == FILED


@pytest.mark.parametrize(
    "filed_under, message",
    [
        ({**FILED, "seat": 4}, "'filed_under' has a key it does not know: 'seat'"),
        ({**FILED, "Round": 2}, "'filed_under' has a key it does not know: 'Round'"),
        *(
            ({key: value for key, value in FILED.items() if key != missing}, f"'filed_under' lacks '{missing}'")
            for missing in FILED
        ),
        ({**FILED, "round": "2"}, "'round' must be a whole number from 1"),
        ({**FILED, "event": 7}, "as text"),
        ("Club night, round 2", "'filed_under' must be a JSON object"),
    ],
)
def test_a_badly_shaped_filed_under_is_refused_in_one_line(filed_under, message):
    with pytest.raises(InvalidRecord, match=message) as refused:
        parse_record(with_changes(filed_under=filed_under))
    assert "\n" not in str(refused.value)


def test_pressure_to_the_dummy_is_refused_in_a_record():
    record = {
        "format": FORMAT,
        "rules": "crates-world-series",
        "players": ["Ann", "Figgy", "Bob"],
        "hands": [{"leftovers": {"Ann": [], "Figgy": [], "Bob": []}, "pressures": ["Figgy"]}],
    }
    with pytest.raises(RefereeError, match="Figgy never takes a pressure"):
        parse_record(record)


def test_broken_json_names_where():
    with pytest.raises(InvalidRecord, match="not JSON: .* line 1, column"):
        load_record('{"format": ')


def test_every_refusal_is_a_scoring_error_and_a_value_error():
    assert issubclass(InvalidRecord, ScoringError) and issubclass(ScoringError, ValueError)


def test_the_export_is_plain_json():
    text = dump_record(parse_record(SPEC_EXAMPLE))
    assert json.loads(text)["format"] == FORMAT
