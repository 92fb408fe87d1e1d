"""What the table is told of a save, in the words the phone's ``static/said.js`` uses for the same
change made offline: a pressure's cost and the side's next, a note, a reminder, a confirmation,
an undo, leftovers saved or corrected and the hand once complete. Pure: no web, no SQL."""

from __future__ import annotations

from collections.abc import Sequence

from .entries import CONFIRM, LEFTOVERS, NOTE, ONE_CARD, PRESSURE, VOID
from .history import describe
from .state import Appended


def said_of(appended: Sequence[Appended], whole_hand: bool = False) -> str:
    """The sentence for changes saved together (``whole_hand``: a whole hand's leftovers from one pad)."""
    last = appended[-1]
    entry, state = last.entry, last.state
    if entry.kind == PRESSURE:
        side = state.game.side_of(entry.player or "").name
        cost = state.pressure_cost(entry)
        cost_text = f": {cost}" if cost is not None else ""
        return f"Pressure to {entry.player}{cost_text}. {side}'s next costs {state.next_pressure(side)}."
    if entry.kind == NOTE:
        return f"Ruling noted on hand {entry.hand}."
    if entry.kind == ONE_CARD:
        return f"{entry.player} owes two cards." if entry.data.get("owes") else f"{entry.player}'s reminder cleared."
    if entry.kind == CONFIRM:
        return f"Hand {entry.hand} confirmed by {entry.player}."
    if entry.kind == VOID:
        what, old, _ = describe(entry, state.by_id)
        return f"{what}{f' ({old})' if old else ''}."
    assert entry.kind == LEFTOVERS
    return _leftovers_saved(appended, whole_hand) + _hand_complete(appended)


def _leftovers_saved(appended: Sequence[Appended], whole_hand: bool) -> str:
    rules = appended[-1].state.game.rules
    entries = [item.entry for item in appended]
    if whole_hand:
        saved = ", ".join(f"{entry.player} {rules.score_leftovers(entry.cards).total}" for entry in entries)
        return f"Leftovers {'corrected' if len(entries) == 1 and entries[-1].target else 'saved'}: {saved}."
    entry = entries[-1]
    points = rules.score_leftovers(entry.cards).total
    return f"{entry.player}'s leftovers {'corrected' if entry.target else 'saved'} ({points})."


def _hand_complete(appended: Sequence[Appended]) -> str:
    """The hand's score by side, once the save completed it (nothing while a seat is still to enter)."""
    state, number = appended[-1].state, appended[-1].entry.hand or 0
    scored = state.hand_score(number) if state.next_seat_to_enter(number) is None else None
    if scored is None:
        return ""
    return (
        f" Hand {number} is complete: " + ", ".join(f"{name} {side.total}" for name, side in scored.sides.items()) + "."
    )
