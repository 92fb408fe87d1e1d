"""Starting and joining a game through the web, CSRF on."""

import re

import pytest

from tests.support.web import csrf_token, new_game_form, start


def post_new(client, players, **fields):
    token = csrf_token(client, "/new")
    return client.post("/new", data={"csrf_token": token, **new_game_form(players, **fields)})


def test_a_new_game_opens_its_share_page_with_a_qr_code_and_a_code(client):
    response = post_new(client, ["Ann", "Bob", "Cy", "Di"], partnerships="y")
    assert response.status_code == 302 and "/share" in response.headers["Location"]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<svg" in page and "Code:" in page
    assert re.search(r"Code: <strong>[A-Z2-9]{4}-[A-Z2-9]{4}<", page)


@pytest.mark.parametrize(
    "players, fields, error",
    [
        ([], {}, "at least two players"),
        (["Ann"], {}, "at least two players"),
        (["Ann", "Bob", "Cy"], {"partnerships": "y"}, "Partnerships need exactly four players"),
        (["Ann", "ann"], {}, "Another player is already called ann"),
        (["Ann", "Bob\tSmith"], {}, "A name cannot hold a control character (a tab)."),
        (["Ann\x00", "Bob"], {}, "A name cannot hold a control character (a NUL)."),
        (["Ann\u202eSmith", "Bob"], {}, "A name cannot hold an invisible character (U+202E)."),
        (["Ann", "Bo\u200bb"], {}, "A name cannot hold an invisible character (U+200B)."),
        (["Ann", "Bob"], {"first_dealer": "3"}, "Choose a seat that has a player"),
        (["Ann", "Bob"], {"option_pressure_increase_cap": "0"}, "Number must be at least 1"),
        (["Ann", "Bob"], {"option_pressure_increase_cap": "lots"}, "A whole number, such as 25 or -10."),
        (["Ann", "Bob", "Cy"], {"rules": "crates-world-series"}, "dummy Figgy"),
        (
            ["Ann", "Figgy", "Bob"],
            {"rules": "crates-world-series", "first_dealer": "1"},
            "Figgy never deals",
        ),
    ],
)
def test_a_refused_game_shows_the_error_and_keeps_what_was_typed(client, players, fields, error):
    response = post_new(client, players, title="Table 7", **fields)
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 422
    assert error in page
    assert 'value="Table 7"' in page
    for name in players:
        assert f'value="{name}"' in page


def test_a_world_series_game_starts_with_figgy(client):
    table = start(client, ["Ann", "Figgy", "Bob"], rules="crates-world-series")
    page = table.page("/")
    assert "Hand 1" in page and "2 cards each" in page
    assert "-50" in page


def test_options_are_kept_in_the_game(client):
    table = start(
        client,
        ["Ann", "Bob"],
        option_jokers="y",
        option_pressure_increase_cap="20",
        option_decks="2",
    )
    record = client.get(f"{table.base}/export.json").get_json()
    assert record["options"] == {"jokers": True, "pressure_increase_cap": 20, "decks": 2}


def test_join_by_code_in_any_case_with_or_without_the_dash(client):
    table = start(client, ["Ann", "Bob"])
    code = re.search(r"Code: <strong>([A-Z2-9]{4})-([A-Z2-9]{4})<", table.page("/share")).groups()
    for typed in ("-".join(code), "".join(code).lower(), " ".join(code)):
        token = csrf_token(client, "/join")
        response = client.post("/join", data={"csrf_token": token, "code": typed})
        assert response.status_code == 302
        assert response.headers["Location"].endswith(f"/t/{table.token}/")


def test_a_wrong_code_is_refused_beside_the_field(client):
    token = csrf_token(client, "/join")
    response = client.post("/join", data={"csrf_token": token, "code": "ABCD-EFGH"})
    assert response.status_code == 422
    assert "No game has that code" in response.get_data(as_text=True)
    assert 'value="ABCD-EFGH"' in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/new", "/join", "/import"])
def test_posts_without_the_csrf_token_are_refused(client, path):
    assert client.post(path, data={"code": "X"}).status_code == 400


EIGHT = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def test_eight_players_start_a_crazy_eights_game_from_the_extra_slots(client):
    page = client.get("/new").get_data(as_text=True)
    assert "More players (6 to 10)" in page and 'name="players-9"' in page
    table = start(client, EIGHT, rules="crazy-eights", option_decks="2")
    assert all(name in table.page("/") for name in EIGHT)


def test_crates_refuses_eight_players_and_keeps_the_names(client):
    token = csrf_token(client, "/new")
    response = client.post("/new", data={"csrf_token": token, **new_game_form(EIGHT)})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "2 to 5 players" in page
    assert 'value="Hal"' in page and '<details class="more-players" open>' in page


def test_each_option_names_the_games_that_use_it(client):
    page = client.get("/new").get_data(as_text=True)
    assert 'data-games="two-fifty"' in page  # the 500 rule
    assert "Blank: the game&#39;s own (" in page and "Zodiac: 55" in page


def field_with_error(page: str, error: str) -> str:
    """The ``name`` of the input whose block shows ``error``: a field's div, or the players' fieldset."""
    blocks = re.findall(r'<div class="field[^"]*"[^>]*>.*?</div>|<fieldset.*?</fieldset>', page, re.DOTALL)
    holding = [block for block in blocks if error in block.replace("&#39;", "'")]
    assert len(holding) == 1, holding
    return re.search(r'name="([a-z_]+)', holding[0]).group(1)


def test_partners_in_a_game_where_everyone_plays_alone_are_refused_beside_the_partnerships_box(client):
    response = post_new(client, ["Ann", "Bob", "Cy", "Di"], rules="crazy-eights", partnerships="y")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_with_error(page, "In Crazy Eights everyone plays alone.") == "partnerships"


def test_a_name_that_mentions_dealing_is_refused_beside_the_players_not_the_first_dealer(client):
    response = post_new(client, ["Ann", "Idealist", "idealist"])
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_with_error(page, "Another player is already called idealist") == "players"
