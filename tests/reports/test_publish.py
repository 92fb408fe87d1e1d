"""scorekeeper publish: an event's results as a folder of static pages a club can put anywhere."""

from __future__ import annotations

import pytest

from tests.support.published import (
    broken_links,
    club_instance,
    folder_text,
    links_and_scripts,
    publish,
    secrets_found,
    secrets_of,
)


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    folder = tmp_path_factory.mktemp("club")
    instance = club_instance(folder)
    result = publish(instance, "1", str(folder / "out"))
    assert result.returncode == 0, result.stderr
    return instance, folder / "out", result


def test_an_evening_is_published_under_stable_names(published):
    _, out, result = published
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [
        ".scorekeeper-published",
        "index.html",
        "ladder-1.csv",
        "ladder-1.html",
        "ladder-1.pdf",
        *[f"players/{member}.html" for member in sorted(range(1, 9), key=str)],
        "ratings.csv",
        "ratings.html",
        "round-1.html",
        "round-2.html",
        "standings.pdf",
        "style.css",
        *[f"table-{r}-{t}.{kind}" for r in (1, 2) for t in (1, 2) for kind in ("html", "pdf")],
    ]
    assert result.stdout.strip() == f"published {len(files) - 1} files to {out}"


def test_every_link_stays_inside_the_folder_and_no_page_has_a_script(published):
    _, out, _ = published
    assert broken_links(out) == []
    assert all(links_and_scripts(page)[1] == 0 for page in out.rglob("*.html"))


def test_no_token_or_join_code_is_anywhere_in_the_folder_pdfs_included(published):
    instance, out, _ = published
    secrets = secrets_of(instance)
    assert len(secrets) > 20
    assert secrets_found(out, secrets) == []


def test_a_player_who_asked_is_shown_by_initials_everywhere_and_numbers_never(published):
    _, out, _ = published
    texts = folder_text(out)
    assert not [path for path, text in texts.items() if "Ann Smith" in text or "Ann\nSmith" in text]
    assert not [path for path, text in texts.items() if "1042" in text or "2001" in text]
    assert "A. S." in texts[str(out / "index.html")]
    sheet = texts[str(out / "table-1-1.pdf")]
    assert "A. S. played out of turn" in " ".join(sheet.split())  # the ruling, renamed
    assert "Bob Stone" in texts[str(out / "index.html")]


def test_a_players_page_lists_every_evening_and_links_the_one_published(published):
    _, out, _ = published
    page = (out / "players" / "1.html").read_text()
    assert "Autumn Crates" in page and "Week two" in page
    assert 'href="../index.html">Autumn Crates' in page
    assert "Week two</a>" not in page  # not in this folder: named, not linked


def test_the_ratings_have_a_csv_of_their_own(published):
    _, out, _ = published
    lines = (out / "ratings.csv").read_text().splitlines()
    assert lines[0] == "place,name,ordinal,mu,sigma,tables"
    assert len(lines) == 9
    assert any(line.split(",")[1] == "A. S." for line in lines[1:])


def test_publishing_again_replaces_the_folder_and_a_folder_of_other_files_is_refused(published, tmp_path):
    instance, out, _ = published
    (out / "round-2.html").unlink()
    again = publish(instance, "1", str(out))
    assert again.returncode == 0 and (out / "round-2.html").is_file()
    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"\xff\xd8")
    refused = publish(instance, "1", str(other))
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and "holds other files" in refused.stderr
    assert sorted(p.name for p in other.iterdir()) == ["holiday.jpg"]


@pytest.mark.parametrize(
    "args, says",
    [
        (["99", "out"], "There is no event 99"),
        (["abc", "out"], "is not an event's number"),
        (["1"], "usage: scorekeeper publish EVENT_ID OUTDIR"),
    ],
)
def test_a_publish_that_cannot_be_made_says_why_in_one_line(published, tmp_path, args, says):
    instance, _, _ = published
    result = publish(instance, *[str(tmp_path / a) if a == "out" else a for a in args])
    assert result.returncode != 0
    assert says in result.stderr and result.stderr.count("\n") == 1


def test_the_event_pages_button_zips_the_same_folder_without_a_secret(tmp_path):
    """Made in the background as a booklet is; pressed twice it makes one; the zip holds what the
    command line writes, under one folder, and nothing of the server's."""
    import io
    import re
    import time
    import zipfile

    from scorekeeper import create_app
    from tests.support.web import csrf_token
    from tests.web.test_events import set_up_director

    instance = club_instance(tmp_path)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(instance / "scorekeeper.db")})
    director = app.test_client()
    set_up_director(director)
    page = director.get("/director/events/1").get_data(as_text=True)
    key = re.search(r'name="idem" value="([^"]+)"><button[^>]*>Publish as pages', page).group(1)
    form = {"csrf_token": csrf_token(director, "/director/events/1"), "idem": key}
    first = director.post("/director/events/1/published/", data=form)
    again = director.post("/director/events/1/published/", data=form)
    assert first.status_code == again.status_code == 302 and first.headers["Location"] == again.headers["Location"]
    status_url = first.headers["Location"]
    for _ in range(600):
        if "Download the pages" in director.get(status_url).get_data(as_text=True):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the pages are not ready after 60 s")
    download = director.get(status_url + ".zip")
    assert download.mimetype == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(download.data))
    out = tmp_path / "unzipped"
    archive.extractall(out)
    cli = tmp_path / "cli"
    assert publish(instance, "1", str(cli)).returncode == 0
    zipped_files = sorted(
        p.relative_to(out / "event-1").as_posix() for p in (out / "event-1").rglob("*") if p.is_file()
    )
    cli_files = sorted(
        p.relative_to(cli).as_posix() for p in cli.rglob("*") if p.is_file() and p.name != ".scorekeeper-published"
    )
    assert zipped_files == cli_files
    assert broken_links(out / "event-1") == []
    assert secrets_found(out, secrets_of(instance)) == []
    assert "Pages of" in director.get("/director/events/1").get_data(as_text=True)  # found again from the event page


def test_a_season_is_published_with_its_ladder_at_the_top_and_each_evening_in_a_folder(published, tmp_path):
    instance, _, _ = published
    out = tmp_path / "season"
    result = publish(instance, "--season", "autumn 2026", str(out))
    assert result.returncode == 0, result.stderr
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert {"index.html", "ladder.csv", "ladder.pdf", "ratings.csv", "ratings.html", "style.css"} <= set(files)
    assert "events/1/index.html" in files and "events/2/table-1-1.pdf" in files and "players/1.html" in files
    assert broken_links(out) == []
    assert secrets_found(out, secrets_of(instance)) == []
    ladder = (out / "index.html").read_text()
    assert "Autumn 2026" in ladder and "A. S." in ladder and "Ann Smith" not in ladder
    assert 'href="events/1/index.html"' in ladder
    assert (out / "ladder.csv").read_text().splitlines()[0].startswith("place,tied,name")
    unknown = publish(instance, "--season", "Spring", str(tmp_path / "none"))
    assert unknown.returncode == 1 and "There is no season named Spring (seasons: Autumn 2026)." in unknown.stderr


def test_an_evenings_folder_holds_the_ladders_of_its_seasons(published):
    _, out, _ = published
    page = (out / "index.html").read_text()
    assert 'href="ladder-1.html">Autumn 2026</a>' in page
    assert "A. S." in (out / "ladder-1.html").read_text()
    assert "ladder-1.pdf" in (out / "ladder-1.html").read_text()


def test_a_removed_players_name_is_in_no_file_of_a_folder_published_after(tmp_path):
    from scorekeeper.storage.database import connect
    from scorekeeper.storage.member_removal import remove_member

    instance = club_instance(tmp_path)
    db = connect(str(instance / "scorekeeper.db"))
    try:
        remove_member(db, 2, "director")  # Bob Stone
    finally:
        db.conn.close()
    out = tmp_path / "out"
    assert publish(instance, "--season", "Autumn 2026", str(out)).returncode == 0
    texts = folder_text(out)
    assert not [path for path, text in texts.items() if "Bob" in text or "Stone" in text or "2001" in text]
    assert "a former member" in texts[str(out / "events" / "1" / "index.html")]
    assert not (out / "players" / "2.html").exists()  # a former member has no page of their own
