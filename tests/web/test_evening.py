"""The evening as it happens: a round's finished tables locked in one press, a table locked as its
game ends, the round's clock and what happens at time, and what a locked table's phones show."""

import asyncio
import json
import re
import threading
import time

from tests.support.web import Table, csrf_token
from tests.web.test_events import new_event, record_links, seat_next_round

EIGHT = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
OUTBOX = {"X-Requested-With": "outbox", "Accept": "application/json"}


def play_hand(table: Table, hand: int) -> None:
    table.leftovers(hand, 0, went_out=True)
    for seat in (1, 2, 3):
        table.leftovers(hand, seat, "K")


def finish(table: Table) -> None:
    for hand in range(1, 16):
        play_hand(table, hand)


def phone(director, token: str) -> Table:
    return Table(director.application.test_client(), token)


def history(director, event_url: str) -> list[str]:
    page = director.get(event_url).get_data(as_text=True)
    part = page.split('id="history"', 1)[1]
    return [
        re.sub(r"<[^>]+>", "", line).split(" · ", 1)[1].strip().split("\n")[0]
        for line in re.findall(r"<li id=\"line-\d+\">(.*?)</li>", part, re.S)
    ]


def locked(director, token: str) -> bool:
    return bool(director.db.execute("SELECT locked FROM games WHERE record_token = ?", [token]).fetchone()[0])


def press(director, event_url: str, path: str, **data: object):
    return director.post(event_url + path, data={"csrf_token": csrf_token(director, event_url), **data})


def test_lock_finished_tables_locks_every_finished_table_of_the_round_once(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    playing, done = record_links(director, event_url)
    play_hand(phone(director, playing), 1)
    finish(phone(director, done))
    first = press(director, event_url, "/rounds/1/lock-finished")
    again = press(director, event_url, "/rounds/1/lock-finished")  # a double click
    assert first.status_code == again.status_code == 302
    assert locked(director, done) and not locked(director, playing)
    lines = history(director, event_url)
    assert lines.count("Round 1, table 2 locked (finished tables locked)") == 1
    assert not any("table 1 locked" in line for line in lines)
    page = director.get(event_url).get_data(as_text=True)
    assert "No finished table is left unlocked." in page


def test_an_event_that_locks_at_the_end_locks_a_table_as_its_last_hand_is_saved(director):
    event_url = new_event(director, EIGHT, lock_at_end="y")
    plain_url = new_event(director, EIGHT)
    for url in (event_url, plain_url):
        seat_next_round(director, url)
    token = record_links(director, event_url)[0]
    plain = record_links(director, plain_url)[0]
    table = phone(director, token)
    for hand in range(1, 15):
        play_hand(table, hand)
    assert not locked(director, token), "not before its game ends"
    play_hand(table, 15)
    finish(phone(director, plain))
    assert locked(director, token) and not locked(director, plain)
    assert "Round 1, table 1 locked (its game ended)" in history(director, event_url)
    refused = table.client.post(
        f"/t/{token}/note",
        data={"csrf_token": csrf_token(table.client, f"/t/{token}/scores"), "hand": 15, "text": "late", "idem": "x1"},
        headers=OUTBOX,
    )
    assert refused.status_code == 422 and "locked by the director" in refused.get_json()["error"]
    assert refused.get_json()["locked"] is True, "the phone is told to show the lock"


def test_the_event_form_offers_to_lock_at_the_end(director):
    page = director.get("/director/events/new").get_data(as_text=True)
    assert 'name="lock_at_end"' in page and "Lock each table when its game ends" in page


def test_a_locked_tables_phones_hear_of_it_and_lose_their_buttons(director):
    event_url = new_event(director, EIGHT[:4])
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    player = phone(director, token)
    player.pressure("Ann", 1)
    before = player.client.get(f"/t/{token}/version").get_json()["version"]
    view = re.search(r'href="[^"]*/v/([\w-]+)/"', player.page("/share"))
    assert view, "the share page gives the view link"
    page = player.page("/")
    assert "END HAND" in page and "PRESSURE" in page and "Locked by the director" not in page
    assert f'data-version="{before}"' in page
    press(director, event_url, f"/games/{token}/lock", anyway="y")
    after = player.client.get(f"/t/{token}/version", headers={"If-None-Match": str(before)})
    assert after.status_code == 200 and after.get_json()["version"] != before, "the lock is news to the phone"
    page = player.page("/")
    assert "Locked by the director" in page and "END HAND" not in page and "PRESSURE" not in page
    assert f'data-version="{after.get_json()["version"]}"' in page, "the page is what the phone now follows"
    assert "disabled" in player.page("/hand/1/seat/0").split("data-save", 1)[1].split(">", 1)[0]
    # Seen at an evening: the page of the hand in play kept its Enter buttons, the missed-pressure
    # panel and the note form; the share page offered "Go to hand 1".
    detail = player.page("/hand/1")
    for offered in (">Enter<", ">Correct<", "Add a pressure that was missed", "Add note", ">Remove<"):
        assert offered not in detail, offered
    assert "This table was locked before this hand was complete" in detail
    assert "Go to hand" not in player.page("/share")
    director_detail = director.get(f"/t/{token}/hand/1").get_data(as_text=True)
    assert ">Enter<" in director_detail and "Add note" in director_detail, "the director still may"
    assert "END HAND" in director.get(f"/t/{token}/").get_data(as_text=True), "the director still corrects it"
    if view:
        viewer = director.application.test_client()
        shown = viewer.get(f"/v/{view.group(1)}/").get_data(as_text=True)
        polled = viewer.get(f"/v/{view.group(1)}/version").get_json()["version"]
        assert f'data-version="{polled}"' in shown
        assert "Locked by the director.</strong> This table's result stands as it is." in shown, "spectators told"


def clock_mark(director, event_url: str) -> str:
    return re.search(r'name="mark" value="([^"]+)"', director.get(event_url).get_data(as_text=True)).group(1)


def test_the_round_clock_is_started_paused_resumed_extended_and_stopped_once_each(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    refused = press(director, event_url, "/rounds/1/clock", minutes="0")
    assert refused.status_code == 422 and "Start round 1" in refused.get_data(as_text=True)
    for _ in range(2):  # a double click starts it once
        assert press(director, event_url, "/rounds/1/clock", minutes="30").status_code == 302
    left = int(re.search(r'data-left="(\d+)"', phone(director, token).page("/")).group(1))
    assert 1790 <= left <= 1800
    for action, extra in (("pause", {}), ("resume", {}), ("extend", {"minutes": "5"}), ("stop", {})):
        mark = clock_mark(director, event_url)
        for _ in range(2):  # the same button twice: the clock has moved, the second does nothing
            assert press(director, event_url, f"/rounds/1/clock/{action}", mark=mark, **extra).status_code == 302
    lines = [line for line in history(director, event_url) if "clock" in line]
    assert [re.sub(r"\d+:\d\d", "M:SS", line) for line in reversed(lines)] == [
        "Round 1 clock started: 30 minutes",
        "Round 1 clock paused with M:SS left",
        "Round 1 clock resumed with M:SS left",
        "Round 1 clock extended by 5 minutes",
        "Round 1 clock stopped with M:SS left",
    ]
    assert "data-round-clock" not in phone(director, token).page("/")


def test_a_clock_start_reaches_the_rounds_phones_and_the_wall(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    wall = re.search(r'href="http://[^"]+(/e/[\w-]+/)"', director.get(event_url).get_data(as_text=True)).group(1)
    screen = director.application.test_client()
    table_before = screen.get(f"/t/{token}/version").get_json()["version"]
    wall_before = screen.get(wall + "version").get_json()["version"]
    press(director, event_url, "/rounds/1/clock", minutes="45")
    assert screen.get(f"/t/{token}/version").get_json()["version"] != table_before
    assert screen.get(wall + "version").get_json()["version"] != wall_before
    assert re.search(r'data-round-clock data-left="(26\d\d|2700)"', screen.get(wall).get_data(as_text=True))
    # Seen on an evening: every table locked, the event page said the clock had nothing left to
    # time and the phones showed none, but the wall counted on ("Time: finish the hand in play").
    tokens = record_links(director, event_url)
    for locking in tokens:
        shown = screen.get(wall + "version").get_json()["version"]
        assert "data-round-clock" in screen.get(wall).get_data(as_text=True)
        press(director, event_url, f"/games/{locking}/lock", anyway="y")
        assert screen.get(wall + "version").get_json()["version"] != shown, "the wall hears of each lock"
    assert "data-round-clock" not in screen.get(wall).get_data(as_text=True)


def time_up(director, event_url: str) -> None:
    """The round's clock started, then its deadline passed (as if its minutes had gone by)."""
    press(director, event_url, "/rounds/1/clock", minutes="30")
    director.db.execute("UPDATE round_clocks SET deadline = ?", [time.time() - 1])
    director.db.conn.commit()


def test_at_time_a_table_between_hands_is_locked_at_once_and_one_mid_hand_once_its_hand_ends(director):
    from scorekeeper.storage.evening import settle_due

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    mid_hand, between = record_links(director, event_url)
    playing = phone(director, mid_hand)
    play_hand(playing, 1)
    first = json.loads(
        director.db.execute("SELECT players FROM games WHERE record_token = ?", [mid_hand]).fetchone()[0]
    )[0]
    assert playing.pressure(first, 2).status_code == 302
    play_hand(phone(director, between), 1)
    time_up(director, event_url)
    assert settle_due(director.db) == 1, "no page is read: the live process's check"
    assert locked(director, between) and not locked(director, mid_hand)
    for seat in range(4):
        assert not locked(director, mid_hand)
        playing.leftovers(2, seat, went_out=seat == 0, cards="" if seat == 0 else "K")
    assert locked(director, mid_hand), "its hand in play complete: locked as it stands"
    lines = history(director, event_url)
    assert "Round 1, table 2 locked at time, as it stood after hand 1 of 15, prorated" in lines
    assert "Round 1, table 1 locked at time, as it stood after hand 2 of 15, prorated" in lines
    assert settle_due(director.db) == 0


def test_at_time_a_table_that_finished_and_was_left_open_is_locked_too(director):
    """Seen on a director's evening: the round's time came, the finished tables stayed open (and
    changeable), though every table is locked at time."""
    from scorekeeper.storage.evening import settle_due

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    finished, _ = record_links(director, event_url)
    finish(phone(director, finished))
    assert not locked(director, finished)
    time_up(director, event_url)
    assert settle_due(director.db) == 2 and locked(director, finished)
    assert "Round 1, table 1 locked at time, its game ended" in history(director, event_url)


def test_a_one_minute_clock_is_said_in_the_singular(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    press(director, event_url, "/rounds/1/clock", minutes="1")
    assert "Round 1 clock started: 1 minute" in history(director, event_url)


def test_a_stopped_clock_locks_nothing(director):
    from scorekeeper.storage.evening import settle_due

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    press(director, event_url, "/rounds/1/clock", minutes="30")
    press(director, event_url, "/rounds/1/clock/stop", mark=clock_mark(director, event_url))
    director.db.execute("UPDATE round_clocks SET deadline = ?", [time.time() - 1])
    director.db.conn.commit()
    assert settle_due(director.db) == 0 and not locked(director, token)
    assert director.get(event_url).status_code == 200 and not locked(director, token)


def test_the_live_process_keeps_time_with_no_page_open(director, app):
    from scorekeeper.web.live import keep_time

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    time_up(director, event_url)

    async def run_for(seconds: float) -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(keep_time(app.config["DATABASE"], stop))
        await asyncio.sleep(seconds)
        stop.set()
        task.cancel()

    thread = threading.Thread(target=asyncio.run, args=(run_for(2.5),))
    thread.start()
    thread.join()
    assert locked(director, token)


def seats(director, token: str) -> list[str]:
    return json.loads(director.db.execute("SELECT players FROM games WHERE record_token = ?", [token]).fetchone()[0])


def the_event(director, event_url: str):
    from scorekeeper.storage.events import get_event

    return get_event(director.db, int(event_url.rsplit("/", 1)[1]))


def no_show(director, event_url: str, missing: str, replacement: str = "", round_: int = 1):
    return press(
        director,
        event_url,
        f"/rounds/{round_}/no-show",
        **{"noshow-missing": missing, "noshow-replacement": replacement},
    )


def test_a_no_show_is_replaced_by_a_late_player_at_a_table_not_started_once(director):
    from scorekeeper.storage.event_roster import add_late_player
    from scorekeeper.storage.events import EventPlayer, event_players

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    missing = seats(director, token)[1]
    add_late_player(director.db, the_event(director, event_url), EventPlayer("Ivy", "", "", 2))
    table = phone(director, token)
    assert missing in table.page("/")
    page = director.get(event_url).get_data(as_text=True)
    assert '<option value="Ivy">Ivy</option>' in page.split('id="no-show"', 1)[1]
    for _ in range(2):  # a double click replaces once
        assert no_show(director, event_url, missing, "Ivy").status_code == 302
    assert seats(director, token)[1] == "Ivy" and missing not in seats(director, token)
    assert "Ivy" in table.page("/") and missing not in table.page("/")
    lines = history(director, event_url)
    # Ivy was added to play from round 2: the line that gives her the seat says she plays from round 1 now.
    given = f"Round 1, table 1: {missing} did not come, withdrawn from round 1 on; Ivy plays in their seat, and so from round 1 on (added to play from round 2)"
    assert lines.count(given) == 1, lines
    roster = {player.name: player for player in event_players(director.db, the_event(director, event_url).id)}
    assert roster["Ivy"].arrives == 1 and roster[missing].leaves == 1
    table.pressure("Ivy", 1)
    assert "Hand 1 · pressure" in table.page("/history")


def test_a_no_show_withdrawn_leaves_their_table_to_play_as_a_table_of_three(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[1]
    before = seats(director, token)
    assert no_show(director, event_url, before[0]).status_code == 302
    assert seats(director, token) == before[1:]
    assert (
        f"Round 1, table 2: {before[0]} did not come, withdrawn from round 1 on; the table plays as a table of 3"
        in history(director, event_url)
    )
    table = phone(director, token)
    for hand in range(1, 3):
        table.leftovers(hand, 0, went_out=True)
        for seat in (1, 2):
            table.leftovers(hand, seat, "K")
    assert "Hand 3" in table.page("/")


def test_a_no_show_at_a_table_of_three_with_nobody_in_their_seat_is_refused_not_left_a_table_of_two(director):
    """Seen at a club evening: a table of three lost a player to a no-show with nobody in the seat
    and played as a pair, ranked on totals beside threes and fours (the pair's player came first)."""
    event_url = new_event(director, EIGHT[:7])
    seat_next_round(director, event_url)
    tokens = record_links(director, event_url)
    token = next(token for token in tokens if len(seats(director, token)) == 3)
    before = seats(director, token)
    refused = no_show(director, event_url, before[0])
    assert refused.status_code == 422
    assert "would be a table of two" in refused.get_data(as_text=True)
    assert seats(director, token) == before
    assert not any("did not come" in line for line in history(director, event_url))


def test_a_table_that_has_started_cannot_change_its_players(director):
    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    before = seats(director, token)
    phone(director, token).pressure(before[0], 1)
    refused = press(director, event_url, "/rounds/1/no-show", **{"noshow-missing": before[1]})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "has started (play is recorded there): its players cannot change" in page
    assert seats(director, token) == before
    assert not any("did not come" in line for line in history(director, event_url))


def test_two_directors_replacing_one_no_show_at_once_replace_once(director, app):
    from scorekeeper.storage.database import connect
    from scorekeeper.storage.event_roster import add_late_player, replace_no_show
    from scorekeeper.storage.events import EventPlayer

    event_url = new_event(director, EIGHT)
    seat_next_round(director, event_url)
    token = record_links(director, event_url)[0]
    missing = seats(director, token)[2]
    event = the_event(director, event_url)
    add_late_player(director.db, event, EventPlayer("Ivy", "", "", 2))
    add_late_player(director.db, event, EventPlayer("Jo", "", "", 2))
    results: list[object] = []
    start = threading.Barrier(2)

    def replace(who: str) -> None:
        db = connect(app.config["DATABASE"])
        start.wait()
        try:
            results.append(replace_no_show(db, event, 1, missing, who))
        except Exception as error:  # the second director's, with another player: refused
            results.append(str(error))
        finally:
            db.conn.close()

    threads = [threading.Thread(target=replace, args=(who,)) for who in ("Ivy", "Jo")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count(True) == 1 and f"{missing} is not seated in round 1." in results
    assert sum("did not come" in line for line in history(director, event_url)) == 1
    assert len({"Ivy", "Jo"} & set(seats(director, token))) == 1


def test_a_table_the_director_unlocks_after_time_or_its_end_is_not_locked_again(director):
    event_url = new_event(director, EIGHT, lock_at_end="y")
    seat_next_round(director, event_url)
    at_time, ended = record_links(director, event_url)
    finish(phone(director, ended))
    time_up(director, event_url)
    director.get(event_url)  # the event page's check locks the table between hands
    assert locked(director, at_time) and locked(director, ended)
    for token in (at_time, ended):
        press(director, event_url, f"/games/{token}/unlock")
    director.get(event_url)
    play_hand(phone(director, at_time), 1)
    assert not locked(director, at_time) and not locked(director, ended), "unlocked to be corrected: it stays so"
    # Seen at an evening: the reopened table's phones still said "Time: finish the hand in play".
    assert "data-round-clock" not in phone(director, at_time).page("/")
    lines = history(director, event_url)
    assert (
        sum("locked at time" in line for line in lines) == 1 and sum("(its game ended)" in line for line in lines) == 1
    )
