"""Leagues on Discord (issue 28): the scheduler's effects (table posts, threads, games), its loop, the
hook that hears of finished games, and the pinned standings post.

The rules of a league (pairing, standings, the round state machine) are in :mod:`bot.core.leagues`;
this module only does what they ask, idempotently by each table's key:

* **the table's post**: in the league's channel with a nonce made of the key (Discord gives back the
  same message for a repeated nonce), its id stored before the thread is made;
* **the thread**: made *from that post* (a message carries at most one thread, and the thread's id is
  the message's: Discord answers 160004 to a second attempt, and the message's id is the thread);
* **the game**: started in the thread only when the thread has no game (open or ended) yet.

**Finished games.** The one hook is :meth:`LeagueService.game_recorded`, called when the stats have
recorded a game (places and rating changes are known then); it wakes the league's scheduler. Until
the session layer announces commits as events, it is chained onto ``Stats.on_recorded`` in
:meth:`LeagueService.install`, the only place that knows the path. A periodic pass
(:data:`PASS_S`) catches anything a restart missed.

**Several processes.** A league's scheduling runs in the process holding the lease ``league:<id>``
(:mod:`bot.core.cluster`); on SQLite there is one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, cast

import aiohttp
import discord

from bot.core import bots, drawing, parse
from bot.core.i18n import t
from bot.core.leagues.model import LeagueStatus, Table, TableResult, is_bot
from bot.core.leagues.scheduler import MIN_PLAYERS, Scheduler, league_rounds, lease_name
from bot.core.leagues.seating import seed_for_order
from bot.core.leagues.standings import standings
from bot.core.leagues.storage import LeaguePlayer, LeagueRow, LeagueStore
from bot.core.leagues.teams import team_options, team_places
from bot.core.leagues.texts import standings_doc
from bot.core.reminders import PRESETS
from bot.core.sessions import SessionError, UserInfo
from bot.games.registry import game_class
from render.league import StandingsDoc, render_standings

if TYPE_CHECKING:
    from bot.discord_app.app import TabletopBot

log = logging.getLogger(__name__)

PASS_S = 20.0
"""Seconds at most between two passes over the running leagues (the timer's interval when shorter; a
finished game wakes its league at once)."""
THREAD_EXISTS = 160004
"""Discord's error code: a thread has already been created for this message."""
THREAD_ARCHIVE_MIN: Literal[10080] = 10080
BOT_LEVEL = "quick"
"""The level of a league's bot entrants (``/league admin action:add_bot``)."""
"""A table's thread stays open a week without messages (a slow game's turns may be days apart)."""


def mention(user_id: int, name: str) -> str:
    """A person mentioned; a bot entrant or a team by its name (a team's typed by a player: escaped)."""
    return f"<@{user_id}>" if user_id > 0 else parse.escape(name)


class DiscordEffects:
    """:class:`bot.core.leagues.scheduler.Effects` on Discord and the game sessions."""

    def __init__(self, bot: TabletopBot, leagues: LeagueStore, on_table: Callable[[LeagueRow], None]) -> None:
        self.bot = bot
        self.leagues = leagues
        self.on_table = on_table

    async def _names(self, league: LeagueRow) -> dict[int, LeaguePlayer]:
        """Entrants and, in a league of teams, the members too, by id."""
        out = {p.user_id: p for p in await self.leagues.players(league.id)}
        if league.config.teams:
            for members in (await self.leagues.members(league.id)).values():
                out.update((m.user_id, m) for m in members)
        return out

    async def _seated(self, league: LeagueRow, table: Table) -> list[tuple[int, int | None]]:
        """Who sits at the table's game: each user with their team's index at the table (None: no teams).
        A team plays with its members still in the league."""
        if not league.config.teams:
            return [(u, None) for u in table.seats]
        members = await self.leagues.members(league.id)
        return [(m.user_id, i) for i, team in enumerate(table.seats) for m in members.get(team, []) if m.active]

    async def entrants_text(self, league: LeagueRow, seats: list[int]) -> str:
        """The table's entrants as the channel shows them: players mentioned; teams by name, members mentioned."""
        names = await self._names(league)
        if not league.config.teams:
            return ", ".join(mention(u, names[u].name if u in names else str(u)) for u in seats)
        members = await self.leagues.members(league.id)
        parts = []
        for team in seats:
            who = ", ".join(mention(m.user_id, m.name) for m in members.get(team, []) if m.active)
            parts.append(t("league.team.line", league.lang, team=parse.escape(names[team].name if team in names else "?"),
                           members=who or "—"))
        return t("league.team.versus", league.lang).join(parts)

    async def post_table(self, league: LeagueRow, table: Table, key: str) -> int:
        players = await self.entrants_text(league, table.seats)
        text = t("league.table", league.lang, round=table.round, table=table.number, players=players)
        message = await self.bot.publisher.post(
            league.channel_id, text, key=(key,),
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False))
        if message is None:
            raise RuntimeError(f"{key}: the table's post was refused")
        return int(message.id)

    async def open_thread(self, league: LeagueRow, table: Table, key: str) -> int:
        assert table.message_id is not None
        channel = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(league.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"{key}: channel {league.channel_id} cannot hold threads")
        name = t("league.thread", league.lang, round=table.round, table=table.number,
                 game=t(f"{league.game}.name", league.lang))[:100]
        try:
            thread = await channel.create_thread(name=name, message=discord.Object(table.message_id),
                                                 auto_archive_duration=THREAD_ARCHIVE_MIN)
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:  # made before a restart: a message's thread has the message's id
                return table.message_id
            raise
        return int(thread.id)

    async def start_game(self, league: LeagueRow, table: Table, key: str) -> int:
        """The thread's game: the one already there (open or ended: a restart after it was made), else a
        new one; a lobby left by a restart is filled and started."""
        assert table.thread_id is not None
        sessions = self.bot.sessions
        session = sessions.by_channel(table.thread_id)
        if session is None:
            ended = await self.bot.store.last_ended_game(table.thread_id)
            if ended is not None:
                return ended
        names = await self._names(league)

        def info(user_id: int) -> UserInfo:
            player = names.get(user_id)
            return UserInfo(id=user_id, name=player.name if player else str(user_id), lang=league.lang)

        seated = await self._seated(league, table)
        options = dict(league.config.options)
        if league.config.teams:  # the game's lobby options that seat these teams (docs/leagues.md)
            found = team_options(game_class(league.game), options, len(table.seats), len(seated))
            if found is None:
                raise RuntimeError(f"{key}: {league.game} has no team game of {len(table.seats)} teams"
                                   f" and {len(seated)} players")
            options = found
        host = seated[0][0]  # a bot entrant may host: the league, not a person, opens the table
        if session is None:
            try:
                session = await sessions.create(guild_id=league.guild_id, channel_id=table.thread_id,
                                                host=info(host), game_key=league.game,
                                                options=options,
                                                deadline_s=PRESETS.get(league.config.pace, PRESETS["casual"]))
            except SessionError:
                session = sessions.by_channel(table.thread_id)
                if session is None:
                    raise
        if session.row.status != "lobby":
            return session.id
        for user, team in seated:  # a team's members pick their team's side; the game seats them by its rules
            entry = session.player(user)
            if entry is None or (team is not None and entry.team != team):
                await sessions.join(session.id, info(user), team=team)
        entrants = [u for u, _team in seated if is_bot(u)]
        if entrants:  # the league's bot entrants keep their ids in the game, so their places read back as is
            async with session.lock, sessions.changing(session):
                levels = bots.bot_levels(session.row.settings)
                for user in entrants:
                    levels[user] = BOT_LEVEL
                    entry = session.player(user)
                    if entry is not None:
                        entry.lang = None
                bots.set_bot_levels(session.row.settings, levels)
                await self.bot.store.update_lobby(session.row)
        absent = league.config.options.get("absent")
        if isinstance(absent, str):
            await bots.set_absent(sessions, session.id, host, mode=absent)
        seed = None
        if not league.config.teams and len(table.seats) == 2:  # the first seat as the colour rules chose
            seed = seed_for_order(game_class(league.game), [p.user for p in session.row.lobby], table.seats,
                                  session.row.options)
        await sessions.start(session.id, host, seed=seed)
        return session.id

    async def result(self, league: LeagueRow, table: Table) -> TableResult | None:
        if table.game_id is None:
            return None
        row = await self.bot.store.load_game(table.game_id)
        if row is None:
            return TableResult(places=dict.fromkeys(table.seats, 1), how="adjudicated")
        if row.status == "aborted":  # ended without a result (an abort, a vote to end): shared places
            return TableResult(places=dict.fromkeys(table.seats, 1), how="adjudicated")
        if row.status != "finished":
            return None
        places = await self.leagues.place_of(table.game_id)
        if places is None:
            return None  # the stats record it in a moment, and the hook wakes the league then
        if league.config.teams:
            members = await self.leagues.members(league.id)
            return TableResult(places=team_places(places, {team: [m.user_id for m in members.get(team, [])]
                                                           for team in table.seats}))
        return TableResult(places={u: places.get(u, len(table.seats)) for u in table.seats})

    async def adjudicate(self, league: LeagueRow, table: Table) -> TableResult:
        if table.game_id is not None:
            with contextlib.suppress(SessionError):
                await self.bot.sessions.abort(table.game_id)
        if table.thread_id is not None:
            await self.bot.publisher.post(table.thread_id, t("league.adjudicated", league.lang, round=table.round,
                                                            table=table.number), key=("league-adjudicated", table.key(league.id)))
        return TableResult(places=dict.fromkeys(table.seats, 1), how="adjudicated")

    async def changed(self, league: LeagueRow, what: str) -> None:
        if what == "round":
            fresh = await self.leagues.league(league.id) or league
            tables = await self.leagues.tables(league.id, fresh.round)
            players = await self.leagues.players(league.id)
            names = {p.user_id: p.name for p in players}
            total = league_rounds(league, len(players))
            lines = [t("league.round", league.lang, round=fresh.round, total=total, game=t(f"{league.game}.name",
                                                                                        league.lang),
                       tables=sum(1 for x in tables if not x.is_bye))]
            for table in tables:
                if table.is_bye:
                    lines.append(t("league.bye", league.lang, round=table.round,
                                   player=mention(table.seats[0], names.get(table.seats[0], ""))))
                elif table.result is not None:  # decided at the pairing: someone left, or bots only
                    key = "league.table.bots" if table.result.how == "bots" else "league.table.forfeit"
                    lines.append(t(key, league.lang, round=table.round, table=table.number,
                                   players=", ".join(parse.escape(names.get(u, str(u))) for u in table.seats)))
            await self.bot.publisher.post(league.channel_id, "\n".join(lines), key=("league-round", league.id, fresh.round),
                                          allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                                                   roles=False))
        elif what == "finished":
            players = await self.leagues.players(league.id)
            rows = standings(league.format, [p.user_id for p in players], await self.leagues.tables(league.id),
                             {p.user_id: p.rating for p in players}, [p.user_id for p in players if not p.active])
            names = {p.user_id: p.name for p in players}
            winner = mention(rows[0].user_id, names.get(rows[0].user_id, "")) if rows else "—"
            await self.bot.publisher.post(league.channel_id, t("league.finished", league.lang,
                                                               game=t(f"{league.game}.name", league.lang),
                                                               winner=winner), key=("league-end", league.id),
                                          allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                                                   roles=False))
        self.on_table(league)


class LeagueService:
    """The leagues of this process: the scheduler's loop, the finished-game hook, standings posts."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.leagues = LeagueStore(bot.store)
        self.effects = DiscordEffects(bot, self.leagues, self.standings_changed)
        self.scheduler = Scheduler(self.leagues, self.effects, player_range=self.player_range)
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._due: set[int] = set()
        self._posts: dict[int, asyncio.Task[None]] = {}

    @staticmethod
    def player_range(game: str) -> tuple[int, int]:
        return game_class(game).player_range(game_class(game).default_options())

    # ---- the hook: a game ended and its stats are recorded ------------------------------------
    def install(self) -> None:
        """Chain :meth:`game_recorded` onto the stats' record hook (the one place that knows it)."""
        before = self.bot.stats.on_recorded

        def recorded(record: Any) -> None:
            before(record)
            self.game_recorded(int(record.game_id))

        self.bot.stats.on_recorded = recorded
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="leagues")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def game_recorded(self, game_id: int) -> None:
        """A game has ended (recorded): wake its league, if it is a league's."""
        self._due.add(-game_id)  # looked up by the loop (a read of the store)
        self._wake.set()

    def wake(self, league_id: int) -> None:
        self._due.add(league_id)
        self._wake.set()

    # ---- the loop -----------------------------------------------------------------------------
    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        every = min(PASS_S, max(0.5, float(self.bot.config.timer_interval)))
        first = True  # a pass at once after a start: a league a restart interrupted goes on
        while True:
            if not first:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), every)
            first = False
            self._wake.clear()
            due, self._due = self._due, set()
            try:
                ids = {d for d in due if d > 0}
                for negative in (d for d in due if d < 0):
                    found = await self.leagues.table_of_game(-negative)
                    if found is not None:
                        ids.add(found[0])
                if not due:  # the periodic pass: leagues due to start, and every running league
                    await self.start_due(time.time())
                    ids = {lg.id for lg in await self.leagues.open_leagues() if lg.status is LeagueStatus.RUNNING}
                for league_id in sorted(ids):
                    await self.tick(league_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("leagues: a pass failed")

    async def tick(self, league_id: int) -> None:
        cluster = getattr(self.bot.publisher, "cluster", None)
        if cluster is not None and not await cluster.claim(lease_name(league_id)):
            return  # another process schedules this league
        try:
            await self.scheduler.tick(league_id)
        except (discord.HTTPException, aiohttp.ClientError) as exc:  # Discord refused or was not reached (a
            # missing permission, an outage, an answer lost on the way): no bug of ours
            log.warning("league %s: Discord refused a step (%s); tried again at the next pass", league_id, exc)
        except Exception:
            log.exception("league %s: a step failed; tried again at the next pass", league_id)

    # ---- starting -----------------------------------------------------------------------------
    async def start(self, league: LeagueRow) -> str:
        """Close the sign-up and start round 1 (Start, ``/league start``, or the start time); the
        announcement, in the league's language. Refused (SessionError) with too few players."""
        if league.status is not LeagueStatus.SIGNUP:
            raise SessionError("league.closed")
        players = await self.leagues.players(league.id)
        need = max(MIN_PLAYERS[league.format], league.config.players_per_game)
        if len(players) < need:
            key = "league.err.teams" if league.config.teams else "league.err.players"
            raise SessionError(key, format=t(f"league.format.{league.format.value}", league.lang),
                               min=need, n=len(players))
        if league.config.teams:  # every table seats its teams within one member of each other
            sizes = [len(m) for m in (await self.leagues.members(league.id)).values()]
            if max(sizes) - min(sizes) > 1:
                raise SessionError("league.err.team_sizes", low=min(sizes), high=max(sizes))
        await self.seed_ratings(league)
        if not await self.leagues.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.SIGNUP]):
            raise SessionError("league.closed")
        self.wake(league.id)
        return t("league.started.teams" if league.config.teams else "league.started", league.lang, n=len(players),
                 rounds=league_rounds(league, len(players)))

    async def start_due(self, now: float) -> None:
        """Leagues whose start time has come: started, or (too few players) told so and left open for Start."""
        for league in await self.leagues.open_leagues():
            start_at = league.config.start_at
            if league.status is not LeagueStatus.SIGNUP or start_at is None or start_at > now:
                continue
            try:
                text = await self.start(league)
            except SessionError as exc:
                text = t(exc.key, league.lang, **exc.params)
                league.config.start_at = None  # told once; a moderator starts it with Start
                await self.leagues.set_config(league.id, league.config)
            await self.bot.publisher.post(league.channel_id, text, key=("league-start", league.id, start_at))

    async def seed_ratings(self, league: LeagueRow) -> None:
        """Each player's rating on this server in this game (ordinal; a newcomer 0), fixed for the seeding."""
        ratings: dict[int, float] = {}
        for player in await self.leagues.players(league.id):
            ratings[player.user_id] = await self._rating(league, player.user_id) or 0.0
        if league.config.teams:  # a team is seeded by its members' mean rating (a newcomer counts 0)
            for team, members in (await self.leagues.members(league.id)).items():
                mine = {m.user_id: await self._rating(league, m.user_id) or 0.0 for m in members}
                ratings.update(mine)
                ratings[team] = sum(mine.values()) / len(mine) if mine else 0.0
        await self.leagues.set_ratings(league.id, ratings)

    async def _rating(self, league: LeagueRow, user_id: int) -> float | None:
        """The user's rating (ordinal) in the league's game on its server; None before their first rated game."""
        mine = await self.bot.stats.user_stats(league.guild_id, user_id, league.game)
        return float(mine[0].ordinal) if mine and mine[0].ordinal is not None else None

    async def rating_changes(self, league: LeagueRow, players: list[LeaguePlayer]) -> dict[int, float]:
        """Each entrant's rating now minus its seeding rating (a team: its members' means)."""
        out: dict[int, float] = {}
        members = await self.leagues.members(league.id) if league.config.teams else {}
        for player in players:
            if player.user_id in members:
                now = [await self._rating(league, m.user_id) for m in members[player.user_id]]
                if any(r is not None for r in now):
                    out[player.user_id] = sum(r or 0.0 for r in now) / len(now) - player.rating
                continue
            mine = await self._rating(league, player.user_id)
            if mine is not None:
                out[player.user_id] = mine - player.rating
        return out

    # ---- standings ----------------------------------------------------------------------------
    async def standings_png(self, league: LeagueRow, lang: str) -> bytes:
        players = await self.leagues.players(league.id)
        rows = standings(league.format, [p.user_id for p in players], await self.leagues.tables(league.id),
                         {p.user_id: p.rating for p in players}, [p.user_id for p in players if not p.active])
        members = await self.leagues.members(league.id) if league.config.teams else None
        doc = standings_doc(league, players, rows, await self.rating_changes(league, players), lang, members)
        return await drawing.draw(render_standings, cast(StandingsDoc, doc))

    def standings_changed(self, league: LeagueRow) -> None:
        """Refresh the pinned standings post (coalesced: one refresh at a time per league)."""
        running = self._posts.get(league.id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._refresh_pinned(league.id))
        self._posts[league.id] = task

    async def _refresh_pinned(self, league_id: int) -> None:
        try:
            league = await self.leagues.league(league_id)
            if league is None:
                return
            png = await self.standings_png(league, league.lang)
            title = t("league.standings.title", league.lang, game=t(f"{league.game}.name", league.lang))
            file = discord.File(io.BytesIO(png), filename="standings.png")
            channel = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(league.channel_id)
            if not isinstance(channel, discord.TextChannel):
                return
            if league.standings_message_id is not None:
                try:
                    message = channel.get_partial_message(league.standings_message_id)
                    await message.edit(content=title, attachments=[file])
                    return
                except discord.NotFound:
                    pass
            posted = await channel.send(title, file=file)
            await self.leagues.set_message(league.id, "standings", posted.id)
            with contextlib.suppress(discord.HTTPException):
                await posted.pin()
        except Exception:
            log.exception("league %s: the standings post failed", league_id)

    async def idle(self) -> None:
        """Wait for the standings posts under way (tests)."""
        pending = [task for task in self._posts.values() if not task.done()]
        if pending:
            await asyncio.wait(pending)

