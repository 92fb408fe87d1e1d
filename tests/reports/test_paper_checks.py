"""Paper that can be checked without the server (``scorekeeper verify``, codes that cover where a
sheet is filed), the standings and the booklet as printed, read back with pdftotext and pdfinfo."""

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from scorekeeper.scoring import load_record, parse_record
from tests.cli.test_cli import run
from tests.support import paper
from tests.support.web import csrf_token
from tests.web.test_events import (
    OUTBOX,
    booklet_form,
    event_form,
    new_event,
    record_links,
    seat_next_round,
    set_up_director,
)


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


FILED = {"event": "Club night", "held_on": "2026-11-22", "round": 2, "table": 3}


def write_record(tmp_path: Path, name: str, record: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def a_record(hands: int = 3, **extra) -> dict:
    leftovers = [{"Ann": ["A", "3"], "Bob": [], "Cy": ["K"]}, {"Ann": [], "Bob": ["8"], "Cy": ["2"]}] * 8
    return {
        "format": "scorekeeper-game/1",
        "rules": "crates",
        "players": ["Ann", "Bob", "Cy"],
        "hands": [{"leftovers": hand, "pressures": []} for hand in leftovers[:hands]],
        **extra,
    }


def code_of(record: dict) -> str:
    return parse_record(record).verification_code


# scorekeeper verify ------------------------------------------------------------


def test_verify_says_so_and_exits_0_when_the_code_is_the_records(tmp_path):
    record = a_record(filed_under=FILED)
    path = write_record(tmp_path, "game.json", record)
    code = code_of(record)
    for typed in (code, code.lower(), code.replace("-", ""), code.replace("-", " ")):
        result = run("verify", typed, path)
        assert result.returncode == 0, result.stderr
        assert f"code {code} matches" in result.stdout and "round 2 · table 3" in result.stdout
        assert result.stderr == ""


def test_verify_takes_the_code_typed_in_groups_without_quotes(tmp_path):
    record = a_record(filed_under=FILED)
    path = write_record(tmp_path, "game.json", record)
    code = code_of(record)
    groups = code.lower().split("-")
    result = run("verify", *groups, path)
    assert result.returncode == 0, result.stderr
    assert f"code {code} matches {path}" in result.stdout and result.stderr == ""
    result = run("verify", *code_of(a_record()).split("-"), path)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1
    assert f"its code is {code}" in result.stderr
    result = run("verify", *groups[:2], path)
    assert result.returncode == 2 and "not a verification code" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    result = run("verify", *groups[:2], "-", stdin=json.dumps(record))
    assert result.returncode == 2 and "not a verification code" in result.stderr
    result = run("verify", *groups, "-", stdin=json.dumps(record))
    assert result.returncode == 0, result.stderr


def test_verify_names_the_mismatch_in_one_line_and_exits_1(tmp_path):
    record = a_record(5, filed_under=FILED)
    path = write_record(tmp_path, "game.json", record)
    other = code_of(a_record(5))  # the same game, filed under no event
    result = run("verify", other, path)
    assert result.returncode == 1 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"does not match {path}: its code is {code_of(record)}" in result.stderr
    assert "filed under no event" in result.stderr


def test_verify_tells_a_sheet_printed_before_the_last_hands(tmp_path):
    path = write_record(tmp_path, "game.json", a_record(6, filed_under=FILED))
    printed = code_of(a_record(4, filed_under=FILED))
    result = run("verify", printed, path)
    assert result.returncode == 1
    assert "after hand 4" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_verify_refuses_a_malformed_code_or_record_in_one_line(tmp_path):
    good = write_record(tmp_path, "game.json", a_record())
    code = code_of(a_record())
    broken = write_record(tmp_path, "broken.json", a_record(filed_under={"event": "Club night", "round": 0}))
    extra_key = write_record(tmp_path, "extra.json", a_record(filed_under={**FILED, "seat": 4}))
    for args, status, words in (
        (("verify", "5F7A-7FF5", good), 2, "not a verification code"),
        (("verify", "5F7A-7FF5-5BGZ", good), 2, "not a verification code"),
        (("verify", code, str(tmp_path / "missing.json")), 1, "no such file"),
        (("verify", code, broken), 1, "filed_under"),
        (("verify", code, extra_key), 1, "'filed_under' has a key it does not know: 'seat'"),
        (("verify", code), 2, "Missing argument 'GAME.json'"),
        (("verify", *code.split("-")[:2]), 2, "not a verification code"),
        (("verify", good), 2, "Missing argument 'CODE'"),
        (("verify",), 2, "Missing argument"),
    ):
        result = run(*args)
        assert result.returncode == status, (args, result.stderr)
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_replay_json_carries_the_verification_code(tmp_path):
    record = a_record(filed_under=FILED)
    result = run("replay", "--json", write_record(tmp_path, "game.json", record))
    assert json.loads(result.stdout)["verification_code"] == code_of(record)


def test_the_code_covers_where_the_sheet_is_filed():
    codes = {
        code_of(a_record(filed_under={**FILED, **change}))
        for change in ({}, {"table": 4}, {"round": 1}, {"event": "Club night 2"}, {"held_on": "2026-11-29"})
    }
    assert len(codes) == 5 and code_of(a_record()) not in codes
    assert code_of(a_record(title="Another title", created_at="2026-01-01")) == code_of(a_record())


# An event's exports, sheets, standings and booklet ------------------------------


def pdf_text(body: bytes, tmp_path: Path, name: str = "out.pdf") -> str:
    path = tmp_path / name
    path.write_bytes(body)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def pages(body: bytes, tmp_path: Path) -> int:
    path = tmp_path / "pages.pdf"
    path.write_bytes(body)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def play_hands(client, token, hands, winner_seat=0, first=1):
    csrf = csrf_token(client, f"/t/{token}/")
    players = json.loads(client.get(f"/t/{token}/export.json").get_data(as_text=True))["players"]
    for hand in range(first, hands + 1):
        for seat in range(len(players)):
            data = {"csrf_token": csrf, "idem": f"l{hand}-{seat}", "cards": "" if seat == winner_seat else "K 5"}
            if seat == winner_seat:
                data["went_out"] = "y"
            response = client.post(f"/t/{token}/hand/{hand}/seat/{seat}", headers=OUTBOX, data={**data, "replaces": ""})
            assert response.status_code == 200, response.get_json()


def club_event(director):
    return new_event(
        director,
        [
            "Ann Longsurname-Smythe-X, Riverside Club, 10442",
            "Bob, Hilltop, 7",
            "Cy",
            "Di, Riverside Club, 3311",
            "Ed",
            "Flo, Hilltop, 12",
            "Gus",
            "Hal",
        ],
    )


def test_the_event_export_files_each_game_and_swapping_two_tables_changes_their_codes(director, tmp_path):
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    seat_next_round(director, event_url)
    tables = director.get(event_url + "/export.json").get_json()["tables"]
    assert len(tables) == 2
    for table in tables:
        record = table["record"]
        assert record["filed_under"] == {
            "event": "Club night",
            "held_on": "2026-11-22",
            "round": 1,
            "table": table["table"],
        }
        assert table["verification_code"] == code_of(record)
        path = write_record(tmp_path, f"t{table['table']}.json", record)
        assert run("verify", table["verification_code"], path).returncode == 0
    first, second = (table["record"] for table in tables)
    swapped = {**first, "filed_under": second["filed_under"]}, {**second, "filed_under": first["filed_under"]}
    assert {code_of(record) for record in swapped}.isdisjoint(table["verification_code"] for table in tables)
    event_file = tmp_path / "event.json"
    event_file.write_text(director.get(event_url + "/export.json").get_data(as_text=True))
    found = run("verify", tables[1]["verification_code"], str(event_file))
    assert found.returncode == 0 and "round 1 · table 2" in found.stdout


def test_a_games_own_sheet_and_scores_page_show_the_code_its_export_verifies(director, tmp_path):
    event_url = new_event(director, ["Ann", "Bob"], held_on="2025-03-01")
    seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    play_hands(director, token, 2)
    export = director.get(f"/t/{token}/export.json").get_json()
    code = code_of(export)
    assert export["filed_under"]["held_on"] == "2025-03-01"
    assert code in director.get(f"/t/{token}/scores").get_data(as_text=True)
    text = pdf_text(director.get(f"/t/{token}/sheet.pdf").data, tmp_path)
    assert code in text and f"scorekeeper verify {code} game.json" in " ".join(text.split())
    assert "2025-03-01" in text  # the event's date, not the day the round was seated
    view = re.search(r"/v/([^\"/]+)/", director.get(f"/t/{token}/share").get_data(as_text=True)).group(1)
    # The link may wrap beside the QR code, after a '-' of its token too, which pdftotext then
    # takes for a hyphenation and drops: the token is compared without its hyphens.
    flat = "".join(text.split())
    assert "Read-onlylink:http://localhost/" in flat and view.replace("-", "") in flat.replace("-", "")


def test_the_standings_pdf_is_provisional_while_tables_play(director, tmp_path):
    event_url = club_event(director)
    seat_next_round(director, event_url)
    first, second = record_links(director, event_url)
    play_hands(director, first, 15)
    play_hands(director, second, 4)
    body = director.get(event_url + "/standings.pdf").data
    text = pdf_text(body, tmp_path)
    flat = " ".join(text.split())
    # Said once, and not contradicted by the note for later rounds (complete rounds only).
    assert "provisional: 1 of 2 tables finished" in flat and "(provisional)" not in flat
    assert "counts complete rounds only" not in flat
    assert re.search(r"Hands\s.*played", text, re.S)
    assert "Riverside" in flat and "10442" in flat and "Hilltop" in flat and "3311" in flat
    assert re.search(r"printed \d{4}-\d\d-\d\d \d\d:\d\d", flat)
    hands = [
        # No round is complete yet: the finished table's players have provisional places, those
        # still playing none ("—"); each row its hands played.
        line.split()[-1]
        for line in text.splitlines()
        if re.match(r"\s*(?:\d+ prov\.|—)\s+(Ann|Bob|Cy|Di|Ed|Flo|Gus|Hal)\b", line)
    ]
    assert sorted(hands) == ["15"] * 4 + ["4"] * 4
    under_way = re.findall(r"round 1, table (\d): (finished, \d+|hand 5 of 15, \d+ so far)", flat)
    assert sorted(table for table, _ in under_way) == ["1"] * 4 + ["2"] * 4, "each player's table under the name"
    from tests.web.test_event_planning_web import post

    assert post(director, event_url, f"/games/{second}/lock", anyway="y").status_code == 302  # closed as it stands
    flat = " ".join(pdf_text(director.get(event_url + "/standings.pdf").data, tmp_path).split())
    assert "provisional" not in flat.lower() and "still playing" not in flat, "a locked table does not play on"
    play_hands(director, second, 15)
    final = " ".join(pdf_text(director.get(event_url + "/standings.pdf").data, tmp_path).split())
    assert "rovisional" not in final and "Hands played" not in final


#: The widest a standings row gets: 30-letter words for names, long clubs, a 12-digit number.
WIDE_PLAYERS = [
    ("W" * 30, "Royal Pneumonoultramicroscopic Society of Card Players", "123456789012"),
    ("Pneumonoultramicroscopicsilico", "Riverside Club", "10442"),
    ("Bartholomew Okonkwo-Smith Jr.X", "X" * 60, "999999999999"),
    ("Maximiliana Featherstonehaughs", "Hilltop", "7"),
]
STANDINGS_HEADINGS = ("Place", "Player", "Club", "No.", "Total", "Placement points", "Wins", "Tables", "Hands played")


def wide_event(director):
    """An event of the widest players, one table of four, three hands played: provisional standings."""
    event_url = new_event(director, [", ".join(player) for player in WIDE_PLAYERS])
    seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    play_hands(director, token, 3)
    return event_url


def assert_every_column_on_the_page(page: paper.Page, headings=STANDINGS_HEADINGS):
    assert page.overflowing() == []
    for value in (*headings, *(value for player in WIDE_PLAYERS for value in player)):
        assert page.reads(value), value


def test_the_standings_keep_every_column_on_the_page_whatever_the_names(director, tmp_path):
    event_url = wide_event(director)
    (page,) = paper.pages(director.get(event_url + "/standings.pdf").data, tmp_path)
    assert_every_column_on_the_page(page)


def test_an_event_name_of_one_80_letter_word_breaks_inside_the_page(director, tmp_path):
    name = "N" * 80
    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"], name=name)
    seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    play_hands(director, token, 2)
    body, _ = booklet(director, event_url, Path(director.application.instance_path))
    printed = {
        "standings": paper.pages(director.get(event_url + "/standings.pdf").data, tmp_path)[0],
        "table card": paper.pages(director.get(event_url + "/table-cards.pdf").data, tmp_path)[0],
        "sheet": paper.pages(director.get(f"/t/{token}/sheet.pdf").data, tmp_path)[0],
        "sheet on Letter": paper.pages(director.get(f"/t/{token}/sheet.pdf?paper=letter").data, tmp_path)[0],
        "booklet cover": paper.pages(body, tmp_path)[0],
    }
    for what, page in printed.items():
        assert page.overflowing() == [], what
        assert name in paper.squeezed(page.text()), what


def wait_for(client, status_url):
    for _ in range(600):
        if "Download the booklet" in client.get(status_url).get_data(as_text=True):
            return
        time.sleep(0.1)
    raise AssertionError("the booklet is not ready after 60 s")


def booklet(director, event_url, instance: Path):
    started = director.post(event_url + "/booklet", data=booklet_form(director, event_url))
    status_url = started.headers["Location"]
    wait_for(director, status_url)
    job = status_url.rsplit("/", 1)[1]
    status = json.loads((instance / "booklets" / f"{job}.json").read_text())
    return director.get(status_url + ".pdf").data, status


def test_the_booklet_cover_keeps_every_column_on_the_page_whatever_the_names(director, tmp_path):
    event_url = wide_event(director)
    body, _ = booklet(director, event_url, Path(director.application.instance_path))
    cover = paper.pages(body, tmp_path)[0]
    assert_every_column_on_the_page(cover)


def test_the_booklet_has_a_cover_rulings_and_codes_and_reuses_locked_tables(director, tmp_path):
    event_url = club_event(director)
    seat_next_round(director, event_url)
    first, second = record_links(director, event_url)
    play_hands(director, first, 2)
    csrf = csrf_token(director, f"/t/{first}/")
    note = {"csrf_token": csrf, "idem": "n1", "hand": 3, "text": "Misdeal ruled by the director"}
    assert director.post(f"/t/{first}/note", headers=OUTBOX, data=note).status_code == 200
    play_hands(director, first, 15, first=3)
    play_hands(director, second, 15, winner_seat=1)
    instance = Path(director.application.instance_path)

    body, status = booklet(director, event_url, instance)
    assert status["rendered"] == 3 and status["reused"] == 0
    text = pdf_text(body, tmp_path)
    cover = text.split("\f")[0]
    # Planned round by round (no number of rounds): nothing says round 1 was the last.
    assert "Club night" in cover and "2026-11-22" in cover and "Standings after round 1" in cover
    assert "Riverside Club" in cover and "Ann Longsurname-Smythe-X" in cover
    assert "Misdeal ruled by the director" in text
    codes = [table["verification_code"] for table in director.get(event_url + "/export.json").get_json()["tables"]]
    assert all(code in text for code in codes) and text.count("Read-only link:") == 2

    lock = csrf_token(director, event_url)
    for token in (first, second):
        director.post(f"{event_url}/games/{token}/lock", data={"csrf_token": lock, "anyway": "y"})
    _, status = booklet(director, event_url, instance)  # the locked tables' sheets are kept now
    assert status["rendered"] == 3 and status["reused"] == 0
    again, status = booklet(director, event_url, instance)
    assert status["rendered"] == 1 and status["reused"] == 2  # only the cover is rendered again
    assert pdf_text(again, tmp_path).split("\f")[1:] == text.split("\f")[1:]
    assert pages(again, tmp_path) == pages(body, tmp_path)


def test_a_record_export_of_a_game_outside_events_keeps_its_code():
    record = a_record()
    assert "filed_under" not in record
    assert load_record(json.dumps(record)).filed_under is None


def test_a_sheet_rendered_with_the_parsed_stylesheet_is_the_same_picture_as_a_plain_render(tmp_path):
    import weasyprint

    from scorekeeper.reports import pdf
    from scorekeeper.reports.sheets import score_sheet_html

    html = score_sheet_html(parse_record(a_record(6, filed_under=FILED)), title="Club night", view_url="http://h/v/x/")
    plain = weasyprint.HTML(string=html, base_url=str(pdf.PRINT_ASSETS) + "/").write_pdf()
    pictures = []
    for name, body in (("plain", plain), ("reused", pdf.render_pdf(html))):
        (tmp_path / f"{name}.pdf").write_bytes(body)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "50", str(tmp_path / f"{name}.pdf"), str(tmp_path / name)], check=True
        )
        pictures.append([path.read_bytes() for path in sorted(tmp_path.glob(f"{name}-*.png"))])
    assert pictures[0] and pictures[0] == pictures[1]


def test_a_render_hands_the_garbage_collector_back_as_it_found_it(monkeypatch):
    import gc

    from scorekeeper.reports import pdf

    pdf.render_booklet(["<p>one</p>", "<p>two</p>"])
    before = gc.get_threshold()
    assert before[0] != pdf.RENDER_GC_THRESHOLD
    seen = []

    def failing(html: str) -> None:
        seen.append(gc.get_threshold())
        raise RuntimeError("the render failed")

    monkeypatch.setattr(pdf, "_document", failing)
    with pytest.raises(RuntimeError):
        pdf.render_pdf("<p>x</p>")
    assert seen == [(pdf.RENDER_GC_THRESHOLD, *before[1:])]  # kept out of the way during the render
    assert gc.get_threshold() == before


def page_size(body: bytes, tmp_path: Path) -> str:
    path = tmp_path / "size.pdf"
    path.write_bytes(body)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return re.search(r"Page size:\s+(.*)", info).group(1)


def test_the_events_printouts_take_paper_in_any_case_and_refuse_any_other(director, tmp_path):
    event_url = club_event(director)
    seat_next_round(director, event_url)
    for printout in ("/standings.pdf", "/table-cards.pdf", "/round-sheet.pdf"):
        for size, points in (("", "(A4)"), ("a4", "(A4)"), ("LETTER", "(letter)"), ("Letter", "(letter)")):
            response = director.get(f"{event_url}{printout}?paper={size}")
            assert response.status_code == 200 and response.mimetype == "application/pdf", (printout, size)
            assert points in page_size(response.data, tmp_path), (printout, size)
        for size in ("foo", "a3", "letter "):
            refused = director.get(f"{event_url}{printout}?paper={size}")
            assert refused.status_code == 400, (printout, size)
            assert "paper must be one of a4, letter" in refused.get_data(as_text=True)


def test_a_house_games_rules_card_takes_paper_like_the_others(client, tmp_path):
    from tests.web.test_house_pages import define, saved_id

    rules_id = saved_id(define(client))
    letter = client.get(f"/house-rules/{rules_id}/rules.pdf?paper=LETTER")
    assert letter.status_code == 200 and "(letter)" in page_size(letter.data, tmp_path)
    refused = client.get(f"/house-rules/{rules_id}/rules.pdf?paper=foo")
    assert refused.status_code == 400 and "paper must be one of a4, letter" in refused.get_data(as_text=True)


def test_an_event_chosen_to_print_on_letter_prints_everything_on_letter(director, tmp_path):
    event_url = new_event(director, [f"Player {i}" for i in range(8)], paper="letter")
    seat_next_round(director, event_url)
    page = director.get(event_url).get_data(as_text=True)
    assert "Crates" in page and "prints on US Letter" in page
    table = record_links(director, event_url)[0]
    for printout in (
        f"{event_url}/standings.pdf",
        f"{event_url}/table-cards.pdf",
        f"{event_url}/round-sheet.pdf",
        f"/t/{table}/sheet.pdf",
    ):
        assert "(letter)" in page_size(director.get(printout).data, tmp_path), printout
        assert "(A4)" in page_size(director.get(printout + "?paper=a4").data, tmp_path), printout  # said on the link
    body, _ = booklet(director, event_url, Path(director.application.instance_path))
    pages = ["pdfinfo", "-f", "1", "-l", "2", "-"]
    sizes = subprocess.run(pages, input=body, capture_output=True, check=True).stdout.decode()
    assert sizes.count("(letter)") == 2, sizes  # the cover, and a table's sheet


def test_an_event_prints_on_a4_unless_its_director_chose_otherwise(director, tmp_path):
    event_url = new_event(director, [f"Player {i}" for i in range(8)])
    assert "prints on A4" in director.get(event_url).get_data(as_text=True)
    refused = director.post("/director/events/new", data={**event_form(director, ["Ann", "Bob"]), "paper": "a3"})
    assert refused.status_code == 422 and "Not a valid choice" in refused.get_data(as_text=True)


def test_the_event_page_finds_its_booklets_again_and_only_the_newest_are_kept(director, monkeypatch):
    from scorekeeper.web import booklets as booklet_jobs_module

    monkeypatch.setattr(booklet_jobs_module, "KEPT_BOOKLETS", 2)
    instance = Path(director.application.instance_path)
    event_url = new_event(director, [f"Player {i}" for i in range(8)])
    seat_next_round(director, event_url)
    other_url = new_event(director, [f"Other {i}" for i in range(8)])
    seat_next_round(director, other_url)
    jobs = []
    for _ in range(3):
        started = director.post(event_url + "/booklet", data=booklet_form(director, event_url))
        wait_for(director, started.headers["Location"])
        jobs.append(started.headers["Location"].rsplit("/", 1)[1])
    other = director.post(other_url + "/booklet", data=booklet_form(director, other_url))
    wait_for(director, other.headers["Location"])

    page = director.get(event_url).get_data(as_text=True)
    listed = re.findall(r'href="[^"]*/booklet/(\w+)">Booklet of [\d-]+ [\d:]+</a>:\s*ready', page)
    assert listed == [jobs[2], jobs[1]]  # newest first; the oldest was removed when the fourth started
    assert other.headers["Location"].rsplit("/", 1)[1] not in page  # another event's booklet is not listed
    assert not (instance / "booklets" / f"{jobs[0]}.pdf").exists()
    assert director.get(f"{event_url}/booklet/{jobs[0]}").status_code == 404
    assert director.get(f"{event_url}/booklet/{jobs[2]}.pdf").data.startswith(b"%PDF")
