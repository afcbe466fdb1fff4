"""Playing through the fake Discord as users would: lobby, DMs, panels, selects and buttons.

Bot processes: :func:`start_bot` starts one against the fake Discord with the tests' settings;
:func:`make_table` gives a test a bot of its own (a fresh database, a guild, a channel, its users).
Tests that need no fresh process (no restart, no settings of their own, nothing counted across the
whole process) share one bot per module instead: the ``shared_bot`` fixture (``tests/conftest.py``)
starts it once, and :func:`shared_table` lays each test its own channel and users in it, so games,
panels and DMs of different tests never meet. A bot process costs about 2 s of CPU to start (imports,
its render worker, the first boards' static layers) and 1-2 s to stop.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from tests.fake_discord import BotProcess, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]

TEST_ENV = {"TIMER_INTERVAL": "0.5", "PUBLISH_INTERVAL": "0", "PANEL_REFRESH_DELAY": "0.25"}
"""The e2e settings: the timer loop ticks every 0.5 s, every move is published at once (tests of
coalescing set ``PUBLISH_INTERVAL`` themselves), and a DM panel is refreshed a quarter of a second after
its player acted elsewhere, not a second (tests/panels/test_panels.py checks that moves made meanwhile
are one refresh)."""
NO_WINDOW = {"options": "undo_window=0"}
"""A Pobeda game with no undo window (the ``/game new`` option "options", a name ``fake.slash`` also has): for
tests that play one action per turn from DM panels, as ``play_turn`` does (the window has tests of its own)."""



@dataclass
class Table:
    fake: FakeDiscord
    bot: BotProcess
    db: Path
    guild: Any
    channel: Any
    users: dict[str, Any] = field(default_factory=dict)
    used_panels: set[int] = field(default_factory=set)
    shared: bool = False
    """The bot is the module's (``shared_bot``): the test neither stops it nor reads what it logged before."""
    log_from: int = 0
    """Where this table's part of the bot's output begins."""

    def user(self, name: str) -> Any:
        return self.users[name]

    def by_id(self, user_id: int) -> Any:
        return next(u for u in self.users.values() if u.id == user_id)

    def output(self) -> str:
        """What the bot logged since this table was laid (every run of a bot of its own)."""
        return self.bot.output()[self.log_from:]

    async def close(self) -> None:
        """The end of the test: its own bot is stopped (SIGTERM, as Docker does); a shared one goes on,
        and the fixture stops it after the module's last test and checks its whole output."""
        if not self.shared:
            await self.bot.stop()


async def start_bot(fake: FakeDiscord, db: Path, guild_ids: list[int], *, extra_env: Mapping[str, str] | None = None,
                    cwd: Path = ROOT, timeout: float = 60, **options: Any) -> BotProcess:
    """A bot process (``python -m bot``) with the tests' settings (:data:`TEST_ENV`, then ``extra_env``),
    started: it has IDENTIFYed and synced its commands. ``options``: more :class:`BotProcess` arguments."""
    bot = BotProcess(fake, db, guild_ids=guild_ids, extra_env={**TEST_ENV, **(extra_env or {})}, cwd=cwd, **options)
    await bot.start(timeout=timeout)
    return bot


def add_users(fake: FakeDiscord, guild: Any, names: list[str], locales: dict[str, str] | None) -> dict[str, Any]:
    users = {}
    for name in names:
        user = fake.create_user(name, locale=(locales or {}).get(name, "en-US"))
        fake.add_member(guild, user)
        users[name] = user
    return users


async def make_table(fake: FakeDiscord, tmp_path: Path, names: list[str], *, locales: dict[str, str] | None = None,
                     extra_env: dict[str, str] | None = None) -> Table:
    """A bot of the test's own, with a fresh database, a guild, its channel ``games`` and ``names`` as members."""
    guild = fake.create_guild("Tabletop test")
    channel = fake.create_channel(guild, "games")
    users = add_users(fake, guild, names, locales)
    db = tmp_path / "bot.sqlite3"
    bot = await start_bot(fake, db, [guild.id], extra_env=extra_env)
    return Table(fake, bot, db, guild, channel, users)


@dataclass
class SharedBot:
    """One bot process serving every test of a module (the ``shared_bot`` fixture)."""
    fake: FakeDiscord
    bot: BotProcess
    db: Path
    guild: Any
    tables: int = 0


async def open_shared_bot(fake: FakeDiscord, folder: Path, *, extra_env: Mapping[str, str] | None = None) -> SharedBot:
    guild = fake.create_guild("Tabletop test")
    db = folder / "bot.sqlite3"
    return SharedBot(fake, await start_bot(fake, db, [guild.id], extra_env=extra_env), db, guild)


def shared_table(shared: SharedBot, names: list[str], *, locales: dict[str, str] | None = None) -> Table:
    """A table at the module's bot: a channel and users of this test's own, in the bot's guild."""
    shared.tables += 1
    if not shared.bot.running:
        raise AssertionError("the module's bot has exited:\n" + shared.bot.output()[-6000:])
    fake = shared.fake
    channel = fake.create_channel(shared.guild, f"games-{shared.tables}")
    users = add_users(fake, shared.guild, names, locales)
    return Table(fake, shared.bot, shared.db, shared.guild, channel, users, shared=True,
                 log_from=len(shared.bot.output()))


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


_READERS: OrderedDict[tuple[str, int], tuple[tuple[int, ...], sqlite3.Connection]] = OrderedDict()
"""(file, thread) -> (the file's identity and state when its reader was opened, the reader); the most recently
used last."""
READERS_KEPT = 8


def db_query(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of one read of the bot's SQLite file, as it is committed now.

    Tests poll the database every few tens of milliseconds while they wait, and opening a connection (the
    schema read again, the WAL index mapped) costs about 30 times the query: the read connection is kept,
    one per file and thread, and opened again once the file is another or its main part was written (a
    checkpoint, a copy over it), the few most recent kept. Each statement runs in autocommit, so a kept
    connection never holds a snapshot nor a lock between reads."""
    try:
        st = os.stat(db)
        stamp: tuple[int, ...] = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    except FileNotFoundError:
        stamp = ()
    key = (str(db), threading.get_ident())
    kept = _READERS.pop(key, None)
    if kept is not None and kept[0] != stamp:
        kept[1].close()
        kept = None
    con = kept[1] if kept is not None else sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    _READERS[key] = (stamp, con)
    while len(_READERS) > READERS_KEPT:
        _READERS.popitem(last=False)[1][1].close()
    return con.execute(sql, params).fetchall()


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

    try:
        panel = await table.fake.wait_for(fresh, timeout=timeout)
    except TimeoutError:
        row = game_row(table.db, table.channel.id)
        dms = [(m.id, m.edited, (custom_ids(m, "tt:a:") + custom_ids(m, "tt:n:"))[:1], m.content[:60])
               for m in table.fake.dm_messages(user)[-4:]]
        raise AssertionError(
            f"no fresh DM panel for {user.name} within {timeout} s after turn post {post_id} "
            f"(mentions {last_turn_post(table).mentions}); game seq {row['seq']}, published {row['published_seq']}, "
            f"seat users {row['seat_users']}\nlast DMs {dms}\n"
            f"used {sorted(table.used_panels)[-4:]}\nbot output tail:\n{table.bot.output()[-4000:]}") from None
    table.used_panels.add(panel.id)
    return panel
