"""Commands of the club: its ratings, its ladder, publishing its pages."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from typing import Any

import click

from ..reports import text as text_output


@click.command()
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"model": …, "players": [{"name", "number", "mu", "sigma", "ordinal", "tables"}, …]}, best first.',
)
@click.option(
    "--recompute",
    is_flag=True,
    help="Rebuild every rating from the stored results, from scratch, and check it equals what was stored.",
)
def ratings(as_json: bool, recompute: bool) -> int:
    """The club's ratings, brought up to date from every finished or locked table (openskill's
    Plackett–Luce; the number shown is the cautious one, mu − 3 sigma)."""
    from ..club.ratings import MODEL
    from ..storage.club_results import bring_up_to_date, stored_model
    from ..storage.club_results import recompute as recompute_ratings
    from ..storage.player_results import rated_members

    with _club_database() as db:
        bring_up_to_date(db)
        found = recompute_ratings(db) if recompute else None
        rated = rated_members(db)
        model = (stored_model(db) or MODEL).label
    shown = [(member.name, member.number, rating) for member, rating in rated]
    if as_json:
        players = [
            {"name": name, "number": number, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "tables": r.tables}
            for name, number, r in shown
        ]
        click.echo(json.dumps({"model": model, "players": players}, ensure_ascii=False, indent=2))
    else:
        click.echo(text_output.ratings_text(model, shown))
    if found is None:
        return 0
    if found.replaced_model is not None:
        click.echo(f"Recomputed with {model}, replacing {found.replaced_model.label}.", err=True)
    elif found.differing:
        raise click.ClickException(
            f"{len(found.differing)} of {found.players} ratings differed from those recomputed from "
            f"{found.tables} tables; the recomputed ones are stored now"
        )
    else:
        click.echo(
            f"Recomputed from {found.tables} tables: all {found.players} ratings equal the stored ones.", err=True
        )
    return 0


@click.command()
@click.argument("where", nargs=-1, metavar="EVENT_ID OUTDIR | --season NAME OUTDIR")
@click.option("--season", "season_name", metavar="NAME", help="Publish this season: its ladder and every event in it.")
def publish(where: tuple[str, ...], season_name: str | None) -> None:
    """Write an event's results (or a season's) as a folder of static pages: standings, rounds, every
    table's sheet (page and PDF), each player's results, the ratings and the ladder, with no link,
    join code or token of the app's. EVENT_ID is the number in /director/events/EVENT_ID."""
    from ..reports import pdf
    from ..web import publishing

    wanted = 1 if season_name is not None else 2
    if len(where) != wanted:
        usage = (
            "scorekeeper publish --season NAME OUTDIR"
            if season_name is not None
            else "scorekeeper publish EVENT_ID OUTDIR"
        )
        raise click.UsageError(f"usage: {usage}")
    with _club_database() as db:
        if season_name is not None:
            site = publishing.season_site(db, season_name)
        else:
            if not where[0].isdigit() or len(where[0]) > 18:
                raise click.ClickException(
                    f"{where[0]!r} is not an event's number (the one in /director/events/NUMBER)"
                )
            site = publishing.event_site(db, int(where[0]))
    written = publishing.write_folder(site, where[-1], pdf.render_pdf)
    click.echo(f"published {written} files to {where[-1]}")


@click.command()
@click.argument("season")
@click.option(
    "--csv", "as_csv", is_flag=True, help="Print the ladder as CSV (with membership numbers), for a spreadsheet."
)
def ladder(season: str, as_csv: bool) -> int:
    """A season's ladder, from the club's record brought up to date: SEASON is its name, in any case."""
    from ..reports.club_csv import ladder_rows
    from ..reports.csv_text import csv_text
    from ..reports.ladder import ladder_table
    from ..storage.club_results import bring_up_to_date
    from ..storage.seasons import list_seasons, season_by_name, season_ladder
    from ..web.club_pages import names_shown

    with _club_database() as db:
        found = season_by_name(db, season)
        if found is None:
            known = ", ".join(s.name for s in list_seasons(db)) or "none yet"
            raise click.ClickException(f"there is no season named {season} (seasons: {known})")
        bring_up_to_date(db)
        shown = season_ladder(db, found)
    names = names_shown(shown.members, public=False)
    table = ladder_table(shown.rows, shown.ranked, names, found.rule, shown.rule_words, shown.provisional)
    if as_csv:
        numbers = {m: member.number for m, member in shown.members.items()}
        click.echo(csv_text(ladder_rows(table, numbers)), nl=False)
    else:
        click.echo(text_output.ladder_text(found.name, table))
    return 0


@contextlib.contextmanager
def _club_database() -> Iterator[Any]:
    """The server's database, its migrations applied, for a command that reads and keeps the club's record."""
    from ..storage.database import connect, migrate
    from ..web.app import configured_database

    path = configured_database()
    if not os.path.exists(path):
        raise click.ClickException(f"there is no database at {path}: check SCOREKEEPER_INSTANCE")
    migrate(path)
    db = connect(path)
    try:
        yield db
    finally:
        db.conn.close()
