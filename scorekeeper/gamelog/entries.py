"""A game's log: the kinds of entry, a change asked for, an entry as stored, and the limits.

Every change at the table is an entry: leftovers (new, or a correction naming the entry it
replaces), a pressure, a ruling note, a one-card reminder, a confirmation, or a void that
undoes an earlier entry. Nothing is ever updated or deleted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..scoring import Card, Refusal

LEFTOVERS = "leftovers"
PRESSURE = "pressure"
NOTE = "note"
ONE_CARD = "one_card"
VOID = "void"
CONFIRM = "confirm"

#: The form field a refusal of each kind of change belongs beside.
FIELD_OF_CHANGE = {LEFTOVERS: "cards", PRESSURE: "player", NOTE: "text"}

NOTE_MAX_LENGTH = 500
#: Limits no honest table meets and a hostile record always does. A real hand of Crates sees a
#: handful of pressures (each doubles the last: the 30th alone would cost 5 × 2^29 points); a
#: 15-hand game of five players with every leftover corrected twice, ten pressures and a note a
#: hand is about 700 entries.
MAX_PRESSURES_IN_A_HAND = 50
MAX_ENTRIES = 2000


class TableError(Refusal):
    """A change the table's state refuses; ``index`` says which of several changes saved together
    (``append_all``) was refused."""

    index: int | None = None


class StaleEdit(TableError):
    """The form was built from a value that has changed since: ``current`` is what stands now."""

    status = 409

    def __init__(self, message: str, current: Entry | None, field: str | None = None) -> None:
        super().__init__(message, field)
        self.current = current

    def details(self) -> dict[str, object]:
        if self.current is None:
            return {}
        return {"current": {"entry": self.current.id, "cards": list(self.current.data.get("cards", []))}}


class SecondThoughts(TableError):
    """A change that may be a slip rather than a decision (the same pressure tapped twice):
    nothing is stored; the player is asked, and answers by sending it again, confirmed."""

    status = 409

    def details(self) -> dict[str, object]:
        return {"ask": str(self)}


@dataclass(frozen=True)
class Change:
    """What a request asks to append; ``address`` is the network address it came from, ``at``
    when it happened at the table (the tap, which an outbox may deliver later; empty: now)."""

    kind: str
    hand: int | None = None
    player: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    target: int | None = None
    address: str = ""
    at: str = ""

    def same_as(self, entry: Entry) -> bool:
        return (self.kind, self.hand, self.player, dict(self.data), self.target) == (
            entry.kind,
            entry.hand,
            entry.player,
            dict(entry.data),
            entry.target,
        )


@dataclass(frozen=True)
class Entry:
    """One line of the log as stored."""

    id: int
    seq: int
    kind: str
    hand: int | None
    player: str | None
    data: Mapping[str, Any]
    target: int | None
    source: str
    created_at: str
    idem_key: str = ""
    address: str = ""

    @classmethod
    def of(cls, change: Change, id: int, seq: int, idem_key: str, source: str, created_at: str) -> Entry:
        """The entry a change becomes at position ``seq`` of its game's log."""
        return cls(
            id=id,
            seq=seq,
            kind=change.kind,
            hand=change.hand,
            player=change.player,
            data=dict(change.data),
            target=change.target,
            source=source,
            created_at=change.at or created_at,
            idem_key=idem_key,
            address=change.address,
        )

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The leftovers read once per entry (an entry never changes; it is read at every fold)."""
        return tuple(Card.parse(token) for token in self.data.get("cards", ()))

    @property
    def cards_text(self) -> str:
        return " ".join(card.label for card in self.cards) or "went out"
