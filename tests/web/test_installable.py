"""The app is installable where the origin is secure: a manifest that opens the phone's games,
and a service worker whose version is the release's, so a new release replaces the old files."""

import json
import shutil
from pathlib import Path

import scorekeeper
from scorekeeper.web.installable import release

STATIC = Path(scorekeeper.__file__).parent / "static"


def test_the_worker_is_served_at_the_root_with_the_release_in_it(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] == "no-cache"  # the browser checks it on every visit
    text = response.get_data(as_text=True)
    assert "{{ version }}" not in text
    assert f'const VERSION = "{release(str(STATIC))}";' in text


def test_a_changed_static_file_is_a_new_release(tmp_path):
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    before = release(str(folder))
    (folder / "app.css").write_text((folder / "app.css").read_text() + "\n/* next release */\n")
    release.cache_clear()
    assert release(str(folder)) != before


def test_the_worker_keeps_only_its_own_release_s_caches():
    worker = (STATIC / "sw.js").read_text()
    assert "names.filter((name) => name !== STATIC && name !== PAGES).map((name) => caches.delete(name))" in worker
    assert "skipWaiting" in worker and "clients.claim" in worker


def test_the_manifest_opens_the_home_page_with_icons_a_home_screen_takes(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data())
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as answer:
            assert answer.status_code == 200 and answer.mimetype == "image/png"
    page = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in page and 'rel="apple-touch-icon"' in page


def test_the_share_page_tells_the_truth_about_the_address(app):
    from tests.support.web import start

    table = start(app.test_client(), ["Ann", "Bob"])
    for host, secure in [("192.168.1.20:5000", False), ("127.0.0.1:5000", True), ("localhost:5000", True)]:
        page = app.test_client().get(f"{table.base}/share", headers={"Host": host}).get_data(as_text=True)
        assert ("a phone that reloads while the server is down cannot open the game" in page) is not secure, host
        assert ("Add to Home Screen" in page) is secure, host
    https = app.test_client().get(f"{table.base}/share", base_url="https://club.example").get_data(as_text=True)
    assert "Add to Home Screen" in https
