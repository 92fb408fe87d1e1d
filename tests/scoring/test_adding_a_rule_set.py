"""Adding a rule set is one module and its entry in the registry (docs/adding-a-rule-set.md).

``PipCount`` below is a whole new game, written here and nowhere else, as its module under
``scoring/rulesets/`` would be; the fixture adds it to the registry as its line in
``scoring/rulesets/__init__.py`` would (and takes it out again). The start form, the hand
pages, the printed card and sheets, the record and its replay must all follow from the
class alone: no template, form or report is told about it. The class is the guide's example,
word for word.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper.cli import cli
from scorekeeper.reports.sheets import blank_sheet_html, rules_card_html, score_sheet_html
from scorekeeper.scoring import Card, Game, InvalidSeating, Rank, RefereeError, configure, load_record
from scorekeeper.scoring.cards import STANDARD_RANKS
from scorekeeper.scoring.leftovers import LeftoverScore, ScoredCard
from scorekeeper.scoring.rulesets import RULE_SETS
from scorekeeper.scoring.rulesets.base import RuleSet, option
from tests.support.web import start

GUIDE = Path(__file__).parent.parent.parent / "docs" / "adding-a-rule-set.md"

#: A 1, 2 2, … 10 10, J 11, Q 12, K 13.
PIPS: dict[Rank, int] = {rank: number for number, rank in enumerate(STANDARD_RANKS, start=1)}


@dataclass(frozen=True)
class PipCount(RuleSet):
    """Every card left in hand counts its pips; three hands of 5, 4 and 3 cards; lowest total wins."""

    id = "pip-count"
    name = "Pip count"
    summary = "Every card left counts its pips, A 1 to K 13; hands of 5, 4 and 3 cards; lowest total wins."
    has_pressures = False
    has_count = False
    has_one_card_penalty = False

    decks: int = option(1, "int", "Decks", "One deck, or two shuffled together.", choices=(1, 2))

    def check_seating(self, game: Game) -> None:
        if not 2 <= len(game.players) <= 6:
            raise InvalidSeating(f"{self.name} is for 2 to 6 players, not {len(game.players)}")

    def schedule(self) -> tuple[int, ...]:
        return (5, 4, 3)

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        if any(card.rank is Rank.JOKER for card in cards):
            raise RefereeError(f"{self.name} has no jokers")
        scored = tuple(ScoredCard(card, PIPS[card.rank]) for card in cards)
        return LeftoverScore(tuple(cards), sum(item.points for item in scored), uncovered=scored)

    def pressure_value(self, number: int) -> int:
        raise RefereeError(f"{self.name} has no pressures")

    def card_values(self) -> tuple[tuple[str, str], ...]:
        return tuple((rank.value, str(points)) for rank, points in PIPS.items())


@pytest.fixture
def pip_count(monkeypatch):
    """The registry line of ``PipCount``, for one test."""
    monkeypatch.setitem(RULE_SETS, PipCount.id, PipCount)
    return PipCount


#: Three hands of Ann, Bob and Cy: each player's cards left (empty: went out).
HANDS = [
    {"Ann": "K Q", "Bob": "", "Cy": "A 2 3"},
    {"Ann": "", "Bob": "10", "Cy": "J"},
    {"Ann": "5", "Bob": "5 5", "Cy": ""},
]
TOTALS = {"Ann": 13 + 12 + 5, "Bob": 10 + 10, "Cy": 6 + 11}


def play(client, **fields):
    """A whole game of Pip count started from the start form and entered hand by hand, seat by seat."""
    table = start(client, ["Ann", "Bob", "Cy"], rules="pip-count", **fields)
    for number, hand in enumerate(HANDS, start=1):
        for seat, cards in enumerate(hand.values()):
            response = table.leftovers(number, seat, cards, went_out=not cards)
            assert response.status_code == 302, response.get_data(as_text=True)
    return table


def test_the_start_form_offers_a_new_rule_set_and_its_options(client, pip_count):
    page = client.get("/new").get_data(as_text=True)
    assert '<option value="pip-count">Pip count</option>' in page
    assert "pip-count" in page.split('name="option_decks"')[0].rsplit("data-games=", 1)[1]


def test_a_new_rule_set_is_started_and_scored_at_the_table(client, pip_count):
    table = play(client, option_decks="2")
    scores = table.page("/scores")
    assert "Pip count" in scores
    record = client.get(f"{table.base}/export.json").get_json()
    assert (record["rules"], record["options"]) == ("pip-count", {"decks": 2})
    score = load_record(json.dumps(record)).score()
    assert score.finished
    assert {side.side.name: side.total for side in score.sides} == TOTALS
    assert "Final standings" in scores
    assert '<span class="name">Cy</span> <span class="num big">17</span>' in scores


def test_its_referee_refuses_what_its_deck_does_not_hold(client, pip_count):
    table = start(client, ["Ann", "Bob"], rules="pip-count")
    response = table.leftovers(1, 0, "K K K K K")
    assert response.status_code == 422
    assert "5 × K in the leftovers, but one deck has only 4" in response.get_data(as_text=True)


def test_a_new_rule_set_game_is_replayed_from_its_record(client, pip_count, tmp_path):
    table = play(client)
    path = tmp_path / "game.json"
    path.write_bytes(client.get(f"{table.base}/export.json").data)
    result = CliRunner().invoke(cli, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.output)
    assert {side["name"]: side["total"] for side in replayed["sides"]} == TOTALS
    assert replayed["leader"] == ["Cy"]


def test_a_new_rule_set_prints_its_card_and_sheets(client, pip_count):
    rules = configure("pip-count")
    card = rules_card_html(rules)
    assert "Pip count · quick reference" in card
    assert "<strong>Scoring.</strong> Each player scores the cards left in their own hand. After 3 hands" in card
    assert "<tr><th>K</th><td>13</td></tr>" in card
    assert "Cards each, hand by hand: 5, 4, 3." in card
    assert '<td class="n">3</td><td class="n">3</td>' in blank_sheet_html(rules, players=3)
    page = client.get("/rules?rules=pip-count").get_data(as_text=True)
    assert "Pip count: quick reference" in page and "lowest total wins." in page
    table = play(client)
    sheet = score_sheet_html(load_record(client.get(f"{table.base}/export.json").get_data(as_text=True)))
    assert "Pip count · score sheet" in sheet
    assert '<span class="opt">Decks: <strong>1</strong>' in sheet


def test_the_guide_shows_this_very_module():
    """docs/adding-a-rule-set.md's example is the class these tests start, score, print and replay."""
    example = re.search(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    assert example, "the guide has no module"
    assert inspect.getsource(PipCount) in example.group(1)
    pips = "#: A 1, 2 2, … 10 10, J 11, Q 12, K 13.\nPIPS: dict[Rank, int] = {rank: number for number, rank in enumerate(STANDARD_RANKS, start=1)}"
    assert pips in example.group(1)
