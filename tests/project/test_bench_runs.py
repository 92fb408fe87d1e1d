"""`make bench` cannot rot: its quick run (every part, a handful of rounds) runs in the suite, so
a part whose calls drifted from the app's fails here. No figure is asserted: they mean nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent.parent
SECTIONS = [
    "replay a 15-hand 5-player game",
    "Page weight: first visit of a game's hand page",
    "Printing (WeasyPrint",
    "-table booklet, first",
    "Live load:",
    "a change showing on another phone",
    "-player event:",
    "standings computed in-process",
    "The director's event page,",
    "event page, a repeat look",
    "event page, a look after one table saved",
    "Printing a ",
    "standings PDF (",
    "table cards PDF (",
    "booklet (cover and",
    "Live updates:",
    "a change heard by every phone following it",
    "Phones while printing:",
    "ratio: p99 while printing / p99 idle",
    "every rating recomputed from",
    "a player's page (the most tables)",
    "-table evening published:",
    "a phone's save, server while zipping",
    "Floods:",
    "ratio: p99 while flooded / p99 idle",
]


def test_the_quick_bench_runs_every_part_to_its_end():
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    for section in SECTIONS:
        assert section in result.stdout, section
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
