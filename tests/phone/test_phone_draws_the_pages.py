"""The pages a phone draws from its copy of a game (``static/offline_pages.js``) read as the server's.

A game the server holds (partnerships, a hand scored with pressures, a pressure in the hand in
play) is drawn in Node from its ``copy.json``, as a phone holds it, and again with a pressure
waiting in the phone's outbox; the server's hand and scores pages are read for the same game
before and after that pressure is saved, and the engine folds the game's record. Each pressure
button carries the cost of its side's next pressure and the rule book's window for asking about
a second one, the forms post what the server's do, and the totals are the engine's.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import urlencode

import tinyhtml5

from scorekeeper.gamelog import Entry
from scorekeeper.gamelog.checks import accept_record
from scorekeeper.scoring.rulebook import SAME_PRESSURE_SECONDS
from scorekeeper.storage.exchange import import_changes
from tests.phone.test_phone_scores_as_the_engine import ROOT, node
from tests.support.web import Table, csrf_token

SCRIPT = ROOT / "tests" / "phone" / "draw.mjs"
XHTML = "{http://www.w3.org/1999/xhtml}"

#: Hand 1 complete (two pressures on Bob), hand 2 in play with a pressure on Cy.
GAME = {
    "format": "scorekeeper-game/1",
    "rules": "crates",
    "players": ["Ann", "Bob", "Cy", "Di"],
    "partnerships": [["Ann", "Cy"], ["Bob", "Di"]],
    "title": "Friday at Ann's",
    "hands": [
        {
            "leftovers": {"Ann": ["K", "5"], "Bob": [], "Cy": ["3", "9"], "Di": ["Q"]},
            "pressures": ["Bob", "Bob"],
        }
    ],
    "in_play": {"hand": 2, "pressures": ["Cy"]},
}


def _imported(client) -> Table:
    token = csrf_token(client, "/import")
    response = client.post("/import", data={"csrf_token": token, "text": json.dumps(GAME)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return Table(client, response.headers["Location"].split("/t/")[1].split("/")[0])


def _drawn(cases: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    answer = subprocess.run(
        [node(), str(SCRIPT)], input=json.dumps(cases), capture_output=True, text=True, timeout=120, check=False
    )
    assert answer.returncode == 0, answer.stderr[-3000:]
    return json.loads(answer.stdout)


def _main(html: str) -> ET.Element:
    main = tinyhtml5.parse(html).find(f".//{XHTML}main")
    assert main is not None
    return main


def _title(html: str) -> str:
    title = tinyhtml5.parse(html).find(f".//{XHTML}title")
    assert title is not None
    return " ".join("".join(title.itertext()).split())


def _text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _all(root: ET.Element, tag: str, css_class: str | None = None) -> list[ET.Element]:
    return [
        found
        for found in root.iter(XHTML + tag)
        if css_class is None or css_class in (found.get("class") or "").split()
    ]


def _pressure_buttons(main: ET.Element) -> list[dict[str, Any]]:
    """Each pressure button of the hand's rows: what its form posts, what it says, its cost."""
    buttons = []
    for form in _all(main, "form"):
        button = form.find(f"{XHTML}button")
        if button is None or "pressure" not in (button.get("class") or "").split():
            continue
        fields = {
            field.get("name"): field.get("value")
            for field in form.iter(f"{XHTML}input")
            if field.get("name") not in ("csrf_token", "idem")
        }
        (cost,) = _all(button, "span", "cost")
        buttons.append(
            {
                "action": form.get("action"),
                "outbox": form.get("data-outbox"),
                "ask": form.get("data-ask"),
                "within": form.get("data-ask-within"),
                "label": button.get("aria-label"),
                "text": _text(button),
                "fields": fields,
                "cost": _text(cost),
            }
        )
    return buttons


def _cells(row: ET.Element) -> list[str]:
    return [_text(cell) for cell in row if cell.tag in (f"{XHTML}th", f"{XHTML}td")]


def _totals(main: ET.Element) -> list[list[str]]:
    """The rows of the totals table, cell by cell."""
    (table,) = _all(main, "table", "totals")
    return [_cells(row) for row in table.iter(f"{XHTML}tr")]


def _total_by_side(main: ET.Element) -> dict[str, str]:
    """Each side's total in the totals table (its big number)."""
    (table,) = _all(main, "table", "totals")
    return {
        _text(row.find(f"{XHTML}th")): _text(_all(row, "td", "big")[0])  # type: ignore[arg-type]
        for row in table.iter(f"{XHTML}tr")
    }


def _grid_totals(main: ET.Element) -> list[list[str]]:
    """The foot of the scores grid (the bonus, the totals), cell by cell."""
    (grid,) = _all(main, "table", "hands")
    foot = grid.find(f"{XHTML}tfoot")
    assert foot is not None
    return [_cells(row) for row in foot.iter(f"{XHTML}tr")]


def _engine(record: dict[str, Any]):
    parsed, changes = import_changes(record)
    entries = [
        Entry.of(change, n, n, f"i{n}", "import", "2026-11-25T10:00:00+00:00") for n, change in enumerate(changes, 1)
    ]
    return accept_record(parsed.game, entries)


def test_the_pages_a_phone_draws_read_as_the_servers_and_score_as_the_engine(client):
    table = _imported(client)
    base = table.base + "/"
    copy = client.get(base + "copy.json").get_json()
    served = {"hand": table.page("/"), "scores": table.page("/scores")}
    before = _engine(client.get(base + "export.json").get_json())
    waiting = {
        "id": "q1",
        "url": "http://phone.test" + base + "pressure",
        "body": urlencode({"csrf_token": "x", "idem": "q1", "hand": 2, "player": "Bob", "again": "", "waited": "0"}),
        "at": 0,
        "label": "Pressure: Bob, hand 2",
    }
    assert table.pressure("Bob", 2).status_code == 302
    served_after = {"hand": table.page("/"), "scores": table.page("/scores")}
    after = _engine(client.get(base + "export.json").get_json())
    routes = [{"page": "hand"}, {"page": "scores"}]
    drawn, drawn_after = _drawn(
        [
            {"copy": copy, "base": base, "items": [], "routes": routes},
            {"copy": copy, "base": base, "items": [waiting], "routes": routes},
        ]
    )

    for pages, server, state in ((drawn, served, before), (drawn_after, served_after, after)):
        hand, scores = ({**page, "main": _main(page["html"])} for page in pages)
        assert [hand["route"], scores["route"]] == routes
        assert hand["title"] == _title(server["hand"]) and scores["title"] == _title(server["scores"])

        buttons = _pressure_buttons(hand["main"])
        assert buttons == _pressure_buttons(_main(server["hand"]))
        sides = {member: side.name for side in state.game.sides for member in side.members}
        assert len(buttons) == len(GAME["players"])
        for button in buttons:
            assert button["cost"] == f"+{state.next_pressure(sides[button['fields']['player']])}", button
            assert button["within"] == str(SAME_PRESSURE_SECONDS), button

        engine_totals = {side.side.name: str(side.total) for side in state.score.sides}
        assert _total_by_side(hand["main"]) == _total_by_side(scores["main"]) == engine_totals
        assert _totals(hand["main"]) == _totals(_main(server["hand"]))
        assert _totals(scores["main"]) == _totals(_main(server["scores"]))
        assert _grid_totals(scores["main"]) == _grid_totals(_main(server["scores"]))
        assert _grid_totals(scores["main"])[-1] == ["Total", *engine_totals.values()]

    assert [b["cost"] for b in _pressure_buttons(_main(drawn[0]["html"]))] != [
        b["cost"] for b in _pressure_buttons(_main(drawn_after[0]["html"]))
    ], "the waiting pressure raises its side's next cost"
