"""One rule for every text that comes in: names, clubs, titles, notes, whatever way they arrive.

The start form, an event's list and a late player, a roster, ``scorekeeper seat --players-file``,
an imported game record and the phone's outbox all hand their text to ``text_fault`` (or to
``check_text``, which refuses with it), so that a new way in cannot forget a check and what one
way stores every page, sheet, file and terminal can show. It lives at the bottom of the parts so
that each may call it; each way adds only its own limits on top (a name's comma, a club's length).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .errors import Refusal, sentence

#: The longest name a player may have, at a table or in an event.
NAME_MAX_LENGTH = 30
#: Characters that end a line: named so in a refusal, not by their code.
LINE_BREAKS = frozenset("\n\r\x85\u2028\u2029")
ZERO_WIDTH_JOINER = "\u200d"
#: What may follow an emoji inside it: the zero-width joiner, the emoji variation selector, and
#: the tag characters of a subdivision flag (🏴 and tags: Scotland).
EMOJI_JOINERS = frozenset([ZERO_WIDTH_JOINER, "\ufe0f", *map(chr, range(0xE0020, 0xE0080))])
#: Characters that print as nothing though Unicode calls them letters or symbols.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: What a spreadsheet reads as the start of a formula (or of a command, in some), at a cell's
#: start; the same signs in their full-width and small forms (＝ ＋ － ＠, ﹦ …) are read so too
#: by spreadsheets that fold them, and ``begins_like_formula`` counts them.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: The breaks a ruling note may hold between its lines (a tab too): nothing else a control.
NOTE_BREAKS = frozenset("\n\r\t")


def text_fault(text: str, words: str = "a name", *, most: int | None = None, lines: bool = False) -> str | None:
    """Why ``text`` cannot come in as ``words`` ("a name", "the club", "the title", "a note"), in
    words (lower case, no full stop: the caller makes it a sentence), or None.

    Refused: a lone surrogate (a "\\udc80" escape in JSON: no page, file or terminal can write it
    out); a control character (a tab, a NUL, a line break; ``lines`` lets a note keep its line
    breaks and tabs); an invisible one (a zero-width space, a right-to-left override that prints
    "Smith" as "htimS", a byte-order mark, a Hangul filler), which lets two names look alike or
    one look like none; no visible character at all; more than ``most`` characters. An emoji's
    own joiners stay allowed after an emoji: the zero-width joiner between two (👨‍👩‍👧), a
    variation selector, a flag's tag characters.
    """
    after_emoji = False
    for index, char in enumerate(text):
        kind = unicodedata.category(char)
        if kind == "Cs":
            return f"{words} cannot hold a lone surrogate (U+{ord(char):04X}): it is not text any page can show"
        if kind in ("Cc", "Zl", "Zp") and not (lines and char in NOTE_BREAKS):
            what = {"\t": "a tab", "\0": "a NUL"}.get(char) or (
                "a line break" if char in LINE_BREAKS else f"U+{ord(char):04X}"
            )
            return f"{words} cannot hold a control character ({what})"
        if _invisible(char):
            following = text[index + 1 : index + 2]
            joins = char != ZERO_WIDTH_JOINER or (following and unicodedata.category(following) == "So")
            if not (after_emoji and char in EMOJI_JOINERS and joins):
                return f"{words} cannot hold an invisible character (U+{ord(char):04X})"
            continue
        after_emoji = kind in ("So", "Sk")
    if not any(_seen(char) for char in text):
        return f"{words} needs a letter, digit or sign that can be seen"
    if most is not None and len(text) > most:
        return f"{words} is longer than {most} characters ({len(text)})"
    return None


def check_text(
    text: str, field: str | None, words: str = "a name", *, most: int | None = None, lines: bool = False
) -> None:
    """Refuse ``text`` that breaks the rule (``text_fault``), as a sentence beside ``field``."""
    fault = text_fault(text, words, most=most, lines=lines)
    if fault is not None:
        raise Refusal(sentence(fault), field)


def names_fault(names: Iterable[str], *, most: int | None = NAME_MAX_LENGTH) -> str | None:
    """Why a list of players' names cannot come in, naming the player, or None: each by the rule
    (``text_fault``, at most ``most`` characters), and no two alike (``name_key``: "Cy Lee" and
    "Cy  Lee" are one name)."""
    seen: dict[str, str] = {}
    for name in names:
        fault = text_fault(name, "a name", most=most)
        if fault is not None:
            return f"the player {shown(name)}: {fault}"
        key = name_key(name)
        if key in seen:
            return f"the players {shown(seen[key])} and {shown(name)} have one name: give each a different name"
        seen[key] = name
    return None


def shown(text: str, most: int = NAME_MAX_LENGTH) -> str:
    """Text as a refusal quotes it: every character it cannot show written as its code point
    (\\u202e, \\x00, \\udc80), cut to ``most`` characters, in quotes."""
    cut = text if len(text) <= most else text[: most - 1] + "…"
    escaped = "".join(char if _printable(char) else _escape(char) for char in cut)
    return f"“{escaped}”"


def _printable(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cs", "Zl", "Zp") and not _invisible(char)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def surrogate_fault(value: object) -> str | None:
    """Why decoded JSON cannot be read, or None: a lone surrogate in any string of it, a key or a
    value (``json.loads`` turns a "\\udc80" escape into one without a word), in words."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= char <= "\udfff" for char in item):
                return f"the text {shown(item)} holds a lone surrogate: it is not valid Unicode"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def begins_like_formula(text: str) -> bool:
    """Whether a spreadsheet would take ``text`` for a formula: it begins with =, +, -, @, a tab
    or a carriage return, or a full-width or small form of one of those signs (＝1+1)."""
    first = text[:1]
    return bool(first) and (first in FORMULA_START or unicodedata.normalize("NFKC", first) in FORMULA_START)


def name_key(name: str) -> str:
    """A name as it is told apart from others: any case, any spaces between its words. Two
    names of one key are one name (refused twice in a list; one player in a seating line)."""
    return " ".join(name.split()).casefold()


def _invisible(char: str) -> bool:
    """Unicode's default-ignorable characters (format characters, variation selectors, fillers,
    the combining grapheme joiner) and the blanks: nothing on the page shows them."""
    code = ord(char)
    return (
        unicodedata.category(char) == "Cf"
        or char in BLANKS
        or code == 0x034F
        or 0xFE00 <= code <= 0xFE0F
        or 0x180B <= code <= 0x180F
        or 0xE0000 <= code <= 0xE0FFF
    )


def _seen(char: str) -> bool:
    return not _invisible(char) and unicodedata.category(char)[0] in "LNSP"
