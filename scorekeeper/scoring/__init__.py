"""The scoring engine: pure game logic for Crates and its relatives. No web, no database."""

from .cards import Card, Rank, Suit, parse_cards
from .errors import (
    InvalidCard,
    InvalidOptions,
    InvalidRecord,
    InvalidSeating,
    RefereeError,
    Refusal,
    ScoringError,
    UnknownRuleSet,
)
from .game import Game, Hand, Side
from .leftovers import CoverPile, LeftoverScore, ScoredCard, ScoreStep
from .pressures import pressure_ladder, pressure_value
from .record import (
    FILED_UNDER,
    FORMAT,
    FiledUnder,
    GameRecord,
    decode_json,
    dump_record,
    load_record,
    normalise_verification_code,
    parse_record,
    record_to_dict,
    verification_code,
)
from .rulesets import RULE_SETS, RuleSet, configure, find_rule_set
from .scorer import GameScore, HandScore, PressureTaken, SideScore, check_hand, score_game

__all__ = [
    "FILED_UNDER",
    "FORMAT",
    "RULE_SETS",
    "Card",
    "CoverPile",
    "FiledUnder",
    "Game",
    "GameRecord",
    "GameScore",
    "Hand",
    "HandScore",
    "InvalidCard",
    "InvalidOptions",
    "InvalidRecord",
    "InvalidSeating",
    "LeftoverScore",
    "PressureTaken",
    "Rank",
    "RefereeError",
    "RuleSet",
    "Refusal",
    "ScoringError",
    "Side",
    "ScoredCard",
    "ScoreStep",
    "SideScore",
    "Suit",
    "UnknownRuleSet",
    "check_hand",
    "configure",
    "decode_json",
    "dump_record",
    "find_rule_set",
    "load_record",
    "normalise_verification_code",
    "parse_cards",
    "parse_record",
    "pressure_ladder",
    "pressure_value",
    "record_to_dict",
    "score_game",
    "verification_code",
]
