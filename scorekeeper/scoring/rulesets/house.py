"""House rules: a game a table defines for itself, carried whole in a record's ``options``.

A record says ``"rules": "house"`` and its options hold the definition, so it replays
anywhere without the table's saved list::

    {"name": "Kitchen Eights", "values": {"A": 1, "2": 2, ..., "8": 50, ..., "K": 10},
     "joker": 25, "special": {"QS": 40}, "decks": 1,
     "scoring": "winner", "end": "target", "deal": [7], "limit": 150,
     "pressures": false, "pressure_cap": null}

- ``values``: points for each of the 13 ranks; ``joker``: a joker's points (absent or null:
  no jokers; two a deck); ``special``: suited cards worth something else (``QS``: the queen
  of spades), which makes the suit of that rank necessary.
- ``scoring``: ``own`` (each player scores the cards left in their own hand, lowest total
  wins) or ``winner`` (the player who goes out collects the others' points, highest wins).
- ``end``: ``hands`` (the game is the hands in ``deal``, each number the cards dealt in one
  hand), ``target`` (over when someone reaches ``limit`` at the end of a hand; ``deal`` is one
  number) or ``loss_line`` (``limit`` or more is out; over when at most one player is still
  below it; own scoring only).
- ``pressures``: Crates' pressures (5, then doubling; ``pressure_cap`` caps the increase).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, cast

from ..cards import STANDARD_RANKS, Card, Rank
from ..errors import InvalidCard, InvalidOptions, InvalidSeating, RefereeError
from ..leftovers import LeftoverScore, ScoredCard
from ..pressures import FIRST_PRESSURE, pressure_value
from .base import History, RuleSet, Seating, option
from .to_a_score import winner_collects

OWN, WINNER = "own", "winner"
HANDS, TARGET, LOSS_LINE = "hands", "target", "loss_line"
SCORINGS = {OWN: "each player scores their own cards", WINNER: "the player who goes out collects"}
ENDS = {HANDS: "a fixed number of hands", TARGET: "a target", LOSS_LINE: "a loss line"}
MAX_PLAYERS = 10
#: Fields read by this module rather than by the generic option checks.
STRUCTURED = ("values", "special", "deal")
MAX_HANDS = 60
MAX_DEAL = 26
#: Face value, pictures 10: what a new house game starts from.
FACE_VALUES: Mapping[Rank, int] = {
    **{rank: index + 1 for index, rank in enumerate(STANDARD_RANKS[:10])},
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
}


@dataclass(frozen=True)
class HouseRules(RuleSet):
    """A table's own game; ``configure("house", definition)`` checks and builds it."""

    id = "house"
    name = "House rules"
    summary = "A game the table defines: card values, who scores, how it ends, pressures or not."
    has_count = False
    has_one_card_penalty = False
    #: Played at the table from a saved definition, not from the list of built-in games.
    at_the_table = False

    title: str = option("House rules", "str", "Name", "What the table calls this game.")
    values: tuple[tuple[Rank, int], ...] = option(tuple(FACE_VALUES.items()), "values", "Card values", "")
    joker: int | None = option(None, "optional_int", "Joker", "A joker's points; blank: no jokers.")
    special: tuple[tuple[Card, int], ...] = option((), "special", "Special cards", "")
    decks: int = option(1, "int", "Decks", "One deck or two.", choices=(1, 2))
    scoring: str = option(OWN, "str", "Who scores", "", choices=tuple(SCORINGS))
    end: str = option(HANDS, "str", "The end", "", choices=tuple(ENDS))
    deal: tuple[int, ...] = option((7,), "deal", "Cards dealt", "")
    limit: int | None = option(None, "optional_int", "Target or loss line", "", minimum=1)
    pressures: bool = option(False, "bool", "Pressures", "Crates' pressures: 5, then doubling.")
    pressure_cap: int | None = option(None, "optional_int", "Pressure increase cap", "", minimum=1)

    @classmethod
    def from_options(cls, raw: Mapping[str, object] | None = None) -> Self:
        """Read a definition as written in a record; every refusal names the field."""
        raw = dict(raw or {})
        names = {spec.name for spec in cls.option_specs()}
        written = {("title" if key == "name" else key): value for key, value in raw.items()}
        unknown = sorted(set(written) - names)
        if unknown:
            raise InvalidOptions(f"house rules have no field {unknown[0]!r}", unknown[0])
        plain = {key: value for key, value in written.items() if key not in STRUCTURED}
        try:
            base = super().from_options(plain)
        except InvalidOptions as error:  # the definition's key is "name", the field's "title"
            if error.field == "title":
                raise InvalidOptions(str(error).replace("'title'", "'name'"), "name") from None
            raise
        values = dict(base.values)
        if "values" in written:
            values.update(_read_values(written["values"]))
        special = _read_special(written.get("special", {}))
        deal = _read_deal(written.get("deal", list(base.deal)))
        rules = cast(
            Self,
            _flavour(base.title, base.scoring == OWN, base.pressures, bool(special))(
                **{**base.__dict__, "values": tuple(values.items()), "special": special, "deal": deal}
            ),
        )
        rules._check_definition()
        return rules

    def _check_definition(self) -> None:
        if self.end == HANDS and not self.deal:
            raise InvalidOptions("house rules ending after fixed hands need the cards dealt in each hand", "deal")
        if self.end != HANDS and len(self.deal) != 1:
            raise InvalidOptions("house rules played to a target or loss line deal one number of cards", "deal")
        if self.end != HANDS and self.limit is None:
            line = "the target" if self.end == TARGET else "the loss line"
            raise InvalidOptions(f"house rules ending at {ENDS[self.end]} need {line}'s points ('limit')", "limit")
        if self.end == LOSS_LINE and self.scoring == WINNER:
            raise InvalidOptions("a loss line needs each player scoring their own cards", "scoring")
        if self.pressure_cap is not None and not self.pressures:
            raise InvalidOptions("a pressure increase cap needs pressures on", "pressure_cap")

    def options(self) -> dict[str, object]:
        """The definition as written in a game record."""
        return {
            "name": self.title,
            "values": {rank.value: points for rank, points in self.values},
            "joker": self.joker,
            "special": {card.token.upper(): points for card, points in self.special},
            "decks": self.decks,
            "scoring": self.scoring,
            "end": self.end,
            "deal": list(self.deal),
            "limit": self.limit,
            "pressures": self.pressures,
            "pressure_cap": self.pressure_cap,
        }

    def describe(self) -> tuple[tuple[str, str], ...]:
        """The definition in words, for sheets and the rules card."""
        if self.end == HANDS:
            hands = "1 hand" if len(self.deal) == 1 else f"{len(self.deal)} hands"
            end = f"{hands}, dealt {' '.join(map(str, self.deal))}"
        elif self.end == TARGET:
            end = f"first to {self.limit} at the end of a hand, {self.deal[0]} cards each"
        else:
            end = f"{self.limit} or more loses, {self.deal[0]} cards each"
        return (
            ("Who scores", SCORINGS[self.scoring] + ("; lowest total wins" if self.lowest_wins else "; highest wins")),
            ("The end", end),
            ("Decks", str(self.decks)),
            ("Pressures", self.pressures_in_words()),
        )

    def pressures_in_words(self) -> str:
        if not self.pressures:
            return "off"
        return "doubling" if self.pressure_cap is None else f"increase capped at {self.pressure_cap}"

    def how_it_scores(self) -> str:
        if self.scoring == WINNER:
            return "The player who goes out collects the count of every other hand."
        return super().how_it_scores()

    def blocked_hand(self) -> str | None:
        if self.scoring == WINNER:
            return "Blocked (nobody can go out): the lowest count collects from each other player the difference."
        return None

    def how_it_is_won(self) -> str | None:
        best = "lowest" if self.lowest_wins else "highest"
        if self.end == TARGET:
            return f"The game ends when someone reaches {self.limit} at the end of a hand; the {best} total wins."
        if self.end == LOSS_LINE:
            return f"{self.limit} or more loses: the game ends when at most one player is still below {self.limit}, who wins."
        return super().how_it_is_won()

    def scoring_rules(self) -> tuple[tuple[str, str], ...]:
        """The definition in words, and how a blocked hand is settled where the winner collects."""
        blocked = self.blocked_hand()
        return tuple((label, f"{text}.") for label, text in self.describe()) + ((("", blocked),) if blocked else ())

    # Seating and the deal ---------------------------------------------------

    def check_seating(self, game: Seating) -> None:
        count = len(game.players)
        if not 2 <= count <= MAX_PLAYERS:
            raise InvalidSeating(f"{self.name} is for 2 to {MAX_PLAYERS} players, not {count}", "players")
        if game.has_partnerships:
            if self.scoring == WINNER:
                raise InvalidSeating(
                    f"in {self.name} the player who goes out collects: everyone plays alone", "partnerships"
                )
            game.check_partners_opposite()

    def schedule(self) -> tuple[int, ...]:
        return self.deal if self.end == HANDS else ()

    def max_hands(self) -> int | None:
        return len(self.deal) if self.end == HANDS else None

    def cards_dealt(self, number: int, players: int) -> int:
        return self.deal[number - 1] if self.end == HANDS else self.deal[0]

    # Scoring ----------------------------------------------------------------

    def uses_jokers(self) -> bool:
        return self.joker is not None

    def card_points(self, card: Card) -> int:
        if card.rank is Rank.JOKER:
            if self.joker is None:
                raise RefereeError(f"{self.name} has no jokers")
            return self.joker
        for special, points in self.special:
            if special.rank is card.rank:
                if card.suit is None:
                    raise RefereeError(
                        f"{special.label} is a special card in {self.name}: give the suit of each "
                        f"{card.rank.value} (e.g. {card.rank.value}s)"
                    )
                if special == card:
                    return points
        return dict(self.values)[card.rank]

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        scored = tuple(ScoredCard(card, self.card_points(card)) for card in cards)
        return LeftoverScore(tuple(cards), sum(item.points for item in scored), uncovered=scored)

    def pressure_terms(self) -> dict[str, Any] | None:
        return {"first": FIRST_PRESSURE, "cap": self.pressure_cap} if self.pressures else None

    def leftover_terms(self) -> dict[str, Any]:
        points: dict[str, int] = {rank.value: value for rank, value in self.values}
        if self.joker is not None:
            points[Rank.JOKER.value] = self.joker
        return {"points": points, "special": {card.token.upper(): value for card, value in self.special}}

    def collect_terms(self) -> str | None:
        return "points" if self.scoring == WINNER else None

    def end_terms(self, game: Seating) -> dict[str, Any]:
        if self.end == HANDS:
            return {"hands": len(self.deal)}
        if self.end == TARGET:
            return {"target": self.limit, "bonus": 0}
        return {"loss_line": self.limit, "outright": None}

    def pressure_value(self, number: int) -> int:
        if not self.pressures:
            raise RefereeError(f"{self.name} has no pressures")
        return pressure_value(number, self.pressure_cap)

    def hand_points(self, game: Seating, scored: Mapping[str, LeftoverScore]) -> dict[str, int]:
        if self.scoring == WINNER:
            return winner_collects(game, scored, lambda leftovers: leftovers.total)
        return super().hand_points(game, scored)

    def is_decided(self, game: Seating, totals: Mapping[str, int], history: History) -> bool:
        if self.end == HANDS:
            return len(history) == len(self.deal)
        assert self.limit is not None
        if self.end == TARGET:
            return max(totals.values()) >= self.limit
        return sum(1 for total in totals.values() if total < self.limit) <= 1

    def card_values(self) -> tuple[tuple[str, str], ...]:
        values = [(rank.value, str(points)) for rank, points in self.values]
        values += [(card.label, str(points)) for card, points in self.special]
        if self.joker is not None:
            values.append((Rank.JOKER.value, str(self.joker)))
        return tuple(values)


@functools.cache
def _flavour(title: str, lowest_wins: bool, pressures: bool, suits: bool) -> type[HouseRules]:
    """A subclass carrying what the engine reads from the class: the name, who wins, pressures."""
    attributes: dict[str, Any] = {
        "name": title,
        "lowest_wins": lowest_wins,
        "winner_collects": not lowest_wins,
        "has_pressures": pressures,
        "needs_suits": suits,
    }
    return cast(type[HouseRules], type("HouseRules", (HouseRules,), attributes))


def _read_values(raw: object) -> dict[Rank, int]:
    if not isinstance(raw, Mapping):
        raise InvalidOptions('house rules \'values\' must map ranks to points, e.g. {"A": 1, "K": 10}', "values")
    values: dict[Rank, int] = {}
    for key, points in raw.items():
        rank = _rank(key, "values")
        if rank is Rank.JOKER:
            raise InvalidOptions("house rules give a joker's points in 'joker', not in 'values'", "values")
        values[rank] = _points(points, f"values {key!r}", "values")
    return values


def _read_special(raw: object) -> tuple[tuple[Card, int], ...]:
    if not isinstance(raw, Mapping):
        raise InvalidOptions("house rules 'special' must map suited cards to points, e.g. {\"QS\": 40}", "special")
    special = []
    for key, points in raw.items():
        try:
            card = Card.parse(str(key))
        except InvalidCard as error:
            raise InvalidOptions(f"house rules special card: {error}", "special") from None
        if card.suit is None:
            raise InvalidOptions(f"a special card needs its suit: {key!r} (e.g. {key}s)", "special")
        special.append((card, _points(points, f"special {key!r}", "special")))
    return tuple(sorted(special, key=lambda item: item[0].sort_key))


def _read_deal(raw: object) -> tuple[int, ...]:
    deal = [raw] if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if not isinstance(deal, list | tuple) or not all(isinstance(n, int) and not isinstance(n, bool) for n in deal):
        raise InvalidOptions("house rules 'deal' must be whole numbers of cards, e.g. [8, 7, 6] or 7", "deal")
    if len(deal) > MAX_HANDS:
        raise InvalidOptions(f"house rules can have at most {MAX_HANDS} hands, not {len(deal)}", "deal")
    if any(not 1 <= n <= MAX_DEAL for n in deal):
        raise InvalidOptions(f"house rules deal 1 to {MAX_DEAL} cards a hand", "deal")
    return tuple(deal)


def _rank(key: object, where_: str) -> Rank:
    try:
        card = Card.parse(str(key))
    except InvalidCard:
        raise InvalidOptions(f"house rules {where_}: unknown rank {key!r}", where_) from None
    if card.suit is not None:
        raise InvalidOptions(
            f"house rules {where_}: {key!r} is a card, not a rank (suited cards go in 'special')", where_
        )
    return card.rank


def _points(value: object, what: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not -1000 <= value <= 1000:
        raise InvalidOptions(
            f"house rules {what}: points must be a whole number from -1000 to 1000, not {value!r}", field
        )
    return value
