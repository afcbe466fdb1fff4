"""The Bot subclass: start-up (storage, restore, commands), the durable timer loop, shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import drawing
from bot.core.bots import BotDriver
from bot.core.cluster import TIMER as TIMER_LEASE
from bot.core.cluster import refresh_due, timer_lease_s
from bot.core.config import Config, ConfigError
from bot.core.events import GameCommitted
from bot.core.i18n import lang_of, t
from bot.core.sessions import Session, SessionManager
from bot.core.shards import ShardLinks
from bot.core.stats import Stats
from bot.core.store import SeatTimer, Shards, Store
from bot.discord_app import discordhttp, lifecycle, reconnect
from bot.discord_app.delivery import Publisher
from bot.games import registry
from cogs.tree import TabletopTree

if TYPE_CHECKING:
    from bot.core.health import HealthServer  # imported when HEALTH_PORT is set: it brings aiohttp.web

log = logging.getLogger(__name__)

HEARTBEAT_KEY = "last_alive"
SHUTDOWN_GRACE = 6.0  # seconds given to posts in flight at SIGTERM; Docker kills after 10
# names discord.py gives the tasks that run slash commands and on_interaction listeners
INTERACTION_TASKS = ("CommandTree-invoker", "discord.py: on_interaction")
EVERYWHERE = ("mygames",)
"""Commands usable in DMs too: with ``GUILD_IDS`` set (guild-only sync) they are still synced
globally, since a DM has no guild."""


def heartbeat_key(shard: int | None = None, count: int | None = None) -> str:
    """The ``meta`` key of a heartbeat: ``last_alive`` unsharded, ``last_alive:<shard>/<count>`` per shard."""
    return HEARTBEAT_KEY if shard is None or count is None else f"{HEARTBEAT_KEY}:{shard}/{count}"


DUE_SLACK_S = 0.05
"""The timer wakes this long after a deadline, so the deadline is past when the tick reads the clock."""


def fresh_s(timer_interval: float) -> float:
    """How old a shard's heartbeat may be while its games' deadlines still fire (three ticks, at least 15 s)."""
    return max(3 * timer_interval, 15.0)


AWAY_MARK = " away"
"""Appended to a shard's heartbeat when its gateway drops: the other processes hold its games at once."""


def _seconds(raw: str | None) -> float | None:
    """A heartbeat's time (a shard's may carry :data:`AWAY_MARK`)."""
    if raw is not None and raw.endswith(AWAY_MARK):
        raw = raw[:-len(AWAY_MARK)]
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


async def live_shards(store: Store, count: int, now: float, timer_interval: float) -> Shards:
    """The shards of ``count`` whose heartbeat is fresh: their players can reach the bot, so the timer
    fires their games' deadlines; a stale shard's are held (its process extends them when back)."""
    beats = await store.meta_prefixed(HEARTBEAT_KEY + ":")
    live = []
    for shard in range(count):
        raw = beats.get(heartbeat_key(shard, count))
        last = _seconds(raw)
        if last is not None and now - last < fresh_s(timer_interval) and not (raw or "").endswith(AWAY_MARK):
            live.append(shard)
    return Shards(tuple(live), count)


Unit = int | None
"""What :class:`Downtime` tracks: one of this process's shards, or None for the whole unsharded bot."""


class Downtime:
    """Keeps turn deadlines from running while the bot is away: stopped, crashed, or cut off from
    Discord's gateway. Players cannot act then, so the time must not count against them.

    Invariant: every running deadline has been extended for all time away up to the ``last_alive``
    heartbeat in the ``meta`` table. The timer loop advances the heartbeat while connected; at
    start-up the deadlines are extended by the time since it, and every stretch without a gateway
    connection is added when the connection comes back.

    The start-up extension counts from the last heartbeat, although the bot may have lived up to
    one tick longer: over-extending by at most one tick is in the players' favour, while counting
    from one tick later could time out a player whose deadline fell in the missed stretch.

    With ``shards`` (``SHARD_COUNT`` set: several processes may share the store) the same holds per
    shard: each of this process's shards has its own heartbeat ``last_alive:<shard>/<count>``, written
    while that shard is connected, and only the games of a shard's guilds are extended for its time
    away; the timer fires a game's deadline only while its shard's heartbeat is fresh
    (:func:`live_shards`).
    """

    def __init__(self, store: Store, sessions: SessionManager, shards: Shards | None = None) -> None:
        self.store = store
        self.sessions = sessions
        self.shards = shards
        self.units: tuple[Unit, ...] = (None,) if shards is None else shards.ids
        self._away: dict[Unit, float] = {}  # since when each unit is away
        self._catching_up: dict[Unit, int] = {}  # extensions still waiting for game locks: deadlines stay on hold
        self._busy = asyncio.Lock()  # held while the database is being written
        self._beats = asyncio.Lock()  # orders heartbeats and away marks (sharded)
        self._marked: set[Unit] = set()  # shards whose heartbeat carries the away mark
        self.closed = False

    @property
    def away(self) -> bool:
        """Any of this process's shards away (or being caught up): this process does not tick."""
        return bool(self._away) or any(self._catching_up.values())

    @property
    def away_since(self) -> float | None:
        return min(self._away.values(), default=None)

    def _unit(self, shard: int | None) -> Unit:
        return None if self.shards is None else (shard or 0)

    async def _last_beats(self) -> dict[Unit, float | None]:
        if self.shards is None:
            return {None: _seconds(await self.store.get_meta(HEARTBEAT_KEY))}
        count = self.shards.total
        beats = {key: _seconds(raw) for key, raw in (await self.store.meta_prefixed(HEARTBEAT_KEY)).items()
                 if key == HEARTBEAT_KEY or key.startswith(HEARTBEAT_KEY + ":")}
        # a shard that never beat with this count (first sharded start, or SHARD_COUNT changed): the bot
        # was last alive at the newest heartbeat of the deployment before (unsharded or another count)
        before = max((last for key, last in beats.items() if last is not None and not key.endswith(f"/{count}")),
                     default=None)
        return {unit: beats.get(heartbeat_key(unit, count)) or before for unit in self.units}

    async def started(self, now: float) -> float:
        """At start-up, before the gateway is connected: extend by the time since the last
        heartbeat (per shard: its own), and count the bot as away until it connects. Returns the
        seconds added (the most, per shard)."""
        added = 0.0
        for unit, last in (await self._last_beats()).items():
            if last is not None:
                added = max(added, await self.extend(now - last, unit))
        self._away = dict.fromkeys(self.units, now)
        if self.shards is None:
            await self.heartbeat(now)
        else:  # kept up to now, and away until each shard connects (see mark_away)
            for unit in self.units:
                await self._beat(unit, now, away=True)
            self._marked = set(self.units)
        return added

    def disconnected(self, now: float, shard: int | None = None) -> None:
        unit = self._unit(shard)
        if unit in self.units and unit not in self._away:
            self._away[unit] = now

    async def mark_away(self, shard: int | None = None) -> None:
        """Sharded, after :meth:`disconnected`: mark the shard's heartbeat away (its time stays the moment
        the shard went), so that the timer of any process holds the shard's games now, not only once
        the heartbeat has grown stale. Unsharded nothing else fires deadlines: nothing to do."""
        unit = self._unit(shard)
        if self.shards is None or self.closed or unit in self._marked:
            return
        async with self._beats:
            since = self._away.get(unit)
            if since is not None and not self.closed:
                await self._beat(unit, since, away=True)
                self._marked.add(unit)

    async def connected(self, now: float, shard: int | None = None) -> float:
        """The gateway (this shard) is back: extend by the time it was gone. Returns the seconds added."""
        unit = self._unit(shard)
        since = self._away.get(unit)
        if since is None or self.closed:
            return 0.0
        away = now - since
        del self._away[unit]
        self._catching_up[unit] = self._catching_up.get(unit, 0) + 1
        try:
            async with self._busy:
                if self.closed:
                    return 0.0
                added = await self.extend(away, unit)
                if unit not in self._away:  # not cut off again meanwhile
                    await self.heartbeat(now, (unit,))
        finally:
            self._catching_up[unit] -= 1
        return added

    async def close(self, now: float | None = None) -> None:
        """No more writes: wait for one in flight (the store is closed next). Sharded, with ``now``
        (a clean stop): the connected shards' heartbeats are marked away first (see :meth:`mark_away`)."""
        if self.shards is not None and now is not None and not self.closed:
            try:
                async with self._beats:
                    for unit in self.units:
                        if unit not in self._away and not self._catching_up.get(unit):
                            await self._beat(unit, now, away=True)
            except Exception as exc:  # the heartbeats go stale by themselves
                log.warning("marking this process's shards away failed: %s", exc)
        self.closed = True
        async with self._busy:
            pass

    async def _beat(self, unit: Unit, at: float, *, away: bool = False) -> None:
        """Write a shard's heartbeat (sharded only): its time, with :data:`AWAY_MARK` when it is away."""
        assert self.shards is not None
        await self.store.set_meta(heartbeat_key(unit, self.shards.total), f"{at:.3f}{AWAY_MARK if away else ''}")

    async def heartbeat(self, now: float, units: tuple[Unit, ...] | None = None) -> None:
        """Mark the deadlines kept up to ``now``: for ``units``, or (sharded) every shard of this
        process that is connected and caught up (never one that is away meanwhile)."""
        if self.shards is None:
            await self.store.set_meta(HEARTBEAT_KEY, f"{now:.3f}")
            return
        async with self._beats:
            live = [u for u in (self.units if units is None else units) if u not in self._away
                    and (units is not None or not self._catching_up.get(u))]
            for unit in live:
                await self._beat(unit, now)
                self._marked.discard(unit)

    async def extend(self, seconds: float, unit: Unit = None) -> float:
        """Push every running deadline and reminder ``seconds`` later (sharded: of the games on shard
        ``unit`` only), in the store and in memory.

        Every such game's lock is held meanwhile, so no move can write back deadlines it computed
        from the unshifted values (locks are taken in id order; nothing else holds two)."""
        if seconds <= 0:
            return 0.0
        only = None if unit is None or self.shards is None else Shards((unit,), self.shards.total)
        sessions = sorted((s for s in self.sessions.sessions.values() if only is None or only.has(s.row.guild_id)),
                          key=lambda s: s.id)
        async with contextlib.AsyncExitStack() as stack:
            for session in sessions:
                await stack.enter_async_context(session.lock)
            shifted = await self.store.shift_deadlines(seconds, only)
            for session in sessions:
                session.deadlines = {seat: SeatTimer(due + seconds, None if remind is None else remind + seconds)
                                     for seat, (due, remind) in session.deadlines.items()}
        if shifted:
            if only is None:
                log.info("deadlines: %d extended by %.0f s the bot was away", shifted, seconds)
            else:
                log.info("deadlines: %d of shard %d/%d extended by %.0f s it was away", shifted, unit, only.total,
                         seconds)
        return seconds


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
    """The bot on one gateway connection; :class:`ShardedTabletopBot` (made by :func:`create_bot`
    when ``SHARD_COUNT`` is set) runs one or more shards in this process instead."""

    def __init__(self, config: Config, **shard_options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        # max_messages=None: no cache of received messages (nothing reads it; at discord.py's default of
        # 1000 it kept each post's content and components and filled for hours: the soak measured it)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), max_messages=None,
                         http_trace=discordhttp.trace_config(), tree_cls=TabletopTree, **shard_options)
        self.config = config
        self.store: Store
        self.sessions: SessionManager
        self.publisher: Publisher
        self.bots: BotDriver
        self.stats: Stats
        self._timer: asyncio.Task[None] | None = None
        self._timer_wake = asyncio.Event()  # a commit set a deadline sooner than the timer's wake-up
        self._wake_at = 0.0  # when the sleeping timer wakes, and the time of its last tick (:meth:`_timer_sleep`)
        self._ticked = 0.0
        self._notices: set[asyncio.Task[Any]] = set()
        self.ready_once = asyncio.Event()
        self.downtime: Downtime | None = None
        self.health: HealthServer | None = None
        self.web: Any = None  # issue 29: the games' web pages (bot.web.server.WebServer), when WEB_PORT is set
        self.links = ShardLinks(config.own_shards if config.sharded else (0,))
        if config.sharded:  # discord.py names the shard in these; "disconnect" etc. come without it
            self.add_listener(self._gateway_lost, "on_shard_disconnect")
            self.add_listener(self._gateway_back, "on_shard_connect")
            self.add_listener(self._gateway_back, "on_shard_resumed")
        else:
            self.add_listener(self._gateway_lost, "on_disconnect")
            self.add_listener(self._gateway_back, "on_connect")
            self.add_listener(self._gateway_back, "on_resumed")

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: the one holding shard 0 (every process
        has the same commands, so one PUT is enough; Discord rate-limits them), or an unsharded bot."""
        own = self.config.own_shards
        return own is None or 0 in own

    async def __aenter__(self) -> TabletopBot:
        await super().__aenter__()
        if self.config.health_port is not None:  # up before login, so liveness answers during a Discord outage
            from bot.core.health import HealthServer

            self.health = HealthServer(self.readiness, self.config.health_port)
            try:
                await self.health.start()
            except OSError as exc:
                self.health = None
                raise ConfigError(f"HEALTH_PORT {self.config.health_port}: cannot listen on 127.0.0.1 "
                                  f"({exc.strerror or exc}); pick a free port") from None
        return self

    async def readiness(self) -> tuple[bool, dict[str, Any]]:
        """``/readyz``: every shard of this process connected, and the store answering."""
        shards_ok = self.links.all_up and not self.is_closed()
        details: dict[str, Any] = {"shards": self.links.status()}
        store_ok = False
        if not hasattr(self, "store"):
            details["store"] = "not open yet"
        else:
            try:
                await self.store.get_meta(HEARTBEAT_KEY)
                store_ok = True
                details["store"] = "ok"
            except Exception as exc:
                details["store"] = f"error: {type(exc).__name__}"
        return shards_ok and store_ok, details

    async def setup_hook(self) -> None:
        if self.downtime is not None:  # a login retried after Discord failed mid-start: only sync is left
            if self.syncs_commands:
                await self.sync_commands()
            return
        started = time.perf_counter()
        self.store = await Store.open(self.config.database_url or self.config.database_path)
        self.sessions = SessionManager(self.store)
        self.publisher = Publisher(self, self.sessions, self.store)
        self.publisher.publish_interval = self.config.publish_interval
        self.publisher.panels.refresh_delay = self.config.panel_refresh_delay
        self.bots = BotDriver(self.sessions, publish=self.publisher.request, settled=self.publisher.settled)
        # after each committed change (bot/core/events.GameCommitted): the publisher announces it, unless a
        # bot turn is being played (the driver publishes the whole turn as one post); the driver looks for
        # bot seats to move and absent seats
        self.sessions.subscribe(self._publish_committed)
        self.sessions.subscribe(self._timer_news)
        self.sessions.subscribe(self.bots.committed)
        self.sessions.on_broken = self.announce_broken
        self.stats = Stats(self.store)
        await self.stats.setup()
        self.sessions.on_end = lambda session: self.stats.schedule(session.id)
        # once recorded (ratings known), each player is told the result, why and their rating change
        self.stats.on_recorded = lambda record: self.publisher.game_ended(record.game_id)
        self.publisher.ratings = self.stats.player_rows
        self.stats.schedule_catch_up()  # games that ended while the bot died before recording them
        await self.publisher.load()
        if self.config.web_port is not None:  # issue 29: after load(), so it also hears other processes' NOTIFY
            from bot.web import start_web  # noqa: PLC0415

            self.web = await start_web(self.config, self.sessions, self.store, self.publisher)
        stale = await self.sessions.restore()
        await self.tree.set_translator(CommandTranslator())
        game_cogs = [m.cog for m in registry.manifests() if m.cog]  # a game's own commands (/risk, /bam)
        for ext in ("cogs.game", "cogs.controls", *game_cogs, "cogs.lifecycle"):
            await self.load_extension(ext)
        await self.load_extension("cogs.stats")  # adds /game replay to the game group
        await self.load_extension("cogs.bots")  # after cogs.game: it adds /game reclaim to that group
        await self.load_extension("cogs.league")  # issue 28: /league, and the rounds that run themselves
        count, own = self.config.shard_count, self.config.own_shards
        self.downtime = Downtime(self.store, self.sessions, None if count is None or own is None else Shards(own, count))
        await self.downtime.started(time.time())
        log.info("restored %d unfinished games (%d to re-publish) in %.3f s", len(self.sessions.sessions),
                 len(stale), time.perf_counter() - started)
        self._stale = stale
        self._timer = asyncio.create_task(self._timer_loop())
        await asyncio.to_thread(drawing.warm)  # the render process starts beside the login, not at the first post
        if self.syncs_commands:
            await self.sync_commands()
        else:
            log.info("commands: not synced by this process (the one running shard 0 syncs them)")

    async def _gateway_lost(self, shard_id: int | None = None) -> None:
        """Any of this process's shards lost: the bot counts as away (see :class:`Downtime`)."""
        self.links.lost(shard_id or 0)
        if self.downtime is not None:
            self.downtime.disconnected(time.time(), shard_id)
            try:
                await self.downtime.mark_away(shard_id)
            except Exception as exc:  # the heartbeat goes stale by itself
                if not self.is_closed():
                    log.warning("marking shard %s away failed: %s", shard_id, exc)

    async def _gateway_back(self, shard_id: int | None = None) -> None:
        """A shard (re)connected: back only once every shard of this process is (with per-shard
        downtime, ``SHARD_COUNT`` set: that shard is back)."""
        all_up = self.links.back(shard_id or 0)
        if self.downtime is not None and (all_up or self.downtime.shards is not None):
            try:
                await self.downtime.connected(time.time(), shard_id)
            except Exception:
                if not self.is_closed():
                    raise

    def _publish_committed(self, event: GameCommitted) -> None:
        if not self.bots.holds(event.game_id):
            self.publisher.request(event.game_id)

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
                for name in EVERYWHERE:  # global (below), so they also work in DMs
                    self.tree.remove_command(name, guild=guild)
                await self.tree.sync(guild=guild)
            everywhere = [c for c in self.tree.get_commands() if c.name in EVERYWHERE]
            if everywhere and self.application_id is not None:
                translator = self.tree.translator
                payload = [await c.get_translated_payload(self.tree, translator) if translator else c.to_dict(self.tree)
                           for c in everywhere]
                await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
            log.info("commands synced to guilds %s", ",".join(map(str, self.config.guild_ids)))
        else:
            await self.tree.sync()
            log.info("commands synced globally (may take up to an hour to appear)")

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Drop events once the client is closed: discord.py's task that delays READY (waiting for
        guilds) may outlive ``close()``, which unsets ``loop``, and its dispatch then fails with a
        traceback at shutdown ("'_MissingSentinel' object has no attribute 'create_task'")."""
        if self.loop is discord.utils.MISSING:
            log.debug("event %s after the client closed: dropped", event_name)
            return
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A DEBUG line per interaction as it arrives (its id, kind and control or command, nothing a
        user typed), so a test that waited in vain can tell "never arrived" from "arrived, unanswered"."""
        data: dict[str, Any] = dict(interaction.data or {})
        what = data.get("custom_id") or data.get("name") or ""
        log.debug("interaction %s received: type %s %s", interaction.id, interaction.type.value, str(what)[:40])

    async def on_ready(self) -> None:
        log.info("ready as %s (%s)", self.user, self.user.id if self.user else "?")
        if not self.ready_once.is_set():
            self.ready_once.set()
            for game_id in getattr(self, "_stale", []):
                self.publisher.request(game_id)
            self.publisher.resume_housekeeping()  # DMs owed, old panels to strip (bot/discord_app/livepanels.py)
            self.bots.resume()  # a game whose next move is a bot's goes on by itself

    async def _timer_loop(self) -> None:
        """One durable loop for every deadline: the rows live in SQLite, so a restart re-arms them.
        Nothing is due while the gateway is away (players could not act); the heartbeat marks the
        time the deadlines have been kept up to (see :class:`Downtime`)."""
        downtime = self.downtime
        assert downtime is not None
        while not self.is_closed():
            try:
                now = time.time()
                if downtime.shards is not None:
                    await downtime.heartbeat(now)  # each shard of this process that is connected
                if not downtime.away:
                    if downtime.shards is None:
                        await downtime.heartbeat(now)
                    await self.tick(now)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    log.exception("timer tick failed")
                else:  # another writer held the database past the busy timeout (a backup, say): next tick
                    log.warning("timer tick skipped, the database is busy: %s", exc)
            except Exception:
                log.exception("timer tick failed")
            await self._timer_sleep(now, now + self.config.timer_interval)

    def _soonest_due(self, after: float) -> float | None:
        """The earliest deadline later than ``after`` of the games this process holds (from memory)."""
        return min((timer.due_at for session in self.sessions.sessions.values()
                    for timer in session.deadlines.values() if timer.due_at > after), default=None)

    async def _timer_sleep(self, ticked: float, next_tick: float) -> None:
        """Sleep until the next tick, or until a deadline sooner than that (a rules-imposed window of a
        few seconds, issue 27) is due. The games held are looked at once per sleep; after that a commit
        that sets a sooner deadline brings the wake-up forward (:meth:`_timer_news`). Deadlines the tick at
        ``ticked`` has seen (fired, or held by a pause) do not wake it again."""
        self._ticked = ticked
        soonest = self._soonest_due(ticked)
        self._wake_at = next_tick if soonest is None else min(next_tick, soonest + DUE_SLACK_S)
        while True:
            delay = self._wake_at - time.time()
            if delay <= 0:
                return
            self._timer_wake.clear()
            try:
                await asyncio.wait_for(self._timer_wake.wait(), delay)
            except TimeoutError:
                return

    def _timer_news(self, news: GameCommitted) -> None:
        """A commit: when it gave its game a deadline sooner than the timer's wake-up, wake earlier (only
        that game's deadlines are read, so a commit costs nothing in proportion to the games held)."""
        session = self.sessions.sessions.get(news.game_id)
        due = min((t.due_at for t in session.deadlines.values() if t.due_at > self._ticked),
                  default=None) if session is not None else None
        if due is not None and due + DUE_SLACK_S < self._wake_at:
            self._wake_at = due + DUE_SLACK_S
            self._timer_wake.set()

    async def tick(self, now: float) -> None:
        # reminders (half time, shortly before the end) and deadlines; a paused game's are held.
        # Several processes on one PostgreSQL: only the holder of the timer lease fires them (#14)
        # Sharded (SHARD_COUNT): only the games of shards whose heartbeat is fresh (see Downtime)
        cluster = getattr(self.publisher, "cluster", None)
        count = self.config.shard_count
        if cluster is not None and not await cluster.claim(TIMER_LEASE, timer_lease_s(self.config.timer_interval)):
            return
        shards = None if count is None else await live_shards(self.store, count, now, self.config.timer_interval)
        if cluster is not None:
            await refresh_due(self.sessions, now, shards)
        await lifecycle.tick(self.sessions, self.publisher, now, self.sessions.expire, shards)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        grace_ends = time.monotonic() + SHUTDOWN_GRACE
        # interactions being handled (a move being committed and answered) finish first: their
        # answers need the HTTP session, and their moves may add posts to publish
        handlers = [task for task in asyncio.all_tasks() if not task.done() and task is not asyncio.current_task()
                    and task.get_name().startswith(INTERACTION_TASKS)]
        if handlers:
            await asyncio.wait(handlers, timeout=SHUTDOWN_GRACE / 3)
        try:
            if hasattr(self, "publisher"):
                await asyncio.wait_for(self.publisher.idle(), timeout=max(0.1, grace_ends - time.monotonic()))
        except (TimeoutError, Exception):
            log.warning("shutdown: some posts were not finished; they are re-published at next start")
        if hasattr(self, "stats"):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stats.idle(), timeout=2.0)
        if hasattr(self, "publisher"):  # the owed DMs' retriers stop while their HTTP session and store are open
            await self.publisher.stop_owed(timeout=1.0)
        await super().close()
        if self.downtime is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.downtime.close(time.time()), timeout=1.0)
        if self.web is not None:  # issue 29: its event streams end before the store closes
            await self.web.close()
        if hasattr(self, "store"):
            await self.store.close()
        if self.health is not None:
            await self.health.close()


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The bot running the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (all of them without
    ``SHARD_IDS``; with ``SHARD_COUNT=auto`` the count Discord recommends) in this process.

    Each guild's events come on shard ``(guild_id >> 22) % SHARD_COUNT`` and DMs on shard 0 only;
    posts go out over REST, which works for any channel from any process."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # with SHARD_COUNT=auto the count is known from here on (asked before the first IDENTIFY)
        if self.links.expected is None and self.shard_count is not None:
            self.links.expect(self.shard_ids or range(self.shard_count))
        await super().before_identify_hook(shard_id, initial=initial)


def create_bot(config: Config) -> TabletopBot:
    """The bot for ``config``: unsharded exactly as before unless ``SHARD_COUNT`` is set."""
    reconnect.install()  # gateway reconnects at most 16 s apart (discord.py's own grow to 17 min)
    if not config.sharded:
        return TabletopBot(config)
    ids = list(config.shard_ids) if config.shard_ids is not None else None
    return ShardedTabletopBot(config, shard_count=config.shard_count, shard_ids=ids)
