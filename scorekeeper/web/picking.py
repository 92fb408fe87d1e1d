"""The club's members as the director's forms offer them while a name is typed (an HTML
datalist): on the new-event form each as the line its Players list takes ("Ann Smith, North,
101"), on the late-player form by name, with the number and club beside it for the script to
fill in."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..club.members import Member, field_fault


def readable(field: str, text: str | None) -> str:
    """A member's club or number as a form may be handed it: "" when the club's rule refuses it.
    Only a member stored before the rule can hold such a one (a comma, a control character, a
    formula's start: from a database made before it, or the migration of older events); a line
    handed it would be refused when it comes back, or split at its comma into a wrong member."""
    return text if text and field_fault(field, text) is None else ""


def event_line(member: Member) -> str:
    """The member as a line of the new-event list: name, club, number. A club or number the
    list could not read back (``readable``) is left out: the number, or else the name, still
    finds the member, and an empty club keeps the member's own."""
    club, number = readable("club", member.club), readable("number", member.number)
    parts = [member.name, club, number] if number else [member.name, club] if club else [member.name]
    return ", ".join(parts)


def event_lines(members: Iterable[Member]) -> list[str]:
    return [event_line(member) for member in members if not member.removed]


@dataclass(frozen=True)
class LateOption:
    """A member offered to the late-player form: the name it fills in, what the browser shows
    beside it, and the club and number the script fills in when it is chosen."""

    name: str
    label: str
    club: str
    number: str


def late_options(members: Iterable[Member], playing: Collection[int]) -> list[LateOption]:
    """The members who could join the event late: those on the list not playing it already (a
    club or number the late-player form would refuse left out, as from the event's lines)."""
    options = []
    for member in members:
        if member.removed or member.id in playing:
            continue
        club, number = readable("club", member.club), readable("number", member.number)
        label = ", ".join(part for part in (f"number {number}" if number else "", club) if part)
        options.append(LateOption(member.name, label, club, number))
    return options
