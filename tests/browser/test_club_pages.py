"""The club's pages in Chromium at a phone's size: the published folder opened from disk with no
server at all, and the player pages and ratings the server shows; axe finds no violation on them."""

from __future__ import annotations

import pytest

from tests.browser.conftest import running_server
from tests.browser.test_accessibility import WCAG_AA, axe_violations, log_in
from tests.support.published import club_instance, publish

SIZES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    folder = tmp_path_factory.mktemp("club")
    instance = club_instance(folder)
    out = folder / "published"
    result = publish(instance, "1", str(out))
    assert result.returncode == 0, result.stderr
    return instance, out


def test_the_published_folder_reads_from_disk_at_phone_size_with_no_script_and_no_server(browser, club, shot):
    """Every page from file://, scripts off: nothing asked of a network, no sideways scroll."""
    _, out = club
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 10
    for size in SIZES:
        context = browser.new_context(viewport=size, is_mobile=True, has_touch=True, java_script_enabled=False)
        asked: list[str] = []
        context.on("request", lambda request, asked=asked: asked.append(request.url))
        page = context.new_page()
        for path in pages:
            page.goto(path.as_uri())
            assert page.locator("h1").count() == 1, path
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= size["width"], f"{path.relative_to(out)} is {wide} px wide at {size['width']}"
            if size["width"] == 360 and path.name in ("index.html", "1.html", "table-1-1.html"):
                shot(page, f"published-{path.parent.name}-{path.stem}")
        context.close()
        assert all(url.startswith("file://") for url in asked), [url for url in asked if not url.startswith("file://")]
        assert {url.rsplit("/", 1)[1] for url in asked} >= {"style.css", "index.html"}


def test_axe_finds_nothing_on_the_published_pages_light_and_dark(browser, club):
    _, out = club
    found = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=SIZES[0], color_scheme=scheme)
        page = context.new_page()
        for path in sorted(out.rglob("*.html")):
            page.goto(path.as_uri())
            problems = axe_violations(page)
            if problems:
                found[f"{scheme} {path.relative_to(out)}"] = problems
        context.close()
    assert not found, found


def test_axe_finds_nothing_on_the_player_pages_the_ratings_and_the_ladder(browser, club, tmp_path):
    """The director's list and a member's page, the public ratings and a public player's page, and a
    season's ladder (public and the director's)."""
    instance, _ = club
    assert WCAG_AA
    with running_server(instance) as base:
        found = {}
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport=SIZES[0], color_scheme=scheme, bypass_csp=True)
            page = context.new_page()
            for path in ("/club/", "/club/players/1", "/club/players/2", "/club/seasons/1"):
                page.goto(base + path)
                found.update({f"{scheme} {path}": axe_violations(page)} if axe_violations(page) else {})
                assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
            log_in(page, base)
            for path in ("/director/players/", "/director/players/1", "/director/seasons/", "/director/seasons/1"):
                page.goto(base + path)
                problems = axe_violations(page)
                if problems:
                    found[f"{scheme} {path}"] = problems
                assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
            context.close()
        assert not found, found
