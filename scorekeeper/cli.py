"""The ``scorekeeper`` command: score a hand, list pressures, replay a game record, serve the app.

Every refusal ends with a non-zero exit status and one line on standard error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from . import text_output
from .scoring import (
    RULE_SETS,
    InvalidRecord,
    LeftoverScore,
    RuleSet,
    ScoringError,
    configure,
    load_record,
    parse_cards,
    pressure_ladder,
)
from .scoring.rulesets import DEFAULT_RULE_SET, SINGLE_HAND

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
    rules = configure(rules_id, {"jokers": jokers, "decks": decks})
    if cards:
        hands = [_score_line(rules, list(cards), None)]
    else:
        hands = [
            _score_line(rules, line.split(), number)
            for number, line in enumerate(sys.stdin.read().splitlines(), start=1)
            if line.strip()
        ]
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
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        click.echo(text_output.score_table(result))


@cli.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 32))
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64))
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Serve the app with gunicorn for phones on the local network (what `make run` does)."""
    from .serve import serve as run_server

    run_server(host, port, workers, threads)


def _read_text(name: str) -> str:
    try:
        if name == "-":
            return sys.stdin.read()
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidRecord(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InvalidRecord(f"{name}: is a folder, not a game record") from None
    except UnicodeDecodeError:
        raise InvalidRecord(f"{name}: not a text file (expected UTF-8 JSON)") from None
    except OSError as error:
        raise InvalidRecord(f"{name}: {error.strerror}") from None


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
    except ScoringError as error:
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
