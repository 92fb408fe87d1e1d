"""`make bench`: medians and p99, each beside its floor measured in the same run (the loads in rounds, taking turns with their floor).

Machines here are noisy, so figures are ratios to a floor doing the unavoidable part
of the same work, not absolute timings to compare across runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from scorekeeper.scoring import load_record, parse_record, score_game

from . import (
    big_prints,
    club,
    event,
    event_page,
    floods,
    live,
    load,
    pad,
    page_weight,
    pdf_load,
    printing,
    scaled,
    seating,
    slow_clients,
    tls_memory,
)
from .games import full_game_record, played_to_the_end

REPEATS = scaled(300, 5)


def timed(work: Callable[[], object], repeats: int = REPEATS) -> tuple[float, float]:
    """Median and p99 in microseconds."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def report(name: str, figure: tuple[float, float], floor: tuple[float, float], floor_name: str) -> None:
    print(
        f"{name:<38} p50 {figure[0]:9.1f} µs  p99 {figure[1]:9.1f} µs   "
        f"floor ({floor_name}) p50 {floor[0]:8.1f} µs  p99 {floor[1]:8.1f} µs   "
        f"ratio p50 {figure[0] / floor[0]:5.1f}x  p99 {figure[1] / floor[1]:5.1f}x"
    )


def bench_replay() -> None:
    record = full_game_record()
    text = json.dumps(record)
    parsed = parse_record(record)
    report(
        "replay a 15-hand 5-player game",
        timed(lambda: load_record(text).score()),
        timed(lambda: json.loads(text)),
        "json.loads of the record",
    )
    report(
        "score the parsed game only",
        timed(lambda: score_game(parsed.game, parsed.hands)),
        timed(lambda: json.loads(text)),
        "json.loads of the record",
    )


def bench_family() -> None:
    """The other rule sets, each replayed from its record to its end."""
    house = {"name": "Kitchen", "values": {"8": 50}, "scoring": "winner", "end": "target", "deal": 7, "limit": 300}
    for name, record in (
        ("Crazy Eights to 100, 4 players", played_to_the_end("crazy-eights", ["Ann", "Bob", "Cy", "Di"])),
        ("Hollywood Eights session", played_to_the_end("hollywood-eights", ["Ann", "Bob"])),
        ("250 game, 4 players", played_to_the_end("two-fifty", ["Ann", "Bob", "Cy", "Di"])),
        ("house game to 300, 4 players", played_to_the_end("house", ["Ann", "Bob", "Cy", "Di"], house)),
    ):
        text = json.dumps(record)
        hands = len(record["hands"])  # type: ignore[arg-type]
        report(
            f"replay {name} ({hands} hands)",
            timed(lambda text=text: load_record(text).score()),
            timed(lambda text=text: json.loads(text)),
            "json.loads of the record",
        )


#: Every part, in the order a whole run takes them.
PARTS: dict[str, Callable[[], None]] = {
    "replay": bench_replay,
    "family": bench_family,
    "page_weight": page_weight.main,
    "printing": printing.main,
    "load": load.main,
    "event": event.main,
    "event_page": event_page.main,
    "big_prints": big_prints.main,
    "live": live.main,
    "slow_clients": slow_clients.main,
    "tls_memory": tls_memory.main,
    "pdf_load": pdf_load.main,
    "pad": pad.main,
    "seating": seating.main,
    "club": club.main,
    "floods": floods.main,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="every part with a handful of rounds (the figures mean nothing)"
    )
    parser.add_argument(
        "--part", action="append", choices=list(PARTS), help="run this part alone (repeatable); all by default"
    )
    chosen = parser.parse_args(argv).part or list(PARTS)
    print("Scorekeeper benchmarks (ratios to floors from the same run)")
    for name in PARTS:
        if name in chosen:
            PARTS[name]()


if __name__ == "__main__":
    main()
