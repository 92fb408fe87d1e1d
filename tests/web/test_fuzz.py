"""Bad input gets a clear refusal, never a 500 or a traceback.

Hypothesis sends every route of the app (with the CSRF token, logged in as the director or
not) path parameters, query strings and form fields drawn from the values that broke it
before — huge and odd numbers, deep JSON, control characters, names with colons — and the
command line the same records. The budget is fixed; ``SCOREKEEPER_FUZZ=20000`` runs more.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from tests.support.web import csrf_token, start

BUDGET = int(os.environ.get("SCOREKEEPER_FUZZ", "300"))
FIELDS = (
    "cards replaces hand player target idem text owes went_out name code password confirm rules first_dealer "
    "title file held_on scoring partnerships players tables verify paper limit deal end values joker special "
    "decks target pressures pressure_cap ends_hand players-0 players-1 players-2 option_decks option_jokers "
    "option_target option_dummy option_pressure_increase_cap next round"
).split()
NASTY = [
    "",
    "0",
    "-1",
    "1",
    "2",
    "²",
    "١",
    "1e999",
    "nan",
    str(2**63),
    str(2**64 + 1),
    "9" * 5000,
    "Ann",
    "Bob",
    "A: B",
    "K",
    "Kh 3 3",
    "JK JK JK",
    "3" * 300,
    "\n",
    "\r\n",
    "\x00",
    "%0A",
    "/\t/evil.example/",
    "//evil.example",
    "<script>",
    "Ann & Bob",
    "y",
    "true",
    "[" * 50,
    "Ann, club, 1\nBob: x, club\nCy\nDi",
]
value = st.one_of(st.sampled_from(NASTY), st.text(max_size=30))
form = st.dictionaries(st.sampled_from(FIELDS), value, max_size=8)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


RECORDS = [
    deep(100_000),
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": [], "x": '
    + "9" * 5000
    + "}",
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": [], "in_play": {"hand": 1, "pressures": 5}}',
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": [], "in_play": {"hand": 1, "notes": 7}}',
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": [{"leftovers": {"Ann": [], "Bob": ["K"]}, "notes": {"a": 1}}]}',
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": [["Ann"], "Bob"], "hands": []}',
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "options": [], "hands": []}',
    '{"format": "scorekeeper-game/1", "rules": "house", "players": ["Ann", "Bob"], "options": {"name": {}}, "hands": []}',
    '{"format": "scorekeeper-game/1", "rules": ["crates"], "players": ["Ann", "Bob"], "hands": []}',
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": {"1": 2}}',
    '{"format": "scorekeeper-game/1", "rules": "crates", "players": ["Ann", "Bob"], "hands": [], "title": '
    + deep(50)
    + "}",
    "\ufeff{}",
    "null",
    '"text"',
    "1e400",
]
json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=10)),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
record_text = st.one_of(
    st.sampled_from(RECORDS),
    json_value.map(json.dumps),
    st.fixed_dictionaries(
        {
            "format": st.just("scorekeeper-game/1"),
            "rules": st.sampled_from(["crates", "crazy-eights", "two-fifty", "house", "zodiac", 3]),
            "players": st.one_of(st.just(["Ann", "Bob"]), json_value),
            "hands": st.one_of(st.just([]), json_value),
        },
        optional={"options": json_value, "in_play": json_value, "partnerships": json_value, "first_dealer": json_value},
    ).map(json.dumps),
)


class Site:
    """A running app with a game, an event and a house game, and what its links are."""

    def __init__(self, folder: Path) -> None:
        unlimited = {"START_LIMIT_PER_NETWORK": 10**6, "START_LIMIT_STARTED": 10**6, "START_LIMIT_IMPORTED": 10**6}
        self.app = create_app({"TESTING": True, "SECRET_KEY": "fuzz", "DATABASE": str(folder / "fuzz.db"), **unlimited})
        self.app.config["PROPAGATE_EXCEPTIONS"] = True
        self.client = self.app.test_client()
        table = start(self.client, ["Ann", "Bob", "Cy"])
        table.pressure("Ann", 1)
        table.leftovers(1, 0, "K 3")
        self.tokens = [table.token]
        share = table.page("/share")
        self.tokens.append(re.search(r"/v/([\w-]+)/", share).group(1))
        self.tokens.append(re.search(r"([A-Z0-9]{4}-[A-Z0-9]{4})", share).group(1))
        token = csrf_token(self.client, "/director/setup")
        self.client.post(
            "/director/setup", data={"csrf_token": token, "password": "a long password", "confirm": "a long password"}
        )
        self.director = self.client.get("/director/").status_code == 200
        self.rules = [
            rule
            for rule in self.app.url_map.iter_rules()
            if rule.endpoint != "static" and not rule.rule.startswith("/director/logout")
        ]

    def url(self, rule, draw) -> str:
        path = rule.rule
        for argument in rule.arguments:
            converter = rule._converters[argument].__class__.__name__
            if converter == "IntegerConverter":
                choice = draw(st.sampled_from(["1", "2", "0", str(2**63), str(2**64), "9" * 30]))
            else:
                choice = quote(draw(st.one_of(st.sampled_from(self.tokens), st.text(min_size=1, max_size=12))), safe="")
            path = re.sub(rf"<(?:[^>:]+:)?{argument}>", choice, path)
        return path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return Site(tmp_path_factory.mktemp("fuzz"))


@settings(max_examples=BUDGET, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_request_gets_a_500(site, data):
    rule = data.draw(st.sampled_from(site.rules))
    path = site.url(rule, data.draw)
    query = data.draw(st.dictionaries(st.sampled_from(FIELDS), value, max_size=3))
    methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
    method = data.draw(st.sampled_from(methods))
    headers = data.draw(st.sampled_from([{}, {"X-Requested-With": "outbox", "Accept": "application/json"}]))
    if method == "GET":
        response = site.client.get(path, query_string=query, headers=headers)
    else:
        fields = data.draw(form)
        fields["csrf_token"] = site.client.get("/csrf").get_json()["token"]
        if data.draw(st.booleans()):
            fields["file"] = (io.BytesIO(data.draw(record_text).encode()), "game.json")
        response = site.client.post(path, data=fields, query_string=query, headers=headers)
    assert response.status_code < 500, (method, path, response.status_code)
    location = response.headers.get("Location", "")
    assert not location.startswith("//") and "\n" not in location


@pytest.mark.parametrize("text", RECORDS)
def test_no_record_crashes_the_import(site, text):
    token = site.client.get("/csrf").get_json()["token"]
    response = site.client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(text.encode()), "game.json")})
    assert response.status_code in (200, 302, 400, 422), response.status_code


SCRIPT = Path(sys.executable).parent / "scorekeeper"


@pytest.mark.parametrize("command", [["replay", "-"], ["replay", "--json", "-"], ["report", "-", "-o", "{out}"]])
@pytest.mark.parametrize("text", RECORDS[:4] + RECORDS[-4:])
def test_no_record_makes_the_command_line_print_a_traceback(tmp_path, command, text):
    args = [part.replace("{out}", str(tmp_path / "sheet.pdf")) for part in command]
    result = subprocess.run([str(SCRIPT), *args], input=text, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in result.stderr
    if result.returncode:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@settings(max_examples=max(30, BUDGET // 10), deadline=None, suppress_health_check=list(HealthCheck))
@given(text=record_text)
def test_no_record_makes_replay_raise(text):
    from contextlib import redirect_stderr, redirect_stdout

    from scorekeeper.cli import main

    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")), encoding="utf-8")  # as a terminal's
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(["replay", "-"])
    finally:
        sys.stdin = stdin
    assert status in (0, 1, 2)
    assert "Traceback" not in err.getvalue()
    if status:
        assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()


@pytest.mark.parametrize("replaces", ["²", "١٢", "9" * 5000, str(2**70), "-3", "1.5"])
def test_a_leftovers_form_naming_no_real_entry_is_answered_not_crashed(site, replaces):
    token = site.client.get("/csrf").get_json()["token"]
    base = f"/t/{site.tokens[0]}/hand/1/seat/1"
    response = site.client.post(
        base, data={"csrf_token": token, "idem": replaces[:20] + "x", "cards": "9", "replaces": replaces}
    )
    assert response.status_code in (302, 409, 422)
