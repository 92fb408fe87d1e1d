"""A table's game as a ``scorekeeper-game/1`` record, and back (export and import).

The record holds the complete hands; the app adds, under its own keys, the title and start,
the event, round and table an event's game is filed under (covered by the verification
code), each hand's ruling notes and the hand in play (its pressures and notes so far), which readers
that do not know them ignore.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..gamelog import LEFTOVERS, NOTE, PRESSURE, Change, GameState
from ..scoring import FILED_UNDER, FiledUnder, GameRecord, InvalidRecord, parse_record
from ..scoring.record import check_record_text
from ..scoring.text import check_text
from .games import StoredGame


def record_extra(stored: StoredGame, filed: FiledUnder | None) -> dict[str, object]:
    """The keys of our own an export carries beside the standard ones; ``filed_under`` for an event's game."""
    extra: dict[str, object] = {"title": stored.title, "created_at": stored.created_at}
    if filed is not None:
        extra[FILED_UNDER] = filed.to_dict()
    return extra


def export_record(stored: StoredGame, state: GameState, filed: FiledUnder | None = None) -> dict[str, object]:
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


def _notes(state: GameState, number: int) -> list[str]:
    return [str(entry.data.get("text", "")) for entry in state.notes.get(number, ())]


#: The longest title a game is given by the start form, and an event's name.
TITLE_MAX_LENGTH = 60
EVENT_NAME_MAX_LENGTH = 80
#: An import takes any title the app gives a game: the longest is an event's table's,
#: "<event name> · round N · table N" (rounds and tables counted up to 9999).
IMPORTED_TITLE_MAX_LENGTH = max(TITLE_MAX_LENGTH, EVENT_NAME_MAX_LENGTH + len(" · round 9999 · table 9999"))


def import_changes(data: object) -> tuple[GameRecord, list[Change]]:
    """Check a decoded record and list the log entries that rebuild it (its title is ``imported_title``).

    Every text in it is held to the rule the forms hold theirs to (``scoring.text``): the
    players' names and a named option (``check_record_text``), the title (no longer than the app's own: a record from
    elsewhere must not print off the sheet) and the ruling notes (by the game's log, as a note
    typed at the table)."""
    if not isinstance(data, dict):
        raise InvalidRecord("the record must be a JSON object", "text")
    imported_title(data)
    record = parse_record(data)
    check_record_text(record)
    return record, list(_changes(record, data))


def imported_title(data: object) -> str:
    """The record's title, refused when it is not text every page and sheet can show."""
    title = (data.get("title") if isinstance(data, dict) else None) or ""
    if not isinstance(title, str) or len(title) > IMPORTED_TITLE_MAX_LENGTH:
        raise InvalidRecord(f"the title must be text of at most {IMPORTED_TITLE_MAX_LENGTH} characters", "text")
    title = title.strip()
    if title:
        check_text(title, "text", "the title")
    return title


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
