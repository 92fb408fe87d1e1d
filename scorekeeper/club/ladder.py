"""A season's ladder: its players ranked over its evenings by the rule the director chooses.

- ``points``: the sum of each evening's placement points;
- ``best``: the sum of a player's best N evenings' placement points (all they have, if fewer);
- ``rating``: the rating at the season's end (the cautious one, higher is better).

An evening's placement points are a table's, with the evening's players for the sides: 1
for every player placed below you, ½ for every other player tied with you, counting ranked
players only (place 0, no complete round, earns nothing and is below nobody). Scores are kept
in half-points, whole numbers, so that sums of many halves compare exactly.

On the ladder is everyone who played an evening. Ties share a place and the next is skipped,
as in an event's standings; a player with nothing to rank by (no ranked evening, or no rating)
is listed last with no place (0), as a player without a complete round is in an event.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from ..scoring.errors import Refusal

POINTS, BEST, RATING = "points", "best", "rating"
LADDER_RULES = (POINTS, BEST, RATING)
K = TypeVar("K", bound=Hashable)

PLACEMENT_POINTS = "(1 for every player placed below you that evening, ½ for every player tied with you)"


class LadderRefusal(Refusal):
    """A ladder asked for by a rule it cannot follow; ``field`` is ``rule`` or ``best``."""


@dataclass(frozen=True)
class Evening(Generic[K]):
    """One evening of the season, as its standings placed its players (0: unranked)."""

    event_id: int
    name: str
    #: An ISO date, so that the season's order is the order it sorts in.
    held_on: str
    places: Mapping[K, int]


@dataclass(frozen=True)
class LadderRow(Generic[K]):
    """One player's line on the ladder: what a page, a PDF or the terminal shows."""

    player: K
    #: Shared on ties (two tied 3rd are both 3, the next is 5); 0: nothing to rank by.
    place: int
    #: Shares its place with another row, so that a page can say "=3".
    tied: bool
    score: float
    #: Evenings the player played, ranked or not.
    evenings: int
    #: The evenings whose points count, in the season's order (``rating``: none).
    counted: tuple[int, ...]
    #: Every evening the player played, in the season's order, with its points (unranked: 0.0).
    by_evening: Mapping[int, float]
    #: The evenings the player played without a place, to show as "—" rather than 0.
    unranked: tuple[int, ...] = ()


def evening_points(places: Mapping[K, int]) -> dict[K, float]:
    """Each ranked player's placement points for the evening: what the ladder adds up."""
    return {player: halves / 2 for player, halves in _halves(places).items()}


def _halves(places: Mapping[K, int]) -> dict[K, int]:
    ranked = sorted(place for place in places.values() if place >= 1)
    ties = Counter(ranked)
    below = {place: len(ranked) - bisect_right(ranked, place) for place in ties}
    return {player: 2 * below[place] + ties[place] - 1 for player, place in places.items() if place >= 1}


def ladder(
    evenings: Sequence[Evening[K]],
    rule: str,
    *,
    best: int | None = None,
    ratings: Mapping[K, float] | None = None,
    names: Mapping[K, str] | None = None,
) -> list[LadderRow[K]]:
    """The season's players, best first: places shared on ties, never broken; tied rows by name."""
    _check(rule, best)
    if rule == RATING and ratings is None:
        raise LadderRefusal("a ladder by rating needs the players' ratings", "rule")
    season = sorted(evenings, key=lambda evening: (evening.held_on, evening.event_id))
    halves = {evening.event_id: _halves(evening.places) for evening in season}
    played: dict[K, list[int]] = {}
    for evening in season:
        for player in evening.places:
            played.setdefault(player, []).append(evening.event_id)
    # What a row ranks by: its points in halves (whole numbers, exact) or its rating; None: nothing.
    scored: list[tuple[float | None, LadderRow[K]]] = []
    for player, theirs in played.items():
        earned = {event: halves[event].get(player, 0) for event in theirs}
        unranked = tuple(event for event in theirs if player not in halves[event])
        counted = () if rule == RATING else tuple(theirs) if rule == POINTS else _best(earned, best or 0)
        value: float | None = None
        if rule == RATING:
            value = (ratings or {}).get(player)
        elif len(unranked) < len(theirs):
            value = sum(earned[event] for event in counted)
        score = 0.0 if value is None else float(value) if rule == RATING else value / 2
        by_evening = {event: points / 2 for event, points in earned.items()}
        scored.append((value, LadderRow(player, 0, False, score, len(theirs), counted, by_evening, unranked)))
    scored.sort(key=lambda item: (item[0] is None, -(item[0] or 0), *_by_name(item[1].player, names)))
    ties = Counter(value for value, _ in scored if value is not None)
    rows, place, previous = [], 0, None
    for index, (value, row) in enumerate(scored, start=1):
        if value is not None and value != previous:
            place, previous = index, value
        rows.append(row if value is None else replace(row, place=place, tied=ties[value] > 1))
    return rows


def _best(earned: Mapping[int, int], best: int) -> tuple[int, ...]:
    """The ``best`` evenings of the most points; on equal points the earlier (``earned`` is in
    the season's order and the sort is stable), so that the choice is always the same."""
    chosen = set(sorted(earned, key=lambda event: -earned[event])[:best])
    return tuple(event for event in earned if event in chosen)


def _by_name(player: K, names: Mapping[K, str] | None) -> tuple[str, str, str]:
    """Tied rows in the order a reader looks a name up: casefolded, then as written."""
    written = names.get(player) if names else None
    written = str(player) if written is None else written
    return written.casefold(), written, str(player)


def _check(rule: str, best: int | None) -> None:
    if rule not in LADDER_RULES:
        raise LadderRefusal(f"a ladder ranks by one of {', '.join(LADDER_RULES)}, not {rule!r}", "rule")
    if rule == BEST and (best is None or best < 1):
        raise LadderRefusal("the best evenings that count must be 1 or more", "best")


def ladder_rule_words(rule: str, best: int | None, evenings: int) -> str:
    """The rule as a club player reads it, on the ladder's page and its PDF; ``evenings`` is
    how many the season has had so far."""
    _check(rule, best)
    if rule == POINTS:
        return f"Sum of each evening's placement points {PLACEMENT_POINTS}"
    if rule == RATING:
        return "Rating at the season's end (the cautious rating: mu − 3 sigma)"
    assert best is not None
    if best < evenings:
        return f"Best {best} of {evenings} evenings' placement points {PLACEMENT_POINTS}"
    held = "no evening held yet" if not evenings else f"so far every evening counts ({_count(evenings)} held)"
    return f"Best {best} evenings' placement points {PLACEMENT_POINTS}; {held}"


def _count(evenings: int) -> str:
    return "1 evening" if evenings == 1 else f"{evenings} evenings"
