"""The phone's scripts (``static/*.js``): ES modules, one job each, wired by ``main.js``.

A page names only ``main.js``; left alone, a browser would find its imports after fetching it,
one round trip later (a phone shows the plain page meanwhile). ``base.html`` preloads every
module ``main.js`` reaches instead, so all of them are fetched at once, while the page is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

ENTRY = "main.js"
#: An import statement's relative specifier: the modules sit side by side in one folder.
IMPORT = re.compile(r"""^import\s+(?:[^"';]*?\s+from\s+)?["']\./([^"'/]+)["']""", re.M)


def modules_of(folder: Path, entry: str = ENTRY) -> list[str]:
    """Every module ``entry`` imports, directly or through another, in the order first named."""
    found: list[str] = []
    waiting = [entry]
    while waiting:
        for name in IMPORT.findall((folder / waiting.pop(0)).read_text()):
            if name != entry and name not in found:
                found.append(name)
                waiting.append(name)
    return found


def init_app(app: Flask) -> None:
    app.jinja_env.globals["phone_modules"] = modules_of(Path(app.static_folder or "static"))
