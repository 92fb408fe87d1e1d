"""The floor for the load benchmark: a bare Flask endpoint doing one sqlite-utils insert.

Same database settings as the app (WAL, synchronous=FULL, busy timeout, BEGIN IMMEDIATE),
served by gunicorn with the same workers and threads.
"""

from __future__ import annotations

import os

from flask import Flask, jsonify, request

from scorekeeper.storage.database import connect, immediate

app = Flask(__name__)
PATH = os.environ.get("FLOOR_DATABASE", "/tmp/scorekeeper-floor.db")


def _ensure_table() -> None:
    db = connect(PATH)
    db.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, key TEXT UNIQUE, body TEXT)")
    db.conn.close()


_ensure_table()


@app.post("/insert")
def insert():  # type: ignore[no-untyped-def]
    db = connect(PATH)
    try:
        with immediate(db):
            db["rows"].insert({"key": request.form.get("idem"), "body": request.form.get("player", "")})
    finally:
        db.conn.close()
    return jsonify({"ok": True})


@app.get("/page")
def page():  # type: ignore[no-untyped-def]
    """A bare page: the markup the bench saved beside the database, read and sent as it is."""
    with open(os.path.join(os.path.dirname(PATH), "page.html"), encoding="utf-8") as saved:
        return saved.read()
