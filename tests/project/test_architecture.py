"""The layout cannot decay: each part of the package imports only the parts below it.

scoring (the rules) imports nothing of ours; tournament and gamelog (a game's log folded and
changes checked) only scoring; storage and reports
never the web part, and reports never storage; the web part everything but the command
line (``cli/``), on top. Libraries are held to their parts too: no Flask below the web part, no SQL
outside storage, WeasyPrint only in reports.

The phone's scripts (``static/*.js``, ES modules) are held to theirs: they import files beside
them by relative names, never in a circle, and only ``storage.js`` touches the phone's storage;
the offline pages are drawn by a module that reaches neither the page, storage nor the network.
"""

import ast
import re
from pathlib import Path

import pytest

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).parent
STATIC = PACKAGE / "static"
#: What each part may import of ours, and which libraries it must not.
PARTS = {
    "scoring": (
        {"scoring"},
        {"flask", "flask_wtf", "wtforms", "werkzeug", "jinja2", "sqlite3", "sqlite_utils", "weasyprint", "click"},
    ),
    "tournament": (
        {"tournament", "scoring"},
        {"flask", "flask_wtf", "wtforms", "werkzeug", "jinja2", "sqlite3", "sqlite_utils", "weasyprint", "click"},
    ),
    "gamelog": (
        {"gamelog", "scoring"},
        {"flask", "flask_wtf", "wtforms", "werkzeug", "jinja2", "sqlite3", "sqlite_utils", "weasyprint", "click"},
    ),
    "club": (
        {"club", "scoring", "tournament"},
        {"flask", "flask_wtf", "wtforms", "werkzeug", "jinja2", "sqlite3", "sqlite_utils", "weasyprint", "click"},
    ),
    "storage": (
        {"storage", "gamelog", "scoring", "tournament", "club"},
        {"flask", "flask_wtf", "wtforms", "werkzeug", "jinja2", "weasyprint", "click"},
    ),
    "reports": (
        {"reports", "scoring", "tournament", "club"},
        {"flask", "flask_wtf", "wtforms", "werkzeug", "sqlite3", "sqlite_utils", "click"},
    ),
    "web": (
        {"web", "scoring", "tournament", "gamelog", "storage", "reports", "club"},
        {"weasyprint", "click", "sqlite3"},
    ),
}


def imports_of(path: Path):
    """(module, is ours) for every import in the file, relative ones resolved."""
    here = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = here[:-1] if here[-1] != "__init__" else here[:-1]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.module or ""
            else:
                base = package[: len(package) - node.level + 1]
                yield ".".join([*base, *([node.module] if node.module else [])])
                if not node.module:
                    yield from (".".join([*base, alias.name]) for alias in node.names)


def part_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "scorekeeper" and len(parts) > 1 else None


@pytest.mark.parametrize("part", PARTS)
def test_each_part_imports_only_what_lies_below_it(part):
    allowed, libraries = PARTS[part]
    files = sorted((PACKAGE / part).rglob("*.py"))
    assert files, part
    for path in files:
        for module in imports_of(path):
            where = f"{path.relative_to(PACKAGE)} imports {module}"
            assert module.split(".")[0] not in libraries, where
            if module.startswith("scorekeeper"):
                assert part_of(module) in allowed, where


def test_every_module_belongs_to_a_part_or_sits_on_top():
    top = {path.name for path in PACKAGE.glob("*.py")}
    assert top == {"__init__.py", "serve.py"}
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert folders == set(PARTS) | {"cli"}, "the command line (cli/) sits on top of every part"


def test_nothing_imports_the_command_line():
    for path in sorted(PACKAGE.rglob("*.py")):
        if "cli" in path.relative_to(PACKAGE).parts:
            continue
        assert not [module for module in imports_of(path) if part_of(module) == "cli"], path


def test_the_rule_catches_a_forbidden_import(tmp_path):
    """The checker itself: a storage module reaching for the web part is seen."""
    fake = PACKAGE / "storage" / "_architecture_probe.py"
    fake.write_text("from ..web.connection import get_db\n")
    try:
        with pytest.raises(AssertionError, match="imports scorekeeper.web.connection"):
            test_each_part_imports_only_what_lies_below_it("storage")
    finally:
        fake.unlink()


def module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_modules_import_each_other_in_a_circle_within_a_part():
    """Every import counts, a type checker's and one inside a function too: an order in which each
    module of a part comes after the modules of that part it imports (a package's ``__init__``,
    which gathers its modules, aside)."""
    for part in PARTS:
        files = sorted((PACKAGE / part).rglob("*.py"))
        modules = {module_of(path): path for path in files if path.name != "__init__.py"}
        graph = {
            name: {used for used in imports_of(path) if used in modules and used != name}
            for name, path in modules.items()
        }
        ordered: set[str] = set()
        while len(ordered) < len(graph):
            ready = {name for name, needs in graph.items() if name not in ordered and needs <= ordered}
            assert ready, f"imports in a circle among {sorted(set(graph) - ordered)}"
            ordered |= ready


def module_imports(path: Path) -> set[str]:
    """The specifiers a script's import statements name."""
    return set(re.findall(r"""^import\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']""", path.read_text(), re.M))


def test_the_phones_modules_import_files_beside_them_and_never_in_a_circle():
    """Relative names of files in static/ itself (the static files are served flat, their names
    hashed through an import map), and an order in which each comes after what it imports."""
    graph = {}
    for path in sorted(STATIC.glob("*.js")):
        for spec in module_imports(path):
            assert re.fullmatch(r"\./[\w.-]+\.js", spec), f"{path.name} imports {spec}"
            assert (STATIC / spec[2:]).is_file(), f"{path.name} imports {spec}, which is missing"
        graph[path.name] = {spec[2:] for spec in module_imports(path)}
    assert "main.js" in graph and module_imports(STATIC / "main.js")
    ordered: set[str] = set()
    while len(ordered) < len(graph):
        ready = {name for name, needs in graph.items() if name not in ordered and needs <= ordered}
        assert ready, f"imports in a circle among {sorted(set(graph) - ordered)}"
        ordered |= ready


def test_every_script_is_type_checked():
    """Each of the phone's scripts says so at its top (`tsc --noEmit` in `make lint` checks them
    all, and an editor then checks the file open in it too)."""
    for path in sorted(STATIC.glob("*.js")):
        assert path.read_text().startswith("// @ts-check\n"), path.name


def test_the_outbox_imports_no_pages_part():
    """The outbox sends every page's changes and knows none of the pages: a part that reads some
    refusals better (the pad, its leftovers' conflicts) registers for them (onRefusal)."""
    assert module_imports(STATIC / "outbox.js") <= {"./net.js", "./storage.js"}


def test_the_offline_pages_are_drawn_without_the_page_storage_or_network():
    """offline_pages.js draws from the fold alone (Node runs it in tests/phone): what it reaches
    imports no storage, no network, no outbox, and names no document, window or address bar."""
    reached, waiting = set(), ["offline_pages.js"]
    while waiting:
        for spec in module_imports(STATIC / waiting.pop()):
            if spec[2:] not in reached:
                reached.add(spec[2:])
                waiting.append(spec[2:])
    assert reached.isdisjoint({"storage.js", "net.js", "outbox.js", "follow.js", "offline.js"}), reached
    for name in ["offline_pages.js", *reached]:
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", (STATIC / name).read_text(), flags=re.S)
        assert not re.search(r"\b(document|window|location|localStorage|sessionStorage|fetch)\b", code), name


def test_only_storage_js_touches_the_phones_storage():
    """One helper that never throws (private mode, no storage), instead of a try around every call."""
    touching = {
        path.name for path in STATIC.glob("*.js") if re.search(r"localStorage|sessionStorage", path.read_text())
    }
    assert touching == {"storage.js"}


def test_no_module_is_over_500_lines_unless_its_docstring_says_why():
    """A file with one job reads in one sitting; one that must be longer says why at its top."""
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text().count("\n")
        if lines > 500:
            docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
            assert "over 500 lines" in docstring, f"{path.relative_to(PACKAGE)}: {lines} lines"
