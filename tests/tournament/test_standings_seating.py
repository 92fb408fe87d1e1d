"""Seating a round by the standings so far, as Swiss and "top table" events do: leaders
together, repeats still avoided as far as they can be; said on the event page, its history and
the round sheet."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.storage.database import connect
from scorekeeper.storage.event_results import event_standings
from scorekeeper.storage.events import get_event
from scorekeeper.tournament.seating import (
    STANDINGS_WINDOW,
    SeatingError,
    meeting_again,
    meetings,
    seat_by_standings,
    table_sizes,
)
from tests.support.web import Table, csrf_token
from tests.web.test_event_planning_web import history_lines, post, proposal_in
from tests.web.test_events import new_event, planned_page, record_links, seat_next_round, set_up_director

RANKED = [f"P{n}" for n in range(1, 14)]


def test_without_earlier_meetings_the_tables_are_the_standings_in_order_leaders_at_table_one():
    assert seat_by_standings(RANKED) == [RANKED[0:4], RANKED[4:8], RANKED[8:13]]
    assert seat_by_standings(RANKED, sizes=table_sizes(13, odd="threes")) == [
        RANKED[0:4],
        *(RANKED[i : i + 3] for i in (4, 7, 10)),
    ]


def test_leaders_who_met_already_are_kept_apart_as_far_as_the_standings_allow():
    played = [[["P1", "P2", "P3", "P4"], ["P5", "P6", "P7", "P8"], ["P9", "P10", "P11", "P12", "P13"]]]
    tables = seat_by_standings(RANKED, played)
    assert tables[0][0] == "P1", "the leader at the top table, in seat 1"
    assert set(tables[0]) <= set(RANKED[: 4 + STANDINGS_WINDOW]), "the top table from near the top"
    opponents, _ = meetings(played)
    plain = [RANKED[0:4], RANKED[4:8], RANKED[8:13]]

    def repeats(tables):
        return sum(opponents[frozenset(pair)] for table in tables for pair in itertools.combinations(table, 2))

    assert repeats(tables) < repeats(plain) == 6 + 6 + 10, "plain slices: every pair met again"
    assert repeats(tables[:1]) < repeats(plain[:1])


def test_a_seat_goes_to_two_second_meetings_before_one_third():
    """Seen at an evening: Jo (4th) met Flo (14th) a third time at table 3, where a player who had
    met two of the table once each could take the seat; the most times any two meet comes first."""
    played = [
        [["P6", "P7", "P8", "P5"], ["P4", "P1", "P3", "P2"]],
        [["P3", "P5", "P2", "P6"], ["P7", "P8", "P1", "P4"]],
    ]
    ranked = [f"P{n}" for n in range(1, 9)]
    # Table 1 holds P1 and P5; P4 has met only P1 (twice), P2 has met each once: P2 sits, not P4.
    tables = seat_by_standings(ranked, played)
    assert tables[0][:3] == ["P1", "P5", "P2"], tables
    assert meeting_again(tables, played) == []


@settings(max_examples=60, deadline=None)
@given(count=st.integers(6, 30), seed=st.randoms(use_true_random=False), rounds=st.integers(0, 3))
def test_everyone_is_seated_once_at_the_rounds_tables_each_near_their_place(count, seed, rounds):
    ranked = [f"P{n}" for n in range(count)]
    played = []
    for _ in range(rounds):
        order = ranked[:]
        seed.shuffle(order)
        sizes, start, tables = table_sizes(count), 0, []
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        played.append(tables)
    tables = seat_by_standings(ranked, played)
    assert sorted(name for table in tables for name in table) == sorted(ranked)
    assert sorted(map(len, tables)) == sorted(table_sizes(count))
    assert tables[0][0] == ranked[0]
    place = {name: i for i, name in enumerate(ranked)}
    for table in tables:
        assert place[table[0]] == min(place[name] for name in table), "each table headed by its best placed"
    firsts = [place[table[0]] for table in tables]
    assert firsts == sorted(firsts), "the tables in standings order"


def test_a_count_that_does_not_fill_the_tables_is_refused():
    with pytest.raises(SeatingError, match="do not fill"):
        seat_by_standings(RANKED, sizes=[4, 4, 4])


# -- On the event page ---------------------------------------------------------------------------


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


THIRTEEN = [f"Player {n:02}" for n in range(1, 14)]


def finish_round(director, event_url, tables):
    """One hand at every table, each table's first player going out, then the table locked."""
    for token, table in zip(record_links(director, event_url), tables, strict=False):
        game = Table(director, token)
        game.leftovers(1, 0, went_out=True)
        for seat in range(1, len(table)):
            game.leftovers(1, seat, "K" * min(seat, 3))
        assert post(director, event_url, f"/games/{token}/lock", anyway="y").status_code == 302


def test_the_director_seats_a_round_by_the_standings_and_the_history_and_round_sheet_say_so(director, app, tmp_path):
    from tests.support import paper

    event_url = new_event(director, THIRTEEN, rounds="3")
    planned_page(director, event_url)
    first = seat_next_round(director, event_url)
    finish_round(director, event_url, first)
    response = post(director, event_url, "/rounds", number="2", tables="", by_standings="y")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "By the standings after round 1" in page
    proposal = [line.split(", ") for line in proposal_in(page).splitlines()]
    db = connect(app.config["DATABASE"])
    try:
        event = get_event(db, int(event_url.rstrip("/").rsplit("/", 1)[1]))
        ranked = [row.name for row in event_standings(db, event)]
    finally:
        db.conn.close()
    assert proposal == seat_by_standings(ranked, [first]), "the standings as the standings page ranks them"
    assert proposal[0][0] == ranked[0]
    assert set(proposal[0]) <= set(ranked[: 4 + STANDINGS_WINDOW])
    words = re.search(r'name="seated_by" value="([^"]+)"', page).group(1)
    assert words == "the standings after round 1"
    tables = "\n".join(map(", ".join, proposal))
    assert post(director, event_url, "/rounds", number="2", tables=tables, seated_by=words).status_code == 302
    page = planned_page(director, event_url)
    assert history_lines(page)[0].endswith("Round 2 seated by the standings after round 1")
    assert not any("seated by hand" in line for line in history_lines(page))
    text = paper.squeezed(
        " ".join(p.text() for p in paper.pages(director.get(event_url + "/round-sheet.pdf").data, tmp_path))
    )
    assert paper.squeezed("Seated by the standings after round 1 (leaders together at table 1).") in text
    assert paper.squeezed("Seated by hand") not in text


def test_a_proposal_by_the_standings_edited_is_seated_by_hand(director):
    event_url = new_event(director, THIRTEEN, rounds="3")
    planned_page(director, event_url)
    first = seat_next_round(director, event_url)
    finish_round(director, event_url, first)
    page = post(director, event_url, "/rounds", number="2", tables="", by_standings="y").get_data(as_text=True)
    tables = [line.split(", ") for line in proposal_in(page).splitlines()]
    tables[0][1], tables[1][1] = tables[1][1], tables[0][1]
    sent = post(
        director,
        event_url,
        "/rounds",
        number="2",
        tables="\n".join(map(", ".join, tables)),
        seated_by="the standings after round 1",
    )
    assert sent.status_code == 302
    lines = history_lines(planned_page(director, event_url))
    assert not any("seated by the standings" in line for line in lines)


def test_before_any_round_is_complete_there_are_no_standings_to_seat_by(director):
    event_url = new_event(director, THIRTEEN, rounds="3")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    response = post(director, event_url, "/rounds", number="2", tables="", by_standings="y")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "No round is complete yet: there are no standings to seat by." in page
    assert csrf_token(director, event_url)


def test_meeting_again_names_each_pair_a_round_would_seat_together_more_than_twice():
    previous = [[["A", "B", "C", "D"], ["E", "F", "G", "H"]]] * 2
    assert meeting_again([["A", "B", "E", "F"], ["C", "D", "G", "H"]], previous) == [
        ("A", "B", 3),
        ("E", "F", 3),
        ("C", "D", 3),
        ("G", "H", 3),
    ]
    assert meeting_again([["A", "E", "B", "F"]], previous[:1]) == []


def test_a_proposal_that_seats_two_players_together_a_third_time_says_so_before_it_is_seated(director):
    """Seen on a director's evening: the proposal for round 4 put two players together a third
    time while the page still said nobody meets more than twice."""
    eight = THIRTEEN[:8]
    event_url = new_event(director, eight, rounds="3")
    planned_page(director, event_url)
    same = [eight[:4], eight[4:]]
    for number in (1, 2):
        written = "\n".join(map(", ".join, same))
        assert post(director, event_url, "/rounds", number=str(number), tables=written, anyway="y").status_code == 302
        finish_round(director, event_url, same if number == 1 else same + same)
    page = post(director, event_url, "/rounds", number="3", tables="", by_standings="y").get_data(as_text=True)
    assert "This proposal seats players together again:" in page and "(3rd time)" in page
