"""The director's login holds: a bounded count of guesses, sessions the server can end, no way out to another site."""

import fcntl
import sqlite3
import threading
import time
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from scorekeeper import create_app
from scorekeeper.storage import director as director_store
from scorekeeper.storage.database import connect
from tests.support.web import create_director, csrf_token
from tests.web.test_events import PASSWORD, log_in, set_up_director

NEW_PASSWORD = "a brand new passphrase"


@pytest.fixture
def director_client(client):
    set_up_director(client)
    return client


def failures_counted(app) -> int:
    with closing(sqlite3.connect(app.config["DATABASE"])) as db:
        return db.execute("SELECT COUNT(*) FROM login_failures").fetchone()[0]


def copy_of(client):
    """Another browser holding a copy of this one's session cookie."""
    other = client.application.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    return other


def is_logged_in(client) -> bool:
    response = client.get("/director/")
    return response.status_code == 200


def test_sixteen_wrong_guesses_at_once_check_at_most_five(client):
    set_up_director(client)
    guessers = [client.application.test_client() for _ in range(16)]
    tokens = [csrf_token(guesser, "/director/login") for guesser in guessers]
    start = threading.Barrier(len(guessers))
    statuses: list[int] = []

    def guess(guesser, token):
        start.wait()
        response = guesser.post("/director/login", data={"csrf_token": token, "password": "wrong password!"})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=guess, args=pair) for pair in zip(guessers, tokens, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = statuses.count(401)  # the rest refused: past five, or while another was being checked
    assert 1 <= checked <= 5 and statuses.count(429) == 16 - checked
    assert failures_counted(client.application) == checked
    for _ in range(5 - checked):  # the rest of its five, one after another
        token = csrf_token(guessers[0], "/director/login")
        assert guessers[0].post("/director/login", data={"csrf_token": token, "password": "wrong!"}).status_code == 401
    assert log_in(client.application.test_client()).status_code == 429  # the right password waits too


def test_sixteen_reservations_at_once_let_five_guesses_through(app):
    """The bound itself, below the one-check-at-a-time gate: sixteen guesses reserved at the same
    moment, each on its own connection to the database, and five go on to a check."""
    start = threading.Barrier(16)
    outcomes: list[str | None] = []

    def reserve():
        db = connect(app.config["DATABASE"])
        start.wait()
        outcomes.append(director_store.reserve_login_attempt(db, "192.0.2.9", 600, 5, 50))
        db.conn.close()

    threads = [threading.Thread(target=reserve) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(None) == 5 and outcomes.count("address") == 11
    assert failures_counted(app) == 5


@contextmanager
def another_check(app):
    """Another request holding the server's one password check for as long as the block runs."""
    with open(Path(app.config["DATABASE"]).with_name("password-check.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def test_while_another_password_is_checked_a_login_is_refused_at_once_and_not_counted(director_client):
    """A password check is a tenth of a second of a core (scrypt): one at a time on the whole server, so
    that a hall's worth of addresses guessing at once cannot take every worker thread from the saves."""
    app = director_client.application
    with another_check(app):
        refused = guess_from(app, "10.1.1.1", PASSWORD)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert "Another password is being checked this very moment: try again in a second." in page
    assert page.index('class="field has-error"') < page.index('for="password"') < page.index("Another password")
    assert failures_counted(app) == 0
    assert [guess_from(app, "10.1.1.1").status_code for _ in range(5)] == [401] * 5  # five guesses still its own
    with another_check(app):  # a network with no guess left is told so, never to try again in a second
        spent = guess_from(app, "10.1.1.1", PASSWORD).get_data(as_text=True)
    assert "Too many wrong passwords: wait ten minutes" in spent and "Another password" not in spent
    assert failures_counted(app) == 5
    assert guess_from(app, "10.1.1.2", PASSWORD).status_code == 302


def test_a_browser_the_director_logged_in_on_before_waits_its_turn_while_a_stranger_is_refused(director_client):
    """Guessers from a hall's worth of addresses keep the one check busy for a minute or so (each
    network's first guess is always checked): the director's own browser, known by a mark in its
    signed session, waits for the check and gets in; a browser never logged in is refused at once."""
    app = director_client.application
    token = csrf_token(director_client, "/director/")
    director_client.post("/director/logout", data={"csrf_token": token})
    stranger = app.test_client()
    held = threading.Event()
    release = threading.Event()

    def another():
        with another_check(app):
            held.set()
            release.wait(5)

    other = threading.Thread(target=another)
    other.start()
    held.wait(5)
    refused = guess_from(app, "10.2.2.2", PASSWORD)  # a browser never logged in
    threading.Timer(0.5, release.set).start()
    started = time.monotonic()
    logged_in = director_client.post(
        "/director/login", data={"csrf_token": csrf_token(director_client, "/director/login"), "password": PASSWORD}
    )
    waited = time.monotonic() - started
    other.join()
    assert refused.status_code == 429 and "Another password" in refused.get_data(as_text=True)
    assert logged_in.status_code == 302 and 0.4 < waited < 3
    assert is_logged_in(director_client) and not is_logged_in(stranger)


def test_the_password_check_is_given_back_when_the_check_fails(director_client, monkeypatch):
    """A check that raises still gives the server's one password check back."""
    from scorekeeper.web.views import director as director_views

    app = director_client.application

    def broken(*_):
        raise RuntimeError("the hash is broken")

    monkeypatch.setattr(director_views, "check_password_hash", broken)
    app.testing = False  # the error is answered as a page, not raised into the test
    assert guess_from(app, "10.1.1.3", PASSWORD).status_code == 500
    monkeypatch.undo()
    assert guess_from(app, "10.1.1.3", PASSWORD).status_code == 302


def test_logging_out_ends_the_session_for_a_copied_cookie_too(director_client):
    copied = copy_of(director_client)
    assert is_logged_in(copied)
    token = csrf_token(director_client, "/director/")
    assert director_client.post("/director/logout", data={"csrf_token": token}).status_code == 302
    assert not is_logged_in(director_client)
    assert not is_logged_in(copied)


def stored_hash(app) -> str:
    with closing(sqlite3.connect(app.config["DATABASE"])) as db:
        return db.execute("SELECT value FROM settings WHERE key = 'director_password'").fetchone()[0]


def test_a_new_password_from_the_command_line_ends_every_session(tmp_path):
    """Without the suite's cheap hash (tests/conftest.py), as served: the password is hashed with
    scrypt, from the setup form and from the command line alike."""
    instance = tmp_path / "instance"
    instance.mkdir()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(instance / "scorekeeper.db")})
    laptop, phone = app.test_client(), app.test_client()
    set_up_director(laptop)
    assert stored_hash(app).startswith("scrypt:")
    assert log_in(phone).status_code == 302
    copied = copy_of(phone)
    assert is_logged_in(laptop) and is_logged_in(phone) and is_logged_in(copied)

    create_director(instance, NEW_PASSWORD)
    assert stored_hash(app).startswith("scrypt:")
    assert not is_logged_in(laptop) and not is_logged_in(phone) and not is_logged_in(copied)
    assert log_in(phone).status_code == 401
    assert log_in(phone, NEW_PASSWORD).status_code == 302
    assert is_logged_in(phone)


def test_a_login_checked_against_a_replaced_password_starts_no_session(app):
    db = connect(app.config["DATABASE"])
    director_store.set_director_password_hash(db, "old hash", replace=True)
    director_store.set_director_password_hash(db, "new hash", replace=True)
    assert director_store.start_director_session(db, "old hash", 3600) is None
    session_id = director_store.start_director_session(db, "new hash", 3600)
    assert session_id is not None and director_store.director_session_active(db, session_id)
    expired = director_store.start_director_session(db, "new hash", 0)
    assert expired is not None and not director_store.director_session_active(db, expired)
    db.conn.close()


NASTY_NEXT = [
    "//evil.example/",
    "///evil.example/",
    "/\\evil.example/",
    "/%5Cevil.example/",
    "\\\\evil.example/",
    "/%09/evil.example/",
    "/%0A/evil.example/",
    "/%0D/evil.example/",
    "%0d%0a",
    "/director/%0d%0aSet-Cookie:%20x=y",
    "/%20/evil.example/",
    "/%00/evil.example/",
    "/%E2%80%A8/evil.example/",
    "https://evil.example/",
    "http:/evil.example/",
    "//%2Fevil.example/",
    "javascript:alert(1)",
    "evil.example",
    "",
]


@pytest.mark.parametrize("next_value", NASTY_NEXT)
def test_after_login_only_a_path_of_this_site_is_followed(client, next_value):
    set_up_director(client)
    other = client.application.test_client()
    token = csrf_token(other, "/director/login")
    response = other.post(f"/director/login?next={next_value}", data={"csrf_token": token, "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/director/"


def test_after_login_the_page_asked_for_opens(client):
    set_up_director(client)
    other = client.application.test_client()
    asked = other.get("/director/events/new")
    next_url = urlsplit(asked.headers["Location"])
    token = csrf_token(other, asked.headers["Location"])
    response = other.post(f"{next_url.path}?{next_url.query}", data={"csrf_token": token, "password": PASSWORD})
    assert response.headers["Location"] == "/director/events/new"


def test_a_double_click_on_log_in_or_log_out_does_no_harm(client):
    set_up_director(client)
    browser = client.application.test_client()
    token = csrf_token(browser, "/director/login")
    for _ in range(2):
        response = browser.post("/director/login", data={"csrf_token": token, "password": PASSWORD})
        assert response.status_code == 302 and response.headers["Location"] == "/director/"
    assert is_logged_in(browser)
    assert failures_counted(client.application) == 0

    token = csrf_token(browser, "/director/")
    for _ in range(2):
        response = browser.post("/director/logout", data={"csrf_token": token})
        assert response.status_code == 302 and response.headers["Location"] == "/"
    assert not is_logged_in(browser)


def guess_from(app, address: str, password: str = "wrong password!"):
    guesser = app.test_client()
    token = csrf_token(guesser, "/director/login")
    return guesser.post(
        "/director/login", data={"csrf_token": token, "password": password}, environ_base={"REMOTE_ADDR": address}
    )


def test_thirty_addresses_of_one_ipv6_network_share_five_guesses(director_client):
    """One home connection is given a whole /64: a guesser changing address at every guess is
    still one guesser."""
    app = director_client.application
    statuses = [guess_from(app, f"2001:db8:5:7::{n + 1:x}").status_code for n in range(30)]
    assert statuses == [401] * 5 + [429] * 25
    assert guess_from(app, "2001:db8:5:8::1").status_code == 401  # the next network is another guesser


def test_an_ipv4_address_counts_the_same_written_as_ipv6(director_client):
    app = director_client.application
    statuses = [guess_from(app, address).status_code for address in ["10.9.9.9", "::ffff:10.9.9.9"] * 3]
    assert statuses == [401] * 5 + [429]


def test_past_fifty_wrong_passwords_from_everywhere_a_network_that_failed_is_checked_no_more(director_client):
    app = director_client.application
    statuses = [guess_from(app, f"192.0.2.{n + 1}").status_code for n in range(50)]
    assert statuses == [401] * 50
    refused = guess_from(app, "192.0.2.1", PASSWORD)  # even the right one: it is not checked
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "600"
    assert "Too many wrong passwords have been tried on this server" in refused.get_data(as_text=True)
    assert failures_counted(app) == 50


def test_fifty_wrong_passwords_from_ten_networks_do_not_lock_out_a_director_elsewhere(director_client):
    """The server-wide cap never refuses a network that has not itself failed: ten guessers (or
    one with ten addresses) cannot keep the director out."""
    app = director_client.application
    for network in range(10):
        assert [guess_from(app, f"198.18.{network}.1").status_code for _ in range(6)] == [401] * 5 + [429]
    assert guess_from(app, "203.0.113.9", PASSWORD).status_code == 302


def test_past_the_cap_a_new_network_gets_one_guess_not_five(director_client):
    app = director_client.application
    for n in range(50):
        guess_from(app, f"192.0.2.{n + 1}")
    assert [guess_from(app, "198.51.100.7").status_code for _ in range(3)] == [401, 429, 429]
    assert guess_from(app, "198.51.100.7", PASSWORD).status_code == 429


def test_the_servers_own_machine_counts_like_any_network(director_client):
    """Without a trusted proxy, loopback is one network: behind an unnamed proxy every client
    is it, so it must not escape the limits (nor count toward locking others out)."""
    app = director_client.application
    for n in range(50):
        guess_from(app, f"192.0.2.{n + 1}")
    assert guess_from(app, "127.0.0.1").status_code == 401
    assert guess_from(app, "127.0.0.1", PASSWORD).status_code == 429  # it has failed: past the cap, no more
    assert guess_from(app, "::1", PASSWORD).status_code == 302  # another network, that has not failed


def test_behind_a_named_proxy_each_client_is_its_own_network(tmp_path):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "p.db"), "TRUSTED_PROXIES": "127.0.0.1"}
    )
    set_up_director(app.test_client())
    guesser = {"X-Forwarded-For": "198.51.100.20"}
    statuses = [guess_via(app, guesser).status_code for _ in range(6)]
    assert statuses == [401] * 5 + [429]
    assert guess_via(app, {"X-Forwarded-For": "203.0.113.4"}, PASSWORD).status_code == 302


def guess_via(app, headers: dict[str, str], password: str = "wrong password!"):
    """A guess through a proxy on the server's own machine, which names the client in ``headers``."""
    guesser = app.test_client()
    token = csrf_token(guesser, "/director/login")
    return guesser.post(
        "/director/login",
        data={"csrf_token": token, "password": password},
        headers=headers,
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
    )


def test_a_new_password_ends_the_lock_out(director_client, tmp_path):
    app = director_client.application
    for n in range(50):
        guess_from(app, f"192.0.2.{n + 1}")
    assert guess_from(app, "192.0.2.1", PASSWORD).status_code == 429
    db = connect(app.config["DATABASE"])
    director_store.set_director_password_hash(db, director_store.director_password_hash(db) or "", replace=True)
    db.conn.close()
    assert failures_counted(app) == 0
    assert guess_from(app, "192.0.2.1", PASSWORD).status_code == 302
