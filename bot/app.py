"""The Bot subclass: start-up (storage, restore, commands), the durable timer loop, shutdown."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.delivery import Publisher
from bot.i18n import lang_of, t
from bot.sessions import Session, SessionManager
from bot.store import Store

log = logging.getLogger(__name__)


class CommandTranslator(app_commands.Translator):
    """Russian descriptions and choice names for slash commands (``locale_str`` extras carry the key)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if not key or lang_of(str(locale.value)) != "ru":
            return None
        text = t(key, "ru")
        return None if text == key else text


class TabletopBot(commands.Bot):
    def __init__(self, config: Config) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none())
        self.config = config
        self.store: Store
        self.sessions: SessionManager
        self.publisher: Publisher
        self._timer: asyncio.Task[None] | None = None
        self._notices: set[asyncio.Task[Any]] = set()
        self.ready_once = asyncio.Event()

    async def setup_hook(self) -> None:
        started = time.perf_counter()
        self.store = await Store.open(self.config.database_path)
        self.sessions = SessionManager(self.store)
        self.publisher = Publisher(self, self.sessions, self.store)
        self.sessions.on_change = self.publisher.request
        self.sessions.on_broken = self.announce_broken
        await self.publisher.load()
        stale = await self.sessions.restore()
        await self.tree.set_translator(CommandTranslator())
        for ext in ("cogs.game", "cogs.controls", "cogs.godstorm"):
            await self.load_extension(ext)
        await self.sync_commands()
        log.info("restored %d unfinished games (%d to re-publish) in %.3f s", len(self.sessions.sessions),
                 len(stale), time.perf_counter() - started)
        self._stale = stale
        self._timer = asyncio.create_task(self._timer_loop())

    def announce_broken(self, session: Session) -> None:
        """Tell a channel, once, that its game cannot be loaded and how to free the channel."""
        row = session.row
        text = t("notice.game_broken", row.lang, game=t(f"{row.game}.name", row.lang), id=row.id)
        task = asyncio.get_running_loop().create_task(
            self.publisher.post(row.channel_id, text, allowed_mentions=discord.AllowedMentions.none()))
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def sync_commands(self) -> None:
        if self.config.guild_ids:
            for gid in self.config.guild_ids:
                guild = discord.Object(gid)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            log.info("commands synced to guilds %s", ",".join(map(str, self.config.guild_ids)))
        else:
            await self.tree.sync()
            log.info("commands synced globally (may take up to an hour to appear)")

    async def on_ready(self) -> None:
        log.info("ready as %s (%s)", self.user, self.user.id if self.user else "?")
        if not self.ready_once.is_set():
            self.ready_once.set()
            for game_id in getattr(self, "_stale", []):
                self.publisher.request(game_id)

    async def _timer_loop(self) -> None:
        """One durable loop for every deadline: the rows live in SQLite, so a restart re-arms them."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.tick(time.time())
            except Exception:
                log.exception("timer tick failed")
            await asyncio.sleep(self.config.timer_interval)

    async def tick(self, now: float) -> None:
        for game_id, seat in await self.store.due_reminders(now):
            await self.store.clear_reminder(game_id, seat)
            session = self.sessions.sessions.get(game_id)
            if session is not None and seat in session.deadlines:
                due, _ = session.deadlines[seat]
                session.deadlines[seat] = (due, None)
            await self.publisher.remind(game_id, seat)
        for game_id, seat in await self.store.due_deadlines(now):
            try:
                await self.sessions.expire(game_id, seat)
            except Exception:
                log.exception("deadline of game %s seat %s failed", game_id, seat)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        try:
            if hasattr(self, "publisher"):
                await asyncio.wait_for(self.publisher.idle(), timeout=10)
        except (TimeoutError, Exception):
            log.warning("shutdown: some posts were not finished; they are re-published at next start")
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
