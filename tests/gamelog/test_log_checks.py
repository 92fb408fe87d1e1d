"""The game log's own checks, without a database: which refusal a change meets, and the field it
carries, so that the phone shows it beside the right box."""

from __future__ import annotations

import pytest

from scorekeeper.gamelog import (
    LEFTOVERS,
    NOTE,
    NOTE_MAX_LENGTH,
    Change,
    ChangeRefusal,
    Entry,
    GameState,
    StaleEdit,
)
from scorekeeper.gamelog.checks import check_change
from scorekeeper.scoring import Game, configure

PLAYERS = ("Ann", "Bob", "Cy")


def entry(id_: int, kind: str, hand: int | None = None, player: str | None = None, target: int | None = None, **data):
    return Entry(id_, id_, kind, hand, player, data, target, "test", "2026-11-28T12:00:00Z")


def played(*entries: Entry) -> GameState:
    return GameState.fold(Game(configure("crates"), PLAYERS), entries)


def leftovers(hand: int, player: str, cards: str, target: int | None = None) -> Change:
    return Change(LEFTOVERS, hand, player, {"cards": cards.split()}, target)


#: Ann's hand 1 entered (1), then corrected (2); Bob's hand 1 entered (3).
CORRECTED = (
    entry(1, LEFTOVERS, 1, "Ann", cards=["K"]),
    entry(2, LEFTOVERS, 1, "Ann", target=1, cards=["Q"]),
    entry(3, LEFTOVERS, 1, "Bob", cards=["5"]),
)


def refusal(state: GameState, change: Change) -> ChangeRefusal:
    with pytest.raises(ChangeRefusal) as raised:
        check_change(state, change)
    return raised.value


def test_a_correction_of_the_leftovers_that_stand_is_allowed():
    check_change(played(*CORRECTED), leftovers(1, "Ann", "J", target=2))


def test_a_correction_aimed_at_another_games_entry_is_refused_not_as_a_conflict():
    refused = refusal(played(*CORRECTED), leftovers(1, "Ann", "J", target=99))
    assert not isinstance(refused, StaleEdit)
    assert str(refused) == "The leftovers this corrects are not this game's: reload the page."
    assert (refused.field, refused.status) == ("cards", 422)


def test_a_correction_aimed_at_another_players_leftovers_is_refused_not_as_a_conflict():
    refused = refusal(played(*CORRECTED), leftovers(1, "Ann", "J", target=3))
    assert not isinstance(refused, StaleEdit)
    assert str(refused) == "What this corrects is not Ann's leftovers for hand 1: reload the page."
    assert refused.field == "cards"


def test_a_correction_of_a_superseded_version_is_a_conflict_showing_what_stands_now():
    refused = refusal(played(*CORRECTED), leftovers(1, "Ann", "J", target=1))
    assert isinstance(refused, StaleEdit) and refused.status == 409
    assert refused.current is not None and refused.current.id == 2
    assert (refused.field, refused.player) == ("cards", "Ann")
    assert "were entered meanwhile (Q)" in str(refused)


def test_leftovers_entered_when_the_form_saw_none_are_a_conflict_too():
    refused = refusal(played(*CORRECTED), leftovers(1, "Bob", "J"))
    assert isinstance(refused, StaleEdit) and refused.current is not None and refused.current.id == 3


def test_a_note_of_exactly_the_longest_length_is_taken_and_one_more_character_is_refused():
    state = played()
    check_change(state, Change(NOTE, 1, None, {"text": "a" * NOTE_MAX_LENGTH}))
    refused = refusal(state, Change(NOTE, 1, None, {"text": "a" * (NOTE_MAX_LENGTH + 1)}))
    assert refused.field == "text" and f"at most {NOTE_MAX_LENGTH} characters" in str(refused)


def test_a_change_of_a_kind_the_log_does_not_know_is_refused():
    refused = refusal(played(), Change("shuffle", 1, "Ann"))
    assert str(refused) == "unknown change 'shuffle'."


def test_a_player_not_of_this_game_is_refused_beside_the_player():
    refused = refusal(played(), leftovers(1, "Zed", "K"))
    assert refused.field == "player" and "'Zed' is not a player of this game" in str(refused)
