"""A change's path: the view parses, calls storage once, and renders what it is handed; the game's
log decides; storage stores. Traced call by call during a real PRESSURE tap (HTTP through the app,
a real SQLite file)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from scorekeeper.gamelog import taking
from scorekeeper.scoring import Game, configure
from scorekeeper.scoring.rulebook import SAME_PRESSURE_SECONDS, rule_book
from tests.support.web import start

PACKAGE = Path(__file__).parent.parent.parent / "scorekeeper"
#: The parts from the bottom up (docs/architecture.md): a call goes down or stays in its part.
PARTS = ["scoring", "tournament", "gamelog", "club", "storage", "reports", "web"]


def part_of(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    pieces = name.split(".")
    if pieces[0] != "scorekeeper" or len(pieces) < 2:
        return None
    return pieces[1] if pieces[1] in PARTS else None


def traced_tap(client: Any) -> list[tuple[str, str, str, str]]:
    """Every call from one part of ours into another while one pressure is tapped and saved:
    (caller's part, callee's part, callee's module, callee's name)."""
    table = start(client, ["Ann", "Bob", "Cy", "Di"])
    calls: list[tuple[str, str, str, str]] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or frame.f_back is None:
            return
        callee, caller = part_of(frame), part_of(frame.f_back)
        if callee and caller and callee != caller:
            calls.append((caller, callee, frame.f_globals["__name__"], frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        response = table.pressure("Ann", 1)
    finally:
        sys.setprofile(None)
    assert response.status_code == 302, response.get_data(as_text=True)
    return calls


def test_no_part_calls_up_into_a_part_above_it_during_a_pressure_tap(client):
    """No closure of the view's is run back up from inside storage (or any other upward call)."""
    upward = [call for call in traced_tap(client) if PARTS.index(call[1]) > PARTS.index(call[0])]
    assert upward == []


def test_the_view_makes_one_call_to_storage_that_saves_and_asks_the_log_nothing_after(client):
    calls = traced_tap(client)
    saves = [index for index, call in enumerate(calls) if call[2:] == ("scorekeeper.storage.saving", "save")]
    assert len(saves) == 1
    # After the save, the view renders what it was handed: no call from the web part down into
    # the log or storage (the calls storage's save makes itself start in storage).
    after = [call for call in calls[saves[0] + 1 :] if call[0] == "web" and call[1] in ("storage", "gamelog")]
    assert after == []


def test_storage_holds_no_rule_of_the_log():
    """storage/games.py runs no check of the log's: it calls ``take`` and stores what it returns."""
    source = (PACKAGE / "storage" / "games.py").read_text()
    imported = {
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and "gamelog" in (node.module or "")
        for alias in node.names
    }
    assert "take" in imported
    assert not imported & {"accept", "check", "verify", "SecondThoughts", "StaleEdit", "StaleEdits", "ChangeRefusal"}


def test_the_second_pressure_window_is_written_once_in_the_rule_book_the_phone_reads(client):
    table = start(client, ["Ann", "Bob"])
    copy = client.get(f"{table.base}/copy.json").get_json()
    assert copy["book"]["same_pressure_seconds"] == SAME_PRESSURE_SECONDS
    assert taking.SAME_PRESSURE_SECONDS is SAME_PRESSURE_SECONDS
    assert rule_book(Game(configure("crazy-eights"), ("Ann", "Bob")))["same_pressure_seconds"] == SAME_PRESSURE_SECONDS


def test_no_view_writes_an_http_status():
    """A refusal's status comes from its type (``web/errors.py`` answers it); a view writes none."""
    found = []
    for path in sorted((PACKAGE / "web" / "views").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            found += [f"{path.name}:{number.lineno}: {number.value}" for number in _statuses_written(node)]
    assert found == []


def _statuses_written(node: ast.AST) -> list[ast.Constant]:
    """The whole numbers of an HTTP status's range a node answers with: an element of a returned
    tuple, an argument of ``abort``/``make_response``/``Response``, a ``status=``, a ``status`` set."""
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
        candidates = list(node.value.elts)
    elif isinstance(node, ast.Call):
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        candidates = list(node.args) if called in ("abort", "make_response", "Response") else []
        candidates += [keyword.value for keyword in node.keywords if keyword.arg == "status"]
    elif isinstance(node, ast.Assign) and any(getattr(target, "id", "") == "status" for target in node.targets):
        candidates = [node.value]
    else:
        return []
    numbers = [each for candidate in candidates for each in ast.walk(candidate) if isinstance(each, ast.Constant)]
    return [each for each in numbers if type(each.value) is int and 100 <= each.value <= 599]


def test_the_phone_asks_about_a_second_tap_within_the_rule_books_window(client):
    """The pressure buttons carry the window (ask.js reads it from the form, offline.js writes it
    from the rule book): no second copy of the number in the phone's scripts."""
    table = start(client, ["Ann", "Bob"])
    page = client.get(f"{table.base}/").get_data(as_text=True)
    assert page.count(f'data-ask-within="{SAME_PRESSURE_SECONDS}"') == page.count("data-ask=")
    assert page.count("data-ask=") >= 2
    script = (PACKAGE / "static" / "ask.js").read_text()
    assert 'getAttribute("data-ask-within")' in script and "5000" not in script
