"""What a folded log says stands now (``GameState``), without a database: the hands complete and
confirmed, the hand in play and its pressures with what each costs (5, then double the one before:
000), reminders and notes, what is set aside and why, and a state extended or stored keeping the
scores no new entry changes rather than working them out again."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest

from scorekeeper.gamelog import (
    CONFIRM,
    LEFTOVERS,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Appended,
    Change,
    ChangeRefusal,
    Entry,
    GameState,
    accept,
    replay,
)
from scorekeeper.scoring import Game, GameRecord, configure
from tests.support.helpers import entry

PLAYERS = ("Ann", "Bob", "Cy")
AT = "2026-11-28T12:00:00+00:00"


def crates(*entries: Entry, **how) -> GameState:
    return GameState.fold(Game(configure("crates"), PLAYERS), entries, **how)


def hand(number: int, first_id: int, ann: list[str], bob: list[str], cy: list[str]) -> tuple[Entry, ...]:
    return tuple(
        entry(first_id + index, LEFTOVERS, number, player, cards=cards)
        for index, (player, cards) in enumerate((("Ann", ann), ("Bob", bob), ("Cy", cy)))
    )


#: Hand 1: Ann K (10), Bob went out, Cy 5 (30).
HAND_1 = hand(1, 1, ["K"], [], ["5"])


def test_a_hand_is_complete_once_every_player_has_leftovers_and_then_the_next_is_in_play():
    state = crates(*HAND_1[:2])
    assert (state.complete_hands, state.current_hand, state.last_hand) == (0, 1, 1)
    assert state.next_seat_to_enter(1) == 2 and state.hand_leftovers(1).keys() == {"Ann", "Bob"}
    state = crates(*HAND_1)
    assert (state.complete_hands, state.current_hand, state.last_hand) == (1, 2, 2)
    assert state.next_seat_to_enter(1) is None and state.next_seat_to_enter(2) == 0
    assert state.hand_is_complete(1) and not state.hand_is_complete(2)


def test_a_crates_game_is_over_after_fifteen_hands():
    entries = [e for number in range(1, 16) for e in hand(number, 3 * number - 2, ["K"], [], ["5"])]
    state = crates(*entries[:-1])
    assert (state.complete_hands, state.current_hand, state.finished) == (14, 15, False)
    state = crates(*entries)
    assert (state.complete_hands, state.current_hand, state.last_hand, state.finished) == (15, None, 15, True)
    assert [side.total for side in state.score.sides] == [150, 0, 450]


def test_a_game_to_a_score_counts_no_hand_played_after_it_was_decided():
    # Crazy Eights (002): the winner collects the points the others hold; the game ends at 100.
    game = Game(configure("crazy-eights"), PLAYERS)
    decided = [
        entry(1, LEFTOVERS, 1, "Ann", cards=[]),
        entry(2, LEFTOVERS, 1, "Bob", cards=["8", "8"]),
        entry(3, LEFTOVERS, 1, "Cy", cards=["K"]),
    ]
    state = GameState.fold(game, decided)
    assert state.score.finished and state.complete_hands == 1 and state.current_hand is None
    after = GameState.fold(game, [*decided, *hand(2, 4, [], ["K"], ["Q"])])
    assert after.complete_hands == 1 and after.hand_score(2) is None


def test_each_hands_score_once_it_counts():
    state = crates(*HAND_1, entry(4, PRESSURE, 1, "Ann"))
    assert state.hand_score(0) is None and state.hand_score(2) is None
    scored = state.hand_score(1)
    assert scored is not None and {name: side.total for name, side in scored.sides.items()} == {
        "Ann": 15,
        "Bob": 0,
        "Cy": 30,
    }


def test_the_leftovers_and_pressures_that_stand_are_what_counts():
    state = crates(*HAND_1, entry(4, PRESSURE, 2, "Bob"), entry(5, PRESSURE, 2, "Cy"), entry(6, VOID, target=5))
    assert [e.id for e in state.counted()] == [1, 2, 3, 4]
    assert state.pressures_on(2, "Bob") == [state.by_id[4]] and state.pressures_on(2, "Cy") == []


def test_the_hand_in_plays_pressures_cost_5_then_double_the_one_before():
    state = crates(*HAND_1, entry(4, PRESSURE, 1, "Bob"), entry(5, PRESSURE, 2, "Bob"), entry(6, PRESSURE, 2, "Bob"))
    assert [(e.id, side, cost) for e, side, cost in state.pending_pressures()] == [(5, "Bob", 10), (6, "Bob", 20)]
    assert state.pressure_cost(state.by_id[6]) == 20
    assert state.pressure_cost(state.by_id[4]) is None  # hand 1's: scored, not pending
    assert (state.next_pressure("Bob"), state.next_pressure("Ann")) == (40, 5)


def test_a_game_without_pressures_prices_none():
    state = GameState.fold(Game(configure("crazy-eights"), PLAYERS), [])
    assert state.next_pressure("Ann") == 0


def test_a_finished_game_has_no_pressure_pending():
    entries = [e for number in range(1, 16) for e in hand(number, 3 * number - 2, ["K"], [], ["5"])]
    state = crates(*entries)
    assert state.pending_pressures() == []


def test_a_hand_is_final_once_confirmed_after_its_last_change():
    state = crates(*HAND_1, *hand(2, 4, ["Q"], [], ["K"]), entry(7, CONFIRM, 1, "Bob"))
    assert state.confirmed_by(1) == state.by_id[7] and state.confirmed_by(2) is None
    assert (state.final_hands, state.unconfirmed_hands) == (1, [2])
    # A correction made after the confirmation needs another.
    state = state.extended([entry(8, LEFTOVERS, 1, "Cy", target=3, cards=["Q"])])
    assert state.last_change(1) == state.by_id[8]
    assert state.confirmed_by(1) is None and (state.final_hands, state.unconfirmed_hands) == (0, [1, 2])
    state = state.extended([entry(9, CONFIRM, 1, "Ann"), entry(10, CONFIRM, 1, "Cy")])
    assert state.confirmed_by(1) == state.by_id[9] and state.final_hands == 1
    # Hand 2 confirmed does not make it final while hand 1 is not.
    state = crates(*HAND_1, *hand(2, 4, ["Q"], [], ["K"]), entry(7, CONFIRM, 2, "Bob"))
    assert state.final_hands == 0 and state.unconfirmed_hands == [1]


def test_undoing_a_change_of_a_confirmed_hand_is_its_last_change():
    state = crates(*HAND_1, entry(4, PRESSURE, 1, "Ann"), entry(5, CONFIRM, 1, "Bob"), entry(6, VOID, target=4))
    assert state.last_change(1) == state.by_id[6] and state.confirmed_by(1) is None
    assert crates(*HAND_1).last_change(2) is None and crates().confirmed_by(1) is None


def test_a_one_card_reminder_stands_until_cleared_or_undone():
    state = crates(entry(1, ONE_CARD, 1, "Cy", owes=True), entry(2, ONE_CARD, 1, "Ann", owes=True))
    assert state.owing(1) == ["Ann", "Cy"] and state.owing(2) == []
    assert state.extended([entry(3, ONE_CARD, 1, "Ann", owes=False)]).owing(1) == ["Cy"]
    assert state.extended([entry(3, VOID, target=2)]).owing(1) == ["Cy"]


def test_the_ruling_notes_are_each_hands_texts():
    state = crates(entry(1, NOTE, 1, text="a"), entry(2, NOTE, 1), entry(3, NOTE, 2, text="c"))
    assert state.ruling_notes() == {1: ["a", ""], 2: ["c"]}


def test_the_record_is_the_complete_hands_with_what_it_is_given():
    state = crates(*HAND_1, entry(4, LEFTOVERS, 2, "Ann", cards=["K"]))
    record = state.record({"title": "Table 3"})
    assert record == GameRecord(state.game, state.hands, {"title": "Table 3"})
    assert len(record.hands) == 1 and state.record().extra == {}


def test_what_is_set_aside_reads_as_the_entry_and_the_engines_reason():
    state = crates(
        entry(1, LEFTOVERS, 1, "Ann", cards=["K"]),
        entry(2, NOTE, 1),
        set_aside={1: "Hand 1: Ann holds a card twice", 2: "no text"},
    )
    assert state.set_aside_lines() == [
        (state.by_id[1], "Hand 1 · Ann's leftovers: K", "Ann holds a card twice"),
        (state.by_id[2], "Hand 1 · ruling note", "no text"),
    ]
    assert state.hand_leftovers(1) == {}


def test_a_state_extended_keeps_the_scores_a_note_cannot_change_and_the_original_unchanged():
    state = crates(*HAND_1, entry(4, PRESSURE, 2, "Ann"))
    score = state.score
    noted = state.extended([entry(5, NOTE, 2, text="x"), entry(6, PRESSURE, 2, "Bob")])
    assert noted.score is score and noted.complete_hands == 1
    assert state.version == 4 and 2 not in state.notes and noted.version == 6
    assert [cost for _, _, cost in noted.pending_pressures()] == [5, 5]
    assert [cost for _, _, cost in state.pending_pressures()] == [5]
    assert state.extended([]).pending_pressures() == state.pending_pressures()


def test_a_stored_entry_keeps_the_scores_its_check_worked_out():
    state = crates(*HAND_1[:2])
    change = Change(LEFTOVERS, 1, "Cy", {"cards": ["5"]})
    checked = accept(state, change, Entry.of(change, -3, 3, "k", "test", AT))
    assert checked.score.hands  # worked out once, when checked
    stored = state.stored(replace(checked.entries[-1], id=3), checked)
    assert stored.score is checked.score and stored.hands is checked.hands
    assert stored.by_id[3].id == 3 and -3 not in stored.by_id
    assert stored.score == crates(*HAND_1).score
    unscored = accept(state, change, Entry.of(change, -3, 3, "k", "test", AT))
    assert state.stored(replace(unscored.entries[-1], id=3), unscored).score == crates(*HAND_1).score


def test_states_of_one_game_share_the_score_of_the_same_complete_hands():
    first = crates(*HAND_1, memo_key="game-token-1")
    again = crates(*HAND_1, entry(4, NOTE, 2, text="x"), memo_key="game-token-1")
    assert again.score is first.score
    assert crates(*HAND_1, memo_key="game-token-2").score is not first.score
    other = crates(*HAND_1[:2], entry(4, LEFTOVERS, 1, "Cy", cards=["K"]), memo_key="game-token-1")
    assert other.score is not first.score and other.score != first.score


def test_a_states_repr_leaves_out_its_working_stacks():
    shown = repr(crates(*HAND_1))
    assert "leftovers=" in shown and "_leftover_stack" not in shown
    assert "_one_card_stack" not in shown and "_scored_before" not in shown


def test_a_hand_completed_after_scored_ones_is_scored_on_from_them_not_replayed(monkeypatch):
    # "A table's save then scores the hand it completes, not every hand again" (score_game).
    from scorekeeper.gamelog import state as state_module

    went_on_from: list[int | None] = []
    real = state_module.score_game

    def recording(game, hands, until_decided=False, scored_before=None):
        went_on_from.append(None if scored_before is None else len(scored_before.hands))
        return real(game, hands, until_decided, scored_before)

    monkeypatch.setattr(state_module, "score_game", recording)
    state = crates(*HAND_1, *hand(2, 4, ["Q"], [], ["K"]))
    assert len(state.score.hands) == 2
    went_on_from.clear()
    state = state.extended([entry(7, PRESSURE, 3, "Ann"), *hand(3, 8, ["K"], ["Q"], [])])
    assert [side.total for side in state.score.sides] == [35, 10, 40]
    assert went_on_from == [2]
    # Scored once more from there: the next hand goes on from the three.
    went_on_from.clear()
    state = state.extended([entry(11, NOTE, 4, text="x"), *hand(4, 12, ["K"], [], ["5"])])
    assert len(state.score.hands) == 4 and went_on_from == [3]


def test_a_pressure_added_to_a_complete_hand_scores_it_again():
    state = crates(*HAND_1, *hand(2, 4, ["Q"], [], ["K"]))
    assert [side.total for side in state.score.sides] == [20, 0, 40]
    for number in (1, 2):
        late = state.extended([entry(7, PRESSURE, number, "Bob")])
        assert [side.total for side in late.score.sides] == [20, 5, 40]
        assert late.score == GameState.fold(state.game, late.entries).score


def test_a_correction_in_the_last_complete_hand_scores_it_again():
    state = crates(*HAND_1)
    assert [side.total for side in state.score.sides] == [10, 0, 30]
    corrected = state.extended([entry(4, LEFTOVERS, 1, "Cy", target=3, cards=["8"])])
    assert [side.total for side in corrected.score.sides] == [10, 0, 50]


def test_an_undo_of_an_entry_not_in_the_log_withdraws_nothing():
    state = crates(*HAND_1, entry(4, VOID, target=99))
    assert state.voided == {99} and state.hand_leftovers(1).keys() == {"Ann", "Bob", "Cy"}
    assert state.complete_hands == 1


def test_a_one_card_reminder_of_no_player_marks_no_one():
    state = crates(entry(1, ONE_CARD, 1, None, owes=True), entry(2, LEFTOVERS, 1, None, cards=["K"]))
    assert state.owes_two == {} and state.leftovers == {}


def test_leftovers_of_a_hand_past_the_games_last_never_make_it_complete():
    entries = [e for number in range(1, 17) for e in hand(number, 3 * number - 2, ["K"], [], ["5"])]
    state = crates(*entries)
    assert state.complete_hands == 15 and state.finished


def test_a_confirmation_of_a_hand_without_a_change_confirms_it():
    state = crates(entry(1, CONFIRM, 1, "Bob"))
    assert state.last_change(1) is None and state.confirmed_by(1) == state.by_id[1]


def test_a_stored_pressure_on_nobody_in_a_complete_hand_is_set_aside_naming_no_one():
    state = replay(Game(configure("crates"), PLAYERS), [*HAND_1, entry(4, PRESSURE, 1, None)])
    assert state.set_aside == {4: "Hand 1: pressure to '', who is not a player of this game."}


def test_a_pressure_on_nobody_in_the_hand_in_play_is_refused_when_priced():
    state = crates(entry(1, PRESSURE, 1, None))
    with pytest.raises(ChangeRefusal) as raised:
        state.pending_pressures()
    assert (str(raised.value), raised.value.field) == ("None is not a player of this game.", "player")


def test_each_of_several_hands_is_scored_as_its_own():
    state = crates(*HAND_1, *hand(2, 4, ["Q"], ["8"], []))
    first, second = state.hand_score(1), state.hand_score(2)
    assert first is not None and second is not None
    assert [side.total for side in first.sides.values()] == [10, 0, 30]
    assert [side.total for side in second.sides.values()] == [10, 50, 0]
    assert state.hand_score(3) is None


def test_a_change_taken_cannot_be_changed():
    taken = Appended(HAND_1[0], crates(HAND_1[0]), duplicate=False)
    with pytest.raises(FrozenInstanceError):
        taken.duplicate = True  # type: ignore[misc]


def test_undoing_a_change_of_another_hand_leaves_a_hands_confirmation_standing():
    state = crates(*HAND_1, entry(4, CONFIRM, 1, "Bob"), entry(5, PRESSURE, 2, "Ann"), entry(6, VOID, target=5))
    assert state.last_change(1) == state.by_id[3] and state.confirmed_by(1) == state.by_id[4]
    assert state.last_change(2) == state.by_id[6]


def test_a_confirmation_of_the_hand_in_play_makes_no_more_hands_final():
    state = crates(*HAND_1, entry(4, CONFIRM, 1, "Bob"), entry(5, CONFIRM, 2, "Bob"))
    assert state.final_hands == 1 and state.unconfirmed_hands == []
