"""A game's log entries and its limits, without a database: the kinds of entry in the words the
phone's code uses, an entry made of a change, its cards and how they read, the limits README
states (50 pressures in one hand, 2,000 changes in one game, a note of 500 characters), and what
a conflict or a question tells the phone."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from scorekeeper.gamelog import (
    CONFIRM,
    LEFTOVERS,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    ChangeRefusal,
    Entry,
    GameState,
    SecondThoughts,
    StaleEdit,
    StaleEdits,
    accept,
)
from scorekeeper.gamelog.checks import check_change
from scorekeeper.scoring import Game, ScoringError, configure
from tests.support.helpers import entry

STATIC = Path(__file__).parent.parent.parent / "scorekeeper" / "static"
PLAYERS = ("Ann", "Bob", "Cy")
AT = "2026-11-28T12:00:00+00:00"


def played(*entries: Entry) -> GameState:
    return GameState.fold(Game(configure("crates"), PLAYERS), entries)


def refusal(state: GameState, change: Change) -> ChangeRefusal:
    with pytest.raises(ChangeRefusal) as raised:
        check_change(state, change)
    return raised.value


def test_the_kinds_of_entry_are_the_words_the_phones_code_folds():
    phone = (STATIC / "copy.js").read_text(encoding="utf-8") + (STATIC / "said.js").read_text(encoding="utf-8")
    kinds = set(re.findall(r'kind === "(\w+)"', phone))
    assert (LEFTOVERS, PRESSURE, NOTE, ONE_CARD, VOID, CONFIRM) == (
        "leftovers",
        "pressure",
        "note",
        "one_card",
        "void",
        "confirm",
    )
    assert {LEFTOVERS, PRESSURE, NOTE, ONE_CARD, VOID, CONFIRM} <= kinds


def test_an_entry_made_of_a_change_keeps_it_and_its_place_in_the_log():
    change = Change(LEFTOVERS, 2, "Ann", {"cards": ["K"]}, 7, address="10.0.0.1", at="2026-11-28T11:59:00+00:00")
    made = Entry.of(change, 12, 5, "key-1", "phone 2", AT)
    assert made == Entry(12, 5, LEFTOVERS, 2, "Ann", {"cards": ["K"]}, 7, "phone 2", change.at, "key-1", "10.0.0.1")
    assert made.created_at == "2026-11-28T11:59:00+00:00"  # the tap's time, not the save's


def test_an_entry_of_a_change_that_does_not_say_when_is_stamped_when_taken():
    made = Entry.of(Change(NOTE, 1, None, {"text": "x"}), 1, 1, "k", "phone", AT)
    assert (made.created_at, made.address) == (AT, "")
    assert Change(NOTE).at == "" and Change(NOTE).address == "" and Change(NOTE).again is False


def test_an_entry_stored_without_a_key_is_found_by_no_submission():
    state = played(entry(1, NOTE, 1, text="a"))
    assert entry(1, NOTE).idem_key == "" and entry(1, NOTE).address == ""
    assert state.by_key == {}


def test_a_change_is_the_same_as_an_entry_of_the_same_kind_hand_player_data_and_target():
    stored = Entry.of(Change(PRESSURE, 1, "Bob", {}), 3, 3, "k", "phone", AT)
    assert Change(PRESSURE, 1, "Bob", address="elsewhere", at=AT).same_as(stored)
    assert not Change(PRESSURE, 1, "Cy").same_as(stored)
    assert not Change(PRESSURE, 2, "Bob").same_as(stored)
    assert not Change(PRESSURE, 1, "Bob", target=3).same_as(stored)


def test_changes_and_entries_cannot_be_changed_once_made():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Change(NOTE).hand = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry(1, NOTE).hand = 2  # type: ignore[misc]


def test_leftovers_read_as_their_cards_or_went_out():
    kept = entry(1, LEFTOVERS, 1, "Ann", cards=["K", "10", "A"])
    assert [card.label for card in kept.cards] == ["K", "10", "A"]
    assert kept.cards_text == "K 10 A"
    assert entry(2, LEFTOVERS, 1, "Ann", cards=[]).cards_text == "went out"
    assert entry(3, PRESSURE, 1, "Ann").cards == ()


def test_a_note_of_exactly_500_characters_is_taken_and_of_501_refused():
    check_change(played(), Change(NOTE, 1, None, {"text": "a" * 500}))
    assert "at most 500 characters" in str(refusal(played(), Change(NOTE, 1, None, {"text": "a" * 501})))


def test_a_hand_takes_50_pressures_and_not_a_51st():
    state = played(*(entry(n, PRESSURE, 1, PLAYERS[n % 3]) for n in range(1, 50)))
    check_change(state, Change(PRESSURE, 1, "Ann"))
    full = played(*(entry(n, PRESSURE, 1, PLAYERS[n % 3]) for n in range(1, 51)))
    assert "Hand 1 has 50 pressures already" in str(refusal(full, Change(PRESSURE, 1, "Ann")))


def test_a_game_takes_2000_changes_and_not_one_more():
    state = played(*(entry(n, NOTE, 1, text="n") for n in range(1, 2000)))
    check_change(state, Change(NOTE, 1, None, {"text": "last"}))
    full = played(*(entry(n, NOTE, 1, text="n") for n in range(1, 2001)))
    assert "This game holds 2000 changes" in str(refusal(full, Change(NOTE, 1, None, {"text": "one more"})))


def test_a_refusal_by_the_engine_stands_beside_the_changes_own_field():
    # Ann and Bob went out: Cy going out too leaves nobody holding a card, which the engine refuses.
    state = played(entry(1, LEFTOVERS, 1, "Ann", cards=[]), entry(2, LEFTOVERS, 1, "Bob", cards=[]))
    with pytest.raises(ChangeRefusal) as raised:
        accept(state, Change(LEFTOVERS, 1, "Cy", {"cards": []}), entry(3, LEFTOVERS, 1, "Cy", cards=[]))
    assert raised.value.field == "cards"


def test_a_conflict_tells_the_phone_what_stands_now_or_nothing_when_undone():
    now = entry(4, LEFTOVERS, 1, "Ann", cards=["Q", "5"])
    assert StaleEdit("changed", now, "cards", "Ann").details() == {"current": {"entry": 4, "cards": ["Q", "5"]}}
    assert StaleEdit("undone", None, "cards", "Ann").details() == {}
    single = StaleEdit("changed", now)
    assert single.conflicts == (single,)


def test_conflicts_of_a_whole_hand_are_named_player_by_player():
    ann = StaleEdit("a", entry(4, LEFTOVERS, 1, "Ann", cards=["Q"]), "cards", "Ann")
    bob = StaleEdit("b", None, "cards", "Bob")
    cy = StaleEdit("c", entry(6, LEFTOVERS, 1, "Cy", cards=[]), "cards", "Cy")
    ann.index, bob.index, cy.index = 0, 1, 2
    both = StaleEdits([ann, bob])
    assert str(both) == (
        "Ann's and Bob's leftovers were entered meanwhile on another phone (Ann: Q; Bob: undone). "
        "Check them, and correct them if they are wrong."
    )
    assert both.conflicts == (ann, bob)
    assert (both.current, both.player, both.field, both.index) == (ann.current, "Ann", "cards", 0)
    three = StaleEdits([bob, cy, ann])
    assert str(three).startswith("Bob's, Cy's and Ann's leftovers were entered meanwhile on another phone ")
    assert "(Bob: undone; Cy: went out; Ann: Q)" in str(three)
    assert (three.current, three.player, three.index) == (None, "Bob", 1)


def test_a_conflict_of_no_named_player_is_named_by_a_question_mark():
    nobody = StaleEdit("a", None, "cards")
    bob = StaleEdit("b", None, "cards", "Bob")
    assert str(StaleEdits([nobody, bob])).startswith("?'s and Bob's leftovers were entered meanwhile")


def test_a_question_asks_the_phone_its_own_sentence():
    asked = SecondThoughts("Another pressure on Ann?", "player")
    assert asked.details() == {"ask": "Another pressure on Ann?"}


def test_the_engines_refusal_of_each_kind_of_change_stands_beside_its_field(monkeypatch):
    """A refusal the engine gives without a field of its own stands beside the box the change was
    typed in: the cards of leftovers, the player of a pressure, the text of a note."""
    from scorekeeper.gamelog import checks

    def refuses(state: GameState) -> None:
        raise ScoringError("the engine refuses it")

    monkeypatch.setattr(checks, "_verify", refuses)
    for change, field in (
        (Change(LEFTOVERS, 1, "Ann", {"cards": ["K"]}), "cards"),
        (Change(PRESSURE, 1, "Ann"), "player"),
        (Change(NOTE, 1, None, {"text": "a ruling"}), "text"),
    ):
        with pytest.raises(ChangeRefusal) as raised:
            accept(played(), change, Entry.of(change, 1, 1, "k", "test", AT))
        assert (str(raised.value), raised.value.field) == ("The engine refuses it.", field)
