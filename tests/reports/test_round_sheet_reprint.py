"""A round's sheet printed again after later rounds were seated shows no plan figures of today
under its old heading (the plan is planned again as the evening goes): it says where the
plan as it stands is printed; the latest round's sheet keeps them."""

import subprocess

from tests.web.test_event_planning_web import post
from tests.web.test_events import new_event, planned_page, seat_next_round

TWELVE = [f"Player {n:02}" for n in range(1, 13)]


def text(body: bytes) -> str:
    return " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=body, capture_output=True, check=True).stdout.decode().split()
    )


def test_an_old_rounds_reprint_leaves_off_todays_plan_figures(director):
    event_url = new_event(director, TWELVE, rounds="4")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    first = text(director.get(event_url + "/round-sheet.pdf?round=1").data)
    assert "The event's plan" in first and "Most times two players meet" in first
    assert (
        post(director, event_url, "/players/late", **{"late-name": "Late Lou", "late-from_round": "2"}).status_code
        == 302
    )
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    again = text(director.get(event_url + "/round-sheet.pdf?round=1").data)
    assert "round 1" in again and "Player 01" in again
    assert (
        "The event's plan" not in again
        and "Most times two players meet" not in again
        and "Repeated meetings" not in again
    )
    assert "Reprinted after round 2 was seated: the event's plan, as it stands now, is on round 2's sheet." in again
    latest = text(director.get(event_url + "/round-sheet.pdf?round=2").data)
    assert "The event's plan" in latest and "Most times two players meet" in latest and "Reprinted" not in latest
