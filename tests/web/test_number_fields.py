"""Every number a form takes is one field type, ``WholeNumberField``, which refuses a number too
long to be meant beside its field, keeping what was typed: a number of hundreds of digits once
answered 500 (WTForms' range check compares it with a float, which overflows past ~309 digits)."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from werkzeug.datastructures import MultiDict
from wtforms import DecimalField, FloatField, IntegerField, SelectField
from wtforms.fields import FieldList, FormField

import scorekeeper.web
from scorekeeper.scoring.record import NUMBER_MAX_DIGITS
from scorekeeper.web import event_forms, house_rules_forms, start_forms
from scorekeeper.web.forms import Form, WholeNumberField, whole_number
from tests.scoring.test_one_text_rule import errors_beside
from tests.support.web import csrf_token, new_game_form
from tests.web.test_events import event_form, new_event, set_up_director

HUGE = "9" * 400
TOO_LONG = f"A number of at most {NUMBER_MAX_DIGITS} digits: this one has 400."
NOT_WHOLE = "A whole number, such as 25 or -10."


def every_form_class() -> list[type[Form]]:
    """Every form of the app, whichever module of ``web`` defines it (each module imported first)."""
    for module in pkgutil.walk_packages(scorekeeper.web.__path__, "scorekeeper.web."):
        importlib.import_module(module.name)
    found, todo = [], [Form]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls is not Form:
            found.append(cls)
    return sorted(found, key=lambda cls: cls.__name__)


def fields_of(form):
    for field in form:
        if isinstance(field, FieldList):
            yield from (entry for entry in field.entries)
        elif isinstance(field, FormField):
            yield from fields_of(field.form)
        else:
            yield field


def numeric(field) -> bool:
    """A field that reads a number: WTForms' number fields, or a choice read as one."""
    if isinstance(field, IntegerField | DecimalField | FloatField):
        return True
    return isinstance(field, SelectField) and field.coerce not in (str, None)


def numeric_fields(app) -> list[tuple[type[Form], str]]:
    with app.test_request_context("/", method="POST"):
        return [
            (cls, field.name)
            for cls in every_form_class()
            for field in fields_of(cls(formdata=MultiDict(), meta={"csrf": False}))
            if numeric(field)
        ]


def test_the_forms_have_numeric_fields_to_check(app):
    """The check below would pass on no field at all: the forms have many."""
    assert len(numeric_fields(app)) >= 20


def test_every_numeric_field_of_every_form_is_the_one_number_field(app):
    with app.test_request_context("/", method="POST"):
        for cls in every_form_class():
            for field in fields_of(cls(formdata=MultiDict(), meta={"csrf": False})):
                if numeric(field):
                    assert isinstance(field, WholeNumberField) or field.coerce is whole_number, (
                        cls.__name__,
                        field.name,
                    )


def refused_beside_every_numeric_field_keeping_it(app, typed: str, words: str) -> None:
    """Each numeric field of each form, sent ``typed``, refuses it in ``words`` and keeps it."""
    for cls, name in numeric_fields(app):
        with app.test_request_context("/", method="POST", data={name: typed}):
            form = cls(meta={"csrf": False})
            assert form.validate() is False, (cls.__name__, name)
            field = form[name]
            if isinstance(field, SelectField):
                assert field.errors, (cls.__name__, name)
            else:
                assert field.errors == [words], (cls.__name__, name, field.errors)
                assert field._value() == typed


def test_every_numeric_field_refuses_a_number_of_400_digits_beside_itself_keeping_it(app):
    refused_beside_every_numeric_field_keeping_it(app, HUGE, TOO_LONG)


@pytest.mark.parametrize("typed", ["2.5", "lots", "1e3"])
def test_every_numeric_field_refuses_what_is_not_a_whole_number_in_one_sentence_keeping_it(app, typed):
    """Seen at a club evening: a penalty of 2.5 points was told "Not a valid integer value." and,
    beneath it, "Number must be between -1000 and 1000.", which was not so."""
    refused_beside_every_numeric_field_keeping_it(app, typed, NOT_WHOLE)


@pytest.mark.parametrize("typed", ["000000000000000000042", "+7", "-12", " 15 "])
def test_leading_zeros_and_signs_are_not_digits_too_many(app, typed):
    with app.test_request_context("/", method="POST", data={"rounds": typed}):
        form = event_forms.EventForm(meta={"csrf": False})
        form.validate()
        assert form.rounds.errors != [TOO_LONG.replace("400", "21")]
        assert form.rounds.data == int(typed)


def kept(page: str, field_id: str) -> bool:
    """The input ``field_id`` shows the 400 digits as typed."""
    found = re.search(rf'<input[^>]*id="{field_id}"[^>]*>', page)
    return found is not None and f'value="{HUGE}"' in found.group(0)


def test_each_option_of_the_start_form_refuses_it_beside_the_option(client):
    options = [field.name for field in start_forms.NewGameForm.OPTION_SPECS.values()]
    assert options
    with client.application.test_request_context("/new", method="POST"):
        numbers = [
            f.name for f in fields_of(start_forms.NewGameForm(meta={"csrf": False})) if isinstance(f, WholeNumberField)
        ]
    assert numbers
    for name in numbers:
        data = new_game_form(["Ann", "Bob"], **{name: HUGE})
        response = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), **data})
        page = response.get_data(as_text=True)
        assert response.status_code == 422, name
        assert errors_beside(page, name) == [TOO_LONG] and kept(page, name), name


def test_each_number_of_the_house_rules_form_refuses_it_beside_the_field(client):
    with client.application.test_request_context("/", method="POST"):
        numbers = [
            f.name
            for f in fields_of(house_rules_forms.HouseRulesForm(meta={"csrf": False}))
            if isinstance(f, WholeNumberField)
        ]
    assert len(numbers) >= 4
    for name in numbers:
        token = csrf_token(client, "/house-rules/new")
        response = client.post("/house-rules/new", data={"csrf_token": token, "name": "Ours", "deal": "7", name: HUGE})
        page = response.get_data(as_text=True)
        assert response.status_code == 422, name
        assert errors_beside(page, name) == [TOO_LONG] and kept(page, name), name


def test_the_new_event_and_late_player_forms_refuse_it_beside_the_field(client):
    set_up_director(client)
    response = client.post("/director/events/new", data=event_form(client, ["Ann", "Bob"], rounds=HUGE))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert errors_beside(page, "rounds") == [TOO_LONG] and kept(page, "rounds")

    event_url = new_event(client, ["Ann", "Bob", "Cy", "Di"])
    data = {"csrf_token": csrf_token(client, event_url), "late-name": "Eve", "late-from_round": HUGE}
    response = client.post(event_url + "/players/late", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert errors_beside(page, "late-from_round") == [TOO_LONG] and kept(page, "late-from_round")


def test_a_browser_sending_every_number_field_empty_still_starts_a_game(client):
    """A browser posts every field, the options of other games empty: an empty number is no
    number (``Optional``), not a refusal."""
    with client.application.test_request_context("/", method="POST"):
        empty = {
            f.name: ""
            for f in fields_of(start_forms.NewGameForm(meta={"csrf": False}))
            if isinstance(f, WholeNumberField)
        }
    assert empty
    data = new_game_form(["Ann", "Bob"], **empty)
    response = client.post("/new", data={"csrf_token": csrf_token(client, "/new"), **data})
    assert response.status_code == 302, errors_beside(response.get_data(as_text=True), next(iter(empty)))
