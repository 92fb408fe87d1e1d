"""The event page's header and the standings' count the same players: everyone the event has
had (each a line of the standings), saying how many of them withdrew."""

import html
import re

from tests.web.test_events import csrf_token, new_event, seat_next_round

EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_event_page_and_the_standings_say_how_many_players_withdrew(director):
    event_url = new_event(director, EIGHT)
    assert re.search(r"everyone plays alone · 8 players(?! \()", text(director.get(event_url).get_data(as_text=True)))
    seat_next_round(director, event_url)
    withdraw = {
        "csrf_token": csrf_token(director, event_url),
        "withdraw-name": "Hal",
        "withdraw-from_round": "2",
        "withdraw-reason": "",
    }
    assert director.post(f"{event_url}/players/withdraw", data=withdraw).status_code == 302
    event_page = text(director.get(event_url).get_data(as_text=True))
    assert "everyone plays alone · 8 players (1 withdrawn)" in event_page
    standings = text(director.get(event_url + "/standings").get_data(as_text=True))
    assert "8 players (1 withdrawn) · ranked by" in standings
