"""Measuring how long a committed move waits for its channel post (issue 22), and a player who makes
random decisions through ``/game hand``: shared by tests/e2e/test_announce_gap_e2e.py and the
``announce_*`` figures of ``python -m bot.bench`` (bot/tools/bench_delivery.py)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.registry import game_class
from tests.e2e.helpers import Table, db_query, game_row, latest_panel, play_panel
from tests.fake_discord import FakeDiscord

FAULT_EVERY = 5
"""A fault every this many steps."""


@dataclass
class GapMeter:
    """When each committed move reached the channel post: the turn post's checkpoint (``messages``,
    purpose ``turn``: the sequence number the post shows, written as soon as Discord took the post or
    edit) sampled every 100 ms, against the move's commit time (``actions.created_at``)."""

    db: Path
    game_id: int
    posted_at: dict[int, float] = field(default_factory=dict)
    shown: int = -1

    def sample(self) -> None:
        rows = db_query(self.db, "SELECT data FROM messages WHERE game_id = ? AND purpose = 'turn'", (self.game_id,))
        seq = json.loads(rows[0][0]).get("seq", -1) if rows and rows[0][0] else -1
        now = time.time()
        for s in range(self.shown + 1, seq + 1):
            self.posted_at[s] = now
        self.shown = max(self.shown, seq)

    def caught_up(self, seq: int) -> bool:
        """A fresh sample: does the channel post show every move up to ``seq``?"""
        self.sample()
        return self.shown >= seq

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            await asyncio.sleep(0.1)

    def gaps(self) -> dict[int, float]:
        """Seconds from each move's commit to its channel post (moves not yet posted: until now)."""
        now = time.time()
        committed = db_query(self.db, "SELECT seq, created_at FROM actions WHERE game_id = ?", (self.game_id,))
        return {seq: self.posted_at.get(seq, now) - at for seq, at in committed}


POST_PATH_FAULTS = (0, 2, 4)
"""Which of :func:`faults` refuse the channel's posts (counted in requests)."""


def faults(fake: FakeDiscord, channel_id: int) -> list[Any]:
    """One fault switch after another (each a callable, async for the gateway's)."""
    return [
        lambda: fake.fail_requests(500, f"/channels/{channel_id}/messages", method="POST", count=5),
        lambda: fake.fail_requests(500, "/channels/", method="PATCH", count=5),
        lambda: fake.fail_requests(502, "/channels/", method="POST", count=5),
        lambda: fake.fail_requests(503, "/users/@me/channels", method="POST", count=4),
        lambda: fake.fail_requests(0, "/channels/", method="POST", count=3, drop=True),
        lambda: fake.disconnect_gateway(4000),
        lambda: fake.invalidate_session(),
    ]


async def step(table: Table, key: str, rnd: random.Random) -> bool:
    """One decision of a seat that must act (see :func:`decide`). An interaction sent while the
    gateway was being cut never reaches the bot (Discord says "This interaction failed"): the player
    tries again once the bot is connected, as a person would."""
    for attempt in range(4):
        try:
            return await decide(table, key, rnd)
        except TimeoutError:
            if attempt == 3:
                raise
            await table.fake.wait_for(lambda: table.fake.connected, timeout=30)
    return True


async def decide(table: Table, key: str, rnd: random.Random) -> bool:
    """One decision of a seat that must act, through its ``/game hand`` panel (random choices).
    False once the game is over."""
    fake = table.fake
    row = game_row(table.db, table.channel.id)
    if row["status"] != "running":
        return False
    game = game_class(key).from_json(row["state"])
    actors = game.actors()
    if not actors:
        return False
    seat = rnd.choice(actors)
    user = table.by_id(rnd.choice(row["seat_users"][seat]))
    r = await fake.slash(user, table.channel, "game hand", timeout=12)
    panel = latest_panel([r.message]) if r.message is not None else None
    if panel is None:
        return True  # nothing to decide for this user right now (a choice already made)
    r = await play_panel(fake, user, panel, pick=rnd.randrange(3))
    assert r.answered.startswith(("✅", "⛔")), r.answered
    return True
