"""A member's name taken out of everything the club keeps, the results left as they were.

A member who leaves may ask that their name go (as clubs in many countries must allow): every
name they ever had, their spellings and the "name (number)" they played under beside a
namesake, is replaced by "a former member" wherever it stands, in a game's players, its log
(a confirmation's player, a ruling note's text) and the histories. Within one event or game
the players must stay told apart, so a second former member there is "a former member (2)".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..tournament.seating import name_key
from .members import FORMER_MEMBER

#: The keys of a log entry's data that hold cards, never a name (a player called "J" is not the jack).
CARD_KEYS = frozenset({"cards"})


def former_name(taken: Iterable[str]) -> str:
    """What a former member plays under beside the names ``taken`` (the others of their event):
    "a former member", else "a former member (2)", "(3)"…"""
    keys = {name_key(name) for name in taken}
    candidate, count = FORMER_MEMBER, 1
    while name_key(candidate) in keys:
        count += 1
        candidate = f"{FORMER_MEMBER} ({count})"
    return candidate


def _words(name: str) -> str:
    return r"\s+".join(re.escape(word) for word in name.split())


def _pattern(names: Iterable[str]) -> re.Pattern[str]:
    """Any of ``names`` as whole words, the longest first (so "Ann Smith (101)" is taken before "Ann Smith")."""
    ordered = sorted({" ".join(name.split()) for name in names if name.strip()}, key=lambda n: (-len(n), n))
    if not ordered:
        return re.compile(r"(?!)")
    return re.compile(r"(?<!\w)(?:" + "|".join(_words(name) for name in ordered) + r")(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class NameSwap:
    """Every name in ``old`` becomes ``new``; ``keep`` are other people's names that hold one of
    them as a word ("Ann Smithers" beside "Ann"), left as they are in free text."""

    old: tuple[str, ...]
    new: str
    keep: tuple[str, ...] = ()
    #: Words of the old names that name the member alone in free text ("Maximiliana redeals"):
    #: ``name_parts``, which leaves out the words other people's names hold.
    parts: tuple[str, ...] = ()

    @cached_property
    def _keys(self) -> frozenset[str]:
        return frozenset(name_key(name) for name in self.old)

    @cached_property
    def _kept(self) -> frozenset[str]:
        return frozenset(name_key(name) for name in self.keep)

    @cached_property
    def _found(self) -> re.Pattern[str]:
        return _pattern([*self.keep, *self.old])

    def exact(self, value: str) -> str:
        """A name standing alone (a seat, a dealer, a confirming player): replaced if it is an old one."""
        return self.new if name_key(value) in self._keys else value

    def text(self, value: str) -> str:
        """Free text (a note, a history line, a title): each old name in it, as a whole word, replaced."""
        if not self.old:
            return value

        def swap(match: re.Match[str]) -> str:
            return match.group(0) if name_key(match.group(0)) in self._kept else self.new

        def swap_part(match: re.Match[str]) -> str:
            word = match.group(0)
            return self.new if len(word) > 3 or word[:1].isupper() else word  # "may" is not May

        return self._parts.sub(swap_part, self._found.sub(swap, value))

    @cached_property
    def _parts(self) -> re.Pattern[str]:
        return _pattern(self.parts)

    def value(self, value: str) -> str:
        """A string that may be a name or hold one."""
        swapped = self.exact(value)
        return swapped if swapped != value else self.text(value)

    def data(self, data: Any) -> Any:
        """A log entry's data (JSON): every string an old name stands in, at any depth; cards left alone."""
        if isinstance(data, str):
            return self.value(data)
        if isinstance(data, Mapping):
            return {key: item if key in CARD_KEYS else self.data(item) for key, item in data.items()}
        if isinstance(data, list | tuple):
            return [self.data(item) for item in data]
        return data

    def names(self, data: Any) -> Any:
        """A structure of names (a game's players, its partnerships, an event's plan): each old one replaced."""
        if isinstance(data, str):
            return self.exact(data)
        if isinstance(data, Mapping):
            return {key: self.names(item) for key, item in data.items()}
        if isinstance(data, list | tuple):
            return [self.names(item) for item in data]
        return data


def others_holding(names: Iterable[str], others: Iterable[str]) -> tuple[str, ...]:
    """Of ``others`` (other people's names), those that hold one of ``names`` as a word but are not one."""
    keys = {name_key(name) for name in names}
    found = _pattern(names)
    return tuple(sorted({o for o in others if name_key(o) not in keys and found.search(o) is not None}))


#: The shortest word of a name taken out of free text by itself.
PART_LENGTH = 2


def name_parts(names: Iterable[str], others: Iterable[str]) -> tuple[str, ...]:
    """The words of ``names`` that name their member alone in a note ("Maximiliana redeals",
    "Wolfeschlegelstein agreed"): each word of two letters or more, but not a word that another
    person's name among ``others`` holds (beside a second Ann, "Ann" names nobody)."""
    taken = {word.casefold() for other in others for word in re.findall(r"\w+", other)}
    words = {word for name in names for word in re.findall(r"[^\W\d_][\w'-]*", name)}
    return tuple(sorted(word for word in words if len(word) >= PART_LENGTH and word.casefold() not in taken))
