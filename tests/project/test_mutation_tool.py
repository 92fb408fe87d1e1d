"""The mutation tool itself (``tools/mutation.py``, ``make mutation``): it makes one mutant per
change, a test that tells a mutant apart kills it, a mutant nothing can tell apart survives until
it is listed as equivalent, and the run fails below the threshold."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent.parent / "tools" / "mutation.py"

TINY = '''"""A tiny module."""


def bigger(a: int, b: int) -> int:
    """The larger of two numbers."""
    if a > b:
        return a
    return b
'''

#: Tells ``return a``/``return b`` from ``return None``; nothing can tell ``a > b`` from ``a >= b``.
TINY_TEST = """from tiny.calc import bigger


def test_the_larger_wins():
    assert bigger(2, 1) == 2 and bigger(1, 2) == 2
"""


def tool():
    spec = importlib.util.spec_from_file_location("mutation_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_tool"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "__init__.py").write_text("")
    (tmp_path / "tiny" / "calc.py").write_text(TINY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_calc.py").write_text(TINY_TEST)
    (tmp_path / "map.txt").write_text("# module: its tests\ntiny/calc.py: tests/test_calc.py\n")
    (tmp_path / "equivalent.txt").write_text("")
    return tmp_path


def run(checkout: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = tool().main(
        ["--root", str(checkout), "--map", str(checkout / "map.txt"), "--equivalent", str(checkout / "equivalent.txt")]
    )
    return code, capsys.readouterr().out


def test_each_change_is_one_mutant_named_by_where_and_what_it_changes():
    names = sorted(mutant.ident for mutant in tool().python_mutants("tiny/calc.py", TINY))
    assert names == ["tiny/calc.py:6:7:Gt:GtE", "tiny/calc.py:7:8:return:None", "tiny/calc.py:8:4:return:None"]


def test_a_mutant_keeps_its_name_when_the_module_grows_below_it():
    grown = TINY + "\n\ndef smaller(a: int, b: int) -> int:\n    return a if a < b else b\n"
    before = {mutant.ident for mutant in tool().python_mutants("tiny/calc.py", TINY)}
    after = {mutant.ident for mutant in tool().python_mutants("tiny/calc.py", grown)}
    assert before < after


def test_a_mutant_changes_one_thing_only():
    mutants = {mutant.ident: mutant.source for mutant in tool().python_mutants("tiny/calc.py", TINY)}
    assert "if a >= b:" in mutants["tiny/calc.py:6:7:Gt:GtE"]
    assert "return None" in mutants["tiny/calc.py:7:8:return:None"]
    assert "return b" in mutants["tiny/calc.py:7:8:return:None"]


def test_a_script_is_mutated_token_by_token_leaving_comments_and_strings_alone():
    script = '/* a < b */\nexport function f(a, b) { if (a < b) { throw new Error("no"); } return a + 1; }\n'
    names = [mutant.ident for mutant in tool().js_mutants("x.js", script)]
    assert names == [
        "x.js:2:32:<:<=",
        "x.js:2:39:throw:removed",
        'x.js:2:55:str:""',
        "x.js:2:64:return:undefined",
        "x.js:2:73:+:-",
        "x.js:2:75:1:2",
    ]


def test_the_tests_kill_what_they_tell_apart_and_the_run_fails_on_a_survivor(checkout, capsys):
    code, out = run(checkout, capsys)
    assert code == 1
    assert "survived: tiny/calc.py:6:7:Gt:GtE" in out
    row = next(line for line in out.splitlines() if line.startswith("tiny/calc.py") and line.endswith("%"))
    assert row.split()[1:] == ["2", "1", "0", "0", "66.7%"]


def test_a_mutant_listed_as_equivalent_is_not_counted(checkout, capsys):
    (checkout / "equivalent.txt").write_text(
        "tiny/calc.py:6:7:Gt:GtE # when a equals b, returning a or b returns the same number\n"
    )
    code, out = run(checkout, capsys)
    assert code == 0
    assert "survived:" not in out
    row = next(line for line in out.splitlines() if line.startswith("tiny/calc.py") and line.endswith("%"))
    assert row.split()[1:] == ["2", "0", "1", "0", "100.0%"]


def test_two_changes_starting_at_the_same_place_have_two_names():
    # In ``a - b - c`` the inner ``a - b`` starts where the whole does: it is named by where it ends too.
    names = sorted(mutant.ident for mutant in tool().python_mutants("m.py", "x = a - b - c\n"))
    assert names == ["m.py:1:4:Sub:Add", "m.py:1:4:Sub:Add@1.9"]


def test_the_shares_of_a_sample_are_every_mutant_once_and_the_sample_alone_is_share_0():
    script = "export const f = (a, b) => (a < b ? a + 1 : b - 2) * 3 === 4 || !a ? 'x' : \"y\";\n"
    mutants = list(tool().js_mutants("x.js", script))
    shares = [tool().sampled(mutants, 4, share) for share in range(4)]
    names = [mutant.ident for share in shares for mutant in share]
    assert sorted(names) == sorted(mutant.ident for mutant in mutants)
    assert len(set(names)) == len(mutants)
    assert sum(1 for share in shares if share) > 1
    assert tool().sampled(mutants, 4) == shares[0]


def test_the_run_takes_the_share_asked_for(checkout, capsys):
    files = [
        "--root",
        str(checkout),
        "--map",
        str(checkout / "map.txt"),
        "--equivalent",
        str(checkout / "equivalent.txt"),
    ]
    base = [*files, "--list", "--sample", "2"]
    listed = [tool().main([*base, "--share", str(share)]) == 0 and capsys.readouterr().out.split() for share in (0, 1)]
    assert sorted(listed[0] + listed[1]) == sorted(
        mutant.ident for mutant in tool().python_mutants("tiny/calc.py", TINY)
    )
    assert tool().main([*base, "--share", "2"]) == 2
    assert "--share 2" in capsys.readouterr().err
