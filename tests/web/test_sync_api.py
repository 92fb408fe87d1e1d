"""What the outbox and the live pages rely on: JSON answers, exactly once, versions with ETags."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.support.web import csrf_token, start

OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}


@pytest.fixture
def table(client):
    return start(client, ["Ann", "Bob", "Cy", "Di"], partnerships="y")


def send(table, path, idem, **data):
    token = csrf_token(table.client, table.base + "/")
    return table.client.post(table.base + path, data={"csrf_token": token, "idem": idem, **data}, headers=OUTBOX)


def test_a_change_is_answered_in_json_with_the_new_version(table):
    response = send(table, "/pressure", "k1", hand=1, player="Bob")
    data = response.get_json()
    assert response.status_code == 200
    assert data["ok"] and not data["duplicate"] and data["version"] == 1
    assert data["redirect"].startswith(f"/t/{table.token}/?saved=")
    assert "Pressure to Bob: 5" in data["message"]


def test_a_retry_with_the_same_key_is_recorded_once_and_answered_with_the_same_entry(table):
    first = send(table, "/pressure", "k1", hand=1, player="Bob").get_json()
    again = send(table, "/pressure", "k1", hand=1, player="Bob").get_json()
    assert again["ok"] and again["duplicate"]
    assert again["entry"] == first["entry"] and again["version"] == 1


def test_the_same_key_with_different_content_is_refused(table):
    send(table, "/pressure", "k1", hand=1, player="Bob")
    response = send(table, "/pressure", "k1", hand=1, player="Cy")
    assert response.status_code == 422
    assert "already used for a different change" in response.get_json()["error"]


def test_a_stale_edit_is_refused_with_what_stands_now(table):
    send(table, "/hand/1/seat/0", "a", cards="K", replaces="")
    response = send(table, "/hand/1/seat/0", "b", cards="Q Q", replaces="")
    data = response.get_json()
    assert response.status_code == 409
    assert data["current"]["cards"] == ["K"]
    retried = send(table, "/hand/1/seat/0", "c", cards="Q Q", replaces=str(data["current"]["entry"]))
    assert retried.status_code == 200


def test_a_referee_refusal_names_the_field(table):
    response = send(table, "/hand/1/seat/0", "a", cards="JK", replaces="")
    assert response.status_code == 422
    assert response.get_json()["field"] == "cards"
    response = send(table, "/hand/1/seat/0", "b", cards="", replaces="")
    assert response.get_json()["error"].startswith("Tap the cards left")


def test_a_missing_or_stale_csrf_token_is_answered_in_json(table):
    response = table.client.post(
        f"{table.base}/pressure", data={"idem": "k", "hand": 1, "player": "Bob"}, headers=OUTBOX
    )
    assert response.status_code == 400
    assert response.get_json()["csrf"] is True


def test_a_fresh_csrf_token_lets_the_outbox_replay(table):
    fresh = table.client.get("/csrf").get_json()["token"]
    response = table.client.post(
        f"{table.base}/pressure", data={"csrf_token": fresh, "idem": "k", "hand": 1, "player": "Bob"}, headers=OUTBOX
    )
    assert response.get_json()["ok"]


def test_the_version_has_an_etag_and_answers_304_when_nothing_changed(table):
    first = table.client.get(f"{table.base}/version")
    assert first.get_json() == {"version": 0}
    etag = first.headers["ETag"]
    assert table.client.get(f"{table.base}/version", headers={"If-None-Match": etag}).status_code == 304
    send(table, "/pressure", "k1", hand=1, player="Bob")
    changed = table.client.get(f"{table.base}/version", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.get_json() == {"version": 1}


def test_spectators_follow_the_version_too(table):
    view = re.search(r"/v/([\w-]+)/", table.page("/share")).group(1)
    send(table, "/pressure", "k1", hand=1, player="Bob")
    assert table.client.get(f"/v/{view}/version").get_json() == {"version": 1}
    assert table.client.get("/v/nope/version").status_code == 404
    assert table.client.get("/t/nope/version").status_code == 404


def test_pages_carry_their_version_for_the_live_script(table):
    send(table, "/pressure", "k1", hand=1, player="Bob")
    assert 'data-version="1"' in table.page("/")
    assert f'data-version-url="/t/{table.token}/version"' in table.page("/scores")


def made_ago(table) -> list[timedelta]:
    """How long ago each entry of the game's log was made, by the time it is stamped with, oldest first."""
    entries = table.client.get(f"{table.base}/copy.json").get_json()["entries"]
    return [datetime.now(UTC) - datetime.fromisoformat(entry["at"]) for entry in entries]


MINUTE = "60000"
#: Each kind of change a phone's outbox may hold: its address and fields (the undo's target is the first entry).
LATE_CHANGES = {
    "pressure": ("/pressure", {"hand": "1", "player": "Bob"}),
    "leftovers": ("/hand/1/seat/0", {"cards": "K 5", "replaces": ""}),
    "whole hand": ("/hand/1/leftovers", {"seats": "0,1", "cards-0": "K", "cards-1": "", "out-1": "y"}),
    "ruling note": ("/note", {"hand": "1", "text": "Bob misdealt; redealt"}),
    "one card": ("/one-card", {"hand": "1", "player": "Cy", "owes": "1"}),
    "undo": ("/undo", {"target": "1"}),
}


@pytest.mark.parametrize("kind", LATE_CHANGES)
def test_every_change_sent_late_is_stamped_with_the_time_it_was_made(table, kind):
    """Leftovers, notes, reminders and undos kept a minute in an offline phone's outbox take their place in
    the history a minute back, as pressures do, not at the moment they reach the server."""
    send(table, "/pressure", "first", hand=1, player="Ann")
    path, fields = LATE_CHANGES[kind]
    response = send(table, path, "late", waited=MINUTE, **fields)
    assert response.status_code == 200, response.get_json()
    first, *late = made_ago(table)
    assert first < timedelta(seconds=5)
    assert late and all(timedelta(seconds=55) < ago < timedelta(seconds=70) for ago in late), late


def test_a_change_claiming_to_have_waited_longer_than_a_day_is_stamped_a_day_back(table):
    send(table, "/note", "k1", hand=1, text="Ruled on the count", waited="9" * 12)
    (ago,) = made_ago(table)
    assert timedelta(hours=23, minutes=59) < ago < timedelta(hours=24, minutes=1)


def test_a_change_sent_at_once_or_without_the_field_is_stamped_now(table):
    send(table, "/note", "k1", hand=1, text="Ruled on the count", waited="0")
    send(table, "/note", "k2", hand=1, text="And on the threes")
    send(table, "/note", "k3", hand=1, text="And on the jokers", waited="-5")
    assert all(ago < timedelta(seconds=5) for ago in made_ago(table))
