"""The game as a phone keeps it (``gamelog.phone_copy``), without a database: the fields
``static/copy.js`` reads (its ``Copy`` type), the deal written out hand by hand as the rules deal
it (000: 8 cards, one fewer each hand down to 1, then up again to 8; the deal rotates left), and
the log as the phone folds it."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.gamelog import LEFTOVERS, NOTE, ONE_CARD, PRESSURE, VOID, Entry, GameState
from scorekeeper.gamelog.phone_copy import phone_copy
from scorekeeper.scoring import Game, configure
from scorekeeper.scoring.rulebook import rule_book

COPY_JS = Path(__file__).parent.parent.parent / "scorekeeper" / "static" / "copy.js"
PLAYERS = ("Ann", "Bob", "Cy", "Di")
AT = "2026-11-28T12:00:00+00:00"


def entry(id_: int, kind: str, hand: int | None = None, player: str | None = None, target: int | None = None, **data):
    return Entry(id_, id_ + 10, kind, hand, player, data, target, "phone 1", AT, f"key{id_}", "10.0.0.7")


def test_the_copy_has_the_shape_the_phones_code_reads():
    copy = phone_copy(GameState.fold(Game(configure("crates"), PLAYERS), []))
    # copy.js's FORMAT is the shape its code reads: a copy of another shape is asked for whole.
    phone_format = re.search(r"export const FORMAT = (\d+);", COPY_JS.read_text(encoding="utf-8"))
    assert phone_format is not None and copy["format"] == int(phone_format.group(1))
    assert set(copy) == {
        "format",
        "version",
        "book",
        "name",
        "partnerships",
        "max_hands",
        "deals",
        "takers",
        "has",
        "limits",
        "actions",
        "threes_verb",
        "entries",
        "set_aside",
    }
    assert copy["book"] == rule_book(Game(configure("crates"), PLAYERS))
    assert (copy["name"], copy["partnerships"], copy["max_hands"], copy["threes_verb"]) == (
        "Crates",
        False,
        15,
        "covers",
    )
    assert copy["has"] == {"pressures": True, "count": True, "one_card": True, "suits": False, "jokers": False}
    # README: at most 50 pressures in one hand, a note of at most 500 characters.
    assert copy["limits"] == {"pressures_in_a_hand": 50, "note": 500}
    assert copy["actions"][0] == ["A", "used in a 2-sequence (the count): adds 1"]
    assert [card for card, _ in copy["actions"]] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert copy["takers"] == {player: player for player in PLAYERS}


def test_a_crates_game_is_dealt_out_for_all_fifteen_hands():
    deals = phone_copy(GameState.fold(Game(configure("crates"), PLAYERS), []))["deals"]
    assert [deal["cards"] for deal in deals] == [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
    assert [deal["dealer"] for deal in deals[:5]] == ["Ann", "Bob", "Cy", "Di", "Ann"]
    assert [deal["first"] for deal in deals[:5]] == ["Bob", "Cy", "Di", "Ann", "Bob"]
    assert deals[-1] == {"cards": 8, "dealer": "Cy", "first": "Di"}


def test_a_game_to_a_score_is_dealt_forty_hands_past_the_hand_in_play():
    game = Game(configure("crazy-eights"), PLAYERS[:3])
    entries = [
        entry(n, LEFTOVERS, 1, player, cards=cards)
        for n, (player, cards) in enumerate([("Ann", ["K"]), ("Bob", []), ("Cy", ["Q"])], start=1)
    ]
    state = GameState.fold(game, entries)
    assert state.last_hand == 2
    copy = phone_copy(state)
    assert copy["max_hands"] is None
    assert len(copy["deals"]) == 2 + 40
    assert copy["deals"][0] == {"cards": 5, "dealer": "Ann", "first": "Bob"}
    assert copy["deals"][1]["dealer"] == "Bob"


def test_a_pressure_on_the_world_series_dummy_is_taken_by_the_next_player():
    # 000: Figgy never receives a pressure; it goes to the next player to play (on Figgy's left).
    game = Game(configure("crates-world-series"), ("Ann", "Figgy", "Bob"))
    assert phone_copy(GameState.fold(game, []))["takers"] == {"Ann": "Ann", "Figgy": "Bob", "Bob": "Bob"}


def test_the_log_is_written_as_the_phone_folds_it_without_network_addresses():
    entries = [
        entry(1, LEFTOVERS, 1, "Ann", cards=["K", "5"]),
        entry(2, PRESSURE, 1, "Bob"),
        entry(3, NOTE, 1, text="a ruling"),
        entry(4, ONE_CARD, 1, "Cy", owes=True),
        entry(5, VOID, target=2),
    ]
    copy = phone_copy(GameState.fold(Game(configure("crates"), PLAYERS), entries, set_aside={1: "Hand 1: refused"}))
    assert copy["version"] == 5
    assert copy["entries"][0] == {
        "id": 1,
        "seq": 11,
        "kind": LEFTOVERS,
        "hand": 1,
        "player": "Ann",
        "data": {"cards": ["K", "5"]},
        "target": None,
        "at": AT,
    }
    assert copy["entries"][4] == {
        "id": 5,
        "seq": 15,
        "kind": VOID,
        "hand": None,
        "player": None,
        "data": {},
        "target": 2,
        "at": AT,
    }
    assert [line["kind"] for line in copy["entries"]] == [LEFTOVERS, PRESSURE, NOTE, ONE_CARD, VOID]
    assert copy["set_aside"] == {"1": "Hand 1: refused"}
