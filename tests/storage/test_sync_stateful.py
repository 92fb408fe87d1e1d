"""Several phones, retries, reused keys, stale edits, any interleaving: the record always matches a model.

Each simulated phone has its own session and its own, possibly stale, view of what is
recorded. After every step the game's exported record must equal the model, its version
must count the accepted changes, and the totals on the scores page must equal a replay of
the export (what `scorekeeper replay` computes).
"""

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scorekeeper import create_app
from scorekeeper.scoring import Game, Hand, RefereeError, check_hand, configure, parse_cards, parse_record
from tests.support.web import csrf_token, start

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow

PLAYERS = ["Ann", "Bob", "Cy"]
HANDS = ["", "K", "A 3", "8", "3 3", "K K", "Q 9 3", "2 2"]
OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}
RULES = configure("crates")
GAME = Game(RULES, tuple(PLAYERS))


class Phones(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE": str(Path(self.folder.name) / "t.db")})
        self.phones = [app.test_client() for _ in range(3)]
        self.table = start(self.phones[0], PLAYERS)
        self.csrf = [csrf_token(phone, self.table.base + "/") for phone in self.phones]
        self.views: list[dict[tuple[int, str], int]] = [{} for _ in self.phones]
        self.leftovers: dict[tuple[int, str], list[str]] = {}
        self.entry_of: dict[tuple[int, str], int] = {}
        self.pressures: dict[int, list[str]] = {}
        self.sent: list[tuple[int, str, str, dict]] = []
        self.accepted = 0
        self.keys = 0

    def teardown(self) -> None:
        self.folder.cleanup()

    @property
    def hand(self) -> int:
        number = 1
        while all((number, p) in self.leftovers for p in PLAYERS):
            number += 1
        return number

    def post(self, phone: int, path: str, key: str, data: dict):
        form = {"csrf_token": self.csrf[phone], "idem": key, **data}
        return self.phones[phone].post(self.table.base + path, data=form, headers=OUTBOX)

    def new_key(self) -> str:
        self.keys += 1
        return f"key-{self.keys}"

    @precondition(lambda self: self.hand <= 15)
    @rule(phone=st.integers(0, 2), player=st.sampled_from(PLAYERS))
    def pressure(self, phone, player):
        key, data = self.new_key(), {"hand": self.hand, "player": player}
        response = self.post(phone, "/pressure", key, data)
        if response.status_code == 409:  # asked: one on this player moments ago; the phone says "a second one"
            assert player in self.pressures.get(self.hand, []), response.get_json()
            assert response.get_json()["ask"]
            data = {**data, "again": "1"}
            response = self.post(phone, "/pressure", key, data)
        assert response.status_code == 200, response.get_json()
        self.pressures.setdefault(self.hand, []).append(player)
        self.accepted += 1
        self.sent.append((phone, "/pressure", key, data))

    @precondition(lambda self: self.hand <= 15)
    @rule(phone=st.integers(0, 2), seat=st.integers(0, 2), cards=st.sampled_from(HANDS))
    def enter_leftovers(self, phone, seat, cards):
        """Enter or correct from what this phone last saw, which may be out of date."""
        hand, player = self.hand, PLAYERS[seat]
        seen = self.views[phone].get((hand, player))
        key = self.new_key()
        data = {"cards": cards, "replaces": str(seen or "")}
        if not cards:
            data["went_out"] = "y"
        path = f"/hand/{hand}/seat/{seat}"
        response = self.post(phone, path, key, data)
        if seen != self.entry_of.get((hand, player)):
            assert response.status_code == 409, response.get_json()
            current = response.get_json()["current"]
            assert current is None or current["cards"] == self.leftovers[(hand, player)]
            return
        trial = {p: parse_cards(self.leftovers[(hand, p)]) for p in PLAYERS if (hand, p) in self.leftovers}
        trial[player] = parse_cards(cards.split())
        try:
            RULES.check_leftovers(trial)
            if len(trial) == len(PLAYERS):  # the hand is complete: the engine referees it whole
                check_hand(GAME, hand, Hand(trial, tuple(self.pressures.get(hand, []))))
        except RefereeError:
            assert response.status_code == 422, response.get_json()
            return
        assert response.status_code == 200, response.get_json()
        entry = response.get_json()["entry"]
        self.leftovers[(hand, player)] = cards.split()
        self.entry_of[(hand, player)] = entry
        self.views[phone][(hand, player)] = entry
        self.accepted += 1
        self.sent.append((phone, path, key, data))

    @rule(phone=st.integers(0, 2))
    def refresh(self, phone):
        """The phone reloads: it now sees what is recorded."""
        self.views[phone] = dict(self.entry_of)

    @precondition(lambda self: self.sent)
    @rule(pick=st.integers(min_value=0), other=st.integers(0, 2))
    def retry(self, pick, other):
        """A submission sent again (a double tap, or an outbox replay after a lost answer)."""
        phone, path, key, data = self.sent[pick % len(self.sent)]
        response = self.post(other if "pressure" in path else phone, path, key, data)
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["duplicate"] is True

    @precondition(lambda self: self.sent)
    @rule(pick=st.integers(min_value=0))
    def reuse_a_key_for_something_else(self, pick):
        phone, _, key, _ = self.sent[pick % len(self.sent)]
        response = self.post(phone, "/pressure", key, {"hand": min(self.hand, 15), "player": "Zed"})
        assert response.status_code == 422

    @invariant()
    def the_record_matches_the_model(self):
        client = self.phones[0]
        record = client.get(f"{self.table.base}/export.json").get_json()
        complete = self.hand - 1
        assert len(record["hands"]) == complete
        for number, hand in enumerate(record["hands"], start=1):
            assert hand["leftovers"] == {p: self.leftovers[(number, p)] for p in PLAYERS}
            assert hand["pressures"] == self.pressures.get(number, [])
        if complete < 15:
            in_play = record.get("in_play", {"pressures": []})
            assert in_play["pressures"] == self.pressures.get(self.hand, [])
        assert client.get(f"{self.table.base}/version").get_json()["version"] == self.accepted
        replay = parse_record(record).score().to_json()
        page = client.get(f"{self.table.base}/scores").get_data(as_text=True)
        shown = [int(total) for total in re.findall(r'<td class="num big">(-?\d+)</td>', page)]
        assert shown[-len(PLAYERS) :] == [side["total"] for side in replay["sides"]]


Phones.TestCase.settings = settings(max_examples=25, stateful_step_count=30, deadline=None)
TestPhones = Phones.TestCase
