"""Checking a change against what stands, and what stands against the engine. Pure: no web, no SQL.

``accept`` is the one way a change joins a game: checked as a change (the hand is open, the
player plays, the entry it corrects is still the one standing), folded onto a copy of the
state, and the result run through the engine. It needs no database, so storage runs it before
taking the write lock and only confirms, under the lock, that nothing was appended meanwhile.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence

from ..scoring import Card, Game, ScoringError
from ..scoring.errors import sentence
from ..scoring.scorer import check_pressure
from ..scoring.text import text_fault
from .entries import (
    CONFIRM,
    FIELD_OF_CHANGE,
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
    StaleEdit,
)
from .state import GameState

_log = logging.getLogger(__name__)


def accept(state: GameState, change: Change, entry: Entry) -> GameState:
    """The state with ``entry`` (what ``change`` becomes) appended, or the refusal: the change
    checked against ``state``, then everything that would stand run through the engine."""
    check_change(state, change)
    after = state.extended([entry])
    try:
        check_with_engine(after)
    except ChangeRefusal as error:
        raise ChangeRefusal(str(error), error.field or FIELD_OF_CHANGE.get(change.kind)) from None
    return after


def accept_record(game: Game, entries: Sequence[Entry]) -> GameState:
    """A whole imported record's entries, checked in one pass: each entry's own shape as it comes
    (a player of the game, a note that reads, no more pressures in a hand than a hand takes), then
    the log they make run through the engine once, which scores every hand and checks every
    pressure. A record holds leftovers, pressures and notes only (no undo, no correction)."""
    if len(entries) > MAX_ENTRIES:
        raise ChangeRefusal(f"This record holds {len(entries)} changes; a game holds at most {MAX_ENTRIES}.")
    pressures: Counter[int] = Counter()
    for entry in entries:
        if entry.kind not in (LEFTOVERS, PRESSURE, NOTE) or entry.target is not None or (entry.hand or 0) < 1:
            raise ChangeRefusal(f"a record cannot hold this change ({entry.kind} in hand {entry.hand})")
        if entry.kind == NOTE:
            _check_text(str(entry.data.get("text", "")))
        else:
            _check_player(game, entry.player)
        if entry.kind == PRESSURE:
            pressures[entry.hand or 0] += 1
            if pressures[entry.hand or 0] > MAX_PRESSURES_IN_A_HAND:
                raise ChangeRefusal(
                    f"Hand {entry.hand} holds more than {MAX_PRESSURES_IN_A_HAND} pressures, the most a hand can."
                )
    state = GameState.fold(game, entries)
    open_hands = state.last_hand
    beyond = next((entry for entry in entries if (entry.hand or 0) > open_hands), None)
    if beyond is not None:
        raise ChangeRefusal(f"Hand {beyond.hand} is not open: hands 1 to {open_hands} are.")
    check_with_engine(state)
    return state


def check_change(state: GameState, change: Change) -> None:
    """Refuse a change the game's state does not allow; the message says what to do."""
    checker = _CHECKERS.get(change.kind)
    if checker is None:
        raise ChangeRefusal(f"unknown change {change.kind!r}")
    if state.version >= MAX_ENTRIES:
        raise ChangeRefusal(f"This game holds {MAX_ENTRIES} changes, the most one game can: start a new game.")
    checker(state, change)


def check_with_engine(state: GameState) -> None:
    """Run what stands through the engine: the complete hands scored, the hand in play checked
    as far as it goes, no hand recorded after the game was decided. Raises ChangeRefusal."""
    try:
        _verify(state)
    except ChangeRefusal:
        raise
    except ScoringError as error:
        raise ChangeRefusal(sentence(str(error))) from None
    except Exception as error:  # a bug must refuse the change, never break the game
        _log.exception("the engine failed on a game's log")
        raise ChangeRefusal(f"The scoring engine could not take this change ({type(error).__name__}).") from None


def engine_refusal(state: GameState) -> ChangeRefusal | None:
    """What the engine refuses in what stands, or None."""
    try:
        check_with_engine(state)
    except ChangeRefusal as error:
        return error
    return None


def replay(game: Game, entries: Sequence[Entry], memo_key: str | None = None) -> GameState:
    """The log folded, with any entry the engine refuses set aside, so that a game an older
    version let break still opens and can be repaired by withdrawing that entry."""
    state = GameState.fold(game, entries, memo_key)
    trouble = engine_refusal(state)
    while trouble is not None:
        culprit = _culprit(state)
        if culprit is None:
            break
        aside = {**state.set_aside, culprit.id: str(trouble)}
        state = GameState.fold(game, entries, memo_key, aside)
        trouble = engine_refusal(state)
    return state


def _culprit(state: GameState) -> Entry | None:
    """The entry whose withdrawal repairs the game (the oldest such); else the newest that counts."""
    counted = [
        entry
        for entry in state.entries
        if entry.kind in (LEFTOVERS, PRESSURE) and entry.id not in state.voided and entry.id not in state.set_aside
    ]
    for entry in counted:
        trial = GameState.fold(state.game, state.entries, state.memo_key, {**state.set_aside, entry.id: ""})
        if engine_refusal(trial) is None:
            return entry
    return counted[-1] if counted else None


def _verify(state: GameState) -> None:
    score = state.score
    number = state.current_hand
    if number is None:
        later = sorted({e.hand for e in state.counted() if e.hand is not None and e.hand > len(score.hands)})
        if later:
            raise ChangeRefusal(
                f"The game was decided in hand {len(score.hands)}, but hand {later[0]} was played after it: "
                "correct or undo the change that decided it early."
            )
        return
    rules = state.game.rules
    entered = {player: entry.cards for player, entry in state.hand_leftovers(number).items()}
    if entered:
        try:
            rules.check_leftovers(entered)
            for cards in entered.values():
                rules.score_leftovers(cards)
        except ScoringError as error:
            raise ChangeRefusal(f"Hand {number}: {sentence(str(error))}", "cards") from None
    for entry in state.hand_pressures(number):
        try:
            check_pressure(state.game, number, entry.player or "")
        except ScoringError as error:
            raise ChangeRefusal(sentence(str(error)), "player") from None
    state.pending_pressures()


def _check_hand_number(state: GameState, number: int | None) -> int:
    limit = state.last_hand
    if number is None or not 1 <= number <= limit:
        raise ChangeRefusal(f"hand {number} is not open: hands 1 to {limit} are", "hand")
    return number


def _check_player(game: Game, player: str | None) -> str:
    if player not in game.players:
        raise ChangeRefusal(f"{player!r} is not a player of this game", "player")
    return player


def _check_leftovers(state: GameState, change: Change) -> None:
    number = _check_hand_number(state, change.hand)
    player = _check_player(state.game, change.player)
    current = state.leftovers.get((number, player))
    if (current.id if current else None) != change.target:
        if change.target is not None and change.target not in state.by_id:
            raise ChangeRefusal("The leftovers this corrects are not this game's: reload the page.", "cards")
        target = state.by_id.get(change.target or -1)
        if target is not None and (target.kind, target.hand, target.player) != (LEFTOVERS, number, player):
            raise ChangeRefusal(
                f"What this corrects is not {player}'s leftovers for hand {number}: reload the page.", "cards"
            )
        if current is None:
            raise StaleEdit(f"{player}'s leftovers for hand {number} were undone meanwhile", None, "cards", player)
        raise StaleEdit(
            f"{player}'s leftovers for hand {number} were entered meanwhile "
            f"({current.cards_text}). Check them, and correct them if they are wrong.",
            current,
            "cards",
            player,
        )
    try:
        cards = tuple(Card.parse(token) for token in change.data.get("cards", ()))
        trial = {p: entry.cards for p, entry in state.hand_leftovers(number).items()}
        trial[player] = cards
        state.game.rules.check_leftovers(trial)
    except ScoringError as error:
        raise ChangeRefusal(f"Hand {number}: {error}", "cards") from None


def _check_pressure(state: GameState, change: Change) -> None:
    number = _check_hand_number(state, change.hand)
    _check_player(state.game, change.player)
    if len(state.hand_pressures(number)) >= MAX_PRESSURES_IN_A_HAND:
        raise ChangeRefusal(
            f"Hand {number} has {MAX_PRESSURES_IN_A_HAND} pressures already, the most a hand can: "
            "undo the ones that were mistakes.",
            "player",
        )


def _check_note(state: GameState, change: Change) -> None:
    _check_hand_number(state, change.hand)
    _check_text(str(change.data.get("text", "")))


def _check_text(text: str) -> None:
    text = text.strip()
    if not text:
        raise ChangeRefusal("write the ruling first", "text")
    if len(text) > NOTE_MAX_LENGTH:
        raise ChangeRefusal(f"a note holds at most {NOTE_MAX_LENGTH} characters", "text")
    fault = text_fault(text, "a note", lines=True)
    if fault is not None:
        raise ChangeRefusal(fault, "text")


def _check_one_card(state: GameState, change: Change) -> None:
    if change.hand != state.current_hand:
        raise ChangeRefusal("one-card reminders are for the hand in play", "hand")
    _check_player(state.game, change.player)


def _check_confirm(state: GameState, change: Change) -> None:
    """Another phone than the one that made the hand's last change confirms it, naming who confirms.

    A phone is known by its cookie and by its network address: clearing the cookie makes a new
    label but leaves the address, so a confirmation from either is the same phone's.
    """
    number = change.hand or 0
    if not 1 <= number <= state.complete_hands:
        raise ChangeRefusal(f"hand {number} is not complete yet: enter every player's leftovers first", "hand")
    _check_player(state.game, change.player)
    if state.confirmed_by(number) is not None:
        raise ChangeRefusal(f"hand {number} is already confirmed")
    last = state.last_change(number)
    source = str(change.data.get("source", ""))
    same_address = last is not None and bool(change.address) and last.address == change.address
    if last is not None and source != "director" and (last.source == source or same_address):
        raise ChangeRefusal(
            f"hand {number} was last changed from this phone: a player of another side confirms it on theirs"
        )


def _check_void(state: GameState, change: Change) -> None:
    target = state.by_id.get(change.target or -1)
    if target is None or target.kind == VOID:
        raise ChangeRefusal("there is no such change to undo")
    if target.id in state.voided:
        raise StaleEdit("that change was already undone", target)
    if target.id in state.set_aside:
        return
    if target.kind == LEFTOVERS:
        current = state.leftovers.get((target.hand or 0, target.player or ""))
        if current is None or current.id != target.id:
            raise StaleEdit("those leftovers were corrected since: undo the correction instead", current)
        if (target.hand or 0) < state.complete_hands:
            raise ChangeRefusal(f"hand {target.hand} is followed by complete hands: correct it instead of undoing it")


_CHECKERS: dict[str, Callable[[GameState, Change], None]] = {
    LEFTOVERS: _check_leftovers,
    PRESSURE: _check_pressure,
    NOTE: _check_note,
    ONE_CARD: _check_one_card,
    VOID: _check_void,
    CONFIRM: _check_confirm,
}
