"""A big event's pages do a bounded amount of work whatever its size: the director's event page
reads the database in a number of statements that does not grow with its tables, and folds no
game's log again while the game has not moved (issue 30: 300 players, 75 tables a round)."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Template
from wtforms import Field, Form, SelectField
from wtforms.validators import DataRequired

from scorekeeper.gamelog import LEFTOVERS, PRESSURE, Change
from scorekeeper.storage import event_rounds
from scorekeeper.storage import events as event_store
from scorekeeper.storage import games as game_store
from scorekeeper.storage.events import EventPlayer
from scorekeeper.tournament.seating import seat_round
from scorekeeper.web import connection
from scorekeeper.web.event_forms import QuickSelect
from tests.support.web import csrf_token
from tests.web.test_events import log_in


def seat_an_event(db, players: int, rounds: int = 1, begun: bool = True) -> int:
    """An event of ``players`` with ``rounds`` rounds seated, a hand begun at every table if ``begun``."""
    names = [f"Player {n:03d}" for n in range(players)]
    event = event_store.create_event(
        db, f"Open of {players}", "2026-11-22", "crates", {}, "total", "none", [EventPlayer(n, "", "") for n in names]
    )
    for number in range(1, rounds + 1):
        event_rounds.add_round(db, event, seat_round(names, seed=number), number)
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


def fields_drawn(monkeypatch) -> list[str]:
    """The names of the form fields drawn from now on, in order (a list that fills as pages are drawn)."""
    drawn: list[str] = []
    call = Field.__call__

    def counted(self, *args, **kwargs):
        drawn.append(self.name)
        return call(self, *args, **kwargs)

    monkeypatch.setattr(Field, "__call__", counted)
    return drawn


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
    replay = game_store.replay  # a whole log folded: what a game's page reads when nothing is kept

    def counted(*args, **kwargs):
        folds.append(args)
        return replay(*args, **kwargs)

    monkeypatch.setattr(game_store, "replay", counted)
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


#: A field of each part of the event page kept between looks: the seating form, the players'
#: forms, the penalty form (the history's reason forms are written out, not drawn by WTForms).
KEPT_FIELDS = {"tables", "odd_tables", "withdraw-name", "late-name", "penalty-player"}


def test_a_look_draws_the_seating_players_and_penalties_only_when_they_change(director, monkeypatch):
    event_id = seat_an_event(director.db, 40)
    url = f"/director/events/{event_id}"
    planned(director, event_id)
    drawn = fields_drawn(monkeypatch)
    assert director.get(url).status_code == 200
    assert drawn and not KEPT_FIELDS & set(drawn), drawn
    table = event_store.event_tables(director.db, event_id)[3]
    game_store.append(
        director.db, table.game, Change(LEFTOVERS, 1, table.game.game.players[2], {"cards": []}), "s2", "test"
    )
    drawn.clear()
    assert director.get(url).status_code == 200
    assert not KEPT_FIELDS & set(drawn), "a table's save changes none of the kept parts"
    data = {"csrf_token": csrf_token(director, url), "withdraw-name": "Player 007", "withdraw-from_round": "2"}
    assert director.post(url + "/players/withdraw", data=data).status_code == 302
    drawn.clear()
    page = director.get(url).get_data(as_text=True)
    assert {"withdraw-name", "late-name"} <= set(drawn), "a player withdrawn: the players' part is drawn again"
    assert "<li>Player 007 · <strong>withdrawn from round 2</strong></li>" in page
    assert '<option value="Player 007">' not in page.split('id="withdraw-name"', 1)[1].split("</select>", 1)[0]


def test_the_kept_parts_of_the_event_page_carry_each_session_its_own_csrf_token(director, app):
    event_id = seat_an_event(director.db, 8)
    url = f"/director/events/{event_id}"
    planned(director, event_id)
    other = app.test_client()
    log_in(other)
    pages = [client.get(url).get_data(as_text=True) for client in (director, other, director, other)]
    tokens = [set(re.findall(r'name="[a-z-]*csrf_token" type="hidden" value="([^"]+)"', page)) for page in pages]
    assert all(len(found) == 1 for found in tokens), "one token in every form of a page"
    # A token is the session's secret, signed at the time of the look: the secret is the session's own.
    secrets = [found.pop().split(".", 1)[0] for found in tokens]
    assert secrets[0] != secrets[1]
    assert secrets[2] == secrets[0] and secrets[3] == secrets[1]
    assert all(page.count('type="hidden" value="') >= 8 for page in pages)


def test_a_save_at_a_table_started_already_draws_the_round_as_it_happens_no_again(director, monkeypatch):
    """Its no-show form lists the players of the tables not started: drawn again only when one starts."""
    event_id = seat_an_event(director.db, 40, begun=False)
    url = f"/director/events/{event_id}"
    planned(director, event_id)
    first, second = event_store.event_tables(director.db, event_id)[:2]
    game_store.append(director.db, first.game, Change(PRESSURE, 1, first.game.game.players[0]), "f1", "test")
    assert director.get(url).status_code == 200
    drawn = fields_drawn(monkeypatch)
    game_store.append(
        director.db, first.game, Change(LEFTOVERS, 1, first.game.game.players[1], {"cards": ["K"]}), "f2", "test"
    )
    page = director.get(url).get_data(as_text=True)
    assert "noshow-missing" not in drawn and "minutes" in drawn, drawn
    assert f'<option value="{second.game.game.players[0]}">' in missing(page)
    game_store.append(director.db, second.game, Change(PRESSURE, 1, second.game.game.players[0]), "s1", "test")
    drawn.clear()
    page = director.get(url).get_data(as_text=True)
    assert "noshow-missing" in drawn
    assert f'<option value="{second.game.game.players[0]}">' not in missing(page)
    assert f'<option value="{event_store.event_tables(director.db, event_id)[2].game.game.players[0]}">' in missing(
        page
    )


def missing(page: str) -> str:
    """The no-show form's list of the players who may not have come."""
    return page.split('id="noshow-missing"', 1)[1].split("</select>", 1)[0]


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.text(min_size=1, max_size=12), max_size=8, unique=True),
    pick=st.integers(min_value=-1, max_value=8),
    pairs=st.booleans(),
    required=st.booleans(),
)
def test_the_quick_select_writes_what_wtforms_writes(names, pick, pairs, required):
    """The 300-name lists are written directly; the markup is WTForms' own, character for character."""
    choices = [(name, f"{name} & co") for name in names] if pairs else list(names)
    chosen = names[pick] if 0 <= pick < len(names) else None

    class Plain(Form):
        who = SelectField("Who", choices=[], validators=[DataRequired()] if required else [])

    class Quick(Form):
        who = SelectField("Who", choices=[], validators=[DataRequired()] if required else [], widget=QuickSelect())

    plain, quick = Plain(), Quick()
    plain.who.data = quick.who.data = chosen
    plain.who.choices = quick.who.choices = choices  # as the event page sets them
    for _ in range(2):  # drawn, then kept
        assert str(quick.who(**{"aria-describedby": "x"})) == str(plain.who(**{"aria-describedby": "x"}))
        assert str(quick.who()) == str(plain.who())
