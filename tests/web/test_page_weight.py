"""The page-weight budget in the README: a game's first visit within 100 KB as served, and after it
nothing unchanged fetched twice (static files under content-hashed names, cached for good)."""

import gzip
import re
import shutil
from pathlib import Path

import brotli
import pytest

import scorekeeper
from bench.page_weight import BUDGET, brought_in, first_visit, game_in_play, import_map
from bench.servers import app_server
from scorekeeper.web.static_files import KEPT_RELEASES, build, hashed_name
from tests.project.test_architecture import module_imports
from tests.support.web import start

HTML_BUDGET = 48 * 1024
STATIC = Path(scorekeeper.__file__).parent / "static"
HASHED = re.compile(r"^/static/(?P<stem>[\w./-]+)\.(?P<digest>[0-9a-f]{8})\.(?P<extension>\w+)$")
A_YEAR = 365 * 24 * 3600


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`scorekeeper serve` over an instance holding a game 14 hands in: its address, the game's token."""
    folder = tmp_path_factory.mktemp("instance")
    token = game_in_play(folder)
    with app_server(folder) as server:
        yield server.base, token


@pytest.fixture(scope="module")
def hand_page_visit(served):
    """A phone's first visit of the game's hand page."""
    base, token = served
    return first_visit(base, f"/t/{token}/")


def test_the_first_visit_of_a_game_page_transfers_at_most_100_kb(hand_page_visit):
    sizes = {transfer.path: transfer.size for transfer in hand_page_visit}
    assert all(transfer.status == 200 for transfer in hand_page_visit), [(t.path, t.status) for t in hand_page_visit]
    assert any(path.endswith(".css") for path in sizes) and any(path.endswith(".js") for path in sizes), sizes
    assert sum(sizes.values()) <= BUDGET, sizes


def _static(visit):
    """The static files of a visit (not the page, nor the manifest a browser reads to install)."""
    return [transfer for transfer in visit[1:] if transfer.path.startswith("/static/")]


def test_static_files_are_sent_compressed_when_the_phone_accepts_it(hand_page_visit):
    for transfer in _static(hand_page_visit):
        if transfer.path.endswith(".png"):  # compressed already (the home-screen icon)
            continue
        assert transfer.headers["Content-Encoding"] == "br", transfer.path
        assert transfer.headers["Vary"] == "Accept-Encoding", transfer.path


def test_a_second_visit_fetches_nothing_unchanged(hand_page_visit):
    """Every file the page brings in (its modules' imports too) has a hashed name cached for good."""
    for transfer in _static(hand_page_visit):
        assert HASHED.match(transfer.path), transfer.path
        cache = transfer.headers["Cache-Control"]
        assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache).group(1)) >= A_YEAR, transfer.path
    assert "no-store" in hand_page_visit[0].headers["Cache-Control"]  # the page itself: it changes


def test_a_module_and_the_module_it_imports_come_by_their_hashed_names(served, hand_page_visit):
    """copy.js imports ./rules.js: through the import map, both are fetched by hashed names."""
    base, _ = served
    mapped = import_map(hand_page_visit[0].text())
    transfers = brought_in(base, [mapped["/static/copy.js"]], mapped)
    assert [transfer.path for transfer in transfers] == [mapped["/static/copy.js"], mapped["/static/rules.js"]]
    assert all(transfer.status == 200 and "immutable" in transfer.headers["Cache-Control"] for transfer in transfers)


def test_the_import_map_sends_every_module_to_its_hashed_name(client):
    mapped = import_map(client.get("/").get_data(as_text=True))
    scripts = sorted(path.name for path in STATIC.iterdir() if path.suffix in (".js", ".mjs"))
    assert sorted(mapped) == [f"/static/{name}" for name in scripts]
    for plain, hashed in mapped.items():
        assert HASHED.match(hashed) and hashed.startswith(plain.removesuffix(".js") + "."), (plain, hashed)
        response = client.get(hashed)
        assert response.status_code == 200 and response.data == (STATIC / plain.removeprefix("/static/")).read_bytes()
        response.close()


def test_a_plain_name_is_still_served_for_pages_of_an_older_release_but_not_for_long(client):
    response = client.get("/static/app.css", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.data) == (STATIC / "app.css").read_bytes()
    assert response.headers["Cache-Control"] == "max-age=60, public"
    response.close()


def test_a_changed_file_gets_a_new_name_and_the_unchanged_keep_theirs(tmp_path):
    source = tmp_path / "static"
    shutil.copytree(STATIC, source)
    before = build(source, tmp_path / "built")
    (source / "app.css").write_text((STATIC / "app.css").read_text() + "\n.new { color: red; }\n")
    after = build(source, tmp_path / "built")
    changed = {name for name in before.names if before.names[name] != after.names[name]}
    assert changed == {"app.css"}
    assert after.names["app.css"] == hashed_name("app.css", (source / "app.css").read_bytes())
    built = after.folder / after.names["app.css"]
    assert built.read_bytes() == (source / "app.css").read_bytes()
    assert brotli.decompress((built.parent / (built.name + ".br")).read_bytes()) == built.read_bytes()
    assert gzip.decompress((built.parent / (built.name + ".gz")).read_bytes()) == built.read_bytes()
    assert (after.folder / "app.css").read_bytes() == built.read_bytes()  # the plain name is the new content
    assert before.folder != after.folder and before.folder.is_dir()  # an open page of the old release keeps its files


def test_old_releases_are_removed_as_new_ones_start(tmp_path):
    source = tmp_path / "static"
    shutil.copytree(STATIC, source)
    releases = []
    for n in range(KEPT_RELEASES + 2):
        (source / "pages.js").write_text(f"/* release {n} */\n")
        releases.append(build(source, tmp_path / "built").folder)
    kept = sorted(path for path in (tmp_path / "built").iterdir())
    assert kept == sorted(releases[-KEPT_RELEASES:])
    assert build(source, tmp_path / "built").folder == releases[-1]  # the same files: built once


def test_every_page_of_a_finished_five_player_game_stays_within_budget(client):
    table = start(client, ["Annabelle", "Bartholomew", "Cy", "Di", "Ed"])
    for hand in range(1, 16):
        table.pressure("Cy", hand)
        table.post("/note", hand=hand, text="A ruling of a sentence or two, as a table would write it.")
        for seat, cards in enumerate(["A 3 3 6", "", "K Q", "8 8", "10 9 7"]):
            table.leftovers(hand, seat, cards, went_out=not cards)
    pages = ["/scores", "/history", "/share", "/hand/15", "/hand/15/seat/1"]
    static = {path.name for path in STATIC.iterdir()}
    for path in pages:
        html = table.page(path)
        assert len(html.encode()) <= HTML_BUDGET, (path, len(html))
        assets = re.findall(r'(?:src|href)="([^"#]+\.(?:css|js|png|jpg|woff2?|svg))"', html)
        for asset in assets:  # only our own files, each by its hashed name
            found = HASHED.match(asset)
            assert found and f"{found['stem']}.{found['extension']}" in static, asset
        assert any(asset.startswith("/static/main.") for asset in assets)


def test_a_page_fetches_every_module_its_scripts_import_at_once(client):
    """main.js and, preloaded beside it, every module it reaches: one round trip, not one a level
    (a game's record-link page adds offline.js and what it reaches)."""
    for path, entries in (("/new", ["main.js"]), (start(client, ["Ann", "Bob"]).base + "/", ["main.js", "offline.js"])):
        page = client.get(path).get_data(as_text=True)
        mapped = import_map(page)
        scripts = re.findall(r'<script type="module" src="([^"]+)"></script>', page)
        assert scripts == [mapped[f"/static/{entry}"] for entry in entries], (path, scripts)
        preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', page))
        reached, waiting = set(), list(entries)
        while waiting:
            for name in module_imports(STATIC / waiting.pop()):
                if name[2:] not in reached and name[2:] not in entries:
                    reached.add(name[2:])
                    waiting.append(name[2:])
        assert preloaded == {mapped[f"/static/{name}"] for name in reached} and "storage.js" in reached, path
