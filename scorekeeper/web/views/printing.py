"""Printable pages that belong to no game: the blank score sheet and the rules quick-reference card."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, render_template, request
from flask.blueprints import BlueprintSetupState

from ...reports.sheets import blank_sheet_html, rules_card_html, rules_reference
from ...scoring import configure
from ...scoring.rulesets import DEFAULT_RULE_SET
from ...storage.house_rules import house_choices
from .. import render_pool
from ..connection import get_db
from ..errors import InvalidForm, refused_page
from ..printing_forms import PrintForm
from ..responses import pdf_response

bp = Blueprint("printing", __name__)


def _register_printer(state: BlueprintSetupState) -> None:
    assert isinstance(state.app, Flask)
    render_pool.init_app(state.app)


# Registered with the app, so that every PDF of the app (sheets, cards, standings, booklets), not only
# these pages, renders in the render processes and their refusals answer as pages.
bp.record_once(_register_printer)


def _form() -> tuple[PrintForm, bool]:
    form = PrintForm(formdata=request.args)
    form.offer_house_rules(house_choices(get_db()))
    return form, form.validate()


@bp.get("/blank-sheet")
def blank_sheet() -> str:
    """For tables that play on paper: choose the game and the number of players, then print."""
    form, _ = _form()
    return render_template("printing/blank_sheet.html", form=form)


@bp.get("/blank-sheet.pdf")
@render_pool.prints
def blank_sheet_pdf() -> Response | tuple[str, int, dict[str, str]]:
    form, valid = _form()
    if not valid or form.blank_table() is None:
        return refused_page(render_template("printing/blank_sheet.html", form=form), InvalidForm())
    rules = form.configured_rules()
    html = blank_sheet_html(rules, int(form.players.data), form.paper.data)
    return pdf_response(render_pool.render(html), f"blank-{rules.id}.pdf")


@bp.get("/rules")
def rules_card() -> str:
    form, valid = _form()
    return _rules_page(form, valid)


def _rules_page(form: PrintForm, valid: bool) -> str:
    """The rules card's page: the rules chosen, or the default game's beside the form's errors."""
    rules = form.configured_rules() if valid else configure(DEFAULT_RULE_SET)
    return render_template("printing/rules.html", form=form, **rules_reference(rules))


@bp.get("/rules.pdf")
@render_pool.prints
def rules_card_pdf() -> Response | tuple[str, int, dict[str, str]]:
    form, valid = _form()
    if not valid:
        return refused_page(_rules_page(form, valid), InvalidForm())
    rules = form.configured_rules()
    return pdf_response(render_pool.render(rules_card_html(rules, form.paper.data)), f"rules-{rules.id}.pdf")
