"""Mutation testing: does each module's own tests notice a small change to it?

``python tools/mutation.py`` (``make mutation``) makes every mutant of the modules listed in
``tools/mutation-map.txt`` — one change at a time: an operator swapped (``+``/``-``, ``*``/``//``,
``<``/``<=``, ``==``/``!=``, ``is``/``is not``, ``in``/``not in``, ``and``/``or``), a ``not``
dropped, a constant changed (``n`` to ``n + 1``, ``True``/``False``, a string to another), a
``raise`` removed, a returned value replaced by ``None`` — and runs the module's own tests
(the map's list of test files) against each, in a copy of the checkout, one mutant at a time
(``pytest -x -q -p no:cacheprovider -n 0``) with a time limit that ends infinite loops.
``static/rules.js`` is mutated at the level of its tokens with the same operators (a ``throw``
becomes ``void``, a returned value ``undefined``).

A mutant is named by what it changes, never by a count: ``module:line:column:operator:replacement``,
so that ``tools/mutation-equivalent.txt`` (a name a line, then `` # `` and why no behaviour can
tell the mutant from the module) stays true while other lines change. The run prints, for each
module, the mutants killed, survived, equivalent and timed out (a timeout counts as killed: an
infinite loop is behaviour a user meets) and the share of the non-equivalent ones killed, lists
the survivors, and exits 1 when a module is below ``--threshold`` (95%).
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = Path(__file__).resolve().parent / "mutation-map.txt"
EQUIVALENT = Path(__file__).resolve().parent / "mutation-equivalent.txt"

BINARY_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
BOOL_SWAPS: dict[type[ast.boolop], type[ast.boolop]] = {ast.And: ast.Or, ast.Or: ast.And}


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One change to one module: ``ident`` names it, ``source`` is the whole mutated module."""

    ident: str
    source: str


@dataclasses.dataclass
class Outcome:
    module: str
    killed: list[str] = dataclasses.field(default_factory=list)
    survived: list[str] = dataclasses.field(default_factory=list)
    equivalent: list[str] = dataclasses.field(default_factory=list)
    timeout: list[str] = dataclasses.field(default_factory=list)

    @property
    def score(self) -> float:
        """The share of the non-equivalent mutants killed (a timeout is killed), in percent."""
        counted = len(self.killed) + len(self.timeout) + len(self.survived)
        return 100.0 if counted == 0 else 100.0 * (len(self.killed) + len(self.timeout)) / counted


# -- Python: mutants from the syntax tree ------------------------------------------------------


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Nodes no mutant touches: docstrings, annotations, f-string pieces, ``__all__``, what only a
    type checker reads (``TYPE_CHECKING``, ``cast``'s type)."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        # A docstring, or a string standing alone under an assignment (what documents a name).
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            skip(node)
        if isinstance(node, ast.arg | ast.AnnAssign):
            skip(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skip(node.returns)
        if isinstance(node, ast.JoinedStr):
            for value in node.values:
                if isinstance(value, ast.Constant):
                    skip(value)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skip(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cast":
            skip(node.args[0] if node.args else None)
    return skipped


def _string_replacement(value: str) -> str:
    return "" if value else "mutant"


Edit = tuple[str, str, Callable[[ast.AST], None]]


def _setting(name: str, value: object) -> Callable[[ast.AST], None]:
    """Sets ``name`` on a node of the copy: its operator or its value."""

    def apply(node: ast.AST) -> None:
        setattr(node, name, value() if isinstance(value, type) else value)

    return apply


def _edits(node: ast.AST) -> Iterator[Edit]:
    """(operator, replacement, how to apply it to a copy of ``node``) for each mutant of ``node``."""
    if isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in BINARY_SWAPS:
        new = BINARY_SWAPS[type(node.op)]
        yield type(node.op).__name__, new.__name__, _setting("op", new)
    elif isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAPS:
                new_cmp = COMPARE_SWAPS[type(op)]

                def swap(n: ast.AST, index: int = index, new: type[ast.cmpop] = new_cmp) -> None:
                    assert isinstance(n, ast.Compare)
                    n.ops[index] = new()

                suffix = f"[{index}]" if len(node.ops) > 1 else ""
                yield type(op).__name__ + suffix, new_cmp.__name__, swap
    elif isinstance(node, ast.BoolOp):
        new_bool = BOOL_SWAPS[type(node.op)]
        yield type(node.op).__name__, new_bool.__name__, _setting("op", new_bool)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield type(node.op).__name__, "dropped", _setting("op", ast.UAdd)
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            yield repr(value), repr(not value), _setting("value", not value)
        elif isinstance(value, int):
            yield repr(value), repr(value + 1), _setting("value", value + 1)
        elif isinstance(value, str):
            new_text = _string_replacement(value)
            yield "str", repr(new_text), _setting("value", new_text)


def _statement_edits(node: ast.AST) -> Iterator[Edit]:
    if isinstance(node, ast.Raise):
        yield "raise", "removed", _setting("raise", None)  # the caller puts ``pass`` in its place
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            yield "return", "None", _setting("value", ast.Constant(None))


def python_mutants(relative: str, text: str) -> Iterator[Mutant]:
    """Every mutant of a Python module, each the whole module's source with one change."""
    tree = ast.parse(text)
    original = ast.unparse(tree)
    skipped = _skipped_nodes(tree)
    nodes = list(ast.walk(tree))
    named: set[str] = set()
    for index, node in enumerate(nodes):
        if id(node) in skipped or not isinstance(node, ast.expr | ast.stmt):
            continue
        where = f"{relative}:{node.lineno}:{node.col_offset}"
        for operator, replacement, apply in list(_edits(node)) + list(_statement_edits(node)):
            mutated = copy.deepcopy(tree)
            target = list(ast.walk(mutated))[index]
            if operator == "raise":
                _replace_statement(mutated, target, ast.Pass())
            else:
                apply(target)
            source = ast.unparse(ast.fix_missing_locations(mutated))
            ident = f"{where}:{operator}:{replacement}"
            if ident in named:  # ``a - b - c``: the inner ``a - b`` starts where the whole does
                ident += f"@{node.end_lineno}.{node.end_col_offset}"
            named.add(ident)
            if source != original:
                yield Mutant(ident, source)


def _replace_statement(tree: ast.AST, old: ast.AST, new: ast.stmt) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list) and any(item is old for item in value):
                setattr(parent, field, [new if item is old else item for item in value])
                return


# -- JavaScript: mutants from the tokens -------------------------------------------------------

JS_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?\*/)
      | (?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
      | (?P<number>\d+(?:\.\d+)?n?)
      | (?P<word>[A-Za-z_$][\w$]*)
      | (?P<punct>===|!==|>=|<=|&&|\|\||\+=|-=|\*=|\+\+|--|=>|\?\?|[-+*/%<>!=(){}\[\];,.?:&|^~])
      | (?P<space>\s+)
    """,
    re.VERBOSE | re.DOTALL,
)
JS_SWAPS = {
    "+": "-",
    "-": "+",
    "*": "/",
    "/": "*",
    "%": "*",
    "<": "<=",
    "<=": "<",
    ">": ">=",
    ">=": ">",
    "===": "!==",
    "!==": "===",
    "&&": "||",
    "||": "&&",
    "+=": "-=",
    "-=": "+=",
    "*=": "/=",
    "true": "false",
    "false": "true",
}


def js_mutants(relative: str, text: str) -> Iterator[Mutant]:
    """Every mutant of a script, each the whole script with one token changed."""
    tokens = []
    position = 0
    while position < len(text):
        match = JS_TOKEN.match(text, position)
        if match is None:
            raise SystemExit(f"{relative}: cannot read the script at offset {position}")
        tokens.append((match.lastgroup, match.group(), match.start()))
        position = match.end()
    code = [(kind, value, start) for kind, value, start in tokens if kind not in ("comment", "space")]
    for index, (kind, value, start) in enumerate(code):
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1)
        where = f"{relative}:{line}:{column}"
        after = code[index + 1][1] if index + 1 < len(code) else ""

        def replaced(new: str, start: int = start, value: str = value) -> str:
            return text[:start] + new + text[start + len(value) :]

        if value in JS_SWAPS and kind in ("punct", "word"):
            yield Mutant(f"{where}:{value}:{JS_SWAPS[value]}", replaced(JS_SWAPS[value]))
        elif value == "!" and kind == "punct":
            yield Mutant(f"{where}:!:dropped", replaced(""))
        elif kind == "number":
            big = value.endswith("n")
            number = value.rstrip("n")
            if "." not in number:
                new = str(int(number) + 1) + ("n" if big else "")
                yield Mutant(f"{where}:{value}:{new}", replaced(new))
        elif kind == "string":
            new = '""' if len(value) > 2 else '"mutant"'
            yield Mutant(f"{where}:str:{new}", replaced(new))
        elif value == "throw":
            yield Mutant(f"{where}:throw:removed", replaced("void"))
        elif value == "return" and after not in (";", "}"):
            yield Mutant(f"{where}:return:undefined", replaced("return void"))


# -- Running -----------------------------------------------------------------------------------


def read_map(path: Path = MAP) -> dict[str, list[str]]:
    """``module: test files`` lines (``#`` starts a comment) as a dict."""
    modules: dict[str, list[str]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            module, _, tests = line.partition(":")
            modules[module.strip()] = tests.split()
    return modules


def read_equivalents(path: Path = EQUIVALENT) -> dict[str, str]:
    """Mutant names listed as equivalent, each with its reason."""
    found: dict[str, str] = {}
    if path.exists():
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                ident, _, reason = line.partition(" # ")
                found[ident.strip()] = reason.strip()
    return found


def sampled(mutants: list[Mutant], sample: int = 1, share: int = 0) -> list[Mutant]:
    """Share ``share`` (0 to ``sample`` - 1) of one in ``sample`` of the mutants, chosen by a hash of
    each name: the same ones every run, and the ``sample`` shares together are every mutant once."""
    return [mutant for mutant in mutants if zlib.crc32(mutant.ident.encode()) % sample == share]


def mutants_of(root: Path, module: str) -> list[Mutant]:
    text = (root / module).read_text(encoding="utf-8")
    found = js_mutants(module, text) if module.endswith(".js") else python_mutants(module, text)
    return sorted(found, key=lambda mutant: [int(part) for part in mutant.ident.split(":")[1:3]])


def _copy_checkout(root: Path, into: Path, module: str) -> None:
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc", ".pytest_cache")
    for part in sorted({"scorekeeper", "tests", module.split("/")[0]}):
        if (root / part).exists():
            shutil.copytree(root / part, into / part, ignore=ignore)
    for name in ("pyproject.toml", "conftest.py"):
        if (root / name).exists():
            shutil.copy2(root / name, into / name)


def _run_tests(copy_root: Path, tests: list[str], limit: float) -> tuple[str, float]:
    """``passed``, ``failed`` or ``timeout``, and the seconds taken."""
    # A test may keep there what no mutant changes (the phone's test: the engine's answers), for the run.
    cache = copy_root / ".mutation-cache"
    cache.mkdir(exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(copy_root), SCOREKEEPER_MUTATION="1", SCOREKEEPER_MUTATION_CACHE=str(cache))
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", "0", *tests]
    started = time.monotonic()
    process = subprocess.Popen(
        command, cwd=copy_root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        code = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - started
    finally:
        if process.poll() is None:  # out of time, or the run itself stopped: its tests go with it
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return ("passed" if code == 0 else "failed"), time.monotonic() - started


def _syntax_ok(path: Path) -> bool:
    if path.suffix != ".js":
        return True
    node = shutil.which("node")
    if node is None:
        return True
    return subprocess.run([node, "--check", str(path)], capture_output=True, check=False).returncode == 0


def run_module(
    root: Path,
    module: str,
    tests: list[str],
    equivalents: dict[str, str],
    say: Callable[[str], None] = print,
    only: set[str] | None = None,
    sample: int = 1,
    share: int = 0,
) -> Outcome:
    """Run every mutant of ``module`` (those named in ``only``, if given) against ``tests``, in a copy of ``root``."""
    outcome = Outcome(module)
    mutants = [
        mutant for mutant in sampled(mutants_of(root, module), sample, share) if only is None or mutant.ident in only
    ]
    with tempfile.TemporaryDirectory(prefix="mutation-") as folder:
        copy_root = Path(folder)
        _copy_checkout(root, copy_root, module)
        target = copy_root / module
        original = target.read_text(encoding="utf-8")
        if module.endswith(".py"):
            _write(target, ast.unparse(ast.parse(original)) + "\n")
        verdict, seconds = _run_tests(copy_root, tests, limit=1800)
        if verdict != "passed":
            raise SystemExit(f"{module}: its tests fail before any mutant ({' '.join(tests)})")
        limit = max(10.0, 3 * seconds + 5)
        say(f"{module}: {len(mutants)} mutants, tests take {seconds:.1f} s (limit {limit:.0f} s)")
        for mutant in mutants:
            if mutant.ident in equivalents:
                outcome.equivalent.append(mutant.ident)
                continue
            _write(target, mutant.source)
            if not _syntax_ok(target):
                continue
            verdict, _ = _run_tests(copy_root, tests, limit)
            {"passed": outcome.survived, "failed": outcome.killed, "timeout": outcome.timeout}[verdict].append(
                mutant.ident
            )
            if verdict == "passed":
                say(f"  survived: {mutant.ident}")
        _write(target, original)
    return outcome


def _write(target: Path, text: str) -> None:
    """The module's new text, and its compiled copy gone (a pyc is checked by size and second only)."""
    target.write_text(text, encoding="utf-8")
    for compiled in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
        compiled.unlink()


def report(outcomes: list[Outcome], threshold: float, stale: list[str]) -> tuple[str, bool]:
    """The table of figures and whether every module reached ``threshold``."""
    lines = [f"{'module':45} {'killed':>6} {'survived':>8} {'equivalent':>10} {'timeout':>7} {'killed %':>8}"]
    passed = True
    for outcome in outcomes:
        lines.append(
            f"{outcome.module:45} {len(outcome.killed):>6} {len(outcome.survived):>8} "
            f"{len(outcome.equivalent):>10} {len(outcome.timeout):>7} {outcome.score:>7.1f}%"
        )
        passed = passed and outcome.score >= threshold
    for outcome in outcomes:
        lines += [f"survived: {ident}" for ident in outcome.survived]
    lines += [f"listed as equivalent but no longer a mutant: {ident}" for ident in stale]
    return "\n".join(lines), passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", help="a module of the map to run (repeatable); all by default")
    parser.add_argument("--threshold", type=float, default=95.0, help="the least share killed, in percent")
    parser.add_argument("--list", action="store_true", help="print the mutants' names and run nothing")
    parser.add_argument(
        "--sample",
        type=int,
        default=1,
        metavar="N",
        help="run one mutant in N, the same ones every run (chosen by a hash of the name)",
    )
    parser.add_argument(
        "--share",
        type=int,
        default=0,
        metavar="K",
        help="with --sample N, run the K-th share of the mutants instead (0 to N-1; 0 by default)",
    )
    parser.add_argument(
        "--only",
        type=Path,
        help="a file of mutants' names, one a line (e.g. an earlier run's survivors): run those alone",
    )
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--map", type=Path, default=MAP, help=argparse.SUPPRESS)
    parser.add_argument("--equivalent", type=Path, default=EQUIVALENT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    modules = read_map(args.map)
    chosen = args.module or list(modules)
    unknown = [module for module in chosen if module not in modules]
    if unknown:
        print(f"not in {args.map.name}: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if not 0 <= args.share < args.sample:
        print(f"--share {args.share}: a share of --sample {args.sample} is 0 to {args.sample - 1}", file=sys.stderr)
        return 2
    equivalents = read_equivalents(args.equivalent)
    if args.list:
        for module in chosen:
            for mutant in sampled(mutants_of(args.root, module), args.sample, args.share):
                print(mutant.ident + ("  (equivalent)" if mutant.ident in equivalents else ""))
        return 0
    only = None
    if args.only:
        only = {line.split()[-1] for line in args.only.read_text(encoding="utf-8").splitlines() if line.strip()}
    outcomes = [
        run_module(args.root, module, modules[module], equivalents, only=only, sample=args.sample, share=args.share)
        for module in chosen
    ]
    known = {mutant.ident for module in chosen for mutant in mutants_of(args.root, module)}
    stale = [ident for ident in equivalents if ident.split(":")[0] in chosen and ident not in known]
    text, passed = report(outcomes, args.threshold, stale)
    print(text)
    return 0 if passed else 1


if __name__ == "__main__":
    # Stopped (kill, Ctrl-C): the copy of the checkout is removed and the tests running are ended.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
