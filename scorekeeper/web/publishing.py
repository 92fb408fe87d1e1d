"""Results published as pages: an event (or a season with its events) as a folder of static pages a
club puts on any web host or opens from a disk: the standings, each round, each table's sheet (a
page and its PDF), each player's results, the ratings and the season's ladder, with CSVs of the
ratings and the ladder. ``scorekeeper publish`` writes it; the event page's button zips it.

What is published is what a public page may show: players by their public name (initials where
they asked, "a former member" for a removed one), no membership number, and no record link, join
code, view or wall token anywhere (the sheets are printed without their QR code). A page links
only to pages inside the folder.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

import sqlite_utils

from ..club.members import Member, public_names
from ..club.ratings import placed
from ..reports.charts import running_total_chart
from ..reports.club_csv import ladder_rows, ratings_rows
from ..reports.grid import score_grid
from ..reports.sheets import score_sheet_html, season_ladder_html, standings_html
from ..reports.site import Site
from ..scoring import Refusal
from ..scoring.record import renamed
from ..storage.club_results import bring_up_to_date
from ..storage.event_results import (
    TableProgress,
    event_tie_breaks,
    progress,
    seated_by_hand,
    standings_shown,
    unfinished_tables,
)
from ..storage.events import Event, event_players, get_event
from ..storage.members import members_by_id
from ..storage.player_results import player_results, rated_members
from ..storage.seasons import (
    Season,
    SeasonEvening,
    list_seasons,
    season_by_name,
    season_evenings,
    season_ladder,
    seasons_of_event,
)
from .club_pages import ladder_shown, names_shown, player_page

#: The file that marks a folder as one ``publish`` wrote, listing its files (so that publishing
#: again removes what is no longer part of it, and never touches a folder of other files).
MARKER = ".scorekeeper-published"


class PublishRefusal(Refusal):
    """What cannot be published as asked."""


@dataclasses.dataclass(frozen=True)
class PublicPlayer:
    """A player as a published standings sheet prints them: a club, never a membership number."""

    club: str
    number: str = ""


class Publication:
    """The pages being made: which events and players are in the folder, and where each one is."""

    def __init__(self, db: sqlite_utils.Database, title: str) -> None:
        self.db = db
        self.printed_at = datetime.now().strftime("%Y-%m-%d %H:%M")
        self.site = Site(title, self.printed_at)
        self.event_paths: dict[int, str] = {}
        self.players: dict[int, Member] = {}

    def player_path(self, member: Member) -> str | None:
        return self.player_path_of(member.id)

    def player_path_of(self, member_id: int) -> str | None:
        return f"players/{member_id}.html" if member_id in self.players else None

    def add_event(self, event: Event, base: str) -> None:
        """The event's pages under ``base`` ("" or "events/<id>/")."""
        db = self.db
        tables = progress(db, event)
        seats = event_players(db, event.id)
        members = members_by_id(db, [p.member_id for p in seats if p.member_id is not None])
        member_of = {p.name: members.get(p.member_id) if p.member_id is not None else None for p in seats}
        names = public_names(member_of)
        for member in member_of.values():
            if member is not None and not member.removed:
                self.players[member.id] = member
        self.event_paths[event.id] = f"{base}index.html"
        public_member = {names[seat]: member_of[seat] for seat in names}

        def player_link(name: str) -> str | None:
            member = public_member.get(name)
            return None if member is None else self.player_path(member)

        shown = standings_shown(db, event, tables=tables)
        rows = [dataclasses.replace(row, name=names.get(row.name, row.name)) for row in shown.rows]
        rounds = sorted({row.table.round for row in tables})
        context = {
            "event": event,
            "tie_breaks": event_tie_breaks(event),
            "player_link": player_link,
            "base": base,
        }
        self.site.page(
            f"{base}index.html",
            "event.html",
            rows=rows,
            rounds=rounds,
            tables=tables,
            names=names,
            by_hand=seated_by_hand(row.table for row in tables),
            unfinished=unfinished_tables(tables),
            stage=shown.stage,
            **context,
        )
        clubs = {
            names[seat]: PublicPlayer("" if m is None or m.initials or m.removed else m.club)
            for seat, m in member_of.items()
        }
        self.site.pdf(
            f"{base}standings.pdf",
            standings_html(
                event,
                rows,
                None,
                event_tie_breaks(event),
                event.paper,
                members=clubs,
                unfinished=unfinished_tables(tables),
                printed_at=self.printed_at,
                by_hand=seated_by_hand(row.table for row in tables),
                stage=shown.stage,
            ),
        )
        for number in rounds:
            in_round = [row for row in tables if row.table.round == number]
            in_shown = standings_shown(db, event, number, tables=tables)
            round_rows = [dataclasses.replace(row, name=names.get(row.name, row.name)) for row in in_shown.rows]
            self.site.page(
                f"{base}round-{number}.html",
                "round.html",
                round_=number,
                rows=round_rows,
                stage=in_shown.stage,
                tables=in_round,
                names=names,
                by_hand=seated_by_hand((row.table for row in in_round), number),
                **context,
            )
        for row in tables:
            self._add_table(event, row, names, base)

    def _add_table(self, event: Event, row: TableProgress, names: dict[str, str], base: str) -> None:
        record = renamed(row.record(event), names)
        notes = {
            hand: [_renamed_text(text, names) for text in texts] for hand, texts in row.state.ruling_notes().items()
        }
        name = f"table-{row.table.round}-{row.table.number}"
        title = f"{event.name} · round {row.table.round} · table {row.table.number}"
        self.site.pdf(
            f"{base}{name}.pdf",
            score_sheet_html(
                record, title=title, played_on=event.held_on, paper=event.paper, notes=notes, lock=row.lock_line
            ),
        )
        score = record.score()
        self.site.page(
            f"{base}{name}.html",
            "table.html",
            event=event,
            table=row.table,
            title=title,
            grid=score_grid(score, notes),
            chart=running_total_chart(score),
            code=record.verification_code,
            pdf=f"{base}{name}.pdf",
            base=base,
            status=_status(row),
        )

    def add_players(self) -> None:
        """Each player's page: every evening they played (linked where it is in the folder)."""
        for member in self.players.values():
            results = player_results(self.db, member.id)
            if results is None:
                continue
            context = player_page(
                results,
                public=True,
                member_link=self.player_path,
                event_link=lambda evening: self.event_paths.get(evening.event_id),
            )
            self.site.page(f"players/{member.id}.html", "player.html", **context)

    def add_ratings(self) -> None:
        """The ratings, as a page and a CSV of their own."""
        rated = rated_members(self.db)
        rows = placed(rated)
        shown = names_shown({member.id: member for member, _ in rated}, public=True)
        self.site.page("ratings.html", "ratings.html", rows=rows, player_link=self.player_path, shown=shown)
        self.site.csv("ratings.csv", ratings_rows([(shown[m.id], None, r) for _, m, r in rows], numbers=False))

    def add_ladder(self, season: Season, page: str, files: str, events: Sequence[SeasonEvening] = ()) -> None:
        """A season's ladder as a page, with its CSV and PDF (``files``.csv, .pdf), by public name."""
        table = ladder_shown(season_ladder(self.db, season), public=True)
        self.site.page(
            page,
            "ladder.html",
            season=season,
            table=table,
            player_link=self.player_path_of,
            files=files,
            top=page == "index.html",
            events=[(evening, self.event_paths.get(evening.event_id)) for evening in events],
        )
        self.site.csv(f"{files}.csv", ladder_rows(table))
        self.site.pdf(f"{files}.pdf", season_ladder_html(season.name, table, season.paper, printed_at=self.printed_at))


def _status(row: TableProgress) -> str:
    if row.state.finished:
        return "finished"
    if row.table.locked:
        return row.lock_line
    return f"in play: hand {row.hands_done + 1}"


def _renamed_text(text: str, names: dict[str, str]) -> str:
    """A ruling's words with each player's name as the published pages name them."""
    for old, new in names.items():
        if old != new:
            text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text, flags=re.IGNORECASE)
    return text


def event_site(db: sqlite_utils.Database, event_id: int) -> Site:
    """An event's folder: its pages at the top, its players', the ratings and its seasons' ladders."""
    bring_up_to_date(db)
    event = get_event(db, event_id)
    if event is None:
        raise PublishRefusal(f"There is no event {event_id}: its number is the one in /director/events/NUMBER.")
    publication = Publication(db, event.name)
    seasons = seasons_of_event(db, event.id)
    publication.site.context["ladders"] = [(f"ladder-{season.id}.html", season.name) for season in seasons]
    publication.add_event(event, "")
    for season in seasons:
        publication.add_ladder(season, f"ladder-{season.id}.html", f"ladder-{season.id}")
    publication.add_players()
    publication.add_ratings()
    return publication.site


def write_folder(site: Site, folder: str, render: Callable[[str], bytes]) -> int:
    """Write the site into ``folder`` (new, empty, or one published before, whose files no longer
    part of it go); the number of files written."""
    target = Path(folder)
    marker = target / MARKER
    if target.exists() and not target.is_dir():
        raise PublishRefusal(f"{folder} is a file, not a folder.")
    if target.exists() and any(target.iterdir()) and not marker.is_file():
        raise PublishRefusal(
            f"{folder} holds other files: publish into a new or empty folder, or one published before."
        )
    old = set(marker.read_text().splitlines()) if marker.is_file() else set()
    for file in site.files.values():
        path = target / file.path
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.partial")
        temporary.write_bytes(render(file.pdf_of) if file.pdf_of else file.content)
        os.replace(temporary, path)
    for gone in sorted(old - set(site.files)):
        (target / gone).unlink(missing_ok=True)
    marker.write_text("\n".join(sorted(site.files)) + "\n")
    return len(site.files)


def season_site(db: sqlite_utils.Database, name: str) -> Site:
    """A season's folder: its ladder at the top, each of its evenings under events/<id>/, their
    players' pages and the ratings. An evening deleted from the list of events counts on the
    ladder (its results stay in the club's record) but has no pages."""
    season = season_by_name(db, name)
    if season is None:
        known = ", ".join(found.name for found in list_seasons(db)) or "none yet"
        raise PublishRefusal(f"There is no season named {name} (seasons: {known}).")
    bring_up_to_date(db)
    publication = Publication(db, season.name)
    evenings = season_evenings(db, season.id)
    for evening in evenings:
        event = get_event(db, evening.event_id)
        if event is not None and evening.begun:
            publication.add_event(event, f"events/{event.id}/")
    publication.add_ladder(season, "index.html", "ladder", evenings)
    publication.add_players()
    publication.add_ratings()
    return publication.site
