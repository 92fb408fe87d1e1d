"""Printed sheets, read back: text with pdftotext, pages with pdfinfo, page 1 as an image with pdftoppm."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.games import full_game_record
from scorekeeper.reports.pdf import render_pdf
from scorekeeper.reports.sheets import blank_sheet_html, rules_card_html, score_sheet_html
from scorekeeper.scoring import configure, parse_record
from tests.scoring.test_record import SPEC_EXAMPLE
from tests.support.web import start


def pdf_text(body: bytes, tmp_path: Path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(body)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def pdf_info(body: bytes, tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "info.pdf"
    path.write_bytes(body)
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in out.splitlines())}


def dark_fraction_of_page_one(body: bytes, tmp_path: Path) -> float:
    """Render page 1 (PNG for people, PGM to count) and measure how much of it is ink."""
    path = tmp_path / "page.pdf"
    path.write_bytes(body)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")], check=True
    )
    assert list(tmp_path.glob("page-*.png")), "no PNG rendered"
    subprocess.run(
        ["pdftoppm", "-gray", "-r", "30", "-f", "1", "-l", "1", str(path), str(tmp_path / "gray")], check=True
    )
    pgm = next(tmp_path.glob("gray-*.pgm")).read_bytes()
    header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", pgm)
    pixels = pgm[header.end() :]
    return sum(1 for value in pixels if value < 160) / len(pixels)


@pytest.fixture(scope="module")
def five_player_game():
    record = full_game_record()
    record["options"] = {"pressure_increase_cap": 20}
    return parse_record(record)


def test_a_five_player_fifteen_hand_game_fits_one_page_with_every_number(five_player_game, tmp_path):
    body = render_pdf(score_sheet_html(five_player_game, title="Club night · Table 3", view_url="http://h/v/x/"))
    assert pdf_info(body, tmp_path)["Pages"] == "1"
    text = pdf_text(body, tmp_path)
    score = five_player_game.score()
    for side in score.sides:
        assert side.side.name in text
        assert str(side.total) in text
    for hand in score.hands:
        for name, side_hand in hand.sides.items():
            assert re.search(rf"(?<![\w-]){side_hand.total}(?!\d)", text), (hand.number, name)
        for pressure in hand.pressures:
            assert re.search(rf"(?<![\w-]){pressure.value}(?!\d)", text)
    assert "Final standings" in text and "Signatures" in text
    assert five_player_game.verification_code in text
    assert "increase capped at 20" in text and "Jokers (Standig adjunct): off" in text


def test_weasyprint_finds_nothing_to_complain_about(five_player_game, caplog):
    """Unknown CSS only logs a warning in WeasyPrint, so the log is what must stay clean."""
    with caplog.at_level("WARNING", logger="weasyprint"):
        render_pdf(score_sheet_html(five_player_game, view_url="http://h/v/x/"))
        render_pdf(blank_sheet_html(configure("crates"), 4))
        render_pdf(rules_card_html(configure("crates")))
    assert not [record.getMessage() for record in caplog.records if record.name.startswith("weasyprint")]


def test_page_one_is_an_image_with_ink_on_it(five_player_game, tmp_path):
    body = render_pdf(score_sheet_html(five_player_game))
    assert 0.02 < dark_fraction_of_page_one(body, tmp_path) < 0.6


def test_a_partnership_sheet_shows_the_covering_and_each_pressure(tmp_path):
    record = parse_record(SPEC_EXAMPLE)
    text = pdf_text(render_pdf(score_sheet_html(record, notes={1: ["Di's 7 out of turn stands."]})), tmp_path)
    assert "Ann & Cy" in text and "Bob & Di" in text
    assert "Ann 3→3→6" in text  # Ann's threes: one covers the 6, the other the pair
    assert "5+10" in text  # Bob & Di's two pressures in hand 1
    assert "Hand 1: Di's 7 out of turn stands." in text
    assert "Partnerships" in text


def test_suit_symbols_render_in_an_embedded_font(tmp_path):
    record = parse_record(
        {**SPEC_EXAMPLE, "hands": [{"leftovers": {"Ann": ["3", "10h"], "Bob": [], "Cy": ["Qs"], "Di": []}}]}
    )
    body = render_pdf(score_sheet_html(record))
    assert "3→10♥" in pdf_text(body, tmp_path)
    path = tmp_path / "fonts.pdf"
    path.write_bytes(body)
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert fonts and all("DejaVu" in line and " yes " in line for line in fonts), fonts


def test_letter_paper_is_a_setting(five_player_game, tmp_path):
    info = pdf_info(render_pdf(score_sheet_html(five_player_game, paper="letter")), tmp_path)
    assert info["Page size"].startswith("792 x 612") and info["Pages"] == "1"
    info = pdf_info(render_pdf(score_sheet_html(five_player_game)), tmp_path)
    assert info["Page size"].startswith("841.89 x 595.2")


def test_the_blank_sheet_has_the_schedule_and_the_reference_panel(tmp_path):
    body = render_pdf(blank_sheet_html(configure("crates"), players=5))
    assert pdf_info(body, tmp_path)["Pages"] == "1"
    text = pdf_text(body, tmp_path)
    rows = re.findall(r"^\s*(\d+)\s+(\d)\s*$", text, re.MULTILINE)
    assert [(int(a), int(b)) for a, b in rows] == list(
        zip(range(1, 16), [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8], strict=True)
    )
    assert "Seat 5" in text and "Threes." in text
    assert re.search(r"Doubling\s+5\s+10\s+20\s+40\s+80\s+160\s+320\s+640", text)
    assert re.search(r"Cap 20\s+5\s+10\s+20\s+40\s+60\s+80\s+100\s+120", text)


def test_the_rules_card_is_one_page_with_the_few_player_actions(tmp_path):
    body = render_pdf(rules_card_html(configure("crates", {"jokers": True})))
    assert pdf_info(body, tmp_path)["Pages"] == "1"
    text = " ".join(pdf_text(body, tmp_path).split())
    assert "next player takes a card" in text and "previous player takes a" in text
    assert "The count" in text and "Pressures" in text and "JK 40" in text


def test_the_verification_code_follows_the_content_not_the_extras():
    record = parse_record(SPEC_EXAMPLE)
    assert parse_record({**SPEC_EXAMPLE, "title": "Another name"}).verification_code == record.verification_code
    changed = json.loads(json.dumps(SPEC_EXAMPLE))
    changed["hands"][0]["leftovers"]["Cy"] = ["9"]
    assert parse_record(changed).verification_code != record.verification_code
    assert re.fullmatch(r"[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}", record.verification_code)


def test_every_game_page_links_its_sheet_and_the_sheet_is_served(client, tmp_path):
    table = start(client, ["Ann", "Bob"])
    table.leftovers(1, 0, "3 10h")
    table.leftovers(1, 1, went_out=True)
    for path in ("/", "/scores", "/history", "/share"):
        assert f'href="/t/{table.token}/sheet.pdf"' in table.page(path)
    response = client.get(f"{table.base}/sheet.pdf")
    assert response.mimetype == "application/pdf"
    text = pdf_text(response.data, tmp_path)
    assert "Ann" in text and "3→10♥" in text
    view = re.search(r"/v/([\w-]+)/", table.page("/share")).group(1)
    assert client.get(f"/v/{view}/sheet.pdf").mimetype == "application/pdf"
    assert "verification" in table.page("/scores").lower()


@pytest.mark.parametrize("path", ["/blank-sheet.pdf?players=5&paper=letter", "/rules.pdf?rules=crates-world-series"])
def test_blank_sheets_and_rules_cards_are_printed_from_the_web(client, path):
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "application/pdf"


def test_bad_print_options_are_refused_with_the_form(client):
    response = client.get("/blank-sheet.pdf?paper=a3&players=9")
    assert response.status_code == 422  # an invalid form, as every form answers it
    assert "Not a valid choice" in response.get_data(as_text=True)
    assert "Print / PDF" in client.get("/blank-sheet").get_data(as_text=True)
    assert "Print / PDF" in client.get("/rules").get_data(as_text=True)


@pytest.mark.parametrize(
    "said, on",
    [
        *((said, True) for said in ("true", "yes", "on", "1", "y", "Y", "TRUE", "Yes")),
        *((said, False) for said in ("false", "no", "off", "0", "n", "", "No", "OFF")),
    ],
)
def test_jokers_on_the_blank_sheet_are_on_or_off_as_said(client, tmp_path, said, on):
    response = client.get(f"/blank-sheet.pdf?rules=crates&players=4&jokers={said}")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert ("Jokers on" in " ".join(pdf_text(response.data, tmp_path).split())) is on


@pytest.mark.parametrize("path", ["/blank-sheet.pdf", "/rules.pdf"])
@pytest.mark.parametrize("said", ["-1", "2", "maybe", "nope"])
def test_jokers_neither_on_nor_off_are_refused_beside_the_field(client, path, said):
    response = client.get(f"{path}?rules=crates&jokers={said}")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and response.mimetype == "text/html"
    assert re.search(r'name="jokers".*?<p class="error" role="alert">On or off: say yes or no', page, re.S), page


@pytest.mark.parametrize(
    "path",
    [
        "/blank-sheet.pdf?rules=crates&players=4&paper=LETTER",
        "/rules.pdf?rules=crates&paper=Letter",
        "/blank-sheet.pdf?paper=A4",
    ],
)
def test_paper_is_named_in_any_case(client, path, tmp_path):
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    size = pdf_info(response.data, tmp_path)["Page size"]
    assert ("612 x 792" in size or "792 x 612" in size) is ("etter" in path.lower())


def test_bad_rules_card_options_are_refused_with_the_rules_card_form(client):
    response = client.get("/rules.pdf?rules=crates&paper=a3")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and response.mimetype == "text/html"
    assert "quick reference" in page and "Blank score sheet" not in page
    assert re.search(r'name="paper".*?<p class="error" role="alert">Not a valid choice', page, re.S)


def test_the_command_line_prints_without_a_server(tmp_path):
    script = Path(sys.executable).parent / "scorekeeper"
    game = tmp_path / "game.json"
    game.write_text(json.dumps({**SPEC_EXAMPLE, "title": "Table 2"}))
    for args in (
        ["report", str(game), "-o", str(tmp_path / "sheet.pdf"), "--paper", "letter"],
        ["blank-sheet", "-o", str(tmp_path / "blank.pdf"), "--players", "5"],
        ["rules-card", "-o", str(tmp_path / "rules.pdf"), "--jokers"],
    ):
        result = subprocess.run([str(script), *args], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert Path(args[args.index("-o") + 1]).read_bytes().startswith(b"%PDF")
    assert "Table 2" in pdf_text((tmp_path / "sheet.pdf").read_bytes(), tmp_path)
    bad = subprocess.run(
        [str(script), "report", str(tmp_path / "none.json"), "-o", "x.pdf"], capture_output=True, text=True
    )
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "rules, players", [("hollywood-eights", 5), ("hollywood-eights", 3), ("crates-world-series", 4)]
)
def test_a_blank_sheet_for_a_seating_the_game_does_not_allow_is_refused_beside_players(client, rules, players):
    response = client.get(f"/blank-sheet.pdf?rules={rules}&players={players}")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and response.mimetype == "text/html"
    assert re.search(r'name="players".*?<p class="error" role="alert">[^<]*not \d', page, re.S), page


def test_the_command_line_refuses_a_blank_sheet_for_a_seating_the_game_does_not_allow(tmp_path):
    script = Path(sys.executable).parent / "scorekeeper"
    out = tmp_path / "blank.pdf"
    args = ["blank-sheet", "-o", str(out), "--rules", "hollywood-eights", "--players", "5"]
    result = subprocess.run([str(script), *args], capture_output=True, text=True)
    assert result.returncode != 0 and not out.exists()
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert "is for 2 players, not 5" in result.stderr


def test_a_blank_hollywood_sheet_has_two_seats(client, tmp_path):
    response = client.get("/blank-sheet.pdf?rules=hollywood-eights&players=2")
    assert response.status_code == 200
    text = pdf_text(response.data, tmp_path)
    assert "Seat 2" in text and "Seat 3" not in text


def test_a_blank_world_series_sheet_seats_the_dummy_without_pressures_at_its_start(client, tmp_path):
    response = client.get("/blank-sheet.pdf?rules=crates-world-series&players=2")
    assert response.status_code == 200, response.get_data(as_text=True)
    text = pdf_text(response.data, tmp_path)
    assert "Seat 1" in text and "Seat 2" in text and "Seat 3: Figgy" in text and "Seat 4" not in text
    heading = next(line for line in text.splitlines() if "cards" in line and "total" in line)
    assert heading.split().count("press.") == 2 and heading.split().count("total") == 3
    start = next(line for line in text.splitlines() if line.split()[:1] == ["start"])
    assert start.split()[-1] == "-50" and start.split()[1:] == ["0", "0", "-50"]


@pytest.mark.parametrize("rules, seats", [("crates", 4), ("hollywood-eights", 2), ("crates-world-series", 2)])
def test_a_blank_sheet_without_a_number_of_players_seats_what_the_game_is_for(rules, seats):
    from scorekeeper.scoring.game import usual_table
    from scorekeeper.scoring.rulesets import configure_known

    assert usual_table(configure_known(rules, {})) == seats


def test_the_command_line_prints_hollywoods_blank_sheet_without_being_told_the_players(tmp_path):
    script = Path(sys.executable).parent / "scorekeeper"
    out = tmp_path / "blank.pdf"
    result = subprocess.run(
        [str(script), "blank-sheet", "-o", str(out), "--rules", "hollywood-eights"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    text = pdf_text(out.read_bytes(), tmp_path)
    assert "Seat 2" in text and "Seat 3" not in text
