"""Score a whole game from its hands: the referee's checks, then every sum."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RefereeError
from .game import Game, Hand, Side
from .leftovers import LeftoverScore
from .rulesets.base import GameColumn


@dataclass(frozen=True)
class PressureTaken:
    """One pressure: who took it, and what it cost their side (its ``number``-th of the game)."""

    player: str
    side: str
    number: int
    value: int


@dataclass(frozen=True)
class SideHand:
    cards: int
    pressures: int

    @property
    def total(self) -> int:
        return self.cards + self.pressures


@dataclass(frozen=True)
class HandScore:
    number: int
    cards_dealt: int
    dealer: str
    leftovers: dict[str, LeftoverScore]
    pressures: tuple[PressureTaken, ...]
    sides: dict[str, SideHand]


@dataclass(frozen=True)
class SideScore:
    side: Side
    start: int
    hands: tuple[int, ...]
    pressures: tuple[int, ...]
    pressures_taken: int
    next_pressure: int
    bonus: int = 0

    @property
    def total(self) -> int:
        return self.start + sum(self.hands) + self.bonus

    def running_totals(self) -> tuple[int, ...]:
        """The side's total after each hand, starting score included."""
        totals, running = [], self.start
        for points in self.hands:
            running += points
            totals.append(running)
        return tuple(totals)


@dataclass(frozen=True)
class GameScore:
    game: Game
    hands: tuple[HandScore, ...]
    sides: tuple[SideScore, ...]
    finished: bool = False
    columns: tuple[GameColumn, ...] = ()
    outright: tuple[str, ...] = ()

    def games_won(self, side: str) -> int:
        """Columns (Hollywood scoring) this side has won; always 0 for a single game."""
        return sum(1 for column in self.columns if column.winner == side)

    def _rank(self, side: SideScore) -> tuple[bool, int, int]:
        """Smaller is better: an outright win (tied among its winners), more games won, then the
        lowest total (or highest, by the rule set)."""
        if side.side.name in self.outright:
            return (False, 0, 0)
        total = side.total if self.game.rules.lowest_wins else -side.total
        return (True, -self.games_won(side.side.name), total)

    @property
    def leader(self) -> tuple[str, ...]:
        """The side(s) ahead: the lowest total, or the highest where the rule set says so;
        in a session of columns, the most games won first."""
        best = min(self._rank(side) for side in self.sides)
        return tuple(side.side.name for side in self.sides if self._rank(side) == best)

    def standings(self) -> list[tuple[int, SideScore]]:
        """Sides best first with their places; tied sides share a place (1, 1, 3)."""
        ordered = sorted(self.sides, key=self._rank)
        places: list[tuple[int, SideScore]] = []
        for index, side in enumerate(ordered):
            tied = places and self._rank(places[-1][1]) == self._rank(side)
            places.append((places[-1][0] if tied else index + 1, side))
        return places

    def side(self, name: str) -> SideScore:
        for side in self.sides:
            if side.side.name == name:
                return side
        raise KeyError(name)

    def to_json(self) -> dict[str, object]:
        """The replay output of ``specs/game-record.md``, with a few extra keys it allows."""
        output: dict[str, object] = {
            "sides": [
                {
                    "name": side.side.name,
                    "members": list(side.side.members),
                    "hands": list(side.hands),
                    "pressures": list(side.pressures),
                    "total": side.total,
                    "start": side.start,
                }
                for side in self.sides
            ],
            "leader": list(self.leader),
            "rules": self.game.rules.id,
            "hands_played": len(self.hands),
            "hands_in_game": self.game.rules.max_hands(),
            "finished": self.finished,
        }
        bonuses = {side.side.name: side.bonus for side in self.sides if side.bonus}
        if bonuses:
            output["bonuses"] = bonuses
        if self.outright:
            output["outright"] = list(self.outright)
        if self.columns:
            output["columns"] = [
                {
                    "game": column.number,
                    "totals": dict(column.totals),
                    "winner": column.winner,
                    "won_in_hand": column.won_in_hand,
                }
                for column in self.columns
            ]
        return output


def score_game(
    game: Game, hands: Sequence[Hand], until_decided: bool = False, scored_before: GameScore | None = None
) -> GameScore:
    """Referee and score every hand in order; the first broken rule refuses the whole game.

    A hand after the game was decided is refused, or with ``until_decided`` left out: the
    score then stops where the game ended (how many of a log's complete hands count).

    ``scored_before``: this function's score of the same game's first hands, which ``hands``
    begins with, unchanged. Those hands are taken as scored, and play goes on from where it
    left them. The result is the score of all ``hands`` from the first, as a property test
    checks; a table's save then scores the hand it completes, not every hand again.
    """
    rules = game.rules
    most = rules.max_hands()
    if most is not None and len(hands) > most:
        raise RefereeError(f"Hand {most + 1}: {rules.name} has only {most} hands")
    starts = {side.name: sum(rules.starting_score(game, m) for m in side.members) for side in game.sides}
    totals = dict(starts)
    taken: Counter[str] = Counter()
    scored: list[HandScore] = []
    history: list[dict[str, int]] = []
    decided = False
    if scored_before is not None and len(scored_before.hands) <= len(hands):
        scored = list(scored_before.hands)
        history = [{name: side_hand.total for name, side_hand in hand.sides.items()} for hand in scored]
        for earlier in history:
            for name, total in earlier.items():
                totals[name] += total
        taken.update({side.side.name: side.pressures_taken for side in scored_before.sides})
        decided = scored_before.finished
    for number, hand in enumerate(hands[len(scored) :], start=len(scored) + 1):
        if decided:
            if until_decided:
                break
            raise RefereeError(f"Hand {number}: the game was already decided after hand {number - 1}")
        leftovers = _check_hand(game, number, hand)
        scored.append(_score_hand(game, number, hand, leftovers, taken))
        history.append({name: side_hand.total for name, side_hand in scored[-1].sides.items()})
        for name, points in history[-1].items():
            totals[name] += points
        decided = rules.is_decided(game, totals, history)
    bonuses = rules.bonuses(game, totals) if decided else {}
    sides = tuple(
        SideScore(
            side=side,
            start=starts[side.name],
            hands=tuple(hand.sides[side.name].total for hand in scored),
            pressures=tuple(hand.sides[side.name].pressures for hand in scored),
            pressures_taken=taken[side.name],
            next_pressure=rules.pressure_value(taken[side.name] + 1) if rules.has_pressures else 0,
            bonus=bonuses.get(side.name, 0),
        )
        for side in game.sides
    )
    outright = rules.outright_winners(game, totals) if decided else ()
    return GameScore(game, tuple(scored), sides, decided, rules.columns(game, history), outright)


def check_hand(game: Game, number: int, hand: Hand) -> None:
    """Every player's leftovers given, every name a player, then the rule set's own checks.

    Not every player can be out: where a hand ends when one goes out, only one can (the rule
    set's check); in Crates others may go out during the count, but it ends with a player drawing.
    """
    _check_hand(game, number, hand)


def _check_hand(game: Game, number: int, hand: Hand) -> dict[str, LeftoverScore]:
    """``check_hand``, returning each player's leftovers scored on the way."""
    for player in hand.leftovers:
        if player not in game.players:
            raise RefereeError(f"Hand {number}: {player!r} is not a player of this game")
    for player in game.players:
        if player not in hand.leftovers:
            raise RefereeError(f"Hand {number}, {player}: no leftovers given (an empty list if {player} went out)")
    try:
        scored = game.rules.check_and_score(hand.leftovers)
    except RefereeError as error:
        raise RefereeError(f"Hand {number}: {error}") from None
    for player in hand.pressures:
        check_pressure(game, number, player)
    if all(not hand.leftovers[player] for player in game.players):
        raise RefereeError(
            f"Hand {number}: nobody has any cards left, but a hand ends with someone still holding cards "
            "(even the count ends with a player drawing)"
        )
    return scored


def check_pressure(game: Game, number: int, player: str) -> None:
    if not game.rules.has_pressures:
        raise RefereeError(f"Hand {number}: {game.rules.name} has no pressures")
    if player not in game.players:
        raise RefereeError(f"Hand {number}: pressure to {player!r}, who is not a player of this game")
    game.rules.check_pressure(game, number, player)


def _score_hand(
    game: Game, number: int, hand: Hand, scored: dict[str, LeftoverScore], taken: Counter[str]
) -> HandScore:
    leftovers = {player: scored[player] for player in game.players}
    points = game.rules.hand_points(game, leftovers)
    pressures = []
    for player in hand.pressures:
        side = game.side_of(player).name
        taken[side] += 1
        pressures.append(PressureTaken(player, side, taken[side], game.rules.pressure_value(taken[side])))
    sides = {
        side.name: SideHand(
            cards=sum(points[member] for member in side.members),
            pressures=sum(p.value for p in pressures if p.side == side.name),
        )
        for side in game.sides
    }
    return HandScore(
        number=number,
        cards_dealt=game.cards_dealt(number),
        dealer=game.dealer(number),
        leftovers=leftovers,
        pressures=tuple(pressures),
        sides=sides,
    )
