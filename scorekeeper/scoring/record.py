"""The game record ``scorekeeper-game/1`` (``specs/game-record.md``): read, check and write it.

A record is refused as a whole at the first broken rule, with a message naming the
hand, the player and the problem. Reading it also replays it, so a ``GameRecord``
in hand is always one the engine can score.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Card
from .errors import InvalidCard, InvalidRecord
from .game import Game, Hand
from .replay import GameScore, score_game
from .rulesets import configure

FORMAT = "scorekeeper-game/1"


@dataclass(frozen=True)
class GameRecord:
    game: Game
    hands: tuple[Hand, ...]
    extra: Mapping[str, object] = field(default_factory=dict)

    @cached_property
    def _score(self) -> GameScore:
        return score_game(self.game, self.hands)

    def score(self) -> GameScore:
        """The replay, computed once (reading the record already needed it, to check it)."""
        return self._score

    def to_dict(self) -> dict[str, object]:
        return record_to_dict(self.game, self.hands, self.extra)

    @property
    def verification_code(self) -> str:
        return verification_code(self.game, self.hands)


def load_record(text: str) -> GameRecord:
    """Read a record from JSON text."""
    return parse_record(decode_json(text))


def decode_json(text: str) -> object:
    """JSON text decoded, or InvalidRecord saying in one line why it cannot be: also for
    nesting too deep for the decoder and numbers too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise InvalidRecord("not a game record: its JSON is nested far too deeply") from None
    except ValueError:
        raise InvalidRecord("not a game record: it holds a number thousands of digits long") from None


def parse_record(data: object) -> GameRecord:
    """Check a decoded record and turn it into the engine's objects."""
    record = _object(data, "the record")
    if record.get("format") != FORMAT:
        raise InvalidRecord(f"unknown format {record.get('format')!r}: expected {FORMAT!r}")
    rules_id = record.get("rules")
    if rules_id is None:
        raise InvalidRecord("the record names no rule set ('rules')")
    if not isinstance(rules_id, str):
        raise InvalidRecord(f"'rules' must be a rule-set id, not {rules_id!r}")
    options = _object(record.get("options") or {}, "'options'")
    rules = configure(rules_id, options)
    players = tuple(_strings(record.get("players"), "'players'"))
    raw_teams = record.get("partnerships") or []
    if not isinstance(raw_teams, list):
        raise InvalidRecord("'partnerships' must be a list of lists of names")
    partnerships = tuple(tuple(_strings(team, "a partnership")) for team in raw_teams)
    first_dealer = record.get("first_dealer")
    if first_dealer is not None and not isinstance(first_dealer, str):
        raise InvalidRecord(f"'first_dealer' must be a player's name, not {first_dealer!r}")
    game = Game(rules, players, partnerships, first_dealer)

    raw_hands = record.get("hands")
    if not isinstance(raw_hands, list):
        raise InvalidRecord("'hands' must be a list (empty for a game not yet played)")
    hands = tuple(_parse_hand(number, raw) for number, raw in enumerate(raw_hands, start=1))
    extra = {key: value for key, value in record.items() if key not in _KNOWN_KEYS}
    parsed = GameRecord(game, hands, extra)
    parsed.score()
    return parsed


def record_to_dict(game: Game, hands: Sequence[Hand], extra: Mapping[str, object] | None = None) -> dict[str, object]:
    """The record of a game, ready for ``json.dumps``; ``extra`` keys go beside the standard."""
    record: dict[str, object] = {
        "format": FORMAT,
        "rules": game.rules.id,
        "options": game.rules.options(),
        "players": list(game.players),
    }
    if game.has_partnerships:
        record["partnerships"] = [list(team) for team in game.partnerships]
    record["first_dealer"] = game.dealer(1)
    record["hands"] = [
        {
            "leftovers": {player: [card.token for card in hand.leftovers[player]] for player in game.players},
            "pressures": list(hand.pressures),
        }
        for hand in hands
    ]
    for key, value in (extra or {}).items():
        record.setdefault(key, value)
    return record


def verification_code(game: Game, hands: Sequence[Hand]) -> str:
    """A short code for the record's content (not its extra keys): the same game, the same code.

    Printed on score sheets so a paper copy can be checked against the record: export
    the game and compare the code ``scorekeeper report`` (or the Scores page) shows.
    """
    canonical = json.dumps(record_to_dict(game, hands), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:12].upper()
    return "-".join(digest[i : i + 4] for i in range(0, 12, 4))


def dump_record(record: GameRecord) -> str:
    return json.dumps(record.to_dict(), indent=2, ensure_ascii=False) + "\n"


_KNOWN_KEYS = {"format", "rules", "options", "players", "partnerships", "first_dealer", "hands"}


def _parse_hand(number: int, raw: object) -> Hand:
    hand = _object(raw, f"hand {number}")
    leftovers_raw = hand.get("leftovers")
    if not isinstance(leftovers_raw, dict):
        raise InvalidRecord(f"Hand {number}: 'leftovers' must map each player to a list of cards")
    leftovers: dict[str, tuple[Card, ...]] = {}
    for player, cards in leftovers_raw.items():
        if not isinstance(cards, list):
            raise InvalidRecord(f"Hand {number}, {player}: leftovers must be a list of cards")
        try:
            leftovers[player] = tuple(Card.parse(token) for token in cards)
        except InvalidCard as error:
            raise InvalidRecord(f"Hand {number}, {player}: {error}") from None
    pressures = hand.get("pressures") or []
    return Hand(leftovers, tuple(_strings(pressures, f"Hand {number}: 'pressures'")))


def _object(value: object, what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise InvalidRecord(f"{what} must be a JSON object")
    return value


def _strings(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidRecord(f"{what} must be a list of names")
    return value


__all__ = [
    "FORMAT",
    "GameRecord",
    "dump_record",
    "load_record",
    "parse_record",
    "record_to_dict",
    "verification_code",
]
