"""A game's log: the kinds of entry, a change asked for, an entry as stored, and the limits.

Every change at the table is an entry: leftovers (new, or a correction naming the entry it
replaces), a pressure, a ruling note, a one-card reminder, a confirmation, or a void that
undoes an earlier entry. Nothing is ever updated or deleted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..scoring import Card, Refusal
from ..scoring.errors import AskFirst, Stale

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


class ChangeRefusal(Refusal):
    """A change the table's state refuses; ``index`` says which of several changes saved together
    (``append_all``) was refused."""

    index: int | None = None


class StaleEdit(ChangeRefusal, Stale):
    """The form was built from a value that has changed since: ``current`` is what stands now
    (None: undone), and ``player`` whose leftovers they are, where they are someone's."""

    def __init__(
        self, message: str, current: Entry | None, field: str | None = None, player: str | None = None
    ) -> None:
        super().__init__(message, field)
        self.current = current
        self.player = player

    def details(self) -> dict[str, object]:
        if self.current is None:
            return {}
        return {"current": {"entry": self.current.id, "cards": list(self.current.data.get("cards", []))}}

    @property
    def conflicts(self) -> tuple[StaleEdit, ...]:
        """Every change refused so: this one, or each of several saved together."""
        return (self,)


class StaleEdits(StaleEdit):
    """Several leftovers saved together (a whole hand from one phone) met entries made meanwhile
    on another phone: every one of them (``stale``, each with its ``index`` in the save), so that
    the phone shows each player's two entries and keeps all it sent. Saved together, none is saved."""

    def __init__(self, stale: Sequence[StaleEdit]) -> None:
        first = stale[0]
        players = [error.player or "?" for error in stale]
        names = ", ".join(f"{name}'s" for name in players[:-1]) + f" and {players[-1]}'s"
        now = "; ".join(f"{error.player}: {error.current.cards_text if error.current else 'undone'}" for error in stale)
        super().__init__(
            f"{names} leftovers were entered meanwhile on another phone ({now}). "
            "Check them, and correct them if they are wrong.",
            first.current,
            first.field,
            first.player,
        )
        self.stale = tuple(stale)
        self.index = first.index

    @property
    def conflicts(self) -> tuple[StaleEdit, ...]:
        return self.stale


class SecondThoughts(ChangeRefusal, AskFirst):
    """A change that may be a slip rather than a decision (the same pressure tapped twice):
    nothing is stored; the player is asked, and answers by sending it again, confirmed."""

    def details(self) -> dict[str, object]:
        return {"ask": str(self)}


@dataclass(frozen=True)
class Change:
    """What a request asks to append; ``address`` is the network address it came from, ``at``
    when it happened at the table (the tap, which an outbox may deliver later; empty: now);
    ``again``: the player said it is a second one, not the same tapped twice (a pressure)."""

    kind: str
    hand: int | None = None
    player: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    target: int | None = None
    address: str = ""
    at: str = ""
    again: bool = False

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
