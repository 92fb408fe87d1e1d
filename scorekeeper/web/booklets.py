"""Booklets render outside the request: a job thread of the worker, the pages in its booklet
processes side by side (one a core), progress in a file, the PDF beside it. A published folder
(``kind`` "published": the event's results as static pages, ``publish.py``) is made the same way,
its PDFs rendered as a booklet's pages are, and zipped with its pages instead of joined.

A request only starts the job and returns, and the director's page follows the progress;
the worker's thread only waits while the processes render (``render_pool``), so it never holds
the GIL while phones post. Each page of the booklet (the cover, every table's sheet) is a
PDF of its own, joined at the end. A locked table's sheet does not change: its PDF is kept
in the instance folder under its verification code (and a hash of its markup, which also
holds the rulings), so the next booklet joins it instead of rendering it again. Progress
lives in the instance folder, so that any worker can report it; its files are readable by
the server's user only.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..reports import pdf
from ..reports.site import zipped
from ..storage.files import write_private
from . import render_pool

FOLDER = "booklets"
#: Where locked tables' sheets are kept, inside the booklets folder.
SHEETS = "sheets"
#: Kept sheets beyond this many, the oldest go.
KEPT_SHEETS = 2000
#: Finished booklets kept (the oldest go when a new one starts); a running one is never removed.
KEPT_BOOKLETS = 30


@dataclass(frozen=True)
class Part:
    """One document of the booklet; ``code``, for a sheet that will not change (a locked table's),
    is its verification code, under which its PDF is kept."""

    html: str
    code: str | None = None
    #: Its path in a published folder's zip.
    name: str = ""

    @property
    def kept_name(self) -> str | None:
        if self.code is None:
            return None
        return f"{self.code}-{hashlib.sha256(self.html.encode()).hexdigest()[:16]}.pdf"


def _folder(instance_path: str) -> Path:
    path = Path(instance_path) / FOLDER
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _write_status(folder: Path, job: str, status: dict[str, object]) -> None:
    temporary = folder / f"{job}.json.tmp"
    write_private(temporary, json.dumps(status).encode())
    os.replace(temporary, folder / f"{job}.json")


#: What a job makes: a booklet (one PDF), or a published folder (a zip of its files).
BOOKLET, PUBLISHED = "booklet", "published"
SUFFIX = {BOOKLET: ".pdf", PUBLISHED: ".zip"}


def start(
    instance_path: str,
    parts: Sequence[Part],
    name: str,
    key: str,
    event: int,
    kind: str = BOOKLET,
    files: Sequence[tuple[str, bytes]] = (),
) -> str:
    """Start rendering, once per key (the form's idempotency key): returns the job's id at once
    (``render_pool.Busy`` when booklets are at their bound). Every status of the job names ``event``,
    the event whose booklet it is: only that event's pages find it.

    The job is named after the key, and its first status is linked into place only if no
    job of that name exists: a doubled submission, in another thread or worker, finds the
    job started and follows it instead of rendering the booklet again.
    """
    folder = _folder(instance_path)
    job = hashlib.sha256(key.encode()).hexdigest()[:16]
    total = len(parts)
    about = {"name": name, "event": event, "started": time.time(), "pid": os.getpid(), "kind": kind}
    claim = folder / f"{job}.{secrets.token_hex(4)}.claim"
    first = {"state": "running", "done": 0, "total": total, **about}
    write_private(claim, json.dumps(first).encode())
    try:
        try:
            os.link(claim, folder / f"{job}.json")
        except FileExistsError:
            earlier = status(instance_path, job, event, kind)
            if earlier is None or earlier.get("state") != "failed":
                return job
            (folder / f"{job}.json").unlink(missing_ok=True)  # pressed again after it failed: anew
            os.link(claim, folder / f"{job}.json")
    except FileExistsError:
        return job
    finally:
        claim.unlink()
    try:
        future = render_pool.in_background(_run, str(folder), job, list(parts), about, list(files))
    except render_pool.Busy:
        (folder / f"{job}.json").unlink(missing_ok=True)
        raise
    future.add_done_callback(partial(_report_lost, folder, job, total, about))
    _forget_old_booklets(folder)
    return job


def recent(instance_path: str, event: int, count: int = 5, kind: str = BOOKLET) -> list[tuple[str, dict[str, object]]]:
    """The event's latest booklets (or published folders), newest first: each job's id and status
    (for the event page, so that a job whose progress page was closed is found again)."""
    mine = [
        path.stem
        for path, state in _statuses(_folder(instance_path))
        if state.get("event") == event and state.get("kind", BOOKLET) == kind
    ]
    found = [(job, status(instance_path, job, event, kind)) for job in mine[::-1][:count]]
    return [(job, state) for job, state in found if state is not None]


def forget_names(instance_path: str, events: Iterable[int]) -> int:
    """After a member's name is removed: the booklets of the events they played, every published
    folder's zip (a player's page in any of them may name the member among those met most), and
    every kept sheet (a kept sheet is named by its verification code, not its players: all go;
    the next booklet renders them again) deleted, so that no file the app made holds the name.
    How many files went."""
    folder = _folder(instance_path)
    wanted = set(events)
    gone = 0
    for path, state in _statuses(folder):
        if state.get("event") in wanted or state.get("kind", BOOKLET) == PUBLISHED:
            suffixes = [path.with_suffix(suffix) for suffix in SUFFIX.values()]
            for leftover in (path, *suffixes, *folder.glob(f"{path.stem}.part*.pdf")):
                if leftover.exists():
                    leftover.unlink(missing_ok=True)
                    gone += 1
    for sheet in (folder / SHEETS).glob("*.pdf"):
        sheet.unlink(missing_ok=True)
        gone += 1
    return gone


def _forget_old_booklets(folder: Path) -> None:
    """Only the newest ``KEPT_BOOKLETS`` finished (or failed) booklets stay, with their statuses."""
    ended = [path for path, state in _statuses(folder) if state.get("state") != "running"]
    for path in ended[: max(0, len(ended) - KEPT_BOOKLETS)]:
        for suffix in SUFFIX.values():
            path.with_suffix(suffix).unlink(missing_ok=True)
        path.unlink(missing_ok=True)


def _statuses(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every booklet's status file and what it says, oldest started first (one being replaced is skipped)."""
    found = []
    for path in folder.glob("*.json"):
        try:
            found.append((path, json.loads(path.read_text())))
        except (OSError, ValueError):
            continue
    return sorted(found, key=lambda item: float(item[1].get("started") or 0))


def _run(
    submit: Callable[..., Future[Any]],
    folder_name: str,
    job: str,
    parts: list[Part],
    about: dict[str, object],
    files: list[tuple[str, bytes]],
) -> None:
    """In the worker's job thread: every part rendered (or a locked table's kept PDF reused) in the
    booklet processes, then joined (a published folder: zipped with its ``files``); the status says
    how far it got, and how many were reused."""
    folder = Path(folder_name)
    kept = folder / SHEETS
    kept.mkdir(mode=0o700, exist_ok=True)
    total = len(parts)
    paths = [
        kept / part.kept_name if part.kept_name else folder / f"{job}.part{index}.pdf"
        for index, part in enumerate(parts)
    ]
    try:
        reused = 0
        rendering: list[Future[Any]] = []
        for part, path in zip(parts, paths, strict=True):
            if part.kept_name and path.exists():
                reused += 1
                os.utime(path)
            else:
                rendering.append(submit(render_part, part.html, str(path)))
        done = reused
        for finished in as_completed(rendering):
            finished.result()
            done += 1
            _write_status(folder, job, {"state": "running", "done": done, "total": total, **about})
        if about.get("kind") == PUBLISHED:
            _zip(
                folder / f"{job}.zip",
                [(part.name, path.read_bytes()) for part, path in zip(parts, paths, strict=True)] + files,
            )
        else:
            submit(join_parts, [str(path) for path in paths], str(folder / f"{job}.pdf")).result()
        status = {"state": "done", "done": total, "total": total, **about, "rendered": len(rendering)}
        _write_status(folder, job, {**status, "reused": reused})
    except Exception as error:  # reported on the progress page; the job is over either way
        _write_status(folder, job, {"state": "failed", "done": 0, "total": total, **about, "error": str(error)})
    finally:
        for path in paths:
            if path.parent == folder:
                path.unlink(missing_ok=True)
        _forget_oldest(kept)


def _zip(path: Path, files: Sequence[tuple[str, bytes]]) -> None:
    temporary = path.with_name(f"{path.name}.tmp")
    write_private(temporary, zipped(files))
    os.replace(temporary, path)


def render_part(html: str, path: str) -> None:
    """In a booklet process: one document to a PDF file of its own (written whole, then moved into place)."""
    temporary = Path(f"{path}.{os.getpid()}.tmp")
    write_private(temporary, pdf.render_pdf(html))
    os.replace(temporary, path)


def join_parts(paths: list[str], output: str) -> None:
    """In a booklet process: the parts as one PDF, in order."""
    temporary = Path(f"{output}.tmp")
    write_private(temporary, pdf.join_pdfs([Path(path).read_bytes() for path in paths]))
    os.replace(temporary, output)


def _forget_oldest(kept: Path) -> None:
    files = sorted(kept.glob("*.pdf"), key=lambda path: path.stat().st_mtime)
    for path in files[: max(0, len(files) - KEPT_SHEETS)]:
        path.unlink(missing_ok=True)


def _report_lost(folder: Path, job: str, total: int, about: dict[str, object], future: Future[None]) -> None:
    """The job ended without reporting its end (its thread raised outside the job, or the server stopped)."""
    if future.cancelled() or future.exception() is not None:
        error = "the server stopped first" if future.cancelled() else "the renderer stopped; start it again"
        _write_status(folder, job, {"state": "failed", "done": 0, "total": total, **about, "error": error})


def status(instance_path: str, job: str, event: int, kind: str = BOOKLET) -> dict[str, object] | None:
    """The job's progress, None unless it is a booklet (or a published folder: ``kind``) of ``event``. A job that an earlier run of
    the server (or a worker since stopped) left running is reported failed, once and for all."""
    if not job.isalnum():
        return None
    folder = _folder(instance_path)
    path = folder / f"{job}.json"
    try:
        found: dict[str, object] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if found.get("event") != event or found.get("kind", BOOKLET) != kind:
        return None
    if found.get("state") == "running" and _lost(path, found):
        found = {**found, "state": "failed", "done": 0, "error": INTERRUPTED}
        _write_status(folder, job, found)
    return found


#: What a booklet the server stopped making says (a crash, a restart, a worker replaced).
INTERRUPTED = "the server stopped while it was being made. Make it again: the tables are all still there."
#: A running booklet's status is rewritten at every sheet; one silent this long is not running.
SILENT_SECONDS = 10 * 60


def _lost(path: Path, found: dict[str, object]) -> bool:
    """Whether a booklet said to be running is no longer being made: the process making it is
    gone (a job's thread lives in the worker that started it), or it has not moved for long."""
    pid = found.get("pid")
    if not isinstance(pid, int):
        return True  # started by a version that did not say which process made it: before this run
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    try:
        return time.time() - path.stat().st_mtime > SILENT_SECONDS
    except OSError:
        return True


def result(instance_path: str, job: str, event: int, kind: str = BOOKLET) -> Path | None:
    """The finished booklet (or published folder's zip), None unless it is one of ``event``."""
    if status(instance_path, job, event, kind) is None:
        return None
    path = _folder(instance_path) / f"{job}{SUFFIX[kind]}"
    return path if path.exists() else None
