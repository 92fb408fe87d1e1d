"""`make run` installs what serving needs, not the test tools; `make test` installs them too.

Checked with `make -n` (what make would run, nothing run) into a venv folder that does not exist,
so that every install step is listed."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def planned(target: str, tmp_path: Path) -> str:
    result = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return result.stdout


def test_make_run_installs_the_app_without_the_test_tools(tmp_path):
    plan = planned("run", tmp_path)
    assert "pip install --quiet -e ." in plan
    assert "[test]" not in plan
    assert "scorekeeper serve" in plan


def test_make_test_installs_the_test_tools_then_runs_the_suite(tmp_path):
    plan = planned("test", tmp_path)
    assert "-e '.[test]'" in plan
    assert plan.index("-e '.[test]'") < plan.index("-m pytest")


def test_make_lint_type_checks_the_phones_scripts_with_the_pinned_typescript(tmp_path):
    """TypeScript comes from the npm registry at the version package-lock.json pins (npm ci, again
    when the lock changes), then checks the page's scripts, the service worker and the Node tests."""
    result = subprocess.run(
        ["make", "-n", "lint", f"VENV={tmp_path / 'venv'}", f"NODE_STAMP={tmp_path / 'node-installed'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    plan = result.stdout
    assert "npm ci" in plan
    for project in ("tsconfig.json", "tsconfig.sw.json", "tests/phone/tsconfig.json"):
        assert (ROOT / project).is_file()
        assert plan.index("npm ci") < plan.index(f"node_modules/.bin/tsc --noEmit -p {project}")


def test_make_mutation_runs_the_mutation_tool_apart_from_make_test(tmp_path):
    assert "tools/mutation.py" in planned("mutation", tmp_path)
    assert (
        "tools/mutation.py --module scorekeeper/scoring/pressures.py"
        in subprocess.run(
            ["make", "-n", "mutation", f"VENV={tmp_path / 'venv'}", "MODULE=scorekeeper/scoring/pressures.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert "tools/mutation.py" not in planned("test", tmp_path)


def _commit_message(tmp_path, subject: str) -> subprocess.CompletedProcess[str]:
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text(subject + "\n\nThe detail, as long as it needs to be, " * 5 + "\n", encoding="utf-8")
    hook = ROOT / "tools" / "hooks" / "commit-msg"
    return subprocess.run([str(hook), str(message)], capture_output=True, text=True, check=False)


def test_a_commit_subject_longer_than_72_characters_is_refused_in_one_line(tmp_path):
    assert _commit_message(tmp_path, "é" * 72).returncode == 0  # characters, not bytes
    refused = _commit_message(tmp_path, "x" * 73)
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "commit-msg: the subject is 73 characters; keep it to 72 and put the rest in the body"
    ]


def test_a_developers_set_up_points_git_at_the_commit_hook_and_serving_does_not(tmp_path):
    assert "git config core.hooksPath tools/hooks" in planned("test", tmp_path)
    assert "core.hooksPath" not in planned("run", tmp_path)
