"""Each rule set says its own rules; the printed reference only prints what it says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper.reports.sheets import rules_card_html, score_sheet_html
from scorekeeper.scoring import RULE_SETS, Game, GameRecord, configure, parse_cards
from tests.support.helpers import hand

PACKAGE = Path(scorekeeper.__file__).parent
#: Where the rules are shown: none of it may ask which rule set it has.
SHOWN_BY = ["templates/**/*.html", "reports/*.py", "web/**/*.py"]


def each_rule_set():
    for rule_set_id in RULE_SETS:
        yield configure(rule_set_id, {"deal": [5]} if rule_set_id == "house" else {})
    yield configure("house", {"scoring": "winner", "end": "target", "limit": 100, "deal": [5]})
    yield configure("two-fifty", {"five_hundred": True})


def test_no_template_report_or_page_names_a_rule_set():
    quoted = re.compile("|".join(rf"""['"]{re.escape(rule_set_id)}['"]""" for rule_set_id in RULE_SETS))
    files = [path for pattern in SHOWN_BY for path in sorted(PACKAGE.glob(pattern))]
    assert len(files) > 30
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if "Blueprint(" in line:  # the house-rules pages' blueprint is called "house" too
                continue
            assert not quoted.search(line), f"{path.relative_to(PACKAGE)}:{number} names a rule set: {line.strip()}"


@pytest.mark.parametrize("rules", list(each_rule_set()), ids=lambda rules: rules.name)
def test_every_rule_set_says_how_it_scores_in_whole_sentences(rules):
    paragraphs = rules.scoring_rules()
    assert paragraphs
    for title, text in paragraphs:
        assert text.endswith(".") and " ." not in text and ".." not in text, (title, text)


@pytest.mark.parametrize("rule_set_id", ["crates", "creights"])
def test_the_examples_on_a_card_are_what_the_engine_scores(rule_set_id):
    rules = configure(rule_set_id)
    (title, text), *_ = rules.scoring_rules()
    examples = re.findall(r"((?:[0-9AJQK]+ )+)= (\d+)", text.split("Examples:")[1])
    assert len(examples) == 3
    for cards, total in examples:
        assert rules.score_leftovers(parse_cards(cards.split())).total == int(total), cards


def test_the_creights_card_tells_its_cancelling_threes_not_crates_covering():
    card = rules_card_html(configure("creights"))
    assert "each 3 counts 3 and cancels one other card, any but an 8" in card
    assert "<tr><th>3</th><td>3, and cancels a card (not an 8); only threes: −50 each</td></tr>" in card
    assert "can itself be covered" not in card
    assert "can itself be covered" in rules_card_html(configure("crates"))


def test_the_hollywood_card_ends_its_scoring_paragraph_once():
    card = rules_card_html(configure("hollywood-eights"))
    assert "collects from each other player the difference.</p>" in card
    assert "<strong>Three games at once.</strong> A player&#39;s first winning hand counts in game 1" in card


@pytest.mark.parametrize(
    "definition, says",
    [
        ({"pressures": True, "pressure_cap": 20}, "the lowest total wins. Pressures: per side, increase capped at 20."),
        ({"pressures": True, "scoring": "winner"}, "the highest total wins. Pressures: per side, doubling."),
    ],
)
def test_a_house_game_score_sheet_tells_its_own_pressures(definition, says):
    rules = configure("house", {"name": "Pressed", "deal": [3, 2], **definition})
    record = GameRecord(Game(rules, ("Ann", "Bob")), (hand(Ann="K", Bob=""),))
    assert says in score_sheet_html(record)
