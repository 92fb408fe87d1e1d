"""A big event's pages do a bounded amount of work whatever its size: the director's event page
reads the database in a number of statements that does not grow with its tables, and folds no
game's log again while the game has not moved (issue 30: 300 players, 75 tables a round)."""

from __future__ import annotations

import time

import pytest
from jinja2 import Template

from scorekeeper.gamelog import LEFTOVERS, PRESSURE, Change, TableState
from scorekeeper.storage import events as event_store
from scorekeeper.storage import games as game_store
from scorekeeper.storage.events import EventPlayer
from scorekeeper.tournament.seating import seat_round
from scorekeeper.web import connection


def seat_an_event(db, players: int, rounds: int = 1, begun: bool = True) -> int:
    """An event of ``players`` with ``rounds`` rounds seated, a hand begun at every table if ``begun``."""
    names = [f"Player {n:03d}" for n in range(players)]
    event = event_store.create_event(
        db, f"Open of {players}", "2026-11-22", "crates", {}, "total", "none", [EventPlayer(n, "", "") for n in names]
    )
    for number in range(1, rounds + 1):
        event_store.add_round(db, event, seat_round(names, seed=number), number)
    for table in event_store.event_tables(db, event.id) if begun else ():
        seats = table.game.game.players
        game_store.append(db, table.game, Change(PRESSURE, 1, seats[0]), "p1", "test")
        game_store.append(db, table.game, Change(LEFTOVERS, 1, seats[1], {"cards": ["K", "3"]}), "l1", "test")
    return event.id


def planned(director, event_id: int) -> None:
    """Until the event's plan is made (in the background: a second at most in the tests)."""
    for _ in range(100):
        if "Planning the rounds" not in director.get(f"/director/events/{event_id}").get_data(as_text=True):
            return
        time.sleep(0.05)
    raise AssertionError("the plan was never made")


def statements_of_a_view(director, event_id: int) -> list[str]:
    """The SQL the event page runs on a look after the first (its plan made, the tables read once)."""
    planned(director, event_id)
    kept = connection._THREAD.kept[1].conn
    seen: list[str] = []
    kept.set_trace_callback(seen.append)
    try:
        assert director.get(f"/director/events/{event_id}").status_code == 200
    finally:
        kept.set_trace_callback(None)
    return seen


def test_the_event_page_reads_as_many_statements_for_40_tables_as_for_2(director):
    small = seat_an_event(director.db, 8)
    big = seat_an_event(director.db, 160)
    few, many = statements_of_a_view(director, small), statements_of_a_view(director, big)
    assert len(event_store.event_tables(director.db, big)) == 40
    assert len(many) == len(few), "\n".join(many)


@pytest.mark.slow  # 750 tables seated and planned: about 20 s
def test_the_event_page_folds_no_log_again_while_no_table_moved(director, monkeypatch):
    """Every table of the cap's rounds stays in memory between views: 300 players, 10 rounds
    seated (750 tables) are not folded again on the next look."""
    event_id = seat_an_event(director.db, 300, rounds=10, begun=False)
    planned(director, event_id)
    folds = []
    replay = TableState.replay.__func__

    def counted(cls, *args, **kwargs):
        folds.append(args)
        return replay(cls, *args, **kwargs)

    monkeypatch.setattr(TableState, "replay", classmethod(counted))
    assert director.get(f"/director/events/{event_id}").status_code == 200
    assert folds == []


def test_a_look_after_one_table_moved_draws_that_tables_row_again_and_only_it(director, monkeypatch):
    event_id = seat_an_event(director.db, 40)
    planned(director, event_id)
    drawn = []
    render = Template.render

    def counted(self, *args, **kwargs):
        if self.name == "events/_table_row.html":
            drawn.append(kwargs["row"].table.number)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(Template, "render", counted)
    assert director.get(f"/director/events/{event_id}").status_code == 200
    assert drawn == []
    table = event_store.event_tables(director.db, event_id)[3]
    seats = table.game.game.players
    for seat, name in enumerate(seats[2:], start=2):
        cards = ["Q", "9"][seat - 2 : seat - 1]
        game_store.append(director.db, table.game, Change(LEFTOVERS, 1, name, {"cards": cards}), f"x{seat}", "test")
    game_store.append(director.db, table.game, Change(LEFTOVERS, 1, seats[0], {"cards": []}), "x0", "test")
    page = director.get(f"/director/events/{event_id}").get_data(as_text=True)
    assert drawn == [table.number]
    row = page.split(", ".join(seats), 1)[1].split("</tr>", 1)[0]
    assert ">hand 2 of " in row
    assert page.count(">hand 1 of ") == 9
