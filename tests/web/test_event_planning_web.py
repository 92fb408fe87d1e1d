"""The event page shows the whole event's plan, made once per change outside the request."""

from __future__ import annotations

import html
import random
import re

import pytest

from scorekeeper.storage.database import connect
from tests.support.web import csrf_token
from tests.web.test_events import new_event, planned_page, seat_next_round, set_up_director

SIXTEEN = [f"Player {n:02}" for n in range(1, 17)]


@pytest.fixture
def director(client):
    set_up_director(client)
    return client


def proposal_in(page: str) -> str:
    """The tables the event page proposes for the next round, as written in its box."""
    return re.search(r'<textarea[^>]*name="tables"[^>]*>\s*(.*?)</textarea>', page, re.S).group(1).strip()


def planning_mark(app, event_url):
    event_id = int(event_url.rstrip("/").rsplit("/", 1)[1])
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("SELECT planning_since, plan FROM events WHERE id = ?", [event_id]).fetchone()
    finally:
        db.conn.close()


def test_an_event_of_sixteen_for_five_rounds_is_planned_whole_and_shows_its_quality(director, app):
    event_url = new_event(director, SIXTEEN, rounds="5")
    page = planned_page(director, event_url)
    assert "Repeated meetings: 0 (no plan can have fewer than 0)" in page
    assert "From the stored schedule: the affine plane of order 4." in page
    assert page.count("<h3>Round ") == 5, "every round still to play is shown"
    seen: set[frozenset[str]] = set()
    for number in range(1, 6):
        tables = seat_next_round(director, event_url)
        for table in tables:
            for pair in ({a, b} for i, a in enumerate(table) for b in table[i + 1 :]):
                assert frozenset(pair) not in seen, f"round {number}: {pair} meet again"
                seen.add(frozenset(pair))
    assert len(seen) == 5 * 4 * 6


def test_views_do_not_plan_again_and_a_round_seated_as_planned_keeps_the_plan(director, app):
    event_url = new_event(director, SIXTEEN, rounds="5")
    planned_page(director, event_url)
    _, plan = planning_mark(app, event_url)
    for _ in range(5):
        director.get(event_url)
        since, again = planning_mark(app, event_url)
        assert since is None and again == plan, "a view neither plans nor changes the plan"
    seat_next_round(director, event_url)
    director.get(event_url)
    since, after = planning_mark(app, event_url)
    assert since is None and after == plan, "seated as planned: the plan stands"


def test_a_round_seated_by_hand_makes_a_new_plan_from_it(director, app):
    event_url = new_event(director, SIXTEEN, rounds="4")
    page = planned_page(director, event_url)
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    by_hand = "\n".join(", ".join(SIXTEEN[i::4]) for i in range(4))  # not the plan's first round
    response = director.post(
        event_url + "/rounds", data={"csrf_token": csrf_token(director, event_url), "number": number, "tables": by_hand}
    )
    assert response.status_code == 302
    page = planned_page(director, event_url)
    assert "Repeated meetings: 0" in page, "the rest planned around the round seated by hand"
    proposal = proposal_in(page)
    for line in proposal.strip().splitlines():
        seats = line.split(", ")
        assert not any(set(seats) >= set(SIXTEEN[i::4][:2]) for i in range(4))


def test_an_event_without_rounds_plans_the_next_round_as_before(director):
    event_url = new_event(director, SIXTEEN)
    page = planned_page(director, event_url)
    assert page.count("<h3>Round ") == 1
    assert len(seat_next_round(director, event_url)) == 4


def post(director, event_url, path, **data):
    return director.post(event_url + path, data={"csrf_token": csrf_token(director, event_url), **data})


def test_a_withdrawal_and_a_late_arrival_after_round_one_are_planned_around_and_kept_in_the_history(director):
    event_url = new_event(director, SIXTEEN, rounds="5")
    planned_page(director, event_url)
    first = seat_next_round(director, event_url)
    response = post(
        director,
        event_url,
        "/players/withdraw",
        **{"withdraw-name": "Player 05", "withdraw-from_round": "2", "withdraw-reason": "went home ill"},
    )
    assert response.status_code == 302
    again = post(director, event_url, "/players/withdraw", **{"withdraw-name": "Player 05", "withdraw-from_round": "2"})
    assert again.status_code == 302, "a double click changes nothing"
    response = post(
        director,
        event_url,
        "/players/late",
        **{"late-name": "Late Lou", "late-from_round": "2", "late-club": "Boston BC"},
    )
    assert response.status_code == 302
    page = planned_page(director, event_url)
    assert "withdrawn from round 2" in page and "from round 2</strong>" in page
    assert "Player 05 withdrawn from round 2 on · <em>went home ill</em>" in page
    assert "Late Lou added, playing from round 2" in page
    assert page.count("Player 05 withdrawn") == 1
    second = seat_next_round(director, event_url)
    seated = [p for table in second for p in table]
    assert "Player 05" not in seated and "Late Lou" in seated and len(seated) == 16
    assert record_rounds(director, event_url)[0] == sorted(sorted(t) for t in first), "round 1 stays as played"


def record_rounds(director, event_url):
    page = director.get(event_url).get_data(as_text=True)
    rows = re.findall(
        r'class="round"><span class="label">Round </span>(\d+)</td>.*?class="players"><a [^>]*>([^<]+)</a>', page, re.S
    )
    rounds: dict[int, list[list[str]]] = {}
    for number, players in rows:
        rounds.setdefault(int(number), []).append(sorted(players.split(", ")))
    return [sorted(rounds[n]) for n in sorted(rounds)]


@pytest.mark.parametrize(
    "path, data, words",
    [
        ("/players/withdraw", {"withdraw-name": "Player 05", "withdraw-from_round": "1"}, "Round 1 is seated already"),
        ("/players/withdraw", {"withdraw-name": "Nobody", "withdraw-from_round": "2"}, "Nobody is not a player"),
        (
            "/players/late",
            {"late-name": "player 07", "late-from_round": "2"},
            "Player 07 is a player of this event already",
        ),
        ("/players/late", {"late-name": "Late Lou", "late-from_round": "9"}, "The event has 5 rounds"),
        ("/players/late", {"late-name": "x" * 31, "late-from_round": "2"}, "30"),
        (
            "/players/late",
            {"late-name": "Smith, Lou", "late-from_round": "2"},
            "The name cannot hold a comma: the tables are written with commas between names.",
        ),
        (
            "/players/late",
            {"late-name": "Late\tLou", "late-from_round": "2"},
            "The name cannot hold a control character (a tab).",
        ),
        (
            "/players/late",
            {"late-name": "Late\0Lou", "late-from_round": "2"},
            "The name cannot hold a control character (a NUL).",
        ),
        (
            "/players/late",
            {"late-name": "Ann\u202eSmith", "late-from_round": "2"},
            "The name cannot hold an invisible character (U+202E).",
        ),
        (
            "/players/late",
            {"late-name": "player   07", "late-from_round": "2"},
            "Player 07 is a player of this event already",
        ),
    ],
)
def test_a_change_that_cannot_be_made_is_refused_beside_its_field_keeping_what_was_typed(director, path, data, words):
    event_url = new_event(director, SIXTEEN, rounds="5")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    response = post(director, event_url, path, **data)
    assert response.status_code in (409, 422)
    page = response.get_data(as_text=True)
    assert words in page
    typed = data.get("late-name")
    if typed and len(typed) <= 30:
        assert f'value="{typed}"' in page


def test_a_round_seated_by_hand_is_marked_and_in_the_history(director):
    event_url = new_event(director, SIXTEEN, rounds="4")
    page = planned_page(director, event_url)
    by_hand = "\n".join(", ".join(SIXTEEN[i::4]) for i in range(4))  # not the plan's first round
    response = post(director, event_url, "/rounds", number="1", tables=by_hand)
    assert response.status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    assert "(by hand)" in page and "Round 1 seated by hand" in page


def test_mid_round_standings_rank_complete_rounds_only_and_show_each_table_as_it_stands(director):
    names = [f"Player {n:02}" for n in range(1, 14)]
    event_url = new_event(director, names, rounds="3", scoring="placement")
    planned_page(director, event_url)
    tables = seat_next_round(director, event_url)
    from tests.support.web import Table
    from tests.web.test_events import record_links

    token = record_links(director, event_url)[0]
    table = Table(director, token)
    table.leftovers(1, 0, went_out=True)
    for seat in range(1, len(tables[0])):
        table.leftovers(1, seat, "K")
    assert post(director, event_url, f"/games/{token}/lock", anyway="y").status_code == 302
    for page in (director.get(event_url + "/standings").get_data(as_text=True),):
        assert "Ranked over complete rounds only" in page and "Round under way" in page
        # Under each player's name (and in a column of its own, which the wall screen shows on a TV).
        under_way = re.findall(r'<span class="under-way">([^<]+)</span>', page)
        assert len(under_way) == 13 and "round 1, table 1: locked after hand 1 of 15, counts 0" in under_way
        assert sum(
            line.startswith("round 1, table 1: locked after hand 1 of 15, counts ") for line in under_way
        ) == len(tables[0])
        assert sum(line.endswith("hand 1 of 15, 0 so far") for line in under_way) == 13 - len(tables[0])
        assert re.findall(r'<td class="playing">([^<]+)</td>', page) == under_way
        # No round is complete: the closed table's players are placed provisionally ("prov."); those still
        # playing have no place, total or points yet ("—", not a 0 that reads as the best).
        playing = 13 - len(tables[0])
        assert page.count('<td class="num">—</td><td class="num">—</td><td class="num">—</td>') == playing
        assert page.count("placement&nbsp;— · wins&nbsp;—") == playing
        assert page.count('class="provisional-mark">prov.</small>') == len(tables[0])


def test_seating_the_next_round_while_tables_of_the_last_still_play_asks_first(director):
    event_url = new_event(director, SIXTEEN, rounds="3")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    page = planned_page(director, event_url)
    tables = proposal_in(page)
    response = post(director, event_url, "/rounds", number="2", tables=tables)
    assert response.status_code == 409
    asked = response.get_data(as_text=True)
    assert "Round 1 is still playing at tables 1, 2, 3, 4: seat round 2 anyway?" in asked
    assert 'name="anyway"' in asked and tables.strip().splitlines()[0] in asked, "the tables typed are kept"
    assert post(director, event_url, "/rounds", number="2", tables=tables, anyway="y").status_code == 302


def history_lines(page: str) -> list[str]:
    """The event history's lines as read, newest first (time stamp, what, reason)."""
    found = re.search(r'<ul class="plain event-history">(.*?)</ul>', page, re.S)
    if found is None:
        assert "No change by the director yet." in page
        return []
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [
        " ".join(html.unescape(re.sub(r"<details.*?</details>|<[^>]+>", " ", item, flags=re.S)).split())
        for item in items
    ]


def test_the_directors_corrections_at_a_table_are_on_the_event_history_but_the_players_changes_are_not(director, app):
    from tests.support.web import Table
    from tests.web.test_events import record_links

    event_url = new_event(director, SIXTEEN, rounds="3")
    planned_page(director, event_url)
    tables = seat_next_round(director, event_url)
    token = record_links(director, event_url)[1]
    player = Table(app.test_client(), token)  # a phone at the table, not the director
    player.leftovers(1, 0, went_out=True)
    player.leftovers(1, 1, "K 5")
    before = history_lines(director.get(event_url).get_data(as_text=True))
    assert not any("leftovers" in line for line in before), "a player's own entries are not the director's overrides"

    at_table = Table(director, token)
    replaced = re.search(r'name="replaces" type="hidden" value="(\d+)"', at_table.page("/hand/1/seat/1")).group(1)
    assert at_table.leftovers(1, 1, "K", replaces=replaced).status_code in (302, 303)
    lines = history_lines(director.get(event_url).get_data(as_text=True))
    corrected = f"Round 1, table 2 · Hand 1 · {tables[1][1]}'s leftovers corrected: K 5 → K"
    assert any(corrected in line for line in lines), lines
    assert lines[0].endswith(corrected), "newest first"


def test_a_reason_can_be_given_afterwards_once_and_a_double_click_keeps_one(director):
    event_url = new_event(director, SIXTEEN, rounds="3")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    from tests.web.test_events import record_links

    token = record_links(director, event_url)[0]
    assert post(director, event_url, f"/games/{token}/lock", anyway="y").status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    line = re.search(r"/history/(\d+)/reason", page).group(1)
    for _ in range(2):
        response = post(director, event_url, f"/history/{line}/reason", reason="scores agreed with the captain")
        assert response.status_code == 302
    page = director.get(event_url).get_data(as_text=True)
    assert page.count("scores agreed with the captain") == 1
    locked = "Round 1, table 1 locked before hand 1: its players missed the round"
    assert any(said.endswith(f"{locked} · scores agreed with the captain") for said in history_lines(page))

    refused = post(director, event_url, f"/history/{line}/reason", reason="another story")
    assert refused.status_code == 422
    assert "has its reason already" in refused.get_data(as_text=True)
    assert post(director, event_url, f"/games/{token}/unlock").status_code == 302
    unlocked = re.search(r"/history/(\d+)/reason", director.get(event_url).get_data(as_text=True)).group(1)
    too_long = post(director, event_url, f"/history/{unlocked}/reason", reason="x" * 201)
    page = too_long.get_data(as_text=True)
    assert too_long.status_code == 422 and 'value="' + "x" * 201 in page, "what was typed is kept"
    assert "200" in re.search(r'id="reason-' + unlocked + r'".*?</div>', page, re.S).group(0), "the error beside it"
    nowhere = post(director, event_url, "/history/999/reason", reason="why")
    assert nowhere.status_code == 422 and "not in this event's history" in html.unescape(nowhere.get_data(as_text=True))


def test_seating_by_hand_and_seating_early_are_noted_with_the_reason_given(director):
    event_url = new_event(director, SIXTEEN, rounds="3")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    page = planned_page(director, event_url)
    proposal = proposal_in(page)
    tables = [line.split(", ") for line in proposal.strip().splitlines()]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]  # two players swapped: not the plan
    by_hand = "\n".join(", ".join(table) for table in tables)
    response = post(
        director, event_url, "/rounds", number="2", tables=by_hand, anyway="y", reason="the hall closes at ten"
    )
    assert response.status_code == 302
    lines = history_lines(director.get(event_url).get_data(as_text=True))
    assert any(
        "Round 2 seated while round 1 played on at tables 1, 2, 3, 4 · the hall closes at ten" in said for said in lines
    )
    assert any("Round 2 seated by hand (" in said and said.endswith("· the hall closes at ten") for said in lines), (
        lines
    )


def test_the_round_sheet_seats_everyone_says_who_sits_out_which_tables_were_seated_by_hand_and_the_plans_quality(
    director, tmp_path
):
    from tests.support import paper

    names = [f"Player {n:02}" for n in range(1, 18)] + ["W" * 30]  # 18: two tables of 4, two of 5 or sit-outs
    event_url = new_event(director, names, rounds="4")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    assert (
        post(
            director, event_url, "/players/withdraw", **{"withdraw-name": "Player 03", "withdraw-from_round": "2"}
        ).status_code
        == 302
    )
    assert (
        post(director, event_url, "/players/late", **{"late-name": "Late Lou", "late-from_round": "2"}).status_code
        == 302
    )
    page = planned_page(director, event_url)
    proposal = proposal_in(page)
    tables = [line.split(", ") for line in proposal.strip().splitlines()]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]  # two tables not as planned
    assert (
        post(
            director, event_url, "/rounds", number="2", tables="\n".join(map(", ".join, tables)), anyway="y"
        ).status_code
        == 302
    )

    body = director.get(event_url + "/round-sheet.pdf").data
    (tmp_path / "round.pdf").write_bytes(body)
    (sheet, *more) = paper.pages(body, tmp_path)
    text = paper.squeezed(" ".join(page.text() for page in (sheet, *more)))
    assert sheet.overflowing() == []
    seated = [name for table in tables for name in table]
    playing = [name for name in names if name != "Player 03"] + ["Late Lou"]
    for number, table in enumerate(tables, start=1):
        assert paper.squeezed(f"{number}* " if number <= 2 else f"{number} ") + paper.squeezed(" ".join(table)) in text
    for name in seated:
        number = next(n for n, table in enumerate(tables, start=1) if name in table)
        seat = tables[number - 1].index(name) + 1
        assert any(page.reads(f"{name}: table {number}, seat {seat}") for page in (sheet, *more)), name
    out = sorted(set(playing) - set(seated))
    if out:
        assert paper.squeezed("Sitting out this round: " + ", ".join(out)) in text
    else:
        assert "Sitting out" not in text
    assert "Player03" not in text, "a withdrawn player is neither seated nor sitting out"
    assert paper.squeezed("Seated by hand, not as the plan had it: round 2 (tables 1, 2).") in text
    assert paper.squeezed("Repeated meetings:") in text and paper.squeezed("Most times two players meet:") in text

    standings = director.get(event_url + "/standings").get_data(as_text=True)
    assert "Seated by hand, not as the plan had it: round 2 (tables 1, 2)." in standings
    assert "Seated by hand" not in director.get(event_url + "/standings?round=1").get_data(as_text=True)
    for wrong in ("9", "0", "abc", "-1"):
        assert director.get(event_url + f"/round-sheet.pdf?round={wrong}").status_code == 404, wrong

    from scorekeeper.reports.sheets import event_sheets_html
    from scorekeeper.storage import events as event_store
    from scorekeeper.storage.event_results import progress

    db = connect(director.application.config["DATABASE"])
    try:
        event = event_store.get_event(db, int(event_url.rstrip("/").rsplit("/", 1)[1]))
        rows = progress(db, event)
        sheets = event_sheets_html(event, rows)
    finally:
        db.conn.close()
    marked = [
        (row.table.round, row.table.number)
        for row, sheet in zip(rows, sheets, strict=True)
        if "seated by hand" in sheet
    ]
    assert marked == [(2, 1), (2, 2)], "the booklet's sheets of the tables seated by hand say so"


def test_a_round_cannot_seat_a_player_withdrawn_from_it_nor_one_who_arrives_later(director):
    event_url = new_event(director, SIXTEEN, rounds="4")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    stale = planned_page(director, event_url)  # round 2's form, read before the changes below
    proposal = proposal_in(stale)
    assert (
        post(
            director, event_url, "/players/withdraw", **{"withdraw-name": "Player 05", "withdraw-from_round": "2"}
        ).status_code
        == 302
    )
    assert (
        post(director, event_url, "/players/late", **{"late-name": "Late Lou", "late-from_round": "3"}).status_code
        == 302
    )

    refused = post(director, event_url, "/rounds", number="2", tables=proposal, anyway="y")
    assert refused.status_code == 422
    line = next(n for n, text in enumerate(proposal.splitlines(), start=1) if "Player 05" in text)
    assert f"Line {line}: Player 05 is withdrawn from round 2." in refused.get_data(as_text=True)
    assert proposal.splitlines()[0] in refused.get_data(as_text=True), "what was written is kept"

    tables = [line.split(", ") for line in proposal_in(planned_page(director, event_url)).splitlines()]
    assert "Player 05" not in sum(tables, []) and "Late Lou" not in sum(tables, []), "the new plan has neither"
    tables[0][0] = "Late Lou"
    refused = post(director, event_url, "/rounds", number="2", tables="\n".join(map(", ".join, tables)), anyway="y")
    assert refused.status_code == 422
    assert "Line 1: Late Lou plays from round 3." in refused.get_data(as_text=True)


def test_a_withdrawal_between_reading_the_form_and_seating_is_refused_under_the_lock(app):
    from scorekeeper.storage import event_rounds
    from scorekeeper.storage import events as event_store
    from scorekeeper.storage.event_roster import withdraw_player

    db = connect(app.config["DATABASE"])
    try:
        event = event_store.create_event(
            db,
            "Race",
            "2026-11-22",
            "crates",
            {},
            "total",
            "none",
            [event_store.EventPlayer(name, "", "") for name in SIXTEEN],
            rounds=3,
        )
        tables = [SIXTEEN[i : i + 4] for i in range(0, 16, 4)]
        withdraw_player(db, event, "Player 02", 1)  # after the form was read, before it is sent
        with pytest.raises(event_rounds.RoundConflict, match="Player 02 is withdrawn from round 1"):
            event_rounds.add_round(db, event, tables, 1)
        assert event_store.event_tables(db, event.id) == [], "nothing seated"
    finally:
        db.conn.close()


def test_a_round_sent_again_with_other_tables_is_refused_and_the_form_proposes_the_next_round(director):
    event_url = new_event(director, SIXTEEN, rounds="4")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    shuffled = random.Random(7).sample(SIXTEEN, 16)
    other = "\n".join(", ".join(shuffled[i : i + 4]) for i in range(0, 16, 4))
    refused = post(director, event_url, "/rounds", number="1", tables=other)
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "Round 1 is seated already, with other tables" in page and "The tables sent were not seated" in page
    assert 'name="number" value="2"' in page and "Seat round 2</button>" in page
    box = proposal_in(page)
    assert box != other and box == proposal_in(planned_page(director, event_url)), "round 2's proposal, not round 1's"


def test_a_player_without_a_complete_round_shows_no_total_or_points_on_the_web_the_wall_and_the_pdf(director, tmp_path):
    """Seen at a fresh event: a late arrival listed with Total 0, Placement 0, Wins 0, which in Crates (low wins)
    reads as the best score. Without a complete round a player has none of them: "—", as for the place."""
    from tests.reports.test_paper_checks import pdf_text
    from tests.support.web import Table
    from tests.web.test_events import record_links

    event_url = new_event(director, ["Ann", "Bob", "Cy", "Di"], rounds="3")
    planned_page(director, event_url)
    (seats,) = seat_next_round(director, event_url)
    (token,) = record_links(director, event_url)
    table = Table(director, token)
    for seat in range(4):
        table.leftovers(1, seat, "" if seat == 0 else "K", went_out=seat == 0)
    assert post(director, event_url, f"/games/{token}/lock", anyway="y").status_code == 302  # round 1 complete
    late = post(director, event_url, "/players/late", **{"late-name": "Eve", "late-from_round": "2"})
    assert late.status_code == 302

    no_round = '<tr><td>—</td><td>Eve<span class="tie-breaks">placement&nbsp;— · wins&nbsp;— · tables&nbsp;0 (+1&nbsp;missed)</span></td><td class="num">—</td><td class="num">—</td><td class="num">—</td><td class="num">0'
    # Round 1 locked after hand 1: prorated by default, 0 points stay 0, and the standings say how.
    how = '<span class="how small muted">round 1: locked after hand 1 of 15, prorated: 0 × 71 ÷ 8 cards = 0</span>'
    ranked = rf'<tr><td>1</td><td>{seats[0]}{how}<span class="tie-breaks">placement&nbsp;3 · wins&nbsp;1 · tables&nbsp;1</span></td><td class="num">0</td><td class="num">3</td><td class="num">1</td>'
    wall = re.search(r'href="http://localhost(/e/[\w-]+/)"', planned_page(director, event_url)).group(1)
    for name, page in {
        "standings": director.get(event_url + "/standings").get_data(as_text=True),
        "wall": director.application.test_client().get(wall).get_data(as_text=True),
    }.items():
        assert no_round in page and ranked in page, name
        assert "A player without a complete round yet has no place, total or points (—)." in page, name
    text = pdf_text(director.get(event_url + "/standings.pdf").data, tmp_path)
    assert re.search(r"^\s*—\s+Eve\s+—\s+—\s+—\s+0\s+\(\+1 missed\)", text, re.M), text
    assert re.search(rf"^\s*1\s+{seats[0]}\s+0\s+3\s+1\s+1\b", text, re.M), text


def test_a_second_tab_sending_a_round_seated_early_meanwhile_is_not_asked_about_it_again(director):
    """Seen at a fresh event: round 2 seated 'anyway' in one tab while round 1 played; the other
    tab's round-2 form was asked 'seat round 2 anyway?' under a form for round 3, and answering
    seated round 2's tables again as round 3."""
    event_url = new_event(director, SIXTEEN, rounds="4")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    tables = proposal_in(planned_page(director, event_url))
    assert post(director, event_url, "/rounds", number="2", tables=tables, anyway="y").status_code == 302
    again = post(director, event_url, "/rounds", number="2", tables=tables)  # the same tables: seated already
    assert again.status_code == 302 and "Round 2 is seated already" in director.get(event_url).get_data(as_text=True)
    lines = tables.splitlines()
    other = "\n".join([lines[1], lines[0], *lines[2:]])  # the same tables, numbered otherwise
    refused = post(director, event_url, "/rounds", number="2", tables=other)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 409 and "anyway?" not in page and 'name="anyway"' not in page
    assert "Round 2 is seated already, with other tables" in page and 'name="number" value="3"' in page
    assert proposal_in(page) == proposal_in(planned_page(director, event_url)), "round 3's proposal"


def test_a_locked_tables_sheet_says_it_was_closed_not_in_progress(director):
    from scorekeeper.reports.sheets import event_sheets_html
    from scorekeeper.storage import events as event_store
    from scorekeeper.storage.event_results import progress
    from tests.support.web import Table
    from tests.web.test_events import record_links

    event_url = new_event(director, SIXTEEN[:8], rounds="2")
    planned_page(director, event_url)
    seat_next_round(director, event_url)
    closed, playing = record_links(director, event_url)
    for token in (closed, playing):
        table = Table(director, token)
        table.leftovers(1, 0, went_out=True)
        for seat in (1, 2, 3):
            table.leftovers(1, seat, "K")
    assert post(director, event_url, f"/games/{closed}/lock", anyway="y").status_code == 302
    db = connect(director.application.config["DATABASE"])
    try:
        event = event_store.get_event(db, int(event_url.rstrip("/").rsplit("/", 1)[1]))
        first, second = event_sheets_html(event, progress(db, event))
    finally:
        db.conn.close()
    assert "1 of 15 hands (locked by the director after hand 1 of 15, prorated)" in first and "in progress" not in first
    assert "1 of 15 hands (in progress)" in second and "Standings so far" in second
    assert "Standings when locked, as played" in first

    empty_url = new_event(director, SIXTEEN[8:], rounds="2")
    planned_page(director, empty_url)
    seat_next_round(director, empty_url)
    never = record_links(director, empty_url)[0]
    assert post(director, empty_url, f"/games/{never}/lock", anyway="y").status_code == 302
    db = connect(director.application.config["DATABASE"])
    try:
        event = event_store.get_event(db, int(empty_url.rstrip("/").rsplit("/", 1)[1]))
        sheet = event_sheets_html(event, progress(db, event))[0]
    finally:
        db.conn.close()
    assert "(locked by the director before hand 1: counted as missed)" in sheet and "counts for nobody" in sheet
    assert "Standings" not in sheet, "no places of 0 points that read as a four-way win"


# -- Tables of three or five: the director's choice ------------------------------------------------

THIRTEEN = [f"Player {n:02}" for n in range(1, 14)]


def proposed_sizes(page: str) -> list[int]:
    return sorted(len(line.split(", ")) for line in proposal_in(page).splitlines())


def quality_lines(page: str) -> list[str]:
    found = re.search(r'<ul class="plain plan-quality"[^>]*>(.*?)</ul>', page, re.S)
    return [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split())
        for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    ]


def test_the_event_form_chooses_threes_and_the_plan_says_how_fives_would_do_and_the_choice_can_change(director):
    event_url = new_event(director, THIRTEEN, rounds="4", odd_tables="threes")
    page = planned_page(director, event_url)
    assert proposed_sizes(page) == [3, 3, 3, 4]
    lines = quality_lines(page)
    assert any(
        line.startswith("Most times two players meet: ") and "(no plan can have fewer than " in line for line in lines
    )
    assert any(line.startswith("Tables of three or five: a player sits at one in ") for line in lines)
    assert [line for line in lines if line.startswith("With tables of five instead: most times two players meet ")]
    response = post(director, event_url, "/odd-tables", odd_tables="fives")
    assert response.status_code == 302
    flashed = director.get(response.headers["Location"]).get_data(as_text=True)
    assert "Beside the tables of four: tables of five. The plan is made again." in flashed
    page = planned_page(director, event_url)
    assert proposed_sizes(page) == [4, 4, 5]
    assert [line for line in quality_lines(page) if line.startswith("With tables of three instead: ")]
    assert history_lines(page)[0].endswith("Beside the tables of four: tables of five")
    seat_next_round(director, event_url)
    page = planned_page(director, event_url)
    assert not [line for line in quality_lines(page) if line.startswith("With tables of")], "once started, no more"


def test_an_odd_table_choice_that_is_none_of_them_is_refused_beside_its_field(director):
    data = {"odd_tables": "sevens", "rounds": "3"}
    from tests.web.test_events import event_form

    response = director.post("/director/events/new", data=event_form(director, THIRTEEN, **data))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="odd_tables-error"[^>]*>\s*Not a valid choice', page) or "Not a valid choice" in page
    assert "Player 13" in page, "the form keeps what was typed"
    event_url = new_event(director, THIRTEEN, rounds="3")
    response = post(director, event_url, "/odd-tables", odd_tables="sevens")
    assert response.status_code == 422 and "Not a valid choice" in response.get_data(as_text=True)
