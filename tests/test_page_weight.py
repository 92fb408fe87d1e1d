"""The page-weight budget in the README: small pages, nothing downloaded but our own CSS and JS."""

import re
from pathlib import Path

import scorekeeper

from .test_architecture import module_imports
from .web import start

HTML_BUDGET = 48 * 1024
STATIC_BUDGET = 80 * 1024
STATIC = Path(scorekeeper.__file__).parent / "static"


def test_css_and_js_together_stay_within_budget():
    assert sum(path.stat().st_size for path in STATIC.iterdir()) <= STATIC_BUDGET


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
        assert set(assets) <= {f"/static/{path.name}" for path in STATIC.iterdir()}, assets
        assert "/static/app.css" in assets and "/static/main.js" in assets


def test_a_page_fetches_every_module_its_scripts_import_at_once(client):
    """main.js and, preloaded beside it, every module it reaches: one round trip, not one a level."""
    page = client.get("/new").get_data(as_text=True)
    assert '<script type="module" src="/static/main.js"></script>' in page
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', page))
    reached, waiting = set(), ["main.js"]
    while waiting:
        for name in module_imports(STATIC / waiting.pop()):
            if name[2:] not in reached:
                reached.add(name[2:])
                waiting.append(name[2:])
    assert preloaded == reached and "storage.js" in preloaded
