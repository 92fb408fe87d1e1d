"""The event page shows the whole event's plan, made once per change outside the request."""

from __future__ import annotations

import re

import pytest

from scorekeeper.storage.database import connect

from .test_events import new_event, planned_page, seat_next_round, set_up_director
from .web import csrf_token

SIXTEEN = [f"Player {n:02}" for n in range(1, 17)]


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


def planning_mark(app, event_url):
    event_id = int(event_url.rstrip("/").rsplit("/", 1)[1])
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("SELECT planning_since, plan FROM events WHERE id = ?", [event_id]).fetchone()
    finally:
        db.conn.close()


def test_an_event_of_sixteen_for_five_rounds_is_planned_whole_and_shows_its_quality(director, app):
    event_url = new_event(director, SIXTEEN, rounds="5")
    page = planned_page(director, event_url)
    assert "Repeated meetings: 0 (no plan can have fewer than 0)" in page
    assert "From the stored schedule: the affine plane of order 4." in page
    assert page.count("<h3>Round ") == 5, "every round still to play is shown"
    seen: set[frozenset[str]] = set()
    for number in range(1, 6):
        tables = seat_next_round(director, event_url)
        for table in tables:
            for pair in ({a, b} for i, a in enumerate(table) for b in table[i + 1 :]):
                assert frozenset(pair) not in seen, f"round {number}: {pair} meet again"
                seen.add(frozenset(pair))
    assert len(seen) == 5 * 4 * 6


def test_views_do_not_plan_again_and_a_round_seated_as_planned_keeps_the_plan(director, app):
    event_url = new_event(director, SIXTEEN, rounds="5")
    planned_page(director, event_url)
    _, plan = planning_mark(app, event_url)
    for _ in range(5):
        director.get(event_url)
        since, again = planning_mark(app, event_url)
        assert since is None and again == plan, "a view neither plans nor changes the plan"
    seat_next_round(director, event_url)
    director.get(event_url)
    since, after = planning_mark(app, event_url)
    assert since is None and after == plan, "seated as planned: the plan stands"


def test_a_round_seated_by_hand_makes_a_new_plan_from_it(director, app):
    event_url = new_event(director, SIXTEEN, rounds="4")
    page = planned_page(director, event_url)
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    by_hand = "\n".join(", ".join(SIXTEEN[i : i + 4]) for i in range(0, 16, 4))
    response = director.post(
        event_url + "/rounds", data={"csrf_token": csrf_token(director, event_url), "number": number, "tables": by_hand}
    )
    assert response.status_code == 302
    page = planned_page(director, event_url)
    assert "Repeated meetings: 0" in page, "the rest planned around the round seated by hand"
    proposal = re.search(r'<textarea[^>]*name="tables"[^>]*>\s*(.*?)</textarea>', page, re.S).group(1)
    for line in proposal.strip().splitlines():
        seats = line.split(", ")
        assert not any(set(seats) >= set(SIXTEEN[i : i + 2]) for i in range(0, 16, 4))


def test_an_event_without_rounds_plans_the_next_round_as_before(director):
    event_url = new_event(director, SIXTEEN)
    page = planned_page(director, event_url)
    assert page.count("<h3>Round ") == 1
    assert len(seat_next_round(director, event_url)) == 4
