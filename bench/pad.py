"""Tap to score on the leftovers pad, in Chromium at a phone's size, with the network off.

The pad scores what is tapped on the phone, from the game's rule book (``static/rules.js``):
a tap's handler, from the click to the live score written, is timed in the page. Beside it,
what the same score cost before, and costs a phone without the game's copy: a round trip to
the server's engine (``/preview``), timed in the same page while online."""

from __future__ import annotations

import tempfile
from pathlib import Path

from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate

from . import scaled
from .servers import app_server, percentile

CHROMIUM = "/usr/lib/chromium/chromium"
TAPS = scaled(1000, 40)

TAP = """async (taps) => {
  const buttons = Array.from(document.querySelectorAll(".pad button[data-card]"));
  const live = document.querySelector("[data-live]"), samples = [];
  for (let i = 0; i < taps; i += 1) {
    const chips = document.querySelectorAll("[data-chips] .chip");
    if (chips.length >= 6) { chips.forEach((chip) => chip.click()); }
    const before = live.textContent;
    const start = performance.now();
    buttons[i % buttons.length].click();
    const took = performance.now() - start;
    if (live.textContent === before || !live.textContent.startsWith("=")) { throw new Error("no score after a tap: " + live.textContent); }
    samples.push(took);
    if (i % 20 === 0) { await new Promise((done) => requestAnimationFrame(done)); }
  }
  return samples;
}"""

ROUND_TRIP = """async ([url, taps]) => {
  const samples = [];
  for (let i = 0; i < taps; i += 1) {
    const start = performance.now();
    const answer = await (await fetch(url + "?cards=K+5+3+" + (i % 9 + 2), { credentials: "same-origin" })).json();
    if (answer.total === undefined) { throw new Error("no score from the server"); }
    samples.push(performance.now() - start);
  }
  return samples;
}"""


def _summary(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return percentile(samples, 0.5), percentile(samples, 0.99)


def main() -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pad-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    token = storage.create_game(db, Game(configure("crates"), ("Ann", "Bob", "Cy", "Di"))).record_token
    db.conn.close()
    with app_server(folder) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(f"{server.base}/t/{token}/hand/1/seat/0")
        page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:/t/{token}/') !== null")
        page.reload()
        trip = _summary(page.evaluate(ROUND_TRIP, [f"/t/{token}/preview", scaled(300, 20)]))
        context.set_offline(True)
        tap = _summary(page.evaluate(TAP, TAPS))
        browser.close()
    print(
        f"{'pad: tap to score, network off':<38} p50 {tap[0] * 1000:9.1f} µs  p99 {tap[1] * 1000:9.1f} µs   "
        f"(aim p99 ≤ 16 ms, one frame)   before: round trip to the server p50 {trip[0] * 1000:8.1f} µs  "
        f"p99 {trip[1] * 1000:8.1f} µs   ratio p99 {tap[1] / trip[1]:5.2f}x"
    )


if __name__ == "__main__":
    main()
