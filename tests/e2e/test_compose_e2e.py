"""A rehearsal of issue 14's docker-compose.yml on a machine without a Docker engine: the services of
the compose file run as real processes here, in the order and with the checks compose uses.

Taken from the files as they are: each bot service's environment (the image's ``ENV`` from the
Dockerfile, then the ``x-bot-env`` anchor merged with the service's own variables, ``${VAR:-default}``
substituted with ``DISCORD_TOKEN`` as the operator's one variable), the command (the Dockerfile's
CMD, ``python -m bot``, run from the repository root with this interpreter as ``python``), every
health check's ``test`` argv, ``start_period``/``interval``/``retries``/``timeout``, the stop signal
(STOPSIGNAL) and compose's default stop grace (10 s). The PostgreSQL server is the session's
throwaway one with the role and database the postgres image's entrypoint makes from
``POSTGRES_USER``/``POSTGRES_PASSWORD``/``POSTGRES_DB`` (a superuser, as the image makes it; the
server's authentication is ``trust``, so the password travels but is not verified).

Changed, because outside Docker it must differ:
- ``DATABASE_URL``: host and port ``postgres:5432`` become the throwaway server's (user, password and
  database stay the compose file's);
- ``DISCORD_API_BASE`` (not in the compose file) points at the fake Discord, and ``DISCORD_TOKEN``
  is the fake's token;
- ``HEALTH_PORT``: two distinct free ports instead of 8080 twice (each container has its own
  network namespace; here the two processes share one host), substituted in the health checks too;
- ``DATABASE_PATH`` (the image's ``/data`` volume): a temporary folder, which must stay empty since
  the store is PostgreSQL;
- ``PATH``/``HOME`` are this machine's (the base image's and Docker's in a container); nothing else
  is inherited from the test's environment;
- PostgreSQL's health check runs with ``PGHOST``/``PGPORT`` naming the throwaway server (in its
  container it uses the default socket).

What only a real engine adds: building the image (the wheel, the hashed lock, WITH_PG's pip
install), the container's user and read-only paths, compose's DNS name ``postgres``, the restart
policy, and Docker's health-check scheduler and its ``unhealthy`` state (here the checks are run by
the test, more often than ``interval``).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from tests.compose_file import (
    COMPOSE_STOP_GRACE,
    Stage,
    bot_services,
    compose,
    duration,
    final_stage,
    health_argv,
    service_environment,
)
from tests.e2e.helpers import Table, assert_clean_output, open_lobby, start_lobby
from tests.e2e.shards import ROOT, ShardBot, free_port, guild_on_shard
from tests.e2e.test_cluster_e2e import announced, game, move
from tests.fake_discord import FakeDiscord
from tests.pg_server import PgServer, find_binaries

pytestmark = pytest.mark.e2e

FAKE_TOKEN = "fake-token"  # BotProcess's default, the token the fake expects


class ServiceProcess(ShardBot):
    """One bot service's container process, run here with exactly ``environment`` (nothing inherited)."""

    def __init__(self, fake: FakeDiscord, name: str, environment: dict[str, str], shard_ids: list[int],
                 module: str) -> None:
        super().__init__(fake, environment["DATABASE_PATH"], shard_ids, module=module, cwd=ROOT,
                         token=environment["DISCORD_TOKEN"], wait_for_sync=0 in shard_ids)
        self.name = name
        self.environment = environment

    @property
    def env(self) -> dict[str, str]:
        return dict(self.environment)


def python_argv(argv: list[str]) -> list[str]:
    """``argv`` with the image's ``python`` as this interpreter (which has the bot's dependencies)."""
    assert argv and argv[0] == "python", argv
    return [sys.executable, *argv[1:]]


async def run_check(argv: list[str], env: dict[str, str], timeout: float, cwd: Path) -> tuple[int, str]:
    """One health check run as Docker runs it: its exit status (non-zero, or over ``timeout``, is a
    failure) and its stderr."""
    proc = await asyncio.create_subprocess_exec(*argv, env=env, cwd=cwd, stdin=asyncio.subprocess.DEVNULL,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        return -1, f"timed out after {timeout} s"
    assert proc.returncode is not None
    return proc.returncode, err.decode(errors="replace")


async def check_until(argv: list[str], env: dict[str, str], healthcheck: dict[str, Any], cwd: Path, *,
                      within: float, passing: bool = True, failure: str = "") -> float:
    """Run the check every 0.3 s until it passes (or, with ``passing=False``, fails with ``failure`` in
    its stderr); the seconds it took. Fails the test after ``within`` seconds."""
    timeout = duration(healthcheck.get("timeout", "30s"))
    started = time.monotonic()
    last = (0, "")
    while time.monotonic() - started < within:
        last = await run_check(argv, env, timeout, cwd)
        if (last[0] == 0) == passing and (passing or failure in last[1]):
            return time.monotonic() - started
        await asyncio.sleep(0.3)
    raise AssertionError(f"{argv[:3]}…: not {'passing' if passing else 'failing with ' + repr(failure)} within "
                         f"{within} s; last: exit {last[0]}, {last[1][-600:]}")


async def make_compose_database(server: PgServer, postgres_env: dict[str, str]) -> None:
    """What the postgres image's entrypoint does on an empty volume: ``POSTGRES_USER`` (a superuser)
    with ``POSTGRES_PASSWORD``, and ``POSTGRES_DB`` owned by it, here made afresh."""
    user, password, db = (postgres_env[k] for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"))
    conn = await asyncpg.connect(server.url())
    try:
        if not await conn.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", user):
            quoted = password.replace("'", "''")
            await conn.execute(f'CREATE ROLE "{user}" SUPERUSER LOGIN PASSWORD \'{quoted}\'')
        await conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{db}" OWNER "{user}"')
    finally:
        await conn.close()


def problems(p: ServiceProcess) -> list[str]:
    """The process's log lines at WARNING and above (for a failure's message)."""
    return [line for line in p.output().splitlines() if '"level": "WARNING"' in line or '"level": "ERROR"' in line]


def retarget(url: str, host: str, port: int) -> str:
    """``url`` with only its host and port changed."""
    parts = urlsplit(url)
    credentials = parts.netloc.rpartition("@")[0]
    return urlunsplit(parts._replace(netloc=f"{credentials}@{host}:{port}"))


def container_env(stage: Stage, compose_env: dict[str, str], *, fake: FakeDiscord, server: PgServer,
                  health_port: int, data_dir: Path) -> dict[str, str]:
    """The process environment of one bot container, moved out of Docker (see the module docstring)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root")}
    env.update(stage.env())
    env.update(compose_env)
    env["DATABASE_URL"] = retarget(compose_env["DATABASE_URL"], "127.0.0.1", server.port)
    env["DISCORD_API_BASE"] = fake.api_base
    env["HEALTH_PORT"] = str(health_port)
    env["DATABASE_PATH"] = str(data_dir / Path(env["DATABASE_PATH"]).name)
    return env


def own_health_check(healthcheck: dict[str, Any], compose_port: str, port: int) -> list[str]:
    """The service's health check argv with its HEALTH_PORT moved to ``port``."""
    argv = python_argv(health_argv(healthcheck["test"]))
    moved = [arg.replace(f"127.0.0.1:{compose_port}/", f"127.0.0.1:{port}/") for arg in argv]
    assert sum(a != b for a, b in zip(argv, moved, strict=True)) == 1, argv  # the port is named once
    return moved


async def test_the_compose_deployment_rehearsed(tmp_path: Path, pg_server: PgServer | None) -> None:
    if pg_server is None:
        _, why = find_binaries()
        pytest.skip(f"PostgreSQL not available: {why}")
    t_begin = time.monotonic()
    data = compose()
    stage = final_stage()
    argv = stage.command()
    assert argv[:2] == ["python", "-m"] and len(argv) == 3, argv  # CMD ["python", "-m", "bot"], no ENTRYPOINT
    module = argv[2]
    stop_signal = getattr(signal, stage.all("STOPSIGNAL")[-1] if stage.all("STOPSIGNAL") else "SIGTERM")
    services = bot_services(data)
    assert len(services) == 2

    # 1. postgres, and its own health check (depends_on: service_healthy)
    postgres = data["services"]["postgres"]
    postgres_env = service_environment(postgres, {})
    await make_compose_database(pg_server, postgres_env)
    pg_isready = shutil.which("pg_isready") or str(pg_server.bindir / "pg_isready")
    pg_check = health_argv(postgres["healthcheck"]["test"])
    if Path(pg_isready).exists():
        pg_env = {"PATH": f"{Path(pg_isready).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}",
                  "PGHOST": "127.0.0.1", "PGCONNECT_TIMEOUT": "2"}
        timeout = duration(postgres["healthcheck"]["timeout"])
        nobody = await run_check(pg_check, {**pg_env, "PGPORT": str(free_port())}, timeout, tmp_path)
        assert nobody[0] != 0, "pg_isready passed with no server on its port"
        budget = duration(postgres["healthcheck"]["interval"]) * postgres["healthcheck"]["retries"]
        await check_until(pg_check, {**pg_env, "PGPORT": str(pg_server.port)}, postgres["healthcheck"], tmp_path,
                          within=budget)
    else:
        print("\ncompose rehearsal: no pg_isready here; PostgreSQL's health check not run")

    procs: list[ServiceProcess] = []
    try:
        async with FakeDiscord(shard_count=2) as fake:
            guild = await guild_on_shard(fake, 1, 2)  # the channel's interactions on bot-shard-1, DMs on bot-shard-0
            channel = fake.create_channel(guild, "games")
            users = {name: fake.create_user(name) for name in ("alice", "bob")}
            for user in users.values():
                fake.add_member(guild, user)

            checks: dict[str, list[str]] = {}
            ports = [free_port(), free_port()]
            while ports[0] == ports[1]:
                ports[1] = free_port()
            for (name, svc), port in zip(sorted(services.items()), ports, strict=True):
                compose_env = service_environment(svc, {"DISCORD_TOKEN": FAKE_TOKEN})
                data_dir = tmp_path / name / "data"
                data_dir.mkdir(parents=True)
                env = container_env(stage, compose_env, fake=fake, server=pg_server, health_port=port, data_dir=data_dir)
                changed = {k for k in compose_env if env[k] != compose_env[k]}
                assert changed == {"DATABASE_URL", "HEALTH_PORT"}, changed  # the rest exactly as compose gives it
                assert env["DISCORD_TOKEN"] == FAKE_TOKEN
                urls = urlsplit(env["DATABASE_URL"]), urlsplit(compose_env["DATABASE_URL"])
                assert (urls[0].username, urls[0].password, urls[0].path) == (
                    postgres_env["POSTGRES_USER"], postgres_env["POSTGRES_PASSWORD"], "/" + postgres_env["POSTGRES_DB"])
                assert (urls[1].hostname, urls[1].port) == ("postgres", 5432)
                shard_ids = [int(s) for s in env["SHARD_IDS"].split(",")]
                procs.append(ServiceProcess(fake, name, env, shard_ids, module))
                checks[name] = own_health_check(svc["healthcheck"], compose_env["HEALTH_PORT"], port)
            p0, p1 = procs
            assert (p0.shard_ids, p1.shard_ids) == ([0], [1])
            hc = {name: svc["healthcheck"] for name, svc in services.items()}

            # 2. both bot services at once. Discord does not answer at first: the processes are up, their
            # /readyz answers 503 and each service's own check fails on it
            fake.rest_outage = True
            started_at = time.monotonic()
            starts = [asyncio.create_task(p.start(timeout=duration(hc[p.name]["start_period"]))) for p in procs]
            try:
                for p in procs:
                    await check_until(checks[p.name], p.env, hc[p.name], tmp_path, within=20, passing=False,
                                      failure="HTTP Error 503")
                    assert not fake.shard_connected(p.shard_ids[0])
                fake.rest_outage = False
                await asyncio.gather(*starts)
            finally:
                fake.rest_outage = False
                for task in starts:
                    if not task.done():
                        task.cancel()
            # 3. each service's check passes within its start_period
            healthy = {}
            for p in procs:
                await check_until(checks[p.name], p.env, hc[p.name], tmp_path, within=duration(hc[p.name]["start_period"]))
                healthy[p.name] = time.monotonic() - started_at
                assert healthy[p.name] < duration(hc[p.name]["start_period"])
            assert [g for _, g in fake.sync_log] == [None]  # no DISCORD_GUILD_IDS: global commands, synced once

            # shard 1 cut off for a while: bot-shard-1's check fails, bot-shard-0's still passes; then it
            # recovers within the failures Docker tolerates (retries × interval) before calling it unhealthy
            fake.gateway_down = True
            await fake.disconnect_gateway(shard=1)
            await check_until(checks[p1.name], p1.env, hc[p1.name], tmp_path, within=15, passing=False,
                              failure="HTTP Error 503")
            assert (await run_check(checks[p0.name], p0.env, 5, tmp_path))[0] == 0
            fake.gateway_down = False
            recovered = await check_until(checks[p1.name], p1.env, hc[p1.name], tmp_path,
                                          within=duration(hc[p1.name]["interval"]) * hc[p1.name]["retries"])

            # 4. a short game: the lobby and the channel on bot-shard-1, DMs on bot-shard-0
            url = p0.env["DATABASE_URL"]
            table = Table(fake, p1, tmp_path / "unused.sqlite3", guild, channel, users)
            try:
                lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
                started = await start_lobby(table, "alice", lobby)
                for _ in range(100):
                    if (row := await game(url))["status"] == "running":
                        break
                    await asyncio.sleep(0.1)
                assert row["status"] == "running", (dict(row), started.text)
                await announced(table, url)
                taken = 0
                for n in range(2):  # a DM (bot-shard-0), then the channel (bot-shard-1)
                    taken += await move(table, url, from_channel=n % 2 == 1)
                    await announced(table, url)
                row = await game(url)
                assert row["seq"] >= taken >= 2 and row["published_seq"] == row["seq"]
            finally:
                # 5. `docker compose down`: the stop signal to both, SIGKILL after the grace period
                async def down(p: ServiceProcess) -> float:
                    grace = duration(services[p.name].get("stop_grace_period", COMPOSE_STOP_GRACE))
                    t = time.monotonic()
                    await p.stop(timeout=grace)  # BotProcess.stop sends SIGTERM, then SIGKILL after `timeout`
                    return time.monotonic() - t

                assert stop_signal == signal.SIGTERM
                stopped = await asyncio.gather(*(down(p) for p in procs))
            for p, took in zip(procs, stopped, strict=True):
                assert p.returncode == 0, (p.name, p.returncode, p.output()[-3000:])
                assert took < COMPOSE_STOP_GRACE, (p.name, took)
    except BaseException:  # show what the processes logged as a problem
        for p in procs:
            print(f"--- {p.name}: warnings and errors", *problems(p)[-40:], sep="\n")
        raise

    # the JSON logs: every line either process wrote is one JSON object naming its shard ids
    for p in procs:
        output = p.output()
        assert_clean_output(output)
        lines = [line for line in output.splitlines() if line and not line.startswith("----- run ")]
        assert lines, p.name
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                raise AssertionError(f"{p.name} wrote a line that is not JSON: {line[:300]!r}") from None
            assert isinstance(entry, dict) and entry.get("shards") == p.shard_ids, (p.name, line[:300])
        assert any(json.loads(line)["message"].startswith("ready as") for line in lines), p.name
        assert not any(Path(p.env["DATABASE_PATH"]).parent.iterdir()), p.name  # the store is PostgreSQL only
    print(f"\ncompose rehearsal: healthy after {healthy['bot-shard-0']:.1f} s / {healthy['bot-shard-1']:.1f} s "
          f"(start_period {duration(hc['bot-shard-0']['start_period']):.0f} s), shard 1 back {recovered:.1f} s after "
          f"the gateway returned, stopped in {stopped[0]:.1f} s / {stopped[1]:.1f} s, {taken} moves; "
          f"{time.monotonic() - t_begin:.0f} s in all")
