"""Issue 5's benchmark: render time of a score sheet and of a 30-table booklet, beside two floors
measured in the same run: a bare WeasyPrint render of the very same markup (no templates, no
data preparation), and of a minimal page."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from scorekeeper.reports import pdf
from scorekeeper.reports.sheets import score_sheet_html
from scorekeeper.scoring import parse_record

from .games import full_game_record

MINIMAL = "<!doctype html><html><body><p>Scorekeeper</p></body></html>"


def _seconds(work: Callable[[], object], repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return samples


def _bare(html: str) -> bytes:
    import weasyprint

    return bytes(weasyprint.HTML(string=html, base_url=str(pdf.PRINT_ASSETS) + "/").write_pdf())


def main() -> None:
    import weasyprint  # noqa: F401 - imported once here so no figure below pays for the import

    records = []
    for seed in range(30):
        data = full_game_record(seed)
        data["options"] = {"pressure_increase_cap": 20}
        records.append(parse_record(data))
    url = "http://127.0.0.1/v/token/"
    markup = score_sheet_html(records[0], title="Table 1", view_url=url)

    def one_sheet() -> bytes:
        return pdf.render_pdf(score_sheet_html(records[0], title="Table 1", view_url=url))

    def booklet_of_30() -> bytes:
        return pdf.render_booklet([score_sheet_html(r, title=f"Table {i + 1}") for i, r in enumerate(records)])

    sheet = statistics.median(_seconds(one_sheet, 7))
    same = statistics.median(_seconds(lambda: _bare(markup), 7))
    minimal = statistics.median(_seconds(lambda: _bare(MINIMAL), 7))
    booklet = statistics.median(_seconds(booklet_of_30, 2))
    print("Printing (WeasyPrint; medians of 7 runs, the booklet of 2)")
    print(f"  one 5-player score sheet               {sheet * 1000:6.0f} ms")
    print(f"  floor: bare render of the same markup  {same * 1000:6.0f} ms   ratio {sheet / same:4.2f}x")
    print(f"  floor: bare render of a minimal page   {minimal * 1000:6.0f} ms   ratio {sheet / minimal:4.1f}x")
    print(
        f"  a 30-table booklet (30 pages)          {booklet:6.2f} s    {booklet / 30 * 1000:.0f} ms a page, "
        f"{booklet / (30 * same):4.2f}x thirty bare renders"
    )
