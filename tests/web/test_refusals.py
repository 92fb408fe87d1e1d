"""One refusal, many places: every refusal of the engine, the table, seating and storage is a
``Refusal`` carrying its field and status, answered by one handler (JSON for the outbox, a page
or the form it came from for a browser); views never catch tuples of exception classes."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from flask import Blueprint

import scorekeeper
from scorekeeper import create_app
from scorekeeper.scoring import Refusal
from scorekeeper.storage.event_rounds import RoundConflict
from scorekeeper.web.errors import go_back_on_refusal

PACKAGE = Path(scorekeeper.__file__).parent
#: Exceptions that are not refusals of something a user asked: the command line reports them.
#: Start-up errors and the front's own signal that a connection is over: not answers to a user.
NOT_REFUSALS = {"BackupError", "BadProxySetting", "Busy", "RenderFailed", "PortTaken", "Closed"}


def exception_classes():
    for info in pkgutil.walk_packages([str(PACKAGE)], "scorekeeper."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, Exception) and value.__module__ == info.name:
                yield name, value


def test_every_refusal_of_ours_is_a_refusal():
    found = dict(exception_classes())
    assert {"ChangeRefusal", "StaleEdit", "SecondThoughts", "SeatingError", "RoundConflict", "NameTaken"} <= set(found)
    for name, cls in found.items():
        if name not in NOT_REFUSALS:
            assert issubclass(cls, Refusal), name


def test_a_conflict_says_so_in_its_status():
    statuses = {name: cls.status for name, cls in exception_classes() if issubclass(cls, Refusal)}
    assert statuses["StaleEdit"] == statuses["SecondThoughts"] == statuses["RoundConflict"] == 409
    assert statuses["ChangeRefusal"] == statuses["ScoringError"] == statuses["SeatingError"] == 422


@pytest.mark.parametrize("path", sorted((PACKAGE / "web" / "views").rglob("*.py")), ids=lambda p: p.name)
def test_no_view_catches_a_tuple_of_exception_classes(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ExceptHandler):
            assert not isinstance(node.type, ast.Tuple), f"{path.name}:{node.lineno}"


@pytest.fixture
def refusing_app(tmp_path):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "s", "DATABASE": str(tmp_path / "t.db"), "WTF_CSRF_ENABLED": False}
    )
    bp = Blueprint("refusing", __name__)

    @bp.post("/refuse")
    def refuse() -> str:
        go_back_on_refusal("/where-it-came-from")
        raise RoundConflict("Round 2 is seated already.", "tables")

    @bp.get("/refuse")
    def refuse_page() -> str:
        raise RoundConflict("Round 2 is seated already.")

    app.register_blueprint(bp)
    return app


def test_the_outbox_is_answered_with_the_sentence_its_field_and_status(refusing_app):
    response = refusing_app.test_client().post("/refuse", headers={"X-Requested-With": "outbox"})
    assert response.status_code == 409
    assert response.get_json() == {"ok": False, "error": "Round 2 is seated already.", "field": "tables"}


def test_a_plain_form_goes_back_where_it_came_from_with_the_sentence_shown(refusing_app):
    client = refusing_app.test_client()
    response = client.post("/refuse")
    assert response.status_code == 302 and response.headers["Location"] == "/where-it-came-from"
    with client.session_transaction() as session:
        assert ("error", "Round 2 is seated already.") in session["_flashes"]


def test_a_page_refused_says_why_with_its_status(refusing_app):
    response = refusing_app.test_client().get("/refuse")
    assert response.status_code == 409
    assert "Round 2 is seated already." in response.get_data(as_text=True)
