"""Scorekeeper: scoring and refereeing Crates and the Eights family at a real card table.

The parts, each a package with a rule about what it may import (``tests/project/test_architecture.py``):
``scoring`` (the rules, pure), ``tournament`` (seating and standings, pure), ``storage``
(SQLite and the game log), ``reports`` (sheets, charts, PDF, text), ``web`` (the Flask app),
and on top ``cli`` and ``serve``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The web app (see ``web/app.py``); imported here lazily so the pure parts load without Flask."""
    from .web.app import create_app as create

    return create(test_config)
