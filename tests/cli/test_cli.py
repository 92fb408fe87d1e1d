"""The ``scorekeeper`` command-line contract (issue 2)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from scorekeeper.cli import cli, main
from tests.scoring.test_record import SPEC_EXAMPLE

SCRIPT = shutil.which("scorekeeper", path=os.path.dirname(sys.executable)) or "scorekeeper"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The installed console script, as a user runs it."""
    return subprocess.run([SCRIPT, *args], input=stdin, capture_output=True, text=True, timeout=30)


def test_score_prints_the_breakdown_and_the_total():
    result = run("score", "A", "2", "3", "3", "6", "8", "K")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1].split() == ["total", "67"]
    assert any("3 covers 6" in line for line in lines)
    assert any("3 covers 2" in line for line in lines)


def test_score_json_has_the_total_and_the_covers():
    result = run("score", "--json", "A", "3", "3", "6", "7", "9", "K")
    data = json.loads(result.stdout)
    assert data["total"] == 37
    assert sorted(cover["covered"] for cover in data["covers"]) == ["6", "9"]


def test_score_reads_one_hand_per_line_from_stdin():
    result = run("score", "--json", stdin="A 2 3 3 6 8 K\n-\n3 3 8\n3 3\n")
    totals = [json.loads(line)["total"] for line in result.stdout.splitlines()]
    assert totals == [67, 0, 53, -100]


def test_score_text_from_stdin_is_one_line_per_hand_total_last():
    result = run("score", stdin="A 2 3 3 6 8 K\n\n-\n")
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("= 67") and "3→6" in lines[0]
    assert lines[1].endswith("= 0")


def test_score_accepts_suits_and_t_for_ten():
    result = run("score", "--json", "th", "QS", "3c")
    assert json.loads(result.stdout)["total"] == 3 + 10


def test_score_with_jokers():
    assert json.loads(run("score", "--json", "--jokers", "JK", "K").stdout)["total"] == 50


def test_score_with_jokers_in_a_game_that_always_has_them():
    assert json.loads(run("score", "--json", "--rules", "crazy-aces", "--jokers", "JK", "A").stdout)["total"] == 75


def test_pressures_doubling_and_capped():
    assert json.loads(run("pressures", "--count", "6", "--json").stdout) == [5, 10, 20, 40, 80, 160]
    assert json.loads(run("pressures", "--count", "7", "--cap", "20", "--json").stdout) == [
        5,
        10,
        20,
        40,
        60,
        80,
        100,
    ]
    assert run("pressures", "--count", "3").stdout.split() == ["5", "10", "20"]


def test_replay_json_is_the_spec_output(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_EXAMPLE))
    result = run("replay", "--json", str(path))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert [side["total"] for side in output["sides"]] == [59, 50]
    assert output["leader"] == ["Bob & Di"]


def test_replay_prints_a_score_table(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_EXAMPLE))
    out = run("replay", str(path)).stdout
    assert "Ann & Cy" in out and "59" in out and "Leader: Bob & Di on 50" in out
    assert "hand 1: Bob (Bob & Di) pressure 2 = 10" in out


def test_replay_reads_stdin():
    result = run("replay", "--json", "-", stdin=json.dumps(SPEC_EXAMPLE))
    assert json.loads(result.stdout)["sides"][0]["total"] == 59


def bad_record(**changes):
    record = json.loads(json.dumps(SPEC_EXAMPLE))
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize(
    "args, stdin, expected",
    [
        (["score", "A", "Z"], None, "unknown card 'Z'"),
        (["score", "--rules", "bridge", "A"], None, "bridge"),
        (["score", "JK"], None, "jokers are off"),
        (["score", "K", "K", "K", "K", "K"], None, "5 × K in one hand"),
        (["score"], "A 3\nA ZZ\n", "line 2: unknown card 'ZZ'"),
        (["pressures"], None, "--count"),
        (["pressures", "--count", "-1"], None, "--count"),
        (["pressures", "--count", "2", "--cap", "0"], None, "--cap"),
        (["replay", "/nonexistent/game.json"], None, "no such file"),
        (["replay", "-"], "{broken", "not JSON"),
        (["replay", "-"], bad_record(rules="bridge"), "unknown rule set 'bridge'"),
        (
            ["replay", "-"],
            bad_record(hands=[{"leftovers": {"Ann": [], "Bob": [], "Cy": [], "Zed": []}}]),
            "'Zed' is not a player",
        ),
        (
            ["replay", "-"],
            bad_record(hands=[{"leftovers": {"Ann": ["K"] * 5, "Bob": [], "Cy": [], "Di": []}}]),
            "5 × K",
        ),
        (["replay", "-"], bad_record(hands=SPEC_EXAMPLE["hands"] * 16), "Hand 16"),
        (
            ["replay", "-"],
            json.dumps(
                {
                    "format": "scorekeeper-game/1",
                    "rules": "crates-world-series",
                    "players": ["A", "Figgy", "B"],
                    "hands": [{"leftovers": {"A": [], "Figgy": [], "B": []}, "pressures": ["Figgy"]}],
                }
            ),
            "Figgy never takes a pressure",
        ),
        (["score", "--rules", "crazy-eights", "KH", "Kh"], None, "2 × K♥ in one hand, but one deck has only 1"),
        (["score", "--rules", "two-fifty", "Kh", "K"], None, "the 250 game needs suits"),
        (["score", "--rules", "crazy-eights", "--jokers", "JK"], None, "Crazy Eights has no jokers"),
        (["score", "--rules", "two-fifty"], "Kh\nK\n", "line 2: the 250 game needs suits"),
        (
            ["replay", "-"],
            bad_record(
                players=["A & B", "A", "C", "B & C"],
                partnerships=[["A & B", "C"], ["A", "B & C"]],
                first_dealer="A",
                hands=[],
            ),
            "would both be called 'A & B & C'",
        ),
        (["frobnicate"], None, "No such command"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line_on_stderr(args, stdin, expected):
    result = run(*args, stdin=stdin)
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert expected in lines[0]
    assert "Traceback" not in result.stderr


def test_main_returns_the_status_instead_of_raising(capsys):
    assert main(["score", "Z"]) == 1
    assert "unknown card" in capsys.readouterr().err
    assert main(["score", "A"]) == 0


def test_every_command_has_help_text():
    for name, command in cli.commands.items():
        assert command.help and command.help.strip(), name
        assert run(name, "--help").returncode == 0


def reference_sections() -> dict[str, str]:
    """docs/command-line.md by command: each section under the heading that names it."""
    doc = (Path(__file__).parent.parent.parent / "docs" / "command-line.md").read_text()
    found: dict[str, str] = {}
    for section in doc.split("\n## ")[1:]:
        heading = section.split("\n", 1)[0]
        for name in cli.commands:
            if f"`scorekeeper {name}`" in heading:
                found[name] = section
    return found


def test_the_command_line_reference_has_every_command_and_each_of_its_options_as_help_has_them():
    sections = reference_sections()
    assert set(sections) == set(cli.commands), set(cli.commands) ^ set(sections)
    for name, command in cli.commands.items():
        for param in command.params:
            if isinstance(param, click.Option):
                for option in param.opts:
                    if option.startswith("--"):
                        assert re.search(rf"(?<![\w-]){option}(?![\w-])", sections[name]), (name, option)


def test_the_readme_names_every_command_and_points_to_the_reference():
    readme = (Path(__file__).parent.parent.parent / "README.md").read_text()
    assert "docs/command-line.md" in readme
    for name in cli.commands:
        assert f"`{name}`" in readme, name


@pytest.mark.parametrize("command", ["replay", "verify", "report"])
def test_a_record_command_reads_at_most_what_a_record_can_take_from_an_endless_file(command, tmp_path):
    """/dev/zero, as the file or as standard input, is refused in one line by a process allowed 400 MB."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))

    extra = {"verify": ["5F7A-7FF5-5BF0"], "report": ["--output", str(tmp_path / "sheet.pdf")]}.get(command, [])
    for name, stdin in [("/dev/zero", None), ("-", "/dev/zero")]:
        with open(stdin or "/dev/null", "rb") as source:
            arguments = [*extra, name] if command == "verify" else [name, *extra]
            result = subprocess.run(
                [SCRIPT, command, *arguments],
                stdin=source,
                capture_output=True,
                text=True,
                timeout=60,
                preexec_fn=limited,
            )
        lines = result.stderr.strip().splitlines()
        assert result.returncode != 0 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
        assert "is larger than a game record can be" in lines[0], lines[0]
