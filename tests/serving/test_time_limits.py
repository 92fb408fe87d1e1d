"""Every request a page makes has a time limit (static/net.js): a server that hangs (a laptop asleep)
must not leave a phone waiting for minutes. The browser tests freeze a real server
(tests/browser/test_server_that_hangs.py); here, the rule over every script and net.js in Node
against a socket that accepts and never answers, with and without AbortSignal.timeout."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
import time

import pytest

from tests.phone.test_phone_scores_as_the_engine import ROOT, node

STATIC = ROOT / "scorekeeper" / "static"
BARE_FETCH = re.compile(r"(?<![\w.])fetch\(")


def test_no_script_of_the_phone_fetches_without_a_time_limit():
    bare = {
        path.name: len(BARE_FETCH.findall(path.read_text()))
        for path in sorted(STATIC.glob("*.js"))
        if path.name != "net.js"
    }
    # The service worker has its own: every fetch of its goes through network(), which gives up after WAIT_MS.
    worker = (STATIC / "sw.js").read_text()
    assert BARE_FETCH.findall(worker.split("function network(")[1].split("\n}\n")[0]) == ["fetch("]
    bare["sw.js"] -= 1
    assert {name: count for name, count in bare.items() if count} == {}


@pytest.fixture
def silent_server():
    """A port that accepts connections and never answers (as a frozen process's listening socket does)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/version"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


@pytest.mark.parametrize("engine", ["with AbortSignal.timeout", "without it (older Safari)"])
def test_a_request_to_a_server_that_never_answers_fails_within_the_limit(silent_server, engine):
    without = "delete AbortSignal.timeout;" if engine.startswith("without") else ""
    script = f"""
{without}
const {{ LIMIT_MS, Timeout, fetchWithin, timedOut }} = await import({str((STATIC / "net.js").as_uri())!r});
const started = Date.now();
try {{
  await fetchWithin({silent_server!r});
  console.log(JSON.stringify({{ outcome: "answered" }}));
}} catch (error) {{
  console.log(JSON.stringify({{ outcome: error instanceof Timeout ? "timeout" : String(error), timedOut: timedOut(error),
    waited: Date.now() - started, limit: LIMIT_MS }}));
}}
"""
    started = time.monotonic()
    done = subprocess.run(
        [node(), "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30, check=True
    )
    answer = json.loads(done.stdout)
    assert answer["outcome"] == "timeout" and answer["timedOut"] is True, answer
    assert answer["limit"] <= answer["waited"] < answer["limit"] + 1500, answer
    assert time.monotonic() - started < 10
