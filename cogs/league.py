"""``/league ...``: leagues and tournaments (issue 28).

A moderator opens a league in a channel (``/league new``): a sign-up post with Join, Leave and Start
buttons (ids ``tlg:<j|l|s>:<league>``, routed by this cog's listener; the ``tt:`` router ignores them).
Start seeds the players by the server's rating and the rounds run themselves
(:mod:`bot.discord_app.leagues`). ``/league standings`` draws the standings, ``/league pairings``
lists the round's tables, ``/league leave`` concedes the remaining games, and ``/league admin``
drops, replaces, adjudicates, pauses, resumes or cancels.

A refusal is a :class:`~bot.core.sessions.SessionError` answered by the tree (cogs/tree.py).
"""

from __future__ import annotations

import contextlib
import io
import logging
import time

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import bots, parse
from bot.core.i18n import t
from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, TableResult, TableStatus, is_bot
from bot.core.leagues.scheduler import league_rounds
from bot.core.leagues.storage import LeagueRow, TeamFull
from bot.core.leagues.teams import TEAM_SIZES, team_counts
from bot.core.reminders import PRESETS
from bot.core.sessions import SessionError
from bot.discord_app.app import TabletopBot
from bot.discord_app.leagues import BOT_LEVEL, LeagueService, mention
from bot.games.registry import game_class
from cogs.common import control_data, control_failed, edit, in_time, lang, reply, user_info
from cogs.stats import game_choices

log = logging.getLogger(__name__)

PREFIX = "tlg"
ADMIN_ACTIONS = ("add_bot", "drop", "replace", "adjudicate", "pause", "resume", "cancel")
TEAM_NAME_MAX = 32


def signup_view(league_id: int, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t("league.button.join", language), style=discord.ButtonStyle.success,
                                    custom_id=f"{PREFIX}:j:{league_id}"))
    view.add_item(discord.ui.Button(label=t("league.button.leave", language), style=discord.ButtonStyle.secondary,
                                    custom_id=f"{PREFIX}:l:{league_id}"))
    view.add_item(discord.ui.Button(label=t("league.button.start", language), style=discord.ButtonStyle.primary,
                                    custom_id=f"{PREFIX}:s:{league_id}"))
    view.stop()
    return view


def is_moderator(interaction: discord.Interaction, league: LeagueRow) -> bool:
    if interaction.user.id == league.host_id:
        return True
    perms = interaction.permissions
    return bool(perms and (perms.manage_channels or perms.administrator))


class LeagueCog(commands.Cog):
    league = app_commands.Group(name="league", description=_("Leagues and tournaments: sign-up, rounds, standings",
                                                             key="cmd.league"), guild_only=True)

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.service = LeagueService(bot)

    async def cog_load(self) -> None:
        self.service.install()

    async def cog_unload(self) -> None:
        await self.service.close()

    # ---- helpers ------------------------------------------------------------------------------
    async def _channel_league(self, interaction: discord.Interaction, *, open_only: bool = True) -> LeagueRow:
        channel_id = interaction.channel_id or 0
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent_id:  # a table's thread: its league
            channel_id = channel.parent_id
        for league in await self.service.leagues.in_channel(channel_id):
            if not open_only or league.status in (LeagueStatus.SIGNUP, LeagueStatus.RUNNING, LeagueStatus.PAUSED):
                return league
        raise SessionError("league.none")

    def _moderator(self, interaction: discord.Interaction, league: LeagueRow) -> None:
        if not is_moderator(interaction, league):
            raise SessionError("league.err.moderator")

    async def _signup_text(self, league: LeagueRow) -> str:
        players = await self.service.leagues.players(league.id)
        head = t("league.signup", league.lang, game=t(f"{league.game}.name", league.lang),
                 format=t(f"league.format.{league.format.value}", league.lang),
                 pace=t(f"lifecycle.pace.{league.config.pace}", league.lang), host=f"<@{league.host_id}>")
        if league.config.teams:
            members = await self.service.leagues.members(league.id)
            lines = [t("league.team.line", league.lang, team=parse.escape(p.name),
                       members=", ".join(parse.escape(m.name) for m in members.get(p.user_id, [])) or "—")
                     for p in players]
            count = t("league.signup.teams", league.lang, n=len(players), size=league.config.team_size)
            return "\n".join([head, count, *lines])
        names = ", ".join(parse.escape(p.name) for p in players)
        return f"{head}\n{t('league.signup.count', league.lang, n=len(players))}" + (f": {names}" if names else "")

    # ---- /league new --------------------------------------------------------------------------
    @league.command(name="new", description=_("Open a league's sign-up in this channel (moderators)",
                                              key="cmd.league.new"))
    @app_commands.describe(
        game=_("Which game", key="cmd.league.new.game"),
        format=_("Swiss, round robin or single elimination", key="cmd.league.new.format"),
        rounds=_("Rounds (Swiss; default: enough for one winner)", key="cmd.league.new.rounds"),
        players_per_game=_("Players at each table (2; 3-5 for multi-player games)",
                           key="cmd.league.new.players_per_game"),
        pace=_("Pace of each game: live, casual or slow", key="cmd.league.new.pace"),
        round_hours=_("Hours a round may last before unfinished games are adjudicated (0: no limit)",
                      key="cmd.league.new.round_hours"),
        start_in_hours=_("Start by itself this many hours from now (0: with the Start button only)",
                         key="cmd.league.new.start_in_hours"),
        team_size=_("A league of teams of up to this many players (team games only; 0: players)",
                    key="cmd.league.new.team_size"))
    @app_commands.choices(game=game_choices(), format=[
        app_commands.Choice(name=_(t(f"league.format.{f.value}", "en"), key=f"league.format.{f.value}"), value=f.value)
        for f in Format], pace=[
        app_commands.Choice(name=_(t(f"lifecycle.pace.{k}", "en"), key=f"lifecycle.pace.{k}"), value=k)
        for k in PRESETS])
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                  format: app_commands.Choice[str], rounds: app_commands.Range[int, 0, 30] = 0,
                  players_per_game: app_commands.Range[int, 2, 5] = 2,
                  pace: app_commands.Choice[str] | None = None,
                  round_hours: app_commands.Range[int, 0, 24 * 28] = 0,
                  start_in_hours: app_commands.Range[int, 0, 24 * 28] = 0,
                  team_size: app_commands.Range[int, 0, 6] = 0) -> None:
        language = lang(interaction)
        perms = interaction.permissions
        if not (perms and (perms.manage_channels or perms.administrator)):
            raise SessionError("league.err.moderator")
        fmt = Format(format.value)
        if team_size:  # a league of teams: players_per_game counts the teams at a table
            if team_size not in TEAM_SIZES:
                raise SessionError("league.err.team_size", min=TEAM_SIZES[0], max=TEAM_SIZES[-1])
            counts = team_counts(game_class(game.value), team_size)
            if not counts:
                raise SessionError("league.err.no_teams", game=t(f"{game.value}.name", language))
            if players_per_game not in counts:
                raise SessionError("league.err.team_count", n=players_per_game,
                                   counts=", ".join(map(str, counts)))
        else:
            low, high = self.service.player_range(game.value)
            if not low <= players_per_game <= high:
                raise SessionError("league.err.table_size", game=game.value, min=low, max=high, n=players_per_game)
        channel_id = interaction.channel_id or 0
        for other in await self.service.leagues.in_channel(channel_id):
            if other.status in (LeagueStatus.SIGNUP, LeagueStatus.RUNNING, LeagueStatus.PAUSED):
                raise SessionError("league.busy", game=other.game, status=t(f"league.status.{other.status.value}",
                                                                            language))
        config = LeagueConfig(rounds=rounds, players_per_game=players_per_game,
                              pace=pace.value if pace else "casual", round_hours=float(round_hours),
                              start_at=time.time() + start_in_hours * 3600 if start_in_hours else None,
                              team_size=team_size)
        async with in_time(interaction, ephemeral=False):
            league = await self.service.leagues.create(guild_id=interaction.guild_id or 0, channel_id=channel_id,
                                                       game=game.value, fmt=fmt, host_id=interaction.user.id,
                                                       lang=language, config=config)
            sent = await reply(interaction, await self._signup_text(league), ephemeral=False,
                               view=signup_view(league.id, language), allowed_mentions=discord.AllowedMentions.none())
            message_id = sent.id if sent is not None else (await interaction.original_response()).id
            await self.service.leagues.set_message(league.id, "signup", message_id)

    # ---- sign-up ------------------------------------------------------------------------------
    async def _join(self, interaction: discord.Interaction, league: LeagueRow, team: str | None = None) -> str:
        me = user_info(interaction)
        if league.status is not LeagueStatus.SIGNUP:
            raise SessionError("league.closed")
        if league.config.teams:
            return await self._join_team(league, me.id, me.name, team, lang(interaction))
        if not await self.service.leagues.join(league.id, me.id, me.name, 0.0):
            raise SessionError("league.already")
        n = len(await self.service.leagues.players(league.id))
        return t("league.joined", lang(interaction), n=n)

    async def _join_team(self, league: LeagueRow, user_id: int, name: str, team: str | None, language: str) -> str:
        """Into the team named (made when there is none): a league of teams' sign-up."""
        wanted = " ".join((team or "").split())[:TEAM_NAME_MAX]
        if not wanted:
            raise SessionError("league.team.need_name")
        try:
            joined = await self.service.leagues.join_team(league.id, user_id, name, wanted, league.config.team_size)
        except TeamFull as exc:
            raise SessionError("league.team.full", team=str(exc), n=league.config.team_size) from exc
        if joined is None:
            raise SessionError("league.already")
        entry, made = joined
        return t("league.team.made" if made else "league.team.joined", language, team=parse.escape(entry.name))

    async def _start(self, interaction: discord.Interaction, league: LeagueRow) -> str:
        self._moderator(interaction, league)
        return await self.service.start(league)

    @league.command(name="join", description=_("Sign up for this channel's league", key="cmd.league.join"))
    @app_commands.describe(team=_("A league of teams: the team to join, made if there is none", key="cmd.league.join.team"))
    async def join(self, interaction: discord.Interaction, team: str | None = None) -> None:
        league = await self._channel_league(interaction)
        await reply(interaction, await self._join(interaction, league, team))
        await self._refresh_signup(league)

    @league.command(name="start", description=_("Close the sign-up and start round 1 (moderators)",
                                                key="cmd.league.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        league = await self._channel_league(interaction)
        async with in_time(interaction, ephemeral=False):
            await reply(interaction, await self._start(interaction, league), ephemeral=False)

    async def _refresh_signup(self, league: LeagueRow) -> None:
        if league.signup_message_id is None:
            return
        channel = self.bot.get_channel(league.channel_id)
        if isinstance(channel, discord.TextChannel):
            try:
                fresh = await self.service.leagues.league(league.id) or league
                view = signup_view(league.id, league.lang) if fresh.status is LeagueStatus.SIGNUP else None
                await channel.get_partial_message(league.signup_message_id).edit(
                    content=await self._signup_text(fresh), view=view, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.warning("league %s: the sign-up post could not be updated: %s", league.id, exc)

    # ---- leaving --------------------------------------------------------------------------------
    async def _leave(self, league: LeagueRow, user_id: int, how: str) -> None:
        """Out of the league: during sign-up simply gone; later, every unfinished game is conceded."""
        store = self.service.leagues
        if league.status is LeagueStatus.SIGNUP:
            if not await store.remove(league.id, user_id):
                raise SessionError("league.not_in")
            return
        member = await store.member(league.id, user_id) if league.config.teams else None
        if not await store.set_player_status(league.id, user_id, how):
            raise SessionError("league.not_in")
        entrant = user_id
        if member is not None and member.team is not None:  # a team: its member's seat in a running game is conceded;
            entrant = member.team  # the team concedes the rest once its last member is gone
            left = [m for m in (await store.members(league.id)).get(member.team, []) if m.active]
            if left:
                for table in await store.tables(league.id, league.round):
                    if member.team in table.seats and table.status is not TableStatus.DONE and table.game_id:
                        with contextlib.suppress(SessionError):
                            await self.bot.sessions.concede(table.game_id, user_id)
                self.service.wake(league.id)
                return
            await store.set_player_status(league.id, member.team, how)
        for table in await store.tables(league.id, league.round):
            if entrant not in table.seats or table.status is TableStatus.DONE:
                continue
            if entrant != user_id and table.game_id is not None:  # the team's last member concedes its game
                try:
                    await self.bot.sessions.concede(table.game_id, user_id)
                    continue
                except SessionError:
                    pass
            if table.game_id is not None:
                try:
                    await self.bot.sessions.concede(table.game_id, user_id)
                    continue  # the game goes on without them, or ends: its result counts
                except SessionError:
                    pass
            staying = [u for u in table.seats if u != entrant]
            await self.service.scheduler.record(league, table, TableResult(
                places={u: (1 if u in staying else len(staying) + 1) for u in table.seats}, how="forfeit"))
        self.service.wake(league.id)

    @league.command(name="leave", description=_("Leave this channel's league (your remaining games are conceded)",
                                                key="cmd.league.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        league = await self._channel_league(interaction)
        async with in_time(interaction):
            await self._leave(league, interaction.user.id, "left")
            key = "league.left_signup" if league.status is LeagueStatus.SIGNUP else "league.leave.done"
            await reply(interaction, t(key, lang(interaction)))
        await self._refresh_signup(league)

    # ---- standings and pairings -----------------------------------------------------------------
    @league.command(name="standings", description=_("The league's standings as an image", key="cmd.league.standings"))
    async def standings_command(self, interaction: discord.Interaction) -> None:
        league = await self._channel_league(interaction, open_only=False)
        async with in_time(interaction, ephemeral=False):
            if not await self.service.leagues.players(league.id):
                await reply(interaction, t("league.standings.empty", lang(interaction)), ephemeral=False)
                return
            png = await self.service.standings_png(league, lang(interaction))
            await reply(interaction, t("league.standings.title", lang(interaction),
                                       game=t(f"{league.game}.name", lang(interaction))), ephemeral=False,
                        file=discord.File(io.BytesIO(png), filename="standings.png"))

    @league.command(name="pairings", description=_("This round's tables", key="cmd.league.pairings"))
    async def pairings(self, interaction: discord.Interaction) -> None:
        league = await self._channel_league(interaction, open_only=False)
        language = lang(interaction)
        if league.round == 0:
            await reply(interaction, t("league.pairings.none", language))
            return
        players = await self.service.leagues.players(league.id)
        names = {p.user_id: parse.escape(p.name) for p in players}
        total = league_rounds(league, len(players))
        lines = [t("league.pairings.title", language, round=league.round, total=total)]
        for table in await self.service.leagues.tables(league.id, league.round):
            who = ", ".join(names.get(u, str(u)) for u in table.seats)
            state = t(f"league.table_status.{table.status.value}", language)
            if table.thread_id is not None:
                state += f" <#{table.thread_id}>"
            lines.append(t("league.pairings.line", language, table=table.number, players=who, state=state))
        await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    # ---- /league admin ----------------------------------------------------------------------------
    @league.command(name="admin", description=_("Moderate the league: drop, replace, adjudicate, pause",
                                                key="cmd.league.admin"))
    @app_commands.describe(action=_("What to do", key="cmd.league.admin.action"),
                           user=_("The player concerned", key="cmd.league.admin.user"),
                           other=_("Replace: the new player; adjudicate: the winner (empty: shared places)",
                                   key="cmd.league.admin.other"),
                           table=_("Adjudicate: the table number of this round", key="cmd.league.admin.table"))
    @app_commands.choices(action=[
        app_commands.Choice(name=_(t(f"league.admin.{a}", "en"), key=f"league.admin.{a}"), value=a)
        for a in ADMIN_ACTIONS])
    async def admin(self, interaction: discord.Interaction, action: app_commands.Choice[str],
                    user: discord.Member | None = None, other: discord.Member | None = None,
                    table: app_commands.Range[int, 1, 10_000] | None = None) -> None:
        league = await self._channel_league(interaction)
        self._moderator(interaction, league)
        language = lang(interaction)
        async with in_time(interaction, ephemeral=False):
            text = await self._admin(league, action.value, user, other, table, language)
            await reply(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())
        self.service.standings_changed(league)

    async def _admin(self, league: LeagueRow, action: str, user: discord.Member | None, other: discord.Member | None,
                     table_no: int | None, language: str) -> str:
        store = self.service.leagues
        status = t(f"league.status.{league.status.value}", language)
        if action == "pause":
            if not await store.set_status(league.id, LeagueStatus.PAUSED, was=[LeagueStatus.RUNNING]):
                raise SessionError("league.admin.not_now", status=status)
            return t("league.admin.paused", language)
        if action == "resume":
            if not await store.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.PAUSED]):
                raise SessionError("league.admin.not_now", status=status)
            self.service.wake(league.id)
            return t("league.admin.resumed", language)
        if action == "cancel":
            await store.set_status(league.id, LeagueStatus.CANCELLED,
                                   was=[LeagueStatus.SIGNUP, LeagueStatus.RUNNING, LeagueStatus.PAUSED])
            return t("league.admin.cancelled", language)
        if action == "add_bot":  # a bot entrant: its games are played by a bot (quick level)
            if league.status is not LeagueStatus.SIGNUP:
                raise SessionError("league.closed")
            players = await store.players(league.id)
            if league.config.teams:  # into the smallest team not full, else a team of its own
                members = await store.members(league.id)
                uid = -1 - sum(1 for rows in members.values() for m in rows if is_bot(m.user_id))
                name = f"{bots.bot_name(BOT_LEVEL, league.lang)} {-uid}"
                open_teams = sorted((len(members.get(p.user_id, [])), p.joined_at, p.name) for p in players
                                    if len(members.get(p.user_id, [])) < league.config.team_size)
                team = open_teams[0][2] if open_teams else t("league.team.bots", league.lang, n=len(players) + 1)
                text = await self._join_team(league, uid, name, team, language)
                await self._refresh_signup(league)
                return text
            uid = -1 - sum(1 for p in players if p.user_id < 0)
            await store.join(league.id, uid, f"{bots.bot_name(BOT_LEVEL, league.lang)} {-uid}", 0.0)
            await self._refresh_signup(league)
            return t("league.admin.bot_added", language, n=len(players) + 1)
        if action == "adjudicate":
            target = next((x for x in await store.tables(league.id, league.round)
                           if x.number == table_no and x.status is not TableStatus.DONE), None)
            if target is None:
                raise SessionError("league.admin.need_table")
            winner = other.id if other is not None and other.id in target.seats else None
            places = {u: (1 if winner is None or u == winner else 2) for u in target.seats}
            if target.game_id is not None:
                try:
                    await self.bot.sessions.abort(target.game_id)
                except SessionError:
                    pass
            await self.service.scheduler.record(league, target, TableResult(places=places, how="adjudicated"))
            self.service.wake(league.id)
            return t("league.admin.adjudicated_done", language, table=target.number)
        if user is None:
            raise SessionError("league.admin.need_user")
        if action == "drop":
            await self._leave(league, user.id, "dropped")
            return t("league.admin.dropped", language, player=mention(user.id, user.display_name))
        if other is None:
            raise SessionError("league.admin.need_user")
        if not await store.replace_player(league.id, user.id, other.id, other.display_name[:40]):
            raise SessionError("league.not_in")
        return t("league.admin.replaced", language, new=mention(other.id, other.display_name),
                 old=mention(user.id, user.display_name))

    # ---- the sign-up buttons ----------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(control_data(interaction).get("custom_id", ""))
        if not custom_id.startswith(PREFIX + ":"):
            return
        parts = custom_id.split(":")
        league_id = parse.id_field(parts[2]) if len(parts) == 3 else None
        try:
            if league_id is None or parts[1] not in ("j", "l", "s"):
                raise ValueError("malformed league id")
            league = await self.service.leagues.league(league_id)
            if league is None or league.channel_id != interaction.channel_id:
                raise SessionError("league.none")
            if parts[1] == "j" and league.config.teams:  # a team is joined by name: /league join team:
                raise SessionError("league.team.need_name")
            async with in_time(interaction, update=True):
                if parts[1] == "j":
                    text = await self._join(interaction, league)
                elif parts[1] == "l":
                    await self._leave(league, interaction.user.id, "left")
                    text = t("league.left_signup", lang(interaction))
                else:
                    text = await self._start(interaction, league)
                fresh = await self.service.leagues.league(league_id) or league
                view = signup_view(league.id, league.lang) if fresh.status is LeagueStatus.SIGNUP else None
                await edit(interaction, content=await self._signup_text(fresh), view=view,
                           allowed_mentions=discord.AllowedMentions.none())
                await reply(interaction, text, ephemeral=parts[1] != "s")
        except Exception as exc:
            await control_failed(interaction, exc, f"control {custom_id[:40]}", None, custom_id=custom_id)


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(LeagueCog(bot))
