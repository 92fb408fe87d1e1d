"""A game's append-only log, folded into what stands now. Pure: no web, no SQL.

Every change at the table is an entry: leftovers (new, or a correction naming the
entry it replaces), a pressure, a ruling note, a one-card reminder, or a void that
undoes an earlier entry. Nothing is ever updated or deleted; the scores are the
complete hands replayed through the scoring engine.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..scoring import Card, Game, GameRecord, GameScore, Hand, HandScore, RefereeError, ScoringError, score_game
from ..scoring.errors import sentence
from ..scoring.replay import check_pressure
from .memo import Memo

LEFTOVERS = "leftovers"
PRESSURE = "pressure"
NOTE = "note"
ONE_CARD = "one_card"
VOID = "void"
CONFIRM = "confirm"
NOTE_MAX_LENGTH = 500
#: The form field a refusal of each kind of change belongs beside.
FIELD_OF_CHANGE = {LEFTOVERS: "cards", PRESSURE: "player", NOTE: "text"}

_SCORES: Memo[GameScore] = Memo(512)
_log = logging.getLogger(__name__)


class TableError(ValueError):
    """A change the table's state refuses; ``field`` names the form field it concerns, and
    ``index`` which of several changes saved together (``append_all``) was refused."""

    index: int | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class StaleEdit(TableError):
    """The form was built from a value that has changed since: ``current`` is what stands now."""

    def __init__(self, message: str, current: Entry | None) -> None:
        super().__init__(message)
        self.current = current


class SecondThoughts(TableError):
    """A change that may be a slip rather than a decision (the same pressure tapped twice):
    nothing is stored; the player is asked, and answers by sending it again, confirmed."""


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

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card.parse(token) for token in self.data.get("cards", ()))

    @property
    def cards_text(self) -> str:
        return " ".join(card.label for card in self.cards) or "went out"


@dataclass
class TableState:
    """The log folded: each player's leftovers per hand, pressures, notes, reminders."""

    game: Game
    entries: tuple[Entry, ...]
    leftovers: dict[tuple[int, str], Entry] = field(default_factory=dict)
    pressures: dict[int, list[Entry]] = field(default_factory=dict)
    notes: dict[int, list[Entry]] = field(default_factory=dict)
    owes_two: dict[int, dict[str, bool]] = field(default_factory=dict)
    confirmations: dict[int, list[Entry]] = field(default_factory=dict)
    voided: set[int] = field(default_factory=set)
    #: Entries the engine refuses, left out of the scores until they are withdrawn (by id, with the
    #: engine's reason). Only a log written by an older version can hold one: a change is checked first.
    set_aside: dict[int, str] = field(default_factory=dict)
    by_id: dict[int, Entry] = field(default_factory=dict)
    #: A key unique to this game across every database (its record token), to share replays.
    memo_key: str | None = None

    @classmethod
    def fold(
        cls,
        game: Game,
        entries: Sequence[Entry],
        memo_key: str | None = None,
        set_aside: Mapping[int, str] | None = None,
    ) -> TableState:
        """Replay the log in order: for each player and hand the latest leftovers not undone
        stand (so undoing a correction brings back the value it replaced). Entries ``set_aside``
        are left out as if undone."""
        state = cls(game, tuple(entries), memo_key=memo_key)
        state.by_id = {entry.id: entry for entry in entries}
        state.voided = {e.target for e in entries if e.kind == VOID and e.target is not None}
        state.set_aside = {key: why for key, why in (set_aside or {}).items() if key not in state.voided}
        for entry in entries:
            if entry.id in state.voided or entry.id in state.set_aside or entry.hand is None:
                continue
            if entry.kind == LEFTOVERS and entry.player is not None:
                state.leftovers[(entry.hand, entry.player)] = entry
            elif entry.kind == PRESSURE:
                state.pressures.setdefault(entry.hand, []).append(entry)
            elif entry.kind == NOTE:
                state.notes.setdefault(entry.hand, []).append(entry)
            elif entry.kind == CONFIRM:
                state.confirmations.setdefault(entry.hand, []).append(entry)
            elif entry.kind == ONE_CARD and entry.player is not None:
                state.owes_two.setdefault(entry.hand, {})[entry.player] = bool(entry.data.get("owes"))
        return state

    @classmethod
    def replay(cls, game: Game, entries: Sequence[Entry], memo_key: str | None = None) -> TableState:
        """The log folded, with any entry the engine refuses set aside, so that a game an older
        version let break still opens and can be repaired by withdrawing that entry."""
        state = cls.fold(game, entries, memo_key)
        problem = state.problem()
        while problem is not None:
            culprit = state._culprit()
            if culprit is None:
                break
            aside = {**state.set_aside, culprit.id: str(problem)}
            state = cls.fold(game, entries, memo_key, aside)
            problem = state.problem()
        return state

    def _culprit(self) -> Entry | None:
        """The entry whose withdrawal repairs the game (the oldest such); else the newest that counts."""
        counted = [
            entry
            for entry in self.entries
            if entry.kind in (LEFTOVERS, PRESSURE) and entry.id not in self.voided and entry.id not in self.set_aside
        ]
        for entry in counted:
            trial = TableState.fold(self.game, self.entries, self.memo_key, {**self.set_aside, entry.id: ""})
            if trial.problem() is None:
                return entry
        return counted[-1] if counted else None

    def verify(self) -> None:
        """Run what stands through the engine: the complete hands scored, the hand in play checked
        as far as it goes, no hand recorded after the game was decided. Raises TableError."""
        try:
            self._verify()
        except TableError:
            raise
        except ScoringError as error:
            raise TableError(sentence(str(error))) from None
        except Exception as error:  # a bug must refuse the change, never break the game
            _log.exception("the engine failed on a game's log")
            raise TableError(f"The scoring engine could not take this change ({type(error).__name__}).") from None

    def problem(self) -> TableError | None:
        try:
            self.verify()
        except TableError as error:
            return error
        return None

    def _verify(self) -> None:
        score = self.score
        number = self.current_hand
        if number is None:
            later = sorted({e.hand for e in self._counted() if e.hand is not None and e.hand > len(score.hands)})
            if later:
                raise TableError(
                    f"The game was decided in hand {len(score.hands)}, but hand {later[0]} was played after it: "
                    "correct or undo the change that decided it early."
                )
            return
        rules = self.game.rules
        entered = {player: entry.cards for player, entry in self.hand_leftovers(number).items()}
        if entered:
            try:
                rules.check_leftovers(entered)
                for cards in entered.values():
                    rules.score_leftovers(cards)
            except ScoringError as error:
                raise TableError(f"Hand {number}: {sentence(str(error))}", "cards") from None
        for entry in self.hand_pressures(number):
            try:
                check_pressure(self.game, number, entry.player or "")
            except ScoringError as error:
                raise TableError(sentence(str(error)), "player") from None
        self.pending_pressures()

    def set_aside_lines(self) -> list[tuple[Entry, str, str]]:
        """Each entry set aside: (the entry, what it was, why the engine refuses it)."""
        lines = []
        for key, why in self.set_aside.items():
            entry = self.by_id[key]
            what, _, value = describe(entry, self)
            lines.append((entry, f"{what}: {value}" if value else what, why.removeprefix(f"Hand {entry.hand}: ")))
        return lines

    def _counted(self) -> list[Entry]:
        """The leftovers and pressures that stand (not undone, not set aside)."""
        return [*self.leftovers.values(), *(entry for entries in self.pressures.values() for entry in entries)]

    # What stands now -------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.entries)

    @cached_property
    def complete_hands(self) -> int:
        """How many hands, from the first, have every player's leftovers (up to the game's end)."""
        most = self.game.rules.max_hands()
        count = 0
        while (most is None or count < most) and self.hand_is_complete(count + 1):
            count += 1
            if most is None and score_game(self.game, self._hands(count)).finished:
                break
        return count

    def hand_is_complete(self, number: int) -> bool:
        return all((number, player) in self.leftovers for player in self.game.players)

    @property
    def finished(self) -> bool:
        return self.score.finished

    @property
    def last_hand(self) -> int:
        """The hand in play, or the last hand of a finished game."""
        return self.current_hand or self.complete_hands

    @property
    def current_hand(self) -> int | None:
        """The hand being played, or None when the game is over."""
        return None if self.finished else self.complete_hands + 1

    def last_change(self, number: int) -> Entry | None:
        """The latest entry that shaped the hand (leftovers or a pressure), undone ones included."""
        changes = [e for e in self.entries if e.hand == number and e.kind in (LEFTOVERS, PRESSURE)]
        voids = [e for e in self.entries if e.kind == VOID and self.by_id.get(e.target or -1) in changes]
        return max(changes + voids, key=lambda e: e.seq, default=None)

    def confirmed_by(self, number: int) -> Entry | None:
        """The confirmation that makes the hand final: one made after its last change."""
        last = self.last_change(number)
        after = [c for c in self.confirmations.get(number, []) if last is None or c.seq > last.seq]
        return after[0] if after else None

    @property
    def unconfirmed_hands(self) -> list[int]:
        return [n for n in range(1, self.complete_hands + 1) if self.confirmed_by(n) is None]

    @property
    def final_hands(self) -> int:
        """How many hands, from the first, are complete and confirmed."""
        count = 0
        while count < self.complete_hands and self.confirmed_by(count + 1) is not None:
            count += 1
        return count

    def hand_leftovers(self, number: int) -> dict[str, Entry]:
        return {p: self.leftovers[(number, p)] for p in self.game.players if (number, p) in self.leftovers}

    def hand_pressures(self, number: int) -> list[Entry]:
        return self.pressures.get(number, [])

    def owing(self, number: int) -> list[str]:
        marks = self.owes_two.get(number, {})
        return [player for player in self.game.players if marks.get(player)]

    @cached_property
    def hands(self) -> tuple[Hand, ...]:
        return self._hands(self.complete_hands)

    def _hands(self, count: int) -> tuple[Hand, ...]:
        return tuple(
            Hand(
                {p: self.leftovers[(n, p)].cards for p in self.game.players},
                tuple(entry.player or "" for entry in self.hand_pressures(n)),
            )
            for n in range(1, count + 1)
        )

    @cached_property
    def score(self) -> GameScore:
        """The complete hands replayed; a pressure in the hand in play does not replay them again."""
        if self.memo_key is None:
            return score_game(self.game, self.hands)
        return _SCORES.get((self.memo_key, self._complete_signature()), lambda: score_game(self.game, self.hands))

    def _complete_signature(self) -> tuple[int, ...]:
        """The entries the complete hands stand on."""
        ids: list[int] = []
        for number in range(1, self.complete_hands + 1):
            ids += [self.leftovers[(number, player)].id for player in self.game.players]
            ids += [entry.id for entry in self.hand_pressures(number)]
            ids.append(-1)
        return tuple(ids)

    def ruling_notes(self) -> dict[int, list[str]]:
        """Each hand's ruling notes, as the sheet prints them under Rulings."""
        return {number: [str(e.data.get("text", "")) for e in entries] for number, entries in self.notes.items()}

    def record(self, extra: Mapping[str, object] | None = None) -> GameRecord:
        return GameRecord(self.game, self.hands, dict(extra or {}))

    @cached_property
    def _pending(self) -> tuple[list[tuple[Entry, str, int]], dict[str, int]]:
        taken = {side.side.name: side.pressures_taken for side in self.score.sides}
        pending = []
        if self.current_hand is not None:
            side_of = {member: side.name for side in self.game.sides for member in side.members}
            for entry in self.hand_pressures(self.current_hand):
                side = side_of[entry.player or ""]
                taken[side] += 1
                pending.append((entry, side, self.game.rules.pressure_value(taken[side])))
        return pending, taken

    def pressures_on(self, number: int, player: str) -> list[Entry]:
        """The pressures recorded on ``player`` in hand ``number`` that still stand."""
        return [entry for entry in self.hand_pressures(number) if entry.player == player]

    def pending_pressures(self) -> list[tuple[Entry, str, int]]:
        """Pressures of the hand in play, each with its side and what it costs."""
        return self._pending[0]

    def next_pressure(self, side: str) -> int:
        """What the side's next pressure costs, counting those of the hand in play."""
        if not self.game.rules.has_pressures:
            return 0
        return self.game.rules.pressure_value(self._pending[1][side] + 1)

    def pressure_cost(self, entry: Entry) -> int | None:
        """What a pressure of the hand in play costs; None for any other entry (one undone, an earlier hand's)."""
        return next((cost for pending, _, cost in self.pending_pressures() if pending.id == entry.id), None)

    def next_seat_to_enter(self, number: int) -> int | None:
        """The first seat whose leftovers for hand ``number`` are still to come; None once the hand is complete."""
        missing = (seat for seat, player in enumerate(self.game.players) if (number, player) not in self.leftovers)
        return next(missing, None)

    def hand_score(self, number: int) -> HandScore | None:
        """Hand ``number`` as scored, once it counts: complete, and not played after the game was decided."""
        return self.score.hands[number - 1] if 1 <= number <= len(self.score.hands) else None

    # Checking a change before it is appended --------------------------------

    def check(self, change: Change) -> None:
        """Refuse a change the game's state does not allow; the message says what to do."""
        checker = {
            LEFTOVERS: self._check_leftovers,
            PRESSURE: self._check_pressure,
            NOTE: self._check_note,
            ONE_CARD: self._check_one_card,
            VOID: self._check_void,
            CONFIRM: self._check_confirm,
        }.get(change.kind)
        if checker is None:
            raise TableError(f"unknown change {change.kind!r}")
        checker(change)

    def _check_hand_number(self, number: int | None, latest: int | None = None) -> int:
        limit = latest or self.last_hand
        if number is None or not 1 <= number <= limit:
            raise TableError(f"hand {number} is not open: hands 1 to {limit} are", "hand")
        return number

    def _check_player(self, player: str | None) -> str:
        if player not in self.game.players:
            raise TableError(f"{player!r} is not a player of this game", "player")
        return player

    def _check_leftovers(self, change: Change) -> None:
        number = self._check_hand_number(change.hand)
        player = self._check_player(change.player)
        current = self.leftovers.get((number, player))
        if (current.id if current else None) != change.target:
            if current is None:
                raise StaleEdit(f"{player}'s leftovers for hand {number} were undone meanwhile", None)
            raise StaleEdit(
                f"{player}'s leftovers for hand {number} were entered meanwhile "
                f"({current.cards_text}). Check them, and correct them if they are wrong.",
                current,
            )
        try:
            cards = tuple(Card.parse(token) for token in change.data.get("cards", ()))
            trial = {p: entry.cards for p, entry in self.hand_leftovers(number).items()}
            trial[player] = cards
            self.game.rules.check_leftovers(trial)
        except ScoringError as error:
            raise TableError(f"Hand {number}: {error}", "cards") from None

    def _check_pressure(self, change: Change) -> None:
        number = self._check_hand_number(change.hand)
        player = self._check_player(change.player)
        try:
            self.game.rules.check_pressure(self.game, number, player)
        except RefereeError as error:
            raise TableError(str(error), "player") from None

    def _check_note(self, change: Change) -> None:
        self._check_hand_number(change.hand)
        text = str(change.data.get("text", "")).strip()
        if not text:
            raise TableError("write the ruling first", "text")
        if len(text) > NOTE_MAX_LENGTH:
            raise TableError(f"a note holds at most {NOTE_MAX_LENGTH} characters", "text")

    def _check_one_card(self, change: Change) -> None:
        if change.hand != self.current_hand:
            raise TableError("one-card reminders are for the hand in play", "hand")
        self._check_player(change.player)

    def _check_confirm(self, change: Change) -> None:
        """Another phone than the one that made the hand's last change confirms it, naming who confirms.

        A phone is known by its cookie and by its network address: clearing the cookie makes a new
        label but leaves the address, so a confirmation from either is the same phone's.
        """
        number = change.hand or 0
        if not 1 <= number <= self.complete_hands:
            raise TableError(f"hand {number} is not complete yet: enter every player's leftovers first", "hand")
        self._check_player(change.player)
        if self.confirmed_by(number) is not None:
            raise TableError(f"hand {number} is already confirmed")
        last = self.last_change(number)
        source = str(change.data.get("source", ""))
        same_address = last is not None and bool(change.address) and last.address == change.address
        if last is not None and source != "director" and (last.source == source or same_address):
            raise TableError(
                f"hand {number} was last changed from this phone: a player of another side confirms it on theirs"
            )

    def _check_void(self, change: Change) -> None:
        target = self.by_id.get(change.target or -1)
        if target is None or target.kind == VOID:
            raise TableError("there is no such change to undo")
        if target.id in self.voided:
            raise StaleEdit("that change was already undone", target)
        if target.id in self.set_aside:
            return
        if target.kind == LEFTOVERS:
            current = self.leftovers.get((target.hand or 0, target.player or ""))
            if current is None or current.id != target.id:
                raise StaleEdit("those leftovers were corrected since: undo the correction instead", current)
            if (target.hand or 0) < self.complete_hands:
                raise TableError(f"hand {target.hand} is followed by complete hands: correct it instead of undoing it")


def describe(entry: Entry, state: TableState) -> tuple[str, str, str]:
    """A history line: (what, old value, new value)."""
    hand = f"Hand {entry.hand}" if entry.hand else "Game"
    if entry.kind == LEFTOVERS:
        previous = state.by_id.get(entry.target) if entry.target else None
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
    target = state.by_id.get(entry.target or -1)
    if target is None:
        return "Undo", "", ""
    what, _, value = describe(target, state)
    return f"Undone: {what}", value, "removed"
