"""The main pages a phone opens, for the checks both engines (Chromium and WebKit) make of every one."""

from __future__ import annotations

from scorekeeper.tournament.seating import NAME_MAX_LENGTH

# The longest name a seat takes: the worst case for every row a name sits in.
LONG_NAME = "Maximiliana Vanderbilt-Okonkwo"[:NAME_MAX_LENGTH]
# And the longest single word, which cannot break between words.
LONG_WORD = "Wolfeschlegelsteinhausenberger"[:NAME_MAX_LENGTH]
EVENT_PLAYERS = [f"{name}, Boston Bridge Club" for name in ["Ann", "Bob", "Cy", LONG_NAME]]
# Against the layout's width, not innerWidth: a phone's browser (Chromium's is_mobile) widens
# innerWidth to content that overflows, and then never finds it.
SIDEWAYS = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
OPEN_DETAILS = """document.querySelectorAll("main details").forEach(details => { details.open = true; })"""


def main_pages(server: str, record_url: str, view_url: str, suited_url: str, event_url: str) -> dict[str, str]:
    """Each page by name: a game with a hand saved (``record_url``), its view link, a game with suits on the
    pad (``suited_url``), and an event (``event_url``); the director's pages need a logged-in director."""
    return {
        "home": server + "/",
        "new game": server + "/new",
        "join": server + "/join",
        "import": server + "/import",
        "hand": record_url,
        "hand detail": record_url + "hand/1",
        "leftovers pad": record_url + "hand/2/seat/1",
        "leftovers pad with suits": suited_url + "hand/1/seat/0",
        "scores": record_url + "scores",
        "history": record_url + "history",
        "share": record_url + "share",
        "view link": view_url,
        "house rules form": server + "/house-rules/new",
        "new event": server + "/director/events/new",
        "event": event_url,
        "standings": event_url + "/standings",
    }


def sideways(page) -> str | None:
    """What scrolls sideways on the page now (Playwright's page or a WebKit phone), or None."""
    page.evaluate(OPEN_DETAILS)
    width, viewport = page.evaluate(SIDEWAYS)
    return f"{width} px wide in a {viewport} px window" if width > viewport else None
