"""House rules at the table: define, start, play, export, print, change (with a history)."""

import json
import re
import subprocess
import sys
from pathlib import Path

from scorekeeper.scoring import parse_record

from .test_sheets import pdf_text
from .web import csrf_token, start

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
