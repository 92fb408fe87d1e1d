"""Every refusal reads as a sentence, ending with its full stop, however it is shown: a page, a
phone's outbox (which shows the message as it comes), the command line."""

import importlib
import inspect
import pkgutil

import pytest

import scorekeeper
from scorekeeper.scoring import Game, InvalidSeating, Refusal, configure


def every_refusal_class() -> list[type[Refusal]]:
    for module in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
        importlib.import_module(module.name)
    found, todo = [], [Refusal]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [cls for cls in found if cls.__module__.startswith("scorekeeper.")]


def test_the_engines_refusal_of_one_player_ends_with_its_full_stop():
    with pytest.raises(InvalidSeating) as refused:
        Game(configure("crates", {}), ("Ann",))
    assert str(refused.value) == "Crates is for 2 to 5 players, not 1."


def test_a_game_record_refused_on_the_command_line_says_it_in_a_sentence(tmp_path, capsys):
    import json

    from scorekeeper.cli import main
    from tests.scoring.test_record import SPEC_EXAMPLE

    record = tmp_path / "one.json"
    record.write_text(json.dumps({**SPEC_EXAMPLE, "players": ["Ann"], "partnerships": [], "first_dealer": "Ann"}))
    assert main(["replay", str(record)]) != 0
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and error.endswith("not 1."), error


@pytest.mark.parametrize("cls", every_refusal_class(), ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_every_refusal_ends_with_a_full_stop(cls):
    parameters = inspect.signature(cls.__init__).parameters
    if list(parameters)[1:3] != ["message", "field"] or any(
        p.default is p.empty for name, p in parameters.items() if name not in ("self", "message", "field")
    ):
        pytest.skip(f"{cls.__name__} writes its own sentence")
    assert str(cls("Crates is for 2 to 5 players, not 1", None)) == "Crates is for 2 to 5 players, not 1."
    assert str(cls("Is that so?", None)) == "Is that so?", "a question keeps its mark"
    assert str(cls("Round 2 is seated already.", None)) == "Round 2 is seated already.", "never two stops"
