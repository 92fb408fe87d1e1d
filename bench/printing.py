"""Issue 5's and 14's benchmark: a score sheet and a 30-table booklet, each beside its floor measured
in the same run.

- one sheet: ``pdf.render_pdf`` of ``score_sheet_html`` (stylesheet parsed and fonts configured once
  a process) beside a bare WeasyPrint render of the very same markup (the floor), and beside a bare
  render of the same game's sheet as it was printed when issue 14 was filed (``before_14/``; aim:
  <= 0.85x). The two are timed in turns, round after round, and the ratio is the median of each
  round's ratio, which a slow spell of the machine moves far less than a ratio of medians;
- a booklet's first render: the booklet job (its sheets side by side in one process a core,
  then joined) beside the one-process render of the same markup as it was made before (aim:
  <= 0.6x on 2 cores);
- the same booklet again, every table locked: its sheets are kept, so only the cover is
  rendered and the parts joined (aim: <= 3 s).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from types import SimpleNamespace

from scorekeeper.reports import pdf
from scorekeeper.reports.sheets import booklet_cover_html, score_sheet_html
from scorekeeper.scoring import parse_record
from scorekeeper.web import booklets

from . import scaled
from .games import full_game_record

ROUNDS = scaled(21, 1)
MINIMAL = "<!doctype html><html><body><p>Scorekeeper</p></body></html>"
BEFORE_14 = Path(__file__).parent / "before_14"


def _seconds(work: Callable[[], object], repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return samples


def _bare(html: str, assets: Path = pdf.PRINT_ASSETS) -> bytes:
    import weasyprint

    return bytes(weasyprint.HTML(string=html, base_url=str(assets) + "/").write_pdf())


def _in_turns(work: Callable[[], object], floor: Callable[[], object], rounds: int) -> tuple[list[float], list[float]]:
    """Both timed in every round, in alternating order, so that each round's ratio compares like with like."""
    samples: list[float] = []
    floors: list[float] = []
    for turn in range(rounds):
        if turn % 2:
            floors += _seconds(floor, 1)
            samples += _seconds(work, 1)
        else:
            samples += _seconds(work, 1)
            floors += _seconds(floor, 1)
    return samples, floors


def _bare_booklet(htmls: list[str]) -> bytes:
    """The booklet as it was rendered before: one process, every document in turn, pages copied into one."""
    import weasyprint

    documents = [weasyprint.HTML(string=html, base_url=str(pdf.PRINT_ASSETS) + "/").render() for html in htmls]
    return bytes(documents[0].copy([page for document in documents for page in document.pages]).write_pdf())


def _line(name: str, samples: list[float], floor: list[float], floor_name: str, aim: str, paired: bool = False) -> None:
    median, worst = statistics.median(samples), max(samples)
    floor_median, floor_worst = statistics.median(floor), max(floor)
    if paired:
        ratios = sorted(mine / theirs for mine, theirs in zip(samples, floor, strict=True))
        ratio = f"ratio (median of rounds) {statistics.median(ratios):4.2f}x  worst round {ratios[-1]:4.2f}x"
    else:
        ratio = f"ratio p50 {median / floor_median:4.2f}x  max {worst / floor_worst:4.2f}x"
    print(
        f"  {name:<34} p50 {median * 1000:7.0f} ms  max {worst * 1000:7.0f} ms   floor ({floor_name}) "
        f"p50 {floor_median * 1000:7.0f} ms  max {floor_worst * 1000:7.0f} ms   {ratio}   aim {aim}"
    )


def main() -> None:
    import weasyprint  # noqa: F401 - imported once here so no figure below pays for the import

    records = []
    for seed in range(scaled(30, 2)):
        data = full_game_record(seed)
        data["options"] = {"pressure_increase_cap": 20}
        records.append(parse_record(data))
    url = "http://127.0.0.1/v/token/"
    markup = score_sheet_html(records[0], title="Table 1", view_url=url)
    pdf.warm_up()
    _bare(markup)

    before = (BEFORE_14 / "score_sheet.html").read_text()
    _bare(before, BEFORE_14)

    def sheet() -> bytes:
        return pdf.render_pdf(score_sheet_html(records[0], title="Table 1", view_url=url))

    print(
        f"Printing (WeasyPrint; the sheet {ROUNDS} rounds, each booklet {scaled(3, 1)}; p50 and the slowest run, beside floors)"
    )
    mine, same = _in_turns(sheet, partial(_bare, markup), ROUNDS)
    _line("one 5-player score sheet", mine, same, "bare render of the same markup", "-", paired=True)
    mine, then = _in_turns(sheet, partial(_bare, before, BEFORE_14), ROUNDS)
    _line("one 5-player score sheet", mine, then, "the sheet when #14 was filed", "<= 0.85x", paired=True)
    minimal = statistics.median(_seconds(lambda: _bare(MINIMAL), 5))
    print(f"  (a bare render of a minimal page: {minimal * 1000:.0f} ms)")

    htmls = [score_sheet_html(r, title=f"Table {i + 1}", view_url=url) for i, r in enumerate(records)]
    event = SimpleNamespace(name="Bench Open", held_on="2026-11-22")
    cover = booklet_cover_html(event, [], "lowest total", 30, 1)
    cores = os.cpu_count() or 1
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(cores, mp_context=context, initializer=pdf.warm_up) as pool:
        list(pool.map(_noop, range(cores)))
        first, cached, today = [], [], []
        for _ in range(scaled(3, 1)):
            folder = tempfile.mkdtemp(prefix="bench-booklet-")
            try:
                parts = [booklets.Part(cover), *(booklets.Part(html, f"T{i:02d}") for i, html in enumerate(htmls))]
                first += _seconds(partial(_job, pool, folder, parts), 1)
                cached += _seconds(partial(_job, pool, folder, parts), 1)
            finally:
                shutil.rmtree(folder)
            today += _seconds(lambda: _bare_booklet([cover, *htmls]), 1)
    _line(f"{len(htmls)}-table booklet, first ({cores} cores)", first, today, "one-process render as before", "<= 0.6x")
    _line(f"{len(htmls)}-table booklet, tables locked", cached, today, "one-process render as before", "<= 3 s")


def _noop(_: int) -> None:
    return None


def _job(pool: ProcessPoolExecutor, folder: str, parts: list[booklets.Part]) -> None:
    about = {"name": "Bench Open", "event": 0, "started": time.time()}
    booklets._run(pool.submit, folder, "bench", parts, about, [])
    status = json.loads(Path(folder, "bench.json").read_text())
    if status["state"] != "done":
        raise SystemExit(f"the bench's booklet failed: {status}")
    assert os.path.exists(os.path.join(folder, "bench.pdf"))
