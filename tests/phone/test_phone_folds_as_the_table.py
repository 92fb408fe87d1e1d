"""The phone's copy of a game (``static/copy.js``) folds a log as the table does (``gamelog``).

Random logs of every rule set — leftovers, corrections, pressures, notes, one-card marks,
confirmations and undos, a tenth of them refused — are split where the server was last heard:
the first part is the server's log (as ``copy.json`` sends it), the rest waits in the phone's
outbox as the forms posted it. The phone folds both; the engine checks and folds the same
changes one by one, skipping what it refuses. Hands complete, the hand in play, totals, what
each side's next pressure costs, the leader, the pressures pending, whose leftovers come next,
who owes two cards, the notes, the hands to confirm and which queued changes the server would
refuse: 0 differences.
"""

from __future__ import annotations

import json
import random
import subprocess
from typing import Any
from urllib.parse import urlencode

import pytest

from scorekeeper.gamelog import (
    CONFIRM,
    LEFTOVERS,
    NOTE,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    ChangeRefusal,
    Entry,
    GameState,
)
from scorekeeper.gamelog.checks import accept, accept_record
from scorekeeper.gamelog.phone_copy import FORMAT as COPY_FORMAT
from scorekeeper.gamelog.phone_copy import phone_copy
from scorekeeper.scoring import Card, Game, InvalidCard
from scorekeeper.storage.exchange import import_changes
from tests.phone.test_phone_scores_as_the_engine import ROOT, _deck, node, setups

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow

SCRIPT = ROOT / "tests" / "phone" / "fold.mjs"
LOGS_PER_SETUP = 25
BASE = "/t/tok/"


def _change(
    game: Game, state: GameState, rng: random.Random, decks: dict[int, list[str]], targets: list[int]
) -> Change:
    """The table's next change, most often sensible, now and then mistaken; ``targets`` are the
    ids it may undo or correct."""
    hand = state.last_hand
    roll = rng.random()
    player = rng.choice(game.players)
    if roll < 0.5:
        missing = [p for p in game.players if (hand, p) not in state.leftovers]
        if missing and rng.random() < 0.9:
            player = missing[0]
        size = rng.choice([0, 1, 1, 2, 3, 4]) if rng.random() < 0.97 else 9
        deck = decks.setdefault(hand, _deck(game, rng))
        cards, decks[hand] = deck[:size], deck[size:]
        current = state.leftovers.get((hand, player))
        target = current.id if current is not None and current.id in targets else None
        if rng.random() < 0.05 and targets:
            target = rng.choice(targets)
        number = hand if rng.random() < 0.95 else rng.randint(1, hand + 1)
        return Change(LEFTOVERS, number, player, {"cards": cards}, target=target)
    if roll < 0.68:
        return Change(PRESSURE, hand if rng.random() < 0.95 else hand + 1, player)
    if roll < 0.74:
        text = rng.choice(["A misdeal, redealt", " ", "x" * 501, "Ann played out of turn"])
        return Change(NOTE, hand, None, {"text": text})
    if roll < 0.8:
        return Change(ONE_CARD, hand if rng.random() < 0.9 else max(1, hand - 1), player, {"owes": rng.random() < 0.7})
    if roll < 0.86 or not targets:
        return Change(CONFIRM, rng.randint(1, max(1, hand - 1)), player, {"source": "director"})
    return Change(VOID, target=rng.choice(targets))


def _stored(state: GameState, change: Change) -> GameState | None:
    entry = Entry.of(
        change, state.version + 1, state.version + 1, f"k{state.version + 1}", "phone", "2026-11-25T10:00:00+00:00"
    )
    try:
        cards = [Card.parse(token) for token in change.data.get("cards", ())]
    except InvalidCard:
        return None
    if change.kind == LEFTOVERS:
        change = Change(LEFTOVERS, change.hand, change.player, {"cards": [card.token for card in cards]}, change.target)
        entry = Entry.of(change, entry.id, entry.seq, entry.idem_key, entry.source, entry.created_at)
    try:
        return accept(state, change, entry)
    except ChangeRefusal:
        return None


def _outbox_item(game: Game, change: Change, index: int) -> dict[str, Any]:
    """The change as the page's form posts it and the outbox keeps it."""
    fields: dict[str, Any] = {"csrf_token": "x", "idem": f"q{index}"}
    if change.kind == LEFTOVERS:
        seat = game.players.index(change.player or "")
        route = f"hand/{change.hand}/seat/{seat}"
        cards = change.data["cards"]
        fields.update(cards=" ".join(cards), replaces="" if change.target is None else change.target)
        if not cards:
            fields["went_out"] = "y"
    elif change.kind == PRESSURE:
        route = "pressure"
        fields.update(hand=change.hand, player=change.player, again="", waited="0")
    elif change.kind == NOTE:
        route = "note"
        fields.update(hand=change.hand, text=change.data["text"])
    elif change.kind == ONE_CARD:
        route = "one-card"
        fields.update(hand=change.hand, player=change.player, owes="1" if change.data["owes"] else "0")
    elif change.kind == CONFIRM:
        route = "confirm"
        fields.update(hand=change.hand, player=change.player)
    else:
        route = "undo"
        fields.update(target=change.target)
    return {
        "id": f"q{index}",
        "url": f"http://table.test:5000{BASE}{route}",
        "body": urlencode(fields),
        "at": 0,
        "label": "x",
    }


def _summary(state: GameState, refused: list[int]) -> dict[str, Any]:
    current = state.current_hand
    return {
        "complete": state.complete_hands,
        "current": current,
        "finished": state.finished,
        "totals": {side.side.name: str(side.total) for side in state.score.sides},
        "next": {side.name: str(state.next_pressure(side.name)) for side in state.game.sides},
        "leader": list(state.score.leader),
        "pending": [[entry.player, side, str(cost)] for entry, side, cost in state.pending_pressures()],
        "next_seat": None if current is None else state.next_seat_to_enter(current),
        "owing": [] if current is None else state.owing(current),
        "notes": {str(number): len(entries) for number, entries in state.notes.items() if entries},
        "unconfirmed": state.unconfirmed_hands,
        "refused": refused,
    }


def _copy(state: GameState) -> dict[str, Any]:
    """copy.json as the server sends it: the phone's copy and the record's head."""
    head = {key: value for key, value in state.record().to_dict().items() if key != "hands"}
    return json.loads(json.dumps({**phone_copy(state), "record": head}))


def _case(game: Game, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    count, split = rng.randint(5, 150), rng.randint(0, 150)
    state = GameState.fold(game, [])
    decks: dict[int, list[str]] = {}
    server: list[int] = []
    copy: dict[str, Any] | None = None
    items: list[dict[str, Any]] = []
    refused: list[int] = []
    for index in range(count):
        if index == split:
            copy = _copy(state)
        # An unsent change is undone or corrected on the phone by taking it out of the outbox:
        # the outbox names only changes the server has stored.
        change = _change(game, state, rng, decks, server)
        if copy is not None and change.kind == LEFTOVERS and rng.random() < 0.03:
            change = Change(LEFTOVERS, change.hand, change.player, {"cards": ["ZZ"]}, change.target)
        after = _stored(state, change)
        if copy is None:
            if after is not None:
                state = after
                server.append(state.version)
            continue
        if after is None:
            refused.append(len(items))
        else:
            state = after
        items.append(_outbox_item(game, change, index))
    if copy is None:
        copy = _copy(state)
    return {"copy": copy, "base": BASE, "items": items}, _summary(state, refused)


def _imported(record: dict[str, Any]) -> dict[str, Any]:
    """What a server makes of the phone's "Save this game" record: the scores it continues from."""
    parsed, changes = import_changes(record)
    entries = [
        Entry.of(change, n, n, f"i{n}", "import", "2026-11-25T10:00:00+00:00") for n, change in enumerate(changes, 1)
    ]
    state = accept_record(parsed.game, entries)
    return {key: value for key, value in _summary(state, []).items() if key in SAVED}


#: What a saved record carries: the complete hands and the pressures of the hand in play.
SAVED = ("complete", "current", "finished", "totals", "next", "leader", "pending")


def test_the_phone_folds_its_copy_and_outbox_as_the_table_does():
    rng = random.Random(20261125)
    cases, expected, about = [], [], []
    for game in setups():
        for _ in range(LOGS_PER_SETUP):
            case, summary = _case(game, rng)
            cases.append(case)
            expected.append(summary)
            about.append(game.rules.id)
    answer = subprocess.run(
        [node(), str(SCRIPT)], input=json.dumps(cases), capture_output=True, text=True, timeout=600, check=False
    )
    assert answer.returncode == 0, answer.stderr[-3000:]
    phone = json.loads(answer.stdout)
    for case in phone:
        case["saved"] = {key: case[key] for key in SAVED}
    for case, summary in zip(phone, expected, strict=True):
        summary["record"] = case["record"]
        summary["saved"] = _imported(case["record"])
    differences = [
        (about[i], {k: (expected[i][k], phone[i][k]) for k in expected[i] if expected[i][k] != phone[i][k]})
        for i in range(len(cases))
        if expected[i] != phone[i]
    ]
    queued = sum(len(case["items"]) for case in cases)
    refused = sum(len(summary["refused"]) for summary in expected)
    finished = sum(1 for summary in expected if summary["finished"])
    assert not differences, f"{len(differences)} differences of {len(cases)}, the first: {differences[:2]}"
    assert queued > 10 * len(cases) and refused > queued // 20, (queued, refused)
    assert sum(1 for summary in expected if summary["complete"] >= 3) > len(cases) // 4
    assert finished > len(cases) // 50, "too few games reached their end to prove anything"


def test_the_phone_reads_the_shape_of_copy_the_server_sends():
    """A phone holding a copy of an older shape asks for the whole new one: copy.js knows the shape."""
    script = f"import('{(ROOT / 'scorekeeper' / 'static' / 'copy.js').as_uri()}').then((m) => console.log(m.FORMAT))"
    answer = subprocess.run([node(), "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    assert int(answer.stdout) == COPY_FORMAT
