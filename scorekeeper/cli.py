"""The ``scorekeeper`` command: score a hand, list pressures, replay a game record, serve the app.

Every refusal ends with a non-zero exit status and one line on standard error.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from .reports import text as text_output
from .scoring import (
    RULE_SETS,
    GameRecord,
    InvalidRecord,
    LeftoverScore,
    Refusal,
    RuleSet,
    ScoringError,
    decode_json,
    load_record,
    normalise_verification_code,
    parse_cards,
    parse_record,
    pressure_ladder,
    verification_code,
)
from .scoring.game import usual_table
from .scoring.rulesets import AT_THE_TABLE, DEFAULT_RULE_SET, SINGLE_HAND, configure_known
from .tournament.plan import (
    MAX_ROUNDS,
    NAMES_MAX_BYTES,
    SECONDS,
    line_of,
    numbered_players,
    plan_event,
    plan_with_choice,
    read_names,
)
from .tournament.seating import FIVES, MAX_EVENT_PLAYERS, ROTATE, THREES, USUAL, SeatingError

EMPTY_HAND = "-"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Scorekeeper: scoring and refereeing Crates and its relatives."""


@cli.command()
@click.option(
    "--rules",
    "rules_id",
    default=DEFAULT_RULE_SET,
    show_default=True,
    type=click.Choice(sorted(RULE_SETS)),
    help="Rule set to score by.",
)
@click.option("--jokers", is_flag=True, help="Jokers are in play (Standig adjunct): JK is worth 40.")
@click.option(
    "--decks",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="Decks in play (checks how many copies of a card there can be).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand, with 'total'.")
@click.argument("cards", nargs=-1)
def score(rules_id: str, jokers: bool, decks: int, as_json: bool, cards: tuple[str, ...]) -> None:
    """Score the cards left in one hand, e.g. `scorekeeper score A 2 3 3 6 8 K` (67).

    Cards: A, 2..10 (or T), J, Q, K, JK for a joker, each optionally with a suit
    S, H, D or C (10h, QS). With no CARDS, reads one hand per line from standard
    input ("-" alone is an empty hand; blank lines are skipped).
    """
    rule_set = RULE_SETS[rules_id]
    if jokers and "jokers" not in {spec.name for spec in rule_set.option_specs()}:
        if "jokers" not in rule_set.inherent_options:
            raise ScoringError(f"{rule_set.name} has no jokers option")
        rule_set.from_options({"jokers": True})
    rules = configure_known(rules_id, {"jokers": jokers, "decks": decks})
    if cards:
        hands = [_score_line(rules, list(cards), None)]
    else:
        text = _read_bounded("-", HANDS_MAX_BYTES, "a list of hands can be", "a list of hands")
        try:
            lines = text.decode("utf-8").splitlines()
        except UnicodeDecodeError as error:
            raise ScoringError(f"standard input: not UTF-8 text (byte {error.start + 1:,})") from None
        hands = [_score_line(rules, line.split(), number) for number, line in enumerate(lines, start=1) if line.strip()]
    for scored in hands:
        if as_json:
            click.echo(json.dumps(text_output.leftover_json(scored), ensure_ascii=False))
        elif cards:
            click.echo(text_output.leftover_breakdown(scored))
        else:
            click.echo(text_output.leftover_line(scored))


def _score_line(rules: RuleSet, tokens: list[str], line: int | None) -> LeftoverScore:
    """Score one hand; in a list read from stdin, a refusal names its line."""
    if tokens == [EMPTY_HAND]:
        tokens = []
    try:
        hand = parse_cards(tokens)
        rules.check_leftovers({SINGLE_HAND: hand})
        return rules.score_leftovers(hand)
    except ScoringError as error:
        if line is None:
            raise
        raise ScoringError(f"line {line}: {error}") from None


@cli.command()
@click.option(
    "--count",
    "-n",
    type=click.IntRange(min=0, max=1000),
    required=True,
    help="How many pressures to list.",
)
@click.option(
    "--cap",
    type=click.IntRange(min=1),
    default=None,
    help="Cap on the increase from one pressure to the next (e.g. 20).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of integers.")
def pressures(count: int, cap: int | None, as_json: bool) -> None:
    """The values of one side's first N pressures: 5, then each double the last (at most +CAP)."""
    values = pressure_ladder(count, cap)
    click.echo(json.dumps(values) if as_json else " ".join(str(value) for value in values))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the replay output of the record spec.")
@click.argument("game_file", metavar="GAME.json")
def replay(as_json: bool, game_file: str) -> None:
    """Score a whole game record (a game in progress too); '-' reads it from standard input."""
    record = load_record(_read_text(game_file))
    result = record.score()
    if as_json:
        output = {**result.to_json(), "verification_code": record.verification_code}
        click.echo(json.dumps(output, ensure_ascii=False))
    else:
        click.echo(text_output.score_table(result))


@cli.command()
@click.argument("code", nargs=-1, metavar="CODE")
@click.argument("game_file", metavar="GAME.json")
def verify(code: tuple[str, ...], game_file: str) -> None:
    """Check a sheet's verification code against a game record (or an event export), without the server.

    `scorekeeper verify 5F7A-7FF5-5BF0 game.json` exits 0 when the code is the record's;
    otherwise 1, with one line saying what does not match. Given an event export, it
    names the table whose record has the code. The code may be typed in its groups,
    unquoted: `scorekeeper verify 5f7a 7ff5 5bf0 game.json`.
    """
    if not code:
        raise click.UsageError(f"Missing argument '{_missing_verify_argument(game_file)}'.")
    try:
        wanted = normalise_verification_code(" ".join(code))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    from .storage.event_results import EVENT_FORMAT

    data = decode_json(_read_text(game_file))
    if isinstance(data, dict) and data.get("format") == EVENT_FORMAT:
        click.echo(_verify_in_event(wanted, data, game_file))
        return
    record = parse_record(data)
    found = record.verification_code
    if found != wanted:
        raise click.ClickException(f"code {wanted} does not match {game_file}: {_mismatch(wanted, record)}")
    filed = record.filed_under
    where = f"filed under {filed}" if filed else "a game outside any event"
    click.echo(f"code {wanted} matches {game_file}: {_game_words(record)}; {where}")


def _missing_verify_argument(only: str) -> str:
    """Which of CODE and GAME.json a lone argument to `verify` leaves out."""
    try:
        normalise_verification_code(only)
    except ValueError:
        return "CODE"
    return "GAME.json"


def _game_words(record: GameRecord) -> str:
    hands = len(record.hands)
    return f"{', '.join(record.game.players)}; {hands} hand{'s' if hands != 1 else ''}"


def _mismatch(wanted: str, record: GameRecord) -> str:
    """What the record's code is, and which version of the record the sheet's code is, if any:
    the same game as it stood after an earlier hand, or filed under no event."""
    game, hands, filed = record.game, record.hands, record.filed_under
    where = f"filed under {filed}" if filed else "filed under no event"
    its = f"its code is {record.verification_code} ({_game_words(record)}; {where})"
    for count in range(len(hands) - 1, -1, -1):
        if verification_code(game, hands[:count], filed) == wanted:
            return f"{its}; the sheet's code is this game's after hand {count}: it was printed before the hands since"
    if filed is not None and verification_code(game, hands) == wanted:
        return f"{its}; the sheet's code is this game's filed under no event"
    return its


def _verify_in_event(wanted: str, data: dict[str, object], name: str) -> str:
    tables = data.get("tables")
    if not isinstance(tables, list):
        raise InvalidRecord(f"{name}: an event export needs a list of 'tables'")
    for table in tables:
        record = parse_record(table.get("record") if isinstance(table, dict) else None)
        if record.verification_code == wanted:
            return f"code {wanted} matches {name}: {_game_words(record)}; filed under {record.filed_under}"
    raise click.ClickException(f"code {wanted} matches no table of {name} ({len(tables)} tables)")


PAPER = click.Choice(["a4", "letter"], case_sensitive=False)


def _write_pdf(body: bytes, output: str) -> None:
    try:
        Path(output).write_bytes(body)
    except OSError as error:
        raise InvalidRecord(f"{output}: {error.strerror}") from None
    click.echo(f"wrote {output} ({len(body) // 1024} KB)")


@cli.command()
@click.argument("game_file", metavar="GAME.json")
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
@click.option("--title", default=None, help="Event or table name (default: the record's title).")
@click.option("--url", default=None, help="The game's read-only link, printed as a QR code.")
def report(game_file: str, output: str, paper: str, title: str | None, url: str | None) -> None:
    """Print a game record's score sheet to PDF, without the server: `scorekeeper report game.json -o sheet.pdf`."""
    from .reports import pdf
    from .reports.sheets import score_sheet_html

    data = _read_text(game_file)
    record = load_record(data)
    notes = _record_notes(json.loads(data))
    filed = record.filed_under
    html = score_sheet_html(
        record,
        title=title if title is not None else str(record.extra.get("title") or ""),
        played_on=filed.held_on if filed else str(record.extra.get("created_at") or "")[:10] or None,
        paper=paper.lower(),
        view_url=url,
        notes=notes,
    )
    _write_pdf(pdf.render_pdf(html), output)
    click.echo(f"verification code {record.verification_code}")


def _record_notes(record: dict[str, object]) -> dict[int, list[str]]:
    hands = record.get("hands")
    notes: dict[int, list[str]] = {}
    for number, hand in enumerate(hands if isinstance(hands, list) else [], start=1):
        if isinstance(hand, dict) and isinstance(hand.get("notes"), list):
            notes[number] = [str(text) for text in hand["notes"]]
    return notes


@cli.command("blank-sheet")
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
@click.option(
    "--rules", "rules_id", default=DEFAULT_RULE_SET, show_default=True, type=click.Choice(sorted(AT_THE_TABLE))
)
@click.option(
    "--players", type=click.IntRange(2, 5), help="Columns: players or sides.  [default: 4, or what the game is for]"
)
@click.option("--jokers", is_flag=True, help="Jokers in the card table.")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
def blank_sheet(output: str, rules_id: str, players: int | None, jokers: bool, paper: str) -> None:
    """A blank score sheet for tables that play on paper: `scorekeeper blank-sheet -o blank.pdf`."""
    from .reports import pdf
    from .reports.sheets import blank_sheet_html

    rules = configure_known(rules_id, {"jokers": jokers})
    seats = players if players is not None else usual_table(rules)
    _write_pdf(pdf.render_pdf(blank_sheet_html(rules, seats, paper.lower())), output)


@cli.command("rules-card")
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
@click.option(
    "--rules", "rules_id", default=DEFAULT_RULE_SET, show_default=True, type=click.Choice(sorted(AT_THE_TABLE))
)
@click.option("--jokers", is_flag=True, help="Include the Standig Joker adjunct.")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
def rules_card(output: str, rules_id: str, jokers: bool, paper: str) -> None:
    """A one-page rules quick-reference card: `scorekeeper rules-card -o rules.pdf`."""
    from .reports import pdf
    from .reports.sheets import rules_card_html

    _write_pdf(pdf.render_pdf(rules_card_html(configure_known(rules_id, {"jokers": jokers}), paper.lower())), output)


@cli.command("create-director")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input (for scripts).")
def create_director(password_stdin: bool) -> None:
    """Set (or replace) the tournament director's password, stored hashed; a new one logs out every director session."""
    from werkzeug.security import generate_password_hash

    from . import create_app
    from .storage import director as director_store
    from .storage.database import connect
    from .web.connection import database_path

    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = click.prompt("Director password", hide_input=True, confirmation_prompt=True)
    if len(password) < 10:
        raise click.ClickException("the password needs at least 10 characters")
    app = create_app()
    db = connect(database_path(app))
    try:
        director_store.set_director_password_hash(db, generate_password_hash(password), replace=True)
    finally:
        db.conn.close()
    click.echo("director password set")


@cli.command()
@click.argument("path", metavar="PATH")
def backup(path: str) -> None:
    """Copy the database consistently while the server runs (SQLite's online backup): `scorekeeper backup copy.db`."""
    from .storage.database import BackupError
    from .storage.database import backup as back_up
    from .web.app import configured_database

    source = configured_database()
    if not os.path.exists(source):
        raise click.ClickException(f"there is no database at {source}: check SCOREKEEPER_INSTANCE")
    try:
        back_up(source, path)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"backed up {source} to {path} (integrity ok)")


@cli.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 32))
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64))
@click.option(
    "--live-port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Port of the live updates (server-sent events); default: the port plus one; 0: none (pages poll).",
)
@click.option("--certfile", type=click.Path(dir_okay=False), help="Serve https with this certificate (PEM).")
@click.option("--keyfile", type=click.Path(dir_okay=False), help="The certificate's private key (PEM).")
def serve(
    host: str, port: int, workers: int, threads: int, live_port: int | None, certfile: str | None, keyfile: str | None
) -> None:
    """Serve the app with gunicorn for phones on the local network (what `make run` does);
    with --certfile and --keyfile, over https (a secure origin: phones can install the app)."""
    from .serve import BadCertificate, Certificate, PortTaken
    from .serve import serve as run_server
    from .web.security import BadProxySetting

    if (certfile is None) != (keyfile is None):
        raise click.UsageError("Give both --certfile and --keyfile, or neither.")
    tls = Certificate(certfile, keyfile) if certfile and keyfile else None
    try:
        run_server(host, port, workers, threads, live_port, tls)
    except (BadProxySetting, BadCertificate, PortTaken) as error:
        raise click.ClickException(str(error)) from None


@cli.command()
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
    from .club.ratings import MODEL
    from .storage.club_results import bring_up_to_date, stored_model
    from .storage.club_results import recompute as recompute_ratings
    from .storage.player_results import rated_members

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


@cli.command()
@click.argument("where", nargs=-1, metavar="EVENT_ID OUTDIR | --season NAME OUTDIR")
@click.option("--season", "season_name", metavar="NAME", help="Publish this season: its ladder and every event in it.")
def publish(where: tuple[str, ...], season_name: str | None) -> None:
    """Write an event's results (or a season's) as a folder of static pages: standings, rounds, every
    table's sheet (page and PDF), each player's results, the ratings and the ladder, with no link,
    join code or token of the app's. EVENT_ID is the number in /director/events/EVENT_ID."""
    from .reports import pdf
    from .web import publishing

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


@cli.command()
@click.argument("season")
@click.option(
    "--csv", "as_csv", is_flag=True, help="Print the ladder as CSV (with membership numbers), for a spreadsheet."
)
def ladder(season: str, as_csv: bool) -> int:
    """A season's ladder, from the club's record brought up to date: SEASON is its name, in any case."""
    from .reports.club_csv import ladder_rows
    from .reports.csv_text import csv_text
    from .reports.ladder import ladder_table
    from .storage.club_results import bring_up_to_date
    from .storage.seasons import list_seasons, season_by_name, season_ladder
    from .web.club_pages import names_shown

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
    from .storage.database import connect, migrate
    from .web.app import configured_database

    path = configured_database()
    if not os.path.exists(path):
        raise click.ClickException(f"there is no database at {path}: check SCOREKEEPER_INSTANCE")
    migrate(path)
    db = connect(path)
    try:
        yield db
    finally:
        db.conn.close()


class Seconds(click.ParamType[float]):
    """A number of seconds in its range, every refusal in one sentence: out of range, ``nan``
    (which compares as inside any range) and what is no number at all are told alike."""

    name = "seconds"

    def __init__(self, least: float, most: float) -> None:
        self.least = least
        self.most = most

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        try:
            seconds = float(str(value).strip())
        except ValueError:
            seconds = math.nan
        if not self.least <= seconds <= self.most:  # nan fails every comparison
            self.fail(f"{value} is not a number of seconds ({self.least:g} to {self.most:g})", param, ctx)
        return seconds

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "SECONDS"


@cli.command()
@click.option("--players", "count", type=int, default=None, help="How many players (named P1, P2, ...).")
@click.option("--rounds", type=int, required=True, help=f"How many rounds (1 to {MAX_ROUNDS}).")
@click.option(
    "--partnerships",
    type=click.Choice(["none", "fixed", "rotating"]),
    default="none",
    show_default=True,
    help="None: everyone alone; fixed: partners listed one after the other; rotating: new partners each round.",
)
@click.option(
    "--players-file",
    type=click.Path(dir_okay=False),
    default=None,
    help="The players' names, one a line, in UTF-8 ('-': standard input), instead of P1...PN.",
)
@click.option(
    "--odd",
    type=click.Choice([THREES, FIVES]),
    default=None,
    help="What takes up the players tables of four leave over: tables of three, or of five "
    "(where the count allows). Unset: a five for one left over, threes for two or three. "
    "The plan also says how the other choice would do.",
)
@click.option("--json", "as_json", is_flag=True, help='Print {"rounds": [[[seats of a table], ...], ...]}.')
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Another seed, another plan.")
@click.option(
    "--seconds",
    type=Seconds(0.1, 60),
    default=SECONDS,
    show_default=True,
    help="The most a search may take where no stored schedule fits (0.1 to 60).",
)
def seat(
    count: int | None,
    rounds: int,
    partnerships: str,
    players_file: str | None,
    odd: str | None,
    as_json: bool,
    seed: int,
    seconds: float,
) -> None:
    """Plan every round of an event at once: the fewest times any two players meet, then the
    fewest repeated table-mates, tables of three or five shared fairly, seats turned.

    Each table's players are in seat order, partners opposite (seats 1 and 3 against 2 and 4);
    a player who sits out a round is at none of its tables.
    """
    if players_file is not None and count is not None:
        raise click.UsageError("Give --players N or --players-file FILE, not both: the file says how many play.")
    if players_file is not None:
        names = _read_names_file(players_file)
    elif count is None:
        raise click.UsageError("Give --players N or --players-file FILE.")
    else:
        names = numbered_players(count)
    mode = ROTATE if partnerships == "rotating" else partnerships
    if as_json:
        plan = plan_event(names, rounds, mode, odd=odd or USUAL, seed=seed, seconds=seconds)
        click.echo(json.dumps({"rounds": plan.rounds}, ensure_ascii=False))
    else:
        plan = plan_with_choice(names, rounds, mode, odd=odd or USUAL, seed=seed, seconds=seconds)
        click.echo(text_output.plan_text(plan, mode))


def _read_names_file(name: str) -> list[str]:
    """The names in ``name`` ('-': standard input), read no further than a list of the most
    players an event takes can reach: a bigger file is refused, not read to its end."""
    try:
        data = _read_upto(name, NAMES_MAX_BYTES, "a list of names")
    except InvalidRecord as error:
        raise SeatingError(str(error), "players") from None
    if len(data) > NAMES_MAX_BYTES:
        raise SeatingError(
            f"{_where(name)} is larger than a list of {MAX_EVENT_PLAYERS} names can be: "
            f"line {line_of(data, NAMES_MAX_BYTES)} passes {NAMES_MAX_BYTES:,} bytes",
            "players",
        )
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark first is no part of the first name
    except UnicodeDecodeError as error:
        raise SeatingError(
            f"{_where(name)}: line {line_of(data, error.start)}: not UTF-8 text (a file of names, one a line)",
            "players",
        ) from None
    return read_names(text)


#: The most `scorekeeper score` reads from standard input: a hundred thousand hands of a whole
#: deck's cards each (an endless input is refused here, not read until memory runs out).
HANDS_MAX_BYTES = 16 * 1024 * 1024
#: Far more than the largest game record the limits allow (2,000 entries of a few dozen bytes):
#: a bigger file (or /dev/zero) is refused without being read to its end.
RECORD_MAX_BYTES = 16 * 1024 * 1024


def _read_text(name: str) -> str:
    """A game record's text from ``name`` ('-': standard input), read no further than RECORD_MAX_BYTES."""
    try:
        return _read_bounded(name, RECORD_MAX_BYTES, "a game record can be", "a game record").decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRecord(f"{_where(name)}: not a text file (expected UTF-8 JSON)") from None


def _where(name: str) -> str:
    return "standard input" if name == "-" else name


def _read_bounded(name: str, limit: int, most: str, what: str) -> bytes:
    """At most ``limit`` bytes of ``name`` ('-': standard input); InvalidRecord, in one line, for a
    file missing, a folder, unreadable, or larger than ``most`` (the sentence's end)."""
    data = _read_upto(name, limit, what)
    if len(data) > limit:
        raise InvalidRecord(f"{_where(name)} is larger than {most} (more than {limit:,} bytes)")
    return data


def _read_upto(name: str, limit: int, what: str) -> bytes:
    """At most ``limit + 1`` bytes of ``name`` ('-': standard input), so a caller sees it is larger;
    InvalidRecord, in one line, for a file missing, a folder or unreadable."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(name, "rb") as file:
                data = file.read(limit + 1)
    except FileNotFoundError:
        raise InvalidRecord(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InvalidRecord(f"{name}: is a folder, not {what}") from None
    except OSError as error:
        raise InvalidRecord(f"{_where(name)}: {error.strerror}") from None
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; print any refusal as one line on stderr and return its exit status."""
    try:
        result = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="scorekeeper",
            standalone_mode=False,
        )
    except click.ClickException as error:
        return _fail(error.format_message(), error.exit_code)
    except click.Abort:
        return _fail("aborted", 1)
    except Refusal as error:
        return _fail(str(error), 1)
    except BrokenPipeError:
        return 1
    return result if isinstance(result, int) else 0


def _fail(message: str, status: int) -> int:
    first_line = " ".join(message.split())
    click.echo(f"scorekeeper: error: {first_line}", err=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
