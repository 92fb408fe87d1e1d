"""Table cards: the table number is the largest thing on each card, with the event, date and game;
and the director is warned when the QR codes would point at this machine's own name."""

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support import paper
from tests.web.test_events import new_event, seat_next_round, set_up_director

#: An event takes names of up to 24 characters.
LONG = ["Bartholomew Okonkwo-Smit", "Maximiliana Featherstone", "Cy", "Di"]
WARNING = "no phone can open"


@pytest.fixture
def event_url(client):
    set_up_director(client)
    url = new_event(client, LONG)
    seat_next_round(client, url)
    return url


def signed_in_at(client, base_url: str) -> None:
    """The director's login cookie sent to another host name too (a browser would sign in there)."""
    name = client.application.config["SESSION_COOKIE_NAME"]
    client.set_cookie(name, client.get_cookie(name).value, domain=urlsplit(base_url).hostname)


def word_sizes(body: bytes, tmp_path: Path) -> list[tuple[str, float]]:
    """Each word on page 1 with its height in points, read back from the PDF."""
    return [(word.text, word.height) for word in paper.pages(body, tmp_path)[0].words]


def test_the_table_number_is_the_largest_thing_on_the_card(client, event_url, tmp_path):
    body = client.get(event_url + "/table-cards.pdf").data
    sizes = word_sizes(body, tmp_path)
    number = max(height for word, height in sizes if word == "1")
    others = [height for word, height in sizes if word != "1" and word != "Table"]
    assert number > 1.5 * max(others)
    text = " ".join(word for word, _ in sizes)
    assert "Club night · round 1 · 2026-11-22" in text and "Crates" in text
    assert "Bartholomew Okonkwo-Smit" in text


def test_cards_printed_from_localhost_warn_and_from_the_network_do_not(client, event_url, tmp_path):
    for host in ("http://localhost", "http://127.0.0.1:5000", "http://[::1]:5000"):
        signed_in_at(client, host)
        page = client.get(event_url, base_url=host).get_data(as_text=True)
        assert WARNING in page, host
        cards = client.get(event_url + "/table-cards.pdf", base_url=host)
        assert WARNING in " ".join(word for word, _ in word_sizes(cards.data, tmp_path)), host
    for host in ("http://192.168.1.20:5000", "http://scores.club.example"):
        signed_in_at(client, host)
        page = client.get(event_url, base_url=host).get_data(as_text=True)
        assert "Table cards (PDF)" in page and WARNING not in page, host
        cards = client.get(event_url + "/table-cards.pdf", base_url=host)
        assert cards.mimetype == "application/pdf"
        assert WARNING not in " ".join(word for word, _ in word_sizes(cards.data, tmp_path)), host


def test_a_seats_number_stays_on_the_line_of_its_name_however_long_the_word(client, tmp_path):
    set_up_director(client)
    names = ["Pneumonoultramicroscopicsilico", "W" * 30, "Cy", "Di"]
    url = new_event(client, names)
    seat_next_round(client, url)
    (page,) = paper.pages(client.get(url + "/table-cards.pdf").data, tmp_path)
    assert page.overflowing() == []
    text = paper.squeezed(page.text())
    for name in names:
        first = next(index for index, word in enumerate(page.words) if name.startswith(word.text) and word.text != "")
        number, start = page.words[first - 1], page.words[first]
        assert re.fullmatch(r"[1-4]\.", number.text), (name, number.text)
        assert abs(number.y_min - start.y_min) < 1, name  # on one line
        assert number.text + paper.squeezed(name) in text, name
