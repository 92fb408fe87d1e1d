"""Commands that print: a game's report, a blank score sheet, a rules card (PDF files)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..scoring import (
    InvalidRecord,
    load_record,
)
from ..scoring.game import usual_table
from ..scoring.rulesets import AT_THE_TABLE, DEFAULT_RULE_SET, configure_known
from .reading import read_text

PAPER = click.Choice(["a4", "letter"], case_sensitive=False)


def _write_pdf(body: bytes, output: str) -> None:
    try:
        Path(output).write_bytes(body)
    except OSError as error:
        raise InvalidRecord(f"{output}: {error.strerror}") from None
    click.echo(f"wrote {output} ({len(body) // 1024} KB)")


@click.command()
@click.argument("game_file", metavar="GAME.json")
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
@click.option("--title", default=None, help="Event or table name (default: the record's title).")
@click.option("--url", default=None, help="The game's read-only link, printed as a QR code.")
def report(game_file: str, output: str, paper: str, title: str | None, url: str | None) -> None:
    """Print a game record's score sheet to PDF, without the server: `scorekeeper report game.json -o sheet.pdf`."""
    from ..reports import pdf
    from ..reports.sheets import score_sheet_html

    data = read_text(game_file)
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


@click.command("blank-sheet")
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
    from ..reports import pdf
    from ..reports.sheets import blank_sheet_html

    rules = configure_known(rules_id, {"jokers": jokers})
    seats = players if players is not None else usual_table(rules)
    _write_pdf(pdf.render_pdf(blank_sheet_html(rules, seats, paper.lower())), output)


@click.command("rules-card")
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
@click.option(
    "--rules", "rules_id", default=DEFAULT_RULE_SET, show_default=True, type=click.Choice(sorted(AT_THE_TABLE))
)
@click.option("--jokers", is_flag=True, help="Include the Standig Joker adjunct.")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
def rules_card(output: str, rules_id: str, jokers: bool, paper: str) -> None:
    """A one-page rules quick-reference card: `scorekeeper rules-card -o rules.pdf`."""
    from ..reports import pdf
    from ..reports.sheets import rules_card_html

    _write_pdf(pdf.render_pdf(rules_card_html(configure_known(rules_id, {"jokers": jokers}), paper.lower())), output)
