"""One rule book: the phone's scorer (``static/rules.js``, reading ``scoring/rulebook.py``'s data)
scores as the engine does. Run in Node against the engine on 10,000 random leftovers per rule set
(jokers, two decks, suits, house definitions, hands heavy in threes, cards the game refuses) and on
random games (hands with pressures, to their end and past it): the same totals, covering and
steps, the same running totals, next pressure and leader, each hand's pressures, the bonus and the
standings, Hollywood's games won and in which hand, the same refusals in the same words. 0 differences.

Every rule set of the registry is played, so a new one reaches this test with no line written here.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.scoring import RULE_SETS, Game, Hand, ScoringError, configure, parse_cards, score_game
from scorekeeper.scoring.rulebook import rule_book
from scorekeeper.scoring.rulesets import SINGLE_HAND

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "tests" / "phone" / "differential.mjs"
#: `make mutation` (tools/mutation.py) runs this test once per mutant of rules.js: a tenth of the cases.
SHARE = 10 if os.environ.get("SCOREKEEPER_MUTATION") == "1" else 1
HANDS_PER_RULE_SET = 10_000 // SHARE
GAMES_PER_SETUP = 300 // SHARE
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["s", "h", "d", "c"]

#: Options beyond each rule set's defaults, so that every option that changes scoring is played.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "crates": [{}, {"jokers": True}, {"decks": 2, "jokers": True}, {"pressure_increase_cap": 20}],
    "creights": [{}, {"jokers": True}],
    "crazy-eights": [{}, {"decks": 2}, {"target": 40}],
    "two-fifty": [{}, {"five_hundred": True}],
    "house": [
        {},
        {
            "name": "Kitchen",
            "values": {"8": 50, "A": 15},
            "joker": 25,
            "special": {"QS": 40},
            "scoring": "winner",
            "end": "target",
            "deal": [7],
            "limit": 150,
        },
        {"name": "Loss", "special": {"KH": 0, "2C": 30}, "decks": 2, "end": "loss_line", "deal": [5], "limit": 120},
        {"name": "Ladder", "deal": [5, 4, 3, 2, 3], "pressures": True, "pressure_cap": 10, "joker": 0},
    ],
}
SEATINGS = [
    (("Ann", "Bob", "Cy", "Di"), (("Ann", "Cy"), ("Bob", "Di"))),
    (("Ann", "Bob", "Cy"), ()),
    (("Ann", "Bob"), ()),
    (("Ann", "Figgy", "Bob"), ()),
    (("Ann", "Bob", "Cy", "Di", "Ed"), ()),
]


def setups() -> list[Game]:
    games = []
    for rule_set in RULE_SETS:
        for options in VARIANTS.get(rule_set, [{}]):
            rules = configure(rule_set, options)
            seated = []
            for players, partnerships in SEATINGS:
                try:
                    seated.append(Game(rules, players, partnerships))
                except ScoringError:
                    continue
            assert seated, f"no seating plays {rule_set}"
            games += seated[:2]
    return games


def _deck(game: Game, rng: random.Random) -> list[str]:
    rules = game.rules
    suited = rules.needs_suits or rng.random() < 0.5
    cards = [rank + (suit if suited else "") for rank in RANKS for suit in SUITS]
    cards += ["JK"] * 2 if rules.uses_jokers() or rng.random() < 0.05 else []
    deck = cards * rules.decks_in_play()
    rng.shuffle(deck)
    return deck


def leftovers(game: Game, rng: random.Random) -> list[str]:
    """One player's cards: dealt from a real deck, often heavy in threes, now and then a card too many."""
    deck = _deck(game, rng)
    hand = deck[: rng.choice([0, 1, 2, 3, 4, 5, 6, 8])]
    if rng.random() < 0.3:
        hand += rng.choice([["3"], ["3", "3"], ["3h", "3s", "3"]]) if not game.rules.needs_suits else ["3h", "3s"]
    if rng.random() < 0.05:
        hand += rng.choice([["8", "8", "8", "8", "8"], ["JK"], ["Qs", "Qs", "Qs"], ["K"]])
    rng.shuffle(hand)
    return hand


def random_game(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """Hands dealt from one deck a hand, pressures on anyone; long enough to end most games."""
    hands = []
    for _ in range(rng.randint(1, 18)):
        deck = _deck(game, rng)
        dealt: dict[str, list[str]] = {}
        for player in game.players:
            count = rng.choice([0, 1, 2, 3, 4, 6]) if rng.random() < 0.9 else 9
            dealt[player], deck = deck[:count], deck[count:]
        pressures = [rng.choice(game.players) for _ in range(rng.choice([0, 0, 1, 2, 5]))]
        hands.append(
            {"leftovers": dealt, "pressures": pressures if game.rules.has_pressures or rng.random() < 0.02 else []}
        )
    return hands


def strangers_and_gaps(game: Game) -> list[list[dict[str, Any]]]:
    """A hand naming someone who is not a player, one missing a player's leftovers, one with a
    pressure to someone who is not a player (refused in the engine's words, pressures or not), and
    one where a single player holds more of a card than the decks have (that player is named)."""
    kings = {player: ["K"] for player in game.players[:4]}
    stranger = {"leftovers": {**{player: [] for player in game.players}, **kings, "Zed": ["A"]}, "pressures": []}
    gap = {"leftovers": {player: ["A"] for player in game.players[:-1]}, "pressures": []}
    pressed = {"leftovers": {**{player: [] for player in game.players}, **kings}, "pressures": ["Zed"]}
    decks = game.rules.decks_in_play()
    hoard = ["8h"] * (decks + 1) if game.rules.needs_suits else ["8"] * (4 * decks + 1)
    hoarder = {"leftovers": {**{player: [] for player in game.players}, game.players[1]: hoard}, "pressures": []}
    return [[stranger], [gap], [pressed], [hoarder]]


def level_sides(game: Game) -> list[list[dict[str, Any]]]:
    """Hands where everyone but the first player leaves a king: the others' sides stay level, and
    the standings must place them as the engine does (same place, same order)."""
    hand = {
        "leftovers": {player: [] if index == 0 else ["K"] for index, player in enumerate(game.players)},
        "pressures": [],
    }
    return [[hand] * count for count in (1, 3)]


def on_the_line(game: Game) -> list[list[dict[str, Any]]]:
    """Where a game ends at a loss line: everyone but the first player leaves one card a hand, the
    same card, until their totals stand exactly on the line and one hand past it (a total on the
    line is out, as the engine says; random games almost never land on it)."""
    line = game.rules.end_terms(game).get("loss_line")
    if line is None:
        return []
    for token in _deck(game, random.Random(0)):
        scored = engine_leftovers(game, [token])
        points = scored.get("total")
        if isinstance(points, int) and 0 < points and line % points == 0:
            hand = {
                "leftovers": {player: [] if index == 0 else [token] for index, player in enumerate(game.players)},
                "pressures": [],
            }
            return [[hand] * (line // points + 1)]
    return []


def on_the_target(game: Game) -> list[list[dict[str, Any]]]:
    """Where games are scored in columns to a target: the first player goes out every hand and
    collects the same points, until the first column stands exactly on the target (reached: the
    column is won in that hand, as the engine says) and one hand past it."""
    terms = game.rules.end_terms(game)
    if "columns" not in terms:
        return []
    target = terms["target"]
    for token in _deck(game, random.Random(0)):
        hand = {
            "leftovers": {player: [] if index == 0 else [token] for index, player in enumerate(game.players)},
            "pressures": [],
        }
        scored = engine_game(game, [hand], False)
        points = int(scored["columns"][0][2][game.players[0]]) if "columns" in scored else 0
        if 0 < points < target and target % points == 0:
            return [[hand] * (target // points + 1)]
    return []


def on_the_outright_line(game: Game) -> list[list[dict[str, Any]]]:
    """Where reaching a line wins outright (the 500 rule): the first player goes out every hand, the
    second leaves the same card until exactly on the line, the third a card small enough to stay
    below the loss line until then (a total on the line wins, as the engine says)."""
    line = game.rules.end_terms(game).get("outright")
    if line is None or len(game.players) < 3:
        return []
    cards = sorted(set(_deck(game, random.Random(0))))
    points = {token: engine_leftovers(game, [token]).get("total") for token in cards}
    low = min((token for token in cards if isinstance(points[token], int)), key=lambda token: points[token])
    for token in cards:
        each = points[token]
        if isinstance(each, int) and 0 < each and line % each == 0 and points[low] * (line // each) < line // 2:
            hand = {
                "leftovers": {
                    player: [] if index == 0 else [token] if index == 1 else [low]
                    for index, player in enumerate(game.players)
                },
                "pressures": [],
            }
            return [[hand] * (line // each + 1)]
    return []


def engine_leftovers(game: Game, tokens: list[str]) -> dict[str, Any]:
    try:
        scored = game.rules.check_and_score({SINGLE_HAND: parse_cards(tokens)})[SINGLE_HAND]
    except ScoringError as error:
        return {"refused": str(error)}
    return {"total": scored.total, "covers": scored.compact, "steps": scored.steps_compact}


def engine_game(game: Game, hands: list[dict[str, Any]], until_decided: bool) -> dict[str, Any]:
    try:
        played = [
            Hand({p: parse_cards(cards) for p, cards in hand["leftovers"].items()}, tuple(hand["pressures"]))
            for hand in hands
        ]
        score = score_game(game, played, until_decided)
    except ScoringError as error:
        return {"refused": str(error)}
    return {
        "hands": len(score.hands),
        "finished": score.finished,
        "totals": {side.side.name: str(side.total) for side in score.sides},
        "next": {side.side.name: str(side.next_pressure) for side in score.sides},
        "leader": list(score.leader),
        "pressures": {side.side.name: [str(points) for points in side.pressures] for side in score.sides},
        "bonus": {side.side.name: str(side.bonus) for side in score.sides},
        "standings": [[place, side.side.name] for place, side in score.standings()],
        "columns": [
            [column.winner, column.won_in_hand, {name: str(total) for name, total in column.totals.items()}]
            for column in score.columns
        ],
    }


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Node.js is missing: the phone's scorer cannot be checked (make system-deps installs it)")
        pytest.skip("Node.js is not installed")
    return found


def played_by_the_engine(games: list[Game]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each setup's cases (its rule book, leftovers and games) and what the engine makes of them."""
    rng = random.Random(20261125)
    cases, expected = [], []
    for game in games:
        count = HANDS_PER_RULE_SET // sum(1 for other in games if other.rules.id == game.rules.id)
        hands = [leftovers(game, rng) for _ in range(count)]
        played = [(random_game(game, rng), rng.random() < 0.5) for _ in range(GAMES_PER_SETUP)]
        played += [(hands, False) for hands in strangers_and_gaps(game) + level_sides(game)]
        played += [(hands, True) for hands in on_the_line(game) + on_the_target(game) + on_the_outright_line(game)]
        cases.append(
            {
                "book": rule_book(game),
                "leftovers": hands,
                "games": [{"hands": h, "untilDecided": until} for h, until in played],
            }
        )
        expected.append(
            {
                "leftovers": [engine_leftovers(game, tokens) for tokens in hands],
                "games": [engine_game(game, h, until) for h, until in played],
            }
        )
    return cases, expected


def remembered(games: list[Game]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``played_by_the_engine``; under the mutation tool, which runs this test once per mutant of
    ``rules.js`` and never changes the engine, kept in its folder (``SCOREKEEPER_MUTATION_CACHE``)
    under a hash of the engine's code and this test's, and read back: the engine plays once a run."""
    folder = os.environ.get("SCOREKEEPER_MUTATION_CACHE")
    if not folder:
        return played_by_the_engine(games)
    digest = hashlib.sha256()
    for path in sorted((ROOT / "scorekeeper" / "scoring").rglob("*.py")) + [Path(__file__)]:
        digest.update(path.read_bytes())
    kept = Path(folder) / f"phone-engine-{digest.hexdigest()[:16]}.json"
    if kept.exists():
        cases, expected = json.loads(kept.read_text(encoding="utf-8"))
        return cases, expected
    cases, expected = played_by_the_engine(games)
    kept.write_text(json.dumps([cases, expected]), encoding="utf-8")
    return cases, expected


def test_the_phone_scores_every_rule_set_as_the_engine_does():
    games = setups()
    cases, expected = remembered(games)
    answer = subprocess.run(
        [node(), str(SCRIPT)], input=json.dumps(cases), capture_output=True, text=True, timeout=600, check=False
    )
    assert answer.returncode == 0, answer.stderr[-3000:]
    phone = json.loads(answer.stdout)
    differences = []
    for game, case, mine, theirs in zip(games, cases, expected, phone, strict=True):
        for kind in ("leftovers", "games"):
            for index, (engine, browser) in enumerate(zip(mine[kind], theirs[kind], strict=True)):
                if engine != browser:
                    differences.append((game.rules.id, kind, case[kind][index], engine, browser))
    scored = sum(1 for case in expected for result in case["leftovers"] if "total" in result)
    finished = sum(1 for case in expected for result in case["games"] if result.get("finished"))
    assert scored > len(RULE_SETS) * HANDS_PER_RULE_SET // 2, "too few hands were valid to prove anything"
    assert finished > len(games) * GAMES_PER_SETUP // 30, "too few games reached their end to prove anything"
    assert not differences, f"{len(differences)} differences, the first: {differences[:3]}"
