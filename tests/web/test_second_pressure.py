"""A pressure tapped twice (a double tap, or two phones at once) is asked about, never silently doubled."""

import re
from datetime import datetime, timedelta

from scorekeeper.web.views import play
from tests.support.web import Table, csrf_token, phone_at, start

OUTBOX = {"Accept": "application/json", "X-Requested-With": "outbox"}


def pressures(table: Table) -> list[str]:
    return table.client.get(f"{table.base}/export.json").get_json()["in_play"]["pressures"]


def sent_from_outbox(table: Table, player: str, idem: str, **extra: str):
    """A pressure as a phone's outbox sends it (JSON answers), on hand 1."""
    data = {"csrf_token": _token(table), "idem": idem, "hand": 1, "player": player, **extra}
    return table.client.post(f"{table.base}/pressure", data=data, headers=OUTBOX)


def test_the_same_pressure_again_at_once_is_asked_about_and_nothing_is_recorded(client):
    table = start(client, ["Ann", "Bob"])
    assert table.pressure("Bob", 1).status_code == 302
    response = sent_from_outbox(table, "Bob", "second")
    assert response.status_code == 409
    assert response.get_json()["ask"] == "Another pressure on Bob? One was recorded moments ago."
    assert pressures(table) == ["Bob"]


def test_saying_yes_records_the_second_pressure_once(client):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1)
    for _ in range(2):  # the answer sent twice (a retry) still counts once
        assert sent_from_outbox(table, "Bob", "second", again="1").status_code == 200
    assert pressures(table) == ["Bob", "Bob"]


def test_a_pressure_tapped_on_another_phone_moments_ago_is_named_as_such(app, client):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1)
    other = Table(phone_at(app, "192.0.2.7"), table.token)
    response = sent_from_outbox(other, "Bob", "other")
    assert response.status_code == 409
    assert response.get_json()["ask"] == "Bob's pressure was just recorded on another phone. Is this a second one?"
    assert pressures(table) == ["Bob"]


def test_without_javascript_the_question_is_a_page_with_one_tap_each_way(client):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1)
    response = table.pressure("Bob", 1)
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Another pressure on Bob?" in page
    assert 'name="again" value="1"' in page and "Yes, a second one" in page and "No, the same one" in page
    assert pressures(table) == ["Bob"]


def test_other_players_and_other_hands_are_not_asked_about(client):
    table = start(client, ["Ann", "Bob", "Cy"])
    assert table.pressure("Bob", 1).status_code == 302
    assert table.pressure("Ann", 1).status_code == 302
    assert table.pressure("Cy", 1).status_code == 302
    assert pressures(table) == ["Bob", "Ann", "Cy"]


def test_a_pressure_that_waited_in_the_outbox_is_not_taken_for_a_double_tap(client):
    """Offline, two real pressures minutes apart are delivered together: the later tap is not questioned."""
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1)
    response = table.pressure("Bob", 1, waited="60000")
    assert response.status_code == 302
    assert pressures(table) == ["Bob", "Bob"]


def later(seconds: int) -> type[datetime]:
    """The clock as the server sees it ``seconds`` from now."""

    class Later(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.now(tz) + timedelta(seconds=seconds)

    return Later


def test_a_pressure_well_after_the_last_is_recorded_without_a_question(client, monkeypatch):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1)
    monkeypatch.setattr(play, "datetime", later(10))
    response = table.pressure("Bob", 1)
    assert response.status_code == 302
    assert pressures(table) == ["Bob", "Bob"]


def test_a_pressure_tapped_offline_just_before_another_phones_is_asked_about_when_it_arrives(app, client, monkeypatch):
    """Ann's phone, offline, taps Bob's pressure; a second later Cy's phone records it; Ann's
    arrives six seconds after its tap: the taps were a second apart, so it is asked about."""
    table = start(client, ["Ann", "Bob", "Cy"])
    other = Table(phone_at(app, "192.0.2.7"), table.token)
    monkeypatch.setattr(play, "datetime", later(1))
    assert other.pressure("Bob", 1).status_code == 302
    monkeypatch.setattr(play, "datetime", later(6))
    response = sent_from_outbox(table, "Bob", "offline", waited="6000")
    assert response.status_code == 409
    assert "just recorded on another phone" in response.get_json()["ask"]
    assert pressures(table) == ["Bob"]


def test_an_entry_is_stored_with_the_time_of_its_tap(client):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1, waited="60000")
    history = table.page("/history")
    stored = datetime.fromisoformat(re.search(r'<time datetime="([^"]+)"', history).group(1))
    assert timedelta(seconds=55) < datetime.now(stored.tzinfo) - stored < timedelta(seconds=70)


def test_an_undone_pressure_does_not_count(client):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Bob", 1)
    entry = re.search(r'name="target" value="(\d+)"', table.page("/")).group(1)
    table.post("/undo", target=entry)
    assert table.pressure("Bob", 1).status_code == 302
    assert pressures(table) == ["Bob"]


def undone_through_the_outbox(table: Table, entry: int) -> None:
    data = {"csrf_token": _token(table), "idem": f"undo-{entry}", "target": entry}
    assert table.client.post(f"{table.base}/undo", data=data, headers=OUTBOX).status_code == 200


def test_tap_undo_tap_within_seconds_records_the_second_tap_without_a_question(client):
    """Cy, Undo, Cy again within five seconds, all through the outbox: the undone pressure is not
    "one moments ago", so the tap is recorded at once (and the phone asks nothing either: the
    browser tests in tests/browser/test_double_taps.py)."""
    table = start(client, ["Ann", "Bob", "Cy"])
    first = sent_from_outbox(table, "Cy", "first").get_json()["entry"]
    undone_through_the_outbox(table, first)
    response = sent_from_outbox(table, "Cy", "again")
    assert response.status_code == 200 and "ask" not in response.get_json()
    assert pressures(table) == ["Cy"]


def test_a_second_pressure_undone_leaves_the_first_to_ask_about(client):
    """What still stands counts: Cy, yes a second Cy, the second undone, Cy again is asked about."""
    table = start(client, ["Ann", "Bob", "Cy"])
    sent_from_outbox(table, "Cy", "first")
    second = sent_from_outbox(table, "Cy", "second", again="1").get_json()["entry"]
    undone_through_the_outbox(table, second)
    response = sent_from_outbox(table, "Cy", "third")
    assert response.status_code == 409
    assert response.get_json()["ask"] == "Another pressure on Cy? One was recorded moments ago."
    assert pressures(table) == ["Cy"]


def _token(table: Table) -> str:
    return csrf_token(table.client, table.base + "/")
