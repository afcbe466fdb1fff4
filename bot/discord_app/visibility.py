"""Who may see a game, and where its hidden parts may be posted (issue 23).

A game belongs to the channel or thread it was opened in. Whatever shows a game that is not the
caller's own channel's (``/game replay id:``, its ``ttr:`` page buttons, ``/games``) and whatever
reads a channel's game (``/game status``, ``/game log``) first asks :func:`may_see_game`:

- **A channel** is seen by whoever Discord gives View Channel there: ``channel.permissions_for``
  over the cached guild, its roles and the channel's overwrites (the caller is the interaction's
  :class:`discord.Member`, whose roles come with the interaction: no member intent is needed).
- **A thread** has its parent's permissions; a **private thread** is seen only by its members and by
  members with Manage Threads. Membership is asked of Discord (``GET thread-members/<user>``): without
  the privileged members intent the bot's cache knows only itself.
- **A channel that cannot be resolved** (deleted, or the bot lost sight of it) — neither in the cache
  nor fetched — is shown only to the game's own players (host, lobby, seats) and to moderators
  (Manage Server). Anything else that fails is a refusal: unknown means unseen.

A replay tells every hidden card, so it is posted publicly only where exactly the same people see it
(:func:`same_audience`): in the game's own channel; in a public thread of it, or the parent of a
public thread it was played in (a public thread is seen by whoever sees its parent); or between two
*open* channels, which every member of the server sees (@everyone may view, and no overwrite denies
View Channel to anyone). Anywhere else the replay is answered privately (ephemeral).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.core.store import GameRow

log = logging.getLogger(__name__)

Place = discord.abc.GuildChannel | discord.Thread
"""A game's channel as discord.py resolves it."""


async def resolve_channel(client: Any, channel_id: int) -> Place | None:
    """The channel or thread from the client's cache, else fetched; None when it cannot be had
    (deleted, hidden from the bot, Discord failing)."""
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.NotFound:
            return None
        except (discord.HTTPException, discord.ClientException) as exc:
            log.info("channel %s cannot be resolved: %s", channel_id, exc)
            return None
    return channel if isinstance(channel, (discord.abc.GuildChannel, discord.Thread)) else None


async def _parent(thread: discord.Thread) -> discord.abc.GuildChannel | None:
    """The thread's parent channel, from the cache or fetched (None when it cannot be had)."""
    parent = thread.parent
    if parent is not None:
        return parent
    try:
        fetched = await thread.guild.fetch_channel(thread.parent_id)
    except (discord.HTTPException, discord.ClientException) as exc:
        log.info("the parent of thread %s cannot be resolved: %s", thread.id, exc)
        return None
    return fetched if isinstance(fetched, discord.abc.GuildChannel) else None


async def is_thread_member(thread: discord.Thread, user_id: int) -> bool:
    """Whether ``user_id`` joined ``thread`` (asked of Discord when the cache does not know)."""
    if any(m.id == user_id for m in thread.members):
        return True
    try:
        await thread.fetch_member(user_id)
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:
        log.info("thread %s membership of %s cannot be told: %s", thread.id, user_id, exc)
        return False
    return True


async def can_view(who: discord.Member | discord.User, channel: Place) -> bool:
    """Whether ``who`` may view ``channel`` as Discord decides it. A :class:`discord.User` without
    guild membership (a DM interaction, a member who left) sees no guild channel."""
    if not isinstance(who, discord.Member) or who.guild.id != channel.guild.id:
        return False
    if isinstance(channel, discord.Thread):
        parent = await _parent(channel)
        if parent is None:
            return False
        perms = parent.permissions_for(who)
        if not perms.view_channel:
            return False
        if channel.is_private() and not perms.manage_threads:
            return await is_thread_member(channel, who.id)
        return True
    return bool(channel.permissions_for(who).view_channel)


def is_player(row: GameRow, user_id: int) -> bool:
    """The host, a lobby member or a seat of the game."""
    return (user_id == row.host_id or any(p.user == user_id for p in row.lobby)
            or any(user_id in users for users in row.seat_users or []))


def is_moderator(who: discord.Member | discord.User) -> bool:
    """Manage Server in the member's guild (the rule for a game whose channel is gone)."""
    return isinstance(who, discord.Member) and bool(who.guild_permissions.manage_guild)


async def may_see_game(client: Any, who: discord.Member | discord.User, row: GameRow, *,
                       channel: Place | None = None) -> bool:
    """Whether ``who`` may see anything of the game ``row`` (see the module's rules).
    ``channel``: its channel, when the caller resolved it already."""
    if row.guild_id is not None and (not isinstance(who, discord.Member) or who.guild.id != row.guild_id):
        return False
    place = channel if channel is not None else await resolve_channel(client, row.channel_id)
    if place is None or (row.guild_id is not None and place.guild.id != row.guild_id):
        return is_player(row, who.id) or is_moderator(who)
    return await can_view(who, place)


async def visible_rows(client: Any, who: discord.Member | discord.User, rows: Iterable[GameRow]) -> list[GameRow]:
    """The games of ``rows`` that ``who`` may see (each channel resolved and judged once)."""
    seen: dict[int, Place | None] = {}
    judged: dict[int, bool] = {}
    out: list[GameRow] = []
    for row in rows:
        if row.channel_id not in seen:
            seen[row.channel_id] = await resolve_channel(client, row.channel_id)
        place = seen[row.channel_id]
        if place is not None and row.channel_id in judged:
            ok = judged[row.channel_id]
        else:  # an unresolved channel depends on the game's players
            ok = await may_see_game(client, who, row, channel=place)
            if place is not None:
                judged[row.channel_id] = ok
        if ok:
            out.append(row)
    return out


# ---- where a replay may be posted ------------------------------------------------------------
def _audience_of(channel: Place) -> Place:
    """The channel whose permissions decide who sees ``channel``: a public thread's parent (when
    cached), else the channel itself (a private thread is its own audience)."""
    if isinstance(channel, discord.Thread) and not channel.is_private() and channel.parent is not None:
        return channel.parent
    return channel


def is_open(channel: Place) -> bool:
    """Every member of the server sees ``channel``: @everyone has View Channel and no overwrite
    denies it to anyone (a private thread is never open)."""
    if isinstance(channel, discord.Thread):
        return False
    if not channel.guild.default_role.permissions.view_channel:
        return False
    return all(overwrite.view_channel is not False for overwrite in channel.overwrites.values())


def same_audience(here: Place | None, there: Place | None) -> bool:
    """Whether exactly the people who see ``there`` (the game's channel) see ``here`` (where the
    command was used): see the module's rules. Unknown places have no known audience."""
    if here is None or there is None:
        return False
    if here.id == there.id:
        return True
    if here.guild.id != there.guild.id:
        return False
    a, b = _audience_of(here), _audience_of(there)
    return a.id == b.id or (is_open(a) and is_open(b))
