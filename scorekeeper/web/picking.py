"""The club's members as the director's forms offer them while a name is typed (an HTML
datalist): on the new-event form each as the line its Players list takes ("Ann Smith, North,
101"), on the late-player form by name, with the number and club beside it for the script to
fill in."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..club.members import Member


def event_line(member: Member) -> str:
    """The member as a line of the new-event list: name, club, number (the list splits at
    commas, so a club or number holding one is left out: the number, or else the name, still
    finds the member)."""
    club = member.club if "," not in member.club else ""
    number = member.number if member.number and "," not in member.number else ""
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
    """The members who could join the event late: those on the list not playing it already."""
    options = []
    for member in members:
        if member.removed or member.id in playing:
            continue
        label = ", ".join(part for part in (f"number {member.number}" if member.number else "", member.club) if part)
        options.append(LateOption(member.name, label, member.club, member.number or ""))
    return options
