"""Driving the web app as a phone would: read the CSRF token off the page, post the form."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from flask.testing import FlaskClient

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
#: What a page's Content-Security-Policy adds for its import map (web/static_files.py): its hash.
IMPORT_MAP_SOURCE = re.compile(r" script-src 'self' 'sha256-[A-Za-z0-9+/=]+';")


def csrf_token(client: FlaskClient, path: str) -> str:
    """The token of the page's forms; a page without a form (a locked table's) is posted to as
    the outbox posts, with a fresh token from the app."""
    page = client.get(path).get_data(as_text=True)
    match = CSRF.search(page)
    if match is None and path.startswith("/t/"):
        return str(client.get("/csrf").get_json()["token"])
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def new_game_form(players: list[str], **fields: str) -> dict[str, str]:
    data = {f"players-{i}": name for i, name in enumerate(players + [""] * (10 - len(players)))}
    data.update({"rules": "crates", "first_dealer": "0", "option_decks": "1"})
    data.update(fields)
    return data


@dataclass
class Table:
    """One game seen through its record link."""

    client: FlaskClient
    token: str

    @property
    def base(self) -> str:
        return f"/t/{self.token}"

    def post(self, path: str, page: str | None = None, **data: object):
        token = csrf_token(self.client, page or self.base + "/")
        data.setdefault("idem", secrets.token_urlsafe(8))
        return self.client.post(self.base + path, data={"csrf_token": token, **data})

    def pressure(self, player: str, hand: int, **extra: object):
        return self.post("/pressure", hand=hand, player=player, **extra)

    def leftovers(self, hand: int, seat: int, cards: str = "", went_out: bool = False, **extra: object):
        data: dict[str, object] = {"cards": cards, "replaces": "", **extra}
        if went_out:
            data["went_out"] = "y"
        return self.post(f"/hand/{hand}/seat/{seat}", page=f"{self.base}/hand/{hand}/seat/{seat}", **data)

    def follow(self, response) -> str:
        """The page a save sends the phone on to, with its confirmation (which is in its address)."""
        page = self.client.get(response.headers["Location"])
        assert page.status_code == 200, (response.headers["Location"], page.status_code)
        return page.get_data(as_text=True)

    def page(self, path: str = "/") -> str:
        response = self.client.get(self.base + path)
        assert response.status_code == 200, (path, response.status_code)
        return response.get_data(as_text=True)


def start(client: FlaskClient, players: list[str], **fields: str) -> Table:
    token = csrf_token(client, "/new")
    response = client.post("/new", data={"csrf_token": token, **new_game_form(players, **fields)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return Table(client, response.headers["Location"].split("/t/")[1].split("/")[0])


def phone_at(app, address: str, headers: dict[str, str] | None = None) -> FlaskClient:
    """A new phone (no cookies) on the network at ``address``, sending ``headers`` with every request."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    for name, value in (headers or {}).items():
        client.environ_base["HTTP_" + name.upper().replace("-", "_")] = value
    return client


def create_director(instance: Path, password: str) -> dict[str, str]:
    """Set the director's password with the installed command, as a director on the server would;
    returns the environment that points commands at that instance."""
    env = {"SCOREKEEPER_INSTANCE": str(instance), "PATH": "/usr/bin:/bin"}
    if os.environ.get("PYTHONPATH"):  # a worktree's code, as the tests run it, not the installed copy's
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    script = Path(sys.executable).parent / "scorekeeper"
    subprocess.run(
        [str(script), "create-director", "--password-stdin"],
        input=password + "\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return env


def security_headers(response) -> dict[str, str]:
    """The response's security headers, its page's allowance for its import map taken out."""
    from scorekeeper.web.security import HEADERS

    found = {name: response.headers.get(name) for name in HEADERS}
    found["Content-Security-Policy"] = IMPORT_MAP_SOURCE.sub("", found["Content-Security-Policy"] or "")
    return found


def hashed_static(client: FlaskClient, name: str) -> str:
    """The content-hashed name the home page links ``name`` by (``app.css``: ``app.3f9a1c2b.css``)."""
    page = client.get("/").get_data(as_text=True)
    stem, extension = name.rsplit(".", 1)
    found = re.search(rf'"/static/({re.escape(stem)}\.[0-9a-f]{{8}}\.{extension})"', page)
    assert found, f"the home page does not link {name} by a hashed name"
    return found.group(1)


def landing(response) -> str:
    """Where a save sends the phone on to, without the confirmation its address carries."""
    return urlsplit(response.headers["Location"]).path
