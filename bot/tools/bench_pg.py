"""PostgreSQL with two bot processes (issue 14's benchmark), used by ``python -m bot.bench``.

Two OS processes (``python -m bot.bench_pg --worker``), each with its own :class:`Store` and
:class:`SessionManager` on the same database, play real games (Pobeda by default) in 50 channels with
publishing stubbed (``on_change`` does nothing). The parent creates every game beforehand (a queue of
games per channel: when one ends the channel moves to the next), so the timed region holds moves only.

Two variants, each in a fresh database:

* ``split``: the channels are divided between the processes (each game is played by one process, as
  with shards owning their guilds); the issue's figures ``pg_step_commit_ms_p50/p99`` and
  ``pg_actions_per_s`` come from it;
* ``shared``: both processes act on all 50 games (players clicking in a channel served by one process
  and in DMs served by another), so moves race on the optimistic ``seq`` check; a lost race is counted
  (``pg_shared_conflicts``), the loser's cached game is dropped and reloaded, and it tries again.

Each variant runs two phases in both processes at once:

* ``saturate``: every channel acts again as soon as its move is committed (closed loop): the
  aggregate actions per second across both processes is the capacity figure;
* ``paced``: an offered load of ``rate`` actions per second in total (default 1,000, the issue's aim),
  spread over the channels on a fixed schedule: the per-move latency figures come from it (in a
  closed loop latency is only the channels' queueing, concurrency divided by throughput).

``*cpu_ms_per_action`` (saturated phase): CPU time of both workers and of the server's processes per
move, and ``*server_cpu_ms_per_action`` the server's part; on a busy machine the rate reflects the
other load, while this tells what two idle cores could sustain (about 2,000 divided by it).

The workers reach the server over TCP on 127.0.0.1 (as from another host or container); ``--unix``
connects through the server's Unix socket instead, as a bot on the database's own machine would
(``?host=/var/run/postgresql``): the kernel's TCP work on both sides, about a sixth of the CPU per
move, is saved (``pg_transport`` says which).

A move's latency is :meth:`SessionManager.act` (lock, listed check, rules, the one transaction);
deciding the move is outside it. Decisions are the random policy's (``bot.games.ai.RandomPolicy``),
which reads only the legal list: a human's decision costs the server nothing, so no view is built.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Conflict, Store
from bot.games.ai import policy_for
from bot.games.base import Rng
from bot.tools.benchplay import platform_game

ROOT = Path(__file__).resolve().parents[2]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# ---- the parent: games, workers, phases -------------------------------------------------------------
async def create_games(url: str, key: str, channels: int, per_channel: int, players: int) -> list[list[int]]:
    """``per_channel`` started games for each channel (its queue, played in order), in one process; each
    game in a server of its own, so the per-server cap of running games (``TABLETOP_MAX_GAMES_PER_SERVER``)
    does not stop the set-up."""
    store = await Store.open(url)
    sessions = SessionManager(store)
    queues: list[list[int]] = []
    try:
        for c in range(channels):
            queue = []
            for k in range(per_channel):
                channel = 10_000 + c * 100 + k
                users = [UserInfo(channel * 10 + i, f"p{i}") for i in range(players)]
                session = await sessions.create(guild_id=channel, channel_id=channel, host=users[0], game_key=key,
                                                options={})
                for user in users[1:]:
                    await sessions.join(session.id, user)
                await sessions.start(session.id, users[0].id, seed=channel)
                queue.append(session.id)
            queues.append(queue)
    finally:
        await store.close()
    return queues


class Worker:
    """One worker process, driven over its stdin/stdout one JSON line at a time."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "bot.tools.bench_pg", "--worker", json.dumps(config)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"bench worker exited (code {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def server_cpu_s(data_dir: Path | None) -> float | None:
    """CPU seconds used so far by the PostgreSQL server of ``data_dir``: its postmaster (with the
    children it has reaped) and its live processes (from /proc; None where there is none)."""
    if data_dir is None:
        return None
    try:
        postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # exited meanwhile
            pid, ppid = int(entry.name), int(fields[1])
            if pid == postmaster:
                total += sum(int(f) for f in fields[11:15]) / tick  # utime stime cutime cstime
            elif ppid == postmaster:
                total += (int(fields[11]) + int(fields[12])) / tick
        return total
    except (OSError, ValueError, IndexError):
        return None


def run_variant(url: str, key: str, queues: list[list[int]], *, processes: int, shared: bool,
                phases: list[dict[str, Any]], data_dir: Path | None = None, pool_size: int | None = None
                ) -> list[dict[str, Any]]:
    """Start the workers on their channels, run ``phases`` in all of them at once; per phase the
    merged result (every latency, total moves and conflicts, the wall time from the first start to
    the last end, the CPU seconds of the workers and of the server of ``data_dir``)."""
    workers = []
    for p in range(processes):
        mine = queues if shared else queues[p::processes]
        workers.append(Worker({"url": url, "key": key, "queues": mine, "seed": p + 1, "pool_size": pool_size}))
    try:
        for w in workers:
            w.receive()  # ready: connected, first games loaded
        merged = []
        for phase in phases:
            server_before = server_cpu_s(data_dir)
            for w in workers:
                w.send({**phase, "processes": processes})
            answers = [w.receive() for w in workers]
            server_after = server_cpu_s(data_dir)
            server_cpu = (server_after - server_before if server_after is not None and server_before is not None
                          else math.nan)
            merged.append({
                "cpu_s": sum(a["cpu_s"] for a in answers) + server_cpu,
                "server_cpu_s": server_cpu,
                "latencies": [t for a in answers for t in a["latencies"]],
                "moves": sum(a["moves"] for a in answers),
                "conflicts": sum(a["conflicts"] for a in answers),
                "exhausted": sum(a["exhausted"] for a in answers),
                "seconds": max(a["end"] for a in answers) - min(a["start"] for a in answers),
            })
        return merged
    finally:
        for w in workers:
            w.close()


def summary(prefix: str, phase: str, result: dict[str, Any]) -> dict[str, Any]:
    lat = result["latencies"]
    out: dict[str, Any] = {}
    if phase == "saturate":
        out[f"{prefix}actions_per_s"] = round(result["moves"] / result["seconds"], 1)
        if result["moves"] and math.isfinite(result["cpu_s"]):
            # CPU of both workers and the server per move: what bounds the rate on an idle machine
            out[f"{prefix}cpu_ms_per_action"] = round(result["cpu_s"] * 1000 / result["moves"], 3)
            out[f"{prefix}server_cpu_ms_per_action"] = round(result["server_cpu_s"] * 1000 / result["moves"], 3)
        out[f"{prefix}saturated_step_ms_p50"] = round(percentile(lat, 0.5), 3)
        out[f"{prefix}saturated_step_ms_p99"] = round(percentile(lat, 0.99), 3)
    else:
        out[f"{prefix}step_commit_ms_p50"] = round(percentile(lat, 0.5), 3)
        out[f"{prefix}step_commit_ms_p99"] = round(percentile(lat, 0.99), 3)
        out[f"{prefix}paced_actions_per_s"] = round(result["moves"] / result["seconds"], 1)
    out[f"{prefix}{phase}_conflicts"] = result["conflicts"]
    return out


def unix_socket_url(server: Any, database: str) -> str:
    """The URL of ``database`` on ``server`` through its Unix socket (in its data root)."""
    return f"postgresql://{server.user}@/{database}?host={server.root}&port={server.port}"


async def bench_cluster(server: Any, key: str, *, processes: int = 2, channels: int = 50, seconds: float = 5.0,
                        rate: float = 1000.0, players: int = 3, games_per_channel: int | None = None,
                        pool_size: int | None = None, unix_socket: bool = False) -> dict[str, Any]:
    """Both variants on fresh databases of ``server`` (a :class:`bot.tools.pg_temp.PgServer`), named
    ``bench_split`` and ``bench_shared`` (left in place); ``pg_moves`` / ``pg_shared_moves``: the moves
    committed in each. ``unix_socket``: connect through the server's socket instead of TCP."""
    phases: list[dict[str, Any]] = [{"mode": "saturate", "seconds": seconds},
                                    {"mode": "paced", "seconds": seconds, "rate": rate}]
    # enough games that no channel runs dry at 3,000 actions/s (a random Pobeda game lasts ~120 moves)
    per_channel = games_per_channel or 2 + math.ceil(3000 * seconds * len(phases) / (channels * 100))
    out: dict[str, Any] = {"pg_processes": processes, "pg_channels": channels, "pg_paced_offered_per_s": rate,
                           "pg_transport": "unix" if unix_socket else "tcp"}
    for variant, prefix in (("split", "pg_"), ("shared", "pg_shared_")):
        url = await server.fresh_database(f"bench_{variant}")
        if unix_socket:
            url = unix_socket_url(server, f"bench_{variant}")
        queues = await create_games(url, key, channels, per_channel, players)
        results = await asyncio.to_thread(run_variant, url, key, queues, processes=processes,
                                          shared=variant == "shared", phases=phases,
                                          data_dir=getattr(server, "data", None), pool_size=pool_size)
        for phase, result in zip(phases, results, strict=True):
            out.update(summary(prefix, phase["mode"], result))
        out[f"{prefix}exhausted_channels"] = sum(r["exhausted"] for r in results)
        out[f"{prefix}moves"] = sum(r["moves"] for r in results)
    out["pg_shared_conflicts"] = out.pop("pg_shared_saturate_conflicts") + out.pop("pg_shared_paced_conflicts")
    if out.pop("pg_saturate_conflicts") + out.pop("pg_paced_conflicts"):
        raise RuntimeError("moves conflicted although every game had one process")
    return out


# ---- the worker --------------------------------------------------------------------------------------
class Player:
    """Plays this process's channels."""

    def __init__(self, sessions: SessionManager, key: str, queues: list[list[int]], seed: int) -> None:
        self.sessions = sessions
        self.queues = queues
        self.at = [0] * len(queues)  # index of each channel's current game in its queue
        self.policy = policy_for(key, "random")
        self.rngs = [Rng(seed * 100_000 + i) for i in range(len(queues))]

    async def move(self, channel: int, latencies: list[float]) -> str:
        """One move in the channel: "ok", "conflict" (lost a race; the cached game is dropped) or
        "done" (the channel has no game left)."""
        sessions = self.sessions
        while self.at[channel] < len(self.queues[channel]):
            game_id = self.queues[channel][self.at[channel]]
            # the player decides on what it was shown (the cached game, as a panel built earlier);
            # act checks it against the stored game under the lock
            session = sessions.sessions.get(game_id) or await sessions.get(game_id)
            game = session.game
            if session.row.status != "running" or game is None or not game.actors():
                self.at[channel] += 1
                continue
            rng = self.rngs[channel]
            seat = rng.choice(game.actors())
            action = self.policy.choose({}, game.legal_actions(seat), rng)  # reads only the legal list
            assert session.row.seat_users is not None
            user = session.row.seat_users[seat][0]
            start = time.perf_counter()
            try:
                await sessions.act(game_id, user, seat, action)
            except SessionError:
                return "conflict"  # refused on what another process stored meanwhile (act reloaded it)
            except (Conflict, sqlite3.IntegrityError):
                # the commit lost the race and the session layer did not reload: drop the cached game
                stale = sessions.sessions.get(game_id)
                if stale is not None:
                    sessions._forget(stale)
                return "conflict"
            latencies.append((time.perf_counter() - start) * 1000)
            return "ok"
        return "done"

    async def phase(self, mode: str, seconds: float, rate: float, processes: int) -> dict[str, Any]:
        latencies: list[float] = []
        counts = {"ok": 0, "conflict": 0, "done": 0}
        start = time.monotonic()  # system-wide clock: comparable with the other worker's
        cpu_start = time.process_time()
        stop_at = start + seconds
        # paced: ``rate`` moves a second from all the channel loops of all the processes together
        interval = len(self.queues) * processes / rate if mode == "paced" else 0.0

        async def loop(index: int) -> None:
            due = start + interval * ((index * 0.618) % 1.0)  # spread the channels over an interval
            while (now := time.monotonic()) < stop_at:
                if due > now:
                    await asyncio.sleep(due - now)
                    continue
                outcome = await self.move(index, latencies)
                counts[outcome] += 1
                if outcome == "done":
                    return
                if outcome == "ok":
                    due += interval

        await asyncio.gather(*[loop(i) for i in range(len(self.queues))])
        return {"latencies": latencies, "moves": counts["ok"], "conflicts": counts["conflict"],
                "exhausted": counts["done"], "start": start, "end": time.monotonic(),
                "cpu_s": time.process_time() - cpu_start}


async def worker_main(config: dict[str, Any], stdin: IO[str], stdout: IO[str]) -> None:
    if config.get("pool_size"):
        from bot.core import db

        db.POOL_SIZE = int(config["pool_size"])
    store = await Store.open(config["url"])
    sessions = SessionManager(store)  # on_change does nothing: publishing stubbed at the boundary
    try:
        player = Player(sessions, config["key"], config["queues"], config["seed"])
        for queue in player.queues:
            await sessions.get(queue[0])
        print(json.dumps({"ready": True}), file=stdout, flush=True)
        while line := await asyncio.to_thread(stdin.readline):
            cmd = json.loads(line)
            result = await player.phase(cmd["mode"], cmd["seconds"], cmd.get("rate", 0.0), cmd["processes"])
            print(json.dumps(result), file=stdout, flush=True)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", metavar="CONFIG", help="run as a worker (JSON config; driven over stdin)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--game", help="the game played (default: the platform benchmarks' game)")
    parser.add_argument("--pool-size", type=int, help="connections per process (default: bot.core.db.POOL_SIZE)")
    parser.add_argument("--rate", type=float, default=1000.0, help="actions per second offered in the paced phase")
    parser.add_argument("--unix", action="store_true", help="connect through the server's Unix socket, not TCP")
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker_main(json.loads(args.worker), sys.stdin, sys.stdout))
        return
    from bot.tools.pg_temp import PgServer, find_binaries

    bindir, why = find_binaries()
    if bindir is None:
        raise SystemExit(why)
    server = PgServer.start(bindir, durable=True)
    try:
        print(json.dumps(asyncio.run(bench_cluster(server, args.game or platform_game(), seconds=args.seconds, rate=args.rate,
                                                   pool_size=args.pool_size, unix_socket=args.unix))))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
