"""The web pages' figures for ``python -m bot.bench`` (issue 29).

- ``web_page_ms_p99``: server time of one page answer (the handler, from the parsed request to the
  HTML), with 100 viewers of one game asking at once right after each move; ``web_page_client_ms_p99``
  is the same loads as the viewers' process timed them (connection, queueing and its own parsing
  included, on the same machine).
- ``web_update_lag_ms_p99``: from a move's commit (``SessionManager.act`` returning) to its update
  arriving on each of the 100 viewers' event streams.

Both run over a real SQLite store and session manager in this process, the server on a loopback port
and the viewers as aiohttp clients (the rate limits raised for the one address they share).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.core.sessions import SessionManager
from bot.core.store import Store
from bot.web.server import RateLimits, WebServer
from bot.web.views import GameViews

VIEWERS = 100


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def _stream(http: aiohttp.ClientSession, url: str, arrivals: dict[int, list[float]], opened: list[int]) -> None:
    """One viewer's event stream: the wall-clock arrival of each state it is sent, by sequence number."""
    async with http.get(f"{url}/events?lang=en") as response:
        opened.append(1)
        name = ""
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "state":
                arrivals.setdefault(json.loads(line[6:])["seq"], []).append(time.time())


async def viewers(url: str) -> None:
    """(The viewers' process.) Open :data:`VIEWERS` event streams, say ``ready``; then for each line
    ``<seq>`` read, load the page :data:`VIEWERS` times at once and answer with the streams' arrival
    times of that sequence number (one JSON line)."""
    arrivals: dict[int, list[float]] = {}
    opened: list[int] = []
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        tasks = [asyncio.create_task(_stream(http, url, arrivals, opened)) for _ in range(VIEWERS)]
        while len(opened) < VIEWERS:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        print("ready", flush=True)
        while line := (await reader.readline()).decode().strip():
            seq = int(line)

            async def page() -> float:
                started = time.perf_counter()
                async with http.get(f"{url}?lang=en") as answer:
                    await answer.read()
                return (time.perf_counter() - started) * 1000

            pages = await asyncio.gather(*(page() for _ in range(VIEWERS)))
            ends = time.monotonic() + 5
            while len(arrivals.get(seq, [])) < VIEWERS and time.monotonic() < ends:
                await asyncio.sleep(0.005)
            print(json.dumps({"seq": seq, "arrivals": arrivals.get(seq, []), "pages": pages}), flush=True)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def bench_web(key: str, quick: bool) -> dict[str, float]:
    from bot.tools.benchplay import new_game, play_one  # noqa: PLC0415 (the bench's own game helpers)

    rounds = 8 if quick else 30
    lags: list[float] = []
    seen: list[float] = []  # each page load as the viewers' process timed it (their own work included)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "web.sqlite3")
        sessions = SessionManager(store)
        server = WebServer(GameViews(sessions), store, port=0,
                           rate=RateLimits(rate=1e6, burst=1e6, streams=VIEWERS * 2))
        sessions.on_change = server.changed
        await server.start()
        rng = random.Random(5)
        child = None
        try:
            game_id = await new_game(sessions, 1, key, 3)
            url, _ = await server.link(game_id)
            # the viewers in a process of their own: their parsing must not count as the server's time
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.web.bench", url, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE)
            assert child.stdin is not None and child.stdout is not None
            assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"ready"
            server.timing = True
            for _ in range(rounds):
                if not await play_one(sessions, game_id, rng):
                    break
                committed = time.time()
                seq = (await sessions.get(game_id)).row.seq
                child.stdin.write(f"{seq}\n".encode())
                await child.stdin.drain()
                told = json.loads(await asyncio.wait_for(child.stdout.readline(), 60))
                got = told["arrivals"]
                seen += told["pages"]
                lags += [(at - committed) * 1000 for at in got]
                lags += [5000.0] * (VIEWERS - len(got))  # a viewer that never heard counts as 5 s
            child.stdin.close()
            await asyncio.wait_for(child.wait(), 10)
        finally:
            if child is not None and child.returncode is None:
                child.kill()
                await child.wait()
            await server.close()
            await store.close()
    pages_ms = [s * 1000 for s in server.timings]
    return {"web_page_ms_p50": round(percentile(pages_ms, 0.5), 3),
            "web_page_ms_p99": round(percentile(pages_ms, 0.99), 3),
            "web_page_client_ms_p99": round(percentile(seen, 0.99), 3),
            "web_update_lag_ms_p50": round(percentile(lags, 0.5), 3),
            "web_update_lag_ms_p99": round(percentile(lags, 0.99), 3),
            "web_viewers": VIEWERS}


if __name__ == "__main__":
    asyncio.run(viewers(sys.argv[1]))
