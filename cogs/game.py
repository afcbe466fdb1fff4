"""``/game ...`` and ``/games``: lobby and game-independent commands."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.core import bots, takeback
from bot.core.cooldown import Cooldown, wait_text
from bot.core.i18n import t
from bot.core.reminders import PRESETS
from bot.core.replay import takeback_line
from bot.core.sessions import Session, SessionError
from bot.discord_app import boards, limits, visibility
from bot.discord_app.app import TabletopBot
from bot.discord_app.custom_ids import AbortId, AdminId, ConcedeId, DmRetryId
from bot.discord_app.delivery import mentions, render_board, result_line
from bot.discord_app.panels import admin_hash, build_panel, offer_undo, takeback_request_text, takeback_view
from bot.games.base import ADMIN
from bot.games.registry import GAMES, available, game_class
from cogs.common import (
    bot_of,
    channel_game,
    defer,
    lang,
    lobby_message,
    moderator_only,
    refresh_lobby,
    reply,
    status_text,
    user_info,
    watch,
)

log = logging.getLogger(__name__)

MAX_DEADLINE_HOURS = 24 * 14
MAX_OPTIONS_TEXT = 200
"""``/game new options:`` is a few ``name=value`` pairs; Discord refuses longer input itself."""
PUBLIC_ANSWERS = ("new", "board")
"""Commands whose answer is a public message (a deferral must be public too); ``/game board`` only
with ``post: True`` (see ``answers_publicly``)."""
RULES_MESSAGES = 3
WEB_LINKS = ("public", "private", "revoke")
"""``/game web link:`` (issue 29): the spectators' page, the caller's own seat, or revoking every link."""
COOLDOWNS = {"board": 5.0, "log": 3.0, "rules": 3.0}
"""Seconds between two uses by the same user: ``/game board post:True`` posts a picture publicly
(a private ``/game board`` has none: it is cheap, its PNGs are reused); ``log`` and
``rules`` answer privately but read the store or send several messages. ``status`` and ``hand`` are
private, cheap and needed to play, so they have none (see the README's commands section)."""


def answers_publicly(interaction: discord.Interaction, name: str) -> bool:
    """Whether the command's answer is a channel message: ``/game board`` privately unless ``post``."""
    if name == "board":
        return bool(getattr(interaction.namespace, "post", False))
    return name in PUBLIC_ANSWERS


def game_choices() -> list[app_commands.Choice[str]]:
    keys = available() or list(GAMES)
    return [app_commands.Choice(name=_(t(f"{k}.name", "en"), key=f"{k}.name"), value=k) for k in keys]


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description=_("Play tabletop games in this channel", key="cmd.game"),
                              guild_only=True)

    # A command refuses by raising SessionError (or IllegalAction): the bot's command tree answers it
    # privately in the caller's language, and apologises for anything unexpected (cogs/tree.py).
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.cooldown = Cooldown(COOLDOWNS)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every command of this cog is answered within Discord's three seconds (see ``watch``)."""
        if interaction.type is discord.InteractionType.application_command:
            name = interaction.command.name if interaction.command else ""
            watch(interaction, ephemeral=not answers_publicly(interaction, name))
        return True

    async def _cooling(self, interaction: discord.Interaction, command: str) -> bool:
        """Charge one use of ``command``; when the user is still cooling down, say privately how long
        is left and return True (the command then does nothing)."""
        left = self.cooldown.use(command, interaction.user.id)
        if left <= 0:
            return False
        await reply(interaction, wait_text(left, f"/game {command}", lang(interaction)), ephemeral=True)
        return True

    async def _session(self, interaction: discord.Interaction, *, broken_ok: bool = False) -> Session | None:
        """The channel's game (None, after answering, when there is none; refused when it cannot be
        loaded and the command needs it loaded)."""
        session = await channel_game(interaction)
        if session is None:
            await reply(interaction, "ℹ️ " + t("err.no_game_here", lang(interaction)))
        elif session.broken is not None and not broken_ok:
            raise SessionError("err.game_broken", id=session.id)
        return session

    async def _seen(self, interaction: discord.Interaction, session: Session) -> bool:
        """Whether the caller may view the game's channel (issue 23; else refused privately). Discord
        shows a channel's commands only to those who see it: this holds for a client whose view
        is stale (a member just removed from a private thread) and anything else that sends them."""
        if await visibility.may_see_game(self.bot, interaction.user, session.row):
            return True
        await reply(interaction, t("visibility.channel_hidden", lang(interaction)))
        return False

    # ---- /game new -------------------------------------------------------------------
    @game.command(name="new", description=_("Open a lobby for a new game in this channel", key="cmd.new"))
    @app_commands.describe(
        game=_("Which game", key="cmd.new.game"),
        options=_("Options, e.g. lines=2 layout=shuffled (also adjustable in the lobby)", key="cmd.new.options"),
        deadline_hours=_("Turn deadline in hours (0 = none)", key="cmd.new.deadline"),
        pace=_("Pace: live (2 min), casual (12 h), slow (48 h); else deadline_hours", key="cmd.new.pace"),
    )
    @app_commands.choices(game=game_choices(), pace=[
        app_commands.Choice(name=_(t(f"lifecycle.pace.{k}", "en"), key=f"lifecycle.pace.{k}"), value=k)
        for k in PRESETS])
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                  options: app_commands.Range[str, 1, MAX_OPTIONS_TEXT] | None = None,
                  deadline_hours: app_commands.Range[float, 0, MAX_DEADLINE_HOURS] = 0.0,
                  pace: app_commands.Choice[str] | None = None) -> None:
        if game.value not in available():
            raise SessionError("err.unknown_game", game=game.value)
        try:  # absent=bot|drop absent_after=N are the platform's (bot.core.bots), the rest the game's
            rest, absent = bots.split_options(options or "")
        except ValueError as bad:
            raise SessionError("err.bad_option", name=str(bad).partition("=")[0],
                               value=str(bad).partition("=")[2]) from bad
        parsed = self.bot.sessions.parse_options(game_class(game.value), rest)
        session = await self.bot.sessions.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, host=user_info(interaction),
            game_key=game.value, options=parsed,
            deadline_s=PRESETS[pace.value] if pace else deadline_hours * 3600,  # floored in one place
        )
        if absent:
            await bots.set_absent(self.bot.sessions, session.id, interaction.user.id, mode=absent.get("absent"),
                                  after=absent.get("absent_after"))
        embed, view = lobby_message(session)
        await reply(interaction, "", embed=embed, view=view, ephemeral=False)
        message = await interaction.original_response()
        await self.bot.store.set_message(session.id, "lobby", message.channel.id, message.id)
        log.info("game %s (%s) opened in channel %s", session.id, game.value, interaction.channel_id)

    @game.command(name="start", description=_("Start the game (host)", key="cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        session = await self._session(interaction)
        if session is None:
            return
        await self.bot.sessions.start(session.id, interaction.user.id)
        await reply(interaction, "✅ " + t("lobby.started", lang(interaction)))
        await refresh_lobby(self.bot, session)

    # ---- looking ---------------------------------------------------------------------
    @game.command(name="status", description=_("Whose turn, scores, deadline", key="cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        if self.bot.sessions.by_channel(interaction.channel_id or 0) is None:
            ended = await self.bot.store.last_ended_game(interaction.channel_id or 0)
            if ended is not None:  # right after the end: the last game's result, not "no game here"
                await self._ended_status(interaction, ended)
                return
        session = await self._session(interaction)
        if session is not None and await self._seen(interaction, session):
            await reply(interaction, status_text(session, lang(interaction)))

    async def _ended_status(self, interaction: discord.Interaction, game_id: int) -> None:
        """The channel's last ended game: its players, the result and why, and the replay (issue 25)."""
        language = lang(interaction)
        session = await self.bot.sessions.get(game_id)
        if not await self._seen(interaction, session):
            return
        lines = [t("end.status.last", language), status_text(session, language), "🏁 " + result_line(session, language)]
        if session.row.status == "finished":
            lines.append(t("end.replay_hint", language, id=session.id))
        await reply(interaction, limits.shorten("\n".join(lines), limits.CONTENT - 100),
                    allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="board", description=_("Show the board (only to you, unless post is True)",
                                              key="boards.cmd.board"))
    @app_commands.describe(zoom=_("A part of the board, large (readable on a phone)", key="boards.cmd.board.zoom"),
                           post=_("Post it in the channel (otherwise only you see it)", key="boards.cmd.board.post"))
    async def board(self, interaction: discord.Interaction,
                    zoom: app_commands.Range[str, 1, 100] | None = None, post: bool = False) -> None:
        """The board, or a zoom of it: privately in the caller's language, or (``post``) in the
        channel in the host's language, where the cooldown applies (see ``bot.discord_app.boards``)."""
        if post and await self._cooling(interaction, "board"):  # before the public deferral: a private refusal
            return
        if self.bot.sessions.by_channel(interaction.channel_id or 0) is not None:
            # loading a big game and drawing its board may take longer than Discord waits
            await defer(interaction, ephemeral=not post)
        session = await self._session(interaction)
        if session is None:
            return
        if session.game is None:
            await reply(interaction, "ℹ️ " + t("err.not_running", lang(interaction)))
            return
        language = session.row.lang if post else lang(interaction)
        if zoom is None:
            picture = await render_board(session, language)
        else:
            chosen = boards.resolve_zoom(session, language, zoom)
            seats = [] if post else session.seats_of(interaction.user.id)  # a private zoom marks the hand
            png = await boards.render_zoom(session, language, chosen, seats[0] if seats else None) \
                if chosen is not None else None
            if png is None:
                offered = ", ".join(label for _, label in boards.zoom_choices(session, lang(interaction)))
                key, extra = ("boards.zoom.none", {"choices": offered}) if offered else ("boards.zoom.nothing", {})
                await reply(interaction, "ℹ️ " + t(key, lang(interaction), **extra))
                return
            picture = boards.zoom_file(session, chosen or zoom, png)
        await reply(interaction, status_text(session, language), file=picture, ephemeral=not post,
                    allowed_mentions=discord.AllowedMentions.none())

    @board.autocomplete("zoom")
    async def board_zoom(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The zooms this channel's board offers now, in the caller's language."""
        session = self.bot.sessions.by_channel(interaction.channel_id or 0)
        if session is None or session.game is None:
            return []
        wanted = current.strip().casefold()
        return [app_commands.Choice(name=limits.shorten(label, 100), value=value)
                for value, label in boards.zoom_choices(session, lang(interaction))
                if not wanted or wanted in label.casefold() or wanted in value.casefold()][:25]

    @game.command(name="hand", description=_("Your private view and controls (only you see it)", key="cmd.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        if self.bot.sessions.by_channel(interaction.channel_id or 0) is not None:
            await defer(interaction)  # the game may have to be loaded first
        session = await self._session(interaction)
        if session is None:
            return
        await send_panel(interaction, session)

    @game.command(name="undo", description=_("Take back your last move (past a reveal, with the others' agreement)",
                                             key="cmd.undo"))
    async def undo(self, interaction: discord.Interaction) -> None:
        """Issue 27: the caller's last move taken back at once if nothing was revealed since, else a request
        to the other players (Accept / Decline in the channel)."""
        session = await self._session(interaction)
        if session is None:
            return
        language = lang(interaction)
        game = session.game
        seats = session.seats_of(interaction.user.id)
        if game is None or not seats:
            raise SessionError("err.spectator" if game is not None else "err.not_running")
        own = {s: await self.bot.store.last_seq_of_seat(session.id, s) for s in seats}
        seat = max(own, key=lambda s: own[s])  # the seat of the caller's latest move
        result = await self.bot.sessions.takeback(session.id, interaction.user.id, seat)
        if result.done:  # the fresh panel, in place of a DM (skip_user of the takeback's prompt)
            content, view = build_panel(result.session, seat, language,
                                        note=t("takeback.done", language, n=len(result.moves)))
            message = await reply(interaction, content, view=view)
            self.bot.publisher.panels.answered(interaction, result.session, seat,
                                               message.id if message is not None else None)
            return
        await post_takeback_request(self.bot, result.session)
        await reply(interaction, t("takeback.asked", language))

    @game.command(name="takebacks", description=_("Takebacks in this game: off, own turn only, or with agreement "
                                                  "(host only)", key="cmd.takebacks"))
    @app_commands.describe(mode=_("off, own or agree", key="cmd.takebacks.mode"),
                           limit=_("How many takeback requests each player may make", key="cmd.takebacks.limit"))
    @app_commands.choices(mode=[app_commands.Choice(name=_(t(f"takeback.mode.{m}", "en"), key=f"takeback.mode.{m}"),
                                                    value=m) for m in takeback.MODES])
    async def takebacks(self, interaction: discord.Interaction, mode: app_commands.Choice[str],
                        limit: app_commands.Range[int, 0, 20] | None = None) -> None:
        session = await self._session(interaction)
        if session is None:
            return
        language = lang(interaction)
        session = await self.bot.sessions.set_takebacks(session.id, interaction.user.id, mode.value, limit)
        settings = session.row.settings
        await reply(interaction, "↩ " + t("takeback.setting", language,
                                           mode=t(f"takeback.mode.{takeback.mode_of(settings.takeback)}", language),
                                           n=takeback.limit_of(settings.takeback_limit)))

    @game.command(name="log", description=_("The last moves (public information only)", key="cmd.log"))
    async def log_(self, interaction: discord.Interaction) -> None:
        if await self._cooling(interaction, "log"):
            return
        session = await self._session(interaction)
        if session is None or not await self._seen(interaction, session):
            return
        if session.game is None:
            await reply(interaction, "ℹ️ " + t("err.not_running", lang(interaction)))
            return
        language = lang(interaction)
        lines: list[str] = []
        seat_changes = bots.seat_log_lines(session, language)  # takeovers and reclaims, at their seq
        for record in await self.bot.store.actions(session.id, 0, limit=40):
            while seat_changes and seat_changes[0][0] < record.seq:
                lines.append(f"`{seat_changes[0][0]:>3}` {seat_changes.pop(0)[1]}")
            if takeback.is_takeback(record.seat, record.action):  # issue 27: who took back which moves
                lines.append(f"`{record.seq:>3}` {takeback_line(record.action, session.seat_names(), language)}")
                continue
            by = bots.played_by(session, record.user_id, language)  # a bot's move names the bot
            for event in record.events:
                if "to" in event or str(event.get("type", "")).startswith("platform."):
                    continue
                text = session.game.event_text(event, language)
                if text:
                    lines.append(f"`{record.seq:>3}` {text}{by}")
        lines += [f"`{seq:>3}` {text}" for seq, text in seat_changes]
        body = limits.tail_lines(lines[-25:], limits.CONTENT - 100) or t("log.empty", language)
        await reply(interaction, body)

    @game.command(name="rules", description=_("A summary of a game's rules", key="cmd.rules"))
    @app_commands.describe(game=_("Which game (default: the one in this channel)", key="cmd.rules.game"))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        if await self._cooling(interaction, "rules"):
            return
        language = lang(interaction)
        key = game.value if game else None
        if key is None:
            session = self.bot.sessions.by_channel(interaction.channel_id or 0)
            key = session.row.game if session else None
        if key is None:
            await reply(interaction, "ℹ️ " + t("err.rules_which", language))
            return
        chunks = limits.split(f"**{t(f'{key}.name', language)}**\n{t(f'{key}.rules', language)}")
        for chunk in chunks[:RULES_MESSAGES]:
            await reply(interaction, chunk)

    # ---- leaving and ending ----------------------------------------------------------
    @game.command(name="leave", description=_("Leave the lobby, or concede the game", key="cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        session = await self._session(interaction)
        if session is None:
            return
        language = lang(interaction)
        if session.row.status == "lobby":
            await self.bot.sessions.leave_lobby(session.id, interaction.user.id)
            await reply(interaction, "👋 " + t("lobby.left", language))
            await refresh_lobby(self.bot, session)
            return
        if not session.seats_of(interaction.user.id):
            raise SessionError("err.spectator")
        await reply(interaction, t("confirm.concede_q", language),
                    view=danger_button(t("confirm.concede", language), ConcedeId(session.id).build()))

    @game.command(name="abort", description=_("End the game without a result (host or moderators)", key="cmd.abort"))
    @moderator_only(broken_ok=True)  # a broken game can be ended
    async def abort(self, interaction: discord.Interaction) -> None:
        session = await self._session(interaction, broken_ok=True)
        if session is None:
            return
        # a player of a rated game past its first round needs everyone's agreement (issue 23)
        self.bot.sessions.check_abort(session, interaction.user.id)
        language = lang(interaction)
        await reply(interaction, t("confirm.abort_q", language, game=t(f"{session.row.game}.name", language)),
                    view=danger_button(t("confirm.abort", language), AbortId(session.id).build()))

    @game.command(name="admin", description=_("Moderator actions of this game (host or moderators)",
                                              key="cmd.admin"))
    @moderator_only()
    async def admin(self, interaction: discord.Interaction) -> None:
        session = await self._session(interaction)
        if session is None:
            return
        language = lang(interaction)
        if session.game is None or session.row.status != "running":
            raise SessionError("err.not_running")
        actions = session.game.admin_actions()
        if not actions:
            await reply(interaction, "ℹ️ " + t("admin.none", language))
            return
        view = discord.ui.View(timeout=None)
        for n, action in enumerate(actions[:20]):
            label = limits.button_label(" · ".join(session.game.action_path(ADMIN, action, language)))
            view.add_item(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, row=n // 5,
                                            custom_id=AdminId(session.id, admin_hash(action, session.id)).build()))
        await reply(interaction, t("admin.title", language), view=view)

    # ---- /game web (issue 29: the games' web pages, bot/web) ----------------------------
    @game.command(name="web", description=_("A web page to follow this game (the link is shown only to you)",
                                            key="web.cmd.web"))
    @app_commands.describe(link=_("public: for spectators; private: your own view as a player; revoke: end every "
                                  "link (host)", key="web.cmd.web.link"),
                           id=_("A finished game's number (default: this channel's game)", key="web.cmd.web.id"))
    @app_commands.choices(link=[app_commands.Choice(name=_(t(f"web.cmd.link.{k}", "en"), key=f"web.cmd.link.{k}"),
                                                    value=k) for k in WEB_LINKS])
    async def web(self, interaction: discord.Interaction, link: app_commands.Choice[str] | None = None,
                  id: app_commands.Range[int, 1, 2**53] | None = None) -> None:  # noqa: A002 (as /game replay)
        """A signed link to the game's page, answered privately: ``public`` (whoever may see the game's
        channel), ``private`` (the caller's own seat), ``revoke`` (the host or a moderator ends every link)."""
        language = lang(interaction)
        server = getattr(self.bot, "web", None)
        if server is None:
            await reply(interaction, t("web.link.off", language))
            return
        channel = interaction.channel_id or 0
        game_id = id
        if game_id is None:
            session = self.bot.sessions.by_channel(channel)
            game_id = session.id if session is not None else await self.bot.store.last_ended_game(channel)
        row = await self.bot.store.load_game(game_id) if game_id is not None else None
        if row is None or row.guild_id != interaction.guild_id:
            raise SessionError("err.no_game_here" if id is None else "err.no_game")
        if not await visibility.may_see_game(self.bot, interaction.user, row):  # issue 23: no existence oracle
            await reply(interaction, t("visibility.no_such_game", language, id=row.id))
            return
        kind = link.value if link is not None else "public"
        if kind == "revoke":
            perms = interaction.permissions
            moderator = bool(perms and (perms.manage_channels or perms.administrator)) and row.channel_id == channel
            if interaction.user.id != row.host_id and not moderator:
                await reply(interaction, t("web.link.host_only", language))
                return
            await server.revoke(row.id)
            await reply(interaction, t("web.link.revoked", language, id=row.id))
            return
        if kind == "private":
            if row.status in ("finished", "aborted"):
                await reply(interaction, t("web.link.private_finished", language))
                return
            seats = [s for s, users in enumerate(row.seat_users or []) if interaction.user.id in users]
            if not seats:
                raise SessionError("err.spectator")
            url, until = await server.link(row.id, seat=seats[0], user_id=interaction.user.id)
        else:
            url, until = await server.link(row.id)
        await reply(interaction, t(f"web.link.{kind}", language, id=row.id, ts=until, url=url),
                    allowed_mentions=discord.AllowedMentions.none())

    # ---- /games ----------------------------------------------------------------------
    @app_commands.command(name="games", description=_("Unfinished games in this server", key="cmd.games"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        language = lang(interaction)
        # issue 23: only the games of channels the caller can view
        rows = await visibility.visible_rows(self.bot, interaction.user,
                                             await self.bot.store.games_in_guild(interaction.guild_id or 0))
        broken = await self.bot.store.broken_games()
        if not rows:
            await reply(interaction, "ℹ️ " + t("games.none", language))
            return
        lines = []
        for row in rows[:30]:
            link = f"<#{row.channel_id}>"
            stored = await self.bot.store.get_message(row.id, "turn") or await self.bot.store.get_message(row.id,
                                                                                                          "lobby")
            if stored:
                link += f" — https://discord.com/channels/{row.guild_id}/{stored.channel_id}/{stored.message_id}"
            status = t("games.broken", language) if row.id in broken else t("lobby.status_" + row.status, language)
            lines.append(f"• **{t(f'{row.game}.name', language)}** #{row.id} "
                         f"({status}, {len(row.lobby)}) {link}")
        if len(rows) > 30:
            lines.append(t("games.more", language, n=len(rows) - 30))
        await reply(interaction, limits.shorten("\n".join(lines), limits.CONTENT))


def danger_button(label: str, custom_id: str) -> discord.ui.View:
    """A one-button confirmation (the button is routed by its custom id in cogs/controls.py)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=limits.button_label(label), style=discord.ButtonStyle.danger,
                                    custom_id=custom_id))
    return view


async def send_panel(interaction: discord.Interaction, session: Session) -> None:
    """The ephemeral panel: the same controls as the DM (the fallback for closed DMs). Refused
    (SessionError) when the game is not running or the caller does not play in it."""
    language = lang(interaction)
    if session.game is None or session.row.status != "running":
        raise SessionError("err.not_running")
    seats = session.seats_of(interaction.user.id)
    if not seats:
        raise SessionError("err.spectator")
    seat = next((s for s in seats if s in session.game.actors()), seats[0])
    content, view = build_panel(session, seat, language)
    # issue 27: ↩ while the seat's own move is the latest and can be taken back (or asked for)
    await offer_undo(bot_of(interaction).sessions, view, session, seat, interaction.user.id, language)
    publisher = bot_of(interaction).publisher
    if interaction.user.id in publisher.dm_closed and len(view.children) < 25:
        # offer to try DMs again once the player has opened them
        view.add_item(discord.ui.Button(label=limits.button_label(t("panel.dms_open", language)),
                                        style=discord.ButtonStyle.secondary,
                                        custom_id=DmRetryId(session.id).build(), row=4))
    # the seat's personal board (Pobeda; issue 13, see bot/discord_app/boards.py)
    board = await boards.personal_board(session, seat, language)
    if board:
        message = await reply(interaction, content, view=view, file=boards.as_file(board))
    else:
        message = await reply(interaction, content, view=view)
    shown = message.id if message is not None else getattr(interaction, "extras", {}).get("response_message_id")
    publisher.panels.answered(interaction, session, seat, message.id if message is not None else None, shown=shown)


async def post_takeback_request(bot: TabletopBot, session: Session) -> None:
    """The channel post asking every other player to accept or decline a takeback (issue 27), mentioning
    them; in the host's language like every channel post. The request itself is in the game's settings."""
    request = bot.sessions.takeback_request(session)
    if request is None:
        return
    language = session.row.lang
    await bot.publisher.post(session.row.channel_id, takeback_request_text(session, request, language),
                             view=takeback_view(session.id, str(request["id"]), language),
                             allowed_mentions=mentions([int(u) for u in request.get("asked", [])]))


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(GameCog(bot))

