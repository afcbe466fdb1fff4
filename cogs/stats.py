"""``/stats``, ``/leaderboard`` and ``/game replay``: what the server's ended games add up to.

The numbers come from :mod:`bot.core.stats` (recorded when each game ends); tables with more rows than a
message reads well are drawn by :mod:`render.stats`. ``/game replay`` tells a finished game with its
hidden information (:func:`bot.core.replay.history`) in pages (``ttr:`` buttons, routed here) and posts
its animated board history (:mod:`render.replay`: a GIF, which Discord plays inline, opening on the
final position). Everything answers in the caller's language.

A finished game's log can hold tens of thousands of actions: reading it, replaying it, paging its
text and drawing its images all run in worker threads (``bot.core.replay.off_loop``), in time linear in
its length, so the event loop that serves every other server is never held up.
"""

from __future__ import annotations

import functools
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import parse
from bot.core.cooldown import Cooldown, wait_text
from bot.core.i18n import t
from bot.core.replay import History, history, history_text, off_loop, read_log, stored_options
from bot.core.stats import BoardRow, Stats, UserGameStats
from bot.core.store import GameRow
from bot.discord_app import limits, visibility
from bot.discord_app.app import TabletopBot
from bot.games.registry import GAMES, available
from cogs.common import apologise, defer, edit, in_time, lang, reply
from render.replay import MAX_FRAMES, Animation, animate
from render.stats import render_table

log = logging.getLogger(__name__)

ID_PREFIX = "ttr"
TEXT_ROWS = 8
"""Up to this many rows a table is a message; more are drawn as an image."""
BOARD_ROWS = 25
COOLDOWNS = {"replay": 20.0, "stats": 3.0, "leaderboard": 3.0}
PAGE_ROOM = limits.CONTENT - 200
"""Characters of log per replay page (the rest is the page's title)."""


def game_choices() -> list[app_commands.Choice[str]]:
    keys = available() or list(GAMES)
    return [app_commands.Choice(name=_(t(f"{k}.name", "en"), key=f"{k}.name"), value=k) for k in keys]


def duration(seconds: float | None, language: str) -> str:
    """A short, rounded duration: "42 s", "5 min", "3 h 20 min", "2 d 4 h"."""
    if seconds is None:
        return t("stats.dur.none", language)
    s = int(round(seconds))
    if s < 60:
        return t("stats.dur.s", language, n=s)
    if s < 3600:
        return t("stats.dur.m", language, n=round(s / 60))
    if s < 86400:
        return t("stats.dur.h", language, h=s // 3600, m=(s % 3600) // 60)
    return t("stats.dur.d", language, d=s // 86400, h=(s % 86400) // 3600)


def rating_text(ordinal: float | None, language: str) -> str:
    return t("stats.dur.none", language) if ordinal is None else f"{ordinal:.1f}"


def seat_names(row: GameRow) -> list[str]:
    """The seats' names as ``Session.seat_names`` gives them: escaped for a message (the replay's
    text); the animation's renderers undo that (``render.common.seat_label``)."""
    names = {p.user: p.name for p in row.lobby}
    return [" & ".join(parse.escape(names.get(u, str(u))) for u in users) or f"#{seat + 1}"
            for seat, users in enumerate(row.seat_users or [])]


def page_view(game_id: int, page: int, pages: int, language: str) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    if page > 0:
        view.add_item(discord.ui.Button(label=t("replay.prev", language, n=page), style=discord.ButtonStyle.secondary,
                                        custom_id=f"{ID_PREFIX}:{game_id}:{page - 1}:{language}"))
    if page < pages - 1:
        view.add_item(discord.ui.Button(label=t("replay.next", language, n=page + 2),
                                        style=discord.ButtonStyle.secondary,
                                        custom_id=f"{ID_PREFIX}:{game_id}:{page + 1}:{language}"))
    return view


def parse_page_id(custom_id: str) -> tuple[int, int, str] | None:
    parts = custom_id.split(":")
    if len(parts) != 4 or parts[0] != ID_PREFIX or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return int(parts[1]), int(parts[2]), parts[3] if parts[3] in ("ru", "en") else "en"


class StatsCog(commands.Cog):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.cooldown = Cooldown(COOLDOWNS)
        self._pages: limits.Lru[tuple[int, str], list[str]] = limits.Lru(16)
        self._animations: limits.Lru[tuple[int, str], Animation] = limits.Lru(4)

    @property
    def stats(self) -> Stats:
        return self.bot.stats

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group) and group.get_command("replay") is None:
            group.add_command(app_commands.Command(
                name="replay", callback=replay_command,
                description=_("Replay a finished game with all hidden information revealed", key="cmd.replay")))

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            group.remove_command("replay")

    async def _cooling(self, interaction: discord.Interaction, command: str, shown: str) -> bool:
        left = self.cooldown.use(command, interaction.user.id)
        if left <= 0:
            return False
        await reply(interaction, wait_text(left, shown, lang(interaction)))
        return True

    # ---- /stats -------------------------------------------------------------------------------
    @app_commands.command(name="stats", description=_("Games played, won, abandoned, time to move and ratings "
                                                      "on this server", key="cmd.stats"))
    @app_commands.describe(user=_("Whose statistics (default: yours)", key="cmd.stats.user"),
                           game=_("Only this game", key="cmd.stats.game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def stats_command(self, interaction: discord.Interaction, user: discord.User | None = None,
                            game: app_commands.Choice[str] | None = None) -> None:
        if await self._cooling(interaction, "stats", "/stats"):
            return
        async with in_time(interaction, ephemeral=False):
            await self.stats.idle()  # a game that has just ended is counted
            target = user or interaction.user
            await self.send_stats(interaction, interaction.guild_id or 0, target.id, target.display_name,
                                  game.value if game else None)

    async def send_stats(self, interaction: discord.Interaction, guild_id: int, user_id: int, name: str,
                         game: str | None) -> None:
        language = lang(interaction)
        rows = await self.stats.user_stats(guild_id, user_id, game)
        totals = await self.stats.totals(guild_id, game)
        lines: list[str] = []
        ranks = {r.game: await self.stats.rank_of(guild_id, r.game, user_id) for r in rows}
        file = None
        shown = parse.escape(name)  # a display name is user text (issue 23); the image draws it as typed
        if not rows:
            lines.append(t("stats.none", language, name=shown))
        elif len(rows) <= TEXT_ROWS:
            lines.append(t("stats.title", language, name=shown))
            for r in rows:
                lines.append("• " + self._row_text(r, ranks.get(r.game), language))
        else:
            file = await off_loop(self._user_image, rows, ranks, name, language)
            lines.append(t("stats.title", language, name=shown))
        lines.append("")
        lines.append(self._server_line(totals, language))
        lines.append("-# " + t("stats.note", language))
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if file is not None:
            kwargs["file"] = file
        await reply(interaction, limits.shorten("\n".join(lines), limits.CONTENT), ephemeral=False, **kwargs)

    @staticmethod
    def _row_text(r: UserGameStats, rank: int | None, language: str) -> str:
        return t("stats.row", language, game=t(f"{r.game}.name", language), played=r.played, won=r.won,
                 abandoned=r.abandoned, avg=duration(r.average_s, language), rating=rating_text(r.ordinal, language),
                 rank=t("stats.rank", language, n=rank) if rank else "")

    @staticmethod
    def _user_image(rows: list[UserGameStats], ranks: dict[str, int | None], name: str,
                    language: str) -> discord.File:
        headers = [t(f"stats.col.{c}", language) for c in ("game", "played", "won", "abandoned", "avg", "rating",
                                                            "rank")]
        cells = [[t(f"{r.game}.name", language), str(r.played), str(r.won), str(r.abandoned),
                  duration(r.average_s, language), rating_text(r.ordinal, language), str(ranks.get(r.game) or "—")]
                 for r in rows]
        png = render_table(t("stats.image_title", language, name=name), headers, cells,
                           numeric=[False, True, True, True, True, True, True], footer=t("stats.note", language))
        return discord.File(io.BytesIO(png), filename="stats.png")

    @staticmethod
    def _server_line(totals: list[Any], language: str) -> str:
        if not totals:
            return t("stats.server_none", language)
        by = {"finished": 0, "abandoned": 0, "aborted": 0}
        think = timed = 0.0
        for row in totals:
            by[row.result] = by.get(row.result, 0) + row.games
            think += row.think_s
            timed += row.timed_moves
        return t("stats.server", language, games=sum(by.values()), finished=by["finished"],
                 abandoned=by["abandoned"], aborted=by["aborted"],
                 avg=duration(think / timed if timed else None, language))

    # ---- /leaderboard -------------------------------------------------------------------------
    @app_commands.command(name="leaderboard", description=_("The ratings of one game on this server",
                                                            key="cmd.leaderboard"))
    @app_commands.describe(game=_("Which game", key="cmd.leaderboard.game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard_command(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        if await self._cooling(interaction, "leaderboard", "/leaderboard"):
            return
        async with in_time(interaction, ephemeral=False):
            await self.stats.idle()
            await self.send_leaderboard(interaction, interaction.guild_id or 0, game.value)

    async def send_leaderboard(self, interaction: discord.Interaction, guild_id: int, game: str) -> None:
        language = lang(interaction)
        name = t(f"{game}.name", language)
        rows = await self.stats.leaderboard(guild_id, game, BOARD_ROWS)
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if not rows:
            await reply(interaction, t("stats.board.empty", language, game=name), ephemeral=False, **kwargs)
            return
        me = interaction.user.id
        lines = [t("stats.board.title", language, game=name)]
        if len(rows) <= TEXT_ROWS:
            lines += [t("stats.board.line", language, rank=i + 1, name=parse.escape(self._name(r)),
                        rating=rating_text(r.ordinal, language), rated=r.rated, won=r.won) for i, r in enumerate(rows)]
        else:
            kwargs["file"] = await off_loop(self._board_image, rows, name, me, language)
        rank = await self.stats.rank_of(guild_id, game, me)
        mine = next((r for r in await self.stats.user_stats(guild_id, me, game)), None)
        if rank is not None and mine is not None:
            lines.append(t("stats.board.you", language, rank=rank, rating=rating_text(mine.ordinal, language)))
        lines.append("-# " + t("stats.note", language))
        await reply(interaction, limits.shorten("\n".join(lines), limits.CONTENT), ephemeral=False, **kwargs)

    @staticmethod
    def _name(row: BoardRow) -> str:
        return limits.shorten(row.name or str(row.user_id), 40)

    def _board_image(self, rows: list[BoardRow], game_name: str, me: int, language: str) -> discord.File:
        headers = [t(f"stats.col.{c}", language) for c in ("rank", "player", "rating", "rated", "won", "played")]
        cells = [[str(i + 1), self._name(r), rating_text(r.ordinal, language), str(r.rated), str(r.won), str(r.played)]
                 for i, r in enumerate(rows)]
        mine = next((i for i, r in enumerate(rows) if r.user_id == me), None)
        png = render_table(t("stats.board.image_title", language, game=game_name), headers, cells,
                           numeric=[True, False, True, True, True, True], highlight=mine,
                           footer=t("stats.note", language))
        return discord.File(io.BytesIO(png), filename="leaderboard.png")

    # ---- /game replay -------------------------------------------------------------------------
    async def do_replay(self, interaction: discord.Interaction, game_id: int | None) -> None:
        language = lang(interaction)
        found = (await self.stats.game_status(game_id) if game_id is not None
                 else await self.stats.last_game_in_channel(interaction.channel_id or 0))
        if found is None or (game_id is not None and found[2] != interaction.guild_id):
            key = "replay.none" if game_id is None else "replay.not_found"
            await reply(interaction, t(key, language, id=game_id))
            return
        gid, status, _guild = found
        row = await self.bot.store.load_game(gid)
        there = await visibility.resolve_channel(self.bot, row.channel_id) if row is not None else None
        if row is None or not await visibility.may_see_game(self.bot, interaction.user, row, channel=there):
            # issue 23: a game in a channel the caller cannot see does not exist for them
            await reply(interaction, t("visibility.no_such_game", language, id=gid))
            return
        if status in ("lobby", "running"):
            await reply(interaction, t("replay.running", language))
            return
        if status != "finished":
            await reply(interaction, t("replay.aborted", language, id=gid))
            return
        if await self._cooling(interaction, "replay", "/game replay"):
            return
        # public only where the game's own channel is seen by the same people; else only to the caller
        here = await visibility.resolve_channel(self.bot, interaction.channel_id or 0)
        private = not visibility.same_audience(here, there)
        await defer(interaction, ephemeral=private)
        if private:
            await reply(interaction, t("visibility.replay_private", language, id=gid))
        pages = await self._replay_pages(row, language)
        game_name = t(f"{row.game}.name", language)
        await reply(interaction, self._page(pages, 0, game_name, gid, language),
                    view=page_view(gid, 0, len(pages), language), ephemeral=private,
                    allowed_mentions=discord.AllowedMentions.none())
        try:
            animation = await self._animation(row, language)
        except Exception as exc:
            log.error("game %s: drawing the board history failed", gid, exc_info=exc)
            await reply(interaction, t("replay.anim_failed", language), ephemeral=private)
            return
        await reply(interaction, t("replay.anim", language, game=game_name, id=gid, n=animation.moments),
                    ephemeral=private, file=discord.File(io.BytesIO(animation.data), filename=animation.filename),
                    allowed_mentions=discord.AllowedMentions.none())

    @staticmethod
    def _page(pages: list[str], page: int, game_name: str, game_id: int, language: str) -> str:
        head = t("replay.title", language, game=game_name, id=game_id, page=page + 1, pages=len(pages))
        return limits.content(f"{head}\n{pages[page]}")

    async def _history(self, row: GameRow, language: str, frames: int) -> History:
        assert row.seed is not None
        actions = await read_log(self.bot.store, row.id)
        options = stored_options(row.game, row.options, row.settings.to_json())
        return await off_loop(functools.partial(
            history, row.game, row.seat_info or [], options, row.seed, actions, names=seat_names(row), lang=language,
            rng=row.settings.rng_version or 1, frames=frames))

    async def _replay_pages(self, row: GameRow, language: str) -> list[str]:
        cached = self._pages.get((row.id, language))
        if cached is not None:
            return cached
        story = await self._history(row, language, 0)
        pages = await off_loop(lambda: limits.split(history_text(story, language) or "—", PAGE_ROOM))
        self._pages[(row.id, language)] = pages
        return pages

    async def _animation(self, row: GameRow, language: str) -> Animation:
        cached = self._animations.get((row.id, language))
        if cached is not None:
            return cached
        story = await self._history(row, language, MAX_FRAMES)
        names = seat_names(row)
        total = len(story.steps)
        last = len(story.frames) - 1

        def caption(index: int, seq: int) -> str:  # the last also opens the GIF as its preview
            if not seq:
                return t("replay.caption_start", language)
            return t("replay.caption_end" if index == last else "replay.caption", language, n=seq, total=total)

        moments = [(caption(i, seq), {**view, "seat_names": names}) for i, (seq, view) in enumerate(story.frames)]
        animation = await off_loop(functools.partial(animate, row.game, moments, language, max_bytes=limits.ANIMATION))
        self._animations[(row.id, language)] = animation
        return animation

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        parsed = parse_page_id(str(data.get("custom_id", "")))
        if parsed is None:
            return
        game_id, page, language = parsed
        try:
            async with in_time(interaction, update=True):
                found = await self.stats.game_status(game_id)
                row = await self.bot.store.load_game(game_id) if found is not None else None
                if found is None or found[1] != "finished" or found[2] != interaction.guild_id or row is None \
                        or not await visibility.may_see_game(self.bot, interaction.user, row):
                    # issue 23: a page of a game whose channel the clicker cannot see is refused
                    await reply(interaction, t("visibility.no_such_game", lang(interaction), id=game_id))
                    return
                pages = await self._replay_pages(row, language)
                page = min(page, len(pages) - 1)
                await edit(interaction, content=self._page(pages, page, t(f"{row.game}.name", language), game_id,
                                                           language),
                           view=page_view(game_id, page, len(pages), language))
        except discord.HTTPException as exc:
            log.warning("replay page of game %s failed: %s", game_id, exc)
        except Exception as exc:
            await apologise(interaction, "replay page", exc, game_id)


@app_commands.describe(id=_("Game number (default: the last game of this channel)", key="cmd.replay.id"))
async def replay_command(interaction: discord.Interaction, id: int | None = None) -> None:  # noqa: A002
    """``/game replay [id]``: a finished game's whole log with its secrets, and its board history."""
    cog = interaction.client.get_cog("StatsCog")  # type: ignore[attr-defined]
    assert isinstance(cog, StatsCog)
    try:
        await cog.do_replay(interaction, id)
    except Exception as exc:
        await apologise(interaction, "/game replay", exc)


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(StatsCog(bot))
