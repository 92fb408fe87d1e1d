"""Links and permissions: the token is the permission; a view link changes nothing."""

import re

import pytest

from scorekeeper.web.security import HEADERS
from tests.support.web import csrf_token, security_headers, start

POST_ROUTES = ["/pressure", "/note", "/one-card", "/undo", "/hand/1/seat/0"]
GET_ROUTES = [
    "/",
    "/scores",
    "/history",
    "/share",
    "/export.json",
    "/hand/1",
    "/hand/1/seat/0",
    "/preview?cards=K",
]


@pytest.fixture
def table(client):
    return start(client, ["Ann", "Bob"])


def view_token(table) -> str:
    return re.search(r"/v/([\w-]+)/", table.page("/share")).group(1)


@pytest.mark.parametrize("path", GET_ROUTES)
def test_a_wrong_record_token_finds_nothing(client, table, path):
    wrong = table.token[:-2] + ("AA" if not table.token.endswith("AA") else "BB")
    assert client.get(f"/t/{wrong}{path}").status_code == 404


@pytest.mark.parametrize("path", POST_ROUTES)
def test_posting_with_a_wrong_token_changes_nothing(client, table, path):
    other = start(client, ["Cy", "Di"])
    token = re.search(r'name="csrf_token" value="([^"]+)"', other.page("/")).group(1)
    response = client.post(
        f"/t/not-a-real-token{path}",
        data={
            "csrf_token": token,
            "idem": "k",
            "hand": 1,
            "player": "Cy",
            "target": 1,
            "cards": "K",
        },
    )
    assert response.status_code == 404
    assert "Pressure: <strong>" not in other.page("/")


def test_the_view_token_does_not_open_the_record_pages(client, table):
    token = view_token(table)
    assert client.get(f"/t/{token}/").status_code == 404
    assert client.get(f"/v/{table.token}/").status_code == 404


def test_view_pages_have_no_forms_and_no_record_link(client, table):
    table.pressure("Ann", 1)
    for path in ("/", "/history"):
        page = client.get(f"/v/{view_token(table)}{path}").get_data(as_text=True)
        assert "<form" not in page
        assert table.token not in page
        assert "view only" in page


def test_view_pages_cannot_be_posted_to(client, table):
    assert client.post(f"/v/{view_token(table)}/", data={}).status_code in (400, 405)


def test_the_numeric_game_id_opens_nothing(client, table):
    for path in ("/t/1/", "/v/1/", "/games/1", "/t/1/export.json"):
        assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", POST_ROUTES)
def test_every_table_post_needs_the_csrf_token(client, table, path):
    response = client.post(f"{table.base}{path}", data={"idem": "k", "hand": 1, "player": "Ann", "cards": "K"})
    assert response.status_code == 400
    assert "Pressure: <strong>Ann</strong>" not in table.page("/")


def test_security_headers_on_game_pages(client, table):
    for path in ("/", "/scores", "/share"):
        response = client.get(f"{table.base}{path}")
        assert security_headers(response) == HEADERS
    page = table.page("/")
    assert "<script>" not in page and " style=" not in page  # nothing inline but the import map (allowed by its hash)


def test_the_join_code_and_tokens_are_long_and_random(client):
    tokens = {start(client, ["Ann", "Bob"]).token for _ in range(5)}
    assert len(tokens) == 5
    assert all(len(token) >= 24 for token in tokens)


def test_a_record_link_cannot_undo_another_games_entry_by_its_number(client, table):
    other = start(client, ["Cy", "Di"])
    other.pressure("Cy", 1)
    target = re.search(r'name="target" value="(\d+)"', other.page("/")).group(1)
    table.post("/undo", target=target)
    assert "there is no such change to undo" in table.page("/")
    assert "Pressure: <strong>Cy</strong>" in other.page("/")


def test_a_correction_cannot_replace_another_games_entry(client, table):
    other = start(client, ["Cy", "Di"])
    other.leftovers(1, 0, "K")
    entry = re.search(r'name="replaces" type="hidden" value="(\d+)"', other.page("/hand/1/seat/0")).group(1)
    response = table.leftovers(1, 0, "Q", replaces=entry)
    assert response.status_code == 422
    assert "The leftovers this corrects are not this game&#39;s" in response.get_data(as_text=True)
    assert 'value="K"' in other.page("/hand/1/seat/0")


def test_the_outbox_is_refused_plainly_when_a_correction_names_another_games_entry(client, table):
    """Not a conflict to resolve (409 'undone meanwhile'): the entry named is simply not this game's."""
    other = start(client, ["Cy", "Di"])
    other.leftovers(1, 0, "K")
    entry = re.search(r'name="replaces" type="hidden" value="(\d+)"', other.page("/hand/1/seat/0")).group(1)
    table.leftovers(1, 0, "A")
    form = {
        "csrf_token": csrf_token(client, f"{table.base}/hand/1/seat/0"),
        "idem": "x1",
        "cards": "Q",
        "replaces": entry,
    }
    response = client.post(f"{table.base}/hand/1/seat/0", data=form, headers={"X-Requested-With": "outbox"})
    assert response.status_code == 422
    assert response.get_json()["error"] == "The leftovers this corrects are not this game's: reload the page."
    assert response.get_json()["field"] == "cards"


def test_the_view_link_exports_the_same_record(client, table):
    table.pressure("Ann", 1)
    table.leftovers(1, 0, "K")
    table.leftovers(1, 1, went_out=True)
    viewed = client.get(f"/v/{view_token(table)}/export.json").get_json()
    assert viewed == client.get(f"{table.base}/export.json").get_json()
    assert viewed["hands"][0]["leftovers"] == {"Ann": ["K"], "Bob": []}


def test_a_correction_naming_another_kind_of_entry_of_this_game_is_refused_plainly(client, table):
    """Seen by a fresh-clone check: naming a pressure of this game answered 409 "…were undone meanwhile"."""
    table.pressure("Ann", 1)
    pressure = client.get(f"{table.base}/export.json").get_json()
    assert pressure["in_play"]["pressures"] == ["Ann"]
    hand = table.page("/hand/1")
    ids = sorted({int(n) for n in re.findall(r'name="target" value="(\d+)"', hand)})
    assert ids, "the hand page offers to undo the pressure"
    form = {
        "csrf_token": csrf_token(client, f"{table.base}/hand/1/seat/0"),
        "idem": "x2",
        "cards": "Q",
        "replaces": str(ids[0]),
    }
    response = client.post(f"{table.base}/hand/1/seat/0", data=form, headers={"X-Requested-With": "outbox"})
    assert response.status_code == 422
    assert response.get_json()["error"] == "What this corrects is not Ann's leftovers for hand 1: reload the page."


def test_only_an_answer_to_a_link_that_exists_tells_the_front_the_phone_is_known(client, table):
    """The front counts a network as known (never a stranger when connections flood in) only when
    the workers answered it something a phone holding a real link asks for."""
    known = "X-Scorekeeper-Known"
    for path in [f"/t/{table.token}/", f"/t/{table.token}/scores", f"/v/{view_token(table)}/"]:
        assert client.get(path).headers.get(known) == "1", path
    wrong = table.token[:-2] + ("AA" if not table.token.endswith("AA") else "BB")
    for path in ["/", "/robots.txt", "/join", f"/t/{wrong}/", "/director/"]:
        assert known not in client.get(path).headers, path
