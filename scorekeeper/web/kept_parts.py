"""Parts of a page kept by what they show, so that a look draws only what changed.

A part is rendered once per key (everything it shows, its forms fresh) and kept with the
session's CSRF token taken out; at each look the token of the session asking is put back. The
director's event page keeps its seating form, players, penalties, history and the round as it
happens this way (a 300-player event's page drew 300 names in three lists at every look)."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import render_template, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ..gamelog.memo import Memo

#: Parts kept, by template, the app's root (a part's links are written below it) and key.
_KEPT: Memo[str] = Memo(256)
#: Where a kept part had the CSRF token (escaped markup cannot hold it).
_TOKEN_MARK = "<csrf-token>"


def kept_part(template: str, key: Hashable | None, context: Callable[[], dict[str, object]]) -> Markup:
    """``template`` rendered with ``context()``, kept under ``key``; None draws it as it is (a form
    in it sent back with what was typed and its errors)."""
    if key is None:
        return Markup(render_template(template, **context()))
    token = generate_csrf()
    kept = _KEPT.get(
        (template, request.script_root, key), lambda: render_template(template, **context()).replace(token, _TOKEN_MARK)
    )
    return Markup(kept.replace(_TOKEN_MARK, token))
