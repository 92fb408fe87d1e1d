"""Errors the scoring engine raises: each a ``ValueError`` whose message a player can read."""


class ScoringError(ValueError):
    """Base of every refusal by the engine.

    ``field`` names what the refusal is about where the engine knows it (an option's name, a
    house-rules definition key, ``players``, ``partnerships`` or ``first_dealer``), so that a
    form shows the message beside that input without reading the message's words.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


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


def sentence(message: str) -> str:
    """A message as a sentence a player reads: a capital first, a full stop last."""
    message = message.strip()
    if not message:
        return message
    message = message[0].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."
