"""While no round is complete, a provisional row's line about its table says the total it
counts, as its total column does: a short table prorated says "counts 904", never its raw 420
beside a total of 904; a table still playing says its raw total is so far."""

import html
import re

from tests.web.test_events import csrf_token
from tests.web.test_results_web import EIGHT, new_event, play, record_links, seat_next_round


def rows(page: str) -> dict[str, str]:
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        name = html.unescape(re.sub(r"<[^>]+>", " ", cells[1])).split()[0]
        out[name] = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split())
    return out


def test_a_provisional_row_says_the_total_its_short_table_counts(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    playing, short = record_links(director, event_url)
    player = director.application.test_client()
    play(player, short, 6, leftovers=("", "5 6 K", "9 5 K", "6 9 J"))
    play(player, playing, 3)
    director.post(
        f"{event_url}/games/{short}/lock", data={"csrf_token": csrf_token(director, event_url), "anyway": "y"}
    )
    shown = rows(director.get(event_url + "/standings").get_data(as_text=True))
    keeper = next(row for row in shown.values() if "prov." in row and "420 × 71 ÷ 33 cards = 904" in row)
    assert "round 1, table 2: locked after hand 6 of 15, counts 904" in keeper
    assert "closed, 420" not in keeper and ", 420" not in keeper.replace("420 × 71", "")
    still = [row for row in shown.values() if "prov." not in row]
    assert still and all(re.search(r"round 1, table 1: hand 4 of 15, \d+ so far", row) for row in still)
