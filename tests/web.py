"""Driving the web app as a phone would: read the CSRF token off the page, post the form."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from flask.testing import FlaskClient

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def csrf_token(client: FlaskClient, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    match = CSRF.search(page)
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

    def page(self, path: str = "/") -> str:
        response = self.client.get(self.base + path)
        assert response.status_code == 200, (path, response.status_code)
        return response.get_data(as_text=True)


def start(client: FlaskClient, players: list[str], **fields: str) -> Table:
    token = csrf_token(client, "/new")
    response = client.post("/new", data={"csrf_token": token, **new_game_form(players, **fields)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return Table(client, response.headers["Location"].split("/t/")[1].split("/")[0])
