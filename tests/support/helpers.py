"""Small builders shared by the engine tests."""

from __future__ import annotations

from scorekeeper.gamelog import Entry
from scorekeeper.scoring import Game, Hand, configure, parse_cards


def cards(text: str):
    return parse_cards(text.split())


def crates(**options):
    return configure("crates", options)


def hand(pressures: tuple[str, ...] = (), **leftovers: str) -> Hand:
    """``hand(Ann="A 3", Bob="")``: each player's leftovers as written on a score pad."""
    return Hand({name: cards(text) for name, text in leftovers.items()}, tuple(pressures))


def game(players: str = "Ann Bob Cy Di", partnerships: str | None = None, rules=None, **kwargs) -> Game:
    teams = tuple(tuple(team.split("+")) for team in partnerships.split()) if partnerships else ()
    return Game(rules or crates(), tuple(players.split()), teams, **kwargs)


#: The time the game log's pure tests stamp their entries with.
AT = "2026-11-28T12:00:00+00:00"


def entry(id_: int, kind: str, hand: int | None = None, player: str | None = None, target: int | None = None, **data):
    """A log entry as storage would hand it back: its id its seq, sent by "test" at ``AT``."""
    return Entry(id_, id_, kind, hand, player, data, target, "test", AT)
