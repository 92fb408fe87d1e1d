"""Printed sheets: a game's score sheet, a blank sheet for paper play, a rules quick-reference card.

The print templates live beside the pages' templates and share their partials (the
chart); they are rendered here with a plain Jinja environment so that the command line
can print without a server, and turned into PDF by ``pdf.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ..scoring import GameRecord, RuleSet, pressure_ladder, score_game
from ..scoring.game import blank_table
from ..tournament.shown import Stage
from .charts import running_total_chart
from .grid import GridSide, ScoreGrid, score_grid
from .ladder import LadderTable
from .qr import qr_svg

PAPER_SIZES = {"a4": "A4", "letter": "letter"}
DEFAULT_PAPER = "a4"
LADDER_LENGTH = 8
#: Rows on a blank sheet for a game played to a score rather than a schedule.
OPEN_GAME_ROWS = 15

#: The height the grid's hand rows share on one landscape page (A4 is the shorter), and the
#: tallest and shortest a row may be: a longer game gets shorter rows and a smaller font.
ROWS_BUDGET_MM = 95.0
ROW_MM = (3.0, 6.0)

_env = Environment(loader=PackageLoader("scorekeeper", "templates"), autoescape=select_autoescape(["html"]))


def paper_size(paper: str, orientation: str = "landscape") -> str:
    if paper not in PAPER_SIZES:
        raise ValueError(f"paper must be one of {', '.join(PAPER_SIZES)}, not {paper!r}")
    return f"{PAPER_SIZES[paper]} {orientation}"


def options_in_force(rules: RuleSet) -> list[tuple[str, str]]:
    """Every option of the rule set with its value, as a player would read it."""
    return list(rules.options_in_words())


@dataclass(frozen=True)
class SheetLayout:
    """What the sheet's template needs to keep every game on one page."""

    #: From one row's top to the next: the cells' height, their padding and border included.
    row_mm: float
    font_pt: float

    @property
    def cell_mm(self) -> float:
        """The height a cell's content is given (the row less its border; cells have no vertical padding)."""
        return round(self.row_mm - 0.15, 2)


def sheet_layout(rows: int) -> SheetLayout:
    """Row height and grid font for a game of ``rows`` rows (hands and a start row)."""
    low, high = ROW_MM
    row = round(max(low, min(high, ROWS_BUDGET_MM / max(rows, 1))), 2)
    return SheetLayout(row, 8.0 if row >= 4.6 else 7.0 if row >= 3.6 else 6.5)


def sheet_columns(grid: ScoreGrid, side: GridSide) -> tuple[tuple[str, str], ...]:
    """A side's columns on the score sheet (kind, heading)."""
    return side_columns(
        grid.cards_heading, grid.has_pressures and not side.is_dummy, grid.has_pressures, len(grid.game_numbers)
    )


def side_columns(cards: str, pressures: bool, hand: bool, games: int) -> tuple[tuple[str, str], ...]:
    """A side's columns on paper (kind, heading): the cards (left or collected), the pressures
    (none for a dummy, who never takes one), the hand's points where pressures add to the cards,
    each game of a session scored in columns (Hollywood scoring), the running total."""
    columns = [("cards", cards)]
    if pressures:
        columns.append(("press", "press."))
    if hand:
        columns.append(("hand", "hand"))
    columns += [(f"game{number}", f"game {number}") for number in range(1, games + 1)]
    columns.append(("total", "total"))
    return tuple(columns)


def score_sheet_html(
    record: GameRecord,
    *,
    title: str = "",
    played_on: str | None = None,
    paper: str = DEFAULT_PAPER,
    view_url: str | None = None,
    notes: dict[int, list[str]] | None = None,
    lock: str = "",
    counting: Sequence[str] = (),
) -> str:
    """The sheet a bridge player would recognise, with the rules in force and a verification code.
    ``lock``: an event's table locked unfinished, who locked it, after which hand and how it counts
    ("locked by the director after hand 6 of 15, prorated": the storage's ``lock_line``, the one
    source of the sheet alone, in the booklet and published); ``counting``: how the event's
    standings count it (a short table's treatment, penalties given at it)."""
    game, score = record.game, record.score()
    grid = score_grid(score, notes)
    return _env.get_template("sheets/score_sheet.html").render(
        page_size=paper_size(paper),
        title=title,
        played_on=played_on or date.today().isoformat(),
        rules=game.rules,
        options=options_in_force(game.rules),
        game=game,
        seats=list(enumerate(game.players, start=1)),
        grid=grid,
        columns_of=lambda side: sheet_columns(grid, side),
        layout=sheet_layout(len(grid.rows) + grid.with_start),
        card_values=game.rules.card_values(),
        chart=running_total_chart(score),
        code=record.verification_code,
        filed=record.filed_under,
        qr=qr_svg(view_url, scale=2) if view_url else None,
        view_url=view_url,
        lock=lock,
        counting=counting,
    )


def blank_sheet_html(rules: RuleSet, players: int = 4, paper: str = DEFAULT_PAPER) -> str:
    """The grid with hand numbers and cards dealt filled in, and a reference panel: a column of
    seats for each of ``players`` players, and for a player the rules seat by themselves (the
    World Series' dummy) a column as the score sheet has it (named, its start, no pressures).
    InvalidSeating when the game is not for that many players."""
    grid = score_grid(score_game(blank_table(rules, players), ()))
    hands = rules.max_hands() or OPEN_GAME_ROWS
    return _env.get_template("sheets/blank_sheet.html").render(
        page_size=paper_size(paper),
        rules=rules,
        options=options_in_force(rules),
        players=len(grid.sides),
        grid=grid,
        sides=[(side, sheet_columns(grid, side)) for side in grid.sides],
        rows=[(number, rules.cards_dealt(number, len(grid.players))) for number in range(1, hands + 1)],
        card_values=rules.card_values(),
        doubling=pressure_ladder(LADDER_LENGTH),
        capped=pressure_ladder(LADDER_LENGTH, 20),
    )


def rules_reference(rules: RuleSet) -> dict[str, object]:
    """What the rules card and the rules page show: actions by table size, card points, ladders."""
    return {
        "rules": rules,
        "options": options_in_force(rules),
        "actions_many": rules.card_actions(4),
        "actions_few": rules.card_actions(3),
        "card_values": rules.card_values(),
        "doubling": pressure_ladder(LADDER_LENGTH),
        "capped": pressure_ladder(LADDER_LENGTH, 20),
        "schedule": rules.schedule(),
    }


def rules_card_html(rules: RuleSet, paper: str = DEFAULT_PAPER) -> str:
    """One page: card actions by number of players, card points, the count, threes, pressures."""
    return _env.get_template("sheets/rules_card.html").render(
        page_size=paper_size(paper, "portrait"), **rules_reference(rules)
    )


def standings_html(
    event: Any,
    rows: Sequence[Any],
    round_: int | None,
    tie_breaks: str,
    paper: str = DEFAULT_PAPER,
    *,
    members: Mapping[str, Any] | None = None,
    unfinished: int = 0,
    printed_at: str = "",
    by_hand: str = "",
    stage: Stage | None = None,
) -> str:
    """An event's standings to pin on the wall: provisional, with each player's hands, while
    ``unfinished`` tables play on; clubs and membership numbers from ``members`` (name → player);
    ``stage`` (``tournament.shown.Stage``) says after which round."""
    return _env.get_template("sheets/standings.html").render(
        page_size=paper_size(paper, "portrait"),
        by_hand=by_hand,
        stage=stage,
        **_standings_context(event, rows, round_, tie_breaks, members, unfinished, printed_at),
    )


def season_ladder_html(
    season_name: str, table: LadderTable, paper: str = DEFAULT_PAPER, *, printed_at: str = ""
) -> str:
    """A season's ladder to pin on the wall (portrait): the rule in words, provisional while an
    evening is under way, each player's evenings under their name, the ties said, when printed."""
    return _env.get_template("sheets/season_ladder.html").render(
        page_size=paper_size(paper, "portrait"), season_name=season_name, table=table, printed_at=printed_at
    )


def booklet_cover_html(
    event: Any,
    rows: Sequence[Any],
    tie_breaks: str,
    tables: int,
    rounds: int,
    paper: str = DEFAULT_PAPER,
    *,
    members: Mapping[str, Any] | None = None,
    unfinished: int = 0,
    printed_at: str = "",
    by_hand: str = "",
    stage: Stage | None = None,
) -> str:
    """The booklet's first page: the event, what the booklet holds, and the standings (after which
    round, from ``stage``, a ``tournament.shown.Stage``: "Final standings" once every round is complete)."""
    return _env.get_template("sheets/booklet_cover.html").render(
        page_size=paper_size(paper, "portrait"),
        tables=tables,
        rounds=rounds,
        by_hand=by_hand,
        stage=stage,
        **_standings_context(event, rows, None, tie_breaks, members, unfinished, printed_at),
    )


def _standings_context(
    event: Any,
    rows: Sequence[Any],
    round_: int | None,
    tie_breaks: str,
    members: Mapping[str, Any] | None,
    unfinished: int,
    printed_at: str,
) -> dict[str, object]:
    members = members or {}
    return {
        "event": event,
        "rows": rows,
        "round_": round_,
        "tie_breaks": tie_breaks,
        "members": members,
        "with_clubs": any(getattr(player, "club", "") or getattr(player, "number", "") for player in members.values()),
        "with_numbers": any(getattr(player, "number", "") for player in members.values()),
        "unfinished": unfinished,
        "printed_at": printed_at,
    }


def table_cards_html(
    event: Any,
    round_: int,
    cards: Sequence[tuple[Any, Markup]],
    paper: str = DEFAULT_PAPER,
    unreachable_host: str | None = None,
) -> str:
    """One page per table: its number (the largest thing on it), the event, round, date and game,
    the seats in order, and the QR code that opens its record link; ``unreachable_host`` names
    a host no phone can open (localhost), which each card then warns of."""
    return _env.get_template("sheets/table_cards.html").render(
        page_size=paper_size(paper, "portrait"),
        event=event,
        round_=round_,
        cards=cards,
        unreachable_host=unreachable_host,
    )


def round_sheet_html(
    event: Any,
    round_: int,
    tables: Sequence[Any],
    sitting_out: Sequence[str],
    plan_lines: Sequence[str],
    by_hand: str,
    paper: str = DEFAULT_PAPER,
    printed_at: str = "",
    seated_by: str = "",
    seated_since: int = 0,
) -> str:
    """A round's seating to pin up: every table with its players in seat order, then every player
    in alphabetical order with their table and seat, who sits out, which tables were seated by
    hand or the rule the round was seated by (``seated_by``: "the standings after round 2"), and
    the quality of the event's plan (``plan_lines``). The plan is planned again as the evening
    goes, so an old round's sheet (``seated_since``: the latest round seated after it) prints no
    plan lines: today's figures under an old round's heading would claim they held then."""
    places = sorted(
        ((name, table.number, seat) for table in tables for seat, name in enumerate(table.game.game.players, start=1)),
        key=lambda place: (place[0].casefold(), place[0]),
    )
    return _env.get_template("sheets/round_sheet.html").render(
        page_size=paper_size(paper, "portrait"),
        event=event,
        round_=round_,
        tables=tables,
        places=places,
        sitting_out=sorted(sitting_out, key=str.casefold),
        plan_lines=() if seated_since else plan_lines,
        seated_since=seated_since,
        by_hand=by_hand,
        seated_by=seated_by,
        printed_at=printed_at,
        seats=max((len(table.game.game.players) for table in tables), default=4),
    )


def event_sheets_html(
    event: Any,
    tables: Sequence[Any],
    paper: str = DEFAULT_PAPER,
    view_urls: Sequence[str | None] | None = None,
    counting: Sequence[Sequence[str]] | None = None,
) -> list[str]:
    """Every table's score sheet, for the event's booklet: filed under the event, round and table,
    dated by the event, with its rulings, its lock (``row.lock_line``) and (given ``view_urls``,
    one a table) its QR code."""
    urls = list(view_urls) if view_urls is not None else [None] * len(tables)
    counted = list(counting) if counting is not None else [()] * len(tables)
    return [
        score_sheet_html(
            row.record(event),
            title=f"{event.name} · round {row.table.round} · table {row.table.number}"
            + (" · seated by hand" if row.table.by_hand else ""),
            played_on=event.held_on,
            paper=paper,
            view_url=url,
            notes=row.state.ruling_notes(),
            lock=row.lock_line,
            counting=lines,
        )
        for row, url, lines in zip(tables, urls, counted, strict=True)
    ]
