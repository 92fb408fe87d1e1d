"""Scorekeeper: the web app's factory. The game logic lives in ``scorekeeper.scoring``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

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
    app.config.from_mapping(MAX_CONTENT_LENGTH=256 * 1024)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = ensure_secret_key(app.instance_path)

    from . import errors, home, security

    security.init_app(app)
    errors.init_app(app)
    app.register_blueprint(home.bp)
    return app
