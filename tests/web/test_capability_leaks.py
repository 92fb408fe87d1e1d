"""What a read-only link hands out: nothing reachable from a view link or a wall screen, nor a
printed sheet, carries a game's join code or record token (either opens the game for writing)."""

from __future__ import annotations

import re
import subprocess
from urllib.parse import urlsplit

import pytest

from tests.support.web import Table, csrf_token, start
from tests.web.test_events import new_event, record_links, seat_next_round, set_up_director

LINK = re.compile(r'(?:href|src|action|data-[\w-]+)="([^"]*)"')


def pdf_text(body: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=body, capture_output=True, check=True).stdout.decode()


def crawl(client, first: str) -> dict[str, str]:
    """Every response reachable from ``first`` by following links and redirects: its status line,
    every header and its body (a PDF's as text), keyed by path."""
    seen: dict[str, str] = {}
    queue = [first]
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        response = client.get(path)
        headers = "\n".join(f"{name}: {value}" for name, value in response.headers.items())
        if response.mimetype == "application/pdf":
            body = pdf_text(response.data)
        else:
            body = response.get_data().decode("utf-8", "replace")
        response.close()
        seen[path] = f"{response.status}\n{headers}\n\n{body}"
        found = LINK.findall(body) if response.mimetype == "text/html" else []
        if response.location:
            found.append(response.location)
        for link in found:
            parts = urlsplit(link.replace("&amp;", "&"))
            if parts.netloc in ("", "localhost") and parts.path.startswith("/"):
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return seen


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


def secrets_of(table: Table) -> list[str]:
    share = table.page("/share")
    code = re.search(r"\b([A-Z0-9]{4})-([A-Z0-9]{4})\b", share)
    assert code, "the Share page shows the join code"
    return [code.group(1) + code.group(2), code.group(0), table.token]


def assert_nothing_leaks(responses: dict[str, str], secrets: list[str]) -> None:
    for path, text in responses.items():
        for secret in secrets:
            assert secret.lower() not in text.lower(), f"{path} gives away {secret}"


def play_a_few_hands(table: Table) -> None:
    table.pressure("Ann", 1)
    table.post("/note", hand=1, text="Bob played the eight on a two: allowed")
    table.leftovers(1, 0, "K 3 6")
    table.leftovers(1, 1, went_out=True)
    table.pressure("Bob", 2)
    table.leftovers(2, 0, went_out=True)
    table.leftovers(2, 1, "8 A")
    table.post("/note", hand=3, text="Misdeal, redealt by Ann")


def test_nothing_reachable_from_a_view_link_gives_away_the_join_code_or_record_link(client):
    table = start(client, ["Ann", "Bob"], title="Friday at Ann's")
    play_a_few_hands(table)
    view_url = re.search(r'href="[^"]*?(/v/[\w-]+/)"', table.page("/share")).group(1)
    spectator = client.application.test_client()
    responses = crawl(spectator, view_url)
    assert {f"{view_url}export.json", f"{view_url}sheet.pdf", f"{view_url}history"} <= set(responses)
    assert "Friday at Ann" in responses[f"{view_url}sheet.pdf"]  # the PDF was read back as text
    assert_nothing_leaks(responses, secrets_of(table))


def test_nothing_reachable_from_a_wall_screen_gives_away_a_tables_join_code_or_record_link(director):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(director, event_url)
    tables = [Table(director, token) for token in record_links(director, event_url)]
    players = director.get(f"{tables[0].base}/export.json").get_json()["players"]
    tables[0].pressure(players[0], 1)
    for seat in range(len(players)):
        tables[0].leftovers(1, seat, "K" if seat else "", went_out=not seat)
    wall_url = urlsplit(re.search(r'href="([^"]*/e/[\w-]+/)"', director.get(event_url).get_data(as_text=True))[1])
    responses = crawl(director.application.test_client(), wall_url.path)
    assert wall_url.path in responses and "Ann" in responses[wall_url.path]
    assert_nothing_leaks(responses, [secret for table in tables for secret in secrets_of(table)])


def test_downloads_are_named_by_date_and_title(client):
    table = start(client, ["Ann", "Bob"], title="Friday at Ann's")
    disposition = client.get(f"{table.base}/export.json").headers["Content-Disposition"]
    assert re.fullmatch(r'attachment; filename="game-\d{4}-\d\d-\d\d-friday-at-ann-s\.json"', disposition)
    untitled = start(client, ["Cy", "Di"])
    disposition = client.get(f"{untitled.base}/export.json").headers["Content-Disposition"]
    assert re.fullmatch(r'attachment; filename="game-\d{4}-\d\d-\d\d\.json"', disposition)


def test_record_link_pages_and_the_join_page_are_never_cached(client):
    table = start(client, ["Ann", "Bob"])
    table.pressure("Ann", 1)
    for path in ("/", "/share", "/scores", "/history", "/version", "/export.json", "/hand/1", "/no-such-page"):
        assert client.get(f"{table.base}{path}").headers.get("Cache-Control") == "no-store", path
    assert table.pressure("Bob", 1).headers.get("Cache-Control") == "no-store"
    assert client.get("/join").headers.get("Cache-Control") == "no-store"
    code = re.search(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}\b", table.page("/share")).group(0)
    joined = client.post("/join", data={"csrf_token": csrf_token(client, "/join"), "code": code})
    assert joined.status_code == 302 and joined.headers.get("Cache-Control") == "no-store"


def test_the_directors_pages_which_list_every_tables_links_are_never_cached(client):
    set_up_director(client)
    event_url = new_event(client, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(client, event_url)
    for path in ("", "/standings", "/table-cards.pdf", "/round-sheet.pdf", "/export.json"):
        assert client.get(event_url + path).headers.get("Cache-Control") == "no-store", path
    assert client.get("/director/").headers.get("Cache-Control") == "no-store"


def test_a_form_posted_without_its_token_says_to_reload_the_page(client):
    response = client.post("/join", data={"code": "ABCD-EFGH"})
    assert response.status_code == 400
    assert "This page is out of date" in response.get_data(as_text=True)


@pytest.mark.parametrize("outbox", [True, False], ids=["outbox", "plain form"])
def test_a_save_writes_no_cookie_so_no_cookie_ever_holds_the_record_link(client, outbox):
    """The confirmation of a save (with its Undo) travels in the address of the page it sends the
    phone on to, not in the session: the cookie a browser keeps for 30 days never holds a token."""
    table = start(client, ["Ann", "Bob"])
    headers = {"X-Requested-With": "outbox", "Accept": "application/json"} if outbox else {}
    form = {"csrf_token": csrf_token(client, table.base + "/"), "idem": "k1", "hand": "1", "player": "Bob"}
    first = client.post(table.base + "/pressure", data=form, headers=headers)  # labels the phone
    assert first.status_code in (200, 302)
    form = {**form, "idem": "k2", "player": "Ann"}
    response = client.post(table.base + "/pressure", data=form, headers=headers)
    assert response.status_code in (200, 302)
    assert "Set-Cookie" not in response.headers
    landing = response.get_json()["redirect"] if outbox else response.headers["Location"]
    page = client.get(landing).get_data(as_text=True)
    assert "Pressure to Ann: 5" in page and 'name="target"' in page
    cookies = " ".join(f"{c.key}={c.value}" for c in client._cookies.values())
    assert table.token not in cookies
