"""Run a slash command's callback the way discord.py's command tree does, for tests that drive a cog
without Discord: what the callback raises is wrapped as discord.py wraps it and answered by the
bot's own tree (``cogs.tree.answer_error``), so a refusal reaches the stand-in interaction as it
reaches a player."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from discord import app_commands
from discord.ext import commands

from cogs.tree import answer_error


async def invoke(command: app_commands.Command[Any, ..., Any], *args: Any) -> None:
    """``command``'s callback with ``args`` (the cog first when it has one, then the interaction and
    the options); a failure is answered by the tree. The command's checks are not run."""
    interaction = args[1] if isinstance(args[0], commands.Cog) else args[0]
    try:
        await command.callback(*args)
    except app_commands.AppCommandError as error:
        await answer_error(interaction, error)
    except Exception as exc:
        await answer_error(interaction, app_commands.CommandInvokeError(command, exc))


class StandInInteraction:
    """Just what these commands read of an interaction before answering: the channel, the caller and
    the caller's locale (tests replace ``reply`` or let :func:`invoke` answer through the tree)."""

    def __init__(self, channel_id: int, user_id: int, locale: str) -> None:
        self.channel_id = channel_id
        self.user = SimpleNamespace(id=user_id)
        self.locale = SimpleNamespace(value=locale)
