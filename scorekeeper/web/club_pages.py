"""What a member's page and a season's ladder need beside their results, on the director's, the
public and the published pages alike: how names are shown, where links go, and the rating drawn
over time."""

from __future__ import annotations

from collections.abc import Callable

from ..club.members import Member, public_names
from ..reports.charts import rating_chart
from ..reports.ladder import LadderTable, ladder_table
from ..storage.player_results import Evening, PlayerResults
from ..storage.seasons import SeasonLadder


def player_page(
    results: PlayerResults,
    *,
    public: bool,
    member_link: Callable[[Member], str | None],
    event_link: Callable[[Evening], str | None] = lambda evening: None,
) -> dict[str, object]:
    """The template's context: ``public`` pages show members as they asked (initials, a former member)."""
    points = results.over_time
    return {
        "results": results,
        "shown": (lambda member: member.public_name) if public else (lambda member: member.name),
        "member_link": member_link,
        "event_link": event_link,
        "chart": rating_chart(
            [point.rating.ordinal for point in points],
            points[0].held_on if points else "",
            points[-1].held_on if len(points) > 1 else "",
        ),
    }


def ladder_names(ladder: SeasonLadder, *, public: bool) -> dict[int, str]:
    """Each player of the ladder by the name the page may show: public pages as members asked
    (initials, a former member; two alike told apart), the director's by name."""
    members = ladder.members
    if public:
        shown = public_names({str(member): members[member] for member in sorted(members)})
        return {member: shown[str(member)] for member in members}
    return {member: found.public_name if found.removed else found.name for member, found in members.items()}


def ladder_shown(ladder: SeasonLadder, *, public: bool) -> LadderTable:
    """The season's ladder as its page, wall screen, PDF and CSV show it."""
    return ladder_table(
        ladder.rows,
        ladder.ranked,
        ladder_names(ladder, public=public),
        ladder.season.rule,
        ladder.rule_words,
        ladder.provisional,
    )
