"""House rules pages: define a game, change it (each save a new version), start or print it.

Saved house games are shared by everyone the server serves. Until a director password is set
(a home game has no director) anyone may define or change them; once one is, only the director
may, so that no player can rewrite the game a club's tables start. Viewing, printing and
starting a game from them stay open to all.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ...reports.sheets import rules_card_html, rules_reference
from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage import director as director_store
from ...storage.house_rules import (
    NameTaken,
    SavedHouseRules,
    StaleHouseRules,
    house_rules_by_id,
    latest_version,
    list_house_rules,
    save_house_rules,
    versions,
)
from .. import render_pool
from ..connection import get_db
from ..errors import form_page
from ..forms import row_id
from ..house_rules_forms import HouseRulesForm
from ..responses import pdf_response, requested_paper
from .director import is_director

bp = Blueprint("house", __name__, url_prefix="/house-rules")


def may_change() -> bool:
    return director_store.director_password_hash(get_db()) is None or is_director()


def _director_login() -> Response:
    return redirect(url_for("director.login", next=request.path))


@bp.get("/")
def index() -> str:
    return render_template("house/index.html", saved=list_house_rules(get_db()), may_change=may_change())


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response | tuple[str, int, dict[str, str]]:
    if not may_change():
        return _director_login()
    form = HouseRulesForm()
    return _save(form, None)


@bp.route("/<int:rules_id>/edit", methods=["GET", "POST"])
def edit(rules_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """Editing saves a new version; games already started keep the rules they began with."""
    saved = _found(rules_id)
    if not may_change():
        return _director_login()
    form = HouseRulesForm()
    if not form.is_submitted():
        form.fill(saved.rules)
        form.replaces.data = str(saved.id)
    return _save(form, saved)


def _save(form: HouseRulesForm, editing: SavedHouseRules | None) -> Response | tuple[str, int, dict[str, str]]:
    stale: SavedHouseRules | None = None
    refused: Refusal | None = None
    if form.validate_on_submit() and form.rules is not None:
        replaces = row_id(form.replaces.data) if editing is not None else None
        try:
            if editing is not None:
                _check_same_game(editing, replaces)
            saved = save_house_rules(get_db(), form.rules, replaces)
        except StaleHouseRules as error:
            stale, refused = error.current, error
            form.replaces.data = str(stale.id)
        except NameTaken as error:
            form.name.errors = [sentence(str(error))]
            refused = error
        else:
            return redirect(url_for("house.show", rules_id=saved.id))
    return form_page(render_template("house/form.html", form=form, editing=editing, stale=stale), form, refused)


def _check_same_game(editing: SavedHouseRules, replaces: int | None) -> None:
    """The form must name a version of the game being edited; anything else is out of date."""
    latest = latest_version(get_db(), editing.id)
    if (
        replaces is None
        or house_rules_by_id(get_db(), replaces) is None
        or latest_version(get_db(), replaces) != latest
    ):
        raise StaleHouseRules(latest)


@bp.get("/<int:rules_id>")
def show(rules_id: int) -> str:
    saved = _found(rules_id)
    latest = latest_version(get_db(), saved.id)
    return render_template(
        "house/show.html",
        saved=saved,
        latest=latest,
        history=versions(get_db(), latest),
        may_change=may_change(),
        **rules_reference(saved.rules),
    )


@bp.get("/<int:rules_id>/rules.pdf")
@render_pool.prints
def rules_pdf(rules_id: int) -> Response:
    saved = _found(rules_id)
    return pdf_response(render_pool.render(rules_card_html(saved.rules, requested_paper())), f"rules-{saved.id}.pdf")


def _found(rules_id: int) -> SavedHouseRules:
    saved = house_rules_by_id(get_db(), rules_id)
    if saved is None:
        raise NotFound()
    return saved
