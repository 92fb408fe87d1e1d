"""A save from a table: the one way a phone's (or the director's) changes reach a game.

The changes are appended as the game's log takes them (``games.append_all``), and the table is
settled after (``evening.settle_game``: locked if its game just ended, or its hand in play just
completed after the round's time), so a view makes one call and renders what it is handed."""

from __future__ import annotations

from collections.abc import Sequence

import sqlite_utils

from ..gamelog import Change, GameState, Sender, Taken
from .evening import settle_game
from .games import StoredGame, append_all


def save(
    db: sqlite_utils.Database,
    stored: StoredGame,
    changes: Sequence[tuple[Change, str]],
    sender: Sender,
    read: GameState | None = None,
    whole_hand: bool = False,
) -> Taken:
    """``changes`` (each with its idempotency key) appended as ``sender``'s, and the table settled."""
    taken = append_all(db, stored, changes, sender, read, whole_hand)
    settle_game(db, stored)
    return taken
