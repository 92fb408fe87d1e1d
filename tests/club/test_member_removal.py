"""A player who leaves may ask for their name to go: it is replaced by "a former member"
everywhere (the database's very bytes, every page, export and sheet), and every result stays."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from scorekeeper.club.members import FORMER_MEMBER, MemberRefusal
from scorekeeper.club.privacy import NameSwap, former_name
from scorekeeper.gamelog.entries import CONFIRM, LEFTOVERS, NOTE, Change
from scorekeeper.storage import club_results, event_roster, event_rounds, member_removal
from scorekeeper.storage import events as event_store
from scorekeeper.storage.event_plans import make_plan, plan_inputs, save_plan, stored_plan
from scorekeeper.storage.events import EventPlayer
from scorekeeper.storage.games import append, game_by_record_token, load_state
from scorekeeper.storage.member_merges import merge_members
from scorekeeper.storage.members import add_member, all_members, club_history, edit_member, get_member
from scorekeeper.storage.player_results import player_results
from scorekeeper.web import booklets
from tests.support.club import club_db, new_event, play, seat
from tests.support.web import csrf_token

ZOE = "Zoë Ångström"
#: How she was first written on the list, before the director corrected the spelling.
FIRST_SPELLING = "Zoe Angstrom"
OTHERS = ["Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def zoes_club(db):
    """Zoë, first listed as "Zoe Angstrom" (number 77, club North), plays two evenings: hands
    confirmed on other phones (the first evening checks them), notes about her, a late
    arrival's line, her withdrawal with a reason naming her, a stored plan of the evening, and a
    round seated by mistake and withdrawn."""
    zoe, _ = add_member(db, FIRST_SPELLING, "North", "77", "director")
    edit_member(db, zoe.id, ZOE, "North", "77", False, "director")
    first = new_event(db, [(ZOE, "", "77"), *OTHERS], name="Club night", held_on="2026-11-02", verify=True, rounds=3)
    event_roster.add_late_player(db, event_store.get_event(db, first.id), EventPlayer("Ivy", "", "", 2), "")
    one, two = seat(db, first, [[ZOE, "Bob", "Cy", "Di"], ["Ed", "Flo", "Gus", "Hal"]])
    play(db, one, {ZOE: 1, "Bob": 2, "Cy": 3, "Di": 4}, at="2026-11-02T20:00:00+00:00")
    play(db, two, {"Ed": 1, "Flo": 2, "Gus": 3, "Hal": 4}, at="2026-11-02T20:05:00+00:00")
    append(db, one.game, Change(CONFIRM, 1, ZOE, {"source": "phone-2"}), "c1", "phone-2", True)
    append(
        db, one.game, Change(NOTE, 2, None, {"text": f"{ZOE.upper()} held the 8; Bob saw it"}), "n1", "director", True
    )
    event_roster.withdraw_player(db, event_store.get_event(db, first.id), ZOE, 3, f"{ZOE} went home early")
    inputs = plan_inputs(db, first)
    assert save_plan(db, first, inputs, make_plan(inputs, None, 0.2))
    second = new_event(db, [(ZOE, "", "77"), "Bob", "Cy", "Di"], name="Next week", held_on="2026-11-09")
    (three,) = seat(db, second, [["Bob", ZOE, "Cy", "Di"]])
    play(db, three, {ZOE: 2, "Bob": 1, "Cy": 3, "Di": 4}, at="2026-11-09T20:00:00+00:00")
    append(db, three.game, Change(NOTE, 1, None, {"text": "zoë ångström dealt"}), "n2", "director", True)
    seat(db, second, [[ZOE, "Bob", "Cy", "Di"]])  # a round seated by mistake, and withdrawn: its game stays
    assert event_rounds.withdraw_round(db, second, 2)
    return get_member(db, zoe.id), first, second


def traces(name: str) -> list[bytes]:
    """What a name would leave in the file: as written, in any case, and escaped inside JSON."""
    forms = {name, name.casefold(), name.upper()}
    return [form.encode() for form in forms] + [json.dumps(form)[1:-1].encode() for form in forms]


def results_of(db, member_id):
    club_results.bring_up_to_date(db)
    results = player_results(db, member_id)
    evenings = [(e.name, e.place, e.ranked, e.total, e.tables, e.wins, e.missed) for e in results.evenings]
    partners = [(m.id, n) for m, n in results.partners]
    opponents = sorted((m.id, n) for m, n in results.opponents)
    return evenings, results.tables, results.wins, results.rating, partners, opponents


def test_the_name_leaves_the_databases_bytes_and_every_result_stays(db, tmp_path):
    zoe, first, second = zoes_club(db)
    before = {m.id: results_of(db, m.id) for m in all_members(db)}
    standings_before = db.execute("SELECT * FROM club_standings ORDER BY event_id, member_id").fetchall()
    data = (tmp_path / "club.db").read_bytes() + (tmp_path / "club.db-wal").read_bytes()
    assert all(data.count(trace) for trace in traces(ZOE)[:2])  # there before
    removal = member_removal.remove_member(db, zoe.id, "director")
    assert removal is not None and removal.checkpointed and removal.evenings == 2
    for suffix in ("", "-wal"):
        raw = (tmp_path / f"club.db{suffix}").read_bytes()
        for name in (ZOE, FIRST_SPELLING, "North"):
            assert not any(trace in raw for trace in traces(name)), (suffix, name)
    dump = "\n".join(db.conn.iterdump())
    assert ZOE.casefold() not in dump.casefold() and "angstrom" not in dump.casefold()
    assert {m.id: results_of(db, m.id) for m in all_members(db)} == {m: r for m, r in before.items() if m != zoe.id}
    assert results_of(db, zoe.id) == before[zoe.id]
    assert db.execute("SELECT * FROM club_standings ORDER BY event_id, member_id").fetchall() == standings_before
    removed = get_member(db, zoe.id)
    assert (removed.name, removed.club, removed.number, removed.removed) == (FORMER_MEMBER, "", None, True)
    assert club_history(db)[0].what == "A member's name removed (2 evenings' results kept)"


def zoe_moved_without_secure_delete(db):
    """Zoë's club, on a connection as SQLite built without ``secure_delete`` on by default makes
    it; her row then grows, and moves, leaving its old copy in the page's free space."""
    db.execute("PRAGMA secure_delete = OFF")
    zoe, *_ = zoes_club(db)
    db.execute("UPDATE members SET club = ? WHERE id = ?", ["A club of a long name " * 12, zoe.id])
    return zoe


def test_a_copy_an_earlier_change_left_in_free_space_is_rewritten_away(db, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = club_db(elsewhere)
    zoe = zoe_moved_without_secure_delete(other)
    monkeypatch.setattr(member_removal, "vacuum", lambda db: None)
    assert member_removal.remove_member(other, zoe.id, "director").rewritten
    assert ZOE.encode() in (elsewhere / "club.db").read_bytes()  # left there without the rewrite
    other.conn.close()
    monkeypatch.undo()
    zoe = zoe_moved_without_secure_delete(db)
    removal = member_removal.remove_member(db, zoe.id, "director")
    assert removal is not None and removal.rewritten and removal.checkpointed
    for suffix in ("", "-wal"):
        raw = (tmp_path / f"club.db{suffix}").read_bytes()
        assert not any(trace in raw for trace in traces(ZOE)), suffix


def test_she_is_a_former_member_at_every_table_log_and_history(db):
    zoe, first, second = zoes_club(db)
    member_removal.remove_member(db, zoe.id, "director")
    one = event_store.event_tables(db, first.id)[0]
    assert one.game.game.players == (FORMER_MEMBER, "Bob", "Cy", "Di")
    assert one.game.game.dealer(1) == FORMER_MEMBER
    state = load_state(db, one.game)
    assert state.confirmations[1][0].player == FORMER_MEMBER
    assert state.notes[2][0].data["text"] == f"{FORMER_MEMBER} held the 8; Bob saw it"
    assert state.complete_hands == 12 and state.score.sides[0].side.name == FORMER_MEMBER
    three = event_store.event_tables(db, second.id)[0]
    assert load_state(db, three.game).notes[1][0].data["text"] == f"{FORMER_MEMBER} dealt"
    assert [p.name for p in event_store.event_players(db, first.id)][0] == FORMER_MEMBER
    assert event_roster.event_history(db, first.id)[0].what == f"{FORMER_MEMBER} withdrawn from round 3 on"
    assert event_roster.event_history(db, first.id)[0].reason == f"{FORMER_MEMBER} went home early"
    plan = stored_plan(db, first.id)
    assert plan is not None and FORMER_MEMBER in json.dumps(plan.plan.rounds)
    assert plan.stands(plan_inputs(db, event_store.get_event(db, first.id)))  # still the event's plan
    assert all("Zo" not in line.what for line in club_history(db))


def test_two_former_members_at_one_table_are_told_apart(db):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di"])
    (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])
    play(db, table, {"Ann": 1, "Bob": 2, "Cy": 3, "Di": 4})
    players = {p.name: p.member_id for p in event_store.event_players(db, event.id)}
    member_removal.remove_member(db, players["Ann"], "director")
    member_removal.remove_member(db, players["Cy"], "director")
    game = event_store.event_tables(db, event.id)[0].game.game
    assert game.players == (FORMER_MEMBER, "Bob", f"{FORMER_MEMBER} (2)", "Di")
    assert load_state(db, event_store.event_tables(db, event.id)[0].game).complete_hands == 12
    assert former_name([FORMER_MEMBER, f"{FORMER_MEMBER} (2)"]) == f"{FORMER_MEMBER} (3)"


def test_another_players_name_holding_hers_is_left_alone():
    swap = NameSwap(("Ann",), FORMER_MEMBER, ("Ann Lee",))
    assert swap.text("Ann Lee went out; ANN held the 8 (ann's call)") == (
        f"Ann Lee went out; {FORMER_MEMBER} held the 8 ({FORMER_MEMBER}'s call)"
    )
    assert swap.text("Annabel and Joanna") == "Annabel and Joanna"  # whole words only
    assert swap.data({"cards": ["A", "Ann"], "text": "Ann"}) == {"cards": ["A", "Ann"], "text": FORMER_MEMBER}


def test_a_note_naming_her_by_one_of_her_names_loses_it_unless_another_player_shares_it():
    """Seen in the fresh-clone check: "Maximiliana redeals. Wolfeschlegelstein agreed." kept both
    words once the full name was gone. Each word of her names goes too, unless another player at
    the event has it in their name (then it names nobody in particular)."""
    from scorekeeper.club.privacy import NameSwap, name_parts

    names = ("Maximiliana Wolfeschlegelstein", "Fay Wray")
    parts = name_parts(names, ["Fay Dunaway", "Bob Stone"])
    assert parts == ("Maximiliana", "Wolfeschlegelstein", "Wray")
    swap = NameSwap(names, FORMER_MEMBER, (), parts)
    note = (
        "Maximiliana Wolfeschlegelstein misdealt; ruling: Maximiliana redeals. Wolfeschlegelstein agreed, Fay W. too."
    )
    assert swap.text(note) == (
        f"{FORMER_MEMBER} misdealt; ruling: {FORMER_MEMBER} redeals. {FORMER_MEMBER} agreed, Fay W. too."
    )
    short = NameSwap(("May Lee",), FORMER_MEMBER, (), name_parts(("May Lee",), []))
    assert short.text("May said Lee may redeal") == f"{FORMER_MEMBER} said {FORMER_MEMBER} may redeal"


def test_the_entries_merged_into_her_lose_their_names_too(db):
    zoe, *_ = zoes_club(db)
    other = new_event(db, ["Zoe A.", "Ed"], name="Elsewhere", held_on="2026-12-01")
    alias = event_store.event_players(db, other.id)[0].member_id
    merge_members(db, zoe.id, alias, "director")
    member_removal.remove_member(db, zoe.id, "director")
    assert get_member(db, alias).name == FORMER_MEMBER and get_member(db, alias).removed
    assert [p.name for p in event_store.event_players(db, other.id)] == [FORMER_MEMBER, "Ed"]
    assert "Zoe A." not in " ".join(line.what for line in club_history(db))
    assert all(not line.undoable for line in club_history(db))  # her merge cannot be undone exactly now


def test_a_removal_twice_is_made_once_and_a_merged_entry_is_not_removed_alone(db):
    zoe, *_ = zoes_club(db)
    other = new_event(db, ["Zoe A.", "Ed"], name="Elsewhere", held_on="2026-12-01")
    alias = event_store.event_players(db, other.id)[0].member_id
    merge_members(db, zoe.id, alias, "director")
    with pytest.raises(MemberRefusal, match=f"Zoe A. was merged into {ZOE}: remove that member's name"):
        member_removal.remove_member(db, alias, "director")
    assert member_removal.remove_member(db, zoe.id, "director") is not None
    assert member_removal.remove_member(db, zoe.id, "director") is None
    assert sum("name removed" in line.what for line in club_history(db)) == 1


def test_a_game_remembered_by_this_process_is_read_again_after_a_removal(db):
    event = new_event(db, ["Ann", "Bob", "Cy", "Di"])
    (table,) = seat(db, event, [["Ann", "Bob", "Cy", "Di"]])
    stale = game_by_record_token(db, table.game.record_token)
    append(db, stale, Change(LEFTOVERS, 1, "Ann", {"cards": ["4"]}), "a1", "phone")
    assert load_state(db, stale).version == 1
    ann = next(p.member_id for p in event_store.event_players(db, event.id) if p.name == "Ann")
    member_removal.remove_member(db, ann, "director")
    fresh = game_by_record_token(db, table.game.record_token)
    assert fresh.game.players[0] == FORMER_MEMBER
    assert list(load_state(db, fresh).leftovers) == [(1, FORMER_MEMBER)]
    # A save checked against the row read before the removal is checked again against the new one.
    saved = append(db, stale, Change(LEFTOVERS, 1, "Bob", {"cards": []}), "b1", "phone")
    assert saved.state.game.players[0] == FORMER_MEMBER
    with pytest.raises(Exception, match="not a player|Ann"):
        append(db, stale, Change(LEFTOVERS, 1, "Ann", {"cards": []}), "a2", "phone")


# The director's pages, and every page, export and sheet the app makes.


def the_pages(client, event, tables) -> dict[str, str]:
    """Every page of the event and its tables a director, a player or a spectator can open."""
    paths = [
        f"/director/events/{event.id}",
        f"/director/events/{event.id}/standings",
        f"/director/events/{event.id}/export.csv",
        f"/director/events/{event.id}/export.json",
        f"/e/{event.wall_token}/",
        "/director/players/",
        "/club/",
    ]
    for table in tables:
        for base in (f"/t/{table.game.record_token}/", f"/v/{table.game.view_token}/"):
            paths.append(base)
            page = client.get(base).get_data(as_text=True)
            paths += sorted(set(re.findall(rf'href="({re.escape(base)}[^"#?]*)', page)) - {base + "sheet.pdf"})
        paths += [f"/t/{table.game.record_token}/copy.json", f"/t/{table.game.record_token}/export.json"]
    pages = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        pages[path] = response.get_data(as_text=True)
    return pages


def sheet_text(client, table, tmp_path: Path) -> str:
    response = client.get(f"/t/{table.game.record_token}/sheet.pdf")
    assert response.status_code == 200
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.data)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_no_page_export_or_sheet_shows_a_removed_players_name(director, app, tmp_path):
    zoe, first, second = zoes_club(director.db)
    tables = event_store.event_tables(director.db, first.id)
    member_page = f"/director/players/{zoe.id}"
    assert any(ZOE in page for page in the_pages(director, first, tables).values())
    assert ZOE in sheet_text(director, tables[0], tmp_path)
    # A booklet of the evening and a locked table's kept sheet, as the booklet leaves them.
    folder = Path(app.instance_path) / booklets.FOLDER / booklets.SHEETS
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "CODE-0123456789abcdef.pdf").write_bytes(ZOE.encode())
    (folder.parent / "job1.json").write_text(json.dumps({"state": "done", "event": first.id, "started": 1}))
    (folder.parent / "job1.pdf").write_bytes(ZOE.encode())
    (folder.parent / "job2.json").write_text(json.dumps({"state": "done", "event": 999, "started": 2}))
    # Another evening's published pages: a player's page there may name her among those met most.
    (folder.parent / "job3.json").write_text(
        json.dumps({"state": "done", "event": 999, "started": 3, "kind": booklets.PUBLISHED})
    )
    (folder.parent / "job3.zip").write_bytes(ZOE.encode())

    question = director.get(member_page + "/remove").get_data(as_text=True)
    assert f"Remove {ZOE}'s name for good?" in question and "This cannot be undone." in question
    assert "Printed sheets of their tables will no longer match their verification codes" in question
    token = csrf_token(director, member_page + "/remove")
    assert director.post(member_page + "/remove").status_code == 400  # no CSRF token
    response = director.post(member_page + "/remove", data={"csrf_token": token})
    assert response.status_code == 302 and response.headers["Location"].endswith("/director/players/")
    listing = director.get(response.headers["Location"]).get_data(as_text=True)
    assert "The player&#39;s name is removed: their 2 evenings stand under “a former member”." in listing
    assert "A member&#39;s name removed (2 evenings&#39; results kept)" in listing

    pages = the_pages(director, first, tables) | the_pages(
        director, second, event_store.event_tables(director.db, second.id)
    )
    pages[member_page] = director.get(member_page).get_data(as_text=True)
    assert director.get(f"/club/players/{zoe.id}").status_code == 404  # no public page for a former member
    for path, page in pages.items():
        for name in (ZOE, FIRST_SPELLING, json.dumps(ZOE)[1:-1]):
            assert name.casefold() not in page.casefold(), (path, name)
    assert FORMER_MEMBER in pages[f"/director/events/{first.id}/standings"]
    assert "<h1>a former member</h1>" in pages[member_page] and "edit-member" not in pages[member_page]
    text = sheet_text(director, tables[0], tmp_path)
    assert ZOE not in text and "Angstr" not in text and "former member" in text
    assert not (folder / "CODE-0123456789abcdef.pdf").exists() and not (folder.parent / "job1.pdf").exists()
    assert not (folder.parent / "job3.zip").exists() and not (folder.parent / "job3.json").exists()
    assert (folder.parent / "job2.json").exists()  # another event's booklet stays
    again = director.post(member_page + "/remove", data={"csrf_token": token})
    assert "was removed already" in director.get(again.headers["Location"]).get_data(as_text=True)


def test_the_removal_is_asked_first_and_a_removed_member_has_no_question_page(director):
    zoe, *_ = zoes_club(director.db)
    page = director.get(f"/director/players/{zoe.id}").get_data(as_text=True)
    assert f'href="/director/players/{zoe.id}/remove"' in page
    assert get_member(director.db, zoe.id).name == ZOE  # asking changes nothing
    member_removal.remove_member(director.db, zoe.id, "director")
    assert director.get(f"/director/players/{zoe.id}/remove").status_code == 404
