"""The bot's command tree: it owns the answers to slash commands that fail.

A command refuses by raising :class:`~bot.core.sessions.SessionError` (or the rules'
:class:`~bot.games.base.IllegalAction`), in its body or in a check such as
:func:`cogs.common.moderator_only`; the tree answers every refusal the same way, privately and in
the caller's language. Anything unexpected gets a short apology and a log line with the game id,
instead of Discord's "The application did not respond". The component routers answer their
controls with :func:`cogs.common.control_failed`.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.i18n import t
from bot.core.sessions import SessionError
from bot.games.base import IllegalAction
from cogs.common import Refused, apologise, lang, refuse, reply

log = logging.getLogger(__name__)


async def answer_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The answer to a slash command that raised ``error`` (discord.py wraps what the body raised
    in :class:`~discord.app_commands.CommandInvokeError`; a refusing check raises :class:`Refused`)."""
    original: BaseException = error
    if isinstance(error, (app_commands.CommandInvokeError, Refused)):
        original = error.original
    try:
        if isinstance(original, (SessionError, IllegalAction)):
            await refuse(interaction, original)
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await reply(interaction, "⛔ " + t("err.guild_only", lang(interaction)))
            return
    except discord.HTTPException as exc:
        log.warning("answering a refusal failed: %s", exc)
        return
    name = interaction.command.qualified_name if interaction.command else "?"
    await apologise(interaction, f"/{name}", original)


class TabletopTree(app_commands.CommandTree[commands.Bot]):
    """The slash commands of :class:`bot.discord_app.app.TabletopBot`, answering their failures (:func:`answer_error`)."""

    async def on_error(self, interaction: discord.Interaction[commands.Bot],
                       error: app_commands.AppCommandError, /) -> None:
        await answer_error(interaction, error)
