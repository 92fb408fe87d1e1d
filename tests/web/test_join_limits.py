"""The join code is a password: wrong guesses are limited per address and across the server,
and the address they are counted against cannot be made up by the guesser."""

from __future__ import annotations

import re
import threading
import time

import pytest

from scorekeeper import create_app
from scorekeeper.storage.database import connect
from scorekeeper.storage.game_joins import JoinLimits, join_by_code
from scorekeeper.web.security import BadProxySetting
from tests.support.web import csrf_token, phone_at, start


def join(client, code: str, headers: dict[str, str] | None = None):
    token = csrf_token(client, "/join")
    return client.post("/join", data={"csrf_token": token, "code": code}, headers=headers or {})


def join_code(client) -> str:
    table = start(client, ["Ann", "Bob"])
    return re.search(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}\b", table.page("/share")).group(0)


def test_the_eleventh_wrong_code_from_one_address_is_refused_and_another_address_still_joins(app, client):
    code = join_code(client)
    guesser = phone_at(app, "10.0.0.1")
    for attempt in range(10):
        response = join(guesser, f"WRONG{attempt:03d}")
        assert response.status_code == 422 and "No game has that code" in response.get_data(as_text=True)
    refused = join(guesser, "WRONG010")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert "Too many wrong codes from this address" in page and 'value="WRONG010"' in page
    player = phone_at(app, "10.0.0.2")
    assert join(player, code.lower()).status_code == 302


def test_a_limited_address_is_refused_even_the_right_code_until_its_minute_has_passed(app, client):
    """Were the right code let through, the refusals would tell a guesser which guess was right."""
    code = join_code(client)
    guesser = phone_at(app, "10.0.0.1")
    for attempt in range(10):
        join(guesser, f"WRONG{attempt:03d}")
    assert join(guesser, code).status_code == 429
    db = connect(app.config["DATABASE"])
    a_minute_later = join_by_code(db, code, "10.0.0.1", JoinLimits(), at=time.time() + 61)
    assert a_minute_later.game is not None and a_minute_later.refused is None


def test_an_ipv6_guesser_cannot_escape_the_limit_by_moving_within_its_network(app, client):
    code = join_code(client)
    for n in range(10):
        assert join(phone_at(app, f"2001:db8:1:2::{n + 1:x}"), f"WRONG{n:03d}").status_code == 422
    assert join(phone_at(app, "2001:db8:1:2:ffff::1"), code).status_code == 429
    assert join(phone_at(app, "2001:db8:1:3::1"), code).status_code == 302


def test_past_the_limit_for_everyone_wrong_codes_are_refused_but_a_right_code_joins(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.db"), "JOIN_LIMIT_EVERYONE": 5})
    code = join_code(app.test_client())
    for n in range(5):
        assert join(phone_at(app, f"10.0.1.{n}"), "WRONGONE").status_code == 422
    flooded = join(phone_at(app, "10.0.1.99"), "WRONGONE")
    assert flooded.status_code == 429 and "being tried on this server" in flooded.get_data(as_text=True)
    assert join(phone_at(app, "10.0.1.100"), code).status_code == 302
    assert join(phone_at(app, "10.0.1.0"), code).status_code == 302  # one wrong code of its own is no limit


def test_simultaneous_wrong_codes_cannot_slip_past_the_limit(app, client):
    join_code(client)
    answered: list[str | None] = []

    def guess(n: int) -> None:
        db = connect(app.config["DATABASE"])
        try:
            answered.append(join_by_code(db, f"WRONG{n:03d}", "10.0.0.7", JoinLimits()).refused)
        finally:
            db.conn.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answered.count(None) == 10 and answered.count("address") == 20


@pytest.fixture(params=["SCOREKEEPER_PROXY=127.0.0.1", "SCOREKEEPER_HTTPS=1"])
def behind_proxy(request, tmp_path, monkeypatch):
    """The app behind a proxy on this machine: named, or implied by HTTPS being on."""
    monkeypatch.delenv("SCOREKEEPER_PROXY", raising=False)
    name, value = request.param.split("=")
    monkeypatch.setenv(name, value)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.db")})
    app.config["SESSION_COOKIE_SECURE"] = False  # the test client speaks plain HTTP
    return app


def test_a_forwarded_address_from_anyone_but_the_proxy_is_ignored_by_the_join_limit(behind_proxy):
    code = join_code(behind_proxy.test_client())
    guesser = phone_at(behind_proxy, "10.0.0.9")
    for attempt in range(10):
        response = join(guesser, f"WRONG{attempt:03d}", headers={"X-Forwarded-For": f"192.0.2.{attempt}"})
        assert response.status_code == 422
    assert join(guesser, "WRONG010", headers={"X-Forwarded-For": "192.0.2.200"}).status_code == 429
    proxy = phone_at(behind_proxy, "127.0.0.1")
    assert join(proxy, code, headers={"X-Forwarded-For": "10.0.0.9"}).status_code == 429  # the proxy names it
    assert join(proxy, code, headers={"X-Forwarded-For": "10.0.0.10"}).status_code == 302


def view_link(app, token: str, address: str, headers: dict[str, str]) -> str:
    """The read-only link as the Share page spells it out (scheme and host included)."""
    page = phone_at(app, address, headers).get(f"/t/{token}/share").get_data(as_text=True)
    return re.search(r'href="([^"]*/v/[\w-]+/)"', page).group(1)


def test_only_the_proxy_may_say_the_request_came_over_https(behind_proxy):
    token = start(behind_proxy.test_client(), ["Ann", "Bob"]).token
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cards.example"}
    assert view_link(behind_proxy, token, "127.0.0.1", forwarded).startswith("https://cards.example/v/")
    assert view_link(behind_proxy, token, "10.0.0.9", forwarded).startswith("http://localhost/v/")


def test_a_proxy_setting_that_is_not_an_address_is_refused_at_start(tmp_path):
    with pytest.raises(BadProxySetting, match="the-proxy"):
        create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "t",
                "DATABASE": str(tmp_path / "t.db"),
                "TRUSTED_PROXIES": "::1, the-proxy",
            }
        )
