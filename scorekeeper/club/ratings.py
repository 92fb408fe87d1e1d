"""Ratings across events: openskill's Plackett–Luce, a published multiplayer model, table by table.

Each finished (or locked) table is one result: its sides (a partnership is a team, a player
alone a team of one) in the order the game placed them. The model moves each player's
estimate of skill (``mu``) and its uncertainty (``sigma``); the number shown is the cautious
one, ``mu − 3 sigma`` (openskill's ordinal), which starts at 0 and grows as a player shows
what they are worth, so that one lucky evening does not top the list.

Ties. Crates tables tie on totals, and openskill's Plackett–Luce mishandles a tie: with places
1, 1, 3, 4 it gives the third player the same gain as the two tied winners (openskill issues
#155, #166, #173, #201). A tie is therefore rated as the average of every way it could have
been broken: a table of places 1, 1, 3, 4 is rated as 1-2-3-4 and as 2-1-3-4, and each
player's new ``mu`` and ``sigma`` are the means of the two. Tied players are treated alike,
both gain more than the player placed below them, and a table without a tie is rated by
exactly one call of the model, as anyone with openskill would rate it. A table of k tied
sides costs k! calls (at most 120, five sides all tied).

Ratings depend on the order of the tables (the same games in reverse give other numbers), so
tables are rated in the order they finished, which storage keeps with them; and on the model's
exact arithmetic, so the model's name, version and parameters are stored with the ratings.
"""

from __future__ import annotations

import itertools
import math
import struct
import sys
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

import openskill
from openskill.models import PlackettLuce, PlackettLuceRating

K = TypeVar("K", bound=Hashable)

#: How far below ``mu`` the number shown sits, in ``sigma``s (openskill's ``ordinal``, z = 3).
CAUTION = 3


@dataclass(frozen=True)
class RatingModel:
    """The model ratings were computed with: another name, version or parameter is another
    model, whose ratings are recomputed from the stored results, never mixed with these."""

    name: str
    version: str
    parameters: Mapping[str, float | bool]

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}"

    def make(self) -> PlackettLuce:
        values = dict(self.parameters)
        return PlackettLuce(
            mu=float(values["mu"]),
            sigma=float(values["sigma"]),
            beta=float(values["beta"]),
            kappa=float(values["kappa"]),
            tau=float(values["tau"]),
            limit_sigma=bool(values["limit_sigma"]),
            balance=bool(values["balance"]),
        )


def _defaults() -> RatingModel:
    model = PlackettLuce()
    return RatingModel(
        "openskill.PlackettLuce",
        openskill.__version__,
        {
            "mu": model.mu,
            "sigma": model.sigma,
            "beta": model.beta,
            "kappa": model.kappa,
            "tau": model.tau,
            "limit_sigma": model.limit_sigma,
            "balance": model.balance,
        },
    )


#: The model in use: openskill's Plackett–Luce with its published defaults (mu 25, sigma 25/3).
MODEL = _defaults()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    #: Tables rated.
    tables: int = 0

    @property
    def ordinal(self) -> float:
        """The cautious rating shown: mu − 3 sigma."""
        return self.mu - CAUTION * self.sigma


class RatedTable(NamedTuple, Generic[K]):
    """One table's result: each side's players, and its place (1 best; equal places tie);
    ``id`` names it in the players' history. (A named tuple: thousands are read at once.)"""

    sides: Sequence[Sequence[K]]
    places: Sequence[int]
    id: int = 0


class History:
    """A player's rating after each table they played: the table's id, mu and sigma, kept in three
    arrays of plain numbers (thousands of points are kept at once: no object a point), packed as
    stored: the count, then the ids, the mus and the sigmas, little-endian, exact."""

    __slots__ = ("ids", "mus", "sigmas")

    def __init__(self) -> None:
        self.ids, self.mus, self.sigmas = array("q"), array("d"), array("d")

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, table_id: int, mu: float, sigma: float) -> None:
        self.ids.append(table_id)
        self.mus.append(mu)
        self.sigmas.append(sigma)

    def points(self) -> list[tuple[int, float, float]]:
        return list(zip(self.ids, self.mus, self.sigmas, strict=True))

    def packed(self) -> bytes:
        count = array("q", [len(self.ids)])
        parts: list[array[int] | array[float]] = [count, self.ids, self.mus, self.sigmas]
        if sys.byteorder != "little":
            parts = [_swapped(part) for part in parts]
        return b"".join(part.tobytes() for part in parts)

    @classmethod
    def unpacked(cls, data: bytes) -> History:
        history = cls()
        if not data:
            return history
        count = int.from_bytes(data[:8], "little")
        size = 8 * count
        history.ids.frombytes(data[8 : 8 + size])
        history.mus.frombytes(data[8 + size : 8 + 2 * size])
        history.sigmas.frombytes(data[8 + 2 * size : 8 + 3 * size])
        if sys.byteorder != "little":
            for part in (history.ids, history.mus, history.sigmas):
                part.byteswap()
        return history


def _swapped(part: array[int] | array[float]) -> array[int] | array[float]:
    copy = array(part.typecode, part)
    copy.byteswap()
    return copy


@dataclass
class Ratings(Generic[K]):
    """Every player's rating as the tables are rated in order, with each player's rating after
    every table they played (``history``: the table's id, mu, sigma)."""

    model: RatingModel = MODEL
    ratings: dict[K, PlackettLuceRating] = field(default_factory=dict)
    history: dict[K, History] = field(default_factory=dict)
    #: Tables each player had played before these ratings resumed.
    earlier: dict[K, int] = field(default_factory=dict)
    rated: int = 0

    def __post_init__(self) -> None:
        self._model = self.model.make()

    @classmethod
    def resumed(cls, model: RatingModel, start: Mapping[K, Rating]) -> Ratings[K]:
        """Ratings as stored, to rate the tables that finished since (``history`` holds only the
        points added from here)."""
        ratings = cls(model)
        make = ratings._model.rating
        ratings.ratings = {player: make(mu=r.mu, sigma=r.sigma) for player, r in start.items()}
        ratings.earlier = {player: r.tables for player, r in start.items()}
        return ratings

    def rate(self, table: RatedTable[K]) -> None:
        """Rate one table: its players' ratings move, and their history grows by a point."""
        self.rated += 1
        ratings, history, make = self.ratings, self.history, self._model.rating
        teams = [[ratings.get(player) or make() for player in side] for side in table.sides]
        table_id = table.id
        for side, team in zip(table.sides, _rate(self._model, teams, table.places), strict=True):
            for player, rating in zip(side, team, strict=True):
                ratings[player] = rating
                points = history.get(player)
                if points is None:
                    points = history[player] = History()
                points.add(table_id, rating.mu, rating.sigma)

    def points(self, player: K) -> list[tuple[int, float, float]]:
        """The player's rating after each table rated here: (table id, mu, sigma)."""
        found = self.history.get(player)
        return found.points() if found is not None else []

    def rate_all(self, tables: Iterable[RatedTable[K]]) -> Ratings[K]:
        for table in tables:
            self.rate(table)
        return self

    def current(self) -> dict[K, Rating]:
        earlier, history = self.earlier, self.history
        return {
            player: Rating(r.mu, r.sigma, earlier.get(player, 0) + len(history.get(player, ())))
            for player, r in self.ratings.items()
        }


def _rate(
    model: PlackettLuce, teams: list[list[PlackettLuceRating]], places: Sequence[int]
) -> list[list[PlackettLuceRating]]:
    ranks: list[float] = list(places)
    if len(set(ranks)) == len(ranks):
        return model.rate(teams, ranks=ranks)
    outcomes = [model.rate(teams, ranks=list(order)) for order in tie_breaks(places)]
    averaged = []
    for index, team in enumerate(teams):
        members = []
        for member in range(len(team)):
            mus = [outcome[index][member].mu for outcome in outcomes]
            sigmas = [outcome[index][member].sigma for outcome in outcomes]
            members.append(model.rating(mu=math.fsum(mus) / len(mus), sigma=math.fsum(sigmas) / len(sigmas)))
        averaged.append(members)
    return averaged


def tie_breaks(places: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every strict order of the sides that keeps their places and breaks each tie one way
    (places 1, 1, 3: (1, 2, 3) and (2, 1, 3)). ``math.fsum`` over them makes the mean the same
    whatever order the ways come in, so tied players with equal ratings end exactly equal."""
    groups: dict[int, list[int]] = {}
    for index, place in enumerate(places):
        groups.setdefault(place, []).append(index)
    ordered = [groups[place] for place in sorted(groups)]
    for choice in itertools.product(*(itertools.permutations(group) for group in ordered)):
        ranks = [0] * len(places)
        rank = 1
        for group in choice:
            for index in group:
                ranks[index] = rank
                rank += 1
        yield tuple(ranks)


def pack_history(points: Sequence[tuple[int, float, float]]) -> bytes:
    """A history as stored (``History.packed``), from its points."""
    history = History()
    for point in points:
        history.add(*point)
    return history.packed()


def unpack_history(data: bytes) -> list[tuple[int, float, float]]:
    return History.unpacked(data).points()


def last_point_before(data: bytes, later: set[int]) -> tuple[float, float] | None:
    """(mu, sigma) of the last point of a stored history whose table is not one of ``later``, read
    from its end: only the points after it are read (a season's end, years back, costs no more)."""
    history = History.unpacked(data)
    for index in range(len(history) - 1, -1, -1):
        if history.ids[index] not in later:
            return history.mus[index], history.sigmas[index]
    return None


T = TypeVar("T")


def placed(rows: Sequence[tuple[T, Rating]]) -> list[tuple[int, T, Rating]]:
    """Each rated player (best first, as given) with their place, shared when their cautious
    ratings are equal: the ratings' pages, CSVs and terminal place them alike."""
    shown, place, previous = [], 0, None
    for index, (who, rating) in enumerate(rows, start=1):
        if rating.ordinal != previous:
            place, previous = index, rating.ordinal
        shown.append((place, who, rating))
    return shown


def pack_table(sides: Sequence[Sequence[int]], places: Sequence[int]) -> bytes:
    """A table's result as the ratings read it back, thousands at once: the number of sides, each
    side's size, each side's place, then every member (little-endian 32-bit whole numbers)."""
    flat = [len(sides), *map(len, sides), *places, *(member for side in sides for member in side)]
    return struct.pack(f"<{len(flat)}i", *flat)


def unpack_table(data: bytes, table_id: int) -> RatedTable[int]:
    """A table packed by ``pack_table``, to rate (``table_id`` names it in the players' history)."""
    values = struct.unpack(f"<{len(data) // 4}i", data)
    count = values[0]
    sizes, places, members = values[1 : 1 + count], values[1 + count : 1 + 2 * count], values[1 + 2 * count :]
    if all(size == 1 for size in sizes):
        return RatedTable([(member,) for member in members], places, table_id)
    sides, start = [], 0
    for size in sizes:
        sides.append(members[start : start + size])
        start += size
    return RatedTable(sides, places, table_id)
