"""The table plays on without the server, at the address a phone really has: plain http on a
host name (not 127.0.0.1 or localhost, which browsers count as secure). Chromium is told that
``table.test`` is this machine, so the page runs where a phone's does: no service worker, no
Cache Storage; only the open page and its storage."""

from __future__ import annotations

import json
import re
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.gamelog import PRESSURE, Change, ChangeRefusal, Entry, GameState
from scorekeeper.gamelog.checks import accept
from scorekeeper.gamelog.entries import MAX_PRESSURES_IN_A_HAND
from scorekeeper.scoring import configure, parse_cards
from scorekeeper.storage.exchange import import_changes
from tests.browser.conftest import ARGS, CHROMIUM, PHONE, free_port, running_server, start_game, submit
from tests.browser.test_accessibility import axe_violations

HOST = "table.test"


@pytest.fixture
def insecure_phone(browser):
    """A phone whose browser reaches the server by a host name, as over the room's Wi-Fi."""
    launched = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
    )
    context = launched.new_context(**PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    launched.close()


def _export(url: str) -> dict:
    with urllib.request.urlopen(url + "export.json") as response:
        return json.loads(response.read())


def test_a_phone_on_plain_http_plays_on_while_the_server_is_down(insecure_phone, tmp_path, shot):
    page = insecure_phone
    port = free_port()
    instance = tmp_path / "instance"
    with running_server(instance, port):
        record_url = start_game(page, f"http://{HOST}:{port}", ["Ann", "Bob", "Cy", "Di"], partnerships=True)
        assert page.evaluate("isSecureContext") is False
        page.click(".gamenav a:has-text('Scores')")
        page.goto(record_url + "hand/1/seat/0")
        page.goto(record_url)
        expect(page.locator("button.pressure:has-text('Bob') .cost")).to_have_text("+5")
        page.wait_for_function(
            f"() => localStorage.getItem('scorekeeper:copy:{record_url[len(f'http://{HOST}:{port}') :]}') !== null"
        )
    # The laptop's server is gone.
    page.click("button.pressure:has-text('Bob')")
    expect(page.locator(".offline-banner")).to_contain_text("Offline · 1 change waiting")
    expect(page.locator("button.pressure:has-text('Bob') .cost")).to_have_text("+10")  # the next, doubled
    expect(page.locator("button.pressure:has-text('Di') .cost")).to_have_text("+10")  # Bob's partner's too
    expect(page.locator(".pending")).to_contain_text("Pressure: Bob (Bob & Di) +5")
    shot(page, "offline-hand")
    assert axe_violations(page) == []  # drawn on the phone, held to WCAG 2.2 AA as the server's pages are

    page.click(".gamenav a:has-text('Scores')")
    expect(page.locator("h1")).to_have_text("Scores")
    expect(page.locator(".in-play")).to_contain_text("+5")
    expect(page.locator(".offline-banner")).to_contain_text("1 change waiting")
    shot(page, "offline-scores")
    assert axe_violations(page) == []

    page.click(".gamenav a:has-text('Hand')")
    page.click("a.endhand")
    expect(page.locator("[data-player-name]")).to_have_text("Ann")
    page.click(".pad button[data-card='K']")
    page.click(".pad button[data-card='5']")
    points = configure("crates").score_leftovers(parse_cards(["K", "5"])).total
    expect(page.locator("[data-live]")).to_contain_text(f"= {points}")
    shot(page, "offline-pad")
    assert axe_violations(page) == []

    # The laptop died for good: the phone saves the game, its unsent pressure in it, and another
    # server continues it.
    page.click(".gamenav a:has-text('Scores')")
    with page.expect_download() as download:
        page.click("[data-save-game]")
    saved = json.loads(Path(download.value.path()).read_text())
    assert saved["in_play"] == {"hand": 1, "pressures": ["Bob"], "notes": []}
    with running_server(tmp_path / "another") as another:
        importing = page.context.new_page()
        importing.goto(another + "/import")
        importing.set_input_files("#file", download.value.path())
        importing.click("button:has-text('Import')")
        importing.wait_for_url("**/t/*/**")
        continued = _export(another + "/t/" + importing.url.split("/t/")[1].split("/")[0] + "/")
        assert continued["in_play"]["pressures"] == ["Bob"]
        assert continued["players"] == saved["players"] and continued["partnerships"] == saved["partnerships"]

    with running_server(instance, port):  # back, on the same data and port
        page.wait_for_function(
            "() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0", timeout=20_000
        )
        record = _export(record_url.replace(HOST, "127.0.0.1"))
        assert record["in_play"]["pressures"] == ["Bob"]  # recorded once


# --- The pages drawn offline are the server's pages ----------------------------------------------

#: A game a phone had open when the server went: hand 1 complete (two pressures on Bob, threes
#: covering, a ruling), hand 2 in play (a pressure on Cy, a ruling).
IN_PLAY = {
    "format": "scorekeeper-game/1",
    "rules": "crates",
    "players": ["Ann", "Bob", "Cy", "Di"],
    "partnerships": [["Ann", "Cy"], ["Bob", "Di"]],
    "title": "Friday at Ann's",
    "hands": [
        {
            "leftovers": {"Ann": ["K", "5"], "Bob": [], "Cy": ["3", "9"], "Di": ["Q"]},
            "pressures": ["Bob", "Bob"],
            "notes": ["Di misdealt: redealt"],
        }
    ],
    "in_play": {"hand": 2, "pressures": ["Cy"], "notes": ["Ann played out of turn"]},
}


@contextmanager
def _imported(page, tmp_path: Path, record: dict):
    """The game ``record`` imported on a server at ``table.test``, open on ``page`` (its copy kept
    on the phone); yields its record link with the server running, which stops on leaving."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    port = free_port()
    with running_server(tmp_path / "instance", port):
        page.goto(f"http://{HOST}:{port}/import")
        page.set_input_files("#file", str(path))
        page.click("button:has-text('Import')")
        page.wait_for_url("**/t/*/**")
        record_url = page.url.split("/t/")[0] + "/t/" + page.url.split("/t/")[1].split("/")[0] + "/"
        page.goto(record_url)
        yield record_url
        page.goto(record_url)
        with urllib.request.urlopen(record_url.replace(HOST, "127.0.0.1") + "copy.json") as response:
            version = json.loads(response.read())["version"]
        base = record_url.split(str(port))[1]
        page.wait_for_function(
            f"() => (JSON.parse(localStorage.getItem('scorekeeper:copy:{base}')) || {{}}).version === {version}"
        )


def _offline(page) -> None:
    expect(page.locator(".offline-banner")).to_be_visible(timeout=15_000)


def _open(page, href: str) -> None:
    """Follow a link to ``href`` as a tap would (a typed address needs the server)."""
    page.evaluate(
        "href => { const a = document.createElement('a'); a.href = href; document.querySelector('main').append(a); a.click(); }",
        href,
    )


#: The parts of each page the phone draws as the server does: (address, CSS selectors).
SAME_PARTS = [
    (
        "",
        [
            "h1",
            ".deal",
            "table.totals",
            ".pressures .side-block",
            ".pending li",
            "details summary",
            "details .pressure-row",
            ".note",
            ".actions-table",
        ],
    ),
    ("scores", ["h1", "table.totals", "[aria-label='Every hand'] table", "[aria-label='Every hand'] + p"]),
    (
        "hand/1",
        [
            "h1",
            "ul.players",
            ".legend",
            ".hand-sides",
            "h2:has-text('Pressures') + ul",
            "details summary",
            "details .pressure-row",
            ".note",
        ],
    ),
    ("hand/2", ["h1", "ul.players", "h2:has-text('Pressures') + ul", ".note"]),
]


def _parts(page, selectors: list[str]) -> dict[str, list[str]]:
    return {
        selector: [" ".join(text.split()) for text in page.locator(f"main {selector}").all_inner_texts()]
        for selector in selectors
    }


def test_the_pages_drawn_offline_read_as_the_servers(insecure_phone, tmp_path):
    """Hand, scores and a hand's detail, their titles, a save's confirmation and its Undo, the
    address of a hand not yet played and the saved game's file name: as the server has them."""
    page = insecure_phone
    served: dict[str, tuple[str, dict[str, list[str]]]] = {}
    with _imported(page, tmp_path, IN_PLAY) as record_url:
        for path, selectors in SAME_PARTS:
            page.goto(record_url + path)
            page.evaluate("document.querySelectorAll('main details').forEach(d => { d.open = true; })")
            served[path] = (page.title(), _parts(page, selectors))
        page.goto(record_url + "hand/9")
        unplayed = (page.url, page.title())
        with urllib.request.urlopen(record_url.replace(HOST, "127.0.0.1") + "export.json") as response:
            file_name = re.search(r'filename="([^"]+)"', response.headers["Content-Disposition"]).group(1)
        page.goto(record_url)
        submit(page, "button.pressure:has-text('Ann')")
        saved = page.locator(".saved span").inner_text()
        submit(page, ".saved button:has-text('Undo')")
        flashed = page.locator(".flash.ok").inner_text()
    _offline(page)
    for path, selectors in SAME_PARTS:
        _open(page, record_url + path)
        page.evaluate("document.querySelectorAll('main details').forEach(d => { d.open = true; })")
        title, parts = served[path]
        assert page.title() == title
        for selector, drawn in _parts(page, selectors).items():
            assert drawn == parts[selector], (path, selector)
    _open(page, record_url + "hand/9")
    assert (page.url, page.title()) == unplayed

    _open(page, record_url)
    page.evaluate("sessionStorage.clear()")  # no second-pressure question: this is the first tap offline
    page.click("button.pressure:has-text('Ann')")
    expect(page.locator(".offline-banner")).to_contain_text("1 change waiting")
    expect(page.locator(".saved span")).to_have_text(saved)
    assert axe_violations(page) == []
    page.click(".saved button:has-text('Undo')")
    expect(page.locator(".offline-banner")).to_contain_text("0 changes waiting")
    expect(page.locator(".flash.ok")).to_have_text(flashed)

    _open(page, record_url + "scores")
    with page.expect_download() as download:
        page.click("[data-save-game]")
    assert download.value.suggested_filename == file_name


def test_share_print_and_home_say_they_need_the_server_and_back_returns(insecure_phone, tmp_path):
    page = insecure_phone
    with _imported(page, tmp_path, IN_PLAY) as record_url:
        pass
    _offline(page)
    for link in (".gamenav a:has-text('Share')", ".gamenav a:has-text('Print')", "header a.brand"):
        page.click(link)
        expect(page.locator("h1")).to_have_text("This page needs the server")
        assert page.title() == "This page needs the server · Friday at Ann's"
        expect(page.locator(".offline-banner")).to_be_visible()
        assert axe_violations(page) == []
        page.go_back()
        expect(page.locator("h1")).to_contain_text("Hand 2")
        assert page.url == record_url
    page.click(".gamenav a:has-text('Scores')")
    page.click(".gamenav a:has-text('Share')")
    page.click("main a:has-text('Back to hand 2')")
    expect(page.locator("h1")).to_contain_text("Hand 2")
    assert page.url == record_url


def test_a_refusal_beside_the_pressure_buttons_is_said_once_under_them_in_the_servers_words(
    insecure_phone, tmp_path, shot
):
    page = insecure_phone
    full = {**IN_PLAY, "in_play": {"hand": 2, "pressures": ["Cy"] * MAX_PRESSURES_IN_A_HAND, "notes": []}}
    with _imported(page, tmp_path, full):
        pass
    _offline(page)
    button = page.locator("button.pressure:has-text('Bob')")
    width = button.bounding_box()["width"]
    for player in ("Bob", "Ann", "Bob"):
        page.click(f"button.pressure:has-text('{player}')")
    refusals = page.locator("main .js-error")
    expect(refusals).to_have_count(1)
    expect(refusals).to_have_text(_servers_refusal(full, Change(PRESSURE, 2, "Bob")))
    assert refusals.evaluate("node => node.previousElementSibling.classList.contains('pressure-row')")
    assert button.bounding_box()["width"] == width  # the button keeps its width
    expect(page.locator(".offline-banner")).to_contain_text("0 changes waiting")
    shot(page, "offline-pressure-refused")


def _servers_refusal(record: dict, change: Change) -> str:
    """What the server answers ``change`` to, in the game ``record`` holds."""
    parsed, changes = import_changes(record)
    entries = [Entry.of(c, n, n, f"i{n}", "import", "2026-11-25T10:00:00+00:00") for n, c in enumerate(changes, 1)]
    state = GameState.fold(parsed.game, entries)
    with pytest.raises(ChangeRefusal) as refused:
        accept(state, change, Entry.of(change, 9999, 9999, "x", "phone", "2026-11-25T10:00:00+00:00"))
    return str(refused.value)


def _record(rules: str, players: list[str], hands: list[dict], **extra) -> dict:
    return {"format": "scorekeeper-game/1", "rules": rules, "players": players, "hands": hands, **extra}


_SWING = [{"Ann": ["A", "3"], "Bob": [], "Cy": ["K"]}, {"Ann": [], "Bob": ["8"], "Cy": ["2"]}]
#: Games at the end or with a score of their own kind: the final standings (and the hand page that
#: sends on to them), Hollywood's game columns, Crazy Eights' bonus to the winner.
ENDS = {
    "crates, all 15 hands": _record(
        "crates",
        ["Ann", "Bob", "Cy"],
        [{"leftovers": _SWING[n % 2], "pressures": ["Cy"] * (n % 3 == 0)} for n in range(15)],
    ),
    "hollywood, a game column won": _record(
        "hollywood-eights",
        ["Ann", "Bob"],
        [{"leftovers": {"Ann": [], "Bob": cards}} for cards in (["K", "8"], ["8", "8"], ["A", "A"])],
    ),
    "crazy eights, won with its bonus": _record(
        "crazy-eights",
        ["Ann", "Bob", "Cy"],
        [{"leftovers": {"Ann": [], "Bob": ["8", "8", "K"], "Cy": ["8", "8", "Q"]}}],
    ),
}
SCORES = [
    "h1",
    "h1 + p.muted",
    "table.totals",
    "ol.standings",
    "table.games",
    "[aria-label='Every hand'] table",
    "[aria-label='Every hand'] + p",
]


@pytest.mark.parametrize("record", ENDS.values(), ids=ENDS.keys())
def test_the_scores_drawn_offline_end_a_game_as_the_servers(insecure_phone, tmp_path, record):
    page = insecure_phone
    with _imported(page, tmp_path, record) as record_url:
        page.goto(record_url + "scores")
        scores = (page.title(), _parts(page, SCORES))
        page.goto(record_url)
        hand = (page.url, page.title(), _parts(page, ["h1", "table.totals", "table.games"]))
    _offline(page)
    _open(page, record_url + "scores")
    assert (page.title(), _parts(page, SCORES)) == scores
    _open(page, record_url)
    assert (page.url, page.title(), _parts(page, ["h1", "table.totals", "table.games"])) == hand
