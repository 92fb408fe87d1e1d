"""Tournament mode through the web: the director, events, rounds, locks, standings, exports."""

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorekeeper.scoring import RULE_SETS  # noqa: F401 - the registry is what events choose from
from tests.support.web import Table, create_director, csrf_token, phone_at, start

PASSWORD = "correct horse battery"
OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}


def set_up_director(client, password=PASSWORD):
    token = csrf_token(client, "/director/setup")
    return client.post("/director/setup", data={"csrf_token": token, "password": password, "confirm": password})


def log_in(client, password=PASSWORD):
    token = csrf_token(client, "/director/login")
    return client.post("/director/login", data={"csrf_token": token, "password": password})


def event_form(client, players, **fields):
    """The new-event form as the director fills it in, with its CSRF token."""
    return {
        "csrf_token": csrf_token(client, "/director/events/new"),
        "name": "Club night",
        "held_on": "2026-11-22",
        "rules": "crates",
        "option_decks": "1",
        "scoring": "total",
        "partnerships": "none",
        "players": "\n".join(players),
        **fields,
    }


def new_event(client, players, **fields):
    data = event_form(client, players, **fields)
    response = client.post("/director/events/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"]


def planned_page(client, event_url):
    """The event page once its plan is made (made in the background, once per change)."""
    for _ in range(300):
        page = client.get(event_url).get_data(as_text=True)
        if "Planning the rounds" not in page:
            return page
        time.sleep(0.05)
    raise AssertionError("the plan took more than 15 s")


def seating_form(client, event_url):
    """The seating form as the event page fills it in: the proposed tables and the round they seat."""
    page = planned_page(client, event_url)
    proposal = re.search(r'<textarea[^>]*name="tables"[^>]*>\s*(.*?)</textarea>', page, re.S).group(1)
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    token = csrf_token(client, event_url)
    # The director seats the next round even while the one before is still playing (asked first: tested apart).
    return {"csrf_token": token, "number": number, "tables": proposal.replace("&#39;", "'"), "anyway": "y"}


def seat_next_round(client, event_url):
    form = seating_form(client, event_url)
    response = client.post(event_url + "/rounds", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    return [line.split(", ") for line in form["tables"].strip().splitlines()]


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


PLAYERS = [f"Player {i:02d}" for i in range(20)]


def test_director_pages_need_a_login(client):
    set_up_director(client)
    other = client.application.test_client()
    for path in (
        "/director/",
        "/director/events/new",
        "/director/events/1",
        "/director/events/1/standings",
        "/director/events/1/export.json",
        "/director/events/1/booklet/abc",
        "/director/events/1/table-cards.pdf",
        "/director/events/1/round-sheet.pdf",
    ):
        response = other.get(path)
        assert response.status_code == 302 and "/director/login" in response.headers["Location"], path


def test_first_run_asks_for_the_password_once(client):
    assert client.get("/director/login").headers["Location"].endswith("/director/setup")
    assert set_up_director(client).status_code == 302
    other = client.application.test_client()
    assert other.get("/director/setup").headers["Location"].endswith("/director/login")
    token = csrf_token(other, "/director/login")
    hijack = other.post("/director/setup", data={"csrf_token": token, "password": "x" * 12, "confirm": "x" * 12})
    assert hijack.headers["Location"].endswith("/director/login")
    assert log_in(other).status_code == 302  # the first password still holds


def test_a_short_or_mismatched_password_is_refused(client):
    token = csrf_token(client, "/director/setup")
    response = client.post("/director/setup", data={"csrf_token": token, "password": "short", "confirm": "short"})
    assert response.status_code == 200 and "at least 10" in response.get_data(as_text=True)


def test_login_attempts_are_rate_limited(client):
    set_up_director(client)
    other = client.application.test_client()
    for _ in range(5):
        assert log_in(other, "wrong password!").status_code == 401
    response = log_in(other)  # even the right password, until the window passes
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.get_data(as_text=True)


def test_the_session_cookie_is_httponly_and_samesite(client):
    response = set_up_director(client)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_logout_needs_the_csrf_token_and_ends_the_session(director):
    assert director.post("/director/logout").status_code == 400
    token = csrf_token(director, "/director/")
    director.post("/director/logout", data={"csrf_token": token})
    assert director.get("/director/").status_code == 302


def test_a_refused_event_keeps_what_was_typed(director):
    data = event_form(director, ["Ann, Boston BC, 123", "ann"])
    response = director.post("/director/events/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "ann is listed twice" in page and "Boston BC" in page


@pytest.mark.parametrize(
    "players, words",
    [
        (["Ann", "B\tob, Boston BC", "Cy"], "Line 2: the name cannot hold a control character (a tab)."),
        (["Ann", "Bob", "C\0y"], "Line 3: the name cannot hold a control character (a NUL)."),
    ],
)
def test_an_event_player_named_with_a_control_character_is_refused_by_line(director, players, words):
    response = director.post("/director/events/new", data=event_form(director, players))
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and words in page


def test_a_hand_seated_round_is_checked(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"])
    token = csrf_token(director, event_url)
    for tables, error in [
        ("Ann, Bob, Zed", "Zed is not a player"),
        ("Ann, Bob\nAnn, Cy", "Ann is seated twice"),
        ("Ann", "2 to 5 players"),
    ]:
        response = director.post(event_url + "/rounds", data={"csrf_token": token, "number": 1, "tables": tables})
        assert response.status_code == 422 and error in response.get_data(as_text=True), tables
    response = director.post(
        event_url + "/rounds", data={"csrf_token": token, "number": 1, "tables": "Ann, Bob\nCy, Di"}
    )
    assert response.status_code == 302
    assert "Round 1 seated: 2 tables." in director.get(event_url).get_data(as_text=True)


def test_a_round_seated_without_some_players_names_them(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di", "Ed", "Abe"])
    token = csrf_token(director, event_url)
    response = director.post(
        event_url + "/rounds", data={"csrf_token": token, "number": 1, "tables": "Ann, Bob\nCy, Di"}
    )
    assert response.status_code == 302
    assert "Round 1 seated: 2 tables. Not seated: Abe, Ed." in director.get(event_url).get_data(as_text=True)


def record_links(client, event_url):
    return re.findall(r'href="/t/([\w-]+)/"', client.get(event_url).get_data(as_text=True))


def test_a_round_submitted_twice_is_seated_once(director):
    event_url = new_event(director, PLAYERS[:8])
    form = seating_form(director, event_url)
    first = director.post(event_url + "/rounds", data=form)
    again = director.post(event_url + "/rounds", data=form)  # a double click: the same form, the same tables
    assert first.status_code == again.status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    assert "Round 1 is seated already: 2 tables." in page and "Seat round 2" in page
    assert len(record_links(director, event_url)) == 2

    other_tables = "\n".join(reversed(form["tables"].strip().splitlines()))
    response = director.post(event_url + "/rounds", data={**form, "tables": other_tables})
    assert response.status_code == 409
    assert "Round 1 is seated already, with other tables: the next round is 2." in response.get_data(as_text=True)
    ahead = {**seating_form(director, event_url), "number": "3"}
    response = director.post(event_url + "/rounds", data=ahead)
    assert response.status_code == 409 and "the next round is 2" in response.get_data(as_text=True)
    response = director.post(event_url + "/rounds", data={**ahead, "number": ""})
    assert response.status_code == 422 and "This page is out of date" in response.get_data(as_text=True)
    assert len(record_links(director, event_url)) == 2


def test_two_submissions_at_once_seat_one_round(director):
    event_url = new_event(director, PLAYERS[:8])
    other = director.application.test_client()
    log_in(other)
    clients = [director, other]
    forms = [seating_form(client, event_url) for client in clients]
    assert forms[0]["tables"] == forms[1]["tables"]
    start = threading.Barrier(len(clients))
    statuses = []

    def submit(client, form):
        start.wait()
        statuses.append(client.post(event_url + "/rounds", data=form).status_code)

    threads = [threading.Thread(target=submit, args=pair) for pair in zip(clients, forms, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [302, 302]
    assert len(record_links(director, event_url)) == 2


def test_a_locked_game_takes_changes_from_the_director_only(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    player = director.application.test_client()
    table = Table(player, token)
    lock_token = csrf_token(director, event_url)
    asked = director.post(f"{event_url}/games/{token}/lock", data={"csrf_token": lock_token})
    assert asked.status_code == 409 and "Lock it as it stands" in asked.get_data(as_text=True), "not finished: asked"
    assert "Unlock" not in director.get(event_url).get_data(as_text=True)
    director.post(f"{event_url}/games/{token}/lock", data={"csrf_token": lock_token, "anyway": "y"})
    assert "Unlock" in director.get(event_url).get_data(as_text=True)
    response = table.post("/pressure", hand=1, player="Ann")
    assert "locked" in player.get(f"/t/{token}/").get_data(as_text=True)
    assert response.status_code == 302
    as_director = Table(director, token)
    as_director.pressure("Ann", 1)
    history = director.get(f"/t/{token}/history").get_data(as_text=True)
    assert history.count("Hand 1 · pressure") == 1 and "director" in history


def test_lock_needs_the_director_and_csrf(director, client):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    assert director.post(f"{event_url}/games/{token}/lock").status_code == 400
    stranger = client.application.test_client()
    response = stranger.post(f"{event_url}/games/{token}/lock", data={})
    assert response.status_code in (302, 400)
    assert "Unlock" not in director.get(event_url).get_data(as_text=True)


def withdraw_buttons(page):
    return re.findall(r"<button[^>]*>Withdraw round (\d+)</button>", page)


def test_only_the_latest_round_can_be_withdrawn_and_only_before_any_play(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(director, event_url)
    seat_next_round(director, event_url)
    first, second = record_links(director, event_url)
    assert withdraw_buttons(director.get(event_url).get_data(as_text=True)) == ["2"]
    csrf = csrf_token(director, event_url)
    response = director.post(f"{event_url}/rounds/1/withdraw", data={"csrf_token": csrf})
    assert response.status_code == 409
    assert "Only the latest round (2) can be withdrawn." in response.get_data(as_text=True)

    for _ in range(2):  # a double click withdraws round 2, not round 1 after it
        assert director.post(f"{event_url}/rounds/2/withdraw", data={"csrf_token": csrf}).status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    assert "Round 2 is not seated: nothing to withdraw." in page and "Seat round 2" in page
    assert record_links(director, event_url) == [first]
    assert len(director.get(event_url + "/export.json").get_json()["tables"]) == 1

    # The withdrawn table's link, on a table card printed already, takes no more changes.
    late = Table(director.application.test_client(), second)
    late.pressure("Ann", 1)
    assert "locked" in late.page("/") and "Hand 1 · pressure" not in late.page("/history")

    # Round 1 is the latest now; once anything is recorded at it, it stays.
    Table(director.application.test_client(), first).post("/note", hand=1, text="Seats swapped")
    assert withdraw_buttons(director.get(event_url).get_data(as_text=True)) == []
    response = director.post(f"{event_url}/rounds/1/withdraw", data={"csrf_token": csrf})
    assert response.status_code == 409
    assert "Round 1 cannot be withdrawn: play is recorded at table 1." in response.get_data(as_text=True)
    assert record_links(director, event_url) == [first]
    seat_next_round(director, event_url)
    assert len(record_links(director, event_url)) == 2


def lock_buttons(page):
    """The lock button each table's row offers: the one action that applies to it now."""
    return re.findall(
        r'action="[^"]*/games/[\w-]+/(lock|unlock)(?:#[\w-]+)?"[^>]*>\s*<input[^>]*>\s*<button[^>]*>(\w+)<', page
    )


def test_locking_a_table_still_playing_asks_first_and_a_finished_one_does_not(director):
    from tests.support.web import Table as Phone

    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    seat_next_round(director, event_url)
    playing, done = record_links(director, event_url)
    csrf = csrf_token(director, event_url)
    table = Phone(director.application.test_client(), playing)
    table.leftovers(1, 0, went_out=True)
    for seat in (1, 2, 3):
        table.leftovers(1, seat, "K")
    asked = director.post(f"{event_url}/games/{playing}/lock", data={"csrf_token": csrf})
    page = asked.get_data(as_text=True)
    assert asked.status_code == 409
    assert "table 1 has not finished: 1 hand complete" in page and "Prorated (the default)" in page
    assert lock_buttons(director.get(event_url).get_data(as_text=True))[0] == ("lock", "Lock"), "nothing locked yet"
    finished = Phone(director.application.test_client(), done)
    for hand in range(1, 16):
        finished.leftovers(hand, 0, went_out=True)
        for seat in (1, 2, 3):
            finished.leftovers(hand, seat, "K")
    assert director.post(f"{event_url}/games/{done}/lock", data={"csrf_token": csrf}).status_code == 302
    assert (
        director.post(f"{event_url}/games/{playing}/lock", data={"csrf_token": csrf, "anyway": "y"}).status_code == 302
    )
    assert lock_buttons(director.get(event_url).get_data(as_text=True)) == [("unlock", "Unlock")] * 2


def test_lock_and_unlock_are_two_actions_and_a_double_click_does_it_once(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    player = Table(director.application.test_client(), token)
    assert lock_buttons(director.get(event_url).get_data(as_text=True)) == [("lock", "Lock")]
    csrf = csrf_token(director, event_url)

    def press_twice(action: str) -> str:
        for _ in range(2):
            response = director.post(f"{event_url}/games/{token}/{action}", data={"csrf_token": csrf, "anyway": "y"})
            assert response.status_code == 302
        player.pressure("Ann", 1)
        return director.get(event_url).get_data(as_text=True)

    page = press_twice("lock")
    assert lock_buttons(page) == [("unlock", "Unlock")] and "table 1 was already locked" in page
    assert "Hand 1 · pressure" not in player.page("/history")
    page = press_twice("unlock")
    assert lock_buttons(page) == [("lock", "Lock")] and "table 1 was already unlocked" in page
    assert "Hand 1 · pressure" in player.page("/history")


def progress_shown(client, event_url) -> list[str]:
    """Each table's Progress on the director's event page."""
    return re.findall(r'class="progress">([^<]+)</td>', client.get(event_url).get_data(as_text=True))


def test_a_locked_table_says_so_and_after_which_hand_it_stands(director):
    """Seen on a first evening: a locked table read "hand 5 of 15" like one still playing; only its
    Unlock button told. Its progress says it is locked, and after which hand its result stands."""
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    table = Table(director.application.test_client(), token)
    csrf = csrf_token(director, event_url)

    def set_lock(action: str) -> list[str]:
        sent = {"csrf_token": csrf, "anyway": "y"}  # a table still playing: the question answered
        assert director.post(f"{event_url}/games/{token}/{action}", data=sent).status_code == 302
        return progress_shown(director, event_url)

    def play(first: int, last: int) -> None:
        for hand in range(first, last + 1):
            table.leftovers(hand, 0, went_out=True)
            table.leftovers(hand, 1, "K")

    assert progress_shown(director, event_url) == ["hand 1 of 15"]
    assert set_lock("lock") == ["locked before hand 1: counted as missed"]
    assert set_lock("unlock") == ["hand 1 of 15"]
    play(1, 2)
    assert progress_shown(director, event_url) == ["hand 3 of 15"]
    assert set_lock("lock") == ["locked after hand 2 of 15, prorated"]
    assert set_lock("unlock") == ["hand 3 of 15"]
    play(3, 15)
    assert progress_shown(director, event_url) == ["finished"]
    assert set_lock("lock") == ["finished, locked"]


def test_an_event_locks_only_the_games_at_its_own_tables(director):
    """Another event's game, a withdrawn round's, or a game of its own are not this event's to lock."""
    event_url = new_event(director, ["Ann", "Bob"])
    other_url = new_event(director, ["Cy", "Di"])
    seat_next_round(director, event_url)
    seat_next_round(director, other_url)
    seat_next_round(director, event_url)
    first, second = record_links(director, event_url)
    csrf = csrf_token(director, event_url)
    assert director.post(f"{event_url}/rounds/2/withdraw", data={"csrf_token": csrf}).status_code == 302
    elsewhere = record_links(director, other_url)[0]
    own_game = start(director.application.test_client(), ["Ed", "Flo"]).token
    for token in (elsewhere, second, own_game):
        assert director.post(f"{event_url}/games/{token}/lock", data={"csrf_token": csrf}).status_code == 404
    assert lock_buttons(director.get(other_url).get_data(as_text=True)) == [("lock", "Lock")]

    assert director.post(f"{event_url}/games/{first}/lock", data={"csrf_token": csrf, "anyway": "y"}).status_code == 302
    assert "Round 1, table 1 locked." in director.get(event_url).get_data(as_text=True)


def play_table(client, token, rng):
    """Fifteen hands through the outbox's JSON posts: random leftovers within one deck, a few pressures."""
    csrf = csrf_token(client, f"/t/{token}/")
    players = json.loads(client.get(f"/t/{token}/export.json").get_data(as_text=True))["players"]
    for hand in range(1, 16):
        deck = [rank for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] for _ in range(4)]
        rng.shuffle(deck)
        winner = rng.choice(players)
        if rng.random() < 0.3:
            client.post(
                f"/t/{token}/pressure",
                headers=OUTBOX,
                data={"csrf_token": csrf, "idem": f"p{hand}", "hand": hand, "player": rng.choice(players)},
            )
        for seat, name in enumerate(players):
            cards = [] if name == winner else [deck.pop() for _ in range(rng.randint(1, 5))]
            data = {"csrf_token": csrf, "idem": f"l{hand}-{seat}", "cards": " ".join(cards), "replaces": ""}
            if not cards:
                data["went_out"] = "y"
            response = client.post(f"/t/{token}/hand/{hand}/seat/{seat}", headers=OUTBOX, data=data)
            assert response.status_code == 200, response.get_json()


def test_a_whole_event_of_three_rounds_and_five_tables(director, tmp_path):
    event_url = new_event(director, PLAYERS)
    rng = random.Random(6)
    for _ in range(3):
        seat_next_round(director, event_url)
    tokens = record_links(director, event_url)
    assert len(tokens) == 15
    for token in tokens:
        play_table(director.application.test_client(), token, rng)

    # Each table's export, replayed by the command line, gives the totals; summed per player.
    expected = dict.fromkeys(PLAYERS, 0)
    script = Path(sys.executable).parent / "scorekeeper"
    for index, token in enumerate(tokens):
        path = tmp_path / f"table-{index}.json"
        path.write_text(director.get(f"/t/{token}/export.json").get_data(as_text=True))
        replay = json.loads(
            subprocess.run(
                [str(script), "replay", "--json", str(path)], capture_output=True, text=True, check=True
            ).stdout
        )
        assert replay["finished"]
        for side in replay["sides"]:
            for member in side["members"]:
                expected[member] += side["total"]
    page = director.get(event_url + "/standings").get_data(as_text=True)
    shown = {
        name: int(total)
        for name, total in re.findall(
            r"<td>(Player \d\d)<span class=\"tie-breaks\">[^<]+</span></td><td class=\"num\">(-?\d+)</td>", page
        )
    }
    assert shown == expected
    places = [int(p) for p in re.findall(r"<tr><td>(\d+)</td><td>Player", page)]
    assert places == sorted(places) and places[0] == 1
    ordered = sorted(expected.values())
    assert shown[re.search(r"<tr><td>1</td><td>(Player \d\d)<", page).group(1)] == ordered[0]

    exported = director.get(event_url + "/export.json").get_json()
    assert len(exported["tables"]) == 15 and exported["format"] == "scorekeeper-event/1"
    csv_rows = director.get(event_url + "/export.csv").get_data(as_text=True).strip().splitlines()
    assert len(csv_rows) == 1 + 60
    assert "finished" in director.get(event_url).get_data(as_text=True)

    wall = re.search(r'href="(http://[^"]+/e/[\w-]+/)"', director.get(event_url).get_data(as_text=True)).group(1)
    wall_path = wall.split("localhost")[-1]
    public = director.application.test_client()
    wall_page = public.get(wall_path).get_data(as_text=True)
    assert "<form" not in wall_page.split("<main>")[1] and "Player" in wall_page
    assert public.get(wall_path + "version").get_json()["version"] > 0
    assert public.get("/e/not-a-token/").status_code == 404


def test_the_wall_screen_polls_the_event_version_and_gets_304_while_nothing_changes(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    wall = re.search(r'href="http://[^"]+(/e/[\w-]+/)"', director.get(event_url).get_data(as_text=True)).group(1)
    screen = director.application.test_client()
    first = screen.get(wall + "version")
    assert first.headers["Cache-Control"] == "no-cache"
    unchanged = screen.get(wall + "version", headers={"If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.data == b""
    Table(screen, record_links(director, event_url)[0]).pressure("Ann", 1)
    changed = screen.get(wall + "version", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.get_json() == {"version": first.get_json()["version"] + 1}
    assert screen.get("/e/not-a-token/version").status_code == 404


def booklet_form(client, event_url):
    """The booklet button's form: its CSRF token and the key the page gives it."""
    page = client.get(event_url).get_data(as_text=True)
    key = re.search(r'name="idem" value="([^"]+)"><button[^>]*>Booklet', page).group(1)
    return {"csrf_token": csrf_token(client, event_url), "idem": key}


def booklet_jobs(app):
    folder = Path(app.instance_path) / "booklets"
    return {path.name for path in folder.glob("*.json")} if folder.exists() else set()


def wait_for_booklet(client, status_url):
    for _ in range(300):
        if "Download the booklet" in client.get(status_url).get_data(as_text=True):
            return
        time.sleep(0.1)
    raise AssertionError("the booklet is not ready after 30 s")


def test_the_booklet_button_pressed_twice_renders_one_booklet(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    before = booklet_jobs(director.application)
    form = booklet_form(director, event_url)
    first = director.post(event_url + "/booklet", data=form)
    again = director.post(event_url + "/booklet", data=form)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    assert len(booklet_jobs(director.application) - before) == 1
    response = director.post(event_url + "/booklet", data={**form, "idem": ""})
    assert "This page is out of date: reload it." in director.get(response.headers["Location"]).get_data(as_text=True)
    assert len(booklet_jobs(director.application) - before) == 1
    wait_for_booklet(director, first.headers["Location"])
    later = director.post(event_url + "/booklet", data=booklet_form(director, event_url))  # a page loaded afresh
    assert later.headers["Location"] != first.headers["Location"]
    assert len(booklet_jobs(director.application) - before) == 2
    wait_for_booklet(director, later.headers["Location"])


def test_a_booklet_is_found_only_under_its_own_event(director):
    first_url = new_event(director, ["Ann", "Bob"], name="First night")
    second_url = new_event(director, ["Cy", "Di"], name="Second night")
    seat_next_round(director, second_url)
    status_url = director.post(second_url + "/booklet", data=booklet_form(director, second_url)).headers["Location"]
    wait_for_booklet(director, status_url)
    job = status_url.rsplit("/", 1)[1]
    assert director.get(f"{second_url}/booklet/{job}.pdf").mimetype == "application/pdf"
    for path in (f"/booklet/{job}", f"/booklet/{job}.pdf"):
        assert director.get(first_url + path).status_code == 404, path
        assert director.get(second_url + path).status_code == 200, path


def test_event_pdfs(director, tmp_path):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    seat_next_round(director, event_url)
    cards = director.get(event_url + "/table-cards.pdf")
    path = tmp_path / "cards.pdf"
    path.write_bytes(cards.data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    assert re.search(r"Pages:\s+2\n", info)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout
    assert "Table 1" in text and "Table 2" in text and "Ann" in text
    standings = director.get(event_url + "/standings.pdf")
    assert standings.mimetype == "application/pdf"
    started = director.post(event_url + "/booklet", data=booklet_form(director, event_url))
    assert started.status_code == 302 and "/booklet/" in started.headers["Location"]
    status_url = started.headers["Location"]
    for _ in range(100):  # the request returned at once; the booklet process renders meanwhile
        page = director.get(status_url).get_data(as_text=True)
        if "Download the booklet" in page:
            break
        assert "Rendering sheet" in page
        time.sleep(0.1)
    booklet = director.get(status_url + ".pdf")
    assert booklet.mimetype == "application/pdf"
    path.write_bytes(booklet.data)
    assert re.search(r"Pages:\s+3\n", subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout)


def test_exports_are_saved_under_the_events_name_and_date_and_pdfs_open_in_the_browser(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    for path, mimetype, disposition in [
        ("/export.json", "application/json", 'attachment; filename="club-night-2026-11-22-results.json"'),
        ("/export.csv", "text/csv", 'attachment; filename="club-night-2026-11-22-results.csv"'),
        ("/standings.pdf", "application/pdf", 'inline; filename="club-night-2026-11-22-standings.pdf"'),
    ]:
        response = director.get(event_url + path)
        assert (response.mimetype, response.headers["Content-Disposition"]) == (mimetype, disposition)
    assert director.get(event_url + "/export.json").get_data(as_text=True).endswith("}\n")


def test_standings_of_a_round_the_event_has_not_seated_are_not_found(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(director, event_url)
    seat_next_round(director, event_url)
    for page in ("/standings", "/standings.pdf"):
        for asked in ("0", "3", "99", "-1", "1" * 40, "one"):
            assert director.get(f"{event_url}{page}?round={asked}").status_code == 404, (page, asked)
        for asked in ("1", "2"):
            assert director.get(f"{event_url}{page}?round={asked}").status_code == 200, (page, asked)
        assert director.get(event_url + page).status_code == 200
    assert "standings of round 2, provisional" in director.get(event_url + "/standings?round=2").get_data(as_text=True)
    assert "standings during round 1, provisional" in director.get(event_url + "/standings").get_data(as_text=True)


def test_every_table_of_an_event_downloads_under_a_name_of_its_own_dated_by_the_event(director):
    name = "The Northern Counties Open Crates and Eights Championship, Autumn Weekend Finals"
    assert len(name) == 80
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], name=name, held_on="2025-03-01")
    seat_next_round(director, event_url)
    tokens = record_links(director, event_url)
    assert len(tokens) == 2
    for path, disposition in (("export.json", "attachment"), ("sheet.pdf", "inline")):
        names = []
        for table, token in enumerate(tokens, start=1):
            header = director.get(f"/t/{token}/{path}").headers["Content-Disposition"]
            found = re.fullmatch(rf'{disposition}; filename="([a-z0-9-]+\.(json|pdf))"', header)
            assert found, header
            names.append(found.group(1))
            assert found.group(1).endswith(f"-round-1-table-{table}.{found.group(2)}"), header
            assert "-2025-03-01-the-northern-counties-open" in found.group(1), header
        assert len(set(names)) == len(tokens)


def test_backup_makes_a_consistent_copy(tmp_path):
    env = create_director(tmp_path / "instance", PASSWORD)
    script = Path(sys.executable).parent / "scorekeeper"
    result = subprocess.run([str(script), "backup", str(tmp_path / "copy.db")], env=env, capture_output=True, text=True)
    assert result.returncode == 0 and "integrity ok" in result.stdout
    import sqlite3

    copy = sqlite3.connect(tmp_path / "copy.db")
    assert copy.execute("SELECT COUNT(*) FROM settings").fetchone()[0] == 1
    copy.close()
    again = subprocess.run([str(script), "backup", str(tmp_path / "copy.db")], env=env, capture_output=True, text=True)
    assert again.returncode == 1 and again.stderr.count("\n") == 1


def test_with_verification_a_hand_counts_once_another_phone_confirms_it(director):
    event_url = new_event(director, ["Ann", "Bob"], verify="y")
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    entering = Table(director.application.test_client(), token)
    players = json.loads(entering.client.get(f"/t/{token}/export.json").get_data(as_text=True))["players"]
    entering.leftovers(1, 0, "K" if players[0] == "Ann" else "Q")
    entering.leftovers(1, 1, "Q" if players[0] == "Ann" else "K")
    assert "Unconfirmed" in director.get(event_url).get_data(as_text=True)
    standings = director.get(event_url + "/standings").get_data(as_text=True)
    assert "round 1, table 1: hand 1 of 15, 0 so far" in standings  # not final yet

    page = entering.page("/")
    assert "To confirm: hand 1" in page
    entering.post("/confirm", hand=1, player="Ann")  # the phone that entered the hand cannot confirm it
    assert "was last changed from this phone" in entering.page("/")

    checker = Table(phone_at(director.application, "192.168.1.12"), token)
    checker.post("/confirm", hand=1, player="Bob")
    assert "To confirm" not in checker.page("/")
    assert "Hand 1 · confirmed" in checker.page("/history")
    standings = director.get(event_url + "/standings").get_data(as_text=True)
    assert '<td>Ann<span class="under-way">round 1, table 1: hand 2 of 15, 10 so far</span>' in standings

    # A correction after the confirmation needs confirming again.
    replaces = re.search(r'name="replaces" type="hidden" value="(\d+)"', checker.page("/hand/1/seat/0")).group(1)
    checker.leftovers(1, 0, "8", replaces=replaces)
    assert "To confirm: hand 1" in checker.page("/")
    standings = director.get(event_url + "/standings").get_data(as_text=True)
    assert '<td>Ann<span class="under-way">round 1, table 1: hand 1 of 15, 0 so far</span>' in standings


def test_clearing_the_cookie_does_not_make_the_phone_that_changed_a_hand_another_phone(director):
    event_url = new_event(director, ["Ann", "Bob"], verify="y")
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    phone_a = Table(phone_at(director.application, "192.168.1.10"), token)
    phone_a.leftovers(1, 0, "K")
    phone_a.leftovers(1, 1, "Q")

    cleared = Table(phone_at(director.application, "192.168.1.10"), token)  # phone A, cookies cleared
    cleared.post("/confirm", hand=1, player="Bob")
    assert "was last changed from this phone" in cleared.page("/")
    again = phone_at(director.application, "192.168.1.10")
    data = {"csrf_token": csrf_token(again, f"/t/{token}/"), "idem": "k1", "hand": 1, "player": "Bob"}
    response = again.post(f"/t/{token}/confirm", data=data, headers=OUTBOX)
    assert response.status_code == 422 and "was last changed from this phone" in response.get_json()["error"]
    assert "To confirm: hand 1" in cleared.page("/")

    phone_b = Table(phone_at(director.application, "192.168.1.11"), token)
    phone_b.post("/confirm", hand=1, player="Bob")
    assert "To confirm" not in phone_b.page("/")
    history = phone_b.page("/history")
    lines = [re.sub(r"<[^>]+>", "", line) for line in re.findall(r"<li.*?</li>", history, re.S)]
    line = next(line for line in lines if "Hand 1 · confirmed" in line)
    changed = next(line for line in lines if re.search(r"Hand 1 · \w+&#39;s leftovers\s", line))
    assert (
        "by Bob" in line and "from 192.168.1.11" in line and "Bob&#39;s phone" in line
    )  # named by who confirmed on it
    assert "· phone 1 ·" in changed and "from 192.168.1.10" in changed
    view = re.search(r'href="[^"]*?(/v/[\w-]+/)"', phone_b.page("/share")).group(1)
    public = director.application.test_client().get(view + "history").get_data(as_text=True)
    assert "Bob&#39;s phone" in public and "192.168.1." not in public  # addresses stay at the table


def test_a_crazy_eights_event_ranks_the_highest_totals_first(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"], rules="crazy-eights", scoring="total")
    tables = seat_next_round(director, event_url)
    assert [len(table) for table in tables] == [4]
    table = Table(director, record_links(director, event_url)[0])
    seats = tables[0]
    table.leftovers(1, 0, went_out=True)
    for seat in (1, 2, 3):
        table.leftovers(1, seat, "K")
    standings = director.get(event_url + "/standings").get_data(as_text=True)
    assert "highest total; ties" in standings
    # Three kings collected; the game goes on: shown as the round under way, ranked once it is complete.
    row = re.search(rf"<td>{seats[0]}<span class=\"under-way\">([^<]+)</span>", standings)
    assert row and row.group(1) == "round 1, table 1: hand 2, 30 so far"


def test_a_hollywood_event_seats_pairs(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"], rules="hollywood-eights")
    assert [len(table) for table in seat_next_round(director, event_url)] == [2, 2]
    odd_url = new_event(director, ["Ann", "Bob", "Cy"], rules="hollywood-eights")
    page = planned_page(director, odd_url)
    # Three players, tables of two: one sits out (the plan rotates who), and two are proposed.
    out = re.search(r"sitting out: ([A-Za-z]+)\)", page)
    assert out and out.group(1) in {"Ann", "Bob", "Cy"}
    tables = seat_next_round(director, odd_url)
    assert len(tables) == 1 and out.group(1) not in tables[0]


def _as_a_crash_left_it(app, status_url: str, **state) -> Path:
    """The booklet's status rewritten as a server killed mid-render leaves it: running, by a
    process that is gone (or by a version that did not say which)."""
    job = status_url.rsplit("/", 1)[1]
    path = Path(app.instance_path) / "booklets" / f"{job}.json"
    status = json.loads(path.read_text())
    status.update({"state": "running", "done": 0, **state})
    path.write_text(json.dumps(status))
    return path


def test_a_booklet_a_crash_interrupted_says_so_and_is_made_again_with_the_same_button(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    form = booklet_form(director, event_url)
    status_url = director.post(event_url + "/booklet", data=form).headers["Location"]
    wait_for_booklet(director, status_url)
    gone = subprocess.Popen(["true"])
    gone.wait()
    _as_a_crash_left_it(director.application, status_url, pid=gone.pid)
    page = director.get(status_url).get_data(as_text=True)
    assert "The booklet failed: the server stopped while it was being made" in page
    assert 'http-equiv="refresh"' not in page  # no longer refreshing every 2 s for ever
    assert "Make the booklet again" in page
    assert "failed" in director.get(event_url).get_data(as_text=True)
    again = director.post(event_url + "/booklet", data=form)  # the same page's button, pressed again
    assert again.headers["Location"] == status_url
    wait_for_booklet(director, status_url)
    fresh = re.search(r'name="idem" value="([^"]+)"', director.get(status_url).get_data(as_text=True))
    assert fresh is None  # done: no button to make it again


def test_a_booklet_left_running_by_an_earlier_version_or_silent_for_long_is_failed(director):
    event_url = new_event(director, ["Ann", "Bob"])
    seat_next_round(director, event_url)
    status_url = director.post(event_url + "/booklet", data=booklet_form(director, event_url)).headers["Location"]
    wait_for_booklet(director, status_url)
    path = _as_a_crash_left_it(director.application, status_url)
    status = json.loads(path.read_text())
    del status["pid"]
    path.write_text(json.dumps(status))
    assert "The booklet failed" in director.get(status_url).get_data(as_text=True)
    _as_a_crash_left_it(director.application, status_url, pid=os.getpid())
    os.utime(path, (time.time() - 3600, time.time() - 3600))
    assert "The booklet failed" in director.get(status_url).get_data(as_text=True)


def test_a_name_listed_again_with_other_spacing_is_listed_twice(director):
    """Seen at a fresh event: "Ann Smith" and "Ann  Smith" were both taken, and no seating line
    could tell them apart, so the event's own proposal was refused."""
    response = director.post("/director/events/new", data=event_form(director, ["Ann Smith", "Bob", "ann  SMITH"]))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Line 3: ann  SMITH is listed twice: two players of that name need their membership numbers." in page


def test_two_namesakes_with_their_numbers_play_under_them(director):
    """Seen in the fresh-clone check: the form refused a second John Smith before his number could
    tell him apart. With both numbers, each plays as "John Smith (number)"; the same number on two
    lines is refused by line, counting the list's blank lines too."""
    lines = ["John Smith, Boston, 201", "", "John Smith, Cambridge, 202", "Bob", "Cy", "Di"]
    response = director.post("/director/events/new", data=event_form(director, lines))
    assert response.status_code == 302, response.get_data(as_text=True)
    page = director.get(response.headers["Location"]).get_data(as_text=True)
    assert "John Smith (201)" in page and "John Smith (202)" in page
    twice = event_form(director, ["Ann, North, 7", "", "Annie, South, 7", "Bob"])
    refused = director.post("/director/events/new", data=twice)
    assert refused.status_code == 422 and "Line 3: number 7 is on line 1 too." in refused.get_data(as_text=True)


def test_once_every_round_the_event_has_is_seated_no_further_round_is_offered_nor_taken(director):
    """Seen at a club evening: with round 5 of 5 played, the page still offered "Seat round 6"
    (an empty box, then "This field is required.") and "Propose by the standings"."""
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"], rounds="2")
    seat_next_round(director, event_url)
    seat_next_round(director, event_url)
    page = director.get(event_url).get_data(as_text=True)
    assert "Seat round 3" not in page and "Propose by the standings" not in page
    assert "Both of the event's 2 rounds are seated." in page
    token = csrf_token(director, event_url)
    refused = director.post(
        event_url + "/rounds", data={"csrf_token": token, "number": 3, "tables": "Ann, Bob, Cy, Di", "anyway": "y"}
    )
    assert refused.status_code == 409
    assert "The event has 2 rounds, all seated: round 3 cannot be." in refused.get_data(as_text=True)


def test_once_every_table_of_the_round_is_locked_its_clock_offers_nothing_more(director):
    """Seen at a club evening: round 1's clock stayed on the page after time and after every
    table was locked, with Pause, Stop and Extend, until round 2 was seated."""
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"], rounds="2")
    seat_next_round(director, event_url)
    token = csrf_token(director, event_url)
    assert director.post(event_url + "/rounds/1/clock", data={"csrf_token": token, "minutes": "30"}).status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    assert "Pause" in page and "Extend the clock" in page
    token = csrf_token(director, event_url)
    director.post(event_url + "/rounds/1/lock-finished", data={"csrf_token": token})
    for path in re.findall(r'action="([^"#]*/games/[\w-]+/lock)(?:#[\w-]+)?"', page):
        assert director.post(path, data={"csrf_token": token, "anyway": "y"}).status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    assert "Every table of round 1 is locked" in page
    assert "Pause" not in page and "Extend the clock" not in page and "Start round 1" not in page
