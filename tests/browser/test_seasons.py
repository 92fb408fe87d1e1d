"""A season's ladder in a browser: on a phone (360 px) without sideways scrolling, and on the wall
screen (a 1920 x 1080 TV), which follows by itself when a table of the season finishes."""

from pathlib import Path

from playwright.sync_api import expect

from scorekeeper.storage import seasons as season_store
from scorekeeper.storage.database import DATABASE_FILE, connect
from scorekeeper.storage.events import event_tables
from tests.browser.conftest import as_director, assert_fits, running_server
from tests.support.club import new_event, play, seat

NARROW = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TV = {"viewport": {"width": 1920, "height": 1080}, "is_mobile": False, "has_touch": False, "device_scale_factor": 1}
PLAYERS = ["Annabel Fitzgerald-Montgomery", "Bob Stone", "Cy Young", "Dee Ray"]


def evening(db, held_on, places=None):
    event = new_event(db, PLAYERS, name=f"Thursday club night {held_on}", held_on=held_on)
    table = seat(db, event, [PLAYERS])[0]
    if places:
        play(db, table, places, at=f"{held_on}T21:00:00+00:00")
    return event


def test_the_ladder_fits_a_phone_and_the_wall_screen_follows_a_table_finishing(tmp_path: Path, phone, shot):
    with running_server(tmp_path) as server:
        db = connect(str(tmp_path / DATABASE_FILE))
        season, _ = season_store.create_season(db, "Winter 2026", "best", 2, "a4", "test")
        ann, bob, cy, dee = PLAYERS
        for held_on, places in [
            ("2026-01-05", {ann: 1, bob: 2, cy: 3, dee: 4}),
            ("2026-01-12", {bob: 1, ann: 2, cy: 2, dee: 4}),
            ("2026-01-19", {dee: 1, cy: 2, bob: 3, ann: 4}),
        ]:
            season_store.add_event(db, season.id, evening(db, held_on, places).id, "test")
        later = evening(db, "2026-01-26")  # under way
        season_store.add_event(db, season.id, later.id, "test")

        public = phone(**NARROW)
        public.goto(f"{server}/club/seasons/{season.id}")
        expect(public.locator(".ladder-grid tbody tr")).to_have_count(4)
        expect(public.locator(".provisional")).to_contain_text("Provisional")
        expect(public.locator(".ladder-grid tbody tr >> nth=1")).to_contain_text("(0)")
        assert_fits(public, "public ladder")
        shot(public, "season-ladder-phone")

        director = phone(**NARROW)
        as_director(director, server, "/director/")
        director.goto(f"{server}/director/seasons/{season.id}")
        expect(director.locator("h1")).to_have_text("Winter 2026")
        assert_fits(director, "director's season")
        shot(director, "season-director-phone")

        wall = phone(**TV)
        wall.goto(f"{server}/s/{season.wall_token}/")
        expect(wall.locator(".ladder-grid tbody tr")).to_have_count(4)
        expect(wall.locator(".ladder-grid tbody tr >> nth=0")).to_contain_text("Bob Stone")
        assert not wall.locator(".ladder-evenings >> nth=0").is_visible()  # one line a player at a TV's width
        shot(wall, "season-wall-before")

        # The evening's table finishes on the phones: the wall screen follows without anyone touching it.
        play(db, event_tables(db, later.id)[0], {dee: 1, cy: 2, bob: 3, ann: 4}, at="2026-01-26T21:00:00+00:00")
        expect(wall.locator(".provisional")).to_have_count(0, timeout=15_000)
        expect(wall.locator(".ladder-grid tbody tr >> nth=0")).to_contain_text("Dee Ray")
        shot(wall, "season-wall-after")
        db.conn.close()
