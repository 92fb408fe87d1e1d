"""What the log takes of a save (``taking.take``), without a database: a retry answered with what
it saved, a submission key reused or missing, a game locked by the director, a second pressure
asked about (tapped within SAME_PRESSURE_SECONDS, 5 s, of the last on the same player), and
several changes saved together: folded on in turn, or refused naming the change refused, every
conflict with another phone's entries named at once."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from scorekeeper.gamelog import (
    LEFTOVERS,
    NOTE,
    PRESSURE,
    VOID,
    Change,
    ChangeRefusal,
    GameLocked,
    GameState,
    SecondThoughts,
    Sender,
    StaleEdit,
    StaleEdits,
    take,
)
from scorekeeper.gamelog.taking import DIRECTOR
from scorekeeper.scoring import Game, configure

PLAYERS = ("Ann", "Bob", "Cy")
AT = "2026-11-28T12:00:00+00:00"
PHONE = Sender("phone 1", AT)


def fresh() -> GameState:
    return GameState.fold(Game(configure("crates"), PLAYERS), [])


def leftovers(hand: int, player: str, cards: str, target: int | None = None) -> Change:
    return Change(LEFTOVERS, hand, player, {"cards": cards.split()}, target)


def pressure(player: str, at: str, hand: int = 1, again: bool = False) -> Change:
    return Change(PRESSURE, hand, player, at=at, again=again)


def at(seconds: int) -> str:
    return f"2026-11-28T12:00:{seconds:02d}+00:00"


def saved(state: GameState, changes: Sequence[tuple[Change, str]], sender: Sender = PHONE) -> GameState:
    """The state once storage has stored what the save took, each entry with its own id (100 past its place)."""
    for item in take(state, changes, sender).new:
        state = state.stored(dataclasses.replace(item.entry, id=item.entry.seq + 100), item.state)
    return state


def refused(state: GameState, changes: list[tuple[Change, str]], sender: Sender = PHONE, **how: bool) -> ChangeRefusal:
    with pytest.raises(ChangeRefusal) as raised:
        take(state, changes, sender, **how)
    return raised.value


def test_changes_saved_together_are_folded_on_in_turn():
    taken = take(fresh(), [(leftovers(1, "Ann", "K"), "k1"), (leftovers(1, "Bob", "Q"), "k2")], PHONE)
    assert [item.entry.player for item in taken.appended] == ["Ann", "Bob"]
    assert [item.entry.id for item in taken.appended] == [-1, -2]  # stand-in ids until stored
    assert [item.entry.seq for item in taken.appended] == [1, 2]
    assert [item.state.version for item in taken.appended] == [1, 2]
    assert taken.last is taken.appended[-1] and taken.state is taken.appended[-1].state
    assert taken.state.hand_leftovers(1).keys() == {"Ann", "Bob"}
    assert taken.new == list(taken.appended)
    assert taken.next_seat == 2  # Cy's leftovers are still to come
    assert not taken.corrects
    assert taken.said == "Bob's leftovers saved (10)."
    assert {item.entry.source for item in taken.appended} == {"phone 1"}


def test_the_next_seat_is_the_first_one_still_to_enter_and_none_once_the_hand_is_complete():
    state = saved(fresh(), [(leftovers(1, "Bob", "K"), "k1")])
    assert take(state, [(leftovers(1, "Cy", "Q"), "k2")], PHONE).next_seat == 0
    taken = take(state, [(leftovers(1, "Ann", "Q"), "k2"), (leftovers(1, "Cy", ""), "k3")], PHONE)
    assert taken.next_seat is None


def test_a_save_that_corrects_an_entry_says_so():
    state = saved(fresh(), [(leftovers(1, "Ann", "K"), "k1")])
    first = state.leftovers[(1, "Ann")].id
    taken = take(state, [(leftovers(1, "Bob", "Q"), "k2"), (leftovers(1, "Ann", "J", target=first), "k3")], PHONE)
    assert taken.corrects


def test_a_retry_is_answered_with_what_it_saved_and_stores_nothing_new():
    first = take(fresh(), [(leftovers(1, "Ann", "K"), "k1")], PHONE)
    again = take(first.state, [(leftovers(1, "Ann", "K"), "k1")], PHONE)
    assert again.last.duplicate and again.new == []
    assert again.last.entry == first.last.entry and again.state.version == 1
    mixed = take(first.state, [(leftovers(1, "Ann", "K"), "k1"), (leftovers(1, "Bob", "Q"), "k2")], PHONE)
    assert [item.duplicate for item in mixed.appended] == [True, False]
    assert [item.entry.player for item in mixed.new] == ["Bob"]


def test_a_key_reused_for_another_change_is_refused():
    state = saved(fresh(), [(leftovers(1, "Ann", "K"), "k1")])
    error = refused(state, [(leftovers(1, "Ann", "Q"), "k1")])
    assert str(error) == "This submission was already used for a different change: reload the page and try again."


def test_a_submission_key_is_needed_and_of_at_most_100_characters():
    assert take(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), "k" * 100)], PHONE).state.version == 1
    for key in ("", "k" * 101):
        error = refused(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), key)])
        assert str(error) == "this form is missing its submission key: reload the page and try again."


def test_a_locked_game_takes_the_directors_changes_only():
    error = refused(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), "k1")], locked=True)
    assert isinstance(error, GameLocked)
    assert str(error) == "This game is locked by the director: only the director can change it now."
    assert error.details() == {"locked": True}
    director = Sender(DIRECTOR, AT, director=True)
    assert take(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), "k1")], director, locked=True).last.entry.source == (
        "director"
    )
    assert take(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), "k1")], PHONE).state.version == 1


def test_a_retry_to_a_game_locked_since_is_still_answered():
    state = saved(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), "k1")])
    assert take(state, [(Change(NOTE, 1, None, {"text": "x"}), "k1")], PHONE, locked=True).last.duplicate


def test_a_second_pressure_on_a_player_within_five_seconds_is_asked_about():
    state = saved(fresh(), [(pressure("Ann", at(0)), "k1")])
    asked = refused(state, [(pressure("Ann", at(5)), "k2")])
    assert isinstance(asked, SecondThoughts) and asked.field == "player"
    assert str(asked) == "Another pressure on Ann? One was recorded moments ago."
    other_phone = refused(state, [(pressure("Ann", at(5)), "k2")], Sender("phone 2", AT))
    assert str(other_phone) == "Ann's pressure was just recorded on another phone. Is this a second one?"
    assert isinstance(other_phone, SecondThoughts) and other_phone.field == "player"
    # Tapped before the one recorded (another phone's, delivered later) is as close.
    assert isinstance(refused(state, [(pressure("Ann", "2026-11-28T11:59:56+00:00"), "k2")]), SecondThoughts)


def test_a_second_pressure_said_again_or_later_or_on_another_player_is_taken():
    state = saved(fresh(), [(pressure("Ann", at(0)), "k1")])
    assert take(state, [(pressure("Ann", at(5), again=True), "k2")], PHONE).state.version == 2
    assert take(state, [(pressure("Ann", at(6)), "k2")], PHONE).state.version == 2
    assert take(state, [(pressure("Bob", at(1)), "k2")], PHONE).state.version == 2
    # A pressure that does not say when it was tapped is not compared.
    assert take(state, [(Change(PRESSURE, 1, "Ann"), "k2")], PHONE).state.version == 2


def test_a_pressure_of_no_hand_is_refused_as_such_not_asked_about():
    state = saved(fresh(), [(pressure("Ann", at(0)), "k1")])
    error = refused(state, [(Change(PRESSURE, None, "Ann", at=at(1)), "k2")])
    assert not isinstance(error, SecondThoughts) and error.field == "hand"


def test_the_first_refusal_of_changes_saved_together_is_the_one_given_with_its_index():
    error = refused(
        fresh(),
        [
            (leftovers(1, "Ann", "K"), "k1"),
            (leftovers(1, "Zed", "K"), "k2"),
            (leftovers(5, "Bob", "K"), "k3"),
        ],
    )
    assert error.index == 1 and "'Zed' is not a player of this game" in str(error)


def test_one_conflict_is_refused_as_itself_and_several_all_at_once():
    state = saved(fresh(), [(leftovers(1, "Ann", "K"), "k1"), (leftovers(1, "Bob", "Q"), "k2")])
    one = refused(state, [(leftovers(1, "Cy", ""), "k3"), (leftovers(1, "Bob", "J"), "k4")])
    assert type(one) is StaleEdit and one.index == 1 and one.player == "Bob"
    both = refused(
        state, [(leftovers(1, "Ann", "J"), "k3"), (leftovers(1, "Zed", "J"), "k4"), (leftovers(1, "Bob", "J"), "k5")]
    )
    assert isinstance(both, StaleEdits)
    assert [(error.index, error.player) for error in both.conflicts] == [(0, "Ann"), (2, "Bob")]


def test_a_conflict_is_given_before_another_refusal():
    state = saved(fresh(), [(leftovers(1, "Ann", "K"), "k1")])
    error = refused(state, [(leftovers(1, "Zed", "J"), "k2"), (leftovers(1, "Ann", "J"), "k3")])
    assert isinstance(error, StaleEdit) and error.index == 1


def test_an_undo_is_taken_and_counts_as_changing_what_was_entered():
    state = saved(fresh(), [(leftovers(1, "Bob", "K"), "k1")])
    taken = take(state, [(Change(VOID, target=state.leftovers[(1, "Bob")].id), "k2")], PHONE)
    assert taken.state.hand_leftovers(1) == {}
    assert taken.corrects and taken.said == "Undone: Hand 1 · Bob's leftovers (K)."


def test_a_sender_and_what_is_taken_cannot_be_changed():
    taken = take(fresh(), [(Change(NOTE, 1, None, {"text": "x"}), "k1")], PHONE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        PHONE.source = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        taken.said = "other"  # type: ignore[misc]
    assert Sender("phone", AT).director is False
