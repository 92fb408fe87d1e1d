"""The ``scorekeeper`` command: score a hand, list pressures, replay a game record, serve the app,
seat an event, keep the club. One module of commands per job (``games``, ``printouts``,
``server``, ``club``, ``event``), gathered here under one group.

Every refusal ends with a non-zero exit status and one line on standard error.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from ..scoring import Refusal
from . import club, event, games, printouts, server


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Scorekeeper: scoring and refereeing Crates and its relatives."""


for command in (
    games.score,
    games.pressures,
    games.replay,
    games.verify,
    printouts.report,
    printouts.blank_sheet,
    printouts.rules_card,
    server.create_director,
    server.backup,
    server.serve,
    club.ratings,
    club.publish,
    club.ladder,
    event.seat,
):
    cli.add_command(command)


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
