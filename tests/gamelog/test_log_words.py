"""What the log says in words, without a database: a history line for each kind of entry
(``history.describe``: what, the value it replaced, the value now) and the sentence a save is
answered with (``said.said_of``), as the phone's ``static/said.js`` words the same changes.

Points are the rule book's (000: K 10, Q 10, J 10, 5 30, 8 50, A 1); a pressure costs 5, then
double the one before, for each player (three players: no partnerships)."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.gamelog import (
    CONFIRM,
    LEFTOVERS,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    Entry,
    GameState,
    Sender,
    describe,
    take,
)
from scorekeeper.gamelog.said import said_of
from scorekeeper.scoring import Game, configure
from tests.support.helpers import entry

PLAYERS = ("Ann", "Bob", "Cy")
NOW = "2026-11-28T12:00:00+00:00"


def log(*entries: Entry) -> dict[int, Entry]:
    return {e.id: e for e in entries}


# History lines --------------------------------------------------------------

ANN_K = entry(1, LEFTOVERS, 2, "Ann", cards=["K", "5"])
ANN_OUT = entry(2, LEFTOVERS, 2, "Ann", target=1, cards=[])


def test_leftovers_read_as_the_players_cards():
    assert describe(ANN_K, log(ANN_K)) == ("Hand 2 · Ann's leftovers", "", "K 5")


def test_a_correction_reads_with_the_cards_it_replaced():
    assert describe(ANN_OUT, log(ANN_K, ANN_OUT)) == ("Hand 2 · Ann's leftovers corrected", "K 5", "went out")


def test_a_correction_of_an_entry_not_in_the_log_reads_as_plain_leftovers():
    stray = entry(3, LEFTOVERS, 2, "Ann", target=9, cards=["Q"])
    assert describe(stray, log(ANN_K, stray)) == ("Hand 2 · Ann's leftovers", "", "Q")


def test_a_pressure_a_note_a_confirmation_and_a_reminder_read_with_their_hand():
    assert describe(entry(1, PRESSURE, 3, "Bob"), {}) == ("Hand 3 · pressure", "", "Bob")
    assert describe(entry(1, NOTE, 3, text="Cy misdealt"), {}) == ("Hand 3 · ruling note", "", "Cy misdealt")
    assert describe(entry(1, NOTE, 3), {}) == ("Hand 3 · ruling note", "", "")
    assert describe(entry(1, CONFIRM, 3, "Cy"), {}) == ("Hand 3 · confirmed", "", "by Cy")
    owes = describe(entry(1, ONE_CARD, 3, "Ann", owes=True), {})
    assert owes == ("Hand 3 · one card: Ann", "", "owes two cards")
    cleared = describe(entry(1, ONE_CARD, 3, "Ann", owes=False), {})
    assert cleared == ("Hand 3 · one card: Ann", "", "reminder cleared")


def test_an_entry_of_no_hand_reads_as_the_games():
    assert describe(entry(1, NOTE, None, text="late start"), {}) == ("Game · ruling note", "", "late start")


def test_an_undo_reads_as_what_it_undid_and_the_value_it_removed():
    undo = entry(3, VOID, target=2)
    assert describe(undo, log(ANN_K, ANN_OUT, undo)) == (
        "Undone: Hand 2 · Ann's leftovers corrected",
        "went out",
        "removed",
    )
    pressure, undo = entry(1, PRESSURE, 1, "Bob"), entry(2, VOID, target=1)
    assert describe(undo, log(pressure, undo)) == ("Undone: Hand 1 · pressure", "Bob", "removed")


def test_an_undo_of_nothing_in_the_log_reads_as_undo_alone():
    assert describe(entry(2, VOID, target=7), log(ANN_K)) == ("Undo", "", "")
    # No target at all finds nothing either, not the log's first entry.
    assert describe(entry(2, VOID), log(ANN_K)) == ("Undo", "", "")


# What a save is answered with ------------------------------------------------


def saved(state: GameState, *changes: Change, whole_hand: bool = False) -> tuple[GameState, str]:
    """What the save is answered with, and the state once stored (each entry its id: 100 past its place)."""
    keys = [f"key-{state.version}-{index}" for index in range(len(changes))]
    taken = take(state, list(zip(changes, keys, strict=True)), Sender("phone", NOW), whole_hand=whole_hand)
    for item in taken.new:
        state = state.stored(replace(item.entry, id=item.entry.seq + 100), item.state)
    return state, taken.said


def fresh() -> GameState:
    return GameState.fold(Game(configure("crates"), PLAYERS), [])


def leftovers(hand: int, player: str, cards: str, target: int | None = None) -> Change:
    return Change(LEFTOVERS, hand, player, {"cards": cards.split()}, target)


def test_a_pressure_is_said_with_its_cost_and_the_players_next():
    state, said = saved(fresh(), Change(PRESSURE, 1, "Bob", again=True))
    assert said == "Pressure to Bob: 5. Bob's next costs 10."
    state, said = saved(state, Change(PRESSURE, 1, "Bob", again=True))
    assert said == "Pressure to Bob: 10. Bob's next costs 20."
    state, said = saved(state, Change(PRESSURE, 1, "Cy", again=True))
    assert said == "Pressure to Cy: 5. Cy's next costs 10."


def test_a_note_a_reminder_and_a_confirmation_are_said_so():
    assert saved(fresh(), Change(NOTE, 1, None, {"text": "a ruling"}))[1] == "Ruling noted on hand 1."
    assert saved(fresh(), Change(ONE_CARD, 1, "Ann", {"owes": True}))[1] == "Ann owes two cards."
    assert saved(fresh(), Change(ONE_CARD, 1, "Ann", {"owes": False}))[1] == "Ann's reminder cleared."
    state, _ = saved(fresh(), leftovers(1, "Ann", "K"), leftovers(1, "Bob", ""), leftovers(1, "Cy", "Q"))
    assert saved(state, Change(CONFIRM, 1, "Bob"))[1] == "Hand 1 confirmed by Bob."


def test_one_players_leftovers_are_said_with_their_points_and_no_score_while_a_seat_is_to_enter():
    state, said = saved(fresh(), leftovers(1, "Ann", "K 5"))
    assert said == "Ann's leftovers saved (40)."
    state, said = saved(state, leftovers(1, "Ann", "Q", target=state.leftovers[(1, "Ann")].id))
    assert said == "Ann's leftovers corrected (10)."


def test_the_leftovers_that_complete_a_hand_are_said_with_the_hands_score():
    state, _ = saved(fresh(), Change(PRESSURE, 1, "Bob", again=True))
    state, _ = saved(state, leftovers(1, "Ann", "K 5"))
    state, _ = saved(state, leftovers(1, "Bob", "A"))
    state, said = saved(state, leftovers(1, "Cy", ""))
    assert said == "Cy's leftovers saved (0). Hand 1 is complete: Ann 40, Bob 6, Cy 0."


def test_a_whole_hand_saved_together_is_said_player_by_player_then_the_hand():
    _, said = saved(
        fresh(), leftovers(1, "Ann", "8"), leftovers(1, "Bob", "J A"), leftovers(1, "Cy", ""), whole_hand=True
    )
    assert said == "Leftovers saved: Ann 50, Bob 11, Cy 0. Hand 1 is complete: Ann 50, Bob 11, Cy 0."


def test_a_whole_hands_save_of_one_correction_is_said_corrected_and_of_one_new_entry_saved():
    state, said = saved(fresh(), leftovers(1, "Ann", "8"), whole_hand=True)
    assert said == "Leftovers saved: Ann 50."
    first = state.leftovers[(1, "Ann")].id
    state, said = saved(state, leftovers(1, "Ann", "Q", target=first), whole_hand=True)
    assert said == "Leftovers corrected: Ann 10."


def test_a_whole_hands_save_ending_on_a_correction_among_others_is_said_saved():
    state, _ = saved(fresh(), leftovers(1, "Ann", "8"))
    first = state.leftovers[(1, "Ann")].id
    _, said = saved(state, leftovers(1, "Bob", "Q"), leftovers(1, "Ann", "K", target=first), whole_hand=True)
    assert said == "Leftovers saved: Bob 10, Ann 10."


def test_an_undo_is_said_with_what_it_removed():
    state, _ = saved(fresh(), Change(PRESSURE, 1, "Cy", again=True))
    pressure = state.pressures[1][0].id
    assert saved(state, Change(VOID, target=pressure))[1] == "Undone: Hand 1 · pressure (Cy)."
    state, _ = saved(fresh(), leftovers(1, "Ann", "K"), leftovers(1, "Bob", ""), leftovers(1, "Cy", "Q"))
    state, _ = saved(state, Change(CONFIRM, 1, "Ann"))
    confirmation = state.confirmations[1][0].id
    assert saved(state, Change(VOID, target=confirmation))[1] == "Undone: Hand 1 · confirmed (by Ann)."


def test_leftovers_said_without_saying_how_they_were_saved_are_one_players():
    taken = take(fresh(), [(leftovers(1, "Ann", "K"), "k1")], Sender("phone", NOW))
    assert said_of(taken.appended) == "Ann's leftovers saved (10)."


def test_a_pressure_added_to_a_complete_hand_is_said_without_a_cost_of_the_hand_in_play():
    state, _ = saved(fresh(), leftovers(1, "Ann", "K"), leftovers(1, "Bob", ""), leftovers(1, "Cy", "Q"))
    assert saved(state, Change(PRESSURE, 1, "Bob", again=True))[1] == "Pressure to Bob. Bob's next costs 10."


def test_undoing_a_note_of_no_text_an_older_version_stored_is_said_without_a_value():
    state = GameState.fold(Game(configure("crates"), PLAYERS), [entry(1, NOTE, 1)])
    assert saved(state, Change(VOID, target=1))[1] == "Undone: Hand 1 · ruling note."
