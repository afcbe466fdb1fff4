"""A throwaway PostgreSQL server (issue 14) for the tests and the benchmarks: the system package's
initdb and pg_ctl, a temporary data directory, a free port on 127.0.0.1 and the unix socket in that
directory.

PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user (the temporary
directory is handed to it). :func:`find_binaries` says why when no server can be started.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def find_binaries() -> tuple[Path | None, str]:
    """The directory holding initdb and pg_ctl, or None and why not."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.insert(0, str(Path(on_path).parent))
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            try:
                import asyncpg  # noqa: F401
            except ImportError:
                return None, "asyncpg is not installed (pip install '.[pg]')"
            if os.geteuid() == 0:
                try:
                    pwd.getpwnam("postgres")
                except KeyError:
                    return None, "running as root and there is no 'postgres' user to run the server as"
            return Path(folder), ""
    return None, "no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    bindir: Path
    root: Path
    port: int
    user: str

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)

    @classmethod
    def start(cls, bindir: Path, *, durable: bool = False, settings: dict[str, str] | None = None) -> PgServer:
        """Initialise and start; ``durable``: PostgreSQL's defaults, every commit waits for its WAL
        flush (fsync and synchronous_commit on, as a production server runs; the benchmarks),
        otherwise nothing is flushed (tests). ``settings``: more server settings (``-c name=value``)."""
        root = Path(tempfile.mkdtemp(prefix="pg-test-"))
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(root, entry.pw_uid, entry.pw_gid)
        server = cls(bindir, root, _free_port(), "postgres")
        server._run("initdb", "-D", str(server.data), "-U", server.user, "-A", "trust", "--no-sync",
                    "-E", "UTF8", "--locale=C")
        opts = f"-p {server.port} -k {root} -c listen_addresses=127.0.0.1"
        if not durable:
            opts += " -c synchronous_commit=off -c fsync=off -c full_page_writes=off"
        for name, value in (settings or {}).items():
            opts += f" -c {name}={value}"
        server._run("pg_ctl", "-D", str(server.data), "-l", str(root / "log"), "-o", opts, "-w", "start")
        return server

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    async def fresh_database(self, name: str) -> str:
        """A new empty database; its URL."""
        import asyncpg

        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    async def fresh_schema(self, name: str, database: str = "postgres") -> str:
        """A new empty schema in ``database``; a URL whose connections use it (much quicker to make
        than a database, for one test each)."""
        import asyncpg

        conn = await asyncpg.connect(self.url(database))
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            await conn.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await conn.close()
        return f"{self.url(database)}?search_path={name}"
