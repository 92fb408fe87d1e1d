"""The phone's scripts (``static/*.js``): ES modules, one job each, wired by ``main.js``.

A page names only ``main.js`` (and ``offline.js`` or ``wall.js`` where it needs them); left alone, a browser would find its imports after fetching it,
one round trip later (a phone shows the plain page meanwhile). ``base.html`` preloads every
module ``main.js`` reaches instead, so all of them are fetched at once, while the page is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

ENTRY = "main.js"
#: The pages' other entries: the record link's pages also load the offline layer (it keeps the
#: game on the phone); the wall screen its pages' turning (``page_entries`` in its template).
OFFLINE = "offline.js"
WALL = "wall.js"
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
    folder = Path(app.static_folder or "static")
    reached = {entry: modules_of(folder, entry) for entry in (ENTRY, OFFLINE, WALL)}

    def phone_modules(entries: list[str]) -> list[str]:
        """What the page's entry modules reach, each once, the entries themselves left out."""
        found = [name for entry in entries for name in reached[entry] if name not in entries]
        return list(dict.fromkeys(found))

    app.jinja_env.globals["phone_modules"] = phone_modules
