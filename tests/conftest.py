from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from scorekeeper import create_app

BROWSER = Path(__file__).parent / "browser"

# `make mutation` (tools/mutation.py) runs each mutant's tests with the same examples every time
# (and no example database), so that a mutant is killed or survives the same way on every run.
settings.register_profile("mutation", derandomize=True, database=None)
if os.environ.get("SCOREKEEPER_MUTATION") == "1":
    settings.load_profile("mutation")


def pytest_collection_modifyitems(items):
    """Every browser test is slow (a real browser, a real server): `make check` leaves them out."""
    for item in items:
        if BROWSER in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.slow)


#: The director's password hashed cheaply in the suite's app (a login is then no tenth of a
#: second of CPU); the app's own default, scrypt, is held by tests/web/test_director_login.py.
CHEAP_HASH = "pbkdf2:sha256:1000"


@pytest.fixture
def app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "test.db"),
            "PLAN_SECONDS": 1,
            "PASSWORD_HASH": CHEAP_HASH,
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def db(tmp_path):
    """A club's database, migrated, for tests through storage (tests/support/club.py plays its evenings)."""
    from tests.support.club import club_db

    database = club_db(tmp_path)
    yield database
    database.conn.close()


@pytest.fixture
def director(client, app):
    """The director's browser on the app, with the app's database open beside it (``.db``), to
    set up the club's evenings through storage and look at them through the pages (a module
    that needs less defines its own)."""
    from scorekeeper.storage.database import connect
    from tests.web.test_events import set_up_director

    set_up_director(client)
    database = connect(app.config["DATABASE"])
    client.db = database
    yield client
    database.conn.close()
