"""The club's members, and how a written line (an event's player, a late player, a roster's
row) is matched to one.

A membership number identifies a member: two members may share a name, and a member may
change the spelling of theirs. So a line with a number is that number's member, whatever
name it gives (a new spelling is the member's name from then on); a line without one is the
member of that name, if exactly one has it; a name no member has is a new member.

What a member's name, club and number may hold is one rule (``field_fault``), checked on every
way they come in: the director's member forms, the new-event list, a late player, a roster.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..scoring import Refusal
from ..scoring.errors import sentence
from ..scoring.text import FORMULA_START as TEXT_FORMULA_START
from ..scoring.text import begins_like_formula
from ..tournament.seating import COMMA_IN_NAME, NAME_MAX_LENGTH, control_fault, name_key

#: What stands where a removed member's name stood: on every page, sheet, record and history line.
FORMER_MEMBER = "a former member"


def number_key(number: str | None) -> str | None:
    """A membership number as it is told apart from others: any case, no spaces around; None for none."""
    key = (number or "").strip().casefold()
    return key or None


def initials(name: str) -> str:
    """A name as a member who asked for privacy is shown on public pages: "Ann Smith" → "A. S."
    (each word's first letter; a hyphenated word keeps both: "Mary-Jo" → "M.-J.")."""
    shown = []
    for word in name.split():
        parts = [part[:1].upper() + "." for part in word.split("-") if part]
        if parts:
            shown.append("-".join(parts))
    return " ".join(shown) or "?"


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    club: str = ""
    number: str | None = None
    #: Shown by initials on public and published pages.
    initials: bool = False
    #: Removed from the list: the name is gone (``FORMER_MEMBER``), the results stay.
    removed: bool = False
    #: The member this entry was merged into (one person entered twice): off the list, undoable.
    merged_into: int | None = None

    @property
    def listed(self) -> bool:
        """On the club's list: neither removed nor merged into another member."""
        return not self.removed and self.merged_into is None

    @property
    def number_key(self) -> str | None:
        return number_key(self.number)

    @property
    def name_key(self) -> str:
        return name_key(self.name)

    @property
    def public_name(self) -> str:
        """The name as public and published pages show it."""
        if self.removed:
            return FORMER_MEMBER
        return initials(self.name) if self.initials else self.name

    @property
    def described(self) -> str:
        """The member as the director's pages name them: "Ann Smith (number 1042)"."""
        return f"{self.name} (number {self.number})" if self.number else self.name


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def held_on_words(held_on: str) -> str:
    """An event's date as a director says it: "2026-11-02" → "2 November" (any other text as it is)."""
    try:
        _, month, day = (int(part) for part in held_on.strip().split("-"))
    except ValueError:
        return held_on
    return f"{day} {MONTHS[month - 1]}" if 1 <= month <= 12 and 1 <= day <= 31 else held_on


class MemberRefusal(Refusal):
    """A line that cannot be matched to one member, or a change to the list that cannot be made."""


# What a member's name, club and number may hold: one rule for every way they come in (the
# director's member forms, the new-event list, a late player, a roster file), so that what one
# way stores every other way can read back and every page, sheet, file and terminal can show.

#: The longest club name and membership number a member may have.
CLUB_MAX_LENGTH = 60
NUMBER_MAX_LENGTH = 30
#: What a spreadsheet reads as the start of a formula (``scoring.text.begins_like_formula``, which
#: the CSV writer disarms too, full-width signs and all). Refused rather than stored, so that no
#: export or copy of the list can ever hand a spreadsheet a formula ("+44" too: a number is text).
FORMULA_START = TEXT_FORMULA_START
#: Each field as a refusal names it, and its longest.
MEMBER_FIELDS = {
    "name": ("the name", NAME_MAX_LENGTH),
    "club": ("the club", CLUB_MAX_LENGTH),
    "number": ("the membership number", NUMBER_MAX_LENGTH),
}
#: The new-event list is one player a line, "name, club, number" (and the picker offers each
#: member as such a line): a comma inside a club or a number would make a line it cannot read back.
LIST_COMMAS = "the event's list of players separates name, club and number with commas"


def field_fault(field: str, text: str) -> str | None:
    """Why ``text`` (stripped, as it is stored) cannot be a member's ``field`` ("name", "club" or
    "number"), as a sentence naming the field ("The club cannot hold a comma: …"), or None.

    A name as every player's name in an event (``tournament.seating.name_fault``: no control or
    invisible character, no comma) and at most ``NAME_MAX_LENGTH``; a club and a number at most
    their longest, with no control or invisible character and no comma; none of the three may
    begin like a spreadsheet formula. Only the name is required.
    """
    words, most = MEMBER_FIELDS[field]
    text = text.strip()
    if not text:
        return "The name is empty." if field == "name" else None
    if begins_like_formula(text):
        return sentence(f"{words} begins like a spreadsheet formula (=, +, -, @): remove that character")
    if len(text) > most:
        return sentence(f"{words} is {len(text)} characters long; at most {most} fit")
    fault = control_fault(text)
    if fault is None and "," in text:
        fault = COMMA_IN_NAME if field == "name" else f"a name cannot hold a comma: {LIST_COMMAS}"
    return None if fault is None else sentence(fault.replace("a name", words, 1))


def member_faults(name: str, club: str, number: str) -> list[tuple[str, str]]:
    """Each field of a member that breaks the rule, with why: [(field, sentence)], in the form's
    order; [] for a member every way in would take."""
    faults = ((field, field_fault(field, text)) for field, text in (("name", name), ("club", club), ("number", number)))
    return [(field, fault) for field, fault in faults if fault is not None]


def check_member(name: str, club: str, number: str) -> None:
    """Refuse a member's fields that break the rule: the first fault, beside its field."""
    for field, fault in member_faults(name, club, number):
        raise MemberRefusal(fault, field)


def check_listed(listed: Listed, field: str = "players") -> None:
    """Refuse a line of an event's list that breaks the rule, by its line ("Line 3: the club
    begins like a spreadsheet formula …"), beside the list's ``field``."""
    for _, fault in member_faults(listed.name, listed.club, listed.number):
        raise MemberRefusal(f"Line {listed.line}: {fault[0].lower()}{fault[1:]}", field)


#: What a line of the new-event list is: "name, club, number", the last two optional.
LIST_PARTS = 3


def read_listed(line: int, text: str) -> Listed:
    """A line of the new-event list ("Ann Smith, North, 101") as a player, every part stripped;
    refused by line when it has more than three parts (a club or number holding a comma, which
    a line cannot tell from the next part) or a part breaks the rule."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > LIST_PARTS:
        raise MemberRefusal(
            f"Line {line}: more than three parts (name, club, number): a club or number cannot hold a comma.",
            "players",
        )
    listed = Listed(line, *parts)
    check_listed(listed)
    return listed


@dataclass(frozen=True)
class Listed:
    """A player as a line writes them: the line's number in its list, name, club and number."""

    line: int
    name: str
    club: str = ""
    number: str = ""


@dataclass(frozen=True)
class Matched:
    """A listed player and their member (None: a new member); ``seat`` is the name they play
    under at the event's tables (their own, or with their number when two share a name)."""

    listed: Listed
    member: Member | None
    seat: str

    @property
    def respelt(self) -> bool:
        """The line gives a number's member another name: the member's new spelling."""
        return self.member is not None and name_key(self.listed.name) != self.member.name_key

    @property
    def numbered(self) -> bool:
        """The line gives a member without a number their number."""
        return self.member is not None and self.member.number is None and bool(self.listed.number.strip())


class MemberIndex:
    """The members as lines are matched to them: by number, and by name."""

    def __init__(self, members: Iterable[Member]) -> None:
        self.by_number: dict[str, Member] = {}
        self.by_name: dict[str, list[Member]] = {}
        for member in members:
            if not member.listed:
                continue
            if member.number_key:
                self.by_number[member.number_key] = member
            self.by_name.setdefault(member.name_key, []).append(member)

    def match(self, listed: Listed, field: str = "players") -> Member | None:
        """The member a line names; None for a new member; refused (beside ``field``) when its
        name alone is several members'."""
        key = number_key(listed.number)
        named = self.by_name.get(name_key(listed.name), [])
        if key is not None:
            found = self.by_number.get(key)
            if found is not None:
                return found
            unnumbered = [member for member in named if member.number is None]
            return unnumbered[0] if len(unnumbered) == 1 else None
        if len(named) > 1:
            numbers = ", ".join(member.number or "none" for member in named)
            where = f"Line {listed.line}: " if listed.line else ""
            raise MemberRefusal(
                f"{where}{len(named)} members are named {listed.name} (numbers {numbers}): add the membership number.",
                field,
            )
        return named[0] if named else None


def match_players(lines: Sequence[Listed], index: MemberIndex) -> list[Matched]:
    """Every line of an event's list matched to its member, each member once; two different
    members of one name play as "name (number)", and must both have a number to be told apart."""
    numbered: dict[str, Listed] = {}
    for listed in lines:
        key = number_key(listed.number)
        earlier = numbered.setdefault(key, listed) if key else listed
        if earlier is not listed:
            raise MemberRefusal(
                f"Line {listed.line}: number {listed.number.strip()} is on line {earlier.line} too.", "players"
            )
    members = [index.match(listed) for listed in lines]
    first_line: dict[int, Listed] = {}
    by_name: dict[str, list[int]] = {}
    for position, (listed, member) in enumerate(zip(lines, members, strict=True)):
        if member is not None:
            earlier = first_line.setdefault(member.id, listed)
            if earlier is not listed:
                raise MemberRefusal(
                    f"Line {listed.line}: the same member as line {earlier.line} ({member.described}).", "players"
                )
        by_name.setdefault(name_key(listed.name), []).append(position)
    seats = [listed.name for listed in lines]
    for positions in by_name.values():
        if len(positions) < 2:
            continue
        unnumbered = [lines[p] for p in positions if not number_key(lines[p].number)]
        if unnumbered:
            listed = lines[positions[1]]
            raise MemberRefusal(
                f"Line {listed.line}: {listed.name} is listed twice: two players of that name need their "
                "membership numbers.",
                "players",
            )
        for position in positions:
            seats[position] = numbered_seat(lines[position].name, lines[position].number)
    seen: dict[str, Listed] = {}
    for listed, seat in zip(lines, seats, strict=True):
        earlier = seen.setdefault(name_key(seat), listed)
        if earlier is not listed:
            raise MemberRefusal(f"Line {listed.line}: {seat} is the name of line {earlier.line} too.", "players")
    return [Matched(listed, member, seat) for listed, member, seat in zip(lines, members, seats, strict=True)]


#: The most of a membership number a name told apart by it shows (its end: "Ann Smith (…20417)").
SEAT_NUMBER_LENGTH = 12


def numbered_seat(name: str, number: str) -> str:
    """A name told apart by its number at an event's tables, within the longest name a table takes."""
    number = number.strip()
    if len(number) > SEAT_NUMBER_LENGTH:
        number = "…" + number[-(SEAT_NUMBER_LENGTH - 1) :]
    suffix = f" ({number})"
    return name[: NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix


def public_names(members: Mapping[str, Member | None]) -> dict[str, str]:
    """Each seat name of one event or game as public pages show it (initials where a member
    asked), every one different: two members of the same initials become "A. S." and "A. S. (2)"."""
    shown: dict[str, str] = {}
    taken: set[str] = set()
    for seat, member in members.items():
        name = member.public_name if member is not None else seat
        candidate, count = name, 1
        while name_key(candidate) in taken:
            count += 1
            candidate = f"{name} ({count})"
        taken.add(name_key(candidate))
        shown[seat] = candidate
    return shown
