"""The scoring engine knows nothing of the web, the database or the rest of the app."""

import ast
from pathlib import Path

import scorekeeper.scoring

FORBIDDEN = (
    "flask",
    "flask_wtf",
    "wtforms",
    "sqlite3",
    "sqlite_utils",
    "weasyprint",
    "werkzeug",
    "jinja2",
    "click",
)
CORE = Path(scorekeeper.scoring.__file__).parent


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.module or ""
            elif node.level > _depth(path):
                yield "scorekeeper." + (node.module or "")


def _depth(path: Path) -> int:
    """How many ``..`` a relative import may climb and stay inside the core."""
    return len(path.relative_to(CORE).parts)


def test_scoring_imports_nothing_outside_the_core():
    files = sorted(CORE.rglob("*.py"))
    assert files
    for path in files:
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top not in FORBIDDEN, f"{path.name} imports {module}"
            assert not (module.startswith("scorekeeper") and not module.startswith("scorekeeper.scoring")), (
                f"{path.name} imports {module}"
            )
