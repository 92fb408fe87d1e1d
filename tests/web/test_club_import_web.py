"""A roster imported on the director's pages: the file uploaded, its preview (nothing stored),
the import confirmed (the file read and matched again), and every refusal beside the file field."""

from __future__ import annotations

import codecs
import html
import io
import re

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper.club.roster import MAX_ROSTER_BYTES
from tests.support.web import csrf_token
from tests.web.test_events import new_event, set_up_director

IMPORT = "/director/players/import"


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


def post_multipart(client, path: str, fields: dict):
    """A form posted as multipart/form-data, its body built in memory (the test client's own
    builder spills a large body to a temporary file it never closes)."""
    values = {
        name: FileStorage(value[0], filename=value[1]) if isinstance(value, tuple) else value
        for name, value in fields.items()
    }
    boundary, body = encode_multipart(values)
    return client.post(path, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def upload(client, data: bytes, name: str = "players.csv"):
    token = csrf_token(client, IMPORT)
    return post_multipart(client, IMPORT, {"csrf_token": token, "roster": (io.BytesIO(data), name)})


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"|type="hidden" name="{name}" value="([^"]*)"', page)
    if found is None:
        found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    assert found, f"no {name} on the page"
    return html.unescape(next(group for group in found.groups() if group is not None))


def confirm(client, preview_page: str):
    """The preview's button pressed: the form as the page drew it."""
    data = {name: hidden(preview_page, name) for name in ("csrf_token", "content", "file_name", "digest")}
    return post_multipart(client, IMPORT + "/confirm", data)


def text(response) -> str:
    return response.get_data(as_text=True)


def players_page(client) -> str:
    return text(client.get("/director/players/"))


BAD_LINES = (
    "\n".join(
        [
            "Name,Club,Number,Email",
            "Ann Lee,North,101,ann@example.org",
            "Bob Stone,North,101,",
            '"=HYPERLINK(""http://x"")",North,102,',
            ",North,103,",
            "Cy\x07 Moss,North,104,",
            "Di Vale,South,105,",
        ]
    ).encode()
    + b"\n"
)


def test_the_players_page_links_the_import_and_the_form_explains_the_file(director):
    assert f'href="{IMPORT}"' in players_page(director) and "Import a roster (CSV)" in players_page(director)
    page = text(director.get(IMPORT))
    assert 'type="file"' in page and 'enctype="multipart/form-data"' in page and 'name="csrf_token"' in page
    assert "name, club, membership number" in page and "at most 3,000 players" in page and "Latin-1" in page


def test_the_import_pages_need_the_director(client):
    set_up_director(client)
    other = client.application.test_client()
    assert "/director/login" in other.get(IMPORT).headers["Location"]
    assert other.post(IMPORT + "/confirm").status_code in (302, 400)


def test_a_roster_with_bad_lines_is_previewed_then_its_good_lines_imported(director):
    response = upload(director, BAD_LINES)
    page = text(response)
    assert response.status_code == 200
    assert "Nothing is stored yet" in page and "read as UTF-8" in page and "Columns not read: Email" in page
    for line, reason in [
        (3, "Number 101 is on line 2 already."),
        (4, "begins like a spreadsheet formula"),
        (5, "The name is empty."),
        (6, "control character"),
    ]:
        shown = rf'<td class="num">{line}</td><td><code><bdi>[^<]*</bdi></code></td><td>[^<]*{re.escape(reason)}'
        assert re.search(shown, page), line
    assert "Bob Stone,North,101," in page  # the line's text as the file has it
    assert "Import 2 players" in page
    assert "Ann Lee" not in players_page(director)  # a preview stores nothing

    done = confirm(director, page)
    assert done.status_code == 302 and done.headers["Location"].endswith("/director/players/")
    after = players_page(director)
    assert "Ann Lee" in after and "Di Vale" in after and "Bob Stone" not in after
    assert "Roster imported from players.csv: 2 added, 0 updated, 4 lines refused" in after


def test_a_byte_order_mark_and_windows_line_ends_are_read(director):
    data = codecs.BOM_UTF8 + "Name,Club,Number\r\nZoë Brun,Süd,7\r\nAnn Lee,North,1042\r\n".encode()
    page = text(upload(director, data))
    assert "read as UTF-8 with a byte-order mark" in page and "Zoë Brun" in page and "Import 2 players" in page


def test_a_latin1_file_shows_its_accents_and_says_how_it_was_read(director):
    data = "Name;Club;Number\nJürgen Müller;Köln;12\n".encode("cp1252")
    page = text(upload(director, data))
    assert "Müller" in page and "Köln" in page
    assert "read as Windows Latin-1 (not UTF-8)" in page and "save the spreadsheet as" in page
    confirm(director, page)
    assert "Jürgen Müller" in players_page(director)


def test_a_number_with_a_new_spelling_shows_old_and_new_and_the_history_notes_it(director):
    new_event(director, ["Jon Smith, North, 101", "Bob"])
    page = text(upload(director, b"John Smith,North,101\nBob,,\n"))
    assert "<del>Jon Smith</del> → <ins>John Smith</ins>" in page and "Import 1 player<" in page
    assert "1</strong> on the list already" in page
    confirm(director, page)
    after = players_page(director)
    assert "Jon Smith (number 101): now spelt John Smith (from players.csv)" in after
    assert "Roster imported from players.csv: 0 added, 1 updated, 1 unchanged" in after


def test_importing_the_same_file_again_imports_nothing_and_says_the_refused_lines_are_still_refused(director):
    confirm(director, text(upload(director, BAD_LINES)))
    page = text(upload(director, BAD_LINES))
    said = re.search(r'<p class="flash (\w+)" role="status">(Nothing[^<]*)</p>', page)
    assert said.groups() == (
        "error",
        "Nothing new to import from the lines read: their players are on the list as the file has them; "
        "4 lines are refused below.",
    )
    assert "every player the file lists" not in page  # no success above refused lines
    assert (
        "Import " not in re.sub(r"<h1>Import a roster</h1>|<title>Import a roster", "", page).split("Another file")[0]
    )


def test_a_confirmation_sent_twice_imports_once(director):
    page = text(upload(director, BAD_LINES))
    confirm(director, page)
    again = confirm(director, page)
    assert again.status_code == 302
    after = players_page(director)
    words = (
        "Nothing imported from players.csv: the players read are on the list as the file has them; "
        "4 lines were refused."
    )
    assert f'<p class="flash error" role="alert">{words}</p>' in after
    assert after.split('id="club-history"')[1].count("Roster imported from players.csv") == 1


def test_a_list_changed_after_the_preview_shows_the_new_preview_before_importing(director):
    page = text(upload(director, b"Ann Lee,North,101\nBob Stone,,\n"))
    new_event(director, ["Ann Lee, North, 101", "Cy"])  # Ann joins the list meanwhile
    response = confirm(director, page)
    fresh = text(response)
    assert response.status_code == 409 and "The club&#39;s list changed since that preview" in fresh
    assert "Import 1 player<" in fresh and "Bob Stone" not in players_page(director)
    assert confirm(director, fresh).status_code == 302
    assert "Roster imported from players.csv: 1 added, 0 updated, 1 unchanged" in players_page(director)


def test_a_file_of_players_on_the_list_already_and_no_refused_line_is_a_success(director):
    confirm(director, text(upload(director, b"Ann Lee,North,101\nBob Stone,,\n")))
    page = text(upload(director, b"Ann Lee,North,101\nBob Stone,,\n"))
    words = "Nothing to import: every player the file lists is on the list as it has them."
    assert f'<p class="flash ok" role="status">{words}</p>' in page


def test_a_file_whose_every_line_is_refused_says_so_and_offers_nothing(director):
    page = text(upload(director, b'=Ann,North,101\n"Bob, Stone",,\n'))
    words = "Nothing to import: no line of the file can be imported; 2 lines are refused below."
    assert f'<p class="flash error" role="status">{words}</p>' in page and "Import 0" not in page


def test_a_refused_line_is_shown_isolated_with_its_hidden_characters_by_code(director):
    """A right-to-left override in a line would show the rest of it reversed, and carry on into the
    reason beside it: the line sits in a <bdi>, each hidden character written as its code."""
    page = text(upload(director, "Ann Lee,North,101\nEve\u202eliM,South,102\n".encode()))
    assert "<td><code><bdi>Eve[U+202E]liM,South,102</bdi></code></td>" in page
    assert "The name cannot hold an invisible character (U+202E)." in page
    assert "\u202e" not in page


def test_a_confirmation_whose_file_was_tampered_with_is_refused(director):
    page = text(upload(director, BAD_LINES))
    data = {name: hidden(page, name) for name in ("csrf_token", "file_name", "digest")}
    response = director.post(IMPORT + "/confirm", data={**data, "content": "not base64!"})
    assert response.status_code == 422 and "This preview is out of date: upload the file again." in text(response)
    assert "Ann Lee" not in players_page(director)


def test_a_file_refused_whole_is_said_beside_the_file_field(director):
    response = upload(director, b"\x00\x01binary")
    page = text(response)
    assert response.status_code == 422
    assert re.search(
        r'<input[^>]*type="file"[^>]*>.*?<p class="error" role="alert">The file is not a text file', page, re.S
    )


def test_an_upload_needs_a_file_and_the_csrf_token(director):
    token = csrf_token(director, IMPORT)
    response = post_multipart(director, IMPORT, {"csrf_token": token})
    assert response.status_code == 422 and "Choose the roster&#39;s CSV file." in text(response)
    assert post_multipart(director, IMPORT, {"roster": (io.BytesIO(b"Ann,,\n"), "players.csv")}).status_code == 400


def roster_of_size(size: int) -> bytes:
    """A roster file of ``size`` bytes: 3,000 players and a long column that is not read."""
    head = b"Name,Club,Number,Notes\n"
    rows = [f"Player {i:04d},Club {i % 17},{10000 + i},".encode() for i in range(3000)]
    room = size - len(head) - sum(len(row) + 1 for row in rows)
    notes, extra = divmod(room, 3000)
    return head + b"".join(row + b"x" * (notes + (i < extra)) + b"\n" for i, row in enumerate(rows))


def test_a_900_kb_roster_is_previewed_and_imported_and_a_1_1_mb_one_is_refused_clearly(director):
    data = roster_of_size(900_000)
    assert len(data) == 900_000
    page = text(upload(director, data))
    assert "<strong>3,000</strong> new players to add" in page and "Import 3,000 players" in page
    assert confirm(director, page).status_code == 302  # 1.2 MB as base64 in the confirmation
    assert "Roster imported from players.csv: 3,000 added" in players_page(director)

    too_large = roster_of_size(1_100_000)
    response = upload(director, too_large)
    page = text(response)
    assert response.status_code == 413
    assert re.search(r'type="file".*?<p class="error" role="alert">The file is too large', page, re.S)
    assert f"a roster file may be at most {MAX_ROSTER_BYTES:,} bytes" in page and "<h1>Import a roster</h1>" in page


def test_other_pages_keep_the_apps_request_limit(director):
    token = csrf_token(director, "/director/players/")
    response = post_multipart(director, "/director/players/", {"csrf_token": token, "add-name": "x" * 300_000})
    assert response.status_code == 413


def test_only_the_directors_browser_may_send_a_roster_larger_than_any_other_form(client):
    """The roster's routes take a megabyte, but not from a stranger: their body is refused at the
    app's usual limit before it is read."""
    set_up_director(client)
    stranger = client.application.test_client()
    body = b"x" * (300 * 1024)
    assert (
        post_multipart(stranger, IMPORT, {"csrf_token": "nope", "roster": (io.BytesIO(body), "big.csv")}).status_code
        == 413
    )
