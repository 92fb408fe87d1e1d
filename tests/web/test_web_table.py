"""At the table, through the record link: every action, every refusal, CSRF on."""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.web import Table, csrf_token, landing, start

FOUR = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture
def table(client) -> Table:
    return start(client, FOUR, partnerships="y")


def play_hand(table: Table, hand: int, leftovers: list[str]) -> None:
    for seat, cards in enumerate(leftovers):
        response = table.leftovers(hand, seat, cards, went_out=(cards == ""))
        assert response.status_code == 302, response.get_data(as_text=True)


def scores(table: Table) -> dict:
    record = table.client.get(f"{table.base}/export.json").get_json()
    script = Path(sys.executable).parent / "scorekeeper"
    # A file of this test's own: the instance folder may be shared by the suite's workers.
    with tempfile.TemporaryDirectory(prefix="scorekeeper-replay-") as folder:
        path = Path(folder) / "export-for-replay.json"
        path.write_text(json.dumps(record))
        result = subprocess.run([str(script), "replay", "--json", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_hand_page_shows_deal_dealer_and_first_player(table):
    page = table.page("/")
    assert "Hand 1" in page and "8 cards each" in page
    deal = re.search(r'<p class="deal">(.*?)</p>', page, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", deal) == "Dealer: Ann · Bob plays first"


def test_a_pressure_is_recorded_at_once_with_its_cost_and_the_next(table):
    response = table.pressure("Bob", 1)
    assert response.status_code == 302
    page = table.follow(response)
    assert "Pressure to Bob: 5. Bob &amp; Di&#39;s next costs 10." in page
    assert "Pressure to Bob: 5" not in table.page("/"), "shown once: not on the page without the confirmation"
    table.pressure("Di", 1)
    page = table.page("/")
    assert "next: <strong>20</strong>" in page


def test_a_capped_game_shows_capped_next_pressures(client):
    table = start(client, ["Ann", "Bob"], option_pressure_increase_cap="20")
    for _ in range(4):
        table.pressure("Ann", 1, again="1")
    assert "next: <strong>60</strong>" in table.page("/")


def test_a_doubled_submission_is_recorded_once(table):
    first = table.pressure("Bob", 1, idem="same-key")
    again = table.pressure("Bob", 1, idem="same-key")
    assert first.status_code == again.status_code == 302
    assert table.page("/").count("Pressure: <strong>Bob</strong>") == 1


def test_the_same_key_for_a_different_change_is_refused(table):
    table.pressure("Bob", 1, idem="key-1")
    table.pressure("Cy", 1, idem="key-1")
    page = table.page("/")
    assert "already used for a different change" in page
    assert "Pressure: <strong>Cy</strong>" not in page


def test_a_pressure_to_figgy_is_refused_with_the_rule(client):
    table = start(client, ["Ann", "Figgy", "Bob"], rules="crates-world-series")
    table.pressure("Figgy", 1)
    page = table.page("/").replace("&#39;", "'")
    assert "Figgy never takes a pressure: it goes to the next player to play" in page


def test_shuffle_pressure_with_empty_piles_goes_straight_to_the_leftovers(table):
    response = table.pressure("Cy", 1, ends_hand="y")
    assert landing(response).endswith(f"{table.base}/hand/1/seat/0")


def test_leftovers_entered_one_by_one_complete_the_hand(table):
    response = table.leftovers(1, 0, "A 2 3 3 6 8 K")
    assert landing(response).endswith("/hand/1/seat/1")
    assert "Ann&#39;s leftovers saved (67)" in table.follow(response)
    table.leftovers(1, 1, went_out=True)
    table.leftovers(1, 2, "3 3 8")
    response = table.leftovers(1, 3, "K 10h")
    assert landing(response).endswith(f"{table.base}/")
    page = table.follow(response)
    assert "Hand 2" in page and "7 cards each" in page
    assert "Hand 1 is complete: Ann &amp; Cy 120, Bob &amp; Di 35" in page


@pytest.mark.parametrize(
    "cards, went_out, error",
    [
        ("", False, "Tap the cards left in the hand, or OUT"),
        ("K", True, "Either tap the cards left or OUT, not both"),
        ("K Z", False, "Unknown card &#39;Z&#39;"),
        ("JK", False, "Ann has a joker, but jokers are off"),
        ("8 8 8 8 8", False, "5 × 8 in the leftovers, but one deck has only 4"),
    ],
)
def test_refused_leftovers_show_the_error_and_keep_the_cards(table, cards, went_out, error):
    response = table.leftovers(1, 0, cards, went_out=went_out)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error in page
    if cards:
        assert f'value="{cards}"' in page


def test_a_deck_limit_across_players_names_who_to_check(table):
    table.leftovers(1, 0, "K K K")
    response = table.leftovers(1, 1, "K K")
    assert response.status_code == 422
    assert "Check Ann&#39;s and Bob&#39;s cards" in response.get_data(as_text=True)


def test_two_phones_entering_the_same_player_get_a_conflict_not_an_overwrite(table, app):
    other = Table(app.test_client(), table.token)
    form_page = other.client.get(f"{table.base}/hand/1/seat/0")
    assert form_page.status_code == 200
    table.leftovers(1, 0, "K")
    response = other.leftovers(1, 0, "Q Q")
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Now recorded for Ann: <strong>K</strong>" in page
    assert 'value="Q Q"' in page
    replaces = re.search(r'name="replaces" type="hidden" value="(\d+)"', page).group(1)
    response = other.leftovers(1, 0, "Q Q", replaces=replaces)
    assert response.status_code == 302
    assert "(Q Q)" not in table.page("/history") or "K → Q Q" in table.page("/history")
    assert re.search(r"<del>K</del> → <ins>Q Q</ins>", table.page("/history"))


def test_a_saved_hand_is_corrected_from_its_row_and_the_history_keeps_both(table):
    play_hand(table, 1, ["K", "", "Q", "J"])
    before = scores(table)
    page = table.page("/hand/1/seat/2")
    assert 'value="Q"' in page
    replaces = re.search(r'name="replaces" type="hidden" value="(\d+)"', page).group(1)
    response = table.leftovers(1, 2, "8", replaces=replaces)
    assert response.status_code == 302 and landing(response).endswith("/hand/1")
    after = scores(table)
    assert before["sides"][0]["total"] == 20 and after["sides"][0]["total"] == 60
    history = table.page("/history")
    assert "Hand 1 · Cy&#39;s leftovers corrected" in history
    assert "<del>Q</del> → <ins>8</ins>" in history
    assert "· phone 1 ·" in history


def test_undo_right_after_a_save(table):
    table.pressure("Bob", 1)
    page = table.page("/")
    target = re.search(r'name="target" value="(\d+)"', page).group(1)
    undone = table.post("/undo", target=target)
    page = table.client.get(undone.headers["Location"]).get_data(as_text=True)
    assert "Undone: Hand 1 · pressure (Bob)" in page
    assert "Pressure: <strong>Bob</strong>" not in page
    table.post("/undo", target=target)
    assert "already undone" in table.page("/")


def test_undoing_a_correction_brings_back_the_value_it_replaced(table):
    play_hand(table, 1, ["K", "", "Q", "J"])
    replaces = re.search(r'name="replaces" type="hidden" value="(\d+)"', table.page("/hand/1/seat/0")).group(1)
    saved = table.leftovers(1, 0, "8", replaces=replaces)
    correction = re.search(r'name="target" value="(\d+)"', table.follow(saved)).group(1)
    table.post("/undo", target=correction)
    assert scores(table)["sides"][0]["total"] == 20


def test_a_ruling_note_is_kept_beside_the_hand(table):
    table.post("/note", hand=1, text="A 7 played out of turn stands.")
    assert "A 7 played out of turn stands." in table.page("/")
    play_hand(table, 1, ["K", "", "Q", "J"])
    assert "A 7 played out of turn stands." in table.page("/hand/1")
    assert "✎" in table.page("/scores")


def test_an_empty_note_is_refused_beside_the_field(table):
    response = table.post("/note", hand=1, text="   ")
    assert response.status_code == 422
    assert "Write the ruling first." in response.get_data(as_text=True)


def test_one_card_reminders_last_until_the_hand_ends(table):
    table.post("/one-card", hand=1, player="Cy", owes="1")
    assert "Cy · owes 2" in re.sub(r"<[^>]+>", "", table.page("/"))
    play_hand(table, 1, ["K", "", "Q", "J"])
    assert "owes 2" not in table.page("/")


def test_scores_match_the_replay_of_the_export(table):
    table.pressure("Bob", 1)
    play_hand(table, 1, ["A 2 3 3 6 8 K", "", "3 3 8", "K 10h"])
    table.pressure("Ann", 2)
    table.pressure("Cy", 2)
    play_hand(table, 2, ["", "5", "3", "3 3"])
    replay = scores(table)
    page = table.page("/scores")
    for side in replay["sides"]:
        assert f'<td class="num big">{side["total"]}</td>' in page
    # Hand 1: Ann 67 + Cy 53; Di 35 + Bob's pressure 5. Hand 2: Cy's lone three is
    # "only threes" (-50), Ann & Cy's pressures 5 + 10; Bob's 5 is 30, Di's two threes -100.
    assert [side["total"] for side in replay["sides"]] == [67 + 53 - 50 + 15, 35 + 5 + 30 - 100]


def test_a_whole_game_ends_with_final_standings(client):
    table = start(client, ["Ann", "Bob"])
    for hand in range(1, 16):
        play_hand(table, hand, ["", "A"])
    response = client.get(f"{table.base}/")
    assert response.status_code == 302 and landing(response).endswith("/scores")
    page = table.page("/scores")
    assert "Final standings" in page
    assert re.search(
        r'<span class="place">1</span> <span class="name">Ann</span> <span class="num big">0</span>',
        page,
    )
    assert re.search(
        r'<span class="place">2</span> <span class="name">Bob</span> <span class="num big">15</span>',
        page,
    )
    assert client.get(f"{table.base}/hand/16/seat/0").status_code == 302  # there is no hand 16


def test_the_preview_scores_live_with_the_covering(table):
    data = table.client.get(f"{table.base}/preview?cards=A+2+3+3+6+8+K").get_json()
    assert data["total"] == 67 and data["covering"] == "3→6 3→2"
    assert "error" in table.client.get(f"{table.base}/preview?cards=Z").get_json()


def test_export_import_round_trip_replays_to_the_same_totals(table, client):
    table.pressure("Bob", 1)
    play_hand(table, 1, ["A 2 3 3 6 8 K", "", "3 3 8", "K 10h"])
    table.post("/note", hand=2, text="Misdeal redealt.")
    table.pressure("Di", 2)
    original = scores(table)
    record = client.get(f"{table.base}/export.json").get_data(as_text=True)
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "text": record})
    assert response.status_code == 302
    imported = Table(client, response.headers["Location"].split("/t/")[1].split("/")[0])
    assert imported.token != table.token
    assert scores(imported)["sides"] == original["sides"]
    page = imported.page("/")
    assert "Misdeal redealt." in page and "Pressure: <strong>Di</strong>" in page


@pytest.mark.parametrize(
    "text, error",
    [
        ("{broken", "Not JSON"),
        ('{"format": "x"}', "Unknown format"),
        ("[]", "must be a JSON object"),
    ],
)
def test_a_bad_import_is_refused_and_creates_nothing(client, text, error):
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "text": text})
    assert response.status_code == 422
    assert error in response.get_data(as_text=True)


OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}


def save_hand(table: Table, hand: int, idem: str, entries: dict[int, str], **extra: str):
    """One phone's single save of several players' leftovers, as the pad sends it ("" = went out)."""
    data: dict[str, str] = {"seats": ",".join(str(seat) for seat in entries), "idem": idem}
    for seat, cards in entries.items():
        data.update({f"cards-{seat}": cards, f"out-{seat}": "" if cards else "y", f"replaces-{seat}": ""})
    data.update(extra)
    token = csrf_token(table.client, f"{table.base}/hand/{hand}/seat/0")
    return table.client.post(f"{table.base}/hand/{hand}/leftovers", data={"csrf_token": token, **data}, headers=OUTBOX)


def test_end_hand_opens_the_first_seat_still_missing(table):
    assert f'href="{table.base}/hand/1/seat/0"><span>END HAND' in table.page()
    table.leftovers(1, 0, "K")
    table.leftovers(1, 2, "Q")
    assert f'href="{table.base}/hand/1/seat/1"><span>END HAND' in table.page()
    response = table.pressure("Bob", 1, ends_hand="y")
    assert landing(response).endswith("/hand/1/seat/1")


def test_one_save_of_a_whole_hand_gives_every_player_an_entry_of_their_own_once(table):
    response = save_hand(table, 1, "k1", {0: "K 3 8", 1: "", 2: "A 2", 3: "Q Q 9 4"})
    data = response.get_json()
    assert response.status_code == 200 and data["ok"], data
    assert "Hand 1 is complete" in data["message"] and data["version"] == 4
    again = save_hand(table, 1, "k1", {0: "K 3 8", 1: "", 2: "A 2", 3: "Q Q 9 4"}).get_json()
    assert again["ok"] and again["version"] == 4  # a retried save is recorded once
    history = table.page("/history")
    for player in ("Ann", "Bob", "Cy", "Di"):
        assert f"Hand 1 · {player}&#39;s leftovers" in history


def test_a_refused_whole_hand_names_the_player_keeps_nothing_and_says_which_seat(table):
    response = save_hand(table, 1, "k1", {0: "K K K", 2: "K K", 3: "Q"})
    data = response.get_json()
    assert response.status_code == 422
    assert data["seat"] == 2 and data["error"].startswith("Cy: ")
    assert "5 × K in the leftovers" in data["error"]
    assert "leftovers" not in table.page("/history")  # not even Ann's, which alone was fine

    response = save_hand(table, 1, "k2", {0: "K", 1: "Z"})
    data = response.get_json()
    assert response.status_code == 422 and data["seat"] == 1 and data["error"].startswith("Bob: ")


def test_a_whole_hand_save_meeting_another_phones_entry_is_a_conflict_with_both(table):
    table.leftovers(1, 1, "9")
    response = save_hand(table, 1, "k1", {0: "K", 1: "4"})
    data = response.get_json()
    assert response.status_code == 409
    assert data["seat"] == 1 and data["current"]["cards"] == ["9"]
    assert "Ann&#39;s leftovers" not in table.page("/history")


def test_a_whole_hand_save_meeting_several_players_entries_names_every_one_and_keeps_nothing(table):
    """Seen in a fresh-clone check: phone X saved the whole hand while phone Y had saved Ann and Cy;
    X's refusal named Ann alone, so X could not see (nor keep) its entry for Cy."""
    table.leftovers(1, 0, "9")
    table.leftovers(1, 2, "Q 3")
    response = save_hand(table, 1, "x", {0: "K", 1: "4", 2: "2", 3: "J"})
    data = response.get_json()
    assert response.status_code == 409
    assert [(c["seat"], c["player"], c["cards"]) for c in data["conflicts"]] == [
        (0, "Ann", ["9"]),
        (2, "Cy", ["Q", "3"]),
    ]
    assert data["seat"] == 0 and data["current"]["cards"] == ["9"]  # where the pad opens, as before
    assert "Ann's and Cy's leftovers were entered meanwhile" in data["error"]
    assert "Ann: 9" in data["error"] and "Cy: Q 3" in data["error"]
    history = table.page("/history")
    assert "Bob&#39;s leftovers" not in history and "Di&#39;s leftovers" not in history  # none of the save

    # Re-applied, replacing both: every entry this phone sent stands.
    replaces = {f"replaces-{c['seat']}": str(c["entry"]) for c in data["conflicts"]}
    again = save_hand(table, 1, "x2", {0: "K", 1: "4", 2: "2", 3: "J"}, **replaces)
    assert again.status_code == 200, again.get_json()
    record = table.client.get(f"{table.base}/export.json").get_json()
    assert record["hands"][0]["leftovers"] == {"Ann": ["K"], "Bob": ["4"], "Cy": ["2"], "Di": ["J"]}


def test_a_single_players_conflict_in_a_whole_hand_is_listed_as_one(table):
    table.leftovers(1, 3, "7")
    data = save_hand(table, 1, "x", {0: "K", 3: "J"}).get_json()
    assert [(c["seat"], c["player"], c["cards"]) for c in data["conflicts"]] == [(3, "Di", ["7"])]
    assert data["error"].startswith("Di's leftovers for hand 1 were entered meanwhile (7)")


def test_a_whole_hand_meeting_a_conflict_and_a_referees_refusal_is_answered_with_the_conflict_first(table):
    """Which of the two stands depends on the conflict: it is settled first (the other comes with the next save)."""
    table.leftovers(1, 0, "9")
    table.leftovers(1, 2, "Q")
    response = save_hand(table, 1, "x", {0: "K", 1: "K K K K K", 2: "2"})
    assert response.status_code == 409
    assert [c["player"] for c in response.get_json()["conflicts"]] == ["Ann", "Cy"]


def test_in_the_250_game_every_rank_waits_for_its_suit_on_the_pad(client):
    table = start(client, ["Ann", "Bob"], rules="two-fifty")
    assert 'data-suit-ranks="all"' in table.page("/hand/1/seat/0")


def test_every_page_of_a_game_is_titled_by_the_page_and_the_game(client):
    table = start(client, FOUR, title="Friday at Ann's")
    play_hand(table, 1, ["K 5", "", "3 9", "Q"])
    titles = {
        path: re.search(r"<title>(.*?)</title>", table.page(path), re.S).group(1)
        for path in ("/", "/scores", "/history", "/hand/1", "/share")
    }
    assert titles == {
        "/": "Hand 2 · Friday at Ann&#39;s",
        "/scores": "Scores · Friday at Ann&#39;s",
        "/history": "History · Friday at Ann&#39;s",
        "/hand/1": "Hand 1 · Friday at Ann&#39;s",
        "/share": "Share · Friday at Ann&#39;s",
    }


def test_the_phone_saves_its_game_under_the_name_of_the_servers_export(table):
    """What the phone's "Save this game" writes is named as the server's download of the record."""
    export = table.client.get(f"{table.base}/export.json")
    named = re.search(r'filename="([^"]+)"', export.headers["Content-Disposition"]).group(1)
    assert table.client.get(f"{table.base}/copy.json").get_json()["file_name"] == named
