"""A game's rules as data, for the phone's scorer (``static/rules.js``): one rule book.

The rules live in this engine. A phone that has lost the server scores from what this module
writes for its game: card values, the threes' rule, the deck, who collects, the pressure
ladder, the start, the end. It runs no rule written by hand in JavaScript. Each rule set says
its part in the vocabulary of ``RuleSet.leftover_terms``, ``pressure_terms``,
``collect_terms`` and ``end_terms``; the rest is read off the engine's own hooks (who starts
with what, who may not take a pressure). ``tests/phone/test_phone_scores_as_the_engine.py`` runs
the phone's scorer against the engine on random hands and games of every rule set.
"""

from __future__ import annotations

from typing import Any

from .cards import Card, Rank
from .errors import RefereeError
from .game import Game
from .leftovers import THREE_POINTS
from .rulesets.base import JOKERS_PER_DECK, SINGLE_HAND, RuleSet
from .threes import ONLY_THREES_POINTS

#: Two pressures on one player this many seconds apart or closer are more often one pressure
#: tapped twice (a double tap, or two phones) than two: the second is taken once the player says so.
SAME_PRESSURE_SECONDS = 5

#: Changed when the book's shape changes: a phone holding an older book asks for the new one.
FORMAT = 1

#: Where a player's name goes in the engine's words for a card refused in that player's hand.
PLAYER = "{player}"
#: A hand number no game reaches, asked of the engine so that the phone can put the real one in its place.
PROBE_HAND = 1_000_000_007


def rule_book(game: Game) -> dict[str, Any]:
    """Everything the phone needs to score ``game`` as the engine does, as JSON-ready data."""
    rules = game.rules
    leftovers = {"special": {}, "threes": None, "steps": None, "suits": None, **rules.leftover_terms()}
    leftovers.update(
        decks=rules.decks_in_play(),
        jokers_per_deck=JOKERS_PER_DECK if rules.uses_jokers() else 0,
        one_goes_out=rules.one_goes_out,
        three_points=THREE_POINTS,
        only_threes_points=ONLY_THREES_POINTS,
    )
    return {
        "format": FORMAT,
        "rules": rules.id,
        "players": list(game.players),
        "sides": [{"name": side.name, "members": list(side.members)} for side in game.sides],
        "leftovers": leftovers,
        "lowest_wins": rules.lowest_wins,
        "collect": rules.collect_terms(),
        "pressures": rules.pressure_terms() if rules.has_pressures else None,
        "same_pressure_seconds": SAME_PRESSURE_SECONDS,
        "no_pressure": [player for player in game.players if _refuses_pressure(game, player)],
        "name": rules.name,
        "refusals": {"cards": _card_refusals(rules), "pressures": _pressure_refusals(game)},
        "starts": {player: rules.starting_score(game, player) for player in game.players},
        "end": rules.end_terms(game),
    }


def _refuses_pressure(game: Game, player: str) -> bool:
    try:
        game.rules.check_pressure(game, 1, player)
    except RefereeError:
        return True
    return False


def _card_refusals(rules: RuleSet) -> dict[str, list[str]]:
    """The engine's own words for each card it refuses wherever it is held, written without a suit
    (a joker where there are none, the 250 game's cards, a house rule's special card): in one
    hand, then in a player's (``PLAYER`` for the name). The phone refuses in the same words."""
    refused: dict[str, list[str]] = {}
    for rank in Rank:
        words = []
        for holder in (SINGLE_HAND, PLAYER):
            try:
                rules.check_and_score({holder: [Card(rank)]})
            except RefereeError as error:
                words.append(str(error))
        if len(words) == 2:
            refused[rank.value] = words
    return refused


def _pressure_refusals(game: Game) -> dict[str, str]:
    """The engine's words for a pressure a player never takes, in hand ``PROBE_HAND``."""
    refused = {}
    for player in game.players:
        try:
            game.rules.check_pressure(game, PROBE_HAND, player)
        except RefereeError as error:
            refused[player] = str(error)
    return refused
