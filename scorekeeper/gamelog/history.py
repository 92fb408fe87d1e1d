"""A game's log as its history reads: what each entry did, and what it replaced."""

from __future__ import annotations

from collections.abc import Mapping

from .entries import CONFIRM, LEFTOVERS, NOTE, ONE_CARD, PRESSURE, Entry


def describe(entry: Entry, by_id: Mapping[int, Entry]) -> tuple[str, str, str]:
    """A history line: (what, old value, new value); ``by_id``: the log's entries, to find what
    a correction or an undo replaced."""
    hand = f"Hand {entry.hand}" if entry.hand else "Game"
    if entry.kind == LEFTOVERS:
        previous = by_id.get(entry.target) if entry.target else None
        if previous is not None:
            return (
                f"{hand} · {entry.player}'s leftovers corrected",
                previous.cards_text,
                entry.cards_text,
            )
        return f"{hand} · {entry.player}'s leftovers", "", entry.cards_text
    if entry.kind == PRESSURE:
        return f"{hand} · pressure", "", str(entry.player)
    if entry.kind == NOTE:
        return f"{hand} · ruling note", "", str(entry.data.get("text", ""))
    if entry.kind == CONFIRM:
        return f"{hand} · confirmed", "", f"by {entry.player}"
    if entry.kind == ONE_CARD:
        owes = "owes two cards" if entry.data.get("owes") else "reminder cleared"
        return f"{hand} · one card: {entry.player}", "", owes
    target = by_id.get(entry.target or -1)
    if target is None:
        return "Undo", "", ""
    what, _, value = describe(target, by_id)
    return f"Undone: {what}", value, "removed"
