"""Helpers shared by the cogs: language of an interaction, refusals, lobby and status texts."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.core import bots
from bot.core.i18n import lang_of, t
from bot.core.sessions import Session, SessionError, UserInfo
from bot.discord_app import limits
from bot.discord_app.custom_ids import LobbyId, OptionId, TeamId
from bot.discord_app.delivery import inert
from bot.games.base import IllegalAction, OptionSpec, Player, Rng
from bot.games.registry import game_class

if TYPE_CHECKING:
    from bot.discord_app.app import TabletopBot

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0
"""Seconds after which a handler that has not answered yet defers (Discord drops an interaction
that is not answered within 3 seconds: "The application did not respond")."""


def lang(interaction: discord.Interaction) -> str:
    return lang_of(interaction.locale.value if interaction.locale else None)


def user_info(interaction: discord.Interaction) -> UserInfo:
    user = interaction.user
    return UserInfo(id=user.id, name=user.display_name[:40], lang=lang(interaction))


def bot_of(interaction: discord.Interaction) -> TabletopBot:
    return interaction.client  # type: ignore[return-value]


def control_data(interaction: discord.Interaction) -> Mapping[str, object]:
    """The data of a component interaction (its custom id, a select's values): client input, so read
    as plain objects and checked where used."""
    return interaction.data or {}


def select_values(interaction: discord.Interaction) -> list[str]:
    """The values a select sent (none for a button, or data that is not a list)."""
    values = control_data(interaction).get("values")
    return [str(v) for v in values] if isinstance(values, list) else []


def refusal_text(exc: SessionError | IllegalAction, language: str) -> str:
    params: dict[str, Any] = dict(exc.params)
    if "game" in params and isinstance(params["game"], str):
        params["game"] = t(f"{params['game']}.name", language)
    # parameters may carry what a user typed: never echo it unbounded
    params = {k: limits.echo(v) if isinstance(v, str) else v for k, v in params.items()}
    return "⛔ " + t(exc.key, language, **params)


def _answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """One lock per interaction: the deferral watchdog and the handler never answer at once."""
    extras = getattr(interaction, "extras", None)
    if extras is None:  # a stand-in interaction of a unit test: nothing else answers it
        return asyncio.Lock()
    lock = extras.get("tt_answer_lock")
    if lock is None:
        lock = extras["tt_answer_lock"] = asyncio.Lock()
    return lock


@asynccontextmanager
async def in_time(interaction: discord.Interaction, *, update: bool = False,
                  ephemeral: bool = True) -> AsyncIterator[None]:
    """Run the body; if it has not answered after :data:`ANSWER_WITHIN` seconds, defer for it.

    ``update``: the interaction came from a component whose message the answer edits (a deferred
    update); otherwise a "thinking…" message (ephemeral or not) that the answer fills in. The body
    must answer through :func:`reply`, :func:`edit` or :func:`defer`, which follow the deferral.
    """

    task = watch(interaction, update=update, ephemeral=ephemeral)
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


_watchdogs: set[asyncio.Task[None]] = set()


def watch(interaction: discord.Interaction, *, update: bool = False, ephemeral: bool = True) -> asyncio.Task[None]:
    """Start the deferral watchdog of :func:`in_time` for a handler that runs on its own (a slash
    command: started from the cog's ``interaction_check``); it ends after one check."""

    async def guard() -> None:
        await asyncio.sleep(ANSWER_WITHIN)
        async with _answer_lock(interaction):
            if interaction.response.is_done():
                return
            try:
                if update:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            except discord.HTTPException as exc:
                log.warning("deferring interaction %s failed: %s", interaction.id, exc)

    task = asyncio.get_running_loop().create_task(guard())
    _watchdogs.add(task)
    task.add_done_callback(_watchdogs.discard)
    return task


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True, thinking: bool = True) -> None:
    """Defer now (work that is known to be slow: a render, a DM, a loop of attacks)."""
    async with _answer_lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = True,
                view: discord.ui.View | None = None, **kwargs: Any) -> discord.WebhookMessage | None:
    """Answer an interaction whether or not it was already answered or deferred. Returns the
    follow-up message when the answer was one (None: the answer is the original response)."""
    if view is not None:
        kwargs["view"] = inert(limits.fit_view(view))
    content = limits.content(content)
    async with _answer_lock(interaction):
        if interaction.response.is_done():
            return await interaction.followup.send(content, ephemeral=ephemeral, wait=True, **kwargs)
        callback = await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        # the original response's id, when Discord said it: a later click on it is answered in place, and the
        # live-panel bookkeeping must know that message is the same panel (bot/discord_app/livepanels.py)
        extras = getattr(interaction, "extras", None)
        if isinstance(extras, dict):
            extras["response_message_id"] = getattr(callback, "message_id", None)
        return None


async def edit(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component is on, whether or not the click was deferred."""
    if kwargs.get("view") is not None:
        kwargs["view"] = inert(limits.fit_view(kwargs["view"]))
    if isinstance(kwargs.get("content"), str):
        kwargs["content"] = limits.content(kwargs["content"])
    if isinstance(kwargs.get("embed"), discord.Embed):
        kwargs["embed"] = limits.fit_embed(kwargs["embed"])
    async with _answer_lock(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)


def game_id_of(interaction: discord.Interaction) -> int | None:
    """The game of the interaction's channel (for logs), without loading anything."""
    bot = bot_of(interaction)
    sessions = getattr(bot, "sessions", None)
    return sessions.channels.get(interaction.channel_id or 0) if sessions is not None else None


async def apologise(interaction: discord.Interaction, what: str, error: BaseException,
                    game_id: int | None = None) -> None:
    """Log an unexpected failure with its game id and tell the user, briefly, in their language."""
    if game_id is None:
        game_id = game_id_of(interaction)
    log.error("%s failed (game %s, user %s, channel %s)", what, game_id, interaction.user.id,
              interaction.channel_id, exc_info=error)
    if interaction.type is discord.InteractionType.autocomplete:
        return
    try:
        await reply(interaction, "⚠️ " + t("err.unexpected", lang(interaction)))
    except discord.HTTPException as exc:
        log.warning("could not apologise for %s (game %s): %s", what, game_id, exc)


async def refuse(interaction: discord.Interaction, exc: SessionError | IllegalAction) -> None:
    await reply(interaction, refusal_text(exc, lang(interaction)))


async def control_failed(interaction: discord.Interaction, error: Exception, what: str, game_id: int | None,
                         *, custom_id: str = "") -> None:
    """The one answer of the component routers (``tt:``, ``tl:``, ``ttb:``) to a control that failed,
    as the command tree's ``on_error`` is for slash commands (cogs/tree.py): a refusal in the
    clicker's language, "not recognised" for a malformed or forged control, an apology for anything
    unexpected. A refusal Discord does not take is only logged."""
    try:
        if isinstance(error, (SessionError, IllegalAction)):
            await refuse(interaction, error)
            return
        if isinstance(error, (ValueError, IndexError, KeyError)):
            log.warning("malformed control %r (%s) from user %s", custom_id[:100], what, interaction.user.id)
            await reply(interaction, "⛔ " + t("err.bad_control", lang(interaction)))
            return
    except discord.HTTPException as exc:
        log.warning("answering %s of game %s failed: %s", what, game_id, exc)
        return
    if isinstance(error, discord.HTTPException):
        log.warning("answering %s of game %s failed: %s", what, game_id, error)
        return
    await apologise(interaction, what, error, game_id)


def in_game_channel(interaction: discord.Interaction, session: Session) -> bool:
    """The control is used in the game's own channel (not a forwarded or copied message)."""
    return interaction.channel_id == session.row.channel_id


def is_moderator(interaction: discord.Interaction, session: Session) -> bool:
    """The host or a moderator, acting in the game's channel: a moderator's permissions come from
    the channel the control is used in, so a forwarded control elsewhere must not count."""
    if not in_game_channel(interaction, session):
        return False
    if interaction.user.id == session.row.host_id:
        return True
    perms = interaction.permissions
    return bool(perms and (perms.manage_channels or perms.administrator))


def check_moderator(interaction: discord.Interaction, session: Session) -> None:
    """Refuse unless :func:`is_moderator` (saying so when the control is from another channel)."""
    if not in_game_channel(interaction, session):
        raise SessionError("err.wrong_channel")
    if not is_moderator(interaction, session):
        raise SessionError("err.moderator_only")


class Refused(app_commands.CheckFailure):
    """A check of a slash command refused it: the tree answers ``original`` as it answers a refusal
    raised in the command's body (cogs/tree.py)."""

    def __init__(self, original: SessionError | IllegalAction) -> None:
        super().__init__(original.key)
        self.original = original


@dataclass(frozen=True)
class _ChannelGame:
    session: Session | None


CHANNEL_GAME = "tt_channel_game"
"""The key of :func:`channel_game`'s answer in ``interaction.extras``."""


async def channel_game(interaction: discord.Interaction) -> Session | None:
    """The game of the interaction's channel, loaded once per interaction: a command's check and its
    body see the same session (and a shared store is read once)."""
    extras = getattr(interaction, "extras", None)
    if isinstance(extras, dict) and isinstance(loaded := extras.get(CHANNEL_GAME), _ChannelGame):
        return loaded.session
    session = await bot_of(interaction).sessions.channel_session(interaction.channel_id or 0)
    if isinstance(extras, dict):
        extras[CHANNEL_GAME] = _ChannelGame(session)
    return session


T = TypeVar("T")


def moderator_only(*, broken_ok: bool = False) -> Callable[[T], T]:
    """A slash command of the channel game's host or moderators (:func:`check_moderator`), refused
    before its body runs. With no game here, or a broken one a command cannot use (``broken_ok``
    False), the check lets the body say so, as it would to anyone."""

    async def predicate(interaction: discord.Interaction) -> bool:
        try:
            session = await channel_game(interaction)
            if session is not None and (broken_ok or session.broken is None):
                check_moderator(interaction, session)
        except SessionError as exc:
            raise Refused(exc) from exc
        return True

    return app_commands.check(predicate)


CogT = TypeVar("CogT")
ControlT = TypeVar("ControlT")
ControlHandler = Callable[[CogT, discord.Interaction, Session, ControlT], Awaitable[None]]


def moderator_control(handler: ControlHandler[CogT, ControlT]) -> ControlHandler[CogT, ControlT]:
    """A control handler of the game's host or moderators (:func:`check_moderator`): anyone else's
    click is refused before the handler runs."""

    @functools.wraps(handler)
    async def checked(cog: CogT, interaction: discord.Interaction, session: Session, control: ControlT) -> None:
        check_moderator(interaction, session)
        await handler(cog, interaction, session, control)

    return checked


# ---- lobby --------------------------------------------------------------------------
def option_label(cls_key: str, name: str, value: Any, language: str) -> str:
    cls = game_class(cls_key)
    spec = next((s for s in cls.option_specs() if s.name == name), None)
    if spec is None:
        return str(value)
    for choice_value, key in spec.choices:
        if choice_value == value:
            return t(key, language)
    return str(value)


def deadline_text(seconds: int, language: str) -> str:
    if not seconds:
        return t("lobby.no_deadline", language)
    hours = seconds / 3600
    if hours >= 1:
        return t("lobby.deadline_hours", language, n=f"{hours:g}")
    return t("lobby.deadline_minutes", language, n=f"{seconds / 60:.3g}")


def start_refusal(session: Session) -> IllegalAction | None:
    """Why the lobby, with its player count in range, could not start as it stands (e.g. Pobeda's
    teams too lopsided to sit alternately), so the lobby can say it before the host clicks Start."""
    row = session.row
    low, high = session.cls.player_range(row.options)
    if not low <= len(row.lobby) <= high:
        return None
    players = [Player(user_id=p.user, team=p.team) for p in row.lobby]
    try:
        session.cls.arrange_seats(players, row.options, Rng(0))
    except IllegalAction as exc:
        return exc
    return None


MORE_OPTIONS = "+"
"""The option name of the lobby's shared select: a game with more options than the message has rows for
(five, the buttons' included) offers the rest in one select whose values are ``<option>.<choice index>``."""


def shared_option(specs: list[OptionSpec], value: str) -> tuple[OptionSpec, Any] | None:
    """The option and value a shared select's ``value`` names (None: forged or no longer offered)."""
    name, _, index = value.rpartition(".")
    spec = next((s for s in specs if s.name == name), None)
    if spec is None or not index.isdigit() or int(index) >= len(spec.choices):
        return None
    return spec, spec.choices[int(index)][0]


def lobby_message(session: Session) -> tuple[discord.Embed, discord.ui.View | None]:
    row = session.row
    language = row.lang
    cls = session.cls
    name = t(f"{row.game}.name", language)
    low, high = cls.player_range(row.options)
    teams = cls.team_count(row.options, len(row.lobby))
    embed = discord.Embed(title=t("lobby.title", language, game=name), colour=discord.Colour.dark_gold())
    lines = []
    for p in row.lobby:
        team = ""
        if teams and p.team is not None:
            team = " — " + cls.team_label(p.team, row.options, language)
        host = " 👑" if p.user == row.host_id else ""
        lines.append(f"• {bots.mention(session, p.user)}{host}{team}")
    embed.add_field(name=t("lobby.players", language, n=len(row.lobby), min=low, max=high),
                    value="\n".join(lines) or "—", inline=False)
    opts = [f"{t(s.label_key, language)}: **{option_label(row.game, s.name, row.options.get(s.name), language)}**"
            for s in cls.option_specs()]
    opts.append(f"{t('lobby.deadline', language)}: **{deadline_text(row.settings.deadline_s or 0, language)}**")
    opts.append(f"{t('bots.absent.label', language)}: **{bots.absent_text(row.settings, language)}**")
    embed.add_field(name=t("lobby.options", language), value="\n".join(opts), inline=False)
    if row.status == "lobby":
        if (refusal := start_refusal(session)) is not None:
            embed.description = refusal_text(refusal, language)
        embed.set_footer(text=t("lobby.footer", language))
        view = discord.ui.View(timeout=None)
        gid = row.id
        view.add_item(discord.ui.Button(label=t("lobby.join", language), style=discord.ButtonStyle.success,
                                        custom_id=LobbyId(gid, "join").build(), row=0))
        view.add_item(discord.ui.Button(label=t("lobby.leave", language), style=discord.ButtonStyle.secondary,
                                        custom_id=LobbyId(gid, "leave").build(), row=0))
        view.add_item(discord.ui.Button(label=t("lobby.start", language), style=discord.ButtonStyle.primary,
                                        custom_id=LobbyId(gid, "start").build(), row=0))
        view.add_item(discord.ui.Button(label=t("lobby.cancel", language), style=discord.ButtonStyle.danger,
                                        custom_id=LobbyId(gid, "cancel").build(), row=0))
        view.add_item(discord.ui.Button(label=t("bots.lobby.button", language), style=discord.ButtonStyle.secondary,
                                        custom_id=bots.lobby_id(gid), row=0))  # cogs/bots.py: add a bot
        next_row = 1
        if teams:
            view.add_item(discord.ui.Select(
                custom_id=TeamId(gid).build(), placeholder=t("lobby.pick_team", language), row=next_row,
                options=[discord.SelectOption(label=limits.option_label(cls.team_label(i, row.options, language)),
                                              value=str(i))
                         for i in range(teams)],
            ))
            next_row += 1
        specs = cls.option_specs()
        own, shared = (specs, []) if len(specs) <= 5 - next_row else (specs[: 4 - next_row], specs[4 - next_row:])
        for spec in own:  # one select per row, five rows at most
            view.add_item(discord.ui.Select(
                custom_id=OptionId(gid, spec.name).build(), row=next_row,
                placeholder=t("lobby.set_option", language, option=t(spec.label_key, language)),
                options=[discord.SelectOption(label=limits.option_label(t(key, language)), value=str(i),
                                              default=row.options.get(spec.name) == value)
                         for i, (value, key) in enumerate(spec.choices[:25])],
            ))
            next_row += 1
        if shared:  # the options beyond the last row share it: one entry per option and value
            view.add_item(discord.ui.Select(
                custom_id=OptionId(gid, MORE_OPTIONS).build(), row=next_row,
                placeholder=t("lobby.more_options", language,
                              options=", ".join(t(s.label_key, language) for s in shared)),
                options=[discord.SelectOption(
                    label=limits.option_label(f"{t(spec.label_key, language)}: {t(key, language)}"),
                    value=f"{spec.name}.{i}") for spec in shared for i, (_, key) in enumerate(spec.choices)][:25],
            ))
        return limits.fit_embed(embed), limits.fit_view(view)
    if row.status == "running" and row.seat_users:
        game = session.game
        seating = []
        for seat, users in enumerate(row.seat_users):
            side = game.side_name(game.side_of(seat), language) if game else str(seat + 1)
            seating.append(f"{seat + 1}. {' '.join(bots.mention(session, u) for u in users)} — {side}")
        embed.add_field(name=t("lobby.seating", language), value="\n".join(seating), inline=False)
        embed.set_footer(text=t("lobby.started", language))
    else:
        embed.set_footer(text=t(f"lobby.status_{row.status}", language))
    return limits.fit_embed(embed), None


async def refresh_lobby(bot: TabletopBot, session: Session) -> None:
    """Edit the stored lobby message (used when the lobby changes outside a click on it)."""
    stored = await bot.store.get_message(session.id, "lobby")
    if stored is None:
        return
    embed, view = lobby_message(session)
    try:
        channel = await bot.publisher.channel(stored.channel_id)
        if channel is not None:
            await channel.get_partial_message(stored.message_id).edit(  # type: ignore[attr-defined]
                embed=embed, view=inert(view)
            )
    except discord.HTTPException as exc:
        log.warning("could not edit the lobby message of game %s: %s", session.id, exc)


def status_text(session: Session, language: str) -> str:
    row = session.row
    name = t(f"{row.game}.name", language)
    lines = [f"**{name}** (#{row.id}) — {t('lobby.status_' + row.status, language)}"]
    game = session.game
    if game is not None and row.seat_users:
        for seat in range(len(row.seat_users)):
            mark = " ▶" if seat in game.actors() and row.status == "running" else ""
            gone = " ✖" if seat in session.conceded else ""
            lines.append(f"{seat + 1}. {session.seat_name(seat)} — {game.side_name(game.side_of(seat), language)}"
                         f"{mark}{gone}")
        lines += game.status_lines(language)
        if row.status == "running" and row.settings.extra.get("paused_at") is not None:
            lines.append(t("lifecycle.status.paused_line", language, ts=int(row.settings.extra["paused_at"])))
        elif row.status == "running":
            for seat, timer in sorted(session.deadlines.items()):
                lines.append(t("status.seat_deadline", language, name=session.seat_name(seat), ts=int(timer.due_at)))
    elif row.status == "lobby":
        lines.append(t("status.lobby", language, n=len(row.lobby)))
    return limits.shorten("\n".join(lines), limits.CONTENT - 100)
