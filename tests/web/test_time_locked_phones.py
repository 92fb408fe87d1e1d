"""What a table's phones show once the round's clock locked it at time: that time was called and
how the table counts (the treatment its lock stored), no next hand to play, and what the event's
standings make of the totals shown."""

import html
import re

from tests.web.test_evening import EIGHT, history, phone, play_hand, press, time_up
from tests.web.test_events import new_event, record_links, seat_next_round


def shown(page: str) -> str:
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


def test_a_table_locked_at_time_says_time_was_called_and_how_it_counts(director):
    from scorekeeper.storage.evening import settle_due

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    _, between = record_links(director, event_url)
    table = phone(director, between)
    play_hand(table, 1)
    time_up(director, event_url)
    assert settle_due(director.db) == 2, "both tables: the other before its first hand"
    assert "Round 1, table 2 locked at time, as it stood after hand 1 of 15, prorated" in history(director, event_url)
    page = shown(table.page("/"))
    assert "Time was called: this table is locked as it stood after hand 1 of 15 (counted prorated)." in page
    assert "Locked by the director" not in page
    assert "Hand 2" not in page and "cards each" not in page and "plays first" not in page, "no next hand to play"
    assert "Locked after hand 1 of 15" in page
    assert "In the event's standings." in page and "each player's points × 71 ÷ 8 cards" in page
    assert re.search(r"Ann 10 → 89\b", page), "the figure the event counts beside the raw total"


def test_a_table_the_director_locks_still_says_the_director_locked_it(director):
    event_url = new_event(director, EIGHT[:4])
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    table = phone(director, token)
    play_hand(table, 1)
    press(director, event_url, f"/games/{token}/lock", anyway="y", treatment="missed")
    page = shown(table.page("/"))
    assert "Locked by the director." in page and "Time was called" not in page
    assert "Locked after hand 1 of 15" in page and "Hand 2" not in page
    assert "counted as missed" in page


def test_a_game_played_to_a_score_locked_at_time_says_it_counts_as_missed(director):
    """Such a game has no length to prorate to: its short table counts as missed (README)."""
    from scorekeeper.storage.evening import settle_due

    event_url = new_event(director, EIGHT[:4], rules="crazy-eights")
    seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    table = phone(director, token)
    play_hand(table, 1)
    time_up(director, event_url)
    assert settle_due(director.db) == 1
    page = shown(table.page("/"))
    assert "Time was called: this table is locked as it stood after hand 1 (counted as missed)." in page
    assert "counted as missed: its players have the event's rule for a missed round" in page
