"""Worst-case score sheets, one per game: the longest names, the most sides, rulings, pressures.

Shared by the one-page tests (tests/reports/test_sheet_fits.py) and by ``python -m tests.sheet_cases``,
which writes every case as PDF and PNG for a person to look at.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scorekeeper.scoring import FORMAT, GameRecord, Rank, RefereeError, parse_record

#: Thirty characters each: the longest name a table can give.
LONG_NAMES = (
    "Bartholomew Okonkwo-Smith Jr.X",
    "Maximiliana Featherstonehaughs",
    "Wolfgang Amadeus Oppenheimerss",
    "Anastasia Villanueva-Rodrigues",
    "Christopher Montgomery-Bakerss",
)
#: Thirty characters and no place to break: each must break inside its own box (the widest second,
#: where its signature is at the page's edge).
SINGLE_WORDS = (
    "Pneumonoultramicroscopicsilico",
    "W" * 30,
    "Supercalifragilisticexpialidoc",
    "Hippopotomonstrosesquippedalio",
    "Antidisestablishmentarianismss",
)
RULINGS = (
    "Dealer misdeal: the deal passed to the next player, as 000 says.",
    "A 7 played out of turn stands; the next player plays on from it.",
    "The count was misread as 6; corrected to 8 before the next hand began.",
)
HOUSE_DEFINITION = {
    "name": "Kitchen Table Eights with Q♠",
    "values": {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 50,
        "9": 9,
        "10": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
    },
    "joker": 25,
    "special": {"QS": 50},
    "decks": 2,
    "scoring": "own",
    "end": "hands",
    "deal": [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8],
    "pressures": True,
    "pressure_cap": 20,
}


def _ranks() -> list[str]:
    return [rank.value for rank in Rank if rank is not Rank.JOKER]


def _crates_like(
    rules: str,
    players: list[str],
    options: dict[str, object],
    partnerships: bool = False,
    suits: bool = False,
    jokers: bool = False,
    seed: int = 3,
) -> dict[str, object]:
    """A finished game on a schedule: every hand leaves plenty of cards, and the pressures pile
    up in one hand so that a cell reads 5+10+20+40."""
    rng = random.Random(seed)
    record: dict[str, object] = {
        "format": FORMAT,
        "rules": rules,
        "options": options,
        "players": players,
        "hands": [],
    }
    if partnerships:
        record["partnerships"] = [[players[0], players[2]], [players[1], players[3]]]
    rules_obj = parse_record(record).game.rules
    hands: list[dict[str, object]] = record["hands"]  # type: ignore[assignment]
    dummy = rules_obj.joins_by_itself()
    for number in range(1, (rules_obj.max_hands() or 0) + 1):
        while True:
            decks = int(options.get("decks", 1) or 1)
            deck = [r + (rng.choice("shdc") if suits else "") for r in _ranks() for _ in range(4 * decks)]
            if suits:
                deck = [r + s for r in _ranks() for s in "shdc" for _ in range(decks)]
            if jokers:
                deck += ["JK"] * (2 * decks)
            rng.shuffle(deck)
            out = rng.choice(players)
            dealt = rules_obj.cards_dealt(number, len(players))
            leftovers = {p: ([] if p == out else [deck.pop() for _ in range(rng.randint(1, dealt))]) for p in players}
            hand: dict[str, object] = {"leftovers": leftovers}
            takers = [p for p in players if p != dummy]
            if number == 2:
                hand["pressures"] = [takers[0]] * 4
            elif rules_obj.has_pressures:
                hand["pressures"] = rng.sample(takers, rng.randint(0, 2))
            if number in (1, 5, 9):
                hand["notes"] = [RULINGS[(number - 1) // 4]]
            hands.append(hand)
            try:
                parse_record(record)
                break
            except RefereeError:
                hands.pop()
    return record


def _to_the_end(
    rules: str, players: list[str], options: dict[str, object], seed: int = 5, most_hands: int = 40
) -> dict[str, object]:
    """A game played to a score, hands added until it is decided (small hands: a long game)."""
    rng = random.Random(seed)
    record: dict[str, object] = {"format": FORMAT, "rules": rules, "options": options, "players": players, "hands": []}
    hands: list[dict[str, object]] = record["hands"]  # type: ignore[assignment]
    while not parse_record(record).score().finished and len(hands) < most_hands:
        deck = [r + s for r in _ranks() for s in "shdc" for _ in range(2)]
        rng.shuffle(deck)
        out = rng.choice(players)
        leftovers = {p: ([] if p == out else [deck.pop() for _ in range(rng.randint(1, 3))]) for p in players}
        hand: dict[str, object] = {"leftovers": leftovers}
        if len(hands) in (0, 4, 8):
            hand["notes"] = [RULINGS[len(hands) // 4]]
        hands.append(hand)
        try:
            parse_record(record)
        except RefereeError:
            hands.pop()
    return record


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], dict[str, object]]

    def record(self) -> GameRecord:
        return parse_record(self.build())

    def notes(self) -> dict[int, list[str]]:
        raw = self.build()["hands"]
        assert isinstance(raw, list)
        return {number: list(hand["notes"]) for number, hand in enumerate(raw, start=1) if hand.get("notes")}


FIVE = list(LONG_NAMES)
CASES = (
    Case("crates-5", lambda: _crates_like("crates", FIVE, {"pressure_increase_cap": 20, "jokers": True}, jokers=True)),
    Case("crates-partners", lambda: _crates_like("crates", FIVE[:4], {"decks": 2}, partnerships=True)),
    Case("single-words-5", lambda: _crates_like("crates", list(SINGLE_WORDS), {"pressure_increase_cap": 20})),
    Case("creights-5", lambda: _crates_like("creights", FIVE, {})),
    Case("world-series", lambda: _crates_like("crates-world-series", [FIVE[0], "Figgy", FIVE[1]], {})),
    Case("house-5", lambda: _crates_like("house", FIVE, dict(HOUSE_DEFINITION), suits=True, jokers=True)),
    Case("two-fifty-5", lambda: _to_the_end("two-fifty", FIVE, {"five_hundred": True})),
    Case("hollywood-2", lambda: _to_the_end("hollywood-eights", FIVE[:2], {}, most_hands=60)),
    Case("crazy-eights-5", lambda: _to_the_end("crazy-eights", FIVE, {"decks": 2})),
    #: The longest game the sheet promises to keep on one page: 30 hands, five long names.
    Case("thirty-hands-5", lambda: _to_the_end("crazy-eights-target", FIVE, {"target": 5000}, most_hands=30)),
)
VIEW_URL = "http://192.168.1.20:5000/v/Abc123Def456Ghi789/"


def sheet(case: Case, paper: str) -> str:
    from scorekeeper.reports.sheets import score_sheet_html

    return score_sheet_html(
        case.record(),
        title="Spring Open 2025 · round 3 · table 12",
        played_on="2025-04-12",
        paper=paper,
        view_url=VIEW_URL,
        notes=case.notes(),
    )


def main(out: Path) -> None:
    """Write every case on both papers as PDF and page-1 PNG; print the page counts."""
    from scorekeeper.reports.pdf import render_pdf

    out.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        for paper in ("a4", "letter"):
            path = out / f"{case.name}-{paper}.pdf"
            path.write_bytes(render_pdf(sheet(case, paper)))
            info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
            pages = next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages"))
            subprocess.run(["pdftoppm", "-png", "-r", "70", str(path), str(out / f"{case.name}-{paper}")], check=True)
            print(f"{case.name:16} {paper:6} pages={pages}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/sheets"))
