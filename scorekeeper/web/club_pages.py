"""What a member's page needs beside their results, on the director's, the public and the published
pages alike: how names are shown, where links go, and the rating drawn over time."""

from __future__ import annotations

from collections.abc import Callable

from ..club.members import Member
from ..reports.charts import rating_chart
from ..storage.player_results import Evening, PlayerResults


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
