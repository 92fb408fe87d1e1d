"""Every change is run through the engine before it is committed: the log never holds what the
engine refuses; a game an older version let break still opens and is repaired by withdrawing
the entry the rules refuse."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.gamelog import LEFTOVERS, PRESSURE, Change, Entry
from scorekeeper.scoring import Game, configure
from scorekeeper.storage.database import connect, immediate
from scorekeeper.storage.games import _insert_entry, create_game, now
from tests.support.web import Table, csrf_token

OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}


def table(app, client, rules: str, players: list[str], **options) -> Table:
    db = connect(app.config["DATABASE"])
    try:
        stored = create_game(db, Game(configure(rules, options), tuple(players)))
    finally:
        db.conn.close()
    return Table(client, stored.record_token)


def outbox_post(t: Table, path: str, **data):
    token = csrf_token(t.client, t.base + "/")
    return t.client.post(t.base + path, data={"csrf_token": token, "idem": f"k{path}{data}", **data}, headers=OUTBOX)


def version(t: Table) -> int:
    return t.client.get(t.base + "/version").get_json()["version"]


def test_a_pressure_in_a_game_without_pressures_is_refused_and_not_stored(app, client):
    t = table(app, client, "crazy-eights", ["Ann", "Bob", "Cy"])
    response = outbox_post(t, "/pressure", hand=1, player="Bob")
    assert response.status_code == 422
    assert response.get_json() == {"ok": False, "error": "Hand 1: Crazy Eights has no pressures.", "field": "player"}
    assert version(t) == 0
    plain = t.pressure("Bob", 1)
    assert plain.status_code == 302
    assert "Crazy Eights has no pressures" in t.page("/")
    assert version(t) == 0


def test_leftovers_without_a_suit_in_the_250_game_are_refused_beside_the_field(app, client):
    t = table(app, client, "two-fifty", ["Ann", "Bob", "Cy"])
    response = t.leftovers(1, 0, "K 9")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "needs suits" in page and 'value="K 9"' in page
    assert version(t) == 0
    refused = outbox_post(t, "/hand/1/seat/0", cards="K 9", replaces="")
    assert refused.status_code == 422 and refused.get_json()["field"] == "cards"
    assert "needs suits" in refused.get_json()["error"]
    assert t.leftovers(1, 0, "Kh 9s").status_code == 302
    assert version(t) == 1


def test_leftovers_without_the_suit_of_a_special_house_card_are_refused(app, client):
    t = table(app, client, "house", ["Ann", "Bob"], name="Kitchen", deal=[5], special={"QS": 40})
    response = outbox_post(t, "/hand/1/seat/0", cards="Q 4", replaces="")
    assert response.status_code == 422
    assert "give the suit of each Q" in response.get_json()["error"]
    assert version(t) == 0


def test_a_correction_that_decides_the_game_before_hands_already_played_is_refused(app, client):
    t = table(app, client, "crazy-eights", ["Ann", "Bob"], target=100)
    for number in (1, 2):
        assert t.leftovers(number, 0, went_out=True).status_code == 302
        assert t.leftovers(number, 1, "K").status_code == 302
    first_bob = json.loads(t.page("/export.json"))["hands"][0]["leftovers"]["Bob"]
    assert first_bob == ["K"]
    detail = t.page("/hand/1/seat/1")
    replaces = detail.split('name="replaces"')[1].split('value="')[1].split('"')[0]
    response = t.leftovers(1, 1, "8 8", replaces=replaces)
    assert response.status_code == 422
    assert "decided in hand 1, but hand 2 was played after it" in response.get_data(as_text=True)
    assert version(t) == 4


def _break(app, t: Table, changes: list[Change]) -> None:
    """Write entries straight into the log, as an older version that did not check them did."""
    db = connect(app.config["DATABASE"])
    try:
        game_id, seq = db.execute("SELECT id, version FROM games WHERE record_token = ?", [t.token]).fetchone()
        with immediate(db):
            for offset, change in enumerate(changes, start=1):
                entry = Entry.of(change, 0, seq + offset, f"old-{seq + offset}", "record link · phone 0ld1", now())
                _insert_entry(db, game_id, entry)
            db.execute("UPDATE games SET version = ? WHERE id = ?", [seq + len(changes), game_id])
    finally:
        db.conn.close()


GAME_PAGES = ["/", "/scores", "/history", "/share", "/hand/1", "/hand/1/seat/0", "/export.json", "/sheet.pdf"]


def test_a_game_an_older_version_broke_still_opens_and_is_repaired_by_withdrawing_the_entry(app, client):
    t = table(app, client, "crazy-eights", ["Ann", "Bob", "Cy"])
    _break(
        app,
        t,
        [
            Change(PRESSURE, 1, "Bob"),
            Change(LEFTOVERS, 1, "Ann", {"cards": []}),
            Change(LEFTOVERS, 1, "Bob", {"cards": ["K"]}),
            Change(LEFTOVERS, 1, "Cy", {"cards": ["8"]}),
        ],
    )
    view = client.get(t.base + "/share").get_data(as_text=True).split("/v/")[1].split("/")[0]
    for path in GAME_PAGES:
        assert client.get(t.base + path).status_code == 200, path
    for path in ["/", "/history", "/export.json", "/sheet.pdf"]:
        assert client.get(f"/v/{view}{path}").status_code == 200, path
    page = t.page("/scores")
    assert "This game holds a change the rules refuse" in page
    assert "Crazy Eights has no pressures" in page
    assert "refused by the rules" in t.page("/history")
    record = json.loads(t.page("/export.json"))
    assert record["hands"][0]["pressures"] == [] and record["hands"][0]["leftovers"]["Ann"] == []

    pressure_entry = int(page.split('name="target" value="')[1].split('"')[0])
    withdrawn = t.post("/undo", target=pressure_entry)
    assert withdrawn.status_code == 302
    after = t.page("/scores")
    assert "holds a change the rules refuse" not in after
    history = t.page("/history")
    line = re.search(r'<li class="undone">.*?</li>', history, re.S).group(0)
    assert "Hand 1 · pressure" in line and "Undone: #" in line


def test_a_broken_table_counts_in_the_standings_without_the_refused_entry(app, client):
    from scorekeeper.storage.event_results import event_standings, progress, table_results
    from scorekeeper.storage.event_rounds import add_round
    from scorekeeper.storage.events import EventPlayer, create_event
    from scorekeeper.storage.games import game_by_record_token
    from scorekeeper.storage.table_locks import set_locked

    db = connect(app.config["DATABASE"])
    try:
        players = [EventPlayer(name, "", "") for name in ("Ann", "Bob")]
        event = create_event(db, "Club night", "2026-11-23", "crazy-eights", {}, "total", "none", players)
        add_round(db, event, [["Ann", "Bob"]], 1)
        token = db.execute("SELECT record_token FROM games").fetchone()[0]
        t = Table(client, token)
        _break(
            app,
            t,
            [
                Change(PRESSURE, 1, "Bob"),
                Change(LEFTOVERS, 1, "Ann", {"cards": []}),
                Change(LEFTOVERS, 1, "Bob", {"cards": ["K"]}),
            ],
        )
        game = game_by_record_token(db, token)
        set_locked(db, game, True)  # closed by the director
        (table,) = table_results(progress(db, event))
        totals = {side.side.name: side.total for side in table.score.sides}
        # A game played to a score has no length to prorate by: locked short, it counts as missed.
        missed = {row.name: row.missed for row in event_standings(db, event)}
    finally:
        db.conn.close()
    assert totals == {"Ann": 10, "Bob": 0}, "what the standings read: the game without the refused entry"
    assert missed == {"Ann": 1, "Bob": 1}
    assert "This game holds a change the rules refuse" in t.page("/scores")


@pytest.mark.parametrize("path", ["/hand/9/seat/0", "/hand/1/seat/7"])
def test_an_outbox_post_to_a_hand_that_is_not_open_gets_a_json_refusal(app, client, path):
    t = table(app, client, "crates", ["Ann", "Bob"])
    response = outbox_post(t, path, cards="K", replaces="")
    assert response.status_code == 422
    assert response.get_json()["ok"] is False and "nothing was saved" in response.get_json()["error"]


def test_a_one_card_reminder_neither_owed_nor_cleared_is_refused(app, client):
    t = table(app, client, "crates", ["Ann", "Bob"])
    response = outbox_post(t, "/one-card", hand=1, player="Bob", owes="2")
    assert response.status_code == 422 and response.get_json()["ok"] is False
    assert version(t) == 0
