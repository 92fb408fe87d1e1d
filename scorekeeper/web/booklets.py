"""Booklets render outside the request: in the worker's booklet process, progress in a file, the PDF beside it.

A 30-table booklet takes ~13 s; a request only starts the job and returns, and the
director's page follows the progress. The render runs in a separate process
(``printer``), so it never holds the worker's GIL while phones post; progress lives
in the instance folder, so that process and any worker can write and report it; its files
are readable by the server's user only.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import Future
from functools import partial
from pathlib import Path

from ..reports import pdf
from ..storage.files import write_private
from . import printer

FOLDER = "booklets"


def _folder(instance_path: str) -> Path:
    path = Path(instance_path) / FOLDER
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _write_status(folder: Path, job: str, status: dict[str, object]) -> None:
    temporary = folder / f"{job}.json.tmp"
    write_private(temporary, json.dumps(status).encode())
    os.replace(temporary, folder / f"{job}.json")


def start(instance_path: str, htmls: Sequence[str], name: str, key: str) -> str:
    """Start rendering, once per key (the form's idempotency key): returns the job's id at once
    (``printer.Busy`` when booklets are at their bound).

    The job is named after the key, and its first status is linked into place only if no
    job of that name exists: a doubled submission, in another thread or worker, finds the
    job started and follows it instead of rendering the booklet again.
    """
    folder = _folder(instance_path)
    job = hashlib.sha256(key.encode()).hexdigest()[:16]
    total = len(htmls)
    claim = folder / f"{job}.{secrets.token_hex(4)}.claim"
    first = {"state": "running", "done": 0, "total": total, "name": name, "started": time.time()}
    write_private(claim, json.dumps(first).encode())
    try:
        os.link(claim, folder / f"{job}.json")
    except FileExistsError:
        return job
    finally:
        claim.unlink()
    try:
        future = printer.in_background(_render, str(folder), job, list(htmls), name)
    except printer.Busy:
        (folder / f"{job}.json").unlink(missing_ok=True)
        raise
    future.add_done_callback(partial(_report_lost, folder, job, total, name))
    return job


def _render(folder_name: str, job: str, htmls: list[str], name: str) -> None:
    """In the booklet process: render, reporting progress, and leave the PDF beside the status."""
    folder = Path(folder_name)
    total = len(htmls)
    try:

        def progress(done: int) -> None:
            _write_status(folder, job, {"state": "running", "done": done, "total": total, "name": name})

        body = pdf.render_booklet(htmls, progress)
        temporary = folder / f"{job}.pdf.tmp"
        write_private(temporary, body)
        os.replace(temporary, folder / f"{job}.pdf")
        _write_status(folder, job, {"state": "done", "done": total, "total": total, "name": name})
    except Exception as error:  # reported on the progress page; the job is over either way
        _write_status(folder, job, {"state": "failed", "done": 0, "total": total, "name": name, "error": str(error)})


def _report_lost(folder: Path, job: str, total: int, name: str, future: Future[None]) -> None:
    """The booklet process died (or the server stopped) before the job could report its end."""
    if future.cancelled() or future.exception() is not None:
        error = "the server stopped first" if future.cancelled() else "the renderer stopped; start it again"
        _write_status(folder, job, {"state": "failed", "done": 0, "total": total, "name": name, "error": error})


def status(instance_path: str, job: str) -> dict[str, object] | None:
    if not job.isalnum():
        return None
    path = _folder(instance_path) / f"{job}.json"
    return json.loads(path.read_text()) if path.exists() else None


def result(instance_path: str, job: str) -> Path | None:
    path = _folder(instance_path) / f"{job}.pdf"
    return path if job.isalnum() and path.exists() else None
