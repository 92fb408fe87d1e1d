"""The club's pages: the director's list and member pages, and the public ratings and player pages,
which show players as they asked and hold no record link, join code, view or wall token."""

from __future__ import annotations

import pytest

from scorekeeper import create_app
from tests.support.published import club_instance, secrets_of
from tests.support.web import csrf_token
from tests.web.test_events import log_in, set_up_director


@pytest.fixture(scope="module")
def instance(tmp_path_factory):
    return club_instance(tmp_path_factory.mktemp("club"))


@pytest.fixture
def app(instance):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(instance / "scorekeeper.db")})


def as_director(app):
    """The director's browser: the password set on first use, else logged in with it."""
    client = app.test_client()
    if client.get("/director/setup").status_code == 200 and "confirm" in client.get("/director/setup").get_data(
        as_text=True
    ):
        set_up_director(client)
    else:
        log_in(client)
    return client


def test_the_public_pages_show_initials_where_asked_and_no_secret(app, instance):
    client = app.test_client()
    secrets = secrets_of(instance)
    for path in ("/club/", "/club/players/1", "/club/players/2", "/club/players/5"):
        page = client.get(path).get_data(as_text=True)
        assert not [secret for secret in secrets if secret in page], path
        assert "Ann Smith" not in page and "1042" not in page, path
    ratings = client.get("/club/").get_data(as_text=True)
    assert "A. S." in ratings and "Bob Stone" in ratings
    assert client.get("/club/players/999").status_code == 404


def test_a_players_page_says_every_evening_place_total_tables_won_and_who_they_met(app):
    page = app.test_client().get("/club/players/2").get_data(as_text=True)  # Bob Stone
    assert "2 evenings, 3 tables, 1 won outright." in page
    assert "Autumn Crates" in page and "Week two" in page
    assert "Met most often" in page and "A. S.</a> · 3" in page
    assert 'role="img" aria-label="Rating after each evening' in page


def test_the_directors_pages_need_the_login_and_name_players_in_full(app):
    visitor = app.test_client()
    assert visitor.get("/director/players/").status_code == 302
    assert visitor.get("/director/players/1").status_code == 302
    director = as_director(app)
    page = director.get("/director/players/1").get_data(as_text=True)
    assert "<h1>Ann Smith</h1>" in page and "Number 1042" in page and "shown as A. S. on public pages" in page
    found = director.get("/director/players/?q=104").get_data(as_text=True)
    assert ">Ann Smith</a>" in found and ">Bob Stone</a>" not in found


def test_a_member_added_or_edited_badly_is_told_beside_the_field_with_what_was_typed(app):
    director = as_director(app)
    token = csrf_token(director, "/director/players/")
    taken = director.post(
        "/director/players/", data={"csrf_token": token, "add-name": "Zed Zebra", "add-number": "1042"}
    )
    assert taken.status_code == 422
    page = taken.get_data(as_text=True)
    assert "Number 1042 is another member&#39;s." in page and 'value="Zed Zebra"' in page
    comma = director.post("/director/players/1", data={"csrf_token": token, "edit-name": "Smith, Ann"})
    assert comma.status_code == 422 and "cannot hold a comma" in comma.get_data(as_text=True)
    added = director.post("/director/players/", data={"csrf_token": token, "add-name": "Zed Zebra", "add-number": "77"})
    assert added.status_code == 302
    again = director.post("/director/players/", data={"csrf_token": token, "add-name": "Zed Zebra", "add-number": "77"})
    assert again.headers["Location"] == added.headers["Location"]  # a double click adds one
    assert "Zed Zebra (number 77) is on the list." in director.get(again.headers["Location"]).get_data(as_text=True)


def test_a_second_member_of_a_name_needs_both_to_have_numbers(app):
    """Seen in the fresh-clone check: three unnumbered "Double Click" members were added, and every
    event line of that name was then refused with advice no one could follow."""
    director = as_director(app)
    token = csrf_token(director, "/director/players/")
    first = director.post("/director/players/", data={"csrf_token": token, "add-name": "Double Click"})
    again = director.post("/director/players/", data={"csrf_token": token, "add-name": "Double Click"})
    assert first.status_code == again.status_code == 302 and first.headers["Location"] == again.headers["Location"]
    other = director.post(
        "/director/players/", data={"csrf_token": token, "add-name": "double  click", "add-number": "9"}
    )
    assert other.status_code == 422
    assert "Double Click is on the list already: if this is another person, give both a membership number." in (
        other.get_data(as_text=True)
    )


def test_namesakes_are_told_apart_wherever_a_list_names_them(tmp_path):
    """Seen in the fresh-clone check: two John Smiths on the public ratings, and two "J. S." once
    both asked for initials; the director's ladder named both "John Smith"."""
    from scorekeeper.storage.seasons import add_event, create_season, get_season, season_ladder
    from scorekeeper.web.club_pages import names_shown
    from tests.support.club import club_db, new_event, play, seat

    db = club_db(tmp_path)
    event = new_event(db, [("John Smith", "", "201"), ("John Smith", "", "202"), "Cy", "Di"])
    (table,) = seat(db, event, [["John Smith (201)", "John Smith (202)", "Cy", "Di"]])
    play(db, table, {"John Smith (201)": 1, "John Smith (202)": 2, "Cy": 3, "Di": 4})
    season, _ = create_season(db, "Winter", "points", None, "a4", "director")
    add_event(db, season.id, event.id, "director")
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "club.db")})
    ratings = app.test_client().get("/club/").get_data(as_text=True)
    assert "John Smith (2)" in ratings
    db.conn.execute("UPDATE members SET initials = 1")
    ratings = app.test_client().get("/club/").get_data(as_text=True)
    assert "J. S." in ratings and "J. S. (2)" in ratings
    ladder = season_ladder(db, get_season(db, season.id))
    assert sorted(names_shown(ladder.members, public=False).values()) == [
        "Cy",
        "Di",
        "John Smith (201)",
        "John Smith (202)",
    ]
    db.conn.close()
