"""`make bench` cannot rot: its quick run (every part, a handful of rounds) runs in the suite, so
a part whose calls drifted from the app's fails here. No figure is asserted: they mean nothing.

The parts run in a few groups, each `python -m bench --quick --part …` of its own, so that the
suite's workers share them (one run of all takes over a minute on one core)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import PARTS

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent.parent

#: Each group's parts, and what its output must say (a line of each part at least).
GROUPS: dict[str, tuple[list[str], list[str]]] = {
    "replays and printing": (
        ["replay", "family", "printing", "seating"],
        [
            "replay a 15-hand 5-player game",
            "replay Crazy Eights to 100",
            "Printing (WeasyPrint",
            "-table booklet, first",
            "Seating: repeated table-mates",
            "Rotating partners:",
        ],
    ),
    "the club": (
        ["club", "live"],
        [
            "every rating recomputed from",
            "a player's page (the most tables)",
            "-table evening published:",
            "a phone's save, server while zipping",
            "Live updates:",
            "a change heard by every phone following it",
        ],
    ),
    "an event's saves and pages": (
        ["load", "event", "event_page"],
        [
            "Live load:",
            "a change showing on another phone",
            "-player event:",
            "standings computed in-process",
            "The director's event page,",
            "event page, a repeat look",
            "event page, a look after one table saved",
        ],
    ),
    "PDFs and page weight": (
        ["page_weight", "big_prints", "pdf_load"],
        [
            "Page weight: first visit of a game's hand page",
            "Printing a ",
            "standings PDF (",
            "table cards PDF (",
            "booklet (cover and",
            "Phones while printing:",
            "ratio: p99 while printing / p99 idle",
        ],
    ),
    "connections and floods": (
        ["slow_clients", "tls_memory", "floods", "pad"],
        [
            "Slow and idle connections:",
            "the live stream heard",
            "The front's memory for idle TLS connections",
            "Floods:",
            "ratio: p99 while flooded / p99 idle",
            "pad: tap to score, network off",
        ],
    ),
}


def test_the_groups_hold_every_part_of_the_bench_once():
    named = [part for parts, _ in GROUPS.values() for part in parts]
    assert sorted(named) == sorted(PARTS)


@pytest.mark.parametrize("group", list(GROUPS))
def test_the_quick_bench_runs_every_part_to_its_end(group):
    parts, sections = GROUPS[group]
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", *(f"--part={part}" for part in parts)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    for section in sections:
        assert section in result.stdout, section
    assert "Traceback" not in result.stderr, result.stderr[-3000:]


def test_a_part_the_bench_does_not_have_is_refused_in_one_line():
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--part", "nothing"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2 and "invalid choice: 'nothing'" in result.stderr
