"""A director's points on a player: called a penalty when they count against the player and an
adjustment when they are in the player's favour (README, "Penalties and adjustments"), the same
on every page, paper and export; and the player looked up as every name of an event is."""

import html
import re
import subprocess

import pytest

from tests.web.test_events import csrf_token, new_event, record_links, seat_next_round
from tests.web.test_results_web import play

FOUR = ["Ann Lee", "Bob Ray", "Cy Dunn", "Di Fox"]


def shown(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def pdf_text(data: bytes) -> str:
    return " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout.decode().split()
    )


def one_finished_table(director):
    event_url = new_event(director, FOUR)
    seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    play(director.application.test_client(), token, 15)
    return event_url, token


def give(director, event_url, player: str, points: int, reason: str):
    data = {
        "csrf_token": csrf_token(director, event_url),
        "penalty-round": "1",
        "penalty-table": "1",
        "penalty-player": player,
        "penalty-points": str(points),
        "penalty-reason": reason,
    }
    return director.post(f"{event_url}/penalties", data=data)


@pytest.mark.parametrize(
    ("points", "lowest_wins", "kind"),
    [(25, True, "penalty"), (-25, True, "adjustment"), (-25, False, "penalty"), (25, False, "adjustment")],
)
def test_points_against_the_player_are_a_penalty_and_in_their_favour_an_adjustment(points, lowest_wins, kind):
    from scorekeeper.tournament.standings import penalty_kind

    assert penalty_kind(points, lowest_wins) == kind


def test_points_in_a_players_favour_are_called_an_adjustment_on_screen_on_paper_and_in_the_exports(director):
    event_url, token = one_finished_table(director)
    assert give(director, event_url, "Bob Ray", 25, "a revoke").status_code == 302
    given = give(director, event_url, "Ann Lee", -10, "a misdeal by the dealer")
    assert given.status_code == 302
    assert "Adjustment given" in shown(director.get(event_url).get_data(as_text=True))
    event_page = shown(director.get(event_url).get_data(as_text=True))
    assert "Adjustment -10 to Ann Lee in round 1, table 1: a misdeal by the dealer" in event_page
    assert "Penalty +25 to Bob Ray in round 1, table 1: a revoke" in event_page
    assert "Penalty -10" not in event_page
    standings = shown(director.get(event_url + "/standings").get_data(as_text=True))
    assert "adjustment -10 in round 1, table 1: a misdeal by the dealer" in standings
    assert "penalty +25 in round 1, table 1: a revoke" in standings and "penalty -10" not in standings
    standings_pdf = pdf_text(director.get(event_url + "/standings.pdf").data)
    assert "adjustment -10 in round 1, table 1: a misdeal by the dealer" in standings_pdf
    assert "penalty -10" not in standings_pdf
    sheet = pdf_text(director.get(f"/t/{token}/sheet.pdf").data)
    assert (
        "Adjustment -10 to Ann Lee in round 1, table 1: a misdeal by the dealer" in sheet and "Penalty -10" not in sheet
    )
    exported = director.get(event_url + "/export.json").get_json()
    assert [(p["points"], p["kind"]) for p in exported["penalties"]] == [(25, "penalty"), (-10, "adjustment")]
    ann = next(row for row in exported["standings"] if row["player"] == "Ann Lee")
    assert "adjustment -10 in round 1, table 1: a misdeal by the dealer" in ann["how"]
    assert "adjustment -10 in round 1, table 1" in director.get(event_url + "/standings.csv").get_data(as_text=True)
    penalty_id = re.findall(r"/penalties/(\d+)/withdraw", director.get(event_url).get_data(as_text=True))[1]
    director.post(f"{event_url}/penalties/{penalty_id}/withdraw", data={"csrf_token": csrf_token(director, event_url)})
    history = shown(director.get(event_url).get_data(as_text=True))
    assert "Adjustment withdrawn: -10 to Ann Lee in round 1, table 1 (a misdeal by the dealer)" in history
    assert "Penalty -10" not in history and "Penalty withdrawn: -10" not in history


def test_the_penalty_forms_player_is_found_in_any_case_and_spacing(director):
    event_url, _ = one_finished_table(director)
    assert give(director, event_url, "  ann   LEE ", 25, "a revoke").status_code == 302
    standings = shown(director.get(event_url + "/standings").get_data(as_text=True))
    assert "penalty +25 in round 1, table 1: a revoke" in standings
    event_page = shown(director.get(event_url).get_data(as_text=True))
    assert "Penalty +25 to Ann Lee in round 1, table 1" in event_page, "kept under the seat's own name"


def test_a_penalty_on_a_name_that_matches_nobody_is_refused_beside_the_field_keeping_what_was_typed(director):
    event_url, _ = one_finished_table(director)
    refused = give(director, event_url, "Ann Leigh", 25, "a revoke")
    assert refused.status_code == 422
    page = html.unescape(refused.get_data(as_text=True))
    block = re.search(r'<div class="field has-error">\s*<label for="penalty-player".*?</div>', page, re.S)
    assert block is not None, "the refusal is beside the player's field"
    assert 'value="Ann Leigh"' in block.group(0), "what was typed is kept"
    assert "Ann Leigh did not play at round 1, table 1: its players are" in block.group(0)
