"""The game log's own checks, without a database: which refusal a change meets, and the field it
carries, so that the phone shows it beside the right box."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.gamelog import (
    CONFIRM,
    LEFTOVERS,
    MAX_ENTRIES,
    MAX_PRESSURES_IN_A_HAND,
    NOTE,
    NOTE_MAX_LENGTH,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    ChangeRefusal,
    Entry,
    GameState,
    StaleEdit,
    accept,
    accept_record,
    replay,
)
from scorekeeper.gamelog.checks import check_change, engine_refusal
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


def test_a_change_the_engine_refuses_is_refused_beside_the_changes_own_field():
    # Ann and Bob went out; Cy going out too passes the change's own checks, but the engine
    # refuses the hand (nobody holds a card): the refusal stands beside the cards typed.
    state = played(entry(1, LEFTOVERS, 1, "Ann", cards=[]), entry(2, LEFTOVERS, 1, "Bob", cards=[]))
    with pytest.raises(ChangeRefusal) as raised:
        accept(state, leftovers(1, "Cy", ""), entry(3, LEFTOVERS, 1, "Cy", cards=[]))
    assert "nobody has any cards left" in str(raised.value)
    assert raised.value.field == "cards"


#: An imported record's first hand: Ann's and Bob's leftovers, Cy out, a pressure, a note.
RECORD = (
    entry(1, LEFTOVERS, 1, "Ann", cards=["K"]),
    entry(2, PRESSURE, 1, "Bob"),
    entry(3, NOTE, 1, text="Bob's pressure: a card played out of turn"),
    entry(4, LEFTOVERS, 1, "Bob", cards=["5"]),
    entry(5, LEFTOVERS, 1, "Cy", cards=[]),
)


def crates_record(entries) -> GameState:
    return accept_record(Game(configure("crates"), PLAYERS), entries)


def test_an_imported_record_of_leftovers_pressures_and_notes_is_taken_whole():
    # Hand 1 complete opens hand 2, where a note may already stand.
    state = crates_record((*RECORD, entry(6, NOTE, 2, text="Cy deals")))
    assert state.version == 6 and state.complete_hands == 1 and state.last_hand == 2


def test_a_change_taken_is_the_state_with_its_entry_on_the_end():
    state = played(*CORRECTED)
    after = accept(state, leftovers(1, "Cy", "A"), entry(4, LEFTOVERS, 1, "Cy", cards=["A"]))
    assert after.version == 4 and after.complete_hands == 1 and state.version == 3


def test_a_record_may_hold_as_many_changes_as_a_game_and_no_more():
    notes = [entry(n, NOTE, 1, text="a ruling") for n in range(1, MAX_ENTRIES + 1)]
    assert crates_record(notes).version == MAX_ENTRIES
    with pytest.raises(ChangeRefusal, match=f"This record holds {MAX_ENTRIES + 1} changes"):
        crates_record([*notes, entry(MAX_ENTRIES + 1, NOTE, 1, text="one more")])


def pressures(first_id: int, hand: int, count: int) -> list[Entry]:
    return [entry(first_id + n, PRESSURE, hand, "Ann") for n in range(count)]


def test_a_record_holds_as_many_pressures_a_hand_as_a_hand_can_and_no_more():
    most = MAX_PRESSURES_IN_A_HAND  # the record's hand 1 has Bob's pressure and these
    two_hands = [*pressures(10, 1, most - 1), *RECORD, *pressures(100, 2, most)]
    assert crates_record(two_hands).version == 2 * most - 1 + len(RECORD)
    with pytest.raises(ChangeRefusal, match=f"Hand 1 holds more than {most} pressures, the most a hand can"):
        crates_record([*pressures(10, 1, most), *RECORD])


def test_a_record_with_a_change_in_a_hand_not_open_yet_is_refused():
    with pytest.raises(ChangeRefusal, match="Hand 3 is not open: hands 1 to 2 are"):
        crates_record((*RECORD, entry(6, NOTE, 3, text="too early")))


def test_a_note_in_a_record_must_say_something():
    with pytest.raises(ChangeRefusal, match="write the ruling first"):
        crates_record((*RECORD, entry(6, NOTE, 1)))


@pytest.mark.parametrize(
    "odd",
    [
        entry(6, VOID, 1, target=4),
        entry(6, LEFTOVERS, 1, "Bob", target=4, cards=["Q"]),
        entry(6, CONFIRM, 1, "Ann"),
        entry(6, NOTE, 0, text="before the first hand"),
    ],
    ids=["an undo", "a correction", "a confirmation", "hand 0"],
)
def test_a_record_holds_no_undo_correction_confirmation_nor_hand_before_the_first(odd):
    with pytest.raises(ChangeRefusal, match="a record cannot hold this change"):
        accept_record(Game(configure("crates"), PLAYERS), (*RECORD, odd))


def test_an_engine_that_breaks_refuses_the_change_in_words_and_logs_why(monkeypatch, caplog):
    # A bug in a rule set must refuse the change, never break the game's page.
    state = played(entry(1, LEFTOVERS, 1, "Ann", cards=["K"]))

    def broken(self, leftovers):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(type(state.game.rules), "check_leftovers", broken)
    refused = engine_refusal(state)
    assert refused is not None
    assert str(refused) == "The scoring engine could not take this change (ZeroDivisionError)."
    assert "the engine failed on a game's log" in caplog.text


def test_what_the_engine_refuses_in_what_stands_is_said_as_a_sentence():
    # Ann, Bob and Cy all out: the engine's refusal, with a capital and a full stop.
    state = played(*(entry(n, LEFTOVERS, 1, name, cards=[]) for n, name in enumerate(PLAYERS, start=1)))
    refused = engine_refusal(state)
    assert refused is not None and str(refused).startswith("Hand 1: nobody has any cards left")
    assert engine_refusal(played(*CORRECTED)) is None


def test_a_stored_log_the_engine_refuses_opens_with_the_oldest_entry_that_repairs_it_set_aside():
    # A log an older version let break (everyone out in hand 1) still opens: withdrawing Ann's
    # entry, the oldest whose withdrawal repairs the hand, lets it score; the reason is kept.
    everyone_out = [entry(n, LEFTOVERS, 1, name, cards=[]) for n, name in enumerate(PLAYERS, start=1)]
    state = replay(Game(configure("crates"), PLAYERS), everyone_out)
    assert list(state.set_aside) == [1]
    assert state.set_aside[1].startswith("Hand 1: nobody has any cards left")
    assert engine_refusal(state) is None
    assert replay(Game(configure("crates"), PLAYERS), CORRECTED).set_aside == {}


# -- Each kind of change, refused where the table's state does not allow it ----------------------

#: Hand 1 complete (Ann K, Bob 5, Cy A) from phone "a" at 10.0.0.1: hand 2 is in play.
HAND_ONE = tuple(
    replace(entry(n, LEFTOVERS, 1, name, cards=[card]), source="a", address="10.0.0.1")
    for n, (name, card) in enumerate(zip(PLAYERS, ["K", "5", "A"], strict=True), start=1)
)


@pytest.mark.parametrize("hand", [None, 0, 3])
def test_a_change_to_a_hand_not_open_is_refused_beside_the_hand(hand):
    refused = refusal(played(*HAND_ONE), Change(NOTE, hand, None, {"text": "a ruling"}))
    assert (str(refused), refused.field) == (f"hand {hand} is not open: hands 1 to 2 are.", "hand")


def test_a_game_holding_the_most_changes_takes_no_more():
    full = played(*(entry(n, NOTE, 1, text="a ruling") for n in range(1, MAX_ENTRIES + 1)))
    refused = refusal(full, Change(NOTE, 1, None, {"text": "one more"}))
    assert str(refused) == f"This game holds {MAX_ENTRIES} changes, the most one game can: start a new game."
    check_change(
        played(*(entry(n, NOTE, 1, text="a ruling") for n in range(1, MAX_ENTRIES))),
        Change(NOTE, 1, None, {"text": "the last"}),
    )


def test_a_hand_takes_as_many_pressures_as_a_hand_can_and_no_more():
    most = MAX_PRESSURES_IN_A_HAND
    check_change(played(*pressures(1, 1, most - 1)), Change(PRESSURE, 1, "Ann"))
    refused = refusal(played(*pressures(1, 1, most)), Change(PRESSURE, 1, "Ann"))
    assert refused.field == "player"
    assert (
        str(refused) == f"Hand 1 has {most} pressures already, the most a hand can: undo the ones that were mistakes."
    )


def test_a_pressure_in_a_game_without_pressures_is_refused_beside_the_player():
    state = GameState.fold(Game(configure("crazy-eights"), PLAYERS), ())
    with pytest.raises(ChangeRefusal) as raised:
        accept(state, Change(PRESSURE, 1, "Ann"), entry(1, PRESSURE, 1, "Ann"))
    assert (str(raised.value), raised.value.field) == ("Hand 1: Crazy Eights has no pressures.", "player")


def test_a_pressure_on_the_dummy_is_refused_beside_the_player():
    """Refused by the engine, which checks every pressure once, as the change is accepted."""
    state = GameState.fold(Game(configure("crates-world-series"), ("Ann", "Figgy", "Bob")), ())
    with pytest.raises(ChangeRefusal) as raised:
        accept(state, Change(PRESSURE, 1, "Figgy"), entry(1, PRESSURE, 1, "Figgy"))
    refused = raised.value
    assert refused.field == "player" and str(refused).startswith("Hand 1: Figgy never takes a pressure")


@pytest.mark.parametrize(
    "text, why", [("   ", "write the ruling first."), ("a\x07bell", "a note")], ids=["empty", "a control character"]
)
def test_a_note_must_say_something_readable(text, why):
    refused = refusal(played(), Change(NOTE, 1, None, {"text": text}))
    assert refused.field == "text" and why.lower() in str(refused).lower()


def test_a_one_card_reminder_is_for_the_hand_in_play_and_a_player_of_the_game():
    state = played(*HAND_ONE)
    check_change(state, Change(ONE_CARD, 2, "Ann"))
    refused = refusal(state, Change(ONE_CARD, 1, "Ann"))
    assert (str(refused), refused.field) == ("one-card reminders are for the hand in play.", "hand")
    assert refusal(state, Change(ONE_CARD, 2, "Zed")).field == "player"


def confirm(hand: int, player: str = "Bob", source: str = "b", address: str = "10.0.0.2") -> Change:
    return Change(CONFIRM, hand, player, {"source": source}, address=address)


def test_another_phone_confirms_a_complete_hand():
    check_change(played(*HAND_ONE), confirm(1))
    check_change(played(*HAND_ONE), confirm(1, source="director", address="10.0.0.1"))


@pytest.mark.parametrize(
    "change, why",
    [
        (confirm(2), "hand 2 is not complete yet: enter every player's leftovers first."),
        (confirm(0), "hand 0 is not complete yet: enter every player's leftovers first."),
        (confirm(1, source="a"), "hand 1 was last changed from this phone"),
        (confirm(1, address="10.0.0.1"), "hand 1 was last changed from this phone"),
        (confirm(1, player="Zed"), "'Zed' is not a player of this game."),
    ],
    ids=["a hand in play", "hand 0", "the same phone", "the same address", "not a player"],
)
def test_a_confirmation_needs_a_complete_hand_and_another_phone(change, why):
    assert str(refusal(played(*HAND_ONE), change)).startswith(why)


def test_a_hand_is_confirmed_once():
    confirmed = played(*HAND_ONE, entry(4, CONFIRM, 1, "Bob", source="b"))
    assert str(refusal(confirmed, confirm(1, player="Cy", source="c", address="10.0.0.3"))) == (
        "hand 1 is already confirmed."
    )


def undo(target: int | None) -> Change:
    return Change(VOID, None, None, {}, target)


def test_the_leftovers_standing_in_the_last_hand_can_be_undone():
    check_change(played(*CORRECTED), undo(2))
    check_change(played(*HAND_ONE), undo(3))


@pytest.mark.parametrize("target", [None, 99, 5], ids=["nothing", "another game's", "an undo"])
def test_only_a_change_of_this_game_can_be_undone(target):
    state = played(*CORRECTED, entry(4, NOTE, 1, text="a ruling"), entry(5, VOID, target=4))
    refused = refusal(state, undo(target))
    assert not isinstance(refused, StaleEdit) and str(refused) == "there is no such change to undo."


def test_a_change_undone_already_is_a_conflict():
    state = played(*CORRECTED, entry(4, NOTE, 1, text="a ruling"), entry(5, VOID, target=4))
    refused = refusal(state, undo(4))
    assert isinstance(refused, StaleEdit) and str(refused) == "that change was already undone."


def test_leftovers_corrected_since_are_undone_by_undoing_the_correction():
    refused = refusal(played(*CORRECTED), undo(1))
    assert isinstance(refused, StaleEdit) and refused.current is not None and refused.current.id == 2
    assert str(refused) == "those leftovers were corrected since: undo the correction instead."


def test_a_hand_followed_by_complete_hands_is_corrected_not_undone():
    two_hands = (*HAND_ONE, *(entry(n, LEFTOVERS, 2, name, cards=["Q"]) for n, name in enumerate(PLAYERS, start=4)))
    refused = refusal(played(*two_hands), undo(1))
    assert not isinstance(refused, StaleEdit)
    assert str(refused) == "hand 1 is followed by complete hands: correct it instead of undoing it."


def test_an_entry_set_aside_can_always_be_withdrawn():
    everyone_out = [entry(n, LEFTOVERS, 1, name, cards=[]) for n, name in enumerate(PLAYERS, start=1)]
    state = replay(Game(configure("crates"), PLAYERS), everyone_out)
    check_change(state, undo(1))


def test_where_no_one_entry_repairs_a_stored_log_the_newest_is_set_aside_first():
    # Nine kings in one hand: withdrawing any one player's three leaves six, still more than a
    # deck holds. The newest (Cy's) goes first; then Ann's, the oldest whose withdrawal repairs.
    nine_kings = [entry(n, LEFTOVERS, 1, name, cards=["K"] * 3) for n, name in enumerate(PLAYERS, start=1)]
    state = replay(Game(configure("crates"), PLAYERS), nine_kings)
    assert sorted(state.set_aside) == [1, 3]
    # A note (or an undo) never breaks a game: it is never the one set aside.
    noted = replay(Game(configure("crates"), PLAYERS), [*nine_kings, entry(4, NOTE, 1, text="nine kings?")])
    assert sorted(noted.set_aside) == [1, 3]
    assert engine_refusal(state) is None


def test_a_hand_played_after_the_game_was_decided_is_refused_with_what_to_do():
    # Crazy Eights to 40: Ann's 40 from Bob's four kings decides the game in hand 1.
    game = Game(configure("crazy-eights", {"target": 40}), PLAYERS)
    hand_one = [entry(1, LEFTOVERS, 1, "Ann", cards=[]), entry(2, LEFTOVERS, 1, "Bob", cards=["K"] * 4)]
    decided = GameState.fold(game, [*hand_one, entry(3, LEFTOVERS, 1, "Cy", cards=["A"])])
    assert decided.current_hand is None and engine_refusal(decided) is None
    later = GameState.fold(
        game, [*hand_one, entry(3, LEFTOVERS, 1, "Cy", cards=["A"]), entry(4, LEFTOVERS, 2, "Ann", cards=["Q"])]
    )
    refused = engine_refusal(later)
    assert refused is not None and str(refused) == (
        "The game was decided in hand 1, but hand 2 was played after it: correct or undo the change that decided it early."
    )


def test_leftovers_standing_in_the_hand_in_play_that_the_engine_refuses_are_refused_beside_the_cards():
    state = played(entry(1, LEFTOVERS, 1, "Ann", cards=["K"] * 3), entry(2, LEFTOVERS, 1, "Bob", cards=["K", "K"]))
    refused = engine_refusal(state)
    assert refused is not None and refused.field == "cards"
    assert str(refused) == "Hand 1: 5 × K in the leftovers, but one deck has only 4. Check Ann's and Bob's cards."


def test_a_pressure_in_the_hand_in_play_stands():
    state = played(entry(1, LEFTOVERS, 1, "Ann", cards=["K"]))
    after = accept(state, Change(PRESSURE, 1, "Bob"), entry(2, PRESSURE, 1, "Bob"))
    assert after.version == 2 and engine_refusal(after) is None


def test_a_stored_pressure_on_nobody_is_set_aside_saying_so():
    state = replay(Game(configure("crates"), PLAYERS), [entry(1, PRESSURE, 1, None)])
    assert state.set_aside == {1: "Hand 1: pressure to '', who is not a player of this game."}


def test_a_correction_of_leftovers_undone_meanwhile_is_a_conflict_beside_the_cards():
    state = played(entry(1, LEFTOVERS, 1, "Ann", cards=["K"]), entry(2, VOID, target=1))
    refused = refusal(state, leftovers(1, "Ann", "Q", target=1))
    assert isinstance(refused, StaleEdit) and refused.current is None
    assert (str(refused), refused.field, refused.player) == (
        "Ann's leftovers for hand 1 were undone meanwhile.",
        "cards",
        "Ann",
    )


def test_leftovers_more_than_the_deck_holds_are_refused_beside_the_cards():
    refused = refusal(played(entry(1, LEFTOVERS, 1, "Ann", cards=["K"] * 3)), leftovers(1, "Bob", "K K"))
    assert refused.field == "cards"
    assert str(refused) == "Hand 1: 5 × K in the leftovers, but one deck has only 4. Check Ann's and Bob's cards."


def test_a_note_without_its_text_is_refused_and_one_of_several_lines_is_taken():
    assert refusal(played(), Change(NOTE, 1, None, {})).field == "text"
    check_change(played(), Change(NOTE, 1, None, {"text": "Bob revoked.\nCy dealt again."}))


def test_a_confirmation_of_a_hand_in_play_is_refused_beside_the_hand():
    assert refusal(played(*HAND_ONE), confirm(2)).field == "hand"


def test_a_confirmation_without_a_source_is_the_same_phone_as_a_change_without_one():
    unnamed = tuple(replace(made, source="", address="") for made in HAND_ONE)
    refused = refusal(played(*unnamed), Change(CONFIRM, 1, "Bob", {}, address="10.0.0.2"))
    assert str(refused).startswith("hand 1 was last changed from this phone")


def test_a_pressure_the_engine_refuses_in_the_hand_in_play_stands_beside_the_player():
    state = GameState.fold(Game(configure("crazy-eights"), PLAYERS), [entry(1, PRESSURE, 1, "Ann")])
    refused = engine_refusal(state)
    assert refused is not None and refused.field == "player"
