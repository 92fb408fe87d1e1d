"""Every game's score sheet on one page, A4 and Letter, in its worst case (tests/support/sheet_cases.py):
five sides of 30-character names, partnerships, three rulings, 5+10+20+40 in one cell, the QR."""

import functools
import re
import subprocess
from pathlib import Path

import pytest

from scorekeeper.reports.pdf import render_pdf
from tests.support import paper
from tests.support.sheet_cases import CASES, LONG_NAMES, SINGLE_WORDS, VIEW_URL, Case, sheet

PAPERS = ("a4", "letter")


@functools.cache
def rendered(name: str, paper: str) -> bytes:
    case = next(case for case in CASES if case.name == name)
    return render_pdf(sheet(case, paper))


def pages(body: bytes, tmp_path: Path) -> int:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(body)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))


def words(body: bytes, tmp_path: Path) -> str:
    """The text read back, every run of white space one space (a name may wrap in its cell)."""
    path = tmp_path / "words.pdf"
    path.write_bytes(body)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(text.split())


CASE_PAPERS = [(case.name, paper) for case in CASES for paper in PAPERS]


@pytest.mark.parametrize(("name", "paper"), CASE_PAPERS)
def test_every_worst_case_sheet_is_one_page(name, paper, tmp_path):
    assert pages(rendered(name, paper), tmp_path) == 1


@pytest.mark.parametrize(("name", "paper"), CASE_PAPERS)
def test_the_line_on_checking_and_the_link_beside_the_qr_fit_too(name, paper, tmp_path):
    text = words(rendered(name, paper), tmp_path)
    assert "To check this sheet without the server" in text and "scorekeeper verify" in text
    assert VIEW_URL in text.replace(" ", "")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_sheet_says_every_name_whole_and_has_its_parts(case: Case, tmp_path):
    text = words(rendered(case.name, "a4"), tmp_path)
    (page,) = paper.pages(rendered(case.name, "a4"), tmp_path)
    record = case.record()
    rules = record.game.rules
    dummy = rules.joins_by_itself()
    for name in record.game.players:
        # The seat list, and the signature line of everyone but a dummy (a long word broken in its box).
        assert page.times_read(name) >= (1 if name == dummy else 2), name
    assert f"{rules.name} · score sheet" in text
    assert f"Rules: {rules.name}" in text and f"Rules: {rules.id} " not in text
    assert ("Final standings" if record.score().finished else "Standings so far") in text
    assert "Signatures" in text
    assert record.verification_code in text
    for number, notes in case.notes().items():
        for note in notes:
            # pdftotext may read a wrapped ruling's second line after the grid's last row.
            assert f"Hand {number}: {note[:40]}" in text
    for side in record.score().sides:
        assert str(side.total) in text


def test_names_are_thirty_characters():
    assert {len(name) for name in LONG_NAMES} == {len(name) for name in SINGLE_WORDS} == {30}
    assert not any(" " in name for name in SINGLE_WORDS)


@pytest.mark.parametrize(("name", "paper_size"), CASE_PAPERS)
def test_no_word_runs_off_the_page_and_no_name_prints_over_another(name, paper_size, tmp_path):
    (page,) = paper.pages(rendered(name, paper_size), tmp_path)
    assert page.overflowing() == []
    players = next(case for case in CASES if case.name == name).record().game.players
    in_a_name = [
        (first.text, second.text)
        for first, second in page.overlapping()
        if any(len(word.text) > 3 and word.text in player for word in (first, second) for player in players)
    ]
    assert in_a_name == []


def test_pressures_taken_together_print_in_one_cell(tmp_path):
    text = words(rendered("crates-5", "a4"), tmp_path)
    assert re.search(r"5\+ ?10\+ ?20\+ ?40", text)


@pytest.mark.parametrize(("name", "paper_size"), CASE_PAPERS)
def test_the_line_on_checking_leaves_no_word_alone_and_keeps_the_command_on_one_line(name, paper_size, tmp_path):
    (page,) = paper.pages(rendered(name, paper_size), tmp_path)

    def line_from(first: paper.Word) -> list[str]:
        return [word.text for word in page.words if abs(word.y_min - first.y_min) < 1 and word.x_min >= first.x_min]

    starts = [word for word in page.words if word.text == "To"]
    assert len(starts) == 1
    assert line_from(starts[0])[:3] == ["To", "check", "this"]
    command = next(word for word in page.words if word.text == "scorekeeper")
    code = next(case for case in CASES if case.name == name).record().verification_code
    assert line_from(command)[:4] == ["scorekeeper", "verify", code, "game.json:"]
