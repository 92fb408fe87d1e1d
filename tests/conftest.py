from __future__ import annotations

import pytest

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test"})
    app.instance_path = str(tmp_path)
    return app


@pytest.fixture
def client(app):
    return app.test_client()
