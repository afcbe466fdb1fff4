"""Bot players, the Discord side: the lobby's bot panel, the takeover notice with its reclaim
button, and ``/game reclaim``. The rules of it all live in :mod:`bot.core.bots`.

The controls carry ``ttb:<kind>:<game>`` custom ids (see :func:`bot.core.bots.parse_id`); the ``tt:``
router in ``cogs/controls.py`` leaves them alone and this cog's listener answers them.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import bots, parse
from bot.core.i18n import t
from bot.core.sessions import Session, SessionError
from bot.discord_app.app import TabletopBot
from bot.discord_app.delivery import inert, mentions
from bot.games.ai import LEVELS
from cogs.common import control_data, control_failed, edit, in_time, lang, refresh_lobby, reply, select_values
from cogs.game import send_panel

log = logging.getLogger(__name__)


def bot_panel(session: Session, language: str) -> discord.ui.View:
    """The host's ephemeral lobby panel: add or remove a bot, and the absent-player rule."""
    row = session.row
    view = discord.ui.View(timeout=None)
    options = [discord.SelectOption(label=t(f"bots.add.{level}", language), value=f"add:{level}", emoji="🤖")
               for level in LEVELS]
    options += [discord.SelectOption(label=t("bots.remove", language, name=p.name)[:100], value=f"remove:{p.user}")
                for p in row.lobby if bots.is_bot(p.user)][:25 - len(options)]
    view.add_item(discord.ui.Select(custom_id=bots.control_id("a", row.id), placeholder=t("bots.panel.add", language),
                                    options=options, row=0))
    current = (bots.absent_mode(row.settings), bots.absent_after(row.settings))
    absent = [discord.SelectOption(label=t(f"bots.absent.{mode}", language, n=n)[:100], value=f"{mode}:{n}",
                                   default=(mode, n) == current)
              for mode in bots.ABSENT_MODES for n in bots.ABSENT_AFTER_CHOICES]
    view.add_item(discord.ui.Select(custom_id=bots.control_id("o", row.id), options=absent, row=1,
                                    placeholder=t("bots.absent.label", language)))
    return view


def panel_text(session: Session, language: str) -> str:
    names = [p.name for p in session.row.lobby if bots.is_bot(p.user)]
    return t("bots.panel.title", language, n=len(names), names=", ".join(names) or "—")


def reclaim_view(game_id: int, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t("bots.reclaim.button", language), style=discord.ButtonStyle.primary,
                                    custom_id=bots.control_id("r", game_id), emoji="🙋"))
    return view


class BotsCog(commands.Cog):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.bots.on_notice = self.announce
        self.bot.sessions.on_reclaim = self.reclaimed_by_move
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group) and group.get_command("reclaim") is None:
            group.add_command(app_commands.Command(
                name="reclaim", callback=reclaim_command,
                description=_("Take your seat back from the bot playing it", key="cmd.reclaim")))

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            group.remove_command("reclaim")

    # ---- notices -----------------------------------------------------------------------
    async def announce(self, session: Session, kind: str, seat: int) -> None:
        """Tell the channel that a bot took a seat over (with the reclaim button), or that it dropped."""
        row = session.row
        humans = [u for u in (row.seat_users or [])[seat] if not bots.is_bot(u)] if kind == "takeover" else []
        names = " ".join(f"<@{u}>" for u in humans) or (session.seat_name(seat) if seat >= 0 else "")
        text = t(f"bots.notice.{kind}", row.lang, name=names, n=bots.absent_after(row.settings))
        view = inert(reclaim_view(row.id, row.lang)) if kind == "takeover" else None
        await self.bot.publisher.post(row.channel_id, text, view=view, allowed_mentions=mentions(humans),
                                      key=("bots", kind, row.id, seat, row.seq))

    def reclaimed_by_move(self, session: Session, user_id: int, seats: list[int]) -> None:
        """A player's move took their seat back from the bot (issue 23): the channel hears it as it
        would of ``/game reclaim``; the move itself is posted as usual."""
        row = session.row
        self.bot.publisher._background(self.bot.publisher.post(
            row.channel_id, t("bots.notice.reclaim", row.lang, name=f"<@{user_id}>"),
            allowed_mentions=mentions([]), key=("bots", "reclaim", row.id, user_id, row.seq)))

    # ---- controls ----------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(control_data(interaction).get("custom_id", ""))
        parsed = bots.parse_id(custom_id)
        if parsed is None:
            return
        kind, game_id = parsed
        try:
            async with in_time(interaction, update=kind in ("a", "o")):
                await self.route(interaction, kind, game_id)
        except Exception as exc:
            await control_failed(interaction, exc, f"bot control {kind}", game_id, custom_id=custom_id)

    async def route(self, interaction: discord.Interaction, kind: str, game_id: int) -> None:
        manager = self.bot.sessions
        language = lang(interaction)
        if kind == "r":
            await self.do_reclaim(interaction, game_id)
            return
        session = await manager.get(game_id)
        if interaction.user.id != session.row.host_id:
            raise SessionError("err.host_only")
        if session.row.status != "lobby":
            raise SessionError("err.not_lobby")
        if kind == "l":
            await reply(interaction, panel_text(session, language), view=bot_panel(session, language))
            return
        values = select_values(interaction)
        if not values:
            raise ValueError("select without values")
        verb, _, arg = values[0].partition(":")
        # select values are client text: numbers through bot.core.parse (issue 23); a bot's id is negative
        bot_id = parse.small_int(arg, -parse.INT64_MAX, -1) if verb == "remove" else None
        after = parse.small_int(arg, 1, max(bots.ABSENT_AFTER_CHOICES)) if verb in bots.ABSENT_MODES else None
        if kind == "a" and verb == "add":
            session = await bots.add_bot(manager, game_id, interaction.user.id, arg)
        elif kind == "a" and verb == "remove" and bot_id is not None:
            session = await bots.remove_bot(manager, game_id, interaction.user.id, bot_id)
        elif kind == "o" and verb in bots.ABSENT_MODES and after is not None:
            session = await bots.set_absent(manager, game_id, interaction.user.id, mode=verb, after=after)
        else:
            raise ValueError(f"unknown bot panel value {values[0][:40]!r}")
        await edit(interaction, content=panel_text(session, language), view=bot_panel(session, language))
        await refresh_lobby(self.bot, session)

    async def do_reclaim(self, interaction: discord.Interaction, game_id: int) -> None:
        session, seats = await bots.reclaim(self.bot.sessions, game_id, interaction.user.id)
        row = session.row
        await self.bot.publisher.post(row.channel_id,
                                      t("bots.notice.reclaim", row.lang, name=f"<@{interaction.user.id}>"),
                                      allowed_mentions=mentions([]))
        if session.game is not None and any(s in session.game.actors() for s in seats):
            await send_panel(interaction, session)  # their move now: the panel in place of a "done"
        else:
            await reply(interaction, "✅ " + t("bots.reclaimed", lang(interaction)))
        self.bot.bots.poke(game_id)



async def reclaim_command(interaction: discord.Interaction) -> None:
    """``/game reclaim``: the caller takes back the seat a bot plays for them."""
    cog = interaction.client.get_cog("BotsCog")  # type: ignore[attr-defined]
    assert isinstance(cog, BotsCog)
    async with in_time(interaction):
        session = await cog.bot.sessions.channel_session(interaction.channel_id or 0)
        if session is None:
            await reply(interaction, "ℹ️ " + t("err.no_game_here", lang(interaction)))
            return
        await cog.do_reclaim(interaction, session.id)  # a refusal is answered by the command tree


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(BotsCog(bot))
