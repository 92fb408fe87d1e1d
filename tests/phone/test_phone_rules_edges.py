"""The phone's scorer (``static/rules.js``) at the edges the random games of
``test_phone_scores_as_the_engine.py`` cannot reach: cards written the long way or wrongly, a
special card without its suit asked of the scorer alone, and threes beside a card worth exactly
a three (no rule set of the registry has one; a rule book may), each read against the engine.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from typing import Any

from scorekeeper.scoring import Game, ScoringError, configure, parse_cards
from scorekeeper.scoring.cards import Card
from scorekeeper.scoring.rulebook import rule_book
from scorekeeper.scoring.rulesets import SINGLE_HAND
from scorekeeper.scoring.threes import not_an_eight, nullify_with_threes, score_with_threes
from tests.phone.test_phone_scores_as_the_engine import ROOT, engine_leftovers, node

RULES = (ROOT / "scorekeeper" / "static" / "rules.js").as_uri()

#: Reads [[function, ...arguments]] on stdin; writes each one's result, or {refused: its words}, or
#: {thrown: the error} for any other error (a card given as null is passed on as null).
CALLS = f"""
import * as rules from {json.dumps(RULES)};
const chunks = [];
for await (const chunk of process.stdin) {{ chunks.push(chunk); }}
const calls = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const run = ([name, ...args]) => {{
  const card = (token) => (token === null ? null : rules.parseCard(token));
  try {{
    if (name === "SINGLE_HAND") {{ return rules.SINGLE_HAND; }}
    if (name === "parseCard") {{ return rules.parseCard(args[0]); }}
    if (name === "scoreGame") {{
      const hands = args[1].map((hand) => ({{ ...hand, leftovers: Object.fromEntries(
        Object.entries(hand.leftovers).map(([player, tokens]) => [player, tokens.map(card)])) }}));
      return rules.scoreGame(args[0], hands, false);
    }}
    if (name === "checkHand") {{
      return rules.checkLeftovers(args[0], Object.fromEntries(
        Object.entries(args[1]).map(([player, tokens]) => [player, tokens.map(card)])));
    }}
    const cards = args[1].map(rules.parseCard);
    return name === "scoreLeftovers" ? rules.scoreLeftovers(args[0], cards)
      : rules.checkOneHand(args[0], cards);
  }} catch (error) {{
    if (error instanceof rules.Refused) {{ return {{ refused: error.message }}; }}
    return {{ thrown: String(error) }};
  }}
}};
process.stdout.write(JSON.stringify(calls.map(run)));
"""


def phone(*calls: list[Any]) -> list[Any]:
    answer = subprocess.run(
        [node(), "--input-type=module", "-e", CALLS],
        input=json.dumps(calls),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert answer.returncode == 0, answer.stderr[-3000:]
    return json.loads(answer.stdout)


def _book(rule_set: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return rule_book(Game(configure(rule_set, options or {}), ("Ann", "Bob", "Cy"), ()))


def test_a_joker_written_in_full_is_a_joker_and_a_joker_has_no_suit_and_t_is_a_ten():
    tokens = ["joker", "Joker", "JOKER", "JK", "JKs", "jkh", "JokerS", "T", "t", "Th"]
    engine = []
    for token in tokens:
        try:
            engine.append(parse_cards([token])[0].rank.value)
        except ScoringError:
            engine.append(None)
    assert engine == ["JK", "JK", "JK", "JK", None, None, None, "10", "10", "10"]
    read = phone(*(["parseCard", token] for token in tokens))
    assert [None if "refused" in card else card["rank"] for card in read] == engine
    assert [card.get("suit") for card in read] == [None] * 9 + ["H"]
    assert read[4] == {"refused": "unknown card JKs"}


def test_the_scorer_alone_asks_for_the_suit_of_a_special_card():
    """A calculator's points (``scoreLeftovers``, without the rule book's refusals) refuse a queen
    without its suit where the queen of spades is special, naming that card."""
    book = _book("house", {"name": "Kitchen", "special": {"QS": 40}})
    refused, plain = phone(["scoreLeftovers", book, ["Q"]], ["scoreLeftovers", book, ["Qh", "Qs"]])
    assert refused == {"refused": "Q♠ is a special card: give the suit"}
    assert plain["total"] == 10 + 40


def test_the_scorer_alone_refuses_a_card_outside_the_game():
    """Without the rule book's refusals (``scoreLeftovers`` alone, as a calculator's points), a
    card without its suit where every card needs one, and a joker where jokers are off, are refused
    in words that say why."""
    suited, jokerless = _book("two-fifty"), _book("crates")
    assert jokerless["leftovers"]["jokers_per_deck"] == 0
    read = phone(["scoreLeftovers", suited, ["Kh", "K"]], ["scoreLeftovers", jokerless, ["K", "JK"]])
    assert read == [
        {"refused": "this game needs the suit of every card"},
        {"refused": "Joker is not in this game's deck"},
    ]


def test_a_slip_that_is_not_a_refusal_comes_out_of_a_game_as_it_was_thrown():
    """A hand with something that is not a card (a bug in the page, not a player's mistake): the
    game's scorer lets the leftovers' own error through unchanged, not a later one of its own."""
    book = _book("crates")
    leftovers = {"Ann": ["K", None], "Bob": [], "Cy": ["5"]}
    game, alone = phone(
        ["scoreGame", book, [{"leftovers": leftovers, "pressures": []}]], ["checkHand", book, leftovers]
    )
    assert "thrown" in alone
    assert game == alone


def test_creights_leaves_a_bare_three_after_threes_cancel_threes():
    """Three threes beside nothing a three may cancel (eights): two of them cancel each other and
    the third stands alone, each scoring 3, as the engine counts them."""
    game = Game(configure("creights", {}), ("Ann", "Bob", "Cy"), ())
    hands = [["3", "3", "3", "8"], ["3h", "3s", "3", "8", "8"], ["3", "3", "3", "3", "K"]]
    engine = [engine_leftovers(game, hand) for hand in hands]
    read = phone(*(["checkLeftovers", rule_book(game), hand] for hand in hands))
    assert [{"total": r["total"], "covers": r["covers"], "steps": r["steps"]} for r in read] == engine
    assert engine[0]["total"] == 3 + 3 + 50


def test_a_book_without_the_engines_words_still_names_who_never_takes_a_pressure():
    """A rule book kept by a phone from before books carried the engine's refusals: a pressure to
    the World Series' Figgy is still refused, naming him."""
    book = rule_book(Game(configure("crates-world-series", {}), ("Ann", "Figgy", "Bob"), ()))
    assert book["no_pressure"] == ["Figgy"]
    del book["refusals"]
    hand = {"leftovers": {"Ann": ["K"], "Figgy": [], "Bob": ["5"]}, "pressures": ["Figgy"]}
    assert phone(["scoreGame", book, [hand]]) == [{"refused": "Figgy never takes a pressure"}]


def test_of_cards_worth_the_same_a_three_covers_the_lower_rank_first():
    """A jack of clubs and a queen are both worth 10 in Crates: one three covers the jack (the
    lower rank, whatever its suit), as the engine chooses, in whichever order they were written."""
    game = Game(configure("crates", {}), ("Ann", "Bob", "Cy"), ())
    hands = [["Q", "Jc", "3"], ["Jc", "Q", "3"], ["Kc", "Qd", "J", "3", "3"]]
    engine = [engine_leftovers(game, hand) for hand in hands]
    read = phone(*(["checkLeftovers", rule_book(game), hand] for hand in hands))
    assert [{"total": r["total"], "covers": r["covers"], "steps": r["steps"]} for r in read] == engine
    assert engine[0]["covers"] == "3→J♣"


def test_a_deck_holds_only_its_jokers():
    """Crates with jokers: two a deck, so a third joker is refused in the engine's words, while four
    of a plain rank are not."""
    game = Game(configure("crates", {"jokers": True}), ("Ann", "Bob", "Cy"), ())
    hands = [["JK", "JK", "JK"], ["JK", "JK", "K", "K", "K", "K"]]
    engine = [engine_leftovers(game, hand) for hand in hands]
    read = phone(*(["checkLeftovers", rule_book(game), hand] for hand in hands))
    assert [r if "refused" in r else {key: r[key] for key in ("total", "covers", "steps")} for r in read] == engine
    assert "refused" in engine[0] and "refused" not in engine[1]


def _with_a_card_worth_three(rule_set: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The rule set's book with the ace worth exactly what a three counts when it covers."""
    book = _book(rule_set)
    terms = book["leftovers"]
    terms["points"] = {**terms["points"], "A": terms["three_points"]}
    return book, terms["points"]


def _by(points: dict[str, int]) -> Callable[[Card], int]:
    return lambda card: points[card.rank.value]


def test_a_three_covers_only_a_card_worth_more_than_a_three():
    """Crates: covering a card worth 3 with a three saves nothing, so no such pile is shown; with
    nothing worth more, one pile is made on the best card there is (scoring/threes.py)."""
    book, points = _with_a_card_worth_three("crates")
    hands = [["3", "A", "K"], ["3", "3", "K", "A"], ["3", "A", "8"], ["3h", "3s", "A", "K", "Q"]]
    engine = [score_with_threes(parse_cards(hand), _by(points), not_an_eight) for hand in hands]
    read = phone(*(["checkLeftovers", book, hand] for hand in hands))
    assert [(r["total"], r["covers"]) for r in read] == [(e.total, e.compact) for e in engine]


def test_creights_keeps_the_fewest_threes_cancelling_threes_when_it_saves_no_more():
    """Two threes and a card worth 3: a three cancelling the card saves what a three cancelling the
    other three saves; the engine keeps the first (fewest threes on threes), and so does the phone."""
    book, points = _with_a_card_worth_three("creights")
    hands = [["3", "3", "A"], ["3", "3", "A", "8"], ["3", "3", "3", "3", "A", "A"]]
    engine = [nullify_with_threes(parse_cards(hand), _by(points)) for hand in hands]
    read = phone(*(["checkLeftovers", book, hand] for hand in hands))
    assert [(r["total"], r["covers"]) for r in read] == [(e.total, e.compact) for e in engine]
    assert engine[0].compact == "3→A"


def test_a_player_called_hand_is_a_player_not_the_calculators_one_hand():
    """Only one player goes out in Crazy Eights: with a player named "hand" (a name like any
    other) out beside Bob, the hand is refused naming them both, and five kings in "hand"'s and
    Bob's leftovers are checked as two players' cards, by the engine and the phone alike."""
    game = Game(configure("crazy-eights", {}), ("hand", "Bob", "Cy"), ())
    hands = [{"hand": [], "Bob": [], "Cy": ["K"]}, {"hand": ["K", "K", "K"], "Bob": ["K", "K"], "Cy": []}]
    engine = []
    for hand in hands:
        try:
            game.rules.check_leftovers({player: parse_cards(tokens) for player, tokens in hand.items()})
            engine.append("taken")
        except ScoringError as error:
            engine.append(str(error))
    assert engine == [
        "only one player can go out, but hand and Bob have no cards.",
        "5 × K in the leftovers, but one deck has only 4. Check hand's and Bob's cards.",
    ]
    read = phone(*(["checkHand", rule_book(game), hand] for hand in hands), ["SINGLE_HAND"])
    assert [answer.get("refused", "taken") for answer in read[:-1]] == engine
    assert read[-1] == SINGLE_HAND  # the calculator's one hand, under the same blank name
