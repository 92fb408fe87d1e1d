"""A second visit fetches nothing unchanged: in Chromium, a game page loaded again asks the server
for no static file, and modules import each other by plain names through the import map."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from werkzeug.serving import make_server

from bench.page_weight import game_in_play
from scorekeeper import create_app

HASHED = re.compile(r"^/static/[\w.-]+\.[0-9a-f]{8}\.\w+$")


class Recording:
    """The app, noting the path of every request that reaches the server."""

    def __init__(self, app) -> None:
        self.app = app
        self.paths: list[str] = []

    def __call__(self, environ, start_response):
        self.paths.append(environ["PATH_INFO"])
        return self.app(environ, start_response)

    def static(self) -> list[str]:
        return [path for path in self.paths if path.startswith("/static/")]


@contextmanager
def recorded_server(folder) -> Iterator[tuple[str, Recording, str]]:
    """The app on a loopback port in this process, so that the test sees every request the server
    gets (the browser's own cache answers the rest); its address, the recording, a game's token."""
    token = game_in_play(folder)
    app = create_app({"SECRET_KEY": "test", "DATABASE": str(folder / "scorekeeper.db")})
    recording = Recording(app)
    server = make_server("127.0.0.1", 0, recording, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", recording, token
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture
def recorded(tmp_path):
    with recorded_server(tmp_path) as found:
        yield found


def test_a_game_page_loaded_again_fetches_no_static_file(recorded, phone):
    base, recording, token = recorded
    page = phone()
    page.goto(f"{base}/t/{token}/", wait_until="networkidle")  # the icon is asked for after the load
    first = recording.static()
    assert first and all(HASHED.match(path) for path in first), first
    assert any(path.endswith(".css") for path in first) and any(path.endswith(".js") for path in first)
    recording.paths.clear()
    page.goto(f"{base}/t/{token}/scores", wait_until="networkidle")
    page.goto(f"{base}/t/{token}/", wait_until="networkidle")
    assert recording.static() == []
    assert f"/t/{token}/" in recording.paths  # the page itself is asked for again: it changes
    page.reload(wait_until="networkidle")
    assert recording.static() == []


def test_a_module_imports_another_by_its_plain_name_through_the_import_map(recorded, phone):
    base, recording, token = recorded
    page = phone()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/", wait_until="networkidle")  # a page that has not loaded the phone's copy
    recording.paths.clear()
    exported = page.evaluate("async () => Object.keys(await import('/static/copy.js')).sort()")
    assert "fold" in exported  # copy.js, which imports { ... } from "./rules.js"
    fetched = recording.static()
    assert len(fetched) == 2 and all(HASHED.match(path) for path in fetched), fetched
    assert fetched[0].startswith("/static/copy.") and fetched[1].startswith("/static/rules."), fetched
    assert errors == []  # the policy let the import map run
