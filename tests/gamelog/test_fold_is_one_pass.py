"""The one-pass fold, and a state extended by one entry at a time keeping what it may keep, give
what the plain fold of the whole log gives (the way an older version folded it, as the oracle):
whatever the log holds, undos of undone entries and corrections of corrections included."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.gamelog import CONFIRM, LEFTOVERS, NOTE, ONE_CARD, PRESSURE, VOID, Change, Entry, GameState, accept
from scorekeeper.gamelog import ChangeRefusal as Refused
from scorekeeper.scoring import Game, ScoringError, configure
from tests.gamelog.test_accepted_changes_keep_games_whole import CARDS, GAMES

PLAYERS = ("Ann", "Bob", "Cy")


def oracle(entries: list[Entry], set_aside: dict[int, str] | None = None) -> dict[str, object]:
    """The fold as it was written before it became one pass: undone entries found first, then
    each later entry for a player and hand standing over the earlier."""
    voided = {e.target for e in entries if e.kind == VOID and e.target is not None}
    aside = {key for key in (set_aside or {}) if key not in voided}
    leftovers: dict[tuple[int, str], int] = {}
    pressures: dict[int, list[int]] = {}
    notes: dict[int, list[int]] = {}
    confirmations: dict[int, list[int]] = {}
    owes: dict[int, dict[str, bool]] = {}
    for entry in entries:
        if entry.id in voided or entry.id in aside or entry.hand is None:
            continue
        if entry.kind == LEFTOVERS and entry.player is not None:
            leftovers[(entry.hand, entry.player)] = entry.id
        elif entry.kind == PRESSURE:
            pressures.setdefault(entry.hand, []).append(entry.id)
        elif entry.kind == NOTE:
            notes.setdefault(entry.hand, []).append(entry.id)
        elif entry.kind == CONFIRM:
            confirmations.setdefault(entry.hand, []).append(entry.id)
        elif entry.kind == ONE_CARD and entry.player is not None:
            owes.setdefault(entry.hand, {})[entry.player] = bool(entry.data.get("owes"))
    return {
        "leftovers": leftovers,
        "pressures": {hand: ids for hand, ids in pressures.items() if ids},
        "notes": {hand: ids for hand, ids in notes.items() if ids},
        "confirmations": {hand: ids for hand, ids in confirmations.items() if ids},
        "owes": {hand: marks for hand, marks in owes.items() if marks},
        "voided": voided,
        "aside": aside,
    }


def seen(state: GameState) -> dict[str, object]:
    return {
        "leftovers": {key: entry.id for key, entry in state.leftovers.items()},
        "pressures": {hand: [e.id for e in items] for hand, items in state.pressures.items() if items},
        "notes": {hand: [e.id for e in items] for hand, items in state.notes.items() if items},
        "confirmations": {hand: [e.id for e in items] for hand, items in state.confirmations.items() if items},
        "owes": {hand: marks for hand, marks in state.owes_two.items() if marks},
        "voided": state.voided,
        "aside": set(state.set_aside),
    }


raw_entry = st.tuples(
    st.sampled_from([LEFTOVERS, LEFTOVERS, PRESSURE, NOTE, ONE_CARD, VOID, VOID, CONFIRM]),
    st.integers(1, 3),
    st.sampled_from(PLAYERS),
    st.lists(st.sampled_from(["K", "Q", "3", "8"]), max_size=3),
    st.integers(1, 30),
    st.booleans(),
)


def build(raw: list[tuple[str, int, str, list[str], int, bool]]) -> list[Entry]:
    """Any entries at all, as a log written by any version may hold them (an undo of an undo too)."""
    entries = []
    for seq, (kind, hand, player, cards, target, owes) in enumerate(raw, start=1):
        if kind == VOID and seq == 1:
            kind = NOTE
        target = 1 + (target - 1) % max(seq - 1, 1)  # an undo names an entry before it
        entries.append(
            Entry(
                id=100 + seq,
                seq=seq,
                kind=kind,
                hand=None if kind == VOID else hand,
                player=player if kind in (LEFTOVERS, ONE_CARD, PRESSURE, CONFIRM) else None,
                data={"cards": cards} if kind == LEFTOVERS else {"owes": owes} if kind == ONE_CARD else {},
                target=100 + target if kind == VOID else None,
                source="test",
                created_at="2026-11-24T20:00:00+00:00",
            )
        )
    return entries


@settings(max_examples=300, deadline=None)
@given(st.lists(raw_entry, max_size=30), st.sets(st.integers(101, 130), max_size=3))
def test_one_pass_and_step_by_step_fold_as_the_plain_fold_does(raw, aside):
    entries = build(raw)
    set_aside = {key: "refused" for key in aside}
    game = Game(configure("crates"), PLAYERS)
    assert seen(GameState.fold(game, entries, set_aside=set_aside)) == oracle(entries, set_aside)
    state = GameState.fold(game, [], set_aside=set_aside)
    for index, entry in enumerate(entries):
        state = state.extended([entry])
        assert seen(state) == oracle(entries[: index + 1], set_aside)


step = st.one_of(
    st.tuples(st.just(PRESSURE), st.integers(0, 2), st.integers(-1, 1)),
    st.tuples(st.just(LEFTOVERS), st.integers(0, 2), st.integers(-2, 0), st.lists(st.sampled_from(CARDS), max_size=4)),
    st.tuples(st.just(VOID), st.integers(1, 40)),
    st.tuples(st.just(NOTE), st.integers(-1, 0)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.lists(step, max_size=40))
def test_a_state_extended_change_by_change_scores_as_the_whole_log_folded_afresh(setup, steps):
    """What an extended state keeps of its scores (a pressure in the hand in play keeps the scored
    hands) is what a fresh fold of the same log works out: complete hands, totals, what each
    pressure of the hand in play costs, what each side's next one costs."""
    rules, options, players, partnerships = setup
    game = Game(configure(rules, options), tuple(players), tuple(tuple(team) for team in partnerships))
    state = GameState.fold(game, [], memo_key=None)
    for step_ in steps:
        change = _change(state, step_)
        if change is None:
            continue
        entry = Entry.of(
            change, 1000 + state.version, state.version + 1, f"k{state.version}", "test", "2026-11-24T20:00:00+00:00"
        )
        try:
            state = accept(state, change, entry)
        except (Refused, ScoringError):
            continue
        fresh = GameState.fold(game, state.entries)
        assert state.complete_hands == fresh.complete_hands
        assert state.score == fresh.score
        assert state.current_hand == fresh.current_hand
        assert [(e.id, cost) for e, _, cost in state.pending_pressures()] == [
            (e.id, cost) for e, _, cost in fresh.pending_pressures()
        ]
        for side in game.sides:
            assert state.next_pressure(side.name) == fresh.next_pressure(side.name)


def _change(state: GameState, step_: tuple) -> Change | None:
    players = state.game.players
    hand = state.last_hand
    if step_[0] == PRESSURE:
        return Change(PRESSURE, hand + step_[2], players[step_[1] % len(players)])
    if step_[0] == LEFTOVERS:
        player = players[step_[1] % len(players)]
        number = max(1, hand + step_[2])
        current = state.leftovers.get((number, player))
        return Change(LEFTOVERS, number, player, {"cards": step_[3]}, target=current.id if current else None)
    if step_[0] == VOID:
        return Change(VOID, target=1000 + step_[1] - 1)
    return Change(NOTE, hand + step_[1], None, {"text": "ruling"})


def _entry(state: GameState, change: Change) -> Entry:
    return Entry.of(
        change, 1000 + state.version, state.version + 1, f"k{state.version}", "test", "2026-11-24T20:00:00+00:00"
    )


def _accepted(state: GameState, change: Change) -> GameState:
    return accept(state, change, _entry(state, change))


def test_undoing_a_pressure_or_a_correction_in_a_scored_hand_scores_again_from_the_first_hand():
    """A score goes on from the hands before when a change touches only the hand in play; an undo
    in a hand already scored (a pressure, or a correction bringing back the first count) never
    goes on from a score that held what it withdrew, whether the app would take that undo today
    (the last complete hand) or an older version wrote it in an earlier hand."""
    game = Game(configure("crates"), PLAYERS)
    state = GameState.fold(game, [])
    for number, first in ((1, ["K"]), (2, ["5"])):
        state = _accepted(state, Change(PRESSURE, number, "Ann"))
        for player, cards in zip(PLAYERS, (first, ["Q", "8"], []), strict=True):
            state = _accepted(state, Change(LEFTOVERS, number, player, {"cards": cards}))
        if number == 1:  # the score of hand 1 is then the one hand 3 goes on from
            corrected = state.leftovers[(number, "Bob")]
            state = _accepted(state, Change(LEFTOVERS, number, "Bob", {"cards": ["A"]}, target=corrected.id))
    assert state.complete_hands == 2
    assert state.score == GameState.fold(game, state.entries).score
    pressures_and_corrections = [e for e in state.entries if e.kind == PRESSURE or e.target is not None]
    for withdrawn in pressures_and_corrections:
        undo = Change(VOID, target=withdrawn.id)
        undone = state.extended([_entry(state, undo)])
        for change in (Change(PRESSURE, 3, "Cy"), Change(LEFTOVERS, 3, "Ann", {"cards": ["5"]})):
            undone = _accepted(undone, change)
        fresh = GameState.fold(game, undone.entries)
        assert undone.complete_hands == fresh.complete_hands == 2
        assert undone.score == fresh.score
