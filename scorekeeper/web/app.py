"""The web app's factory: settings, security, error pages, the database per request, the views.

The app is named after the package, so its templates, static files and instance folder are
the package's (``scorekeeper/templates``, ``scorekeeper/static``, ``instance/``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_wtf import CSRFProtect
from werkzeug.routing import IntegerConverter

from ..scoring.rulebook import SAME_PRESSURE_SECONDS
from ..storage.files import ensure_secret_key
from .form_text import StrictRequest


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; settings come from ``instance/config.py``, or ``test_config`` in tests.

    The instance folder (database, secret key) is ``instance/`` beside the package,
    or the folder named by the ``SCOREKEEPER_INSTANCE`` environment variable. The
    proxy whose ``X-Forwarded-*`` headers are believed is named by ``SCOREKEEPER_PROXY``
    (or ``TRUSTED_PROXIES``); with ``SCOREKEEPER_HTTPS=1`` alone, it runs on this machine.
    """
    app = Flask(
        "scorekeeper",
        instance_relative_config=True,
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE") or None,
    )
    app.url_map.converters["int"] = RowNumber
    app.request_class = StrictRequest
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        # The cookie is written when it changes (a phone's label, a login), not again with every
        # tap: a save sends no cookie (signing one was a sixth of a save's time).
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_SECURE="1" in (os.environ.get("SCOREKEEPER_HTTPS"), os.environ.get("SCOREKEEPER_TLS")),
        # How the director's password is hashed (werkzeug's method): scrypt, slow on purpose for a
        # guesser. The suite's own app (tests/conftest.py) names a cheap one, as a test's many
        # logins would otherwise take a tenth of a second of CPU each.
        PASSWORD_HASH="scrypt",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    from .security import behind_front, proxy_setting, trust_proxies

    proxies = proxy_setting(app.config)
    if proxies:
        trust_proxies(app, proxies)
    if os.environ.get("SCOREKEEPER_FRONT") == "1":
        behind_front(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = ensure_secret_key(app.instance_path)

    from . import access, connection, errors, live_links, scripts, security, starting, static_files
    from .forms import new_idem_key
    from .pages import table_notice_context
    from .views import (
        app_files,
        club,
        director,
        event_page,
        event_penalties,
        event_printouts,
        event_results,
        event_roster,
        event_rounds,
        events,
        home,
        house_rules,
        members,
        play,
        play_leftovers,
        printing,
        published,
        season_wall,
        seasons,
        start,
        view,
        wall,
    )

    CSRFProtect(app)
    access.init_app(app)
    live_links.init_app(app)
    static_files.init_app(app)
    scripts.init_app(app)
    security.init_app(app)
    errors.init_app(app)
    connection.init_app(app)
    starting.init_app(app)
    for module in (
        home,
        app_files,
        start,
        play,
        play_leftovers,
        view,
        printing,
        director,
        events,
        event_page,
        event_rounds,
        event_roster,
        event_penalties,
        event_results,
        event_printouts,
        published,
        members,
        seasons,
        club,
        wall,
        season_wall,
        house_rules,
    ):
        # A blueprint's routes may lie in several modules (the event's pages add theirs to
        # events.bp, the leftovers pad to play.bp): each blueprint is registered once, with them all.
        if module.bp not in app.blueprints.values():
            app.register_blueprint(module.bp)
    app.jinja_env.add_extension("jinja2.ext.do")
    app.jinja_env.globals["new_idem_key"] = new_idem_key
    app.jinja_env.globals["same_pressure_seconds"] = SAME_PRESSURE_SECONDS
    app.context_processor(_saved_message)
    app.context_processor(table_notice_context)
    return app


def configured_database() -> str:
    """The database file the app would use (settings as ``create_app`` reads them), without
    creating the instance folder, a secret or a database: for commands that only read it."""
    from .connection import database_path

    probe = Flask(
        "scorekeeper", instance_relative_config=True, instance_path=os.environ.get("SCOREKEEPER_INSTANCE") or None
    )
    probe.config.from_pyfile("config.py", silent=True)
    return database_path(probe)


def configured_proxies() -> str | None:
    """The trusted proxy the app would believe (settings as ``create_app`` reads them), for the
    live process, which counts streams by the client the proxy names as the app counts requests."""
    from .security import proxy_setting

    probe = Flask(
        "scorekeeper", instance_relative_config=True, instance_path=os.environ.get("SCOREKEEPER_INSTANCE") or None
    )
    probe.config.from_pyfile("config.py", silent=True)
    return proxy_setting(probe.config)


class RowNumber(IntegerConverter):
    """A number in a link is a database row: one beyond SQLite's 64 bits matches no page (404)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def _saved_message() -> dict[str, object]:
    """The confirmation of this phone's last save (with its Undo), in the address it was sent on to
    (``?saved=<entry>&said=<sentence>``; an undo's, which has no Undo, ``?said=<sentence>``): only a
    holder of the record link can be sent there, and the page's script takes it out of the address
    once shown, so a reload does not show it again."""
    from flask import request

    entry, said = request.args.get("saved", ""), request.args.get("said", "")
    if request.method != "GET" or not said or not (request.view_args or {}).get("token"):
        return {"saved": None, "said": None}
    if entry.isdigit() and len(entry) < 19:
        return {"saved": {"text": said[:SAID_MAX_LENGTH], "undo": int(entry)}, "said": None}
    return {"saved": None, "said": None if entry else said[:SAID_MAX_LENGTH]}


#: The longest confirmation shown from an address (the longest the app writes is well under it).
SAID_MAX_LENGTH = 400
