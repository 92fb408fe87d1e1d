"""Games to measure with: plausible, finished, reproducible."""

from __future__ import annotations

import random

from scorekeeper.gamelog import MAX_ENTRIES, MAX_PRESSURES_IN_A_HAND
from scorekeeper.scoring import FORMAT, Rank


def full_game_record(seed: int = 7) -> dict[str, object]:
    """A finished 5-player game: 15 hands of plausible leftovers and pressures."""
    rng = random.Random(seed)
    players = ["Ann", "Bob", "Cy", "Di", "Ed"]
    ranks = [rank.value for rank in Rank if rank is not Rank.JOKER]
    hands = []
    for _ in range(15):
        deck = [rank for rank in ranks for _ in range(4)]
        rng.shuffle(deck)
        winner = rng.choice(players)
        leftovers = {p: ([] if p == winner else [deck.pop() for _ in range(rng.randint(1, 8))]) for p in players}
        hands.append({"leftovers": leftovers, "pressures": rng.sample(players, rng.randint(0, 2))})
    return {"format": FORMAT, "rules": "crates", "players": players, "hands": hands}


def largest_record() -> dict[str, object]:
    """A record as large as the limits allow: 14 complete hands of five players, every hand and the
    hand in play with the most pressures a hand takes, and ruling notes up to the most changes a
    game holds (about 30,000 characters: well inside the import's 200,000)."""
    record = full_game_record()
    hands: list[dict[str, object]] = record["hands"][:14]  # type: ignore[index]
    players: list[str] = record["players"]  # type: ignore[assignment]
    record["hands"] = hands
    pressures = [players[n % len(players)] for n in range(MAX_PRESSURES_IN_A_HAND)]
    for hand in hands:
        hand["pressures"] = list(pressures)
    record["in_play"] = {"hand": 15, "pressures": list(pressures), "notes": []}
    changes = len(hands) * (len(players) + MAX_PRESSURES_IN_A_HAND) + MAX_PRESSURES_IN_A_HAND
    notes = [f"n{n}" for n in range(MAX_ENTRIES - changes)]
    for index, hand in enumerate(hands):
        hand["notes"] = notes[index::15]
    record["in_play"]["notes"] = notes[14::15]  # type: ignore[index]
    return record


def played_to_the_end(
    rules: str, players: list[str], options: dict[str, object] | None = None, seed: int = 7
) -> dict[str, object]:
    """A game of the Eights family (or a house game), hands added until it is decided."""
    from scorekeeper.scoring import RefereeError, parse_record

    rng = random.Random(seed)
    ranks = [rank.value for rank in Rank if rank is not Rank.JOKER]
    record: dict[str, object] = {
        "format": FORMAT,
        "rules": rules,
        "options": options or {},
        "players": players,
        "hands": [],
    }
    hands: list[dict[str, object]] = record["hands"]  # type: ignore[assignment]
    while not parse_record(record).score().finished:
        deck = [rank + suit for rank in ranks for suit in "shdc"]
        rng.shuffle(deck)
        winner = rng.choice(players)
        leftovers = {p: ([] if p == winner else [deck.pop() for _ in range(rng.randint(1, 4))]) for p in players}
        hands.append({"leftovers": leftovers})
        try:
            parse_record(record)
        except RefereeError:
            hands.pop()
    return record
