"""Errors the scoring engine raises: each a ``ValueError`` whose message a player can read.

``Refusal`` is the one base of every refusal in the app (the engine's, the table's, seating's,
storage's): it lives here, at the bottom, so that every part can raise it, and the web part
answers all of them with one handler.
"""

from __future__ import annotations


class Refusal(ValueError):
    """Something a player, a director or a phone's outbox asked for and is refused, in words they can read.

    ``field`` names the input the refusal belongs beside (a form field, an option's name, a
    house-rules definition key), so that a form shows the message there without reading its
    words; None for the form as a whole. ``status`` is how a server answers it: 422, refused
    as it stands; 409, something changed meanwhile (the refusal then says what stands now).
    401, not allowed without logging in; 413, too large to read; 429, too many tries, with
    ``retry_after`` the seconds to wait. Its message always ends as a sentence does (a full stop
    unless it ends with one, ``!``, ``?`` or ``…``), whichever way it is shown: a page, a
    phone's outbox, the command line.
    """

    status = 422
    retry_after: int | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(_full_stop(message))
        self.field = field

    def details(self) -> dict[str, object]:
        """What a phone's outbox is told beside the message (what stands now, a question to ask)."""
        return {}


def _full_stop(message: str) -> str:
    message = message.rstrip()
    return message if not message or message[-1] in ".!?…" else message + "."


class Stale(Refusal):
    """Refused because something changed meanwhile: the refusal says what stands now."""

    status = 409


class AskFirst(Refusal):
    """Not done until it is confirmed: the question is asked beside the field, and answered by
    sending it again, confirmed (a second pressure moments after one, a round seated while the
    last still plays, a table locked before it finished)."""

    status = 409


class TooMany(Refusal):
    """Refused until ``retry_after`` seconds have passed: a limit on tries (wrong codes, logins, new games)."""

    status = 429

    def __init__(self, message: str, field: str | None, retry_after: int) -> None:
        super().__init__(message, field)
        self.retry_after = retry_after


class ScoringError(Refusal):
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


def sentence(message: str) -> str:
    """A message as a sentence a player reads: a capital first, a full stop last."""
    message = message.strip()
    if not message:
        return message
    message = message[0].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."
