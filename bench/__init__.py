"""Benchmarks for `make bench`: every figure beside a floor measured in the same run, as a ratio.

`python -m bench --quick` (`make bench-quick`, and a test in the suite, so CI) runs every part
end to end with a handful of rounds, in well under a minute: a part whose code drifted from the
app's fails there, not in the hands of the next person who measures. Its figures mean nothing.
"""

from __future__ import annotations

import os
import sys

QUICK = "--quick" in sys.argv[1:] or os.environ.get("SCOREKEEPER_BENCH_QUICK") == "1"


def scaled(full: int, quick: int) -> int:
    """A count: the full one, or the handful the quick run makes do with."""
    return quick if QUICK else full
