"""Saved house rules: the SQL. Saving never overwrites: each save is a new version of the name."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from ..scoring import Refusal, configure
from ..scoring.rulesets.house import HouseRules
from .database import immediate
from .games import now


class StaleHouseRules(Refusal):
    """The definition was edited from an older version than the one saved now."""

    status = 409

    def __init__(self, current: SavedHouseRules) -> None:
        super().__init__(f"{current.name} was changed meanwhile (saved {current.saved_at})")
        self.current = current


class NameTaken(Refusal):
    """Another house game has the name."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "name")


@dataclass(frozen=True)
class SavedHouseRules:
    id: int
    name: str
    rules: HouseRules
    saved_at: str
    replaces: int | None = None

    @property
    def choice(self) -> str:
        """How the start form names it."""
        return f"house:{self.id}"


def _from_row(row: dict[str, object]) -> SavedHouseRules:
    rules = configure("house", json.loads(str(row["definition"])))
    assert isinstance(rules, HouseRules)
    replaces = None if row["replaces"] is None else int(str(row["replaces"]))
    return SavedHouseRules(int(str(row["id"])), str(row["name"]), rules, str(row["saved_at"]), replaces)


_LATEST = "SELECT * FROM house_rules WHERE id NOT IN (SELECT replaces FROM house_rules WHERE replaces IS NOT NULL)"


def list_house_rules(db: sqlite_utils.Database) -> list[SavedHouseRules]:
    """The current version of every saved house game, by name."""
    return [_from_row(row) for row in db.query(_LATEST + " ORDER BY name")]


def house_choices(db: sqlite_utils.Database) -> list[tuple[str, str, HouseRules]]:
    """What a form's choice of game adds: (choice value, name, rules) for each saved house game."""
    return [(saved.choice, saved.name, saved.rules) for saved in list_house_rules(db)]


def house_rules_by_id(db: sqlite_utils.Database, rules_id: int) -> SavedHouseRules | None:
    rows = list(db.query("SELECT * FROM house_rules WHERE id = ?", [rules_id]))
    return _from_row(rows[0]) if rows else None


def versions(db: sqlite_utils.Database, saved: SavedHouseRules) -> list[SavedHouseRules]:
    """This house game's saves, newest first (following ``replaces`` back)."""
    found: list[SavedHouseRules] = []
    current: SavedHouseRules | None = saved
    while current is not None:
        found.append(current)
        current = house_rules_by_id(db, current.replaces) if current.replaces else None
    return found


def save_house_rules(db: sqlite_utils.Database, rules: HouseRules, replaces: int | None = None) -> SavedHouseRules:
    """A new house game, or a new version of ``replaces``, which must still be the latest one."""
    with immediate(db):
        if replaces is not None:
            current = latest_version(db, replaces)
            if current.id != replaces:
                raise StaleHouseRules(current)
        clash = list(db.query(_LATEST + " AND name = ?", [rules.title]))
        if clash and (replaces is None or int(str(clash[0]["id"])) != replaces):
            raise NameTaken(f"a house game is already called {clash[0]['name']}: choose another name")
        table = db.table("house_rules")
        table.insert(
            {
                "name": rules.title,
                "definition": json.dumps(rules.options()),
                "replaces": replaces,
                "saved_at": now(),
            }
        )
        new_id = table.last_pk
    found = house_rules_by_id(db, int(str(new_id)))
    assert found is not None
    return found


def latest_version(db: sqlite_utils.Database, rules_id: int) -> SavedHouseRules:
    """The newest version in the chain that ``rules_id`` starts."""
    current = house_rules_by_id(db, rules_id)
    if current is None:
        raise LookupError(rules_id)
    while True:
        rows = list(db.query("SELECT * FROM house_rules WHERE replaces = ?", [current.id]))
        if not rows:
            return current
        current = _from_row(rows[0])
