"""What a member's page and a season's ladder need beside their results, on the director's, the
public and the published pages alike: how names are shown, where links go, and the rating drawn
over time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from ..club.members import Member, public_names
from ..gamelog.memo import Memo
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


def names_shown(members: Mapping[int, Member], *, public: bool) -> dict[int, str]:
    """Each member by the name a page may show, every one different: public pages as members
    asked (initials, a former member; two alike become "A. S." and "A. S. (2)"), the director's
    by name, two namesakes told apart by their numbers ("John Smith (201)")."""
    if public:
        shown = public_names({str(member): members[member] for member in sorted(members)})
        return {member: shown[str(member)] for member in members}
    alike = Counter(found.name_key for found in members.values() if not found.removed)
    return {
        member: found.public_name
        if found.removed
        else f"{found.name} ({found.number})"
        if found.number and alike[found.name_key] > 1
        else found.name
        for member, found in members.items()
    }


def ladder_names(ladder: SeasonLadder, *, public: bool) -> dict[int, str]:
    """Each player of the ladder by the name the page may show (``names_shown``)."""
    return names_shown(ladder.members, public=public)


#: Ladders as shown, by the ladder they show (its season and the record it was made from).
_SHOWN: Memo[LadderTable] = Memo(32)


def ladder_shown(ladder: SeasonLadder, *, public: bool) -> LadderTable:
    """The season's ladder as its page, wall screen, PDF and CSV show it (made once per ladder)."""
    return _SHOWN.get((ladder.season, ladder.stamp, public), lambda: _shown(ladder, public))


def _shown(ladder: SeasonLadder, public: bool) -> LadderTable:
    return ladder_table(
        ladder.rows,
        ladder.ranked,
        ladder_names(ladder, public=public),
        ladder.season.rule,
        ladder.rule_words,
        ladder.provisional,
    )
