"""A game's log folded into what stands now: each player's leftovers per hand, pressures, notes,
reminders and confirmations, and the complete hands scored by the engine. Pure: no web, no SQL.

The fold is one pass over the log, in order: an undo withdraws its target as it comes, so that
for each player and hand the latest leftovers not undone stand (undoing a correction brings back
the value it replaced). ``extended`` folds further entries onto a copy, keeping what the new
entries cannot change (the scored hands, when a pressure joins the hand in play): so a change
is checked in time linear in the log, never replaying it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from ..scoring import Game, GameRecord, GameScore, Hand, HandScore, score_game
from .entries import CONFIRM, LEFTOVERS, NOTE, ONE_CARD, PRESSURE, VOID, ChangeRefusal, Entry
from .history import describe
from .memo import Memo

_SCORES: Memo[GameScore] = Memo(512)
#: What a cached score stands on; forgotten when an entry may change the complete hands.
_SCORED = ("complete_hands", "hands", "score")


_Key = TypeVar("_Key")


def _push(listing: dict[_Key, tuple[Entry, ...]], key: _Key, entry: Entry) -> None:
    listing[key] = (*listing.get(key, ()), entry)


def _without(entries: tuple[Entry, ...], entry_id: int) -> tuple[Entry, ...]:
    return tuple(entry for entry in entries if entry.id != entry_id)


@dataclass
class GameState:
    """The log folded. Build it with ``fold`` or ``extended``; its fields are read, never written."""

    game: Game
    entries: list[Entry] = field(default_factory=list)
    leftovers: dict[tuple[int, str], Entry] = field(default_factory=dict)
    pressures: dict[int, tuple[Entry, ...]] = field(default_factory=dict)
    notes: dict[int, tuple[Entry, ...]] = field(default_factory=dict)
    owes_two: dict[int, dict[str, bool]] = field(default_factory=dict)
    confirmations: dict[int, tuple[Entry, ...]] = field(default_factory=dict)
    voided: set[int] = field(default_factory=set)
    #: Entries the engine refuses, left out of the scores until they are withdrawn (by id, with the
    #: engine's reason). Only a log written by an older version can hold one: a change is checked first.
    set_aside: dict[int, str] = field(default_factory=dict)
    by_id: dict[int, Entry] = field(default_factory=dict)
    #: Each submission's key (a retried submission is answered with what it saved the first time).
    by_key: dict[str, Entry] = field(default_factory=dict)
    #: A key unique to this game across every database (its record token), to share replays.
    memo_key: str | None = None
    #: Every entry that ever stood for a player's leftovers (or one-card mark) in a hand, in order:
    #: the last one standing is the one that counts.
    _leftover_stack: dict[tuple[int, str], tuple[Entry, ...]] = field(default_factory=dict, repr=False)
    _one_card_stack: dict[tuple[int, str], tuple[Entry, ...]] = field(default_factory=dict, repr=False)
    #: A score of the first hands, kept when entries change only later ones: the score goes on from it.
    _scored_before: GameScore | None = field(default=None, repr=False)

    @classmethod
    def fold(
        cls,
        game: Game,
        entries: Iterable[Entry],
        memo_key: str | None = None,
        set_aside: Mapping[int, str] | None = None,
    ) -> GameState:
        """Replay the log in order; entries ``set_aside`` are left out as if undone."""
        state = cls(game, memo_key=memo_key, set_aside=dict(set_aside or {}))
        for entry in entries:
            state._apply(entry)
        return state

    def extended(self, entries: Sequence[Entry]) -> GameState:
        """This state with ``entries`` folded on (a copy: this one is unchanged).

        The per-hand listings hold tuples, replaced rather than changed, so that a copy of
        their mappings is all a copy needs: a save is not a copy of every list of the log.
        """
        state = copy.copy(self)
        state.entries = list(self.entries)
        state.leftovers = dict(self.leftovers)
        state.pressures = dict(self.pressures)
        state.notes = dict(self.notes)
        state.owes_two = {hand: dict(marks) for hand, marks in self.owes_two.items()}
        state.confirmations = dict(self.confirmations)
        state.voided = set(self.voided)
        state.set_aside = dict(self.set_aside)
        state.by_id = dict(self.by_id)
        state.by_key = dict(self.by_key)
        state._leftover_stack = dict(self._leftover_stack)
        state._one_card_stack = dict(self._one_card_stack)
        state.__dict__.pop("_pending", None)
        for entry in entries:
            state._apply(entry)
        return state

    def stored(self, entry: Entry, checked: GameState) -> GameState:
        """This state with ``entry`` folded on as it was stored: ``checked`` is the state the same
        change made when it was checked under a stand-in id; its scores, which no id changes,
        are kept rather than worked out again."""
        state = self.extended([entry])
        for name in _SCORED:
            if name in checked.__dict__:
                state.__dict__.setdefault(name, checked.__dict__[name])
        return state

    def _apply(self, entry: Entry) -> None:
        """Fold one entry on, in place, forgetting what it may change of what was worked out."""
        self.entries.append(entry)
        self.by_id[entry.id] = entry
        if entry.idem_key:
            self.by_key[entry.idem_key] = entry
        self.__dict__.pop("_pending", None)
        if entry.kind == VOID:
            if entry.target is not None:
                self._withdraw(entry.target)
            return
        if entry.id in self.set_aside or entry.hand is None:
            return
        keep_scores = "complete_hands" in self.__dict__ and not self._may_change_scores(entry)
        self._place(entry)
        if not keep_scores:
            before = self.__dict__.get("score") or self._scored_before
            self._forget_scores()
            # The entry changes its own hand only: a score of the hands before it still stands.
            self._scored_before = before if before is not None and entry.hand > len(before.hands) else None

    def _may_change_scores(self, entry: Entry) -> bool:
        """Whether the entry can change which hands are complete or how they score: a note, a
        reminder or a confirmation never does; a pressure or leftovers in the hand in play only
        when they complete it."""
        if entry.kind in (NOTE, ONE_CARD, CONFIRM):
            return False
        complete = self.complete_hands
        if (entry.hand or 0) <= complete or self.current_hand is None:
            return True
        if entry.kind == LEFTOVERS:
            others = (player for player in self.game.players if player != entry.player)
            return all(((entry.hand or 0), player) in self.leftovers for player in others)
        return False

    def _forget_scores(self) -> None:
        for name in _SCORED:
            self.__dict__.pop(name, None)

    def _place(self, entry: Entry) -> None:
        hand = entry.hand or 0
        if entry.kind == LEFTOVERS and entry.player is not None:
            _push(self._leftover_stack, (hand, entry.player), entry)
            self.leftovers[(hand, entry.player)] = entry
        elif entry.kind == PRESSURE:
            _push(self.pressures, hand, entry)
        elif entry.kind == NOTE:
            _push(self.notes, hand, entry)
        elif entry.kind == CONFIRM:
            _push(self.confirmations, hand, entry)
        elif entry.kind == ONE_CARD and entry.player is not None:
            _push(self._one_card_stack, (hand, entry.player), entry)
            self.owes_two.setdefault(hand, {})[entry.player] = bool(entry.data.get("owes"))

    def _withdraw(self, target_id: int) -> None:
        """An undo: its target stops counting (and stops being set aside)."""
        self.voided.add(target_id)
        self.set_aside.pop(target_id, None)
        target = self.by_id.get(target_id)
        if target is None or target.hand is None:
            return
        hand = target.hand
        self._forget_scores()
        self._scored_before = None
        if target.kind == LEFTOVERS and target.player is not None:
            key = (hand, target.player)
            stack = _without(self._leftover_stack.get(key, ()), target_id)
            self._leftover_stack[key] = stack
            if stack:
                self.leftovers[key] = stack[-1]
            else:
                self.leftovers.pop(key, None)
        elif target.kind == ONE_CARD and target.player is not None:
            key = (hand, target.player)
            marks = _without(self._one_card_stack.get(key, ()), target_id)
            self._one_card_stack[key] = marks
            if marks:
                self.owes_two.setdefault(hand, {})[target.player] = bool(marks[-1].data.get("owes"))
            else:
                self.owes_two.get(hand, {}).pop(target.player, None)
        else:
            listing = {PRESSURE: self.pressures, NOTE: self.notes, CONFIRM: self.confirmations}.get(target.kind)
            if listing is not None and hand in listing:
                listing[hand] = _without(listing[hand], target_id)

    def set_aside_lines(self) -> list[tuple[Entry, str, str]]:
        """Each entry set aside: (the entry, what it was, why the engine refuses it)."""
        lines = []
        for key, why in self.set_aside.items():
            entry = self.by_id[key]
            what, _, value = describe(entry, self.by_id)
            lines.append((entry, f"{what}: {value}" if value else what, why.removeprefix(f"Hand {entry.hand}: ")))
        return lines

    def counted(self) -> list[Entry]:
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
        if most is None and count:
            return len(score_game(self.game, self._hands(count), until_decided=True).hands)
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
        after = [c for c in self.confirmations.get(number, ()) if last is None or c.seq > last.seq]
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

    def hand_pressures(self, number: int) -> tuple[Entry, ...]:
        return self.pressures.get(number, ())

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

        def scored() -> GameScore:
            return score_game(self.game, self.hands, scored_before=self._scored_before)

        if self.memo_key is None:
            return scored()
        return _SCORES.get((self.memo_key, self._complete_signature()), scored)

    def _complete_signature(self) -> tuple[int, ...]:
        """The entries the complete hands stand on (by their place in the log, known before they are stored)."""
        seqs: list[int] = []
        for number in range(1, self.complete_hands + 1):
            seqs += [self.leftovers[(number, player)].seq for player in self.game.players]
            seqs += [entry.seq for entry in self.hand_pressures(number)]
            seqs.append(-1)
        return tuple(seqs)

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
                side = side_of.get(entry.player or "")
                if side is None:
                    raise ChangeRefusal(f"{entry.player!r} is not a player of this game", "player")
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


@dataclass(frozen=True)
class Appended:
    """One change taken into the log: its entry (a stand-in id until stored), the state it makes,
    and whether it is a retry of one already in the log (``duplicate``: nothing new to store)."""

    entry: Entry
    state: GameState
    duplicate: bool
