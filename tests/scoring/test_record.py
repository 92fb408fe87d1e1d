"""The game record ``scorekeeper-game/1`` and its replay output (specs/game-record.md)."""

import copy
import dataclasses
import hashlib
import json
import re

import pytest

from scorekeeper.scoring import (
    FORMAT,
    FiledUnder,
    InvalidOptions,
    InvalidRecord,
    InvalidSeating,
    RefereeError,
    ScoringError,
    UnknownRuleSet,
    decode_json,
    dump_record,
    load_record,
    normalise_verification_code,
    parse_record,
    record_to_dict,
    verification_code,
)
from scorekeeper.scoring.record import check_record_words, parse_filed_under, renamed

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


# The verification code (docs/game-record.md "The verification code"), computed here from its
# definition: SHA-256 of the standard keys as JSON, keys sorted, no spaces, UTF-8, non-ASCII as is.


def code_by_hand(canonical: dict[str, object]) -> str:
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digits = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12].upper()
    return f"{digits[:4]}-{digits[4:8]}-{digits[8:]}"


ZOE = {
    "format": "scorekeeper-game/1",
    "rules": "crates",
    "players": ["Zoë", "Bob"],
    "hands": [{"leftovers": {"Zoë": [], "Bob": ["T", "qH"]}, "pressures": ["Zoë"]}],
    "title": "Not covered",
}


def test_the_verification_code_is_sha256_of_the_canonical_record():
    canonical = {
        "format": "scorekeeper-game/1",
        "rules": "crates",
        "options": {"jokers": False, "pressure_increase_cap": None, "decks": 1},
        "players": ["Zoë", "Bob"],
        "first_dealer": "Zoë",
        "hands": [{"leftovers": {"Zoë": [], "Bob": ["10", "Qh"]}, "pressures": ["Zoë"]}],
    }
    record = parse_record(ZOE)
    assert record.verification_code == code_by_hand(canonical)
    assert verification_code(record.game, record.hands) == code_by_hand(canonical)
    assert re.fullmatch(r"[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}", record.verification_code)
    partners = parse_record(SPEC_EXAMPLE)
    assert partners.verification_code == code_by_hand({**SPEC_EXAMPLE, "options": {**SPEC_EXAMPLE["options"]}})


def test_an_events_game_is_coded_with_where_it_is_filed():
    record = parse_record({**ZOE, "filed_under": FILED})
    assert record.filed_under == FiledUnder("Club night", "2026-11-22", 2, 3)
    canonical = {**record_to_dict(record.game, record.hands), "filed_under": FILED}
    assert record.verification_code == code_by_hand(canonical)
    assert record.verification_code != parse_record(ZOE).verification_code
    assert parse_record(ZOE).filed_under is None


@pytest.mark.parametrize(
    "typed",
    ["5F7A-7FF5-5BF0", "5f7a7ff55bf0", " 5f7a 7ff5 5bf0 ", "5F7A-7FF5-5BF0\n", "5-F7A7FF55BF0", "5F7A--7FF55BF0"],
)
def test_a_typed_code_is_read_in_any_case_with_dashes_or_spaces_anywhere(typed):
    assert normalise_verification_code(typed) == "5F7A-7FF5-5BF0"


@pytest.mark.parametrize("typed", ["5F7A-7FF5-5BF", "5F7A-7FF5-5BF00", "5F7A-7FF5-5BFG", "", "5F7A_7FF5_5BF0"])
def test_a_typed_code_that_is_not_twelve_hex_digits_is_refused(typed):
    with pytest.raises(ValueError, match="is not a verification code: expected 12 of 0-9 and A-F"):
        normalise_verification_code(typed)


def test_filed_under_reads_as_a_line_and_back_as_its_keys():
    filed = FiledUnder("Club night", "2026-11-22", 2, 3)
    assert str(filed) == "Club night (2026-11-22) · round 2 · table 3"
    assert filed.to_dict() == FILED
    assert parse_filed_under(FILED) == filed
    assert parse_filed_under({**FILED, "round": 1, "table": 1}) == FiledUnder("Club night", "2026-11-22", 1, 1)


@pytest.mark.parametrize(
    "filed_under, message",
    [
        ({**FILED, "zeta": 1, "alpha": 2}, "'filed_under' has a key it does not know: 'alpha'."),
        (
            {key: value for key, value in FILED.items() if key != "held_on"},
            "'filed_under' lacks 'held_on': it needs event, held_on, round, table.",
        ),
        ({**FILED, "held_on": 20261122}, "'filed_under' needs the event's name and date ('event', 'held_on') as text."),
        ({**FILED, "round": 0}, "'filed_under': 'round' must be a whole number from 1, not 0."),
        ({**FILED, "table": 0}, "'filed_under': 'table' must be a whole number from 1, not 0."),
        ({**FILED, "table": True}, "'filed_under': 'table' must be a whole number from 1, not True."),
        ({**FILED, "table": 2.0}, "'filed_under': 'table' must be a whole number from 1, not 2.0."),
    ],
)
def test_filed_under_is_refused_saying_what_is_wrong(filed_under, message):
    with pytest.raises(InvalidRecord) as refused:
        parse_filed_under(filed_under)
    assert str(refused.value) == message


def test_a_record_is_written_as_the_standard_keys_in_order():
    record = parse_record({key: value for key, value in SPEC_EXAMPLE.items() if key != "first_dealer"})
    written = record.to_dict()
    assert list(written) == ["format", "rules", "options", "players", "partnerships", "first_dealer", "hands"]
    assert written["first_dealer"] == "Ann"  # absent: the first player deals first
    assert written["partnerships"] == [["Ann", "Cy"], ["Bob", "Di"]]
    assert written["hands"] == SPEC_EXAMPLE["hands"]
    alone = parse_record(ZOE).to_dict()
    assert "partnerships" not in alone and alone["first_dealer"] == "Zoë"
    assert alone["hands"] == [{"leftovers": {"Zoë": [], "Bob": ["10", "Qh"]}, "pressures": ["Zoë"]}]
    assert alone["title"] == "Not covered"


def test_extra_keys_never_replace_the_standard_ones():
    record = parse_record(SPEC_EXAMPLE)
    written = record_to_dict(record.game, record.hands, {"rules": "bridge", "title": "Club night"})
    assert written["rules"] == "crates" and written["title"] == "Club night"
    assert record_to_dict(record.game, record.hands) == record.to_dict()
    assert parse_record(SPEC_EXAMPLE).extra == {}
    assert parse_record(with_changes(title="T", filed_under=None)).extra == {"title": "T", "filed_under": None}


def test_the_export_is_indented_json_keeping_every_character():
    text = dump_record(parse_record(ZOE))
    assert text.startswith('{\n  "format": "scorekeeper-game/1",\n')
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert '"Zoë"' in text
    assert json.loads(text) == parse_record(ZOE).to_dict()


@pytest.mark.parametrize(
    "record, message",
    [
        ({**ZOE, "format": None}, "unknown format None: expected 'scorekeeper-game/1'."),
        (
            {**ZOE, "format": "scorekeeper-game/2"},
            "unknown format 'scorekeeper-game/2': expected 'scorekeeper-game/1'.",
        ),
        (["not", "an", "object"], "the record must be a JSON object."),
        ({key: value for key, value in ZOE.items() if key != "rules"}, "the record names no rule set ('rules')."),
        ({**ZOE, "rules": 7}, "'rules' must be a rule-set id, not 7."),
        ({**ZOE, "options": ["jokers"]}, "'options' must be a JSON object."),
        ({**ZOE, "players": ["Ann", 7]}, "'players' must be a list of names."),
        ({**ZOE, "partnerships": "Ann+Bob"}, "'partnerships' must be a list of lists of names."),
        ({**ZOE, "partnerships": ["Zoë"]}, "a partnership must be a list of names."),
        ({**ZOE, "first_dealer": 1}, "'first_dealer' must be a player's name, not 1."),
        ({**ZOE, "hands": None}, "'hands' must be a list (empty for a game not yet played)."),
        ({**ZOE, "hands": ["Zoë"]}, "hand 1 must be a JSON object."),
        ({**ZOE, "hands": [{"leftovers": ["Zoë"]}]}, "Hand 1: 'leftovers' must map each player to a list of cards."),
        ({**ZOE, "hands": [{"leftovers": {"Zoë": "K", "Bob": []}}]}, "Hand 1, Zoë: leftovers must be a list of cards."),
        (
            {**ZOE, "hands": [{"leftovers": {"Zoë": [], "Bob": ["K"]}, "pressures": "Bob"}]},
            "Hand 1: 'pressures' must be a list of names.",
        ),
        (
            {**ZOE, "hands": [{"leftovers": {"Zoë": [], "Bob": ["K", "1"]}}]},
            "Hand 1, Bob: unknown card '1': use A, 2-10, J, Q, K or JK, optionally with a suit S, H, D or C "
            "(e.g. 10h, QS).",
        ),
        ({**ZOE, "filed_under": "round 2"}, "'filed_under' must be a JSON object."),
    ],
)
def test_a_broken_record_is_refused_in_one_line_naming_what(record, message):
    with pytest.raises(InvalidRecord) as refused:
        parse_record(record)
    assert str(refused.value) == message


def test_absent_or_empty_optional_keys_take_their_defaults():
    record = parse_record({**ZOE, "options": None, "partnerships": None, "first_dealer": None})
    assert record.game.rules.options() == {"jokers": False, "pressure_increase_cap": None, "decks": 1}
    assert record.game.partnerships == () and record.game.dealer(1) == "Zoë"
    assert (
        parse_record({**ZOE, "hands": [{"leftovers": {"Zoë": [], "Bob": ["K"]}, "pressures": None}]}).hands[0].pressures
        == ()
    )
    assert parse_record({**ZOE, "first_dealer": "Bob"}).game.dealer(1) == "Bob"


def test_the_replay_is_scored_once():
    record = parse_record(SPEC_EXAMPLE)
    assert record.score() is record.score()
    assert record.score().side("Bob & Di").total == 50
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.hands = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        FiledUnder("Club night", "2026-11-22", 2, 3).round = 1  # type: ignore[misc]


def test_renamed_renames_every_mention_of_a_player():
    record = parse_record({**SPEC_EXAMPLE, "title": "Club night"})
    names = {"Ann": "Player 1", "Bob": "Player 2"}
    again = renamed(record, names)
    written = again.to_dict()
    assert written["players"] == ["Player 1", "Player 2", "Cy", "Di"]
    assert written["partnerships"] == [["Player 1", "Cy"], ["Player 2", "Di"]]
    assert written["first_dealer"] == "Player 1"
    assert written["hands"] == [
        {
            "leftovers": {"Player 1": ["A", "3", "3", "6"], "Player 2": [], "Cy": ["8"], "Di": ["K", "10h"]},
            "pressures": ["Player 2", "Cy", "Player 2"],
        }
    ]
    assert written["title"] == "Club night"
    assert again.score().side("Player 2 & Di").total == 50
    assert again.verification_code == parse_record(written).verification_code != record.verification_code


def test_renamed_renames_the_world_series_dummy_and_keeps_a_record_with_no_new_names():
    record = parse_record(
        {
            "format": FORMAT,
            "rules": "crates-world-series",
            "options": {"dummy": "Fighdij"},
            "players": ["Ann", "Fighdij", "Bob"],
            "hands": [],
        }
    )
    again = renamed(record, {"Fighdij": "Dummy"})
    assert again.game.players == ("Ann", "Dummy", "Bob")
    assert again.game.rules.options()["dummy"] == "Dummy"
    assert renamed(record, {"Zed": "Player 9", "Ann": "Ann"}) is record
    solo = parse_record(ZOE)
    assert "partnerships" not in renamed(solo, {"Bob": "B"}).to_dict()


# What comes in from outside (load_record): the rule every form holds text to


def test_a_loaded_record_is_read_and_checked():
    record = load_record(json.dumps(ZOE))
    assert record.game.players == ("Zoë", "Bob")


@pytest.mark.parametrize(
    "record, message, field",
    [
        ({**ZOE, "players": ["Zoë", "Bo\u200bb"], "hands": []}, "the player “Bo\\u200bb”: a name cannot hold", None),
        (
            {**ZOE, "rules": "house", "options": {"name": "Kit\tchen"}, "hands": []},
            "option 'name' cannot hold a control character (a tab)",
            "name",
        ),
        ({**ZOE, "title": "Club\u202enight"}, "the title cannot hold an invisible character (U+202E)", "title"),
        (
            {**ZOE, "hands": [{"leftovers": {"Zoë": [], "Bob": ["K"]}, "notes": ["ok", "Ruled\u200b."]}]},
            "a note cannot hold an invisible character (U+200B)",
            "notes",
        ),
        (
            {**ZOE, "in_play": {"hand": 2, "notes": ["Misdeal\0"]}},
            "a note cannot hold a control character (a NUL)",
            "notes",
        ),
    ],
)
def test_a_loaded_record_holds_names_options_titles_and_notes_to_the_rule(record, message, field):
    with pytest.raises(InvalidRecord) as refused:
        load_record(json.dumps(record))
    assert str(refused.value).startswith(message)
    assert refused.value.field == field


def test_what_the_rule_does_not_read_comes_in():
    for record in [
        {**ZOE, "title": "   "},
        {**ZOE, "title": 7},
        {**ZOE, "hands": [{"leftovers": {"Zoë": [], "Bob": ["K"]}, "notes": "Ruled\u200b."}]},
        {**ZOE, "hands": [{"leftovers": {"Zoë": [], "Bob": ["K"]}, "notes": [7, "Line one\nline two\ttab"]}]},
        {**ZOE, "in_play": "hand 2"},
    ]:
        load_record(json.dumps(record))
    check_record_words(["not", "a", "record"])


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"format": ', "not JSON: Expecting value at line 1, column 12."),
        ("[" * 100_000, "not a game record: its JSON is nested far too deeply."),
        ("1" * 5000, "not a game record: it holds a number thousands of digits long."),
        ('{"players": ["A\\udc80"]}', "the text “A\\udc80” holds a lone surrogate: it is not valid Unicode."),
        ('{"options": {"target": 1000000000000}}', "not a game record: it holds a number of more than 12 digits."),
        ('{"hands": [[-1000000000000]]}', "not a game record: it holds a number of more than 12 digits."),
    ],
)
def test_text_that_cannot_be_a_record_is_refused_in_one_line(text, message):
    with pytest.raises(InvalidRecord) as refused:
        decode_json(text)
    assert str(refused.value) == message


def test_numbers_of_twelve_digits_and_true_come_in():
    assert decode_json('{"a": [999999999999, -999999999999, true, {"b": 1.5e300}]}') == {
        "a": [999_999_999_999, -999_999_999_999, True, {"b": 1.5e300}]
    }
