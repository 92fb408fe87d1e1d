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
from .rulesets import configure
from .scorer import GameScore, score_game
from .text import names_fault, surrogate_fault, text_fault

FORMAT = "scorekeeper-game/1"
#: The extra key naming the event, round and table a game is filed under.
FILED_UNDER = "filed_under"


@dataclass(frozen=True)
class FiledUnder:
    """Where an event's game belongs: the event (its name and date), the round and the table."""

    event: str
    held_on: str
    round: int
    table: int

    def to_dict(self) -> dict[str, object]:
        return {"event": self.event, "held_on": self.held_on, "round": self.round, "table": self.table}

    def __str__(self) -> str:
        return f"{self.event} ({self.held_on}) · round {self.round} · table {self.table}"


_FILED_UNDER_KEYS = ("event", "held_on", "round", "table")


def parse_filed_under(value: object) -> FiledUnder:
    """The ``filed_under`` key checked, or InvalidRecord naming what is wrong with it."""
    data = _object(value, f"'{FILED_UNDER}'")
    unknown = sorted(str(key) for key in data if key not in _FILED_UNDER_KEYS)
    if unknown:
        raise InvalidRecord(f"'{FILED_UNDER}' has a key it does not know: {unknown[0]!r}")
    missing = [key for key in _FILED_UNDER_KEYS if key not in data]
    if missing:
        raise InvalidRecord(f"'{FILED_UNDER}' lacks {missing[0]!r}: it needs {', '.join(_FILED_UNDER_KEYS)}")
    event, held_on, round_, table = (data[key] for key in _FILED_UNDER_KEYS)
    if not isinstance(event, str) or not isinstance(held_on, str):
        raise InvalidRecord(f"'{FILED_UNDER}' needs the event's name and date ('event', 'held_on') as text")
    for key, number in (("round", round_), ("table", table)):
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise InvalidRecord(f"'{FILED_UNDER}': {key!r} must be a whole number from 1, not {number!r}")
    assert isinstance(round_, int) and isinstance(table, int)
    return FiledUnder(event, held_on, round_, table)


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
    def filed_under(self) -> FiledUnder | None:
        """The event, round and table the game is filed under; None for a game outside any event."""
        value = self.extra.get(FILED_UNDER)
        return None if value is None else parse_filed_under(value)

    @property
    def verification_code(self) -> str:
        return verification_code(self.game, self.hands, self.filed_under)


def renamed(record: GameRecord, names: Mapping[str, str]) -> GameRecord:
    """The same game with its players renamed (``names``: old → new, each new name different), as
    a page that must not show a name prints it; its verification code is the renamed record's."""
    if all(names.get(player, player) == player for player in record.game.players):
        return record
    data = record.to_dict()

    def new(name: object) -> object:
        return names.get(name, name) if isinstance(name, str) else name

    data["players"] = [new(player) for player in record.game.players]
    if "partnerships" in data:
        data["partnerships"] = [[new(player) for player in team] for team in record.game.partnerships]
    data["first_dealer"] = new(data["first_dealer"])
    hands = data["hands"]
    assert isinstance(hands, list)
    for hand in hands:
        hand["leftovers"] = {new(player): cards for player, cards in hand["leftovers"].items()}
        hand["pressures"] = [new(player) for player in hand["pressures"]]
    options = data.get("options")
    if isinstance(options, dict) and "dummy" in options:
        options["dummy"] = new(options["dummy"])
    return parse_record(data)


def load_record(text: str) -> GameRecord:
    """Read a record from JSON text, its text held to the rule of every way in (``check_record_text``)."""
    data = decode_json(text)
    record = parse_record(data)
    check_record_text(record)
    check_record_words(data)
    return record


def check_record_words(data: object) -> None:
    """The title and the ruling notes of a record read from outside (``replay``, ``report``) held to
    the same rule as the import page holds them: what no page or sheet can show is refused."""
    if not isinstance(data, dict):
        return
    title = data.get("title")
    fault = text_fault(title.strip(), "the title") if isinstance(title, str) and title.strip() else None
    if fault is not None:
        raise InvalidRecord(fault, "title")
    listed = data.get("hands")
    hands: list[object] = listed if isinstance(listed, list) else []
    in_play = data.get("in_play")
    for hand in [*hands, in_play]:
        notes = hand.get("notes") if isinstance(hand, dict) else None
        for note in notes if isinstance(notes, list) else []:
            fault = text_fault(note, "a note", lines=True) if isinstance(note, str) else None
            if fault is not None:
                raise InvalidRecord(fault, "notes")


def check_record_text(record: GameRecord) -> None:
    """Refuse a record that came in from outside whose players' names or named options (a dummy's
    name) break the rule every form holds them to (``scoring.text``), naming the player: a control
    or invisible character, a lone surrogate, more than ``NAME_MAX_LENGTH`` characters, two names
    alike ("Cy Lee" and "Cy  Lee"). Not part of ``parse_record``, which also reads back what the
    app made (a game stored before the rule must still print)."""
    fault = names_fault(record.game.players)
    if fault is not None:
        raise InvalidRecord(fault)
    for name, value in record.game.rules.options().items():
        fault = text_fault(value, f"option {name!r}") if isinstance(value, str) else None
        if fault is not None:
            raise InvalidRecord(fault, name)


def decode_json(text: str) -> object:
    """JSON text decoded, or InvalidRecord saying in one line why it cannot be: also for
    nesting too deep for the decoder, numbers too long to read, and a lone surrogate in any
    string ("\\udc80", which ``json.loads`` takes without a word and no page can write out)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise InvalidRecord("not a game record: its JSON is nested far too deeply") from None
    except ValueError:
        raise InvalidRecord("not a game record: it holds a number thousands of digits long") from None
    fault = surrogate_fault(data) or _long_number(data)
    if fault is not None:
        raise InvalidRecord(fault)
    return data


#: The most digits a number may have, in a record and in every number field of the forms: far
#: beyond any count, round or score the app takes, and far below where reading it goes wrong (past
#: ~309 digits WTForms' range check overflows a float; past 19 SQLite cannot store it).
NUMBER_MAX_DIGITS = 12


def _long_number(data: object) -> str | None:
    """A number longer than any form takes (an option of 400 digits), in words, or None."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**NUMBER_MAX_DIGITS:
            return f"not a game record: it holds a number of more than {NUMBER_MAX_DIGITS} digits"
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


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
    if extra.get(FILED_UNDER) is not None:
        parse_filed_under(extra[FILED_UNDER])
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


def verification_code(game: Game, hands: Sequence[Hand], filed_under: FiledUnder | None = None) -> str:
    """48 bits of SHA-256 of what decides the result and where it belongs, as ``XXXX-XXXX-XXXX``.

    Covered: the record's standard keys (format, rule set, every option, the players in
    seating order, partnerships, the first dealer, every complete hand's leftovers and
    pressures) and, for an event's game, ``filed_under`` (event name and date, round,
    table). Not covered: the title, dates of play, ruling notes, the hand in play. The
    canonical form is that JSON with sorted keys and no spaces (docs/game-record.md), so
    ``scorekeeper verify`` checks a printed code against an export without the server.
    """
    content = record_to_dict(game, hands)
    if filed_under is not None:
        content[FILED_UNDER] = filed_under.to_dict()
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:12].upper()
    return "-".join(digest[i : i + 4] for i in range(0, 12, 4))


def normalise_verification_code(text: str) -> str:
    """A code as printed (``5F7A-7FF5-5BF0``) from what someone typed: any case, dashes or spaces
    anywhere; ValueError when it is not 12 hexadecimal digits."""
    digits = "".join(text.split()).replace("-", "").upper()
    if len(digits) != 12 or any(ch not in "0123456789ABCDEF" for ch in digits):
        raise ValueError(f"{text!r} is not a verification code: expected 12 of 0-9 and A-F, like 5F7A-7FF5-5BF0")
    return "-".join(digits[i : i + 4] for i in range(0, 12, 4))


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
    "FILED_UNDER",
    "FORMAT",
    "FiledUnder",
    "GameRecord",
    "dump_record",
    "check_record_text",
    "load_record",
    "normalise_verification_code",
    "parse_filed_under",
    "parse_record",
    "record_to_dict",
    "verification_code",
]
