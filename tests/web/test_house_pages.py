"""House rules at the table: define, start, play, export, print, change (with a history)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.scoring import parse_record
from tests.reports.test_sheets import pdf_text
from tests.support.web import csrf_token, start
from tests.web.test_events import log_in, set_up_director

FACE = {"ACE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10}


def house_form(**fields):
    data = {f"value_{rank}": str(points) for rank, points in FACE.items()}
    data.update({"value_JACK": "10", "value_QUEEN": "10", "value_KING": "10"})
    data.update({"name": "Kitchen Eights", "decks": "1", "scoring": "own", "end": "hands", "deal": "3 2 1"})
    data.update(fields)
    return data


def define(client, path="/house-rules/new", **fields):
    token = csrf_token(client, path)
    return client.post(path, data={"csrf_token": token, **house_form(**fields)})


def saved_id(response) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(re.search(r"/house-rules/(\d+)", response.headers["Location"]).group(1))


def test_a_house_game_is_defined_started_played_and_replayed(client, tmp_path):
    rules_id = saved_id(define(client, value_EIGHT="50", joker="25", special="QS=40"))
    page = client.get(f"/house-rules/{rules_id}").get_data(as_text=True)
    assert "Kitchen Eights" in page and "3 hands, dealt 3 2 1" in page and "Q♠" in page
    new = client.get(f"/new?rules=house:{rules_id}").get_data(as_text=True)
    assert f'<option selected value="house:{rules_id}">Kitchen Eights (house rules)</option>' in new
    table = start(client, ["Ann", "Bob"], rules=f"house:{rules_id}")
    assert '<h1>Hand 1 <span class="of">of 3</span> · 3 cards each</h1>' in table.page("/")
    leftovers_page = table.page("/hand/1/seat/0")
    assert 'data-suit="s"' in leftovers_page and 'data-card="JK"' in leftovers_page  # special card, joker
    assert 'data-suit-ranks="Q "' in leftovers_page  # only the queen waits for its suit on the pad
    table.leftovers(1, 0, "8 JK Qs")
    table.leftovers(1, 1, went_out=True)
    assert "115" in table.page("/scores")
    exported = client.get(f"{table.base}/export.json").get_json()
    assert exported["rules"] == "house" and exported["options"]["special"] == {"QS": 40}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    script = Path(sys.executable).with_name("scorekeeper")
    replayed = subprocess.run([str(script), "replay", "--json", str(path)], capture_output=True, text=True)
    assert json.loads(replayed.stdout)["sides"][0]["total"] == 50 + 25 + 40
    sheet = pdf_text(client.get(f"{table.base}/sheet.pdf").data, tmp_path)
    assert "Kitchen Eights" in sheet and "3 hands, dealt 3 2 1" in sheet
    card = pdf_text(client.get(f"/house-rules/{rules_id}/rules.pdf").data, tmp_path)
    assert "Kitchen Eights" in card and "Q♠" in card
    blank = pdf_text(client.get(f"/blank-sheet.pdf?rules=house:{rules_id}&players=4&paper=a4").data, tmp_path)
    assert "Kitchen Eights" in blank


def test_an_impossible_definition_is_refused_beside_its_field_and_keeps_the_input(client):
    response = define(client, end="target", deal="7", special="QS=40")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(
        r'name="limit"[^>]*>\s*<small[^>]*>[^<]*</small>\s*<p class="error" role="alert">House rules ending at a target need the target&#39;s points',
        page,
    )
    assert 'value="QS=40"' in page and 'value="Kitchen Eights"' in page
    bad = define(client, special="QS 40").get_data(as_text=True)
    assert "Write each special card as card=points" in bad


def test_names_are_unique_whatever_the_case(client):
    saved_id(define(client))
    response = define(client, name="kitchen eights")
    assert response.status_code == 422 and "already called Kitchen Eights" in response.get_data(as_text=True)


def test_the_edit_page_starts_from_the_saved_definition(client):
    rules_id = saved_id(define(client, joker="25", special="qs=40, 10d=5", end="target", deal="7", limit="150"))
    page = client.get(f"/house-rules/{rules_id}/edit").get_data(as_text=True)
    assert 'name="special" type="text" value="10D=5, QS=40"' in page
    assert 'name="joker" type="number" value="25"' in page and 'name="limit" type="number" value="150"' in page


def test_a_change_is_a_new_version_and_games_keep_the_rules_they_began_with(client):
    first = saved_id(define(client))
    table = start(client, ["Ann", "Bob"], rules=f"house:{first}")
    second = saved_id(define(client, f"/house-rules/{first}/edit", deal="5 5", replaces=str(first)))
    assert second != first
    assert "3 cards each" in table.page("/")  # the started game still deals 3 2 1
    page = client.get(f"/house-rules/{second}").get_data(as_text=True)
    assert "2 hands, dealt 5 5" in page and "(in use)" in page
    assert "This is an old version" in client.get(f"/house-rules/{first}").get_data(as_text=True)
    assert f'value="house:{first}"' not in client.get("/new").get_data(as_text=True)


def test_an_old_version_of_a_renamed_game_points_to_its_own_latest_version(client):
    first = saved_id(define(client))
    renamed = saved_id(define(client, f"/house-rules/{first}/edit", name="Porch Eights", replaces=str(first)))
    newcomer = saved_id(define(client, deal="7"))  # the old name is free again: another game takes it
    page = client.get(f"/house-rules/{first}").get_data(as_text=True)
    assert "This is an old version" in page
    assert f'href="/house-rules/{renamed}">See the version in use' in page
    assert f"/house-rules/{newcomer}" not in page


def test_a_change_from_a_stale_page_is_refused_with_what_is_saved_now(client):
    first = saved_id(define(client))
    saved_id(define(client, f"/house-rules/{first}/edit", deal="5 5", replaces=str(first)))
    response = define(client, f"/house-rules/{first}/edit", deal="4 4 4", replaces=str(first))
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "was changed on another phone" in page and "2 hands, dealt 5 5" in page
    assert 'value="4 4 4"' in page


def test_a_house_record_imports_as_a_playable_game(client):
    record = {
        "format": "scorekeeper-game/1",
        "rules": "house",
        "options": {"name": "Pub Rules", "scoring": "winner", "end": "target", "deal": 5, "limit": 50},
        "players": ["Ann", "Bob"],
        "hands": [{"leftovers": {"Ann": [], "Bob": ["K", "9"]}}],
    }
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "text": json.dumps(record)})
    assert response.status_code == 302
    token_ = response.headers["Location"].split("/t/")[1].split("/")[0]
    scores = client.get(f"/t/{token_}/scores").get_data(as_text=True)
    assert "Pub Rules" in scores and "19" in scores
    assert parse_record(client.get(f"/t/{token_}/export.json").get_json()).game.rules.name == "Pub Rules"


def test_once_a_director_password_is_set_only_the_director_defines_or_changes_house_games(client):
    first = saved_id(define(client))  # a home game: no director yet, anyone may
    player = client.application.test_client()
    second = saved_id(define(player, f"/house-rules/{first}/edit", deal="4 4", replaces=str(first)))
    set_up_director(client.application.test_client())

    for path in ("/house-rules/new", f"/house-rules/{second}/edit"):
        response = player.get(path)
        assert response.status_code == 302 and "/director/login" in response.headers["Location"], path
    token = csrf_token(player, "/join")
    for path, fields in (("/house-rules/new", {"name": "Sneaky"}), (f"/house-rules/{second}/edit", {})):
        data = {"csrf_token": token, **house_form(**fields), "replaces": str(second)}
        response = player.post(path, data=data)
        assert response.status_code == 302 and "/director/login" in response.headers["Location"], path
    page = player.get(f"/house-rules/{second}").get_data(as_text=True)
    assert "4 4" in page and "Change the rules" not in page and "Only the tournament director" in page
    assert "Sneaky" not in player.get("/house-rules/").get_data(as_text=True)
    # Viewing, printing and starting a game stay open to everyone.
    assert player.get(f"/house-rules/{second}/rules.pdf").status_code == 200
    start(player, ["Ann", "Bob"], rules=f"house:{second}")

    director = client.application.test_client()
    log_in(director)
    assert "Change the rules" in director.get(f"/house-rules/{second}").get_data(as_text=True)
    saved_id(define(director, f"/house-rules/{second}/edit", deal="5 5", replaces=str(second)))


@pytest.mark.parametrize("replaces", ["x", "²", "999", str(2**70), ""])
def test_a_change_naming_no_version_of_its_game_is_refused_with_what_is_saved(client, replaces):
    rules_id = saved_id(define(client))
    path = f"/house-rules/{rules_id}/edit"
    data = {"csrf_token": csrf_token(client, path), **house_form(deal="5 4"), "replaces": replaces}
    response = client.post(path, data=data)
    assert response.status_code == 409
    assert "was changed on another phone" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("special", "message"),
    [("QS=50, qs=60", "QS is listed twice"), ("QS=١٠", "Write each special card as card=points")],
)
def test_a_special_card_given_twice_or_in_other_digits_is_refused_beside_its_field(client, special, message):
    response = define(client, special=special)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True) and f'value="{special}"' in response.get_data(as_text=True)
