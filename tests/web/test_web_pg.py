"""Two bot processes on one PostgreSQL (issue 29 with issue 14): the page served by one process follows a
move committed by the other, through the change notifications (``NOTIFY``), and a revocation written by
either counts on both. Two stores and session managers in one test stand for the two processes, on the
tests' throwaway server; skipped only without PostgreSQL binaries."""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import replace
from types import SimpleNamespace

import aiohttp

from bot.core.cluster import Cluster
from bot.core.config import load_config
from bot.core.sessions import SessionManager
from bot.core.store import Store
from bot.web import links, start_web
from tests.pg_server import PgServer, new_pg_url
from tests.toygame.game import cell_name
from tests.web.conftest import ALICE, BOB


async def test_a_page_follows_a_move_committed_by_another_process(pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server, "web")
    mover_store, viewer_store = await Store.open(url), await Store.open(url)
    mover, viewer = SessionManager(mover_store), SessionManager(viewer_store)
    listener = Cluster(viewer_store, poll_s=0.2)  # the viewing process's NOTIFY listener (its publisher's)
    await listener.start()
    config = replace(load_config({"DISCORD_TOKEN": "x", "WEB_PORT": "1"}, read_dotenv=False), web_port=0)
    server = await start_web(config, viewer, viewer_store, SimpleNamespace(cluster=listener))
    try:
        session = await mover.create(guild_id=1, channel_id=70, host=ALICE, game_key="toygame", options={},
                                     deadline_s=3600)
        await mover.join(session.id, ALICE)
        await mover.join(session.id, BOB)
        await mover.start(session.id, ALICE.id, seed=5)
        page_url, _ = await server.link(session.id)
        async with aiohttp.ClientSession() as http:
            page = await (await http.get(f"{page_url}?lang=en")).text()
            version = re.search(r'data-version="(\d+)"', page)
            assert version is not None
            async with http.get(f"{page_url}/events?lang=en&v={version.group(1)}") as stream:
                await asyncio.sleep(0.2)
                assert session.game is not None and session.row.seat_users is not None
                seat = session.game.actors()[0]
                await mover.act(session.id, session.row.seat_users[seat][0], seat,
                                {"type": "mark", "cell": 8, "secret": 3})
                committed = time.monotonic()
                message: dict[str, object] = {}
                name = b""
                while message.get("seq") != session.row.seq:  # (the start's notification may come first)
                    line = await asyncio.wait_for(stream.content.readline(), 2 - (time.monotonic() - committed))
                    if line.startswith(b"event: "):
                        name = line[7:].strip()
                    elif line.startswith(b"data: ") and name == b"state":
                        message = json.loads(line[6:])
                assert time.monotonic() - committed < 2
                assert cell_name(8) in str(message["log"])
            # a revocation written by the other process counts here within the generation's lifetime
            await links.revoke(mover_store, session.id)
            ends = time.monotonic() + 5
            while (await http.get(page_url)).status != 410:
                assert time.monotonic() < ends, "the revocation did not reach the other process"
                await asyncio.sleep(0.2)
    finally:
        await server.close()
        await listener.stop()
        await mover_store.close()
        await viewer_store.close()
