"""A game as a phone holds it, to play on while the server cannot be reached (``static/copy.js``).

The phone keeps the log as last known and folds its own unsent changes on, scoring with the
rule book (``scoring/rulebook.py``); what a page shows besides the scores and depends on the
game alone (who deals hand 7, how many cards, who takes a pressure on the dummy) is written
out here from the engine, hand by hand, so the phone has no rule of its own. Pure: no web.
"""

from __future__ import annotations

from typing import Any

from ..scoring.rulebook import rule_book
from .entries import MAX_PRESSURES_IN_A_HAND, NOTE_MAX_LENGTH, Entry
from .state import GameState

#: Changed when the copy's shape changes: a phone holding an older copy asks for the new one
#: (``static/copy.js`` reads this one). 2: the name a saved game's file takes (``file_name``), the
#: threes' verb.
FORMAT = 2

#: A game without a fixed number of hands is written out this many hands past the hand in play:
#: a table that plays on offline for longer waits for the server to deal it more.
HANDS_AHEAD = 40


def phone_copy(state: GameState) -> dict[str, Any]:
    """What a phone needs to fold ``state``'s log, and its own changes, into the game's pages."""
    game = state.game
    rules = game.rules
    most = rules.max_hands()
    count = most if most is not None else state.last_hand + HANDS_AHEAD
    return {
        "format": FORMAT,
        "version": state.version,
        "book": rule_book(game),
        "name": rules.name,
        "partnerships": game.has_partnerships,
        "max_hands": most,
        "deals": [
            {"cards": game.cards_dealt(n), "dealer": game.dealer(n), "first": game.first_to_play(n)}
            for n in range(1, count + 1)
        ],
        "takers": {player: rules.pressure_taker(game, player) for player in game.players},
        "has": {
            "pressures": rules.has_pressures,
            "count": rules.has_count,
            "one_card": rules.has_one_card_penalty,
            "suits": rules.needs_suits,
            "jokers": rules.uses_jokers(),
        },
        "limits": {"pressures_in_a_hand": MAX_PRESSURES_IN_A_HAND, "note": NOTE_MAX_LENGTH},
        "actions": [[action.card, action.action] for action in rules.card_actions(len(game.players))],
        "threes_verb": rules.threes_verb,
        "entries": [entry_data(entry) for entry in state.entries],
        "set_aside": {str(key): why for key, why in state.set_aside.items()},
    }


def entry_data(entry: Entry) -> dict[str, Any]:
    """One line of the log as the phone folds it (no network address: the phone needs none)."""
    return {
        "id": entry.id,
        "seq": entry.seq,
        "kind": entry.kind,
        "hand": entry.hand,
        "player": entry.player,
        "data": dict(entry.data),
        "target": entry.target,
        "at": entry.created_at,
    }
