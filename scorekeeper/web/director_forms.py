"""The director's password: set on the first run or changed, and typed to log in."""

from __future__ import annotations

from wtforms import PasswordField
from wtforms.validators import DataRequired, EqualTo, Length

from .forms import Form


class DirectorPasswordForm(Form):
    password = PasswordField(
        "Director password",
        validators=[DataRequired(), Length(min=10, max=200, message="Use at least 10 characters.")],
    )
    confirm = PasswordField(
        "The same password again", validators=[DataRequired(), EqualTo("password", message="The two passwords differ.")]
    )


class LoginForm(Form):
    password = PasswordField("Director password", validators=[DataRequired(message="Type the director password.")])
