"""House rules pages: define a game, change it (each save a new version), start or print it."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for
from werkzeug.wrappers import Response

from . import pdf
from .db import get_db
from .forms import HouseRulesForm
from .house_store import (
    NameTaken,
    SavedHouseRules,
    StaleHouseRules,
    house_rules_by_id,
    list_house_rules,
    save_house_rules,
    versions,
)
from .pages import pdf_response
from .sheets import rules_card_html, rules_reference

bp = Blueprint("house", __name__, url_prefix="/house-rules")


@bp.get("/")
def index() -> str:
    return render_template("house/index.html", saved=list_house_rules(get_db()))


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response | tuple[str, int]:
    form = HouseRulesForm()
    return _save(form, None)


@bp.route("/<int:rules_id>/edit", methods=["GET", "POST"])
def edit(rules_id: int) -> Response | tuple[str, int]:
    """Editing saves a new version; games already started keep the rules they began with."""
    saved = _found(rules_id)
    form = HouseRulesForm()
    if not form.is_submitted():
        form.fill(saved.rules)
        form.replaces.data = str(saved.id)
    return _save(form, saved)


def _save(form: HouseRulesForm, editing: SavedHouseRules | None) -> Response | tuple[str, int]:
    stale: SavedHouseRules | None = None
    if form.validate_on_submit() and form.rules is not None:
        replaces = int(form.replaces.data) if form.replaces.data else None
        try:
            saved = save_house_rules(get_db(), form.rules, replaces)
        except StaleHouseRules as error:
            stale = error.current
            form.replaces.data = str(stale.id)
        except NameTaken as error:
            form.name.errors = [str(error)[0].upper() + str(error)[1:] + "."]
        else:
            return redirect(url_for("house.show", rules_id=saved.id))
    status = (409 if stale else 422) if form.is_submitted() else 200
    return render_template("house/form.html", form=form, editing=editing, stale=stale), status


@bp.get("/<int:rules_id>")
def show(rules_id: int) -> str:
    saved = _found(rules_id)
    latest = next((s for s in list_house_rules(get_db()) if s.name.casefold() == saved.name.casefold()), saved)
    return render_template(
        "house/show.html",
        saved=saved,
        latest=latest,
        history=versions(get_db(), latest),
        **rules_reference(saved.rules),
    )


@bp.get("/<int:rules_id>/rules.pdf")
def rules_pdf(rules_id: int) -> Response:
    saved = _found(rules_id)
    return pdf_response(pdf.render_pdf(rules_card_html(saved.rules)), f"rules-{saved.id}.pdf")


def _found(rules_id: int) -> SavedHouseRules:
    saved = house_rules_by_id(get_db(), rules_id)
    if saved is None:
        abort(404)
    return saved
