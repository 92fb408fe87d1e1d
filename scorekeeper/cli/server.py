"""Commands of the server: serve the app, set the director's password, back the database up."""

from __future__ import annotations

import os
import sys

import click


@click.command("create-director")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input (for scripts).")
def create_director(password_stdin: bool) -> None:
    """Set (or replace) the tournament director's password, stored hashed; a new one logs out every director session."""
    from werkzeug.security import generate_password_hash

    from .. import create_app
    from ..storage import director as director_store
    from ..storage.database import connect
    from ..web.connection import database_path

    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = click.prompt("Director password", hide_input=True, confirmation_prompt=True)
    if len(password) < 10:
        raise click.ClickException("the password needs at least 10 characters")
    app = create_app()
    db = connect(database_path(app))
    try:
        director_store.set_director_password_hash(
            db, generate_password_hash(password, method=app.config["PASSWORD_HASH"]), replace=True
        )
    finally:
        db.conn.close()
    click.echo("director password set")


@click.command()
@click.argument("path", metavar="PATH")
def backup(path: str) -> None:
    """Copy the database consistently while the server runs (SQLite's online backup): `scorekeeper backup copy.db`."""
    from ..storage.database import BackupError
    from ..storage.database import backup as back_up
    from ..web.app import configured_database

    source = configured_database()
    if not os.path.exists(source):
        raise click.ClickException(f"there is no database at {source}: check SCOREKEEPER_INSTANCE")
    try:
        back_up(source, path)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"backed up {source} to {path} (integrity ok)")


@click.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 32))
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64))
@click.option(
    "--live-port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Port of the live updates (server-sent events); default: the port plus one; 0: none (pages poll).",
)
@click.option("--certfile", type=click.Path(dir_okay=False), help="Serve https with this certificate (PEM).")
@click.option("--keyfile", type=click.Path(dir_okay=False), help="The certificate's private key (PEM).")
def serve(
    host: str, port: int, workers: int, threads: int, live_port: int | None, certfile: str | None, keyfile: str | None
) -> None:
    """Serve the app with gunicorn for phones on the local network (what `make run` does);
    with --certfile and --keyfile, over https (a secure origin: phones can install the app)."""
    from ..serve import BadCertificate, Certificate, PortTaken
    from ..serve import serve as run_server
    from ..web.security import BadProxySetting

    if (certfile is None) != (keyfile is None):
        raise click.UsageError("Give both --certfile and --keyfile, or neither.")
    tls = Certificate(certfile, keyfile) if certfile and keyfile else None
    try:
        run_server(host, port, workers, threads, live_port, tls)
    except (BadProxySetting, BadCertificate, PortTaken) as error:
        raise click.ClickException(str(error)) from None
