"""Search for the initial round of a cyclic schedule (tables of four, no two players at a
table twice): how ``CYCLIC`` in ``tools/make_schedules.py`` was found.

Players are (x, c) for x in Z_m and c in 0..k-1, numbered k x + c, plus ``fixed`` players
numbered from m k. Developing the initial round (x -> x + 1 each round, m rounds) repeats
no pair exactly when, over its tables, every difference between two players of classes
c <= c' (x' - x modulo m; unordered within a class) occurs at most once, no table holds two
fixed players, and each fixed player's table holds one player of each class. An annealing
over swaps of players between tables drives the count of clashes to 0.

    python3 tools/find_cyclic_start.py --modulus 7 --classes 3 --fixed 3    # 24 players
    python3 tools/find_cyclic_start.py --modulus 5 --classes 4 --fixed 0    # 20 players
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections import Counter


def clashes(tables: list[list[int]], modulus: int, classes: int) -> int:
    points = modulus * classes
    seen: Counter[tuple[int, int, int]] = Counter()
    bad = 0
    for table in tables:
        fixed = [p for p in table if p >= points]
        bad += max(0, len(fixed) - 1) * 10
        if fixed:
            bad += classes - len({p % classes for p in table if p < points})
        for a, b in itertools.combinations([p for p in table if p < points], 2):
            (xa, ca), (xb, cb) = divmod(a, classes), divmod(b, classes)
            if ca == cb:
                d = (xa - xb) % modulus
                bad += 10 if d == 0 else 0
                seen[(ca, ca, min(d, modulus - d))] += 1
            else:
                if ca > cb:
                    xa, xb, ca, cb = xb, xa, cb, ca
                seen[(ca, cb, (xb - xa) % modulus)] += 1
    return bad + sum(count - 1 for count in seen.values() if count > 1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--modulus", type=int, required=True)
    parser.add_argument("--classes", type=int, required=True)
    parser.add_argument("--fixed", type=int, default=0)
    parser.add_argument("--tries", type=int, default=200)
    args = parser.parse_args()
    m, k, fixed = args.modulus, args.classes, args.fixed
    players = m * k + fixed
    if players % 4:
        print("the players must fill tables of four", file=sys.stderr)
        return 2
    for seed in range(args.tries):
        rng = random.Random(seed)
        order = list(range(players))
        rng.shuffle(order)
        tables = [order[i : i + 4] for i in range(0, players, 4)]
        cost, temperature = clashes(tables, m, k), 1.0
        for _ in range(200_000):
            i, j = rng.sample(range(len(tables)), 2)
            a, b = rng.randrange(4), rng.randrange(4)
            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            new = clashes(tables, m, k)
            if new <= cost or rng.random() < math.exp((cost - new) / temperature):
                cost = new
            else:
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            temperature = max(0.05, temperature * 0.9995)
            if cost == 0:
                print(json.dumps({"seed": seed, "initial_round": tables}))
                return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
