"""Commands of the game and its rules: score a hand, list pressures, replay and verify a game record."""

from __future__ import annotations

import json

import click

from ..reports import text as text_output
from ..scoring import (
    RULE_SETS,
    GameRecord,
    InvalidRecord,
    LeftoverScore,
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
from ..scoring.rulesets import DEFAULT_RULE_SET, SINGLE_HAND, configure_known
from .reading import HANDS_MAX_BYTES, read_bounded, read_text

EMPTY_HAND = "-"


@click.command()
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
        text = read_bounded("-", HANDS_MAX_BYTES, "a list of hands can be", "a list of hands")
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


@click.command()
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


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the replay output of the record spec.")
@click.argument("game_file", metavar="GAME.json")
def replay(as_json: bool, game_file: str) -> None:
    """Score a whole game record (a game in progress too); '-' reads it from standard input."""
    record = load_record(read_text(game_file))
    result = record.score()
    if as_json:
        output = {**result.to_json(), "verification_code": record.verification_code}
        click.echo(json.dumps(output, ensure_ascii=False))
    else:
        click.echo(text_output.score_table(result))


@click.command()
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
    from ..storage.event_results import EVENT_FORMAT

    data = decode_json(read_text(game_file))
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
