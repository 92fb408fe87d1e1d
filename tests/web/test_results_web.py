"""Results a director can defend, through the web: the lock question's choices, short tables on
the standings, sheets and history; withdrawals; penalties; exports and their names.

The evening that asked for it: round 3, table 1 of a club night was locked after 6 of 15 hands;
its partial totals counted as a full result, and its players took places 1–4 of the round.
"""

import csv
import io
import json
import re
import subprocess

import pytest

from scorekeeper.storage.database import connect
from tests.web.test_events import OUTBOX, csrf_token, new_event, record_links, seat_next_round, set_up_director


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def play(client, token, hands, first=1, leftovers=("", "5", "5", "5")):
    """``hands`` hands where seat 1 goes out and every other seat keeps the same cards."""
    csrf = csrf_token(client, f"/t/{token}/")
    for number in range(first, first + hands):
        for seat, cards in enumerate(leftovers):
            data = {"csrf_token": csrf, "idem": f"l{number}-{seat}", "cards": cards, "replaces": ""}
            if not cards:
                data["went_out"] = "y"
            response = client.post(f"/t/{token}/hand/{number}/seat/{seat}", headers=OUTBOX, data=data)
            assert response.status_code == 200, response.get_json()


def seats(client, token):
    return json.loads(client.get(f"/t/{token}/export.json").get_data(as_text=True))["players"]


def short_evening(director):
    """One round, two tables of four: one plays all 15 hands (the three who keep cards: 30 a hand,
    450), the other only 6, keeping more each hand (70: 420), and is still playing."""
    event_url = new_event(director, EIGHT, name="Thursday club", held_on="2026-11-19")
    seat_next_round(director, event_url)
    full, short = record_links(director, event_url)
    player = director.application.test_client()
    play(player, full, 15)
    play(player, short, 6, leftovers=("", "5 6 K", "9 5 K", "6 9 J"))
    return event_url, full, short


def standings_places(director, event_url, query=""):
    page = director.get(event_url + "/standings" + query).get_data(as_text=True)
    return {name: int(place) for place, name in re.findall(r"<tr><td>(\d+)</td><td>([A-Z][a-z]+)", page)}, page


def test_a_table_locked_after_6_of_15_is_prorated_by_default_and_does_not_rank_above_full_tables(director):
    event_url, full, short = short_evening(director)
    csrf = csrf_token(director, event_url)
    asked = director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf})
    assert asked.status_code == 409
    question = asked.get_data(as_text=True)
    for sentence in ("Prorated (the default)", "Counted as missed", "Adjusted:"):
        assert sentence in question
    assert "each player&#39;s points × 71 ÷ 33 cards" in question and "420 → 904" in question
    assert re.search(r'value="prorated"[^>]*checked|checked[^>]*value="prorated"', question), "prorated is the default"
    # Locked with nobody choosing: prorated.
    assert director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y"}).status_code == 302
    places, page = standings_places(director, event_url)
    keepers = [name for name in seats(director, short)[1:]]
    full_keepers = [name for name in seats(director, full)[1:]]
    # Raw, the short table's 420s would beat the full table's 450s; prorated they are 904.
    assert min(places[name] for name in keepers) > max(places[name] for name in full_keepers), places
    assert "round 1: locked after hand 6 of 15, prorated: 420 × 71 ÷ 33 cards = 904" in page
    pdf = director.get(event_url + "/standings.pdf").data
    printed = " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode().split()
    )
    assert "round 1: locked after hand 6 of 15, prorated: 420 × 71 ÷ 33 cards = 904" in printed, "and on paper"
    event_page = director.get(event_url).get_data(as_text=True)
    assert "Round 1, table 2 locked after hand 6 of 15, prorated" in event_page, "the History says after which hand"
    assert "locked after hand 6 of 15, prorated" in re.findall(r'class="progress">([^<]+)</td>', event_page)


def test_the_lock_question_counts_a_short_table_as_missed_or_adjusted_with_a_reason(director):
    event_url, full, short = short_evening(director)
    csrf = csrf_token(director, event_url)
    refused = director.post(
        f"{event_url}/games/{short}/lock",
        data={"csrf_token": csrf, "anyway": "y", "treatment": "adjusted", "level": "average-minus", "reason": ""},
    )
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "An adjusted score needs its reason" in text
    assert re.search(r'value="adjusted"[^>]*checked|checked[^>]*value="adjusted"', text), "the choice is kept"
    sent = {
        "csrf_token": csrf,
        "anyway": "y",
        "treatment": "adjusted",
        "level": "average-minus",
        "reason": "the room closed",
    }
    assert director.post(f"{event_url}/games/{short}/lock", data=sent).status_code == 302
    places, page = standings_places(director, event_url)
    # The round's average at its finished table: (0 + 3 × 450) ÷ 4 = 337.5; average-minus: × 11/10 = 371.25 → 371.
    assert "adjusted (average-minus: the round&#39;s average 337.5 → 371): the room closed" in page
    history = director.get(event_url).get_data(as_text=True)
    assert (
        "Round 1, table 2 locked after hand 6 of 15, adjusted (average-minus)" in history
        and "the room closed" in history
    )
    sheet = director.get(f"/t/{short}/sheet.pdf").data
    printed = " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=sheet, capture_output=True, check=True).stdout.decode().split()
    )
    assert (
        "Locked after hand 6 of 15, adjusted (average-minus: the round's average 337.5 → 371): the room closed."
        in printed
    )
    director.post(f"{event_url}/games/{short}/unlock", data={"csrf_token": csrf})
    director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y", "treatment": "missed"})
    _, page = standings_places(director, event_url)
    assert "locked after hand 6 of 15, counted as missed" in page
    assert "Round 1, table 2 locked after hand 6 of 15, counted as missed" in director.get(event_url).get_data(
        as_text=True
    )


def test_any_path_that_locks_a_table_short_gets_the_default(director, app):
    """Another way to lock (a round's clock, "lock every finished table") may only set the game's lock."""
    event_url, full, short = short_evening(director)
    db = connect(app.config["DATABASE"])
    db.conn.execute("UPDATE games SET locked = 1 WHERE record_token = ?", [short])
    db.conn.commit()
    _, page = standings_places(director, event_url)
    assert "locked after hand 6 of 15, prorated" in page


def test_a_short_tables_sheet_says_how_it_counts(director):
    event_url, full, short = short_evening(director)
    csrf = csrf_token(director, event_url)
    director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y"})
    pdf = director.get(f"/t/{short}/sheet.pdf")
    assert pdf.status_code == 200
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert "Locked after hand 6 of 15, prorated" in " ".join(text.split())


def test_a_penalty_is_its_own_entry_with_its_reason_on_the_standings_sheet_and_history_and_can_be_withdrawn(director):
    event_url, full, short = short_evening(director)
    bob_table = next(token for token in (full, short) if "Bob" in seats(director, token))
    number = 1 if bob_table == full else 2
    before, _ = standings_places(director, event_url)
    csrf = csrf_token(director, event_url)
    refused = director.post(
        f"{event_url}/penalties",
        data={
            "csrf_token": csrf,
            "penalty-round": "1",
            "penalty-table": str(number),
            "penalty-player": "Bob",
            "penalty-points": "25",
            "penalty-reason": "",
        },
    )
    assert refused.status_code == 422 and "Say why" in refused.get_data(as_text=True)
    assert 'value="25"' in refused.get_data(as_text=True), "what was typed is kept"
    sent = {
        "csrf_token": csrf,
        "penalty-round": "1",
        "penalty-table": str(number),
        "penalty-player": "Bob",
        "penalty-points": "25",
        "penalty-reason": "a revoke",
    }
    assert director.post(f"{event_url}/penalties", data=sent).status_code == 302
    director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y"})
    _, page = standings_places(director, event_url)
    assert f"penalty +25 in round 1, table {number}: a revoke" in page
    event_page = director.get(event_url).get_data(as_text=True)
    assert f"Penalty +25 to Bob in round 1, table {number}" in event_page
    pdf = director.get(f"/t/{bob_table}/sheet.pdf").data
    text = " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode().split()
    )
    assert f"Penalty +25 to Bob in round 1, table {number}: a revoke" in text
    penalty_id = re.search(r"/penalties/(\d+)/withdraw", event_page).group(1)
    director.post(f"{event_url}/penalties/{penalty_id}/withdraw", data={"csrf_token": csrf})
    _, page = standings_places(director, event_url)
    assert "a revoke" not in page
    history = director.get(event_url).get_data(as_text=True)
    assert f"Penalty withdrawn: +25 to Bob in round 1, table {number} (a revoke)" in history
    assert f"Penalty +25 to Bob in round 1, table {number}" in history, "the history keeps both"


def test_a_withdrawn_player_is_ranked_with_the_rest_by_default_and_says_after_which_round(director):
    form = director.get("/director/events/new").get_data(as_text=True)
    assert re.search(r'<option selected value="with-the-rest">|<option value="with-the-rest" selected>', form)
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    play(director.application.test_client(), token, 15, leftovers=("", "A", "K", "5"))
    csrf = csrf_token(director, event_url)
    ann_seat = seats(director, token).index("Ann")
    withdraw = {"csrf_token": csrf, "withdraw-name": "Ann", "withdraw-from_round": "2", "withdraw-reason": "went home"}
    assert director.post(f"{event_url}/players/withdraw", data=withdraw).status_code == 302
    places, page = standings_places(director, event_url)
    assert "withdrew after round 1" in page
    assert places["Ann"] == 1 + sorted([0, 15, 150, 450]).index([0, 15, 150, 450][ann_seat]), "ranked among the rest"


def test_every_download_of_an_event_is_named_by_the_event_and_its_date(director):
    event_url, full, short = short_evening(director)
    csrf = csrf_token(director, event_url)
    director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y"})
    head = "thursday-club-2026-11-19"
    for path, disposition in [
        ("/export.json", f'attachment; filename="{head}-results.json"'),
        ("/export.csv", f'attachment; filename="{head}-results.csv"'),
        ("/standings.csv", f'attachment; filename="{head}-standings.csv"'),
        ("/standings.pdf", f'inline; filename="{head}-standings.pdf"'),
        ("/standings.pdf?round=1", f'inline; filename="{head}-standings-round-1.pdf"'),
        ("/table-cards.pdf", f'inline; filename="{head}-table-cards-round-1.pdf"'),
        ("/round-sheet.pdf", f'inline; filename="{head}-round-1-seating.pdf"'),
    ]:
        response = director.get(event_url + path)
        assert response.status_code == 200 and response.headers["Content-Disposition"] == disposition, path


def test_the_exports_carry_what_the_evening_held(director):
    event_url, full, short = short_evening(director)
    csrf = csrf_token(director, event_url)
    director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y"})
    director.post(
        f"{event_url}/penalties",
        data={
            "csrf_token": csrf,
            "penalty-round": "1",
            "penalty-table": "1",
            "penalty-player": "",
            "penalty-points": "5",
            "penalty-reason": "a slow table",
        },
    )
    late = {"csrf_token": csrf, "late-name": "Ivy", "late-from_round": "2", "late-reason": ""}
    assert director.post(f"{event_url}/players/late", data=late).status_code == 302
    withdraw = {"csrf_token": csrf, "withdraw-name": "Hal", "withdraw-from_round": "2", "withdraw-reason": ""}
    assert director.post(f"{event_url}/players/withdraw", data=withdraw).status_code == 302
    exported = director.get(event_url + "/export.json").get_json()
    assert exported["missed_round_counts"] == "average" and exported["withdrawn_ranked"] == "with-the-rest"
    players = {p["name"]: p for p in exported["players"]}
    assert players["Ivy"]["arrives"] == 2 and players["Hal"]["withdrawn_from"] == 2
    short_table = next(t for t in exported["tables"] if t["table"] == 2)
    assert short_table["locked_after_hand"] == 6 and short_table["counts_as"] == "prorated"
    assert exported["penalties"] == [
        {
            "round": 1,
            "table": 1,
            "player": None,
            "points": 5,
            "kind": "penalty",
            "reason": "a slow table",
            "given_at": exported["penalties"][0]["given_at"],
        }
    ]
    standings = {row["player"]: row for row in exported["standings"]}
    keeper = seats(director, short)[1]
    assert standings[keeper]["total"] == 904 and "prorated" in standings[keeper]["how"][0]
    assert standings["Hal"]["withdrew"] == "withdrew after round 1"
    rows = list(csv.DictReader(io.StringIO(director.get(event_url + "/standings.csv").get_data(as_text=True))))
    by_name = {row["player"]: row for row in rows}
    assert by_name[keeper]["total"] == "904" and "420 × 71 ÷ 33 cards = 904" in by_name[keeper]["how"]
    assert by_name["Hal"]["withdrew"] == "withdrew after round 1" and by_name["Ivy"]["plays_from_round"] == "2"
    full_keeper = seats(director, full)[1]
    assert by_name[full_keeper]["penalties"] == "5" and "a slow table" in by_name[full_keeper]["how"]
    results = list(csv.DictReader(io.StringIO(director.get(event_url + "/export.csv").get_data(as_text=True))))
    assert {(row["table"], row["locked_after_hand"], row["counts_as"]) for row in results} == {
        ("1", "", ""),
        ("2", "6", "prorated"),
    }


def test_a_penalty_given_after_the_evening_moves_the_clubs_record_of_it(director, app):
    """The club's record keeps each event's standings, derived again only when what they come from moves."""
    from scorekeeper.storage.club_results import bring_up_to_date, record_holds

    event_url, full, short = short_evening(director)
    csrf = csrf_token(director, event_url)
    director.post(f"{event_url}/games/{short}/lock", data={"csrf_token": csrf, "anyway": "y"})
    event_id = int(event_url.rsplit("/", 1)[1])
    db = connect(app.config["DATABASE"])
    try:
        bring_up_to_date(db)
        assert record_holds(db, event_id)
        sent = {
            "csrf_token": csrf,
            "penalty-round": "1",
            "penalty-table": "1",
            "penalty-player": "",
            "penalty-points": "5",
            "penalty-reason": "a slow table",
        }
        assert director.post(f"{event_url}/penalties", data=sent).status_code == 302
        assert not record_holds(db, event_id), "a penalty changes the standings the club keeps"
    finally:
        db.conn.close()
