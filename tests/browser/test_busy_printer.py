"""A PDF the printer could not take yet (503 with Retry-After) comes by itself on a phone: the
page waits as it was told and asks again, with no error to read and nothing to tap."""

from __future__ import annotations

import time

SMALL = {"viewport": {"width": 360, "height": 740}}


def test_a_refused_pdf_is_asked_for_again_by_its_page(server, phone, shot, tmp_path):
    page = phone(**SMALL)
    url = server + "/blank-sheet.pdf?rules=crates"
    busy_page = _busy_page(tmp_path)
    asked: list[float] = []

    def first_refused(route):
        asked.append(time.monotonic())
        if len(asked) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="text/html", body=busy_page)
        else:
            route.fulfill(
                status=200, content_type="text/html", body="<!doctype html><title>sheet</title><p id=ok>sheet</p>"
            )

    page.route(url, first_refused)
    page.goto(url)
    assert "The printer is busy" in page.inner_text("h1")
    shot(page, "printer-busy")
    page.wait_for_selector("#ok", timeout=5000)
    assert len(asked) == 2 and 0.9 <= asked[1] - asked[0] <= 4


def _busy_page(folder) -> str:
    """The app's own 503 page, told to come back after one second."""
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE": str(folder / "busy.db")})
    with app.test_request_context("/blank-sheet.pdf?rules=crates"):
        from flask import render_template

        return render_template("printing/busy.html", message="The printer is busy.", retry_after=1)
