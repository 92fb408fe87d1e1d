"""Scorekeeper: the web app's factory. The game logic lives in ``scorekeeper.scoring``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_wtf import CSRFProtect

from .instance import ensure_secret_key


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; settings come from ``instance/config.py``, or ``test_config`` in tests.

    The instance folder (database, secret key) is ``instance/`` beside the package,
    or the folder named by the ``SCOREKEEPER_INSTANCE`` environment variable.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE") or None,
    )
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        SESSION_COOKIE_SECURE=os.environ.get("SCOREKEEPER_HTTPS") == "1",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if os.environ.get("SCOREKEEPER_HTTPS") == "1":
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = ensure_secret_key(app.instance_path)

    from . import db, director, errors, home, house_rules, printing, security, spectator, start, table, wall
    from .forms import new_idem_key

    CSRFProtect(app)
    security.init_app(app)
    errors.init_app(app)
    db.init_app(app)
    for blueprint in (home.bp, start.bp, table.bp, spectator.bp, printing.bp, director.bp, wall.bp, house_rules.bp):
        app.register_blueprint(blueprint)
    app.jinja_env.add_extension("jinja2.ext.do")
    app.jinja_env.globals["new_idem_key"] = new_idem_key
    app.context_processor(_saved_message)
    return app


def _saved_message() -> dict[str, object]:
    """The confirmation of this phone's last save (with its Undo), shown once on the next page."""
    from flask import request, session

    saved = session.get("saved")
    token = (request.view_args or {}).get("token")
    if saved and token and saved.get("token") == token and request.method == "GET":
        session.pop("saved")
        return {"saved": saved}
    return {"saved": None}
