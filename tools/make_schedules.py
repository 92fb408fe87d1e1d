"""Write the constructed schedules in ``scorekeeper/tournament/designs/`` (run once; the
files are committed, and ``tests/tournament/test_event_plan.py`` checks each, so none is trusted):

- ``affine-16.json``: the affine plane of order 4 (points GF(4)^2, its 5 parallel classes of
  lines are the rounds): 16 players, 5 rounds, no two players at a table twice.
- ``cyclic-20.json``, ``cyclic-24.json``: 20 players for 5 rounds and 24 for 7, no two at a
  table twice: players (x, c) for x in Z_m and c in 0..k-1 (numbered k x + c), plus fixed
  players numbered from m k; an initial round developed by adding 1 to x modulo m. Each
  initial round is the first that ``tools/find_cyclic_start.py`` finds; the test checks the result.
- ``whist-8.json``, ``whist-12.json``, ``whist-16.json``: Z-cyclic whist designs. An initial
  round over Z_(n-1) and a fixed player (the last), developed by adding 1 modulo n-1 each
  round: every pair partners once and opposes twice in n-1 rounds when the initial round's
  partner differences cover each non-zero residue once and its opponent differences twice.

    .venv/bin/python tools/make_schedules.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "scorekeeper" / "tournament" / "designs"

# GF(4) = {0, 1, w, w+1} as 0..3, addition is XOR; multiplication by table.
MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]

#: Initial rounds (seats in order, partners opposite; "inf" is the fixed player), each checked
#: by the condition above when this script runs, and by the test on the developed schedule.
WHIST_STARTS = {
    8: [["inf", 2, 0, 3], [1, 6, 5, 4]],
    12: [["inf", 2, 9, 10], [6, 0, 1, 4], [8, 3, 7, 5]],
    16: [["inf", 6, 1, 11], [5, 13, 4, 2], [0, 14, 8, 12], [10, 9, 7, 3]],
}


#: Initial rounds of the cyclic schedules: players: (modulus m, classes k, initial round).
CYCLIC = {
    20: (5, 4, [[0, 12, 2, 6], [16, 13, 14, 7], [1, 18, 10, 5], [17, 19, 15, 9], [4, 8, 3, 11]]),
    24: (7, 3, [[15, 17, 14, 2], [6, 3, 12, 7], [5, 0, 21, 13], [23, 18, 11, 16], [10, 1, 8, 4], [19, 9, 20, 22]]),
}


def cyclic(players: int) -> list[list[list[int]]]:
    modulus, classes, start = CYCLIC[players]

    def shifted(player: int, shift: int) -> int:
        if player >= modulus * classes:
            return player
        return classes * ((player // classes + shift) % modulus) + player % classes

    return [[[shifted(p, shift) for p in table] for table in start] for shift in range(modulus)]


def affine_plane() -> list[list[list[int]]]:
    def point(x: int, y: int) -> int:
        return 4 * x + y

    rounds = [[[point(c, y) for y in range(4)] for c in range(4)]]  # the lines x = c
    for slope in range(4):
        rounds.append([[point(x, MUL[slope][x] ^ b) for x in range(4)] for b in range(4)])
    return rounds


def whist(n: int) -> list[list[list[int]]]:
    m = n - 1
    start = WHIST_STARTS[n]
    return [
        [[m if seat == "inf" else (int(seat) + shift) % m for seat in table] for table in start]
        for shift in range(m)
    ]


def write(name: str, data: dict[str, object]) -> None:
    (HERE / name).write_text(json.dumps(data, indent=None, separators=(", ", ": ")) + "\n")


def main() -> None:
    write(
        "affine-16.json",
        {
            "name": "the affine plane of order 4",
            "kind": "tables",
            "players": 16,
            "source": "The affine plane AG(2,4): its points are the 16 players and each of its 5 parallel "
            "classes of lines a round (a resolvable 2-(16,4,1) design). Written by tools/make_schedules.py.",
            "rounds": affine_plane(),
        },
    )
    for players, (modulus, classes, start) in CYCLIC.items():
        write(
            f"cyclic-{players}.json",
            {
                "name": f"a Z{modulus}-cyclic schedule for {players} players",
                "kind": "tables",
                "players": players,
                "source": f"{players} players in tables of four for {modulus} rounds, no two at a table twice "
                f"(the social golfer problem {players // 4}-4-{modulus}; see W. Harvey's table of solutions, "
                f"CSPLib problem 10). Players (x, c), x in Z_{modulus}, c in 0..{classes - 1}, numbered "
                f"{classes}x + c, and {modulus * classes}..{players - 1} fixed: the initial round {start} "
                f"developed modulo {modulus}. Written by tools/make_schedules.py.",
                "rounds": cyclic(players),
            },
        )
    for n, start in WHIST_STARTS.items():
        write(
            f"whist-{n}.json",
            {
                "name": f"a Z-cyclic whist design for {n} players",
                "kind": "whist",
                "players": n,
                "source": f"A whist tournament Wh({n}) (every pair partners once and opposes twice; "
                f"I. Anderson, Combinatorial Designs and Tournaments, 1997): the initial round {start} "
                f"over Z_{n - 1} and a fixed player ({n - 1} here, 'inf' there), developed modulo {n - 1}. "
                "Written by tools/make_schedules.py.",
                "rounds": whist(n),
            },
        )


if __name__ == "__main__":
    main()
