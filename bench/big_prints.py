"""Issue 30's printing benchmark: a 300-player event (MAX_EVENT_PLAYERS) after its first round
(75 tables, a few hands played at each), its three printouts each beside a bare WeasyPrint render
of the very same markup, measured in the same run, taking turns:

- the standings PDF: the tables read and ranked, the markup built, rendered (``pdf.render_pdf``,
  as the printer's process renders it), beside ``weasyprint.HTML(string=markup).write_pdf()``;
- the table cards PDF (a page a table, each with its QR code): the same;
- the booklet (the cover's standings and every table's sheet): the booklet job (its parts side by
  side in one process a core, then joined), beside the bare render of the same documents in one
  process, one after the other, their pages copied into one PDF.

Aim: each figure <= 1.2x its floor (the median of the rounds' ratios).

    .venv/bin/python -m bench.big_prints
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import sqlite_utils

from scorekeeper.gamelog import LEFTOVERS, PRESSURE, Change
from scorekeeper.reports import pdf
from scorekeeper.reports.qr import qr_svg
from scorekeeper.reports.sheets import booklet_cover_html, event_sheets_html, standings_html, table_cards_html
from scorekeeper.storage import event_rounds
from scorekeeper.storage import events as event_store
from scorekeeper.storage import games as game_store
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.event_results import (
    event_standings,
    event_tie_breaks,
    progress,
    rounds_played,
    unfinished_tables,
)
from scorekeeper.storage.events import Event, EventPlayer
from scorekeeper.tournament.seating import MAX_EVENT_PLAYERS, seat_round
from scorekeeper.web import booklets

from . import scaled
from .printing import _bare, _bare_booklet, _in_turns, _job, _line, _noop

PLAYERS = scaled(MAX_EVENT_PLAYERS, 12)
HANDS = scaled(5, 1)
ROUNDS = scaled(5, 1)
BOOKLET_ROUNDS = scaled(3, 1)
BASE = "http://192.168.1.20:5000"
LEFTOVERS_BY_SEAT = ("K 3", "A 2", "8", "9 Q", "5")


def _setup(folder: Path) -> tuple[sqlite_utils.Database, Event]:
    """The event, round 1 seated, HANDS hands played at every table (a pressure and every player's leftovers)."""
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    names = [f"Player {i:03d} of the county club"[:30] for i in range(PLAYERS)]
    players = [EventPlayer(name, "County club", str(1000 + i)) for i, name in enumerate(names)]
    event = event_store.create_event(db, "Bench Open", "2026-11-22", "crates", {}, "total", "none", players, rounds=10)
    event_rounds.add_round(db, event, seat_round(names, seed=1), 1)
    rng = random.Random(1)
    for table in event_store.event_tables(db, event.id):
        seats = table.game.game.players
        for hand in range(1, HANDS + 1):
            game_store.append(db, table.game, Change(PRESSURE, hand, rng.choice(seats)), f"p{hand}", "bench")
            for seat, name in enumerate(seats):
                cards = [] if seat == hand % len(seats) else LEFTOVERS_BY_SEAT[seat].split()
                game_store.append(
                    db, table.game, Change(LEFTOVERS, hand, name, {"cards": cards}), f"l{hand}-{seat}", "bench"
                )
    return db, event


def _members(db: sqlite_utils.Database, event: Event) -> dict[str, EventPlayer]:
    return {player.name: player for player in event_store.event_players(db, event.id)}


def standings_markup(db: sqlite_utils.Database, event: Event) -> str:
    """What the standings PDF's view builds: the tables read, ranked, the markup."""
    tables = progress(db, event)
    return standings_html(
        event,
        event_standings(db, event, None, tables),
        None,
        event_tie_breaks(event),
        members=_members(db, event),
        unfinished=unfinished_tables(tables),
        printed_at="2026-11-22 21:00",
    )


def cards_markup(db: sqlite_utils.Database, event: Event) -> str:
    """What the table cards' view builds: the round's tables, a QR code each, the markup."""
    seated = event_store.event_tables(db, event.id)
    cards = [(table, qr_svg(f"{BASE}/t/{table.game.record_token}/", scale=4)) for table in seated]
    return table_cards_html(event, 1, cards)


def booklet_parts(db: sqlite_utils.Database, event: Event) -> list[booklets.Part]:
    """What the booklet's view builds: the cover with the standings, every table's sheet."""
    tables = progress(db, event)
    cover = booklet_cover_html(
        event,
        event_standings(db, event, None, tables),
        event_tie_breaks(event),
        len(tables),
        len(rounds_played(tables)),
        members=_members(db, event),
        unfinished=unfinished_tables(tables),
        printed_at="2026-11-22 21:00",
    )
    urls = [f"{BASE}/v/{row.table.game.view_token}/" for row in tables]
    sheets = [booklets.Part(html) for html in event_sheets_html(event, tables, event.paper, view_urls=urls)]
    return [booklets.Part(cover), *sheets]


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-big-prints-"))
    db, event = _setup(folder)
    pdf.warm_up()
    tables = len(event_store.event_tables(db, event.id))
    print(
        f"\nPrinting a {PLAYERS}-player event after round 1 ({tables} tables, {HANDS} hands played at each; "
        f"each figure beside a bare WeasyPrint render of the same markup, {ROUNDS} rounds in turns, the booklet {BOOKLET_ROUNDS})"
    )
    for name, build in (("standings PDF", standings_markup), ("table cards PDF", cards_markup)):
        markup = build(db, event)
        pages = len(pdf._document(markup).pages)
        mine, floor = _in_turns(lambda build=build: pdf.render_pdf(build(db, event)), partial(_bare, markup), ROUNDS)
        _line(f"{name} ({pages} pages)", mine, floor, "bare render, same markup", "<= 1.2x", paired=True)

    parts = booklet_parts(db, event)
    cores = os.cpu_count() or 1
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(cores, mp_context=context, initializer=pdf.warm_up) as pool:
        list(pool.map(_noop, range(cores)))

        def job() -> None:
            work = tempfile.mkdtemp(prefix="bench-booklet-")
            try:
                _job(pool, work, booklet_parts(db, event))
            finally:
                shutil.rmtree(work)

        mine, floor = _in_turns(job, lambda: _bare_booklet([part.html for part in parts]), BOOKLET_ROUNDS)
    _line(
        f"booklet (cover and {len(parts) - 1} sheets, {cores} cores)",
        mine,
        floor,
        "bare render, same markup",
        "<= 1.2x",
        paired=True,
    )
    db.conn.close()
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
