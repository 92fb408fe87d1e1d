"""Whatever a phone sends, in any order: what the server accepts leaves every page of the game
answering 200 and its export replaying with `scorekeeper replay`; what it refuses is a 4xx
that changes nothing."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.cli import main as scorekeeper
from scorekeeper.scoring import Game, configure
from scorekeeper.storage.database import connect
from scorekeeper.storage.games import create_game
from tests.support.web import csrf_token

OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}

#: (rules, options, players, partnerships): every family, with small targets so games can end.
GAMES = [
    ("crates", {}, ["Ann", "Bob", "Cy", "Di"], [["Ann", "Cy"], ["Bob", "Di"]]),
    ("crates", {"jokers": True, "pressure_increase_cap": 20}, ["Ann", "Bob", "Cy"], []),
    ("crates-world-series", {}, ["Ann", "Figgy", "Bob"], []),
    ("creights", {}, ["Ann", "Bob"], []),
    ("crazy-eights", {"target": 30}, ["Ann", "Bob", "Cy"], []),
    ("crazy-aces", {"target": 60}, ["Ann", "Bob"], []),
    ("zodiac", {"target": 4}, ["Ann", "Bob"], []),
    ("hollywood-eights", {"target": 20}, ["Ann", "Bob"], []),
    ("two-fifty", {}, ["Ann", "Bob", "Cy"], []),
    ("house", {"name": "Kitchen", "deal": [3, 2], "special": {"QS": 40}, "joker": 25}, ["Ann", "Bob"], []),
]
CARDS = ["K", "Kh", "8", "8s", "3", "3c", "JK", "Q", "Qs", "2", "2d", "A", "10h"]

step = st.one_of(
    st.tuples(st.just("pressure"), st.integers(0, 3), st.integers(-1, 1)),
    st.tuples(
        st.just("leftovers"), st.integers(0, 3), st.integers(-1, 0), st.lists(st.sampled_from(CARDS), max_size=4)
    ),
    st.tuples(st.just("undo"), st.integers(1, 40)),
    st.tuples(st.just("note"), st.integers(-1, 1)),
    st.tuples(st.just("one_card"), st.integers(0, 3), st.booleans()),
)

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow


class Phone:
    def __init__(self, folder: str, setup: tuple) -> None:
        rules, options, players, partnerships = setup
        self.app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE": str(Path(folder) / "t.db")})
        db = connect(self.app.config["DATABASE"])
        game = Game(configure(rules, options), tuple(players), tuple(tuple(team) for team in partnerships))
        stored = create_game(db, game)
        db.conn.close()
        self.players = players
        self.client = self.app.test_client()
        self.base = f"/t/{stored.record_token}"
        self.view = f"/v/{stored.view_token}"
        self.csrf = csrf_token(self.client, self.base + "/")
        self.keys = 0

    def record(self) -> dict:
        return json.loads(self.client.get(self.base + "/export.json").get_data(as_text=True))

    def hand(self) -> int:
        return len(self.record()["hands"]) + 1

    def version(self) -> int:
        return int(self.client.get(self.base + "/version").get_json()["version"])

    def post(self, path: str, **data: object) -> int:
        self.keys += 1
        before = self.version()
        form = {"csrf_token": self.csrf, "idem": f"key-{self.keys}", **data}
        response = self.client.post(self.base + path, data=form, headers=OUTBOX)
        assert response.status_code in (200, 409, 422), (path, data, response.status_code)
        body = response.get_json()
        assert body is not None and body["ok"] is (response.status_code == 200), body
        assert self.version() == before + (response.status_code == 200), (path, data, body)
        return response.status_code

    def replaces(self, number: int, seat: int) -> str:
        page = self.client.get(f"{self.base}/hand/{number}/seat/{seat}").get_data(as_text=True)
        return page.split('name="replaces"')[1].split('value="')[1].split('"')[0] if 'name="replaces"' in page else ""

    def play(self, action: tuple) -> None:
        kind, *args = action
        seats = len(self.players)
        if kind == "pressure":
            self.post("/pressure", hand=self.hand() + args[1], player=self.players[args[0] % seats])
        elif kind == "leftovers":
            number, seat = self.hand() + args[1], args[0] % seats
            data = {"cards": " ".join(args[2]), "replaces": self.replaces(number, seat)}
            if not args[2]:
                data["went_out"] = "y"
            self.post(f"/hand/{number}/seat/{seat}", **data)
        elif kind == "undo":
            self.post("/undo", target=args[0])
        elif kind == "note":
            self.post("/note", hand=self.hand() + args[0], text="a ruling")
        elif kind == "one_card":
            self.post("/one-card", hand=self.hand(), player=self.players[args[0] % seats], owes="1" if args[1] else "0")

    def pages(self) -> list[str]:
        last = max(1, min(self.hand(), 99))
        paths = [self.base + p for p in ("/", "/scores", "/history", "/share", "/export.json", "/sheet.pdf")]
        for number in range(1, last + 1):
            paths.append(f"{self.base}/hand/{number}")
            paths += [f"{self.base}/hand/{number}/seat/{seat}" for seat in range(len(self.players))]
        paths += [self.view + p for p in ("/", "/history", "/export.json")]
        return paths


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(GAMES), actions=st.lists(step, max_size=24))
def test_whatever_the_server_accepts_every_page_opens_and_the_export_replays(setup, actions):
    with tempfile.TemporaryDirectory() as folder:
        phone = Phone(folder, setup)
        for action in actions:
            phone.play(action)
        for path in phone.pages():
            response = phone.client.get(path, follow_redirects=True)
            assert response.status_code == 200, (path, response.status_code)
        record_file = Path(folder) / "game.json"
        record_file.write_text(json.dumps(phone.record()))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = scorekeeper(["replay", "--json", str(record_file)])
        assert status == 0, err.getvalue()
        assert json.loads(out.getvalue())["sides"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(step, min_size=4, max_size=16))
def test_what_is_refused_leaves_no_trace_in_a_game_without_pressures_or_with_suits(actions):
    with tempfile.TemporaryDirectory() as folder:
        phone = Phone(folder, GAMES[8])
        for action in actions:
            phone.play(action)
        record = phone.record()
        assert all(hand["pressures"] == [] for hand in record["hands"])
        assert all(
            card[-1] in "hsdc" for hand in record["hands"] for cards in hand["leftovers"].values() for card in cards
        )
