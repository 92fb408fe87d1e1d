"""`scorekeeper serve --certfile --keyfile` speaks https itself (a secure origin: phones may install
the app there): its pages, its session cookie (Secure), and its live stream, at the address it
prints; a certificate that cannot be used is refused in one line before anything starts."""

from __future__ import annotations

import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bench.servers import free_port, self_signed
from scorekeeper.serve import port_is_free
from scorekeeper.web.security import HSTS_SECONDS
from tests.support.web import new_game_form

SCOREKEEPER = [sys.executable, "-m", "scorekeeper.cli"]


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[str, str]:
    return self_signed(tmp_path_factory.mktemp("tls"))


def test_the_server_serves_https_with_a_secure_cookie_hsts_a_redirect_from_http_and_a_live_stream_over_tls(
    tmp_path, certificate
):
    cert, key = certificate
    port = free_port()
    while not port_is_free("127.0.0.1", port + 1):
        port = free_port()
    server = subprocess.Popen(
        [*SCOREKEEPER, "serve", "--host", "127.0.0.1", "--port", str(port), "--certfile", cert, "--keyfile", key],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        printed = ""
        deadline = time.monotonic() + 30
        while "Scorekeeper is running" not in printed and time.monotonic() < deadline:
            printed += server.stdout.readline()
        printed += server.stdout.readline()
        assert f"https://127.0.0.1:{port}/" in printed
        trust = ssl.create_default_context(cafile=cert)
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/new", context=trust, timeout=10) as response:
            page = response.read().decode()
            cookie = response.headers.get("Set-Cookie") or ""
        assert "Start the game" in page
        assert "Secure" in cookie
        assert response.headers["Strict-Transport-Security"] == f"max-age={HSTS_SECONDS}"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as plain:
            plain.sendall(f"GET /t/abc/hand HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            redirect = plain.recv(4096).decode()
        assert redirect.startswith("HTTP/1.1 301")
        assert f"location: https://127.0.0.1:{port}/t/abc/hand" in redirect.lower()
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/csrf", context=trust, timeout=10) as response:
            assert response.status == 200
        live = re.search(r'data-live-url="([^"]*)"', _game_page(port, trust))
        assert live and live.group(1).startswith(f"https://127.0.0.1:{port + 1}/live/t/")
        with socket.create_connection(("127.0.0.1", port + 1), timeout=10) as raw:
            with trust.wrap_socket(raw, server_hostname="127.0.0.1") as stream:
                path = live.group(1).split(str(port + 1), 1)[1]
                stream.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                head = stream.recv(4096).decode()
        assert head.startswith("HTTP/1.1 200") and "text/event-stream" in head
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        server.stdout.close()


def _game_page(port: int, trust: ssl.SSLContext) -> str:
    """A game started through the form, as a phone would, its hand page's HTML."""
    import http.cookiejar
    import urllib.parse

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(jar), urllib.request.HTTPSHandler(context=trust)
    )
    base = f"https://127.0.0.1:{port}"
    form = opener.open(base + "/new", timeout=10).read().decode()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"csrf_token": token, **new_game_form(["Ann", "Bob"])})
    request = urllib.request.Request(base + "/new", data=data.encode(), headers={"Referer": base + "/new"})
    with opener.open(request, timeout=10) as response:
        return response.read().decode()


def test_a_certificate_that_cannot_be_used_is_refused_in_one_line(tmp_path, certificate):
    cert, _ = certificate
    missing = tmp_path / "no-such-key.pem"
    result = subprocess.run(
        [*SCOREKEEPER, "serve", "--port", str(free_port()), "--certfile", cert, "--keyfile", str(missing)],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot be used" in lines[0], result.stderr
    only_one = subprocess.run(
        [*SCOREKEEPER, "serve", "--port", str(free_port()), "--certfile", cert],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert only_one.returncode != 0 and "both --certfile and --keyfile" in only_one.stderr
    assert Path(cert).exists()
