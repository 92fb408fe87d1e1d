"""The static files, served by WhiteNoise: compressed, and under content-hashed names cached for good.

At start the app copies ``scorekeeper/static/`` into a release folder under the instance folder
(``instance/static/<release>/``): each file under its own name and under a name carrying a short
hash of its content (``app.css`` and ``app.3f9a1c2b.css``), each beside its gzip and brotli
copies (WhiteNoise's compressor). WhiteNoise serves that folder at ``/static/``: the smallest copy
the browser accepts (``Vary: Accept-Encoding``), a hashed name cached for good (``immutable``, a
new content is a new name), a plain name for a minute (a page of an older release may ask).

Pages name files with ``asset_url("app.css")``. The phone's ES modules import each other by plain
relative names (``./rules.js``); the import map every page carries (``import_map``, in
``base.html``'s head) sends each of them to its hashed name. It is an inline script: the page's
Content-Security-Policy allows it by its hash, and nothing else inline.

A release folder is built once, in a folder of its own renamed into place (the server's workers
start together); the three most recently started stay (an open page of the one before keeps its
files), older ones are removed.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from wsgiref.headers import Headers

from flask import Flask, Response, g, url_for
from markupsafe import Markup
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from ..storage.files import PRIVATE
from .security import HEADERS

#: Release folders kept: this start's and the ones started last before it.
KEPT_RELEASES = 3
#: A plain name (asked for by a page of an older release) is cached this long, in seconds.
PLAIN_MAX_AGE = 60
#: How long an unfinished build folder (a process killed while building) is left alone.
BUILDING_GRACE = 3600
_BUILDING = ".building-"


def hashed_name(name: str, content: bytes) -> str:
    """``app.css`` as ``app.<8 hex digits of the content's SHA-256>.css``."""
    digest = hashlib.sha256(content).hexdigest()[:8]
    folder, _, base = name.rpartition("/")
    stem, dot, extension = base.rpartition(".")
    hashed = f"{stem}.{digest}.{extension}" if dot and stem else f"{base}.{digest}"
    return f"{folder}/{hashed}" if folder else hashed


@dataclass(frozen=True)
class Release:
    """The static files of this start: where they were built, and each name's hashed name."""

    folder: Path
    names: dict[str, str]

    def hashed(self, name: str) -> str:
        return self.names[name]


def _sources(source: Path) -> dict[str, bytes]:
    return {
        path.relative_to(source).as_posix(): path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(source).parts)
    }


def build(source: Path, root: Path) -> Release:
    """The release of the files in ``source``, built under ``root`` unless it already is."""
    files = _sources(source)
    names = {name: hashed_name(name, content) for name, content in files.items()}
    release = hashlib.sha256(json.dumps(names, sort_keys=True).encode()).hexdigest()[:12]
    folder = root / release
    root.mkdir(parents=True, exist_ok=True)
    if not folder.is_dir():
        building = Path(tempfile.mkdtemp(prefix=_BUILDING, dir=root))
        _write(building, files, names)
        try:
            building.rename(folder)
        except OSError:  # another worker, starting at the same moment, put the same files there first
            shutil.rmtree(building, ignore_errors=True)
    os.utime(folder)  # started now: the pruning keeps the releases started last
    _prune(root, keep=folder)
    return Release(folder, names)


def _write(folder: Path, files: dict[str, bytes], names: dict[str, str]) -> None:
    compressor = Compressor(quiet=True)
    for name, content in files.items():
        hashed = folder / names[name]
        hashed.parent.mkdir(parents=True, exist_ok=True)
        hashed.write_bytes(content)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        compressed = compressor.compress(str(hashed)) if compressor.should_compress(name) else []
        for made in [str(hashed), *compressed]:
            shutil.copyfile(made, str(folder / name) + made[len(str(hashed)) :])
    for path in folder.rglob("*"):
        if path.is_file():
            path.chmod(PRIVATE)  # as every file of the instance folder


def _prune(root: Path, keep: Path) -> None:
    started = {path: _mtime(path) for path in root.iterdir() if path.is_dir()}
    releases = sorted((path for path in started if not path.name.startswith(_BUILDING)), key=started.__getitem__)
    others = [path for path in releases if path != keep]
    stale = others[: max(0, len(others) - (KEPT_RELEASES - 1))]
    abandoned = [
        path for path in started if path.name.startswith(_BUILDING) and time.time() - started[path] > BUILDING_GRACE
    ]
    for path in stale + abandoned:
        shutil.rmtree(path, ignore_errors=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # removed meanwhile by another process's pruning
        return 0.0


def import_map(release: Release, static_url: str) -> str:
    """The import map (JSON) sending every module's plain address to its hashed one."""
    imports = {
        static_url + name: static_url + hashed
        for name, hashed in release.names.items()
        if name.endswith((".js", ".mjs"))
    }
    text = json.dumps({"imports": imports}, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def script_hash(text: str) -> str:
    """The Content-Security-Policy source that allows an inline script of exactly this text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def init_app(app: Flask) -> Release:
    """Build the release, serve it with WhiteNoise at ``/static/``, and give templates ``asset_url``
    and ``import_map``. Called before ``security.init_app``: Flask runs the functions after a
    request last-registered first, so the policy this adds the import map to is already set."""
    release = build(Path(app.static_folder or ""), Path(app.instance_path) / "static")
    prefix = app.static_url_path or "/static"
    hashed_urls = {f"{prefix}/{hashed}" for hashed in release.names.values()}

    def security_headers(headers: Headers, path: str, url: str) -> None:
        for name, value in HEADERS.items():
            headers[name] = value

    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]
        app.wsgi_app,
        root=str(release.folder),
        prefix=prefix,
        max_age=PLAIN_MAX_AGE,
        allow_all_origins=False,
        immutable_file_test=lambda path, url: url in hashed_urls,
        add_headers_function=security_headers,
    )

    @functools.cache
    def import_map_at(static_url: str) -> str:
        return import_map(release, static_url)

    def page_import_map() -> Markup:
        g.import_map = import_map_at(url_for("static", filename=""))  # below the app's root, wherever it is
        return Markup(g.import_map)

    app.jinja_env.globals["asset_url"] = lambda name: url_for("static", filename=release.hashed(name))
    app.jinja_env.globals["import_map"] = page_import_map

    @app.after_request
    def allow_the_import_map(response: Response) -> Response:
        """A page may run its import map, its one inline script, known by its hash."""
        policy = response.headers.get("Content-Security-Policy")
        if "import_map" in g and policy and "script-src" not in policy:
            response.headers["Content-Security-Policy"] = policy.replace(
                "default-src 'self';", f"default-src 'self'; script-src 'self' {script_hash(g.import_map)};"
            )
        return response

    return release
