"""What the room reads of the standings, on every output: after which round of how many (only
then "Final standings"), and round 1's provisional places while its tables finish one by one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.storage import events as event_store
from scorekeeper.web.publishing import event_site
from tests.reports.test_paper_checks import booklet, pdf_text
from tests.support.club import play, seat
from tests.web.test_events import new_event

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
#: Each round's two tables (the seats turn) and the places its players finish in.
PLACES = {name: place for name, place in zip(PLAYERS, [1, 2, 3, 4, 1, 2, 3, 4], strict=True)}


def event_of(director, rounds: str = "5"):
    event_url = new_event(director, PLAYERS, rounds=rounds)
    event = event_store.get_event(director.db, int(event_url.rstrip("/").rsplit("/", 1)[1]))
    return event_url, event


def play_rounds(director, event, count: int) -> None:
    for number in range(count):
        turned = PLAYERS[number % 4 :] + PLAYERS[: number % 4]
        for table in seat(director.db, event, [turned[0:4], turned[4:8]]):
            play(director.db, table, PLACES)


def wall_of(director, event_url: str) -> str:
    page = director.get(event_url).get_data(as_text=True)
    wall = re.search(r'href="(http://localhost/e/[^"]+)"', page).group(1)
    return director.get(wall.replace("http://localhost", "")).get_data(as_text=True)


def words_everywhere(director, event_url: str, event, tmp_path: Path) -> dict[str, str]:
    """Each output's text: the standings page, the wall, the standings PDF, the booklet's cover,
    the published event page and the event page's button."""
    pdf = pdf_text(director.get(event_url + "/standings.pdf").data, tmp_path)
    cover = pdf_text(booklet(director, event_url, Path(director.application.instance_path))[0], tmp_path).split("\f")[0]
    published = event_site(director.db, event.id).files["index.html"].content.decode()
    return {
        "standings page": director.get(event_url + "/standings").get_data(as_text=True),
        "wall": wall_of(director, event_url),
        "standings PDF": " ".join(pdf.split()),
        "booklet cover": " ".join(cover.split()),
        "published": published,
        "event page": director.get(event_url).get_data(as_text=True),
    }


def test_after_round_3_of_5_every_output_says_so_and_none_says_final(director, tmp_path):
    event_url, event = event_of(director)
    play_rounds(director, event, 3)
    for output, text in words_everywhere(director, event_url, event, tmp_path).items():
        assert re.search(r"[Ss]tandings( · | )after round 3 of 5", text), output
        assert "final standings" not in text.lower(), output


def test_only_once_the_last_round_is_complete_the_standings_are_final(director, tmp_path):
    event_url, event = event_of(director, rounds="2")
    play_rounds(director, event, 2)
    for output, text in words_everywhere(director, event_url, event, tmp_path).items():
        assert re.search(r"[Ff]inal standings|Standings · final", text), output
        assert "after round" not in text, output


def test_the_pdfs_title_says_after_which_round(director, tmp_path):
    event_url, event = event_of(director)
    play_rounds(director, event, 1)
    path = tmp_path / "standings.pdf"
    path.write_bytes(director.get(event_url + "/standings.pdf").data)
    import subprocess

    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Title:\s+Club night · standings after round 1 of 5", info), info


@pytest.fixture
def round_one_half_done(director):
    """Round 1 of 5: table 1 finished, table 2 at its third hand."""
    event_url, event = event_of(director)
    finished, playing = seat(director.db, event, [PLAYERS[0:4], PLAYERS[4:8]])
    play(director.db, finished, PLACES)
    from scorekeeper.gamelog.entries import LEFTOVERS, Change
    from scorekeeper.storage.games import append

    for number in (1, 2):
        for seat_number, name in enumerate(PLAYERS[4:8]):
            cards = [] if seat_number == number - 1 else ["K"]
            append(
                director.db, playing.game, Change(LEFTOVERS, number, name, {"cards": cards}), f"h{number}{name}", "t"
            )
    return event_url


def rows_of(page: str) -> list[list[str]]:
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", " ", cell).split() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


@pytest.mark.parametrize("where", ["/standings", "wall"])
def test_in_round_1_each_finished_tables_players_are_ranked_provisionally_and_those_playing_follow(
    director, round_one_half_done, where
):
    event_url = round_one_half_done
    page = wall_of(director, event_url) if where == "wall" else director.get(event_url + where).get_data(as_text=True)
    rows = rows_of(page)
    places = [row[0] for row in rows]
    names = [row[1][0] for row in rows]
    # Ann, Bob, Cy and Di finished (places 1 to 4 at their table): ranked by what they have, marked.
    assert names[:4] == ["Ann", "Bob", "Cy", "Di"] and places[:4] == [
        ["1", "prov."],
        ["2", "prov."],
        ["3", "prov."],
        ["4", "prov."],
    ]
    assert names[4:] == ["Ed", "Flo", "Gus", "Hal"] and places[4:] == [["—"]] * 4  # still playing: no place
    assert "Provisional</strong>: 1 of 2 tables finished in round 1 of 5" in page
    assert page.count("hand 3 of 15") >= 4
    assert "Standings during round 1 of 5, provisional: 1 of 2 tables finished" in page


def test_in_round_1_the_standings_pdf_ranks_the_finished_table_provisionally(director, round_one_half_done, tmp_path):
    text = pdf_text(director.get(round_one_half_done + "/standings.pdf").data, tmp_path)
    placed = re.findall(r"^\s*(\d+) prov\.\s+(\w+)", text, re.M)
    assert placed == [("1", "Ann"), ("2", "Bob"), ("3", "Cy"), ("4", "Di")]
    assert re.findall(r"^\s*—\s+(\w+)", text, re.M) == ["Ed", "Flo", "Gus", "Hal"]
    assert "Provisional: 1 of 2 tables finished in round 1 of 5" in " ".join(text.split())
