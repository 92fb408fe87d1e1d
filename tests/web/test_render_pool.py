"""The web app's PDFs render in separate processes: bounded, cached, failing cleanly, never outliving the server.

The renders here really run in spawned processes; the stand-in render functions below are
what those processes run when a test needs a render that waits, fails or dies.
"""

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.servers import free_port
from scorekeeper.web import render_pool
from scorekeeper.web.render_pool import Renderer
from tests.reports.test_sheets import pdf_text
from tests.support.web import csrf_token, start
from tests.web.test_events import new_event, seat_next_round, set_up_director

FAKE_PDF = b"%PDF-1.7 stand-in"


def _after_release(html: str) -> bytes:
    """A render that lasts until the test creates the file named by $RELEASE."""
    release = Path(os.environ["RELEASE"])
    for _ in range(600):
        if release.exists():
            return FAKE_PDF
        time.sleep(0.05)
    raise TimeoutError("never released")


def _fake(html: str) -> bytes:
    return FAKE_PDF


def _broken(html: str) -> bytes:
    raise ValueError("the print stylesheet is missing")


def _dies_once(html: str) -> bytes:
    """The render process dies (as if killed) the first time; the one that replaces it renders."""
    marker = Path(os.environ["DIED"])
    if not marker.exists():
        marker.touch()
        os._exit(1)
    return FAKE_PDF


@contextmanager
def using(renderer: Renderer):
    """The app renders with ``renderer`` meanwhile; its processes stop afterwards."""
    previous = render_pool.install(renderer)
    try:
        yield renderer
    finally:
        renderer.shutdown()
        render_pool.install(previous)


@pytest.fixture
def renderer():
    with using(Renderer()) as fresh:
        yield fresh


def _until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_score_sheet_renders_in_the_pool_and_reads_back(client, renderer, tmp_path):
    table = start(client, ["Ann", "Bob", "Cy", "Di"])
    table.pressure("Ann", 1)
    response = client.get(f"{table.base}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data, tmp_path)
    assert all(name in text for name in ("Ann", "Bob", "Cy", "Di"))
    assert renderer.renders == 1


def test_the_same_blank_sheet_is_rendered_once_and_served_byte_for_byte(client, renderer, tmp_path):
    first = client.get("/blank-sheet.pdf?rules=crates&players=5&paper=letter")
    again = client.get("/blank-sheet.pdf?rules=crates&players=5&paper=letter")
    assert first.status_code == again.status_code == 200
    assert first.data == again.data and renderer.renders == 1
    assert "Hand" in pdf_text(again.data, tmp_path)
    other = client.get("/blank-sheet.pdf?rules=crates&players=4&paper=letter")
    assert other.data != first.data and renderer.renders == 2


def test_a_game_sheet_is_rendered_again_only_when_the_game_changed(client, renderer, tmp_path):
    table = start(client, ["Ann", "Bob", "Cy", "Di"])
    before = client.get(f"{table.base}/sheet.pdf").data
    assert client.get(f"{table.base}/sheet.pdf").data == before and renderer.renders == 1
    for seat, cards in enumerate(("K 3", "", "A 2", "8")):
        table.leftovers(1, seat, cards, went_out=not cards)
    after = client.get(f"{table.base}/sheet.pdf").data
    assert after != before and renderer.renders == 2
    assert "1 of 15 hands" in pdf_text(after, tmp_path) and "0 of 15 hands" in pdf_text(before, tmp_path)


def test_prints_past_the_bound_are_refused_at_once_with_retry_after(app, tmp_path, monkeypatch):
    monkeypatch.setenv("RELEASE", str(tmp_path / "release"))
    answers: dict[int, tuple[int, bytes]] = {}

    def fetch(players: int) -> None:
        response = app.test_client().get(f"/blank-sheet.pdf?rules=crates&players={players}")
        answers[players] = (response.status_code, response.data)

    waiting = [threading.Thread(target=fetch, args=(players,)) for players in (2, 3)]
    with using(Renderer(_after_release, waiting=2)) as renderer:
        try:
            for thread in waiting:
                thread.start()
            _until(lambda: renderer.renders == 2)
            began = time.monotonic()
            refused = app.test_client().get("/blank-sheet.pdf?rules=crates&players=4")
            assert time.monotonic() - began < 2
            assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
            assert "The printer is busy" in refused.get_data(as_text=True)
        finally:
            (tmp_path / "release").touch()
            for thread in waiting:
                thread.join(timeout=30)
        assert answers == {2: (200, FAKE_PDF), 3: (200, FAKE_PDF)}
        assert app.test_client().get("/blank-sheet.pdf?rules=crates&players=4").status_code == 200


def test_requests_for_a_sheet_already_being_rendered_share_that_render(app, tmp_path, monkeypatch):
    monkeypatch.setenv("RELEASE", str(tmp_path / "release"))
    answers: list[int] = []
    threads = [
        threading.Thread(target=lambda: answers.append(app.test_client().get("/blank-sheet.pdf").status_code))
        for _ in range(3)
    ]
    with using(Renderer(_after_release, waiting=3)) as renderer:
        try:
            for thread in threads:
                thread.start()
            _until(lambda: renderer.renders == 1)
            time.sleep(0.3)
        finally:
            (tmp_path / "release").touch()
            for thread in threads:
                thread.join(timeout=30)
        assert answers == [200, 200, 200] and renderer.renders == 1


def test_a_render_that_fails_answers_a_plain_error_page(client):
    with using(Renderer(_broken)):
        response = client.get("/blank-sheet.pdf?rules=crates")
    page = response.get_data(as_text=True)
    assert response.status_code == 500
    assert "The PDF could not be made" in page and "print stylesheet is missing" in page
    assert "Traceback" not in page


def test_a_render_process_that_dies_answers_503_and_the_next_print_works(client, tmp_path, monkeypatch):
    monkeypatch.setenv("DIED", str(tmp_path / "died"))
    with using(Renderer(_dies_once)):
        died = client.get("/blank-sheet.pdf?rules=crates")
        again = client.get("/blank-sheet.pdf?rules=crates")
    assert died.status_code == 503 and died.headers["Retry-After"]
    assert "starting again" in died.get_data(as_text=True)
    assert again.status_code == 200 and again.data == FAKE_PDF


def test_a_booklet_past_the_bound_is_refused_and_leaves_no_job(client):
    set_up_director(client)
    event_url = new_event(client, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(client, event_url)
    jobs = Path(client.application.instance_path) / "booklets"
    before = set(jobs.glob("*.json"))
    with using(Renderer(booklets=0)):
        response = client.post(event_url + "/booklet", data={"csrf_token": csrf_token(client, event_url), "idem": "b1"})
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert "Booklets are being made already" in response.get_data(as_text=True)
    assert set(jobs.glob("*.json")) == before


def test_shutting_the_renderer_down_leaves_no_render_process():
    before = {child.pid for child in multiprocessing.active_children()}
    renderer = Renderer()
    renderer.start()
    _until(lambda: {child.pid for child in multiprocessing.active_children()} - before)
    renderer.shutdown()
    assert not {child.pid for child in multiprocessing.active_children()} - before


def _session_processes(session: int) -> list[tuple[int, int, str]]:
    """(pid, parent pid, command line) of every live process in a session, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            found.append((int(entry.name), int(fields[1]), command))
    return found


def test_under_gunicorn_a_worker_starts_its_renderer_at_once_and_takes_it_along_when_it_stops(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)]
        + ["--workers", "1", "--threads", "1"],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path / "instance")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        renderers = lambda: [p for p in _session_processes(server.pid) if "spawn_main" in p[2]]  # noqa: E731
        _until(lambda: renderers(), 60)
        (pid, parent, _), *_ = renderers()
        assert parent != server.pid, "the renderer belongs to the worker, not to the process that forks"
        _until(lambda: os.getpriority(os.PRIO_PROCESS, pid) > os.getpriority(os.PRIO_PROCESS, parent), 30)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/blank-sheet.pdf?players=3", timeout=30) as response:
            assert response.read().startswith(b"%PDF")
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        _until(lambda: not _session_processes(server.pid), 10)
        assert b"Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        server.stderr.close()


def test_a_pdf_the_printer_could_not_take_is_asked_for_again_by_its_page(client, tmp_path, monkeypatch):
    """The 503 page of a PDF link comes back by itself after the Retry-After (a script with a
    little jitter; without JavaScript a refresh), and offers to try at once; it is not an error."""
    monkeypatch.setenv("DIED", str(tmp_path / "died"))
    with using(Renderer(_dies_once)):
        died = client.get("/blank-sheet.pdf?rules=crates")
    page = died.get_data(as_text=True)
    seconds = died.headers["Retry-After"]
    assert died.status_code == 503
    assert f'data-retry-after="{seconds}"' in page
    assert f'<noscript><meta http-equiv="refresh" content="{seconds}"></noscript>' in page
    assert 'href="/blank-sheet.pdf?rules=crates"' in page and "Try again now" in page
    assert "The printer is busy" in page and "error" not in page.split("<main>")[1].lower()


def test_a_refused_booklet_is_not_sent_again_by_itself(client):
    set_up_director(client)
    event_url = new_event(client, ["Ann", "Bob", "Cy", "Di"])
    seat_next_round(client, event_url)
    with using(Renderer(booklets=0)):
        response = client.post(event_url + "/booklet", data={"csrf_token": csrf_token(client, event_url), "idem": "b2"})
    page = response.get_data(as_text=True)
    assert response.status_code == 503 and "data-retry-after" not in page and 'http-equiv="refresh"' not in page


def test_a_print_past_the_bound_is_refused_before_its_markup_is_built(client, monkeypatch):
    """Building a sheet's markup is tens of milliseconds of Python that every other thread of the
    worker (the phones' saves) waits behind for the GIL: a request that will be refused is refused first."""
    from scorekeeper.web import pages

    table = start(client, ["Ann", "Bob", "Cy", "Di"])
    built: list[str] = []
    original = pages.score_sheet_html
    monkeypatch.setattr(pages, "score_sheet_html", lambda *a, **k: built.append("sheet") or original(*a, **k))
    with using(Renderer(waiting=0)):
        response = client.get(f"{table.base}/sheet.pdf")
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert built == []


def test_one_request_of_a_worker_builds_printed_markup_at_a_time(app, monkeypatch):
    """The others sleep meanwhile instead of taking turns at the GIL with it (and with the phones)."""
    from scorekeeper.web.views import printing

    lock = threading.Lock()
    building: list[int] = []
    most: list[int] = [0]
    original = printing.blank_sheet_html

    def slow_markup(*args, **kwargs):
        with lock:
            building.append(1)
            most[0] = max(most[0], len(building))
        time.sleep(0.3)
        with lock:
            building.pop()
        return original(*args, **kwargs)

    monkeypatch.setattr(printing, "blank_sheet_html", slow_markup)
    statuses: list[int] = []

    def fetch(players: int) -> None:
        statuses.append(app.test_client().get(f"/blank-sheet.pdf?rules=crates&players={players}").status_code)

    with using(Renderer(_fake, waiting=4)):
        threads = [threading.Thread(target=fetch, args=(players,)) for players in (2, 3, 4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert statuses == [200, 200, 200]
    assert most[0] == 1


def test_a_server_worker_hands_the_gil_on_every_millisecond():
    """A save gives the GIL up and takes it back dozens of times; behind a thread building a PDF's
    markup each of those waited up to Python's default 5 ms."""
    before = sys.getswitchinterval()
    with using(Renderer()):
        try:
            render_pool.start()
            assert sys.getswitchinterval() == render_pool.SWITCH_INTERVAL == 0.001
        finally:
            sys.setswitchinterval(before)
