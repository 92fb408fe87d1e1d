"""Booklets render outside the request: a background thread, progress in a file, the PDF beside it.

A 30-table booklet takes ~13 s; a request only starts the job and returns, and the
director's page follows the progress. Progress lives in the instance folder, so any
worker can report it.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from . import pdf

FOLDER = "booklets"


def _folder(instance_path: str) -> Path:
    path = Path(instance_path) / FOLDER
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_status(folder: Path, job: str, status: dict[str, object]) -> None:
    temporary = folder / f"{job}.json.tmp"
    temporary.write_text(json.dumps(status))
    os.replace(temporary, folder / f"{job}.json")


def start(instance_path: str, htmls: Sequence[str], name: str) -> str:
    """Start rendering; returns the job's id at once."""
    folder = _folder(instance_path)
    job = secrets.token_hex(8)
    total = len(htmls)
    _write_status(folder, job, {"state": "running", "done": 0, "total": total, "name": name, "started": time.time()})

    def run() -> None:
        try:

            def progress(done: int) -> None:
                _write_status(folder, job, {"state": "running", "done": done, "total": total, "name": name})

            body = pdf.render_booklet(list(htmls), progress)
            (folder / f"{job}.pdf").write_bytes(body)
            _write_status(folder, job, {"state": "done", "done": total, "total": total, "name": name})
        except Exception as error:  # reported on the progress page; the job is over either way
            _write_status(
                folder, job, {"state": "failed", "done": 0, "total": total, "name": name, "error": str(error)}
            )

    threading.Thread(target=run, name=f"booklet-{job}", daemon=True).start()
    return job


def status(instance_path: str, job: str) -> dict[str, object] | None:
    if not job.isalnum():
        return None
    path = _folder(instance_path) / f"{job}.json"
    return json.loads(path.read_text()) if path.exists() else None


def result(instance_path: str, job: str) -> Path | None:
    path = _folder(instance_path) / f"{job}.pdf"
    return path if job.isalnum() and path.exists() else None
