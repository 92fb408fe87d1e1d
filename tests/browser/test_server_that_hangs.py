"""A server that hangs (a laptop asleep, or off the Wi-Fi) is as gone as one that is down: every
request a page makes has a time limit, so the phones notice, play on offline and come back by
themselves once it wakes. Frozen here with SIGSTOP on every process of the server (gunicorn's
master and workers, the live process), at the address a phone really has (plain http on a host
name, as in test_table_without_server.py)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import free_port, running_server, start_game
from tests.browser.test_table_without_server import HOST, insecure_phone  # noqa: F401 (a fixture)

LIVE = "● Live"


def server_processes(port: int) -> list[int]:
    """Every process of the `scorekeeper serve` listening on ``port``: it and all its descendants."""
    parents: dict[int, int] = {}
    roots = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(stat.rsplit(")", 1)[1].split()[1])
        if b"serve" in command and b"--port" in command and str(port).encode() in command:
            roots.append(pid)
    found = set(roots)
    grew = True
    while grew:
        children = {pid for pid, parent in parents.items() if parent in found} - found
        found |= children
        grew = bool(children)
    return sorted(found)


@contextmanager
def frozen(port: int) -> Iterator[list[int]]:
    """The whole server stopped where it stands (SIGSTOP), then woken (SIGCONT)."""
    pids = server_processes(port)
    assert len(pids) >= 3, pids  # the server, its workers, the live process
    for pid in pids:
        _signal(pid, signal.SIGSTOP)
    try:
        yield pids
    finally:
        for pid in pids:
            _signal(pid, signal.SIGCONT)


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # a short-lived child (a PDF's renderer) gone meanwhile
        os.kill(pid, number)


def recorded_pressures(port: int, record_url: str) -> list[str]:
    url = record_url.replace(HOST, "127.0.0.1") + "export.json"
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read()).get("in_play", {}).get("pressures", [])


def _game(page, port: int) -> str:
    record_url = start_game(page, f"http://{HOST}:{port}", ["Ann", "Bob", "Cy"])
    base = record_url[len(f"http://{HOST}:{port}") :]
    page.wait_for_function(f"() => localStorage.getItem('scorekeeper:copy:{base}') !== null")
    expect(page.locator("[data-live-status]")).to_have_text(LIVE)
    page.wait_for_timeout(500)  # the stream open, its first version heard
    return record_url


def _outbox_empty(page) -> None:
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('scorekeeper:outbox') || '[]').length === 0", timeout=20_000
    )


def test_a_phone_notices_a_server_that_hangs_plays_on_and_comes_back(insecure_phone, tmp_path):  # noqa: F811
    page = insecure_phone
    port = free_port()
    with running_server(tmp_path / "instance", port):
        record_url = _game(page, port)
        with frozen(port):
            started = time.monotonic()
            # No tap: the ping (every few seconds, each within its time limit) finds it gone.
            expect(page.locator("[data-live-status]")).not_to_have_text(LIVE, timeout=8_000)
            noticed = time.monotonic() - started
            expect(page.locator(".offline-banner")).to_be_visible()
            page.click("button.pressure:has-text('Cy')")
            expect(page.locator(".offline-banner")).to_contain_text("1 change waiting", timeout=4_000)
            expect(page.locator(".pending")).to_contain_text("Pressure: Cy")
            expect(page.locator("button.pressure:has-text('Cy') .cost")).to_have_text("+10")
        # Woken: the phone finds it by itself and the waiting pressure arrives, once.
        expect(page.locator("[data-live-status]")).to_have_text(LIVE, timeout=15_000)
        _outbox_empty(page)
        assert recorded_pressures(port, record_url) == ["Cy"]
        page.wait_for_timeout(3_000)
        assert recorded_pressures(port, record_url) == ["Cy"]
    print(f"frozen server noticed without a tap in {noticed:.1f} s")
    assert noticed < 7


def test_a_tap_on_a_server_that_just_hung_is_kept_within_seconds_and_counted_once(insecure_phone, tmp_path):  # noqa: F811
    """The pressure tapped at the moment the server goes: its request reaches a frozen server (which
    may still take it when it wakes), gets no answer, and the phone plays on within its limit."""
    page = insecure_phone
    port = free_port()
    with running_server(tmp_path / "instance", port):
        record_url = _game(page, port)
        with frozen(port):
            started = time.monotonic()
            page.click("button.pressure:has-text('Cy')", no_wait_after=True)
            expect(page.locator(".offline-banner")).to_contain_text("1 change waiting", timeout=5_000)
            after_tap = time.monotonic() - started
            expect(page.locator(".pending")).to_contain_text("Pressure: Cy")
        _outbox_empty(page)
        expect(page.locator("[data-live-status]")).to_have_text(LIVE, timeout=15_000)
        assert recorded_pressures(port, record_url) == ["Cy"]
    print(f"frozen server noticed {after_tap:.1f} s after a tap")
    assert after_tap < 3.5


def test_a_link_tapped_as_the_server_hangs_opens_from_the_copy_every_time(insecure_phone, tmp_path):  # noqa: F811
    """Seen three times out of three: a link tapped at the moment the server went opened the browser's
    error page (or, with a server that hangs, a page load that never ended). The page's own links are
    taken by the page: unless the server was heard from a moment ago, it is asked first, and with no
    answer the page is drawn from the phone's copy; else the browser goes, watched, and is stopped
    when no page has come within 4 s. Either way the link opens from the copy, in place."""
    page = insecure_phone
    port = free_port()
    with running_server(tmp_path / "instance", port):
        record_url = _game(page, port)
        page.evaluate("() => { window.sameDocument = true; }")
        took: list[float] = []
        # At once after the server was last heard (the browser goes, watched), and 2 s later (the
        # page asks first), before the phone's own check could notice.
        for link, heading, address, wait in (
            ("Scores", "Scores", "scores", 0),
            ("History", "History", "history", 0),
            ("Hand", "Hand 1", "", 0),
            ("Scores", "Scores", "scores", 2.1),
        ):
            with frozen(port):
                time.sleep(wait)
                started = time.monotonic()
                page.click(f".gamenav a:has-text('{link}')", no_wait_after=True)
                expect(page.locator("main[data-offline] h1")).to_contain_text(heading, timeout=7_000)
                took.append(time.monotonic() - started)
                assert page.url == record_url + address
                assert page.evaluate("() => window.sameDocument === true"), "the page was left"
            expect(page.locator("[data-live-status]")).to_have_text(LIVE, timeout=15_000)
        # Awake, a link is a link: the server's page, by a navigation.
        page.click(".gamenav a:has-text('Scores')")
        expect(page.locator("main:not([data-offline]) h1")).to_have_text("Scores")
        page.wait_for_function("() => window.sameDocument !== true")
    print("links tapped on a frozen server opened from the copy in " + ", ".join(f"{t:.1f}" for t in took) + " s")
    assert max(took) < 5.5
