"""Errors the scoring engine raises: each a ``ValueError`` whose message a player can read."""


class ScoringError(ValueError):
    """Base of every refusal by the engine."""


class InvalidCard(ScoringError):
    """A card token that names no card."""


class UnknownRuleSet(ScoringError):
    """A rule-set id that is not in the registry."""


class InvalidOptions(ScoringError):
    """Options a rule set does not know or cannot take."""


class InvalidSeating(ScoringError):
    """Players, partnerships or dealer that the rule set does not allow."""


class RefereeError(ScoringError):
    """A hand or pressure that could not have happened at the table."""


class InvalidRecord(ScoringError):
    """A game record that does not follow ``scorekeeper-game/1``."""
