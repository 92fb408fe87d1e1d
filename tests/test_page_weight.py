"""The page-weight budget in the README: small pages, nothing downloaded but our own CSS and JS."""

import re
from pathlib import Path

import scorekeeper

from .web import start

HTML_BUDGET = 48 * 1024
#: Our own CSS and JavaScript as stored; served compressed they are about a third of it (the
#: first visit's budget, 100 KB compressed, is checked as served).
STATIC_BUDGET = 128 * 1024
STATIC = Path(scorekeeper.__file__).parent / "static"


def test_css_and_js_together_stay_within_budget():
    # The home-screen icons (PNG) are fetched when a phone installs the app, not by a page.
    assert sum(path.stat().st_size for path in STATIC.iterdir() if path.suffix != ".png") <= STATIC_BUDGET


def test_every_page_of_a_finished_five_player_game_stays_within_budget(client):
    table = start(client, ["Annabelle", "Bartholomew", "Cy", "Di", "Ed"])
    for hand in range(1, 16):
        table.pressure("Cy", hand)
        table.post("/note", hand=hand, text="A ruling of a sentence or two, as a table would write it.")
        for seat, cards in enumerate(["A 3 3 6", "", "K Q", "8 8", "10 9 7"]):
            table.leftovers(hand, seat, cards, went_out=not cards)
    pages = ["/scores", "/history", "/share", "/hand/15", "/hand/15/seat/1"]
    for path in pages:
        html = table.page(path)
        assert len(html.encode()) <= HTML_BUDGET, (path, len(html))
        assets = re.findall(r'(?:src|href)="([^"#]+\.(?:css|js|png|jpg|woff2?|svg))"', html)
        assert set(assets) <= {
            "/static/app.css",
            "/static/table.js",
            "/static/sync.js",
            "/static/pages.js",
            "/static/offline.js",
            "/static/icon.svg",
            "/static/apple-touch-icon.png",
        }, assets
