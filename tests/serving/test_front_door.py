"""Floods through the front door: games started and imported are counted by network and for the
whole server, a worker checks one game record at a time, and imported games nobody opened are
swept away after a day."""

from __future__ import annotations

import json
import time

import pytest

from scorekeeper import create_app
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.exchange import import_changes
from scorekeeper.storage.game_imports import import_game, sweep_unopened_imports
from scorekeeper.storage.game_starts import IMPORTED, STARTED, StartLimits, reserve_start
from scorekeeper.storage.games import create_game, game_by_record_token
from scorekeeper.web import starting
from tests.support.web import csrf_token, new_game_form, phone_at

DAY = 24 * 3600


def small_record(title: str = "Friday") -> dict[str, object]:
    return {
        "format": "scorekeeper-game/1",
        "rules": "crates",
        "options": {"decks": 1},
        "players": ["Ann", "Bob"],
        "first_dealer": "Ann",
        "title": title,
        "hands": [],
    }


def limited_app(tmp_path, **limits: int):
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "door.db")}
    return create_app({**config, **{f"START_LIMIT_{name.upper()}": value for name, value in limits.items()}})


def start_from(client, title: str):
    token = csrf_token(client, "/new")
    return client.post("/new", data={"csrf_token": token, **new_game_form(["Ann", "Bob"], title=title)})


def import_from(client, text: str):
    token = csrf_token(client, "/import")
    return client.post("/import", data={"csrf_token": token, "text": text})


def games(app) -> int:
    db = connect(app.config["DATABASE"])
    try:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.conn.close()


# The budget, as storage keeps it


@pytest.fixture
def door_db(tmp_path):
    path = str(tmp_path / "budget.db")
    migrate(path)
    db = connect(path)
    yield db
    db.conn.close()


def test_a_network_past_its_games_an_hour_is_refused_until_the_first_leaves_the_hour(door_db):
    limits = StartLimits(per_network=3, started_everyone=100, imported_everyone=100, window_seconds=3600)
    for minute in range(3):
        assert (
            reserve_start(door_db, "10.0.0.7", STARTED if minute else IMPORTED, limits, at=1000 + 60 * minute) is None
        )
    refused = reserve_start(door_db, "10.0.0.7", STARTED, limits, at=1000 + 600)
    assert refused is not None and refused.who == "network"
    assert refused.retry_after == 3000  # the first game, at 1000, leaves the hour at 4600
    assert reserve_start(door_db, "10.0.0.8", STARTED, limits, at=1000 + 600) is None  # another network
    assert reserve_start(door_db, "10.0.0.7", STARTED, limits, at=4601) is None


def test_imports_have_a_budget_of_their_own_for_the_whole_server(door_db):
    limits = StartLimits(per_network=10, started_everyone=100, imported_everyone=4, window_seconds=3600, always=1)
    for n in range(4):
        assert reserve_start(door_db, f"10.0.1.{n}", IMPORTED, limits, at=2000 + n) is None
    refused = reserve_start(door_db, "10.0.1.0", IMPORTED, limits, at=2010)
    assert refused is not None and refused.who == "everyone" and refused.retry_after == 3590
    assert reserve_start(door_db, "10.0.1.0", STARTED, limits, at=2010) is None  # starting a game still goes


def test_past_the_budget_of_everyone_a_network_new_to_the_hour_still_gets_its_few(door_db):
    """A brake on a flood from many addresses, not a lock on the club: 25 addresses used up the
    hour's 500 new games in a second, and then no table could start its evening's game."""
    limits = StartLimits(per_network=20, started_everyone=6, imported_everyone=4, window_seconds=3600, always=2)
    for n in range(6):
        assert reserve_start(door_db, f"10.9.0.{n % 3}", STARTED, limits, at=100 + n) is None
    assert reserve_start(door_db, "10.9.0.0", STARTED, limits, at=200) is not None  # a flooder waits
    assert reserve_start(door_db, "10.9.9.9", STARTED, limits, at=200) is None
    assert reserve_start(door_db, "10.9.9.9", STARTED, limits, at=201) is None
    refused = reserve_start(door_db, "10.9.9.9", STARTED, limits, at=202)
    assert refused is not None and refused.who == "everyone"


def test_refused_starts_are_not_counted(door_db):
    limits = StartLimits(per_network=1, started_everyone=100, imported_everyone=100)
    assert reserve_start(door_db, "n", STARTED, limits, at=0) is None
    for _ in range(5):
        assert reserve_start(door_db, "n", STARTED, limits, at=10) is not None
    assert door_db.execute("SELECT COUNT(*) FROM game_starts").fetchone()[0] == 1


# Through the forms


def test_the_start_form_past_the_budget_says_so_beside_the_players_keeping_what_was_typed(tmp_path):
    app = limited_app(tmp_path, per_network=2)
    phone = phone_at(app, "192.168.1.30")
    assert [start_from(phone, f"Game {n}").status_code for n in range(2)] == [302, 302]
    refused = start_from(phone, "Third of the evening")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 429
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3600
    assert "Too many games have been started from this network in the last hour: wait 60 minutes" in page
    assert 'value="Third of the evening"' in page and 'value="Ann"' in page
    assert games(app) == 2
    assert start_from(phone_at(app, "192.168.1.31"), "Next table").status_code == 302


def test_an_ipv6_network_is_counted_by_its_64(tmp_path):
    app = limited_app(tmp_path, per_network=2)
    for host in ("1", "2"):
        assert start_from(phone_at(app, f"2001:db8:5:7::{host}"), "g").status_code == 302
    assert start_from(phone_at(app, "2001:db8:5:7:ffff::9"), "g").status_code == 429
    assert start_from(phone_at(app, "2001:db8:5:8::1"), "g").status_code == 302


def test_past_the_server_wide_budget_a_network_that_started_games_waits_and_a_new_table_starts(tmp_path):
    app = limited_app(tmp_path, per_network=5, started=3)
    flooder = phone_at(app, "10.1.0.1")
    for _ in range(3):
        assert start_from(flooder, "g").status_code == 302
    refused = start_from(flooder, "g")
    assert refused.status_code == 429
    assert "Too many games have been started on this server in the last hour" in refused.get_data(as_text=True)
    assert start_from(phone_at(app, "10.1.0.99"), "g").status_code == 302


def test_the_import_past_the_budget_says_so_beside_the_record_keeping_it(tmp_path):
    app = limited_app(tmp_path, per_network=1)
    phone = phone_at(app, "192.168.1.40")
    assert import_from(phone, json.dumps(small_record())).status_code == 302
    text = json.dumps(small_record("Kept as typed"))
    refused = import_from(phone, text)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert "Too many games have been started or imported from this network in the last hour" in page
    assert "Kept as typed" in page  # the record is still in the box
    assert games(app) == 1


def test_a_refused_record_is_counted_too(tmp_path):
    """Checking a record the import refuses costs as much as one it accepts."""
    app = limited_app(tmp_path, per_network=2)
    phone = phone_at(app, "192.168.1.41")
    assert [import_from(phone, "{not json").status_code for _ in range(2)] == [422, 422]
    assert import_from(phone, json.dumps(small_record())).status_code == 429


def test_an_import_while_the_worker_checks_another_is_refused_at_once(tmp_path):
    app = limited_app(tmp_path)
    phone = phone_at(app, "192.168.1.42")
    token = csrf_token(phone, "/import")
    assert starting._CHECKING.acquire(blocking=False)  # another thread is checking a record
    try:
        began = time.monotonic()
        refused = phone.post("/import", data={"csrf_token": token, "text": json.dumps(small_record("Waits"))})
        took = time.monotonic() - began
    finally:
        starting._CHECKING.release()
    page = refused.get_data(as_text=True)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == str(starting.BUSY_RETRY_SECONDS)
    assert starting.BUSY in page and "Waits" in page
    assert took < 1.0
    assert import_from(phone, json.dumps(small_record())).status_code == 302  # not counted: the budget is whole


# Imported games nobody opened


def test_an_imported_game_nobody_opened_is_swept_after_a_day_with_its_log(door_db):
    record, changes = import_changes(small_record())
    unopened = import_game(door_db, record.game, changes, "import")
    record, changes = import_changes(small_record())
    opened = import_game(door_db, record.game, changes, "import")
    door_db.conn.execute("UPDATE games SET unopened_import = 0 WHERE id = ?", [opened.id])
    started = create_game(door_db, record.game)
    assert sweep_unopened_imports(door_db, DAY, at=time.time() + DAY - 60) == 0  # not yet a day
    assert sweep_unopened_imports(door_db, DAY, at=time.time() + DAY + 60) == 1
    left = {row[0] for row in door_db.execute("SELECT id FROM games")}
    assert left == {opened.id, started.id}
    assert door_db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", [unopened.id]).fetchone()[0] == 0


def test_opening_an_imported_games_link_keeps_it(tmp_path):
    app = limited_app(tmp_path)
    phone = phone_at(app, "192.168.1.50")
    imported = import_from(phone, json.dumps(small_record()))
    assert imported.status_code == 302
    token = imported.headers["Location"].split("/t/")[1].split("/")[0]
    db = connect(app.config["DATABASE"])
    try:
        assert game_by_record_token(db, token).unopened  # type: ignore[union-attr]
        assert phone.get(imported.headers["Location"]).status_code == 200  # the importer's browser follows
        (flag,) = db.execute("SELECT unopened_import FROM games").fetchone()
        assert flag == 0
        assert sweep_unopened_imports(db, DAY, at=time.time() + 30 * DAY) == 0
    finally:
        db.conn.close()


def test_the_server_sweeps_unopened_imports_when_it_starts(tmp_path):
    path = str(tmp_path / "door.db")
    migrate(path)
    db = connect(path)
    record, changes = import_changes(small_record())
    import_game(db, record.game, changes, "import")
    db.conn.execute("UPDATE games SET created_at = '2026-01-01T00:00:00+00:00'")
    db.conn.commit()
    db.conn.close()
    app = limited_app(tmp_path)
    assert games(app) == 0
