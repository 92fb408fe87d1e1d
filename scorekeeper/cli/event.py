"""The command that seats an event: a plan of its rounds (``scorekeeper seat``)."""

from __future__ import annotations

import json
import math
from typing import Any

import click

from ..reports import text as text_output
from ..scoring import (
    InvalidRecord,
)
from ..tournament.names_list import NAMES_MAX_BYTES, line_of, numbered_players, read_names
from ..tournament.plan import MAX_ROUNDS, SECONDS, plan_event, plan_with_choice
from ..tournament.seating import FIVES, MAX_EVENT_PLAYERS, ROTATE, THREES, USUAL, SeatingError
from .reading import read_upto, where


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


@click.command()
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
        data = read_upto(name, NAMES_MAX_BYTES, "a list of names")
    except InvalidRecord as error:
        raise SeatingError(str(error), "players") from None
    if len(data) > NAMES_MAX_BYTES:
        raise SeatingError(
            f"{where(name)} is larger than a list of {MAX_EVENT_PLAYERS} names can be: "
            f"line {line_of(data, NAMES_MAX_BYTES)} passes {NAMES_MAX_BYTES:,} bytes",
            "players",
        )
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark first is no part of the first name
    except UnicodeDecodeError as error:
        raise SeatingError(
            f"{where(name)}: line {line_of(data, error.start)}: not UTF-8 text (a file of names, one a line)",
            "players",
        ) from None
    return read_names(text)
