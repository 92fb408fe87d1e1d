"""The web app's foundation: factory, home page, headers, error pages, instance secret."""

import base64
import hashlib
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench.servers import free_port
from scorekeeper import create_app
from scorekeeper.serve import local_addresses
from scorekeeper.storage.files import ensure_secret_key
from scorekeeper.web.security import HEADERS
from tests.support.web import hashed_static, security_headers


def test_home_page_lists_the_rule_sets(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Crates" in page and "Crates: Skill-hand World Series" in page
    assert "crates-world-series" not in page and "002" not in page  # no rule ids or source numbers


def test_security_headers_on_every_response(client):
    for path in ("/", "/no-such-page", "/static/app.css", "/static/" + hashed_static(client, "app.css")):
        response = client.get(path)
        assert security_headers(response) == HEADERS, path
        response.close()
    assert "default-src 'self'" in HEADERS["Content-Security-Policy"]


def test_the_one_inline_script_is_the_import_map_and_the_policy_allows_it_by_its_hash(client):
    response = client.get("/")
    page = response.get_data(as_text=True)
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", page, re.S)
    assert [attributes for attributes, _ in inline] == [' type="importmap"']
    digest = base64.b64encode(hashlib.sha256(inline[0][1].encode()).digest()).decode()
    policy = response.headers["Content-Security-Policy"]
    assert policy == f"default-src 'self'; script-src 'self' 'sha256-{digest}'; frame-ancestors 'none'"
    assert "unsafe" not in policy


def test_a_missing_page_is_a_plain_page_not_a_traceback(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "Traceback" not in response.get_data(as_text=True)
    assert "Back to the start" in response.get_data(as_text=True)


def test_an_unexpected_error_shows_no_traceback(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.logger.disabled = True
    response = app.test_client().get("/boom")
    page = response.get_data(as_text=True)
    assert response.status_code == 500
    assert "secret internals" not in page and "Traceback" not in page


def test_a_large_request_is_refused(app):
    app.config["WTF_CSRF_ENABLED"] = False  # this test is about size, not CSRF

    @app.post("/echo-size")
    def echo_size():
        from flask import request

        return str(len(request.get_data()))

    client = app.test_client()
    assert client.post("/echo-size", data=b"x" * 1000).get_data(as_text=True) == "1000"
    response = client.post("/echo-size", data=b"x" * (1024 * 1024))
    assert response.status_code == 413
    assert "Traceback" not in response.get_data(as_text=True)


def test_the_secret_key_is_created_once_and_kept(tmp_path):
    first = ensure_secret_key(str(tmp_path))
    assert len(first) >= 64
    assert ensure_secret_key(str(tmp_path)) == first
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_create_app_uses_the_instance_folder_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    app = create_app()
    assert app.instance_path == str(tmp_path)
    assert app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text()


def test_local_addresses_are_not_loopback_unless_there_is_nothing_else():
    addresses = local_addresses()
    assert addresses
    assert all(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address) for address in addresses)


def test_serve_runs_a_production_server_that_answers_and_prints_the_address(tmp_path):
    """What `make run` does, on a loopback port: gunicorn workers serving the home page."""
    port = free_port()
    script = Path(sys.executable).parent / "scorekeeper"
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)}
    server = subprocess.Popen(
        [str(script), "serve", "--host", "0.0.0.0", "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        body = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and body is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    body = response.read().decode()
            except OSError:
                time.sleep(0.2)
        assert body is not None, "the server never answered"
        assert "Crates" in body
        assert (tmp_path / "secret_key").exists()
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=15)
    assert f":{port}/" in output
    assert "On a phone on the same Wi-Fi, open:" in output
