"""The director's password and login: first-run set-up, logging in and out, and the check every
event page makes (``director_required``). Sessions live on the server, so they can be ended."""

from __future__ import annotations

import fcntl
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from http import HTTPStatus
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ...scoring import Refusal
from ...scoring.errors import TooMany
from ...storage import director as director_store
from ..access import holds_a_link
from ..connection import database_path, get_db
from ..devices import client_address, guesser_key
from ..director_forms import DirectorPasswordForm, LoginForm
from ..errors import form_page, refused_page
from ..forms import EmptyForm

bp = Blueprint("director", __name__, url_prefix="/director")

LOGIN_WINDOW_SECONDS = 10 * 60
LOGIN_ATTEMPTS = 5
LOGIN_ATTEMPTS_EVERYONE = 50
LOGIN_REFUSALS = {
    "address": "Too many wrong passwords: wait ten minutes and try again.",
    "everyone": "Too many wrong passwords have been tried on this server, some from this network: "
    "wait ten minutes and try again.",
}
#: A password check costs a tenth of a second of a core or more (scrypt, on purpose): one at a time on
#: the whole server, the others refused at once (but the director's own browser, below). A hall's
#: network of addresses each trying its guesses at once took every worker thread and both cores, and
#: another table's save waited 13 s.
CHECKING = "Another password is being checked this very moment: try again in a second."
#: A browser the director has logged in on before (a mark in its signed session, which nobody else
#: can write) waits up to ``PATIENCE_SECONDS`` for the check instead, asking every ``PATIENCE_STEP``
#: seconds, and so goes before the guessers, which are refused at once: while a hall's worth of
#: addresses each has its first guess checked (a minute or so), the director still gets in.
DIRECTOR_BEFORE = "director_before"
PATIENCE_SECONDS = 3.0
PATIENCE_STEP = 0.005


def is_director() -> bool:
    """This browser holds a director session the server still knows (not logged out, not ended by a new password)."""
    session_id = session.get("director")
    return isinstance(session_id, str) and director_store.director_session_active(get_db(), session_id)


def director_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_director():
            return redirect(url_for("director.login", next=request.path))
        holds_a_link()
        return view(*args, **kwargs)

    return wrapped


def _start_session(password_hash: str) -> bool:
    """Log this browser in as the director with a new server-side session; False if the password changed meanwhile.

    The rest of the session is dropped but its CSRF secret is kept, so that a second click
    on the same form (a double click) is still a valid post rather than a CSRF error.
    """
    previous = session.get("director")
    session_id = director_store.start_director_session(
        get_db(),
        password_hash,
        current_app.permanent_session_lifetime.total_seconds(),
        replaces=previous if isinstance(previous, str) else None,
    )
    if session_id is None:
        return False
    csrf_key = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    csrf_secret = session.get(csrf_key)
    session.clear()
    if csrf_secret is not None:
        session[csrf_key] = csrf_secret
    session["director"] = session_id
    session[DIRECTOR_BEFORE] = True  # kept after logging out: this browser goes first at the next check
    return True


def _local_path(target: str) -> str:
    """``target`` if it is a path on this site, else the director's home: a login never sends anyone elsewhere.

    Browsers drop tabs and newlines from a URL and read a backslash as a slash, so
    ``/\\evil`` or ``/<tab>/evil`` would become ``//evil``, another site: any of them refuses the path.
    """
    if (
        target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and all(char.isprintable() and not char.isspace() for char in target)
    ):
        return target
    return url_for("events.events")


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> Response | str:
    """On first run: choose the director password (or set it with `scorekeeper create-director`)."""
    if director_store.director_password_hash(get_db()) is not None:
        return redirect(url_for("director.login"))
    form = DirectorPasswordForm()
    if form.validate_on_submit():
        password_hash = generate_password_hash(form.password.data, method=current_app.config["PASSWORD_HASH"])
        if director_store.set_director_password_hash(get_db(), password_hash, replace=False) and _start_session(
            password_hash
        ):
            return redirect(url_for("events.events"))
        return redirect(url_for("director.login"))
    return render_template("director/setup.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | tuple[str, int, dict[str, str]]:
    """Check the password: at most ``LOGIN_ATTEMPTS`` wrong ones per window from one network (an
    address; IPv6 by its /64, a mapped IPv4 address as itself; the server's own machine is one
    too, unless a trusted proxy names the client) however many arrive at once; past
    ``LOGIN_ATTEMPTS_EVERYONE`` from all together, a network that has failed is checked no more,
    while one that has not always is (others' guessing never locks the director out)."""
    db = get_db()
    stored_hash = director_store.director_password_hash(db)
    if stored_hash is None:
        return redirect(url_for("director.setup"))
    form = LoginForm()
    address = guesser_key(client_address())
    if form.validate_on_submit():
        held = director_store.reserve_login_attempt(
            db, address, LOGIN_WINDOW_SECONDS, LOGIN_ATTEMPTS, LOGIN_ATTEMPTS_EVERYONE
        )
        if held is not None:
            return _refused_login(form, TooMany(LOGIN_REFUSALS[held], "password", LOGIN_WINDOW_SECONDS))
        with _one_check_at_a_time(PATIENCE_SECONDS if session.get(DIRECTOR_BEFORE) is True else 0.0) as mine:
            if not mine:  # counted first, so that networks with no guess left never wait here
                director_store.give_back_login_attempt(db, address)
                return _refused_login(form, TooMany(CHECKING, "password", 1))
            right = check_password_hash(stored_hash, form.password.data or "")
        if right:
            if _start_session(stored_hash):
                director_store.clear_login_failures(db, address)
                session.permanent = True
                return redirect(_local_path(request.args.get("next", "")))
            return _refused_login(form, NotLoggedIn(PASSWORD_CHANGED, "password"))
        return _refused_login(form, NotLoggedIn("That is not the director password.", "password"))
    return form_page(render_template("director/login.html", form=form), form)


@contextmanager
def _one_check_at_a_time(patience: float) -> Iterator[bool]:
    """True while this request holds the server's one password check (``CHECKING``): a lock on a file
    beside the database, which every worker process and thread opens for itself; False while another
    holds it, at once or after ``patience`` seconds of asking."""
    deadline = time.monotonic() + patience
    with open(Path(database_path(current_app)).with_name("password-check.lock"), "a") as lock:
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(PATIENCE_STEP)
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


PASSWORD_CHANGED = "The director password has just been changed: log in with the new one."


class NotLoggedIn(Refusal):
    """The director's pages asked for without the director's password."""

    status = HTTPStatus.UNAUTHORIZED


def _refused_login(form: LoginForm, refused: Refusal) -> tuple[str, int, dict[str, str]]:
    form.password.errors = [str(refused)]
    return refused_page(render_template("director/login.html", form=form), refused)


@bp.post("/logout")
def logout() -> Response:
    """End the session on the server too, so that a copy of the cookie stops working; a second click does nothing."""
    form = EmptyForm()
    if form.validate_on_submit():
        session_id = session.pop("director", None)
        if isinstance(session_id, str):
            director_store.end_director_session(get_db(), session_id)
    return redirect(url_for("home.index"))


def who() -> str:
    """Who made a change to the club's list, as its history says: the director, and where from
    (the command line says so itself)."""
    return f"director at {client_address()}"
