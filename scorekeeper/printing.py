"""Printable pages that belong to no game: the blank score sheet and the rules quick-reference card."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from . import pdf
from .db import get_db
from .forms import PrintForm
from .house_store import house_choices
from .pages import pdf_response
from .scoring import configure
from .sheets import blank_sheet_html, rules_card_html, rules_reference

bp = Blueprint("printing", __name__)


def _form() -> tuple[PrintForm, bool]:
    form = PrintForm(formdata=request.args)
    form.offer_house_rules(house_choices(get_db()))
    return form, form.validate()


@bp.get("/blank-sheet")
def blank_sheet() -> str:
    """For tables that play on paper: choose the game and the number of players, then print."""
    form, _ = _form()
    return render_template("blank_sheet.html", form=form)


@bp.get("/blank-sheet.pdf")
def blank_sheet_pdf() -> Response | tuple[str, int]:
    form, valid = _form()
    if not valid:
        return render_template("blank_sheet.html", form=form), 400
    rules = form.configured_rules()
    html = blank_sheet_html(rules, int(form.players.data), form.paper.data)
    return pdf_response(pdf.render_pdf(html), f"blank-{rules.id}.pdf")


@bp.get("/rules")
def rules_card() -> str:
    form, valid = _form()
    rules = form.configured_rules() if valid else configure("crates")
    return render_template("rules.html", form=form, **rules_reference(rules))


@bp.get("/rules.pdf")
def rules_card_pdf() -> Response | tuple[str, int]:
    form, valid = _form()
    if not valid:
        return render_template("blank_sheet.html", form=form), 400
    rules = form.configured_rules()
    return pdf_response(pdf.render_pdf(rules_card_html(rules, form.paper.data)), f"rules-{rules.id}.pdf")
