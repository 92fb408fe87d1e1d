"""What the commands read: files or standard input, bounded, every refusal one line."""

from __future__ import annotations

import sys

from ..scoring import (
    InvalidRecord,
)

#: The most `scorekeeper score` reads from standard input: a hundred thousand hands of a whole
#: deck's cards each (an endless input is refused here, not read until memory runs out).
HANDS_MAX_BYTES = 16 * 1024 * 1024
#: Far more than the largest game record the limits allow (2,000 entries of a few dozen bytes):
#: a bigger file (or /dev/zero) is refused without being read to its end.
RECORD_MAX_BYTES = 16 * 1024 * 1024


def read_text(name: str) -> str:
    """A game record's text from ``name`` ('-': standard input), read no further than RECORD_MAX_BYTES."""
    try:
        return read_bounded(name, RECORD_MAX_BYTES, "a game record can be", "a game record").decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRecord(f"{where(name)}: not a text file (expected UTF-8 JSON)") from None


def where(name: str) -> str:
    return "standard input" if name == "-" else name


def read_bounded(name: str, limit: int, most: str, what: str) -> bytes:
    """At most ``limit`` bytes of ``name`` ('-': standard input); InvalidRecord, in one line, for a
    file missing, a folder, unreadable, or larger than ``most`` (the sentence's end)."""
    data = read_upto(name, limit, what)
    if len(data) > limit:
        raise InvalidRecord(f"{where(name)} is larger than {most} (more than {limit:,} bytes)")
    return data


def read_upto(name: str, limit: int, what: str) -> bytes:
    """At most ``limit + 1`` bytes of ``name`` ('-': standard input), so a caller sees it is larger;
    InvalidRecord, in one line, for a file missing, a folder or unreadable."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(name, "rb") as file:
                data = file.read(limit + 1)
    except FileNotFoundError:
        raise InvalidRecord(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InvalidRecord(f"{name}: is a folder, not {what}") from None
    except OSError as error:
        raise InvalidRecord(f"{where(name)}: {error.strerror}") from None
    return data
