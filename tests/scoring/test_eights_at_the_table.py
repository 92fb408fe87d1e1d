"""The Eights family at the table, on paper and on the command line: a server, a browser's pages,
the command itself (apart from test_eights.py and test_hollywood.py, the rules alone, which
tools/mutation.py runs once per mutant of the rule sets)."""

import json
import subprocess
import sys
from pathlib import Path

from scorekeeper.scoring import parse_record
from tests.reports.test_sheets import pdf_text
from tests.scoring.test_eights import record
from tests.support.web import csrf_token, start


def test_replay_from_the_command_line_lists_the_bonus(tmp_path):
    path = tmp_path / "eights.json"
    path.write_text(json.dumps(record("crazy-eights", ["Ann", "Bob"], [{"Ann": [], "Bob": ["8", "8"]}])))
    script = Path(sys.executable).parent / "scorekeeper"
    output = json.loads(
        subprocess.run([str(script), "replay", "--json", str(path)], capture_output=True, text=True).stdout
    )
    assert output["bonuses"] == {"Ann": 100} and output["leader"] == ["Ann"]
    text = subprocess.run([str(script), "replay", str(path)], capture_output=True, text=True).stdout
    assert "Bonus" in text and "Winner: Ann on 200" in text
    scored = subprocess.run(
        [str(script), "score", "--rules", "crazy-eights", "--json", "8", "K"], capture_output=True, text=True
    )
    assert json.loads(scored.stdout)["total"] == 60


def test_a_crazy_eights_game_is_played_at_the_table_to_its_end(client):
    table = start(client, ["Ann", "Bob"], rules="crazy-eights")
    page = table.page("/")
    assert "Hand 1</h1>" not in page and "<h1>Hand 1 · 7 cards each</h1>" in page
    assert "PRESSURE" not in page and "The count" not in page and "One card" not in page
    table.leftovers(1, 0, went_out=True)
    table.leftovers(1, 1, "8 K")
    assert "Hand 2 · 7 cards each" in table.page("/")
    table.leftovers(2, 0, went_out=True)
    table.leftovers(2, 1, "8")
    response = client.get(f"{table.base}/")
    assert response.status_code == 302 and response.headers["Location"].endswith("/scores")
    scores = table.page("/scores")
    assert "Final standings" in scores and "highest total wins" in scores
    assert '<span class="place">1</span> <span class="name">Ann</span> <span class="num big">210</span>' in scores
    record_ = client.get(f"{table.base}/export.json").get_json()
    assert parse_record(record_).score().to_json()["bonuses"] == {"Ann": 100}
    assert client.get(f"{table.base}/sheet.pdf").mimetype == "application/pdf"


def test_an_eights_record_imports_as_a_game(client):
    token = csrf_token(client, "/import")
    data = record("crazy-aces", ["Ann", "Bob"], [{"Ann": [], "Bob": ["JK"]}])
    response = client.post("/import", data={"csrf_token": token, "text": json.dumps(data)})
    assert response.status_code == 302
    assert "crazy-eights" in client.get("/new").get_data(as_text=True)


def test_the_pad_offers_a_joker_where_the_game_has_jokers(client):
    aces = start(client, ["Ann", "Bob"], rules="crazy-aces")
    assert 'data-card="JK"' in aces.page("/hand/1/seat/0")
    eights = start(client, ["Ann", "Bob"], rules="crazy-eights")
    assert 'data-card="JK"' not in eights.page("/hand/1/seat/0")


def test_a_hollywood_session_is_played_at_the_table_and_printed(client, tmp_path):
    table = start(client, ["Ann", "Bob"], rules="hollywood-eights")
    assert "<h1>Hand 1 · 7 cards each</h1>" in table.page("/")
    table.leftovers(1, 0, went_out=True)
    table.leftovers(1, 1, "8 8 8 8 K Q")
    page = table.page("/")
    assert 'aria-label="Games"' in page and "★ Ann <small" in page and "1 game</td>" in page
    for number in (2, 3):
        table.leftovers(number, 0, went_out=True)
        table.leftovers(number, 1, "8 8 8 8 K Q")
    scores = table.page("/scores")
    assert "Final standings" in scores and "3 games" in scores
    exported = client.get(f"{table.base}/export.json").get_json()
    assert exported["rules"] == "hollywood-eights"
    assert [column["winner"] for column in parse_record(exported).score().to_json()["columns"]] == ["Ann"] * 3
    sheet = pdf_text(client.get(f"{table.base}/sheet.pdf").data, tmp_path)
    assert "Ann · 3 games" in sheet and "3 won by Ann (hand 3)" in " ".join(sheet.split())
