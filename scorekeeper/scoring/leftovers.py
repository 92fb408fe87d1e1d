"""A player's leftovers scored, whatever the game: the total and the parts a player checks by eye.

Every rule set answers ``score_leftovers`` with a ``LeftoverScore``: games that sum their
cards list each card as a ``ScoredCard``; games with threes (``threes.py``) also list the
piles the threes made.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

#: What a pile of threes scores, however many threes it holds (000 "Scoring threes").
THREE_POINTS = 3


@dataclass(frozen=True)
class CoverPile:
    """Threes stacked on one card, or on each other when ``base`` is None: the pile scores 3."""

    threes: tuple[Card, ...]
    base: Card | None

    points = THREE_POINTS

    @property
    def is_cover(self) -> bool:
        """False for a lone three that had nothing to cover (beside eights only)."""
        return self.base is not None or len(self.threes) > 1

    @property
    def compact(self) -> str:
        """``3→6`` (a three covers the 6), ``3→3→6`` (another covers that pair), ``3→3``."""
        labels = [three.label for three in self.threes]
        if self.base is not None:
            labels.append(self.base.label)
        return "→".join(labels)

    @property
    def description(self) -> str:
        if self.base is None:
            if len(self.threes) == 1:
                return "3 with nothing to cover"
            return f"{self.compact}: threes cover each other"
        if len(self.threes) == 1:
            return f"3 covers {self.base.label}"
        return f"{self.compact}: 3 covers {self.base.label}, more threes cover the pair"


@dataclass(frozen=True)
class ScoredCard:
    card: Card
    points: int


@dataclass(frozen=True)
class ScoreStep:
    """A rule applied to the sum of the cards (the 250 game's deuces and identical pairs):
    ``×2`` or ``÷2``, the card(s) that made it, and the score after it."""

    sign: str
    cards: tuple[Card, ...]
    after: int

    @property
    def label(self) -> str:
        return f"{self.sign} ({' '.join(card.label for card in self.cards)})"


@dataclass(frozen=True)
class LeftoverScore:
    """One player's leftovers scored: the total and how it was reached."""

    cards: tuple[Card, ...]
    total: int
    only_threes: bool = False
    piles: tuple[CoverPile, ...] = ()
    uncovered: tuple[ScoredCard, ...] = ()
    #: Rules applied to the cards' sum, in order; ``total`` is the last step's ``after``.
    steps: tuple[ScoreStep, ...] = ()

    @property
    def went_out(self) -> bool:
        return not self.cards

    @property
    def covers(self) -> tuple[CoverPile, ...]:
        return tuple(pile for pile in self.piles if pile.is_cover)

    @property
    def compact(self) -> str:
        """The covering in a few characters, e.g. ``3→6 3→2``; empty when nothing was covered."""
        return " ".join(pile.compact for pile in self.covers)

    @property
    def steps_compact(self) -> str:
        """The steps in a few characters, e.g. ``×2 ÷2``; empty when the sum of the cards stands."""
        return " ".join(step.sign for step in self.steps)

    @property
    def how(self) -> str:
        """Everything beyond the face of the cards, in a few characters: covering and steps."""
        return " ".join(part for part in (self.compact, self.steps_compact) if part)

    def breakdown(self) -> list[tuple[str, int]]:
        """Lines a player can check by eye: what each part of the hand scored."""
        if self.went_out:
            return [("went out", 0)]
        if self.only_threes:
            return [(f"{len(self.cards)} × 3, nothing else", self.total)]
        lines = [(pile.description, pile.points) for pile in self.piles]
        lines += [(scored.card.label, scored.points) for scored in self.uncovered]
        if self.steps:
            lines.append(("cards", sum(scored.points for scored in self.uncovered)))
            lines += [(step.label, step.after) for step in self.steps]
        return lines
