"""A table's game as a ``scorekeeper-game/1`` record, and back (export and import).

The record holds the complete hands; the app adds, under its own keys, the title and start,
the event, round and table an event's game is filed under (covered by the verification
code), each hand's ruling notes and the hand in play (its pressures and notes so far), which readers
that do not know them ignore.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..gamelog import LEFTOVERS, NOTE, PRESSURE, Change, TableState
from ..scoring import FILED_UNDER, FiledUnder, GameRecord, InvalidRecord, parse_record
from .games import StoredGame


def record_extra(stored: StoredGame, filed: FiledUnder | None) -> dict[str, object]:
    """The keys of our own an export carries beside the standard ones; ``filed_under`` for an event's game."""
    extra: dict[str, object] = {"title": stored.title, "created_at": stored.created_at}
    if filed is not None:
        extra[FILED_UNDER] = filed.to_dict()
    return extra


def export_record(stored: StoredGame, state: TableState, filed: FiledUnder | None = None) -> dict[str, object]:
    record = state.record(record_extra(stored, filed)).to_dict()
    hands = record["hands"]
    assert isinstance(hands, list)
    for number, hand in enumerate(hands, start=1):
        notes = _notes(state, number)
        if notes:
            hand["notes"] = notes
    current = state.current_hand
    if current is not None and (state.hand_pressures(current) or state.notes.get(current)):
        record["in_play"] = {
            "hand": current,
            "pressures": [entry.player for entry in state.hand_pressures(current)],
            "notes": _notes(state, current),
        }
    return record


def _notes(state: TableState, number: int) -> list[str]:
    return [str(entry.data.get("text", "")) for entry in state.notes.get(number, ())]


def import_changes(data: Mapping[str, Any]) -> tuple[GameRecord, list[Change]]:
    """Check a decoded record and list the log entries that rebuild it."""
    record = parse_record(data)
    return record, list(_changes(record, data))


def _changes(record: GameRecord, data: Mapping[str, Any]) -> Iterator[Change]:
    raw_hands = data.get("hands") or []
    for number, hand in enumerate(record.hands, start=1):
        for player in record.game.players:
            cards = [card.token for card in hand.leftovers[player]]
            yield Change(LEFTOVERS, number, player, {"cards": cards})
        for player in hand.pressures:
            yield Change(PRESSURE, number, player)
        yield from _note_changes(number, raw_hands[number - 1].get("notes"))
    in_play = data.get("in_play")
    if isinstance(in_play, dict) and in_play.get("hand") == len(record.hands) + 1:
        number = len(record.hands) + 1
        pressures = in_play.get("pressures") or []
        if not isinstance(pressures, list):
            raise InvalidRecord("'in_play' pressures must be a list of players' names")
        for player in pressures:
            yield Change(PRESSURE, number, str(player))
        yield from _note_changes(number, in_play.get("notes"))


def _note_changes(number: int, notes: object) -> Iterator[Change]:
    if isinstance(notes, list):
        for text in notes:
            if str(text).strip():
                yield Change(NOTE, number, None, {"text": str(text)})
