"""Seasons: a named series of the club's evenings with a ladder ruled as the director chooses (the
sum of placement points, the best N of M evenings, or the rating at the season's end); ties
shared and said, on screen, on the wall screen, on paper and in CSV.

The worked season, four players at one table each evening (placement points: 1 for every
player placed below you, ½ for every player tied with you):

    evening 1 (5 Jan): Ann 1st, Bob 2nd, Cy 3rd, Dee 4th    Ann 3,  Bob 2, Cy 1,  Dee 0
    evening 2 (12 Jan): Bob 1st, Ann =2nd, Cy =2nd, Dee 4th  Bob 3,  Ann 1½, Cy 1½, Dee 0
    evening 3 (19 Jan): Dee 1st, Cy 2nd, Bob 3rd, Ann 4th    Dee 3,  Cy 2, Bob 1,  Ann 0

    every evening: Bob 6, Ann 4½, Cy 4½, Dee 3      -> 1 Bob, =2 Ann and Cy, 4 Dee
    best 2 of 3:   Bob 3+2, Ann 3+1½, Cy 2+1½, Dee 3+0 (the earlier 0) -> Bob 5, Ann 4½, Cy 3½, Dee 3
"""

from __future__ import annotations

import csv
import html
import io
import re
import subprocess

import pytest

from scorekeeper.club.ladder import BEST, POINTS, RATING
from scorekeeper.club.ratings import MODEL, RatedTable, Ratings
from scorekeeper.reports.club_csv import ladder_rows
from scorekeeper.reports.ladder import halves, ladder_table
from scorekeeper.storage import seasons as season_store
from scorekeeper.storage.club_results import bring_up_to_date
from scorekeeper.storage.database import connect
from scorekeeper.storage.members import club_history, edit_member
from scorekeeper.storage.seasons import SeasonRefusal
from tests.support.club import club_db, new_event, play, seat, stored_before_the_rule
from tests.support.paper import pages
from tests.support.web import csrf_token
from tests.web.test_events import set_up_director

ANN, BOB, CY, DEE = "Ann Smith", "Bob Stone", "Cy Young", "Dee Ray"
FOUR = [(ANN, "North", "101"), (BOB, "", "102"), (CY, "", "103"), (DEE, "", "104")]
WORKED = [
    ("2026-01-05", {ANN: 1, BOB: 2, CY: 3, DEE: 4}),
    ("2026-01-12", {BOB: 1, ANN: 2, CY: 2, DEE: 4}),
    ("2026-01-19", {DEE: 1, CY: 2, BOB: 3, ANN: 4}),
]


def evening(db, held_on, places, players=FOUR, finish=True, at=""):
    """An evening of one round at one table of the four; its table played to ``places``."""
    event = new_event(db, players, name=f"Club night {held_on}", held_on=held_on)
    table = seat(db, event, [[ANN, BOB, CY, DEE]])[0]
    if finish:
        play(db, table, places, at=at or f"{held_on}T21:00:00+00:00")
    return event


def worked_season(db, rule=POINTS, best=None, name="Winter 2026"):
    season, _ = season_store.create_season(db, name, rule, best, "a4", "test")
    for held_on, places in WORKED:
        season_store.add_event(db, season.id, evening(db, held_on, places).id, "test")
    return season


def ladder_of(db, season):
    bring_up_to_date(db)
    found = season_store.get_season(db, season.id)
    return season_store.season_ladder(db, found)


def shown(db, season, public=False):
    """The ladder as the pages show it: (place, name, score, evenings line) a row."""
    ladder = ladder_of(db, season)
    names = {m: ladder.members[m].name for m in ladder.members}
    table = ladder_table(ladder.rows, ladder.ranked, names, ladder.season.rule, ladder.rule_words, ladder.provisional)
    return table, [
        (line.place_text, line.name, table.score_text(line), line.evenings_text.replace("\xa0", " "))
        for line in table.lines
    ]


# The ladder under each rule, from the club's record.


def test_every_evening_counts_its_placement_points_and_ties_share_a_place(db):
    table, rows = shown(db, worked_season(db))
    assert rows == [
        ("1", BOB, "6", "1: 2 · 2: 3 · 3: 1"),
        ("=2", ANN, "4½", "1: 3 · 2: 1½ · 3: 0"),
        ("=2", CY, "4½", "1: 1 · 2: 1½ · 3: 2"),
        ("4", DEE, "3", "1: 0 · 2: 0 · 3: 3"),
    ]
    assert table.ties == ("=2: Ann Smith and Cy Young are tied on 4½ points; ties share a place.",)
    assert table.rule_words.startswith("Sum of each evening's placement points")
    assert not table.provisional


def test_the_best_two_of_three_evenings_count_and_the_others_are_in_brackets(db):
    table, rows = shown(db, worked_season(db, BEST, 2))
    assert rows == [
        ("1", BOB, "5", "1: 2 · 2: 3 · 3: (1)"),
        ("2", ANN, "4½", "1: 3 · 2: 1½ · 3: (0)"),
        ("3", CY, "3½", "1: (1) · 2: 1½ · 3: 2"),
        # Two evenings of 0: the earlier counts, so the choice is always the same.
        ("4", DEE, "3", "1: 0 · 2: (0) · 3: 3"),
    ]
    assert table.ties == ()
    assert table.rule_words.startswith("Best 2 of 3 evenings' placement points")


def test_a_ladder_by_rating_takes_each_rating_as_it_stood_after_the_seasons_last_table(db):
    season, _ = season_store.create_season(db, "Autumn", RATING, None, "a4", "test")
    for held_on, places in WORKED[:2]:
        season_store.add_event(db, season.id, evening(db, held_on, places).id, "test")
    evening(db, *WORKED[2])  # a later evening, not in the season: it moves the ratings, not this ladder
    ladder = ladder_of(db, season)
    ids = {ladder.members[m].name: m for m in ladder.members}
    # The season's two tables rated by themselves, in the order they finished.
    tables = [
        RatedTable(tuple((ids[name],) for name in (ANN, BOB, CY, DEE)), tuple(places[n] for n in (ANN, BOB, CY, DEE)))
        for _, places in WORKED[:2]
    ]
    expected = {member: rating.ordinal for member, rating in Ratings[int](MODEL).rate_all(tables).current().items()}
    assert {row.player: row.score for row in ladder.rows} == pytest.approx(expected)
    # Ann (1st, then =2nd) and Bob (2nd, then 1st) lead; Dee, last twice, is last.
    assert [ladder.members[row.player].name for row in ladder.rows][-1] == DEE
    assert {ladder.members[row.player].name for row in ladder.rows[:2]} == {ANN, BOB}
    table, rows = shown(db, season)
    assert table.rule_words == "Rating at the season's end (the cautious rating: mu − 3 sigma)"
    assert next(row for row in rows if row[1] == DEE)[3] == "1: 4th · 2: 4th"
    # The later evening changed everyone's current rating: the ladder did not follow it.
    from scorekeeper.storage.club_results import stored_ratings

    assert stored_ratings(db)[ids[DEE]][0].ordinal != pytest.approx(expected[ids[DEE]])


def test_a_season_that_ends_with_the_clubs_last_table_takes_the_ratings_as_they_stand(db):
    season = worked_season(db, RATING)
    ladder = ladder_of(db, season)
    from scorekeeper.storage.club_results import stored_ratings

    assert {row.player: row.score for row in ladder.rows} == {
        member: rating.ordinal for member, (rating, _) in stored_ratings(db).items()
    }


def test_a_stored_history_is_read_from_its_end():
    from scorekeeper.club.ratings import last_point_before, pack_history, unpack_history

    points = [(3, 25.0, 8.0), (7, 26.5, 7.25), (12, -1.5e-05, 6.0)]
    history = pack_history(points)
    assert unpack_history(history) == points  # exactly, floats and all
    assert last_point_before(history, set()) == (-1.5e-05, 6.0)
    assert last_point_before(history, {12}) == (26.5, 7.25)
    assert last_point_before(history, {7, 12}) == (25.0, 8.0)
    assert last_point_before(history, {3, 7, 12}) is None
    assert last_point_before(b"", {1}) is None


def test_a_player_never_rated_is_listed_last_without_a_place(db):
    season, _ = season_store.create_season(db, "Autumn", RATING, None, "a4", "test")
    event = evening(db, *WORKED[0], players=[*FOUR, ("Eve Late", "", "")])  # Eve sits the round out
    season_store.add_event(db, season.id, event.id, "test")
    table, rows = shown(db, season)
    assert rows[-1] == ("—", "Eve Late", "—", "1: —")
    assert "listed last" not in table.cells_note  # said by the page beside it
    assert table.rows_unranked()


def test_an_evening_without_a_place_shows_a_dash_and_earns_nothing(db):
    season, _ = season_store.create_season(db, "Winter", POINTS, None, "a4", "test")
    event = evening(db, *WORKED[0], players=[*FOUR, ("Eve Late", "", "")])
    season_store.add_event(db, season.id, event.id, "test")
    _, rows = shown(db, season)
    assert rows[0] == ("1", ANN, "3", "1: 3")
    assert rows[-1] == ("—", "Eve Late", "—", "1: —")


def test_an_evening_under_way_makes_the_ladder_provisional(db):
    season = worked_season(db)
    assert not ladder_of(db, season).provisional
    later = evening(db, "2026-01-26", {}, finish=False)  # seated, still playing
    season_store.add_event(db, season.id, later.id, "test")
    ladder = ladder_of(db, season)
    assert ladder.provisional
    assert [e.under_way for e in ladder.evenings] == [False, False, False, True]


def test_an_evening_not_begun_is_not_on_the_ladder_yet(db):
    season = worked_season(db)
    coming = new_event(db, [*FOUR, ("Fay New", "", "")], name="Next week", held_on="2026-01-26")
    season_store.add_event(db, season.id, coming.id, "test")
    ladder = ladder_of(db, season)
    assert not ladder.provisional and len(ladder.ranked) == 3
    assert "Fay New" not in {m.name for m in ladder.members.values()}


def test_a_deleted_events_results_still_count(db):
    season = worked_season(db)
    first = season_store.season_evenings(db, season.id)[0]
    db.conn.execute("UPDATE events SET deleted_at = '2026-02-01T00:00:00+00:00' WHERE id = ?", [first.event_id])
    _, rows = shown(db, season)
    assert rows[0] == ("1", BOB, "6", "1: 2 · 2: 3 · 3: 1")
    assert season_store.season_evenings(db, season.id)[0].deleted
    assert first.event_id not in [event_id for event_id, _, _ in season_store.events_to_add(db, season.id)]


def test_an_event_may_be_in_two_seasons_at_once(db):
    winter = worked_season(db)
    year, _ = season_store.create_season(db, "Year 2026", BEST, 1, "letter", "test")
    for found in season_store.season_evenings(db, winter.id):
        season_store.add_event(db, year.id, found.event_id, "test")
    table, rows = shown(db, year)
    # The best single evening: Ann's first, Bob's second and Dee's third are worth 3 each; Cy's best is 2.
    assert rows == [
        ("=1", ANN, "3", "1: 3 · 2: (1½) · 3: (0)"),
        ("=1", BOB, "3", "1: (2) · 2: 3 · 3: (1)"),
        ("=1", DEE, "3", "1: (0) · 2: (0) · 3: 3"),
        ("4", CY, "2", "1: (1) · 2: (1½) · 3: 2"),
    ]
    assert table.ties == ("=1: Ann Smith, Bob Stone and Dee Ray are tied on 3 points; ties share a place.",)
    assert [e.event_id for e in season_store.season_evenings(db, winter.id)] == [
        e.event_id for e in season_store.season_evenings(db, year.id)
    ]


@pytest.mark.parametrize(
    ("value", "written"), [(0, "0"), (0.5, "½"), (1, "1"), (41.5, "41½"), (3.0, "3"), (120.5, "120½")]
)
def test_half_points_are_written_with_a_half(value, written):
    assert halves(value) == written


# Making and changing seasons.


def test_a_season_is_made_once_however_often_its_form_is_sent(db):
    first, made = season_store.create_season(db, "Winter", POINTS, None, "a4", "test", key="k1")
    again, made_again = season_store.create_season(db, "Winter", POINTS, None, "a4", "test", key="k1")
    assert (made, made_again) == (True, False) and first == again
    assert len(season_store.list_seasons(db)) == 1
    assert [line.what for line in club_history(db)] == ["Season Winter made: ladder by placement points, A4 paper"]


def test_a_form_brought_back_and_sent_with_another_name_makes_another_season(db):
    season_store.create_season(db, "Winter", POINTS, None, "a4", "test", key="k1")
    other, made = season_store.create_season(db, "Summer", POINTS, None, "a4", "test", key="k1")
    assert made and [season.name for season in season_store.list_seasons(db)] == ["Summer", "Winter"]


@pytest.mark.parametrize(
    ("name", "rule", "best", "paper", "field", "words"),
    [
        ("", POINTS, None, "a4", "name", "1 to 60 characters"),
        ("x" * 61, POINTS, None, "a4", "name", "1 to 60 characters"),
        ("Win\tter", POINTS, None, "a4", "name", "control character"),
        ("Win\u200bter", POINTS, None, "a4", "name", "invisible character"),
        ("Winter", "elo", None, "a4", "rule", "ranks by one of"),
        ("Winter", BEST, None, "a4", "best", "1 or more"),
        ("Winter", BEST, 0, "a4", "best", "1 or more"),
        ("Winter", POINTS, None, "a3", "paper", "a4, letter"),
    ],
)
def test_a_season_is_refused_beside_the_field_at_fault(db, name, rule, best, paper, field, words):
    with pytest.raises(SeasonRefusal, match=words) as refused:
        season_store.create_season(db, name, rule, best, paper, "test")
    assert refused.value.field == field


def test_a_name_taken_in_any_case_is_refused(db):
    season_store.create_season(db, "Winter 2026", POINTS, None, "a4", "test")
    with pytest.raises(SeasonRefusal, match="There is a season named Winter 2026 already") as refused:
        season_store.create_season(db, "winter  2026", POINTS, None, "a4", "test")
    assert refused.value.field == "name"
    assert season_store.season_by_name(db, "WINTER 2026").name == "Winter 2026"


def test_adding_or_taking_out_an_event_twice_acts_once_and_goes_on_the_history(db):
    season, _ = season_store.create_season(db, "Winter", POINTS, None, "a4", "test")
    event = evening(db, *WORKED[0])
    assert season_store.add_event(db, season.id, event.id, "director") is True
    assert season_store.add_event(db, season.id, event.id, "director") is False
    assert season_store.take_out_event(db, season.id, event.id, "director") is True
    assert season_store.take_out_event(db, season.id, event.id, "director") is False
    assert [line.what for line in club_history(db)][:2] == [
        "Season Winter: Club night 2026-01-05 (2026-01-05) taken out",
        "Season Winter: Club night 2026-01-05 (2026-01-05) added",
    ]


def test_changing_the_rule_goes_on_the_history_and_nothing_changed_says_so(db):
    season, _ = season_store.create_season(db, "Winter", POINTS, None, "a4", "test")
    assert season_store.edit_season(db, season.id, "Winter", BEST, 8, "letter", "director") is True
    assert season_store.edit_season(db, season.id, "Winter", BEST, 8, "letter", "director") is False
    assert club_history(db)[0].what == "Season Winter: ladder by best 8 evenings; LETTER paper"
    assert season_store.get_season(db, season.id).best == 8


# The web: the director's pages, the public page, the wall screen, the PDF and the CSVs.


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


@pytest.fixture
def web_db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.conn.close()


def token_of(client, path, name="csrf_token"):
    page = client.get(path).get_data(as_text=True)
    return re.search(rf'name="{name}"[^>]*value="([^"]+)"', page)[1]


def new_season_form(client, **fields):
    data = {
        "csrf_token": csrf_token(client, "/director/seasons/"),
        "idem": token_of(client, "/director/seasons/", "idem"),
    }
    data.update({"name": "Winter 2026", "rule": "points", "best": "", "paper": "a4"})
    data.update(fields)
    return data


def web_season(director, web_db, **fields):
    """The worked season made through the director's pages; its page's address."""
    response = director.post("/director/seasons/", data=new_season_form(director, **fields))
    assert response.status_code == 302
    address = response.headers["Location"]
    for held_on, places in WORKED:
        event = evening(web_db, held_on, places)
        token = token_of(director, address, "add-csrf_token")
        added = director.post(address + "/events", data={"add-csrf_token": token, "add-event": str(event.id)})
        assert added.status_code == 302
    return address


def text(response):
    """What a reader sees of the page: its words, tags gone, white space squeezed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def test_director_pages_need_a_login(client):
    set_up_director(client)
    other = client.application.test_client()
    for path in (
        "/director/seasons/",
        "/director/seasons/1",
        "/director/seasons/1/ladder.pdf",
        "/director/seasons/1/ladder.csv",
        "/director/players/ratings.csv",
    ):
        response = other.get(path)
        assert response.status_code == 302 and "/director/login" in response.headers["Location"], path
    refused = other.post("/director/seasons/", data={"name": "Sneaky"})
    assert refused.status_code in (302, 400)


def test_the_directors_ladder_shows_places_ties_and_the_rule(director, web_db):
    address = web_season(director, web_db)
    page = text(director.get(address))
    assert "Sum of each evening's placement points" in page
    assert "=2 Ann Smith 1: 3 · 2: 1½ · 3: 0 4½" in page
    assert "=2: Ann Smith and Cy Young are tied on 4½ points; ties share a place." in page
    assert "Provisional" not in page
    assert "Seasons" in text(director.get("/director/"))  # the director's nav


def test_a_double_click_on_new_season_makes_one(director, web_db):
    form = new_season_form(director)
    first, second = director.post("/director/seasons/", data=form), director.post("/director/seasons/", data=form)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert [season.name for season in season_store.list_seasons(web_db)] == ["Winter 2026"]
    assert sum("Winter 2026 made" in line.what for line in club_history(web_db)) == 1


def test_a_name_taken_is_refused_beside_the_field_keeping_what_was_typed(director):
    director.post("/director/seasons/", data=new_season_form(director))
    response = director.post(
        "/director/seasons/", data=new_season_form(director, name="winter 2026", rule="best", best="3")
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    name_field = page[page.index('<label for="name">') : page.index('<label for="rule">')]
    assert 'value="winter 2026"' in name_field and "There is a season named Winter 2026 already" in name_field
    assert '<option selected value="best">' in page and 'value="3"' in page


@pytest.mark.parametrize("best", ["", "0", "two", "-1", "9999"])
def test_a_bad_best_n_is_refused_beside_its_field_keeping_what_was_typed(director, best):
    response = director.post(
        "/director/seasons/", data=new_season_form(director, name="Spring", rule="best", best=best)
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    best_field = page[page.index('<label for="best">') : page.index('<label for="paper">')]
    assert "How many evenings count: a whole number from 1 to" in best_field
    assert f'value="{best}"' in best_field and 'value="Spring"' in page
    assert "No seasons yet" in text(director.get("/director/seasons/"))


def test_adding_an_event_twice_adds_it_once_and_taking_it_out_twice_once(director, web_db):
    address = web_season(director, web_db)
    event = evening(web_db, "2026-01-26", WORKED[0][1])
    form = {"add-csrf_token": token_of(director, address, "add-csrf_token"), "add-event": str(event.id)}
    assert director.post(address + "/events", data=form).status_code == 302
    assert director.post(address + "/events", data=form).status_code == 302
    assert "That event is in the season already" in text(director.get(address))
    season_id = int(address.rsplit("/", 1)[1])
    rows = web_db.execute("SELECT COUNT(*) FROM season_events WHERE season_id = ?", [season_id]).fetchone()
    assert rows[0] == 4
    take_out = f"{address}/events/{event.id}/take-out"
    token = {"csrf_token": csrf_token(director, address)}
    assert director.post(take_out, data=token).status_code == 302
    assert director.post(take_out, data=token).status_code == 302
    assert "taken out already" in text(director.get(address))
    lines = [line.what for line in club_history(web_db)]
    assert sum("2026-01-26 (2026-01-26) added" in line for line in lines) == 1
    assert sum("2026-01-26 (2026-01-26) taken out" in line for line in lines) == 1


def test_the_public_ladder_shows_initials_where_asked_and_no_number_or_token(director, web_db):
    address = web_season(director, web_db)
    season = season_store.list_seasons(web_db)[0]
    ann = next(m for m in season_store.season_ladder(web_db, season).members.values() if m.name == ANN)
    edit_member(web_db, ann.id, ANN, "North", "101", True, "director")
    public = director.application.test_client()  # no login
    page = public.get(f"/club/seasons/{season.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "A. S." in html and ANN not in html
    assert "101" not in html and "North" not in html
    assert season.wall_token not in html and "/s/" not in html
    assert f'href="/club/players/{ann.id}"' in html
    assert "=2: A. S. and Cy Young are tied on 4½ points" in text(page)
    assert "Winter 2026" in text(public.get("/club/"))  # the seasons are listed with the ratings
    assert season.wall_token in director.get(address).get_data(as_text=True)  # the director has the wall's link


def test_the_wall_screen_follows_the_ladder_as_a_table_finishes(director, web_db):
    web_season(director, web_db)
    season = season_store.list_seasons(web_db)[0]
    wall = director.application.test_client()  # a TV, no login
    page = wall.get(f"/s/{season.wall_token}/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'data-version-url="/s/{season.wall_token}/version"' in html and 'class="wall season-wall"' in html
    assert "=2: Ann Smith and Cy Young are tied" in text(page)
    before = wall.get(f"/s/{season.wall_token}/version")
    assert before.status_code == 200 and before.headers["Cache-Control"] == "no-cache"
    version = before.get_json()["version"]
    assert f'data-version="{version}"' in html
    assert (
        wall.get(f"/s/{season.wall_token}/version", headers={"If-None-Match": before.headers["ETag"]}).status_code
        == 304
    )
    # A fourth evening joins and its table finishes: the version moves, and the ladder with it.
    later = evening(web_db, "2026-01-26", {}, finish=False)
    season_store.add_event(web_db, season.id, later.id, "director")
    under_way = wall.get(f"/s/{season.wall_token}/version").get_json()["version"]
    assert under_way != version
    assert "Provisional" in text(wall.get(f"/s/{season.wall_token}/"))
    table = [t for t in __import__("scorekeeper.storage.events", fromlist=["x"]).event_tables(web_db, later.id)][0]
    play(web_db, table, {ANN: 1, BOB: 2, CY: 3, DEE: 4}, at="2026-01-26T21:00:00+00:00")
    finished = wall.get(f"/s/{season.wall_token}/version", headers={"If-None-Match": str(under_way)})
    assert finished.status_code == 200 and finished.get_json()["version"] != under_way
    page = text(wall.get(f"/s/{season.wall_token}/"))
    assert "Provisional" not in page
    assert "1 Bob Stone 1: 2 · 2: 3 · 3: 1 · 4: 2 8 2 Ann Smith 1: 3 · 2: 1½ · 3: 0 · 4: 3 7½" in page
    assert wall.get("/s/not-a-token/").status_code == 404
    assert wall.get("/s/not-a-token/version").status_code == 404


def test_the_ladder_prints_on_the_seasons_paper_with_its_ties_and_rule(director, web_db, tmp_path):
    address = web_season(director, web_db, paper="letter")
    later = evening(web_db, "2026-01-26", {}, finish=False)
    season_store.add_event(web_db, season_store.list_seasons(web_db)[0].id, later.id, "director")
    response = director.get(address + "/ladder.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    printed = pages(response.data, tmp_path)
    assert len(printed) == 1
    page = printed[0]
    assert (round(page.width), round(page.height)) == (612, 792)  # Letter, portrait
    assert page.reads("Winter 2026 · ladder (provisional)")
    assert page.reads("placement points (1 for every player placed below you")
    assert page.reads("=2: Ann Smith and Cy Young are tied on 4½ points; ties share a place.")
    assert page.reads("=2") and page.reads("4½") and page.reads("1: 3 · 2: 1½ · 3: 0")
    assert re.search(r"printed \d{4}-\d\d-\d\d \d\d:\d\d", page.text())
    assert not page.overflowing()
    (tmp_path / "ladder.pdf").write_bytes(response.data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(tmp_path / "ladder.pdf"), str(tmp_path / "ladder")],
        check=True,
    )
    assert (tmp_path / "ladder.png").stat().st_size > 1000


def test_a_long_ladder_never_splits_a_row_across_pages(db, tmp_path):
    from scorekeeper.reports.pdf import render_pdf
    from scorekeeper.reports.sheets import season_ladder_html

    season, _ = season_store.create_season(db, "Big", BEST, 3, "a4", "test")
    names = [f"Player {number:03d}" for number in range(96)]
    for week in range(4):
        event = new_event(db, names, name=f"Week {week + 1}", held_on=f"2026-02-{week * 7 + 2:02d}")
        tables = seat(db, event, [names[start : start + 4] for start in range(0, 96, 4)])
        for index, table in enumerate(tables):
            seats = table.game.game.players
            play(db, table, {name: (position + week + index) % 4 + 1 for position, name in enumerate(seats)})
        season_store.add_event(db, season.id, event.id, "test")
    ladder = ladder_of(db, season)
    names_by_id = {m: ladder.members[m].name for m in ladder.members}
    table = ladder_table(ladder.rows, ladder.ranked, names_by_id, BEST, ladder.rule_words, False)
    printed = pages(render_pdf(season_ladder_html("Big", table, "a4", printed_at="2026-03-01 20:00")), tmp_path)
    assert len(printed) > 1
    for page in printed:
        assert not page.overflowing()
    # Each player's name and their line of evenings under it are on one page, once.
    for line in table.lines:
        row = line.name + " " + line.evenings_text
        assert sum(page.times_read(row) for page in printed) == 1, line.name


def read_csv(response):
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_the_ladder_csv_has_places_ties_numbers_and_a_column_per_evening(director, web_db):
    address = web_season(director, web_db, rule="best", best="2")
    rows = read_csv(director.get(address + "/ladder.csv"))
    assert rows[0] == [
        "place",
        "tied",
        "name",
        "number",
        "points",
        "evenings",
        "counted",
        "2026-01-05 Club night 2026-01-05",
        "2026-01-12 Club night 2026-01-12",
        "2026-01-19 Club night 2026-01-19",
    ]
    assert rows[1:] == [
        ["1", "", BOB, "102", "5", "3", "2", "2", "3", "(1)"],
        ["2", "", ANN, "101", "4.5", "3", "2", "3", "1.5", "(0)"],
        ["3", "", CY, "103", "3.5", "3", "2", "(1)", "1.5", "2"],
        ["4", "", DEE, "104", "3", "3", "2", "0", "(0)", "3"],
    ]
    season = season_store.list_seasons(web_db)[0]
    public = read_csv(director.application.test_client().get(f"/club/seasons/{season.id}/ladder.csv"))
    assert "number" not in public[0] and not any("101" in row for row in public)


def test_tied_rows_say_so_in_the_csv_and_a_name_cannot_become_a_formula(db):
    """No way in takes a name beginning like a formula any more; a database from before may hold one."""
    season, _ = season_store.create_season(db, "Winter", POINTS, None, "a4", "test")
    event = new_event(db, ["Hy Perlink", BOB, CY, DEE])
    stored_before_the_rule(db, event, {"Hy Perlink": ('=HYPERLINK("x")', "", "")})
    table = seat(db, event, [['=HYPERLINK("x")', BOB, CY, DEE]])[0]
    play(db, table, {'=HYPERLINK("x")': 1, BOB: 1, CY: 3, DEE: 4})
    season_store.add_event(db, season.id, event.id, "test")
    ladder = ladder_of(db, season)
    names = {m: ladder.members[m].name for m in ladder.members}
    from scorekeeper.reports.csv_text import csv_text

    written = list(
        csv.reader(
            io.StringIO(
                csv_text(ladder_rows(ladder_table(ladder.rows, ladder.ranked, names, POINTS, ladder.rule_words, False)))
            )
        )
    )
    # Tied rows by name, as a reader looks one up ("=" before letters).
    assert written[1][:3] == ["1", "yes", '\'=HYPERLINK("x")'] and written[2][:3] == ["1", "yes", BOB]


def test_the_ratings_csvs_director_with_numbers_public_without(director, web_db):
    web_season(director, web_db)
    rows = read_csv(director.get("/director/players/ratings.csv"))
    assert rows[0] == ["place", "name", "number", "ordinal", "mu", "sigma", "tables"]
    assert len(rows) == 5 and {row[2] for row in rows[1:]} == {"101", "102", "103", "104"}
    assert all(int(row[6]) == 3 for row in rows[1:])
    public = read_csv(director.application.test_client().get("/club/ratings.csv"))
    assert public[0] == ["place", "name", "ordinal", "mu", "sigma", "tables"]
    assert [row[1] for row in public[1:]] == [row[1] for row in rows[1:]]


def test_the_ladder_command_prints_a_season_by_its_name_in_any_case(tmp_path):
    import os
    import sys
    from pathlib import Path

    folder = tmp_path / "instance"
    folder.mkdir()
    db = club_db(folder)
    try:
        worked_season(db)
    finally:
        db.conn.close()
    os.rename(folder / "club.db", folder / "scorekeeper.db")
    script = Path(sys.executable).parent / "scorekeeper"
    # The checkout's code, whichever checkout the console script was installed from.
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(folder), "PYTHONPATH": str(Path(__file__).parents[2])}
    shown = subprocess.run([script, "ladder", "winter  2026"], capture_output=True, text=True, env=env, timeout=60)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("Winter 2026: Sum of each evening's placement points")
    assert lines[1].split() == ["1", "Bob", "Stone", "6", "1:", "2", "·", "2:", "3", "·", "3:", "1"]
    assert lines[2].split()[:4] == ["=2", "Ann", "Smith", "4½"]
    assert "=2: Ann Smith and Cy Young are tied on 4½ points; ties share a place." in lines
    written = subprocess.run(
        [script, "ladder", "WINTER 2026", "--csv"], capture_output=True, text=True, env=env, timeout=60
    )
    assert list(csv.reader(io.StringIO(written.stdout)))[2][:5] == ["2", "yes", ANN, "101", "4.5"]
    missing = subprocess.run([script, "ladder", "Summer"], capture_output=True, text=True, env=env, timeout=60)
    assert missing.returncode != 0 and "there is no season named Summer (seasons: Winter 2026)" in missing.stderr


def test_a_ladder_made_once_is_made_again_when_a_member_or_a_table_moves(db):
    """A ladder is kept while what it is made of stands (a wall screen polls it): a member who asks
    for initials, or another evening played, is on it at the next look."""
    from scorekeeper.web.club_pages import ladder_shown

    season = worked_season(db, POINTS, name="Autumn")
    first = ladder_shown(ladder_of(db, season), public=True)
    assert ladder_shown(ladder_of(db, season), public=True) is first  # nothing moved: the same one
    ann = next(m for m in ladder_of(db, season).members.values() if m.name == ANN)
    edit_member(db, ann.id, ann.name, ann.club, ann.number or "", True, "test")
    again = ladder_shown(ladder_of(db, season), public=True)
    assert again is not first and "A. S." in {line.name for line in again.lines}
    later = evening(db, "2026-01-26", {ANN: 1, BOB: 2, CY: 3, DEE: 4})
    season_store.add_event(db, season.id, later.id, "test")
    assert len(ladder_shown(ladder_of(db, season), public=True).evenings) == 4
