"""The score grid (sides × hands): the one model of a game's scores that every rendering draws.

The Scores page (``web/scoreboard.py`` with ``templates/game/scores.html``), the printed score
sheet (``sheets.py``) and the command line's text (``text.py``, for ``scorekeeper replay``) all
render it, so that a new kind of score is worked out here once and each rendering only draws it.

A grid holds, for each hand, what each side scored in it: the points of the cards left (the
covering of threes that gave them), the pressures taken and what each cost, the hand's points
and the running total; for each side, its starting score, its bonus, its total, the games it
has won (Hollywood scoring), its place and whether it leads; and for the game, the game
columns, who leads and whether the game is over. It is built from the engine's result alone
(plus, if given, the rulings noted on each hand) and is pure: no Flask, no storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..scoring import GameScore, HandScore, PressureTaken, SideScore
from ..scoring.rulesets.base import GameColumn


@dataclass(frozen=True)
class GridCell:
    """One side in one hand."""

    #: Points of the cards the side's players were left with (or collected), threes applied.
    cards: int
    #: How the threes covered, with each partner's name where the side has more than one.
    covering: str
    #: What the pressures taken in this hand added, in all.
    pressures: int
    #: What each of those pressures cost, in the order they were taken.
    pressure_values: tuple[int, ...]
    #: What the hand added to the side's total: the cards and the pressures.
    points: int
    #: The side's total after this hand, its starting score included (no bonus yet).
    running: int
    #: The side's total in each game column after this hand (Hollywood scoring), None in a game
    #: closed before it; none in a single game.
    games: tuple[int | None, ...] = ()
    #: The game columns this side won with this hand.
    won: tuple[int, ...] = ()


@dataclass(frozen=True)
class GridRow:
    """One hand: its deal, a cell per side (in the sides' order), its pressures, its rulings."""

    number: int
    cards_dealt: int
    dealer: str
    #: The dealer's seat, 1 first: what a narrow column prints for a long name.
    dealer_seat: int
    cells: tuple[GridCell, ...]
    #: Every pressure of the hand, in the order taken.
    pressures: tuple[PressureTaken, ...]
    #: The rulings noted on this hand, if the grid was given them.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class GridSide:
    """One side's column, and where it stands."""

    name: str
    members: tuple[str, ...]
    #: The members' seats, 1 first, in the members' order.
    seats: tuple[int, ...]
    start: int
    #: Points the rules add when the game is decided (Crazy Eights' 100 for the winner).
    bonus: int
    total: int
    #: What all its pressures cost.
    pressures: int
    #: Game columns won (Hollywood scoring); 0 in a single game.
    games_won: int
    #: 1 is best; tied sides share a place (1, 1, 3).
    place: int
    #: Marked as ahead: one of the leaders, once there is something to be ahead in (a hand
    #: scored or a starting score), so that no one leads a game not yet begun.
    leads: bool
    #: A player the rules seat by themselves (the World Series' dummy): no pressures, no signature.
    is_dummy: bool = False


@dataclass(frozen=True)
class ScoreGrid:
    """A game's score grid: sides, hands, game columns, who leads. See the module's docstring."""

    game_name: str
    #: The players in seating order (seat 1 first).
    players: tuple[str, ...]
    #: Whether the game has pressures (and so a pressure column on paper).
    has_pressures: bool
    #: Whether a hand's winner collects the others' cards (or each side scores its own).
    winner_collects: bool
    #: Whether the lowest total wins (or the highest).
    lowest_wins: bool
    #: The hands of a game on a schedule; None for a game played to a score.
    hands_in_game: int | None
    sides: tuple[GridSide, ...]
    rows: tuple[GridRow, ...]
    #: The games of a session scored in columns (Hollywood scoring); none for a single game.
    columns: tuple[GameColumn, ...]
    #: The side(s) ahead by the rules' ranking, tied sides all named (every side before a hand).
    leaders: tuple[str, ...]
    finished: bool

    @property
    def with_start(self) -> bool:
        """Whether any side began with points (the World Series' dummy at -50)."""
        return any(side.start for side in self.sides)

    @property
    def signers(self) -> tuple[str, ...]:
        """The players who sign the sheet: everyone but a dummy, in seating order."""
        dummies = {member for side in self.sides if side.is_dummy for member in side.members}
        return tuple(name for name in self.players if name not in dummies)

    @property
    def cards_heading(self) -> str:
        return cards_heading(self.winner_collects)

    @property
    def game_numbers(self) -> tuple[int, ...]:
        return tuple(column.number for column in self.columns)

    @property
    def with_bonus(self) -> bool:
        return any(side.bonus for side in self.sides)

    @property
    def seat_key(self) -> dict[str, str]:
        """Each side's seats as a short key (``1``, ``1&3``): what a narrow place prints for its name."""
        return {side.name: "&".join(map(str, side.seats)) for side in self.sides}

    @property
    def standings(self) -> tuple[GridSide, ...]:
        """The sides best first; tied sides in seating order."""
        return tuple(sorted(self.sides, key=lambda side: side.place))

    def side(self, name: str) -> GridSide:
        for side in self.sides:
            if side.name == name:
                return side
        raise KeyError(name)


def score_grid(score: GameScore, notes: Mapping[int, Sequence[str]] | None = None) -> ScoreGrid:
    """The grid of a game scored by the engine; ``notes`` are the rulings by hand number."""
    rules = score.game.rules
    notes = notes or {}
    places = {side.side.name: place for place, side in score.standings()}
    begun = bool(score.hands) or any(side.start for side in score.sides)
    leaders = score.leader
    running = [side.running_totals() for side in score.sides]
    columns = _columns_by_hand(score)
    seats = {player: seat for seat, player in enumerate(score.game.players, start=1)}
    rows = tuple(
        GridRow(
            number=hand.number,
            cards_dealt=hand.cards_dealt,
            dealer=hand.dealer,
            dealer_seat=score.game.players.index(hand.dealer) + 1,
            cells=tuple(
                _cell(hand, side, index, running[s][index], columns[index], columns[index - 1] if index else (), seats)
                for s, side in enumerate(score.sides)
            ),
            pressures=hand.pressures,
            notes=tuple(notes.get(hand.number, ())),
        )
        for index, hand in enumerate(score.hands)
    )
    sides = tuple(
        GridSide(
            name=side.side.name,
            members=side.side.members,
            seats=tuple(score.game.players.index(member) + 1 for member in side.side.members),
            start=side.start,
            bonus=side.bonus,
            total=side.total,
            pressures=sum(side.pressures),
            games_won=score.games_won(side.side.name),
            place=places[side.side.name],
            leads=begun and side.side.name in leaders,
            is_dummy=side.side.members == (rules.joins_by_itself(),),
        )
        for side in score.sides
    )
    return ScoreGrid(
        game_name=rules.name,
        players=score.game.players,
        has_pressures=rules.has_pressures,
        winner_collects=rules.winner_collects,
        lowest_wins=rules.lowest_wins,
        hands_in_game=rules.max_hands(),
        sides=sides,
        rows=rows,
        columns=score.columns,
        leaders=leaders,
        finished=score.finished,
    )


def cards_heading(winner_collects: bool) -> str:
    """What the first number of a side's cell is: the cards left in its hand, or the cards collected."""
    return "collected" if winner_collects else "cards"


#: The longest name a narrow place (a grid cell, the chart's end labels) prints whole.
SHORT_NAME = 9


def short_name(name: str, *seats: int) -> str:
    """``name`` where it is short, else its seat(s): ``seat 2``, ``seats 1&3``."""
    if len(name) <= SHORT_NAME:
        return name
    return f"seat{'s' if len(seats) > 1 else ''} {'&'.join(map(str, seats))}"


def _columns_by_hand(score: GameScore) -> list[tuple[GameColumn, ...]]:
    """The game columns as they stood after each hand (none for a single game)."""
    if not score.columns:
        return [() for _ in score.hands]
    history = [{side.side.name: side.hands[index] for side in score.sides} for index in range(len(score.hands))]
    return [score.game.rules.columns(score.game, history[: index + 1]) for index in range(len(score.hands))]


def _cell(
    hand: HandScore,
    side: SideScore,
    index: int,
    running: int,
    columns: Sequence[GameColumn],
    before: Sequence[GameColumn],
    seats: Mapping[str, int],
) -> GridCell:
    members, name = side.side.members, side.side.name
    covering = "; ".join(
        (f"{short_name(member, seats[member])} " if len(members) > 1 else "") + hand.leftovers[member].how
        for member in members
        if hand.leftovers[member].how
    )
    values = tuple(p.value for p in hand.pressures if p.side == name)
    open_before = {column.number for column in before if column.winner is None} if before else None
    return GridCell(
        cards=hand.sides[name].cards,
        covering=covering,
        pressures=side.pressures[index],
        pressure_values=values,
        points=side.hands[index],
        running=running,
        games=tuple(
            None if open_before is not None and column.number not in open_before else column.totals[name]
            for column in columns
        ),
        won=tuple(
            column.number
            for column in columns
            if column.winner == name and (open_before is None or column.number in open_before)
        ),
    )
