"""A late player asked into the round as it happens is refused (a seated round takes no one new)
with the way in: added from the next round, then given a no-show's seat."""

import html
import re

from tests.web.test_evening import EIGHT, press
from tests.web.test_events import new_event, seat_next_round


def test_a_late_player_for_the_round_in_play_is_told_of_a_no_shows_seat(director):
    event_url = new_event(director, EIGHT, rounds="3")
    seat_next_round(director, event_url)
    refused = press(
        director, event_url, "/players/late", **{"late-name": "Ivy", "late-from_round": "1", "late-reason": ""}
    )
    assert refused.status_code == 422
    page = html.unescape(refused.get_data(as_text=True))
    block = re.search(r'<div class="field has-error">\s*<label for="late-from_round".*?</div>', page, re.S)
    assert block is not None, "beside the round"
    assert (
        "Round 1 is seated already: the first round still to seat is 2. To have them play in round 1, add them from "
        "round 2, then give them a no-show's seat: Round 1 as it happens, A player did not come, Plays in their seat."
    ) in block.group(0)
    assert 'value="Ivy"' in page, "what was typed is kept"
    assert "Round 1 as it happens" in page and "A player did not come" in page and "Plays in their seat" in page


def test_the_way_in_is_not_offered_where_no_round_is_left_to_add_them_from(director):
    event_url = new_event(director, EIGHT[:4], rounds="1")
    seat_next_round(director, event_url)
    refused = press(
        director, event_url, "/players/late", **{"late-name": "Ivy", "late-from_round": "1", "late-reason": ""}
    )
    page = html.unescape(refused.get_data(as_text=True))
    assert refused.status_code == 422 and "Round 1 is seated already" in page and "no-show's seat" not in page
