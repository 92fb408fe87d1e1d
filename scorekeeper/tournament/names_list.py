"""The players' names as a list: read one a line, each held to the event form's rule, or
numbered before they have names (``P1`` … ``Pn``)."""

from __future__ import annotations

import re

from .seating import MAX_EVENT_PLAYERS, NAME_MAX_LENGTH, SeatingError, name_fault, name_key

#: The most bytes a list of names is read to: every name at its longest, in four-byte UTF-8
#: characters, on a line of its own (CRLF), twice over for blank lines and spaces (73,200).
#: A bigger file cannot be a list of names (and /dev/zero is not read forever).
NAMES_MAX_BYTES = 2 * MAX_EVENT_PLAYERS * (4 * NAME_MAX_LENGTH + 2)
#: A line ends as an editor ends it; a form feed or a vertical tab is in a name, and refused.
LINE_END = re.compile(r"\r\n|\r|\n")


def numbered_players(count: int) -> list[str]:
    """``P1`` ... ``Pcount``: players before they have names."""
    if not 2 <= count <= MAX_EVENT_PLAYERS:
        raise SeatingError(f"an event has 2 to {MAX_EVENT_PLAYERS} players, not {count}", "players")
    return [f"P{number}" for number in range(1, count + 1)]


def read_names(text: str) -> list[str]:
    """Players' names, one a line (blank lines skipped), checked as the event form checks them:
    at most ``NAME_MAX_LENGTH`` characters, no control character nor comma (``name_fault``),
    no name twice; a refusal names its line, counted as an editor counts them."""
    names: list[str] = []
    seen: set[str] = set()
    for line_number, line in enumerate(LINE_END.split(text), start=1):
        name = line.strip()
        if not name:
            continue
        fault = name_fault(name)
        if fault is not None:
            raise SeatingError(f"line {line_number}: {fault}", "players")
        if len(name) > NAME_MAX_LENGTH:
            raise SeatingError(f"line {line_number}: a name has at most {NAME_MAX_LENGTH} characters", "players")
        if name_key(name) in seen:
            raise SeatingError(f"line {line_number}: {name} is listed twice", "players")
        seen.add(name_key(name))
        names.append(name)
        if len(names) > MAX_EVENT_PLAYERS:
            raise SeatingError(
                f"line {line_number}: name {len(names)} of the list; an event has 2 to {MAX_EVENT_PLAYERS} players",
                "players",
            )
    if len(names) < 2:
        last = len(LINE_END.split(text.rstrip("\r\n")))
        raise SeatingError(
            f"line {last}: the list ends with {len(names)} name{'' if len(names) == 1 else 's'}; "
            f"an event has 2 to {MAX_EVENT_PLAYERS} players",
            "players",
        )
    return names


def line_of(data: bytes, at: int) -> int:
    """The line of ``data`` that byte ``at`` is on, counted as ``read_names`` counts them."""
    return len(LINE_END.split(data[:at].decode("utf-8", "replace")))
