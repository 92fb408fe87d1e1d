"""Issue 13's rough edges, through the pages a table sees: words a player reads, not the app's own."""

from __future__ import annotations

import io
import json
import re

import pytest

from scorekeeper.reports.charts import running_total_chart
from scorekeeper.scoring import Game, Hand, configure, parse_cards, score_game
from tests.support.web import csrf_token, new_game_form, start
from tests.web.test_events import new_event, record_links, seat_next_round, set_up_director

OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}


@pytest.fixture
def table_game(client):
    return start(client, ["Ann", "Bob", "Cy", "Di"])


def test_the_world_series_starts_from_two_names_and_the_dummy_sits_after_them(client):
    table = start(client, ["Ann", "Bob"], rules="crates-world-series")
    record = client.get(f"{table.base}/export.json").get_json()
    assert record["players"] == ["Ann", "Bob", "Figgy"]
    assert "-50" in table.page("/")


def test_a_dummy_typed_by_hand_is_not_seated_twice(client):
    table = start(client, ["Ann", "Figgy", "Bob"], rules="crates-world-series")
    assert client.get(f"{table.base}/export.json").get_json()["players"] == ["Ann", "Figgy", "Bob"]


def test_a_pressure_on_the_dummy_goes_to_the_player_seated_after_it():
    rules = configure("crates-world-series", {})
    assert rules.pressure_taker(Game(rules, ("Ann", "Bob", "Figgy")), "Figgy") == "Ann"
    assert rules.pressure_taker(Game(rules, ("Ann", "Figgy", "Bob")), "Figgy") == "Bob"
    assert rules.pressure_taker(Game(rules, ("Ann", "Figgy", "Bob")), "Ann") == "Ann"
    assert configure("crates", {}).pressure_taker(Game(configure("crates", {}), ("Ann", "Bob")), "Bob") == "Bob"


def test_the_dummys_pressure_button_records_it_on_the_next_player_and_says_so(client):
    table = start(client, ["Ann", "Figgy", "Bob"], rules="crates-world-series")
    page = table.page("/")
    button = re.search(r'<form[^>]*data-outbox="Pressure on Figgy to Bob, hand 1"[^>]*>.*?</form>', page, re.S).group(0)
    assert 'name="player" value="Bob"' in button and "Figgy → Bob" in re.sub(r"<[^>]+>", "", button)
    assert "one on Figgy goes to the next player to play, Bob" in page
    table.pressure("Bob", 1)
    page = table.page("/")
    assert "Pressure: <strong>Bob</strong> <strong>+5</strong>" in page


def test_the_crazy_eights_bonus_is_a_row_on_scores_and_the_charts_last_step(client):
    table = start(client, ["Ann", "Bob"], rules="crazy-eights")
    table.leftovers(1, 0, went_out=True)
    table.leftovers(1, 1, "8 8")
    page = table.page("/scores")
    bonus = re.search(r'<tr class="bonus">.*?</tr>', page, re.S).group(0)
    assert "+100" in bonus
    assert re.search(r'<td class="num big">200</td>', page)
    assert "+100 bonus</text>" in page


def test_the_chart_ends_at_the_total_with_the_bonus():
    rules = configure("crazy-eights", {})
    score = score_game(Game(rules, ("Ann", "Bob")), [Hand({"Ann": (), "Bob": parse_cards(["8", "8"])})])
    chart = running_total_chart(score)
    ann = chart.lines[0]
    points = [tuple(map(float, point.split(","))) for point in ann.points.split()]
    assert ann.bonus == 100 and len(points) == 3
    assert points[1][0] == points[2][0] and points[2][1] < points[1][1]  # a step up at the last hand


def test_a_game_without_a_schedule_says_one_hand_and_no_pressure_legend(client):
    table = start(client, ["Ann", "Bob"], rules="crazy-eights", option_target="500")
    table.leftovers(1, 0, went_out=True)
    table.leftovers(1, 1, "K")
    page = table.page("/scores")
    assert "1 hand played" in page and "1 hands" not in page
    assert "P = pressures" not in page
    crates = start(client, ["Ann", "Bob"])
    assert "P = pressures" in crates.page("/scores") and "0 of 15 hands played" in crates.page("/scores")


def test_scores_say_cards_dealt_in_words(client):
    table = start(client, ["Ann", "Bob"])
    table.leftovers(1, 0, went_out=True)
    table.leftovers(1, 1, "K")
    page = table.page("/scores")
    assert "8 cards</small>" in page and "8c<" not in page


def test_undo_through_the_outbox_says_what_it_undid_on_the_next_page(table_game):
    table = table_game
    table.pressure("Bob", 1)
    target = re.search(r'name="target" value="(\d+)"', table.page("/")).group(1)
    token = csrf_token(table.client, table.base + "/")
    response = table.client.post(
        table.base + "/undo", data={"csrf_token": token, "idem": "u1", "target": target}, headers=OUTBOX
    )
    assert response.get_json()["message"] == "Undone: Hand 1 · pressure (Bob)."
    next_page = table.client.get(response.get_json()["redirect"]).get_data(as_text=True)
    assert '<p class="flash ok" role="status">Undone: Hand 1 · pressure (Bob).</p>' in next_page


def test_an_undo_through_the_outbox_writes_no_cookie_and_is_said_on_its_next_page_only(table_game):
    """Seen at a table: an undo's words, kept in the session (a cookie), showed again on a later,
    unrelated page. As a save's, they go in the next page's address, which the page takes out."""
    table = table_game
    table.pressure("Bob", 1)
    target = re.search(r'name="target" value="(\d+)"', table.page("/")).group(1)
    token = csrf_token(table.client, table.base + "/")
    response = table.client.post(
        table.base + "/undo", data={"csrf_token": token, "idem": "u1", "target": target}, headers=OUTBOX
    )
    assert response.status_code == 200
    assert response.headers.getlist("Set-Cookie") == []
    assert "said=" in response.get_json()["redirect"] and "saved=" not in response.get_json()["redirect"]
    assert "Undone: Hand 1 · pressure (Bob)." in table.client.get(response.get_json()["redirect"]).get_data(
        as_text=True
    )
    assert "Undone:" not in table.page("/scores")
    assert "Undone:" not in table.page("/")


def test_history_shows_an_undo_as_one_line_on_the_change_it_undid(table_game):
    table = table_game
    table.pressure("Bob", 1)
    saved = table.pressure("Cy", 1)
    target = re.search(r'name="target" value="(\d+)"', table.follow(saved)).group(1)
    table.post("/undo", target=target)
    history = table.page("/history")
    lines = re.findall(r"<li class=\"[^\"]*\">.*?</li>", history, re.S)
    assert len(lines) == 2
    undone = [line for line in lines if "undone" in line]
    assert len(undone) == 1 and "Hand 1 · pressure" in undone[0] and "Cy" in undone[0]
    assert re.search(r"Undone: #3 · <time datetime=\"[^\"]+\" data-local>", undone[0])
    assert "from 127.0.0.1" in undone[0].split("Undone: #3")[1]


def test_history_names_phones_by_number_not_by_code(app, table_game):
    table = table_game
    table.pressure("Bob", 1)
    other = app.test_client()
    token = csrf_token(other, table.base + "/")
    other.post(table.base + "/pressure", data={"csrf_token": token, "idem": "p2", "hand": 1, "player": "Cy"})
    history = table.page("/history")
    assert "· phone 1 ·" in history and "· phone 2 ·" in history
    assert not re.search(r"phone [0-9a-f]{4}\b", history)
    assert "UTC" in history and "data-local" in history  # no-JS fallback says which time it is


def test_a_side_named_after_its_only_player_is_not_named_twice(table_game):
    table_game.pressure("Bob", 1)
    page = table_game.page("/")
    assert "Pressure: <strong>Bob</strong> <strong>+5</strong>" in page and "(Bob)" not in page


def test_the_hand_detail_explains_the_threes_once(table_game):
    table = table_game
    for seat, cards in enumerate(["3 3 K", "", "3 K", "Q"]):
        table.leftovers(1, seat, cards, went_out=not cards)
    page = table.page("/hand/1")
    assert "Threes: 3→3→K" in page and page.count("means the 3 covers the K") == 1


def test_a_refused_start_form_offers_the_first_dealer_by_name(client):
    token = csrf_token(client, "/new")
    data = new_game_form(["Ann", "Bob", "ann"])
    response = client.post("/new", data={"csrf_token": token, **data})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert '<option selected value="0">Ann</option>' in page and '<option value="1">Bob</option>' in page
    marked = re.findall(r'<div class="field seat has-error">.*?</div>', page, re.S)
    assert len(marked) == 1 and 'name="players-2"' in marked[0]
    assert '<fieldset class="has-error">' not in page


def test_the_start_form_without_names_still_offers_seats(client):
    page = client.get("/new").get_data(as_text=True)
    assert '<option value="1">Player 2</option>' in page
    assert re.search(r'<script type="module" src="/static/main\.[0-9a-f]{8}\.js">', page)  # main.js sets up pages.js


def test_the_app_has_an_icon(client):
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<link rel="icon" href="/static/icon\.[0-9a-f]{8}\.svg"', page)
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data


#: The longest title the app gives a game: an event's table, under an 80-character event name.
LONGEST_EVENT_TITLE = "E" * 80 + " · round 9999 · table 9999"


@pytest.mark.parametrize(
    "extra, refusal",
    [
        ({"players": ["A" * 31, "Bob"]}, "is longer than 30 characters"),
        ({"title": LONGEST_EVENT_TITLE + "!"}, "The title must be text of at most 106 characters."),
        ({"title": "T" * 1000}, "The title must be text of at most 106 characters."),
        ({"title": {"x": 1}}, "The title must be text of at most 106 characters."),
    ],
)
def test_an_imported_record_keeps_to_the_start_forms_limits(client, extra, refusal):
    data = {"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": [], **extra}
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "text": json.dumps(data)})
    assert response.status_code == 422
    assert refusal in response.get_data(as_text=True).replace("&#39;", "'")


def test_an_event_tables_own_export_imports_back_as_a_game_outside_the_event(client):
    set_up_director(client)
    event_url = new_event(client, ["Ann", "Bob", "Cy", "Di"], name="E" * 80)
    seat_next_round(client, event_url)
    token = record_links(client, event_url)[0]
    exported = client.get(f"/t/{token}/export.json").get_json()
    assert exported["title"] == "E" * 80 + " · round 1 · table 1" and exported["filed_under"]["table"] == 1
    form = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": form, "text": json.dumps(exported)})
    assert response.status_code == 302, response.get_data(as_text=True)
    imported = response.headers["Location"].split("/t/")[1].split("/")[0]
    again = client.get(f"/t/{imported}/export.json").get_json()
    assert again["title"] == exported["title"] and "filed_under" not in again
    assert again["players"] == exported["players"]


def test_the_longest_title_the_app_gives_imports(client):
    data = {"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": []}
    token = csrf_token(client, "/import")
    response = client.post(
        "/import", data={"csrf_token": token, "text": json.dumps({**data, "title": LONGEST_EVENT_TITLE})}
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def test_an_uploaded_record_is_held_to_the_pasted_records_limit(client):
    """A file took any length up to the request limit where pasted text stops at 200,000 characters."""
    from scorekeeper.web.start_forms import IMPORT_MAX_LENGTH

    data = {"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": []}
    text = json.dumps(data)
    padded = text[:-1] + ', "padding": "' + "x" * (IMPORT_MAX_LENGTH - len(text)) + '"}'
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(padded.encode()), "game.json")})
    assert response.status_code == 422
    assert "longer than 200,000 characters" in response.get_data(as_text=True)
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(text.encode()), "game.json")})
    assert response.status_code == 302
