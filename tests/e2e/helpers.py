"""Playing through the fake Discord as users would: lobby, DMs, panels, selects and buttons."""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from tests.fake_discord import BotProcess, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Table:
    fake: FakeDiscord
    bot: BotProcess
    db: Path
    guild: Any
    channel: Any
    users: dict[str, Any] = field(default_factory=dict)
    used_panels: set[int] = field(default_factory=set)

    def user(self, name: str) -> Any:
        return self.users[name]

    def by_id(self, user_id: int) -> Any:
        return next(u for u in self.users.values() if u.id == user_id)


async def make_table(fake: FakeDiscord, tmp_path: Path, names: list[str], *, locales: dict[str, str] | None = None,
                     extra_env: dict[str, str] | None = None) -> Table:
    guild = fake.create_guild("Tabletop test")
    channel = fake.create_channel(guild, "games")
    users = {}
    for name in names:
        user = fake.create_user(name, locale=(locales or {}).get(name, "en-US"))
        fake.add_member(guild, user)
        users[name] = user
    db = tmp_path / "bot.sqlite3"
    # PUBLISH_INTERVAL 0: every move is published at once (tests of coalescing set it themselves)
    env = {"TIMER_INTERVAL": "0.5", "PUBLISH_INTERVAL": "0", **(extra_env or {})}
    bot = BotProcess(fake, db, guild_ids=[guild.id], extra_env=env, cwd=ROOT)
    await bot.start(timeout=60)
    return Table(fake, bot, db, guild, channel, users)


def custom_ids(message: Any, prefix: str) -> list[str]:
    return [c["custom_id"] for c in message.all_components() if c.get("custom_id", "").startswith(prefix)]


PRIMARY = 1
"""Discord's button style of a panel's choices; the standing preferences (issue 10, Godstorm) are behind a
secondary ⚙️ button in the last row (issue 25), settable at any time, so a driver looking for the decision
skips it."""


def choice_ids(message: Any) -> list[str]:
    """The action buttons of the decision the panel asks for (not the standing preferences)."""
    return [c["custom_id"] for c in message.buttons
            if str(c.get("custom_id", "")).startswith("tt:a:") and c.get("style") == PRIMARY]


async def open_lobby(table: Table, host: str, game: str, players: list[str], **options: Any) -> Any:
    fake = table.fake
    r = await fake.slash(table.user(host), table.channel, "game new", game=game, **options)
    assert not r.ephemeral, r.content
    lobby = r.message
    assert lobby is not None, r.content
    for name in players:
        if name == host:
            continue
        joined = await fake.click(table.user(name), lobby, custom_id=custom_ids(lobby, "tt:l:")[0])
        assert f"<@{table.user(name).id}>" in joined.text
    return lobby


async def start_lobby(table: Table, host: str, lobby: Any) -> Any:
    start_id = next(c for c in custom_ids(lobby, "tt:l:") if c.endswith(":start"))
    r = await table.fake.click(table.user(host), lobby, custom_id=start_id)
    return r


def db_query(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def game_row(db: Path, channel_id: int) -> dict[str, Any]:
    rows = db_query(db, "SELECT id, status, seq, published_seq, state, seat_users FROM games WHERE channel_id = ?"
                        " ORDER BY id DESC LIMIT 1", (channel_id,))
    gid, status, seq, published, state, seats = rows[0]
    return {"id": gid, "status": status, "seq": seq, "published_seq": published,
            "state": json.loads(state) if state else None, "seat_users": json.loads(seats) if seats else None}


def turn_posts(table: Table) -> list[Any]:
    """Channel posts carrying a board image (one per turn), oldest first."""
    return [m for m in table.fake.channel_messages(table.channel) if any(a.is_png for a in m.attachments)]


def last_turn_post(table: Table) -> Any:
    posts = turn_posts(table)
    assert posts, "no board was posted"
    return posts[-1]


def decode_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def latest_panel(messages: list[Any], exclude: set[int] | None = None) -> Any | None:
    """The newest message carrying action controls (skipping ids in ``exclude``)."""
    for message in reversed(messages):
        if exclude and message.id in exclude:
            continue
        if choice_ids(message) or custom_ids(message, "tt:n:"):
            return message
    return None


async def play_panel(fake: FakeDiscord, user: Any, message: Any, pick: int = 0, max_depth: int = 6) -> Any:
    """Drive a panel down to an action: choose option ``pick`` (or the last) at every level."""
    current = message
    for _ in range(max_depth):
        buttons = choice_ids(current)
        if buttons:
            r = await fake.click(user, current, custom_id=buttons[min(pick, len(buttons) - 1)])
            return r
        selects = [c for c in current.all_components() if c.get("custom_id", "").startswith("tt:n:")]
        assert selects, f"no controls on {current!r}"
        options = selects[0]["options"]
        value = options[min(pick, len(options) - 1)]["value"]
        r = await fake.select(user, current, values=[value], custom_id=selects[0]["custom_id"])
        if r.answered.startswith(("✅", "⛔")):
            return r
        current = r.message
    raise AssertionError("panel did not reach an action")


def actor_ids(table: Table) -> list[int]:
    """Users pinged by the latest turn post (the ones who must act)."""
    post = last_turn_post(table)
    return list(post.mentions)


def assert_clean_output(output: str) -> None:
    """No traceback in the bot's log; on failure show the traceback itself."""
    if "Traceback" in output:
        start = output.index("Traceback")
        raise AssertionError("the bot logged a traceback:\n" + output[max(0, start - 600):start + 3000])


async def wait_dm_panel(table: Table, user: Any, timeout: float = 20) -> Any:
    """The DM panel sent to ``user`` after the latest turn post (each panel is used once)."""
    post_id = last_turn_post(table).id

    def fresh() -> Any | None:
        return latest_panel([m for m in table.fake.dm_messages(user) if m.id > post_id], table.used_panels)

    panel = await table.fake.wait_for(fresh, timeout=timeout)
    table.used_panels.add(panel.id)
    return panel
