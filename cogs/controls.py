"""Routing of every button and select the bot ever posted (``tt:...`` custom ids).

One listener handles all components by parsing their custom id, so controls on messages from
days ago, in channels and in DMs, keep working after a restart without registering thousands of
views: the custom id carries everything needed (see :mod:`bot.discord_app.panels`), and anything it points at
that no longer exists or is no longer legal is answered "no longer available".
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from bot.core import bots, parse
from bot.core.i18n import t
from bot.core.sessions import Session, SessionError
from bot.discord_app import boards, custom_ids
from bot.discord_app.app import TabletopBot
from bot.discord_app.custom_ids import (
    AbortId,
    ActionId,
    AdminId,
    BackId,
    ConcedeId,
    ControlId,
    DmRetryId,
    LobbyId,
    OptionId,
    PanelId,
    PathSelectId,
    TakebackAnswerId,
    TeamId,
    UndoId,
)
from bot.discord_app.delivery import inert, mentions
from bot.discord_app.discordhttp import Postponed
from bot.discord_app.panels import (
    CONTROL_KEY_META,
    answer_tag,
    build_panel,
    choices_under,
    confirmation,
    decode_prefix,
    find_action,
    find_admin_action,
    offer_undo,
    set_control_key,
    takeback_request_text,
    takeback_view,
    undo_tag,
)
from bot.games.base import Action
from cogs.common import (
    MORE_OPTIONS,
    control_data,
    control_failed,
    defer,
    edit,
    in_game_channel,
    in_time,
    lang,
    lobby_message,
    moderator_control,
    reply,
    select_values,
    shared_option,
    user_info,
)
from cogs.game import post_takeback_request, send_panel

log = logging.getLogger(__name__)


class ControlsCog(commands.Cog):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """The per-install secret of the control tags: created once, kept in the database. Stored
        with an atomic insert-if-absent: processes starting at once on one PostgreSQL must agree on
        it, or a control built by one is refused as stale by the others (seen in the two-process e2e)."""
        mine = secrets.token_hex(32)
        key = await self.bot.store.meta_setdefault(CONTROL_KEY_META, mine)
        if key == mine:
            log.info("created the secret for control tags")
        set_control_key(bytes.fromhex(key))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(control_data(interaction).get("custom_id", ""))
        game_id = None
        control: ControlId | None = None
        try:
            control = custom_ids.parse(custom_id)
            if control is None:
                if orphan(custom_id):  # one of the bot's own families that its router will not take
                    raise ValueError("a control no router takes")
                return  # not one of ours, or another router's
            game_id = control.game_id
            if interaction.guild_id is None and not control.OPENS_MESSAGE:
                # answered in place on a DM panel: a refresh of that panel not sent yet gives way to it
                self.bot.publisher.panels.touching(game_id, interaction.user.id)
            # a click that opens a new ephemeral message defers as "thinking", the rest as an update
            async with in_time(interaction, update=not control.OPENS_MESSAGE):
                await self.route(interaction, control)
        except Exception as exc:
            # a refusal, "not recognised" for a malformed id, or an apology (cogs.common.control_failed)
            await control_failed(interaction, exc, f"control {control.KIND if control else '?'}",
                                 game_id if game_id is not None else custom_ids.game_of(custom_id),
                                 custom_id=custom_id)

    async def route(self, interaction: discord.Interaction, control: ControlId) -> None:
        """Load the game and hand the control to the handler of its kind (see :data:`HANDLERS`)."""
        session = await self.bot.sessions.get(control.game_id)
        if session.broken is not None and not isinstance(control, (AbortId, LobbyId)):
            raise SessionError("err.game_broken", id=session.id)  # only ending it works (abort, cancel)
        await HANDLERS[type(control)](self, interaction, session, control)

    @staticmethod
    def values(interaction: discord.Interaction) -> list[str]:
        values = select_values(interaction)
        if not values:
            raise ValueError("select without values")
        return values

    @classmethod
    def chosen(cls, interaction: discord.Interaction, count: int) -> int:
        """The position a select's value names among ``count`` options (a forged or garbled value
        is refused as a bad control: :func:`bot.core.parse.index`)."""
        position = parse.index(cls.values(interaction)[0], count)
        if position is None:
            raise ValueError("select value out of range")
        return position

    # ---- game panels -----------------------------------------------------------------
    async def action_control(self, interaction: discord.Interaction, session: Session, control: ActionId) -> None:
        session.check_seat(interaction.user.id, control.seat, control.stamp)
        assert session.game is not None
        action = find_action(session.game, session.id, control.seat, control.stamp, control.tag)
        if action is None:
            raise SessionError("err.stale")
        await self.act(interaction, session, control.seat, control.stamp, action)

    async def path_control(self, interaction: discord.Interaction, session: Session,
                           control: PathSelectId | BackId) -> None:
        """A select of the next path level (it descends) or the back button (it shows the prefix)."""
        language = lang(interaction)
        seat, stamp = control.seat, control.stamp
        session.check_seat(interaction.user.id, seat, stamp)
        game = session.game
        assert game is not None
        prefix = decode_prefix(game, session.id, seat, stamp, language, control.prefix_tag)
        if prefix is None:
            raise SessionError("err.stale")
        if isinstance(control, PathSelectId):
            prefix = prefix + [self.chosen(interaction, MAX_OPTIONS)]
            choices, _ = choices_under(game, seat, language, prefix)
            if not choices:
                raise SessionError("err.stale")
            if len(choices) == 1 and len(choices[0].path) <= len(prefix):
                await self.act(interaction, session, seat, stamp, choices[0].action)
                return
        # a DM panel keeps its way back to the channel while its levels (or its ⚙️ settings) are browsed
        link = await self.bot.publisher.turn_link(session) if interaction.guild_id is None else None
        content, view = build_panel(session, seat, language, prefix, link=link)
        await offer_undo(self.bot.sessions, view, session, seat, interaction.user.id, language)  # issue 27
        await edit(interaction, content=content, view=view)

    async def panel_open(self, interaction: discord.Interaction, session: Session, control: PanelId) -> None:
        await send_panel(interaction, session)

    async def act(self, interaction: discord.Interaction, session: Session, seat: int, stamp: int,
                  action: Action) -> None:
        language = lang(interaction)
        result = await self.bot.sessions.act(session.id, interaction.user.id, seat, action, stamp)
        game = result.session.game
        assert game is not None
        publisher = self.bot.publisher
        # every outcome of the move, condensed when long (the full text is in the channel post)
        link = await publisher.turn_link(result.session)
        note = confirmation(game, result.events, seat, language, link=link)
        in_dm = interaction.guild_id is None  # a DM panel keeps its way back to the channel
        content, view = build_panel(result.session, seat, language, note=note, link=link if in_dm else None)
        # issue 27: ↩ under the confirmation of the player's own move, when it can be undone or asked for
        await offer_undo(self.bot.sessions, view, result.session, seat, interaction.user.id, language, latest=False)
        # an ephemeral panel drops its personal board with the move (a fresh /game hand draws one); a DM
        # panel gets the new one below (Pobeda; issue 13, see bot/discord_app/boards.py)
        if not in_dm and boards.has_personal_board(result.session):
            await edit(interaction, content=content, view=view, attachments=[])
        else:
            await edit(interaction, content=content, view=view)
        publisher.panels.answered(interaction, result.session, seat, in_place=True)
        # then the DM panel's personal board follows the move, off the click's answer: a second edit of
        # the same message, cosmetic, so a failure is only logged
        board = await boards.personal_board(result.session, seat, language) if in_dm else None
        if board is not None:
            try:
                await edit(interaction, attachments=[boards.as_file(board)])
            except Exception as exc:  # cosmetic: a refused edit or a dropped connection only costs the picture
                log.info("could not attach the personal board of game %s: %r", session.id, exc)

    # ---- lobby -----------------------------------------------------------------------
    async def lobby_button(self, interaction: discord.Interaction, session: Session, control: LobbyId) -> None:
        sessions = self.bot.sessions
        verb = control.verb
        if verb == "join":
            session = await sessions.join(session.id, user_info(interaction))
        elif verb == "leave":
            session = await sessions.leave_lobby(session.id, interaction.user.id)
        elif verb == "start":
            session = await sessions.start(session.id, interaction.user.id)
        else:  # "cancel": LobbyId admits no other verb
            await self.lobby_cancel(interaction, session, control)
            return
        await self.update_lobby(interaction, session)

    @moderator_control
    async def lobby_cancel(self, interaction: discord.Interaction, session: Session, control: LobbyId) -> None:
        session = await self.bot.sessions.abort(session.id)
        await self.update_lobby(interaction, session)

    async def team_select(self, interaction: discord.Interaction, session: Session, control: TeamId) -> None:
        team = self.chosen(interaction, MAX_OPTIONS)
        session = await self.bot.sessions.join(session.id, user_info(interaction), team)
        await self.update_lobby(interaction, session)

    async def option_select(self, interaction: discord.Interaction, session: Session, control: OptionId) -> None:
        if control.name == MORE_OPTIONS:  # the shared select of the options beyond the message's rows
            found = shared_option(session.cls.option_specs(), self.values(interaction)[0])
            if found is None:
                raise ValueError("shared option value out of range")
            shared, value = found
            session = await self.bot.sessions.set_option(session.id, interaction.user.id, shared.name, value)
            await self.update_lobby(interaction, session)
            return
        spec = next((s for s in session.cls.option_specs() if s.name == control.name), None)
        if spec is None:
            raise ValueError(f"unknown option {control.name[:40]!r}")
        value = spec.choices[self.chosen(interaction, len(spec.choices))][0]
        session = await self.bot.sessions.set_option(session.id, interaction.user.id, spec.name, value)
        await self.update_lobby(interaction, session)

    async def update_lobby(self, interaction: discord.Interaction, session: Session) -> None:
        embed, view = lobby_message(session)
        await edit(interaction, embed=embed, view=view)

    # ---- confirmations and moderation ------------------------------------------------
    @moderator_control
    async def confirm_abort(self, interaction: discord.Interaction, session: Session, control: AbortId) -> None:
        session = await self.bot.sessions.abort(session.id, by=interaction.user.id)
        language = session.row.lang
        await edit(interaction, content="✅ " + t("confirm.aborted", lang(interaction)), view=None)
        if session.row.seat_users is not None:
            return  # a started game: the publisher's end post tells the channel (game_ended), and only it
        await self.bot.publisher.post(  # a lobby: no game was played, so no end post follows
            session.row.channel_id,
            "🛑 " + t("notice.aborted", language, game=t(f"{session.row.game}.name", language),
                     who=f"<@{interaction.user.id}>"),
            allowed_mentions=mentions([]),
        )

    async def confirm_concede(self, interaction: discord.Interaction, session: Session,
                              control: ConcedeId) -> None:
        language = session.row.lang
        if not in_game_channel(interaction, session):
            raise SessionError("err.wrong_channel")
        session = await self.bot.sessions.concede(session.id, interaction.user.id)
        await edit(interaction, content="✅ " + t("confirm.conceded", lang(interaction)), view=None)
        if session.row.status != "running":
            return  # the resignation ended the game: the publisher's end post says so (game_ended), and only it
        await self.bot.publisher.post(
            session.row.channel_id, "🏳️ " + t("notice.conceded", language, who=f"<@{interaction.user.id}>"),
            allowed_mentions=mentions([]),
        )

    async def dms_reopened(self, interaction: discord.Interaction, session: Session, control: DmRetryId) -> None:
        """The player says their DMs are open again: try one DM with their panel."""
        language = lang(interaction)
        seats = session.seats_of(interaction.user.id)
        if not seats or session.game is None:
            raise SessionError("err.spectator")
        await defer(interaction)  # a DM to Discord and back: may well take over three seconds
        publisher = self.bot.publisher
        user_id = interaction.user.id
        publisher.dm_closed.discard(user_id)
        await self.bot.store.clear_dm_closed(user_id)
        seat = next((s for s in seats if s in session.game.actors()), seats[0])
        content, view = build_panel(session, seat, language)
        await offer_undo(publisher.sessions, view, session, seat, user_id, language)  # issue 27
        try:  # the answer waits for this DM: within the announcement budget, not for as long as Discord fails
            sent = await publisher.dm(session, user_id, content, inert(view), budget=publisher.announce_budget)
        except Postponed:
            sent = False
        if sent:
            await reply(interaction, "✅ " + t("panel.dms_ok", language))
        else:
            await reply(interaction, "⛔ " + t("panel.dms_still_closed", language))

    # ---- takebacks (issue 27) ---------------------------------------------------------------
    async def undo_control(self, interaction: discord.Interaction, session: Session, control: UndoId) -> None:
        """↩ under a confirmation: the move is taken back at once when nothing was revealed since, else
        the other players are asked in the channel; the panel shows the outcome in place."""
        if not hmac.compare_digest(undo_tag(session.id, control.seat, control.stamp, control.seq), control.tag):
            raise ValueError("a forged or garbled undo control")
        language = lang(interaction)
        sessions = self.bot.sessions
        result = await sessions.takeback(session.id, interaction.user.id, control.seat, from_seq=control.seq,
                                         stamp=control.stamp)
        in_dm = interaction.guild_id is None
        link = await self.bot.publisher.turn_link(result.session) if in_dm else None
        if result.done:
            note = t("takeback.done", language, n=len(result.moves))
        else:
            note = t("takeback.asked", language)
            await post_takeback_request(self.bot, result.session)
        content, view = build_panel(result.session, control.seat, language, note=note, link=link)
        if result.done:  # the seat's move before it, when now the latest, can be taken back in turn
            await offer_undo(sessions, view, result.session, control.seat, interaction.user.id, language)
        await edit(interaction, content=content, view=view)
        self.bot.publisher.panels.answered(interaction, result.session, control.seat, in_place=True)

    async def takeback_answer(self, interaction: discord.Interaction, session: Session,
                              control: TakebackAnswerId) -> None:
        """Accept or Decline under a takeback request: the request's message shows the answer."""
        if not hmac.compare_digest(answer_tag(session.id, control.request, control.verb), control.tag):
            raise ValueError("a forged or garbled takeback answer")
        row_lang = session.row.lang
        result = await self.bot.sessions.answer_takeback(session.id, interaction.user.id, control.request,
                                                         control.verb == "y")
        request = result.request or {}
        if result.declined:
            text = t("takeback.declined", row_lang, who=f"<@{interaction.user.id}>")
            await edit(interaction, content=text, view=None, allowed_mentions=mentions([]))
        elif result.done:
            await edit(interaction, content=t("takeback.accepted", row_lang), view=None,
                       allowed_mentions=mentions([]))
        else:
            await edit(interaction, content=takeback_request_text(result.session, request, row_lang),
                       view=takeback_view(session.id, control.request, row_lang), allowed_mentions=mentions([]))

    @moderator_control
    async def admin_action(self, interaction: discord.Interaction, session: Session, control: AdminId) -> None:
        game = session.game
        if game is None:
            raise SessionError("err.not_running")
        action = find_admin_action(game, session.id, control.tag)
        if action is None:
            raise SessionError("err.stale")
        await self.bot.sessions.act_admin(session.id, interaction.user.id, action)
        await edit(interaction, content="✅ " + t("panel.done", lang(interaction)), view=None)


MAX_OPTIONS = 4 * 25
"""Options a level of selects can offer at most (four selects of 25): a larger value was never built."""


def orphan(custom_id: str) -> bool:
    """A custom id of one of the bot's families that no router takes (issue 23): a malformed ``ttb:``
    id, which cogs/bots.py leaves unanswered. Answered here "not recognised", so every click on one
    of the bot's controls gets an answer."""
    return custom_id.startswith(bots.ID_PREFIX + ":") and bots.parse_id(custom_id) is None


Handler = Callable[[ControlsCog, discord.Interaction, Session, Any], Awaitable[None]]

HANDLERS: dict[type[ControlId], Handler] = {
    ActionId: ControlsCog.action_control,
    PathSelectId: ControlsCog.path_control,
    BackId: ControlsCog.path_control,
    PanelId: ControlsCog.panel_open,
    LobbyId: ControlsCog.lobby_button,
    TeamId: ControlsCog.team_select,
    OptionId: ControlsCog.option_select,
    AbortId: ControlsCog.confirm_abort,
    ConcedeId: ControlsCog.confirm_concede,
    AdminId: ControlsCog.admin_action,
    DmRetryId: ControlsCog.dms_reopened,
    UndoId: ControlsCog.undo_control,
    TakebackAnswerId: ControlsCog.takeback_answer,
}
"""The router: one handler per kind of custom id (every kind of :mod:`bot.discord_app.custom_ids` has one)."""


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(ControlsCog(bot))
