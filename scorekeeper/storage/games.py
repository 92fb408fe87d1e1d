"""A game's rows: the game itself and its log, the SQL for them (each part of the app stored has
a module of its own beside this one).

A game row holds who plays under which rules and its three capabilities (the
record token, the view token, the short join code); everything that happens is an
entry appended to the game's log. Rows become domain objects at this edge.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import sqlite_utils

from ..gamelog import DIRECTOR, Appended, Change, Entry, GameState, Sender, Taken, describe, replay, take
from ..gamelog.memo import Memo
from ..scoring import Game, configure
from .database import immediate

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


@dataclass(frozen=True)
class StoredGame:
    id: int
    record_token: str
    view_token: str
    code: str
    title: str
    created_at: str
    game: Game
    verify: bool = False
    #: An imported game nobody had opened when the row was read (``mark_opened``).
    unopened: bool = False
    #: The names epoch the row was read at (``NAMES_EPOCH``): what it is remembered under.
    epoch: str = ""

    @property
    def code_display(self) -> str:
        return f"{self.code[:4]}-{self.code[4:]}"

    @property
    def memo_key(self) -> str:
        """What this process remembers the game's states under: its record token, at its names epoch."""
        return f"{self.record_token}#{self.epoch}" if self.epoch else self.record_token


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What a player typed, as stored: capitals, no dashes or spaces, O read as 0 is not ours."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


#: A settings row moved whenever stored game rows change after all (a member's name removed from
#: the games they played): what this process remembers of a game is remembered under it.
NAMES_EPOCH = "names_epoch"
_EPOCH = f"(SELECT value FROM settings WHERE key = '{NAMES_EPOCH}')"
#: A game row's columns with the names epoch it was read at.
GAME_COLUMNS = f"*, {_EPOCH} AS names_epoch"


def names_epoch(db: sqlite_utils.Database) -> str:
    """The names epoch now ("" before any name was removed)."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", [NAMES_EPOCH]).fetchone()
    return "" if row is None else str(row[0])


def create_game(db: sqlite_utils.Database, game: Game, title: str = "") -> StoredGame:
    with immediate(db):
        return insert_game(db, game, title)


def insert_game(db: sqlite_utils.Database, game: Game, title: str, verify: bool = False) -> StoredGame:
    for _ in range(5):
        row = {
            "record_token": secrets.token_urlsafe(18),
            "view_token": secrets.token_urlsafe(18),
            "code": new_code(),
            "rules": game.rules.id,
            "options": json.dumps(game.rules.options()),
            "players": json.dumps(list(game.players)),
            "partnerships": json.dumps([list(team) for team in game.partnerships]),
            "first_dealer": game.dealer(1),
            "title": title.strip(),
            "version": 0,
            "created_at": now(),
            "verify": int(verify),
        }
        try:
            db.conn.execute("SAVEPOINT new_game")
            cursor = db.conn.execute(
                f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
            db.conn.execute("RELEASE SAVEPOINT new_game")
        except sqlite3.IntegrityError:
            db.conn.execute("ROLLBACK TO SAVEPOINT new_game")
            db.conn.execute("RELEASE SAVEPOINT new_game")
            continue
        return _game_from_row({**row, "id": cursor.lastrowid, "names_epoch": names_epoch(db)})
    raise RuntimeError("could not draw a unique game code")


def _game_from_row(row: dict[str, object]) -> StoredGame:
    rules = configure(str(row["rules"]), json.loads(str(row["options"])))
    game = Game(
        rules,
        tuple(json.loads(str(row["players"]))),
        tuple(tuple(team) for team in json.loads(str(row["partnerships"]))),
        str(row["first_dealer"]),
    )
    return StoredGame(
        id=int(str(row["id"])),
        record_token=str(row["record_token"]),
        view_token=str(row["view_token"]),
        code=str(row["code"]),
        title=str(row["title"]),
        created_at=str(row["created_at"]),
        game=game,
        verify=bool(row.get("verify", 0)),
        unopened=bool(row.get("unopened_import", 0)),
        epoch=str(row.get("names_epoch") or ""),
    )


#: Game rows never change once written (the version column is read separately), nor do
#: a game's first N entries: so a game by token, and its state at a version, can be kept. Only
#: a member's name removed changes them (and moves the names epoch): a game remembered at
#: another epoch is read again, and states are remembered by the epoch of the row they fold.
#: The director's event page reads every table of the event at each look: a process keeps the
#: latest state of ``LATEST_KEPT`` games (a 300-player event's 13 rounds; a finished game's
#: state is some 30-50 KB), so that a look folds only the tables that moved since the last.
LATEST_KEPT = 1024
_GAMES: Memo[StoredGame] = Memo(2 * LATEST_KEPT)
_STATES: Memo[GameState] = Memo(256)
#: Each game's latest state this process has seen, to fold on what other processes appended since.
_LATEST: Memo[GameState] = Memo(LATEST_KEPT)


def _find_game(db: sqlite_utils.Database, column: str, value: str) -> StoredGame | None:
    if not value:
        return None
    found = _GAMES.lookup((column, value))
    if found is None or found.epoch != names_epoch(db):
        found = _load_game(db, column, value)
        if found is not None:  # a missing game is not remembered: it may be created a moment later
            _GAMES.put((column, value), found)
    return found


def remembered_game(row: dict[str, object]) -> StoredGame:
    """The game of a row read with ``GAME_COLUMNS`` (as part of a join, say): the one kept by its
    record token if it was kept at the row's names epoch, else made from the row (and kept)."""
    key = ("record_token", str(row["record_token"]))
    found = _GAMES.lookup(key)
    if found is None or found.epoch != str(row.get("names_epoch") or ""):
        found = _game_from_row(row)
        _GAMES.put(key, found)
    return found


def _load_game(db: sqlite_utils.Database, column: str, value: object) -> StoredGame | None:
    rows = list(db.query(f"SELECT {GAME_COLUMNS} FROM games WHERE {column} = ?", [value]))
    return _game_from_row(rows[0]) if rows else None


def game_by_record_token(db: sqlite_utils.Database, token: str) -> StoredGame | None:
    return _find_game(db, "record_token", token)


def game_by_view_token(db: sqlite_utils.Database, token: str) -> StoredGame | None:
    return _find_game(db, "view_token", token)


def game_by_code(db: sqlite_utils.Database, code: str) -> StoredGame | None:
    return _find_game(db, "code", normalise_code(code))


def game_version(db: sqlite_utils.Database, column: str, token: str) -> int | None:
    """The version a phone follows, by one of the game's tokens: cheap, for polling. It is the
    number of entries in its log plus its notices (how often its lock or its round's clock
    changed), so that a lock or a clock reaches the table's phones as a change does."""
    if column not in ("record_token", "view_token") or not token:
        return None
    row = db.execute(f"SELECT version + notices FROM games WHERE {column} = ?", [token]).fetchone()
    return int(row[0]) if row else None


def _entries(db: sqlite_utils.Database, game_id: int, version: int, after: int = 0) -> list[Entry]:
    """The game's entries after the first ``after`` up to ``version`` (one appended meanwhile
    belongs to the next version)."""
    return [
        Entry(
            id=row["id"],
            seq=row["seq"],
            kind=row["kind"],
            hand=row["hand"],
            player=row["player"],
            data=json.loads(row["data"]),
            target=row["target"],
            source=row["source"],
            created_at=row["created_at"],
            idem_key=row["idem_key"],
            address=row["address"],
        )
        for row in db.query(
            "SELECT * FROM entries WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq", [game_id, after, version]
        )
    ]


@dataclass(frozen=True)
class _Standing:
    """A game's row as it stands: how many entries its log holds, whether the director locked it,
    and the names epoch (moved: its players' names are not those of the row read before)."""

    version: int
    locked: bool
    epoch: str


def _standing(db: sqlite_utils.Database, stored: StoredGame) -> _Standing:
    row = db.execute(f"SELECT version, locked, {_EPOCH} FROM games WHERE id = ?", [stored.id]).fetchone()
    return _Standing(int(row[0]), bool(row[1]), str(row[2] or ""))


def _read_again(db: sqlite_utils.Database, stored: StoredGame) -> StoredGame:
    """The game's row as it now is (its players' names changed since ``stored`` was read)."""
    fresh = _load_game(db, "id", stored.id)
    assert fresh is not None  # a game row is never deleted
    return fresh


def load_state(db: sqlite_utils.Database, stored: StoredGame, version: int | None = None) -> GameState:
    """The game's state now (or at ``version``): the same state kept from an earlier request; else
    the latest kept with the entries appended since folded on (another worker process appended
    them); else its whole log folded."""
    if version is None:
        version = _standing(db, stored).version
    key = stored.memo_key
    found = _STATES.lookup((key, version))
    if found is None:
        earlier = _LATEST.lookup(key)
        if earlier is not None and earlier.version == version:
            return earlier
        if earlier is not None and earlier.version < version:
            found = earlier.extended(_entries(db, stored.id, version, after=earlier.version))
        else:
            found = replay(stored.game, _entries(db, stored.id, version), key)
        _remember(key, found)
    return found


def _remember(key: str, state: GameState) -> None:
    _STATES.put((key, state.version), state)
    latest = _LATEST.lookup(key)
    if latest is None or latest.version < state.version:
        _LATEST.put(key, state)


#: How often a save is checked again when another phone's change was appended while it was
#: checked, before it is checked holding the write lock (so that it cannot lose every race).
RACES_BEFORE_WAITING = 3


def append(
    db: sqlite_utils.Database,
    stored: StoredGame,
    change: Change,
    idem_key: str,
    source: str,
    director: bool = False,
    read: GameState | None = None,
) -> Appended:
    """One change appended (``append_all``), as the command line and the tests make them."""
    return append_all(db, stored, [(change, idem_key)], Sender(source, now(), director), read).last


def append_all(
    db: sqlite_utils.Database,
    stored: StoredGame,
    changes: Sequence[tuple[Change, str]],
    sender: Sender,
    read: GameState | None = None,
    whole_hand: bool = False,
) -> Taken:
    """Changes appended together, exactly once per idempotency key: what the game's log takes of
    them (``gamelog.take``: it decides), inserted if the game still stands as it was read.

    The log is read and the changes taken before the write lock; under it, the game's version,
    lock and names are confirmed to be the ones they were taken against, and the entries are
    inserted. A save that lost a race to another phone's is taken again against the new state,
    the last time holding the lock. ``read``: the state the request read a moment ago, if it
    did, taken against first (as unlocked: the lock is confirmed under the write lock).
    """
    for attempt in range(RACES_BEFORE_WAITING + 1):
        waiting = attempt == RACES_BEFORE_WAITING
        with immediate(db) if waiting else nullcontext():
            if attempt == 0 and read is not None:
                state, standing = read, _Standing(read.version, False, stored.epoch)
            else:
                standing = _standing(db, stored)
                if standing.epoch != stored.epoch:
                    stored = _read_again(db, stored)
                state = load_state(db, stored, standing.version)
            taken = take(state, changes, sender, standing.locked, whole_hand)
            if not taken.new:
                return taken
            if waiting:
                return _settle(stored, state, taken, _insert(db, stored, state, taken))
        with immediate(db):
            ids = _insert(db, stored, state, taken) if _standing(db, stored) == standing else None
        if ids is not None:
            return _settle(stored, state, taken, ids)
    raise AssertionError("unreachable: the last attempt holds the lock")


def _insert(db: sqlite_utils.Database, stored: StoredGame, state: GameState, taken: Taken) -> list[int]:
    """Inside the write transaction, SQL only: the taken entries inserted, the version moved on; their ids."""
    ids = [_insert_entry(db, stored.id, item.entry) for item in taken.new]
    db.conn.execute("UPDATE games SET version = ? WHERE id = ?", [state.version + len(ids), stored.id])
    for item in taken.new:
        if item.entry.source == DIRECTOR:
            _note_in_event(db, stored.id, item.entry, item.state)
    return ids


def _note_in_event(db: sqlite_utils.Database, game_id: int, entry: Entry, state: GameState) -> None:
    """A director's change to an event's game goes on the event's history too, named by round
    and table (inside the save's transaction: a line per entry, never one without it)."""
    what, old, value = describe(entry, state.by_id)
    if old or value:
        what += f": {old} → {value}" if old else f": {value}"
    db.conn.execute(
        "INSERT INTO event_history (event_id, at, what, reason) "
        "SELECT event_id, ?, 'Round ' || round || ', table ' || number || ' · ' || ?, '' "
        "FROM event_tables WHERE game_id = ?",
        [entry.created_at, what, game_id],
    )


def _settle(stored: StoredGame, state: GameState, taken: Taken, ids: list[int]) -> Taken:
    """After the commit: each new entry with its stored id, and the state it made, kept for the next request."""
    saved: list[Appended] = []
    given = iter(ids)
    for item in taken.appended:
        if item.duplicate:
            saved.append(item)
            continue
        entry = replace(item.entry, id=next(given))
        state = state.stored(entry, item.state)
        saved.append(Appended(entry, state, duplicate=False))
    _remember(stored.memo_key, state)
    return replace(taken, appended=tuple(saved))


INSERT_ENTRY = (
    "INSERT INTO entries (game_id, seq, kind, hand, player, data, target, idem_key, source, "
    "created_at, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def entry_row(game_id: int, entry: Entry) -> list[object]:
    return [
        game_id,
        entry.seq,
        entry.kind,
        entry.hand,
        entry.player,
        json.dumps(dict(entry.data)),
        entry.target,
        entry.idem_key,
        entry.source,
        entry.created_at,
        entry.address,
    ]


def _insert_entry(db: sqlite_utils.Database, game_id: int, entry: Entry) -> int:
    cursor = db.conn.execute(INSERT_ENTRY, entry_row(game_id, entry))
    return int(cursor.lastrowid or 0)
