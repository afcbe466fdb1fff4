"""A game that lasts a week (issue 12): ``/game pause|resume|follow|unfollow|remind|vote|deadline``
and ``/mygames`` (usable in DMs too), with the vote and reminder buttons.

The subcommands join the ``/game`` group of :mod:`cogs.game` when this extension loads (after it).
Buttons here carry ids of their own prefix ``tl:`` (``tl:v:<game>:<draw|end|no>`` a vote,
``tl:r:<on|off>`` reminders by DM), routed by this cog's listener; the ``tt:`` router ignores them.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import parse, reminders
from bot.core.i18n import t
from bot.core.sessions import Session, SessionError
from bot.discord_app import lifecycle, limits
from bot.discord_app.app import TabletopBot
from bot.discord_app.delivery import mentions
from cogs.common import (
    bot_of,
    channel_game,
    control_data,
    control_failed,
    edit,
    in_time,
    lang,
    moderator_only,
    reply,
)

log = logging.getLogger(__name__)

PREFIX = "tl"
MAX_LISTED = 25
VOTE_ANSWERS = ("draw", "end", "no")
"""The last field of a ``tl:v:`` id: agree to a draw or an end, or decline."""


def vote_view(game_id: int, kind: str, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=limits.button_label(t("lifecycle.vote.agree", language)),
                                    style=discord.ButtonStyle.success, custom_id=f"{PREFIX}:v:{game_id}:{kind}"))
    view.add_item(discord.ui.Button(label=limits.button_label(t("lifecycle.vote.decline", language)),
                                    style=discord.ButtonStyle.secondary, custom_id=f"{PREFIX}:v:{game_id}:no"))
    return view


def remind_view(on: bool, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    key = "lifecycle.remind_dm.turn_off" if on else "lifecycle.remind_dm.turn_on"
    view.add_item(discord.ui.Button(label=limits.button_label(t(key, language)), style=discord.ButtonStyle.secondary,
                                    custom_id=f"{PREFIX}:r:{'off' if on else 'on'}"))
    return view


async def _channel_session(interaction: discord.Interaction) -> Session:
    session = await channel_game(interaction)
    if session is None:
        raise SessionError("err.no_game_here")
    if session.broken is not None:
        raise SessionError("err.game_broken", id=session.id)
    return session


def vote_text(result: lifecycle.VoteResult, language: str) -> str:
    yes = " ".join(f"<@{u}>" for u in result.yes) or "—"
    return t(f"lifecycle.vote.open_{result.kind}", language, n=len(result.yes), total=len(result.needed), yes=yes)


# ---- /game subcommands --------------------------------------------------------------------------
@app_commands.command(name="pause", description=_("Stop the game's clock, e.g. for holidays (host or moderators)",
                                                  key="cmd.pause"))
@moderator_only()
async def pause(interaction: discord.Interaction) -> None:
    session = await _channel_session(interaction)
    bot = bot_of(interaction)
    await lifecycle.pause(bot.sessions, session.id, interaction.user.id, time.time())
    language = session.row.lang
    await reply(interaction, "✅ " + t("lifecycle.paused_ok", lang(interaction)))
    await bot.publisher.post(session.row.channel_id,
                             "⏸ " + t("lifecycle.notice.paused", language, who=f"<@{interaction.user.id}>"),
                             allowed_mentions=mentions([]))


@app_commands.command(name="resume", description=_("Start the game's clock again (host or moderators)",
                                                   key="cmd.resume"))
@moderator_only()
async def resume(interaction: discord.Interaction) -> None:
    session = await _channel_session(interaction)
    bot = bot_of(interaction)
    seconds = await lifecycle.resume(bot.sessions, session.id, time.time())
    language = session.row.lang
    dues = sorted(timer.due_at for timer in session.deadlines.values())
    text = "▶️ " + t("lifecycle.notice.resumed", language, who=f"<@{interaction.user.id}>",
                     time=duration_text(seconds, language))
    if dues:
        text += " " + t("status.deadline", language, ts=int(dues[0]))
    await reply(interaction, "✅ " + t("lifecycle.resumed_ok", lang(interaction)))
    await bot.publisher.post(session.row.channel_id, text, allowed_mentions=mentions([]))


def duration_text(seconds: float, language: str) -> str:
    """``3 h 5 min`` / ``45 s``, for the notice of a resumed clock."""
    s = int(round(seconds))
    if s < 60:
        return t("lifecycle.dur.seconds", language, n=s)
    hours, minutes = divmod(s // 60, 60)
    if hours >= 24:
        days, hours = divmod(hours, 24)
        return t("lifecycle.dur.days", language, d=days, h=hours)
    if hours:
        return t("lifecycle.dur.hours", language, h=hours, m=minutes)
    return t("lifecycle.dur.minutes", language, n=minutes)


@app_commands.command(name="follow", description=_("Get this game's public posts by DM after each turn",
                                                   key="cmd.follow"))
async def follow(interaction: discord.Interaction) -> None:
    session = await _channel_session(interaction)
    bot = bot_of(interaction)
    cap = bot.sessions.limits.followers_per_game
    if cap and interaction.user.id not in (following := await bot.store.followers(session.id)) \
            and len(following) >= cap:
        raise SessionError("lifecycle.follow.full", n=cap)  # issue 23: a cap per game
    await bot.store.set_following(session.id, interaction.user.id, True)
    await reply(interaction, "👁 " + t("lifecycle.follow.on", lang(interaction)))


@app_commands.command(name="unfollow", description=_("Stop getting this game's posts by DM", key="cmd.unfollow"))
async def unfollow(interaction: discord.Interaction) -> None:
    session = await _channel_session(interaction)
    await bot_of(interaction).store.set_following(session.id, interaction.user.id, False)
    await reply(interaction, "✅ " + t("lifecycle.follow.off", lang(interaction)))


@app_commands.command(name="remind", description=_("Reminders of your deadlines by DM too (on/off)",
                                                   key="cmd.remind"))
@app_commands.describe(mode=_("on or off", key="cmd.remind.mode"))
@app_commands.choices(mode=[app_commands.Choice(name=_("on", key="lifecycle.choice.on"), value="on"),
                            app_commands.Choice(name=_("off", key="lifecycle.choice.off"), value="off")])
async def remind(interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
    on = mode.value == "on"
    await bot_of(interaction).store.set_remind_dm(interaction.user.id, on)
    await reply(interaction, "🔔 " + t("lifecycle.remind_dm.now_on" if on else "lifecycle.remind_dm.now_off",
                                      lang(interaction)))


@app_commands.command(name="vote", description=_("Propose to end the game or call a draw (all players must agree)",
                                                 key="cmd.vote"))
@app_commands.describe(kind=_("draw, or end without a result", key="cmd.vote.kind"))
@app_commands.choices(kind=[app_commands.Choice(name=_("draw", key="lifecycle.choice.draw"), value="draw"),
                            app_commands.Choice(name=_("end without a result", key="lifecycle.choice.end"),
                                                value="end")])
async def vote(interaction: discord.Interaction, kind: app_commands.Choice[str]) -> None:
    session = await _channel_session(interaction)
    bot = bot_of(interaction)
    result = await lifecycle.vote(bot.sessions, session.id, interaction.user.id, kind.value, time.time())
    language = session.row.lang
    if result.passed:  # the game is over: the publisher's end post tells the channel why (game_ended), and only it
        await reply(interaction, "✅ " + t("lifecycle.vote.counted", lang(interaction)))
        return
    await reply(interaction, vote_text(result, language), view=vote_view(session.id, kind.value, language),
                ephemeral=False, allowed_mentions=mentions([]))


@app_commands.command(name="deadline", description=_("Set the time per move in the lobby: live, casual, slow or "
                                                     "e.g. 90m, 12h, 2d (host)", key="cmd.deadline"))
@app_commands.describe(value=_("live (2 min), casual (12 h), slow (48 h), or a duration such as 6h or 3d",
                               key="cmd.deadline.value"))
async def deadline(interaction: discord.Interaction, value: app_commands.Range[str, 1, 20]) -> None:
    from cogs.common import deadline_text, refresh_lobby

    session = await bot_of(interaction).sessions.channel_session(interaction.channel_id or 0)
    if session is None:
        raise SessionError("err.no_game_here")
    bot = bot_of(interaction)
    caps = bot.sessions.limits  # the floor and ceiling check_deadline applies (issue 23)
    seconds = reminders.parse_duration(value, caps.deadline_min_s, caps.deadline_max_s)
    if seconds is None:
        raise SessionError("lifecycle.err.bad_duration", value=value)
    await bot.sessions.set_option(session.id, interaction.user.id, "deadline_s", seconds)
    await reply(interaction, "✅ " + t("lifecycle.deadline_set", lang(interaction),
                                      value=deadline_text(seconds, lang(interaction))))
    await refresh_lobby(bot, session)


GAME_SUBCOMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (pause, resume, follow, unfollow, remind, vote, deadline)


# ---- /mygames -------------------------------------------------------------------------------------
def my_games_text(games: list[lifecycle.MyGame], user_id: int, language: str) -> str:
    if not games:
        return "ℹ️ " + t("lifecycle.mygames.none", language)
    lines = [t("lifecycle.mygames.title", language)]
    for g in games[:MAX_LISTED]:
        row = g.row
        name = t(f"{row.game}.name", language)
        link = lifecycle.channel_link(row)
        if row.status == "lobby":
            state = t("lifecycle.mygames.lobby", language)
        elif g.my_turn:
            state = "**" + t("lifecycle.mygames.your_turn", language) + "**"
        else:
            state = t("lifecycle.mygames.waiting", language, who=", ".join(g.names) or "—")
        clock = ""
        if g.paused:
            clock = " · " + t("lifecycle.status.paused", language)
        elif g.due is not None:
            clock = " · " + t("lifecycle.mygames.due", language, ts=int(g.due))
        mark = "▶️" if g.my_turn else "•"
        lines.append(f"{mark} **{name}** #{row.id} — {state}{clock}\n   {link}")
    if len(games) > MAX_LISTED:
        lines.append(t("games.more", language, n=len(games) - MAX_LISTED))
    return limits.shorten("\n".join(lines), limits.CONTENT - 100)


@app_commands.command(name="mygames", description=_("Your unfinished games in every server, yours to play first",
                                                    key="cmd.mygames"))
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=False)
async def mygames(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    language = lang(interaction)
    async with in_time(interaction):
        games = await lifecycle.my_games(bot.sessions, interaction.user.id)
        on = interaction.user.id in await bot.store.remind_dm([interaction.user.id])
        await reply(interaction, my_games_text(games, interaction.user.id, language), view=remind_view(on, language))


class LifecycleCog(commands.Cog):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.lifecycle loads after cogs.game (it adds to /game)")
        for command in GAME_SUBCOMMANDS:
            if group.get_command(command.name) is None:
                group.add_command(command)
        if self.bot.tree.get_command("mygames") is None:
            self.bot.tree.add_command(mygames)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(control_data(interaction).get("custom_id", ""))
        if not custom_id.startswith(PREFIX + ":"):
            return
        parts = custom_id.split(":")
        try:
            async with in_time(interaction, update=True):
                await self.route(interaction, parts)
        except Exception as exc:
            game_id = parse.id_field(parts[2]) if len(parts) > 2 else None
            await control_failed(interaction, exc, f"control {custom_id[:40]}", game_id, custom_id=custom_id)

    async def route(self, interaction: discord.Interaction, parts: list[str]) -> None:
        language = lang(interaction)
        if parts[1] == "r" and len(parts) == 3 and parts[2] in ("on", "off"):
            on = parts[2] == "on"
            await self.bot.store.set_remind_dm(interaction.user.id, on)
            text = "🔔 " + t("lifecycle.remind_dm.now_on" if on else "lifecycle.remind_dm.now_off", language)
            await edit(interaction, view=remind_view(on, language))
            await reply(interaction, text)
            return
        # the game id through bot.core.parse (issue 23): a 20-digit id passed isdigit() and overflowed SQLite
        game_id = parse.id_field(parts[2]) if parts[1] == "v" and len(parts) == 4 else None
        if game_id is None or parts[3] not in VOTE_ANSWERS:
            raise ValueError("malformed lifecycle id")
        kind = parts[3]
        now = time.time()
        if kind == "no":
            await lifecycle.decline_vote(self.bot.sessions, game_id, interaction.user.id, now)
            session = await self.bot.sessions.get(game_id)
            text = "✖ " + t("lifecycle.vote.declined", session.row.lang, who=f"<@{interaction.user.id}>")
            await edit(interaction, content=text, view=None, allowed_mentions=mentions([]))
            return
        result = await lifecycle.vote(self.bot.sessions, game_id, interaction.user.id, kind, now)
        row_lang = result.session.row.lang
        if result.passed:  # the vote's message keeps its count; the end post (game_ended) announces the end
            await edit(interaction, content=vote_text(result, row_lang), view=None, allowed_mentions=mentions([]))
        else:
            await edit(interaction, content=vote_text(result, row_lang), view=vote_view(game_id, kind, row_lang),
                       allowed_mentions=mentions([]))


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(LifecycleCog(bot))
