"""What a game's log takes of a save: the one decision between a phone's changes and storage.

``take`` is handed the state a save meets, the changes it sends (each with its idempotency key)
and who sends them, and returns what to append, or the refusal: a retry answered with what it
saved the first time, a game locked by the director, the second pressure that may be a slip
(asked, not refused), each change checked and folded on (``checks.accept``), and changes that
met another phone's entries named all at once. Storage only loads the state, and inserts what
this returns if the game's version is still the one it read. Pure: no web, no SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ..scoring.rulebook import SAME_PRESSURE_SECONDS
from .checks import accept
from .entries import PRESSURE, Change, ChangeRefusal, Entry, SecondThoughts, StaleEdit, StaleEdits
from .said import said_of
from .state import Appended, GameState

#: The source of a change made by the logged-in director.
DIRECTOR = "director"

LOCKED = "This game is locked by the director: only the director can change it now."


class GameLocked(ChangeRefusal):
    """A change to a game the director locked: the phone is told so (``locked``), and shows the lock."""

    def details(self) -> dict[str, object]:
        return {"locked": True}


@dataclass(frozen=True)
class Sender:
    """Who sends a save: the phone's label (``DIRECTOR`` for the logged-in director), ``when`` it is
    taken (the time stamped on an entry whose change does not say when it was made), and whether
    it may change a game the director locked."""

    source: str
    when: str
    director: bool = False


@dataclass(frozen=True)
class Taken:
    """What a save appends, and what the table is told of it: the sentence (``said``) and the hand's
    next seat still to enter its leftovers (None once complete)."""

    appended: tuple[Appended, ...]
    said: str
    next_seat: int | None
    #: The last change's entry, and the state the save makes: what a page shows next.
    last: Appended = field(init=False)
    state: GameState = field(init=False)
    #: Whether the save corrects what was entered before (it then goes on to the hand's detail).
    corrects: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "last", self.appended[-1])
        object.__setattr__(self, "state", self.appended[-1].state)
        object.__setattr__(self, "corrects", any(item.entry.target is not None for item in self.appended))

    @property
    def new(self) -> list[Appended]:
        """What storage inserts: the changes that are not retries of ones already in."""
        return [item for item in self.appended if not item.duplicate]


def take(
    state: GameState,
    changes: Sequence[tuple[Change, str]],
    sender: Sender,
    locked: bool = False,
    whole_hand: bool = False,
) -> Taken:
    """Each change checked and folded on in turn, or the refusal (naming, by its ``index``, the
    change it refuses).

    A change that meets another phone's made meanwhile (``StaleEdit``) does not stop the check: the
    rest are checked too, so that the refusal names every one of them (``StaleEdits``) and the
    phone can show each player's two entries at once. Conflicts are answered before any other
    refusal (what else stands may depend on how they are settled); without them, the first
    refusal. ``whole_hand``: the changes are a whole hand's leftovers from one pad, and are said so."""
    taken: list[Appended] = []
    stale: list[StaleEdit] = []
    refused: ChangeRefusal | None = None
    for index, (change, idem_key) in enumerate(changes):
        try:
            done = _appended_before(state, change, idem_key)
            if done is None:
                if locked and not sender.director:
                    raise GameLocked(LOCKED)
                _ask_about_second_pressure(state, change, sender)
                entry = Entry.of(change, -(state.version + 1), state.version + 1, idem_key, sender.source, sender.when)
                done = Appended(entry, accept(state, change, entry), duplicate=False)
        except ChangeRefusal as error:
            error.index = index
            if isinstance(error, StaleEdit):
                stale.append(error)
            elif refused is None:
                refused = error
            continue
        taken.append(done)
        state = done.state
    if len(stale) > 1:
        raise StaleEdits(stale)
    if stale:
        raise stale[0]
    if refused is not None:
        raise refused
    last = taken[-1]
    return Taken(tuple(taken), said_of(taken, whole_hand), state.next_seat_to_enter(last.entry.hand or 0))


def _appended_before(state: GameState, change: Change, idem_key: str) -> Appended | None:
    """What an idempotency key already saved (a retry), or None; the key reused for another change is refused."""
    if not idem_key or len(idem_key) > 100:
        raise ChangeRefusal("this form is missing its submission key: reload the page and try again")
    entry = state.by_key.get(idem_key)
    if entry is None:
        return None
    if change.same_as(entry):
        return Appended(entry, state, duplicate=True)
    raise ChangeRefusal("This submission was already used for a different change: reload the page and try again.")


def _ask_about_second_pressure(state: GameState, change: Change, sender: Sender) -> None:
    """Two pressures on one player this close together are more often one pressure tapped twice
    (a double tap, or two phones) than two: the second is taken only once the player says so
    (``change.again``).

    The moments compared are the taps (each entry is stored with its tap's time): two pressures
    taken offline minutes apart and delivered together are not questioned, and one tapped offline
    a second before another phone's is."""
    if change.kind != PRESSURE or change.again or not change.at:
        return
    tapped = datetime.fromisoformat(change.at)
    player = str(change.player)
    for recent in state.pressures_on(change.hand or 0, player):
        if abs((tapped - datetime.fromisoformat(recent.created_at)).total_seconds()) > SAME_PRESSURE_SECONDS:
            continue
        if recent.source == sender.source:
            raise SecondThoughts(f"Another pressure on {player}? One was recorded moments ago.", "player")
        raise SecondThoughts(f"{player}'s pressure was just recorded on another phone. Is this a second one?", "player")
