"""Players picked from the club's list when an event is made or a late player added: the list
offered as one types (a datalist, no script needed), Add without script sending the form back
with the line added and everything typed kept, and a line two members could be refused beside
the Players field with the list as typed."""

from __future__ import annotations

import gzip
import html
import re

import pytest

from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect
from tests.web.test_events import event_form, new_event, set_up_director

NEW = "/director/events/new"


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


@pytest.fixture
def db(app, director):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


def text(response) -> str:
    return response.get_data(as_text=True)


def textarea(page: str, name: str) -> str:
    found = re.search(rf'<textarea[^>]*name="{name}"[^>]*>\r?\n?(.*?)</textarea>', page, re.S)
    assert found, f"no {name} on the page"
    return html.unescape(found.group(1))


def options(page: str, datalist: str) -> list[str]:
    found = re.search(rf'<datalist id="{datalist}">(.*?)</datalist>', page, re.S)
    assert found, f"no datalist {datalist}"
    return [html.unescape(value) for value in re.findall(r'<option value="([^"]*)"', found.group(1))]


def events_made(db) -> int:
    return len(event_store.list_events(db))


def test_the_new_event_form_offers_the_clubs_members_as_lines_with_their_numbers(director):
    new_event(director, ["Ann Smith, North, 101", "Bob Stone", "Cy Moss, , 7", "Di Vale, South"])
    page = text(director.get(NEW))
    assert options(page, "club-members") == ["Ann Smith, North, 101", "Bob Stone", "Cy Moss, , 7", "Di Vale, South"]
    assert re.search(r'<input[^>]*id="pick"[^>]*list="club-members"', page) or re.search(
        r'<input[^>]*list="club-members"[^>]*id="pick"', page
    )
    assert 'name="add_player"' in page and "Find a player on the list" in page


def test_add_without_script_appends_the_line_and_keeps_everything_typed(director, db):
    data = event_form(director, ["Bob Stone", "Cy Moss"], name="Thursday club", rounds="3")
    response = director.post(NEW, data={**data, "pick": "Ann Smith, North, 101", "add_player": "y"})
    page = text(response)
    assert response.status_code == 200 and events_made(db) == 0
    assert textarea(page, "players") == "Bob Stone\nCy Moss\nAnn Smith, North, 101"
    assert 'value="Thursday club"' in page and 'value="3"' in page  # the rest as typed
    assert re.search(r'<input[^>]*id="pick"[^>]*value=""', page) and "autofocus" in page  # ready for the next


def test_add_without_script_takes_a_name_the_list_does_not_know_as_typed(director, db):
    data = event_form(director, [])
    response = director.post(NEW, data={**data, "pick": "  Zed Newman  ", "add_player": "y"})
    assert textarea(text(response), "players") == "Zed Newman" and events_made(db) == 0


def test_add_with_nothing_typed_changes_nothing(director, db):
    data = event_form(director, ["Bob Stone"])
    response = director.post(NEW, data={**data, "pick": "", "add_player": "y"})
    assert response.status_code == 200 and textarea(text(response), "players") == "Bob Stone" and events_made(db) == 0


def test_a_search_too_long_is_refused_beside_it(director):
    data = event_form(director, ["Bob Stone"])
    response = director.post(NEW, data={**data, "pick": "x" * 200, "add_player": "y"})
    page = text(response)
    assert response.status_code == 422 and textarea(page, "players") == "Bob Stone"
    assert re.search(r'id="picker"[^>]*>.*?<p class="error" role="alert">Field cannot be longer', page, re.S)


def test_an_event_made_from_picked_members_plays_the_same_members(director, db):
    first = new_event(director, ["Ann Smith, North, 101", "Bob Stone", "Cy Moss, , 7"])
    before = {p.name: p.member_id for p in event_store.event_players(db, int(first.rsplit("/", 1)[1]))}
    picked = options(text(director.get(NEW)), "club-members")
    second = new_event(director, [*picked, "Zed Newman"], name="Next week")
    after = {p.name: p.member_id for p in event_store.event_players(db, int(second.rsplit("/", 1)[1]))}
    assert {name: after[name] for name in before} == before
    assert after["Zed Newman"] not in before.values()


def test_a_name_two_members_share_is_refused_beside_the_players_with_the_list_kept(director, db):
    new_event(director, ["Ann Smith, North, 101", "Bob"])
    new_event(director, ["Ann Smith, South, 202", "Bob"], name="Next week")
    typed = ["Bob", "Cy Moss", "Ann Smith"]
    response = director.post(NEW, data=event_form(director, typed, name="Third week"))
    page = text(response)
    assert response.status_code == 422 and events_made(db) == 2
    words = "Line 3: 2 members are named Ann Smith (numbers 101, 202): add the membership number."
    assert re.search(
        r'<textarea[^>]*name="players"[^>]*>[^<]*</textarea>\s*<small[^>]*>[^<]*</small>\s*<p class="error" role="alert">'
        + re.escape(html.escape(words, quote=True)),
        page,
    ), page
    assert textarea(page, "players") == "\n".join(typed) and 'value="Third week"' in page


def test_the_late_player_form_offers_the_members_not_playing_with_their_number_and_club(director, db):
    new_event(director, ["Ann Smith, North, 101", "Bob Stone", "Cy Moss, South, 7", "Di Vale"])
    event_url = new_event(director, ["Bob Stone", "Di Vale", "Ed Park", "Flo Hart"], name="Next week")
    page = text(director.get(event_url))
    assert re.search(r'<input[^>]*id="late-name"[^>]*list="late-members"', page) or re.search(
        r'<input[^>]*list="late-members"[^>]*id="late-name"', page
    )
    assert 'data-pick-fill="late-club late-number"' in page
    assert options(page, "late-members") == ["Ann Smith", "Cy Moss"]  # not those playing already
    assert '<option value="Ann Smith" label="number 101, North" data-club="North" data-number="101">' in page


def test_a_late_player_picked_by_name_and_number_is_the_member(director, db):
    new_event(director, ["Ann Smith, North, 101", "Bob Stone"])
    event_url = new_event(director, ["Bob Stone", "Di Vale", "Ed Park", "Flo Hart"], name="Next week")
    ann = next(m for m in event_store.event_players(db, 1) if m.name == "Ann Smith").member_id
    from tests.support.web import csrf_token

    token = csrf_token(director, event_url)
    data = {
        "csrf_token": token,
        "late-name": "Ann Smith",
        "late-club": "North",
        "late-number": "101",
        "late-from_round": "1",
    }
    assert director.post(event_url + "/players/late", data=data).status_code == 302
    event_id = int(event_url.rsplit("/", 1)[1])
    assert next(p for p in event_store.event_players(db, event_id) if p.name == "Ann Smith").member_id == ann


def test_the_new_event_page_with_three_thousand_members_weighs(director, db, capsys):
    """3,000 members in the datalist: measured, not asserted beyond a sanity bound."""
    now = "2026-01-01T00:00:00+00:00"
    db.conn.executemany(
        "INSERT INTO members (name, name_key, club, number, number_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (f"Player {i:04d}", f"player {i:04d}", f"Club {i % 17}", str(10000 + i), str(10000 + i), now)
            for i in range(3000)
        ],
    )
    page = director.get(NEW).get_data()
    event_url = new_event(director, ["Player 0000, Club 0, 10000", "Player 0001, Club 1, 10001"])
    event_page = director.get(event_url).get_data()
    with capsys.disabled():
        print(
            f"\nwith 3,000 members: the new-event page {len(page):,} bytes ({len(gzip.compress(page)):,} gzipped), "
            f"the event page {len(event_page):,} bytes ({len(gzip.compress(event_page)):,} gzipped)"
        )
    assert len(options(page.decode(), "club-members")) == 3000
    assert len(gzip.compress(page)) < 100_000
