"""Publishing committed game changes to Discord: channel posts, DMs with fallback, reminders.

Publishing is driven only by what is committed: ``request(game_id)`` marks a game dirty and a
per-game task posts every action after ``published_seq`` (read back from the database), then
advances ``published_seq``. Bursts coalesce into one post, posts of one game never interleave,
and a crash between commit and post is healed on restart by requesting every game whose
``published_seq`` lags behind its ``seq``.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import discord

from bot.games.registry import renderer
from bot.i18n import t
from bot.panels import build_panel, channel_view
from bot.sessions import Session, SessionManager
from bot.store import Store

if TYPE_CHECKING:
    from discord.abc import Messageable

log = logging.getLogger(__name__)

MAX_LOG_LINES = 14
MAX_CONTENT = 1900


def inert(view: discord.ui.View | None) -> discord.ui.View | None:
    """Stop a view before sending: components are routed by custom id in one listener, so
    discord.py must not keep a copy of every view in memory (thousands of games, days long)."""
    if view is not None:
        view.stop()
    return view


def mentions(user_ids: list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids]
    )


def clip_lines(lines: list[str], limit: int = MAX_CONTENT) -> str:
    text = "\n".join(lines)
    while len(text) > limit and len(lines) > 1:
        lines = lines[1:]
        text = "\n".join(lines)
    return text[:limit]


def result_line(session: Session, lang: str) -> str:
    outcome = session.outcome() or {}
    game = session.game
    if outcome.get("draw") or not outcome.get("winners"):
        return t("result.draw", lang)
    winners = set(outcome.get("winners", []))
    seats = range(len(session.row.seat_users or []))
    names = [session.seat_name(s) for s in seats if game is not None and game.side_of(s) in winners]
    key = "result.conceded" if outcome.get("conceded") else "result.win"
    return t(key, lang, names=", ".join(names))


async def render_png(session: Session, lang: str) -> bytes:
    """Render the public view off the event loop (one big board must not stall other games)."""
    view = json.loads(json.dumps(session.public_view()))
    return await asyncio.to_thread(renderer(session.row.game), view, lang)


def board_file(session: Session, png: bytes) -> discord.File:
    """A fresh upload of ``png`` (a File is consumed by one request)."""
    return discord.File(io.BytesIO(png), filename=f"{session.row.game}-{session.id}-{session.row.seq}.png")


async def render_board(session: Session, lang: str) -> discord.File:
    return board_file(session, await render_png(session, lang))


class Publisher:
    def __init__(self, client: discord.Client, sessions: SessionManager, store: Store) -> None:
        self.client = client
        self.sessions = sessions
        self.store = store
        self.dm_closed: set[int] = set()
        self._dm_channels: dict[int, discord.abc.Messageable] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._notified: set[tuple[int, int]] = set()

    async def load(self) -> None:
        self.dm_closed = await self.store.dm_closed_users()

    # ---- scheduling ------------------------------------------------------------------
    def request(self, game_id: int) -> None:
        self._dirty.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def _run(self, game_id: int) -> None:
        while game_id in self._dirty:
            self._dirty.discard(game_id)
            try:
                await self.publish(game_id)
            except Exception:
                log.exception("publishing game %s failed", game_id)
        self._tasks.pop(game_id, None)

    async def idle(self) -> None:
        """Wait until nothing is being published (used by tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    # ---- channel helpers -------------------------------------------------------------
    async def channel(self, channel_id: int) -> Messageable | None:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("channel %s is gone or hidden; cannot publish there", channel_id)
                return None
        return channel  # type: ignore[return-value]

    async def post(self, channel_id: int, content: str, **kwargs: Any) -> discord.Message | None:
        channel = await self.channel(channel_id)
        if channel is None:
            return None
        try:
            return await channel.send(content, **kwargs)
        except discord.Forbidden:
            log.warning("missing permission to post in channel %s (send messages / attach files)", channel_id)
        except discord.HTTPException as exc:
            log.warning("posting in channel %s failed: %s", channel_id, exc)
        return None

    # ---- the publish step ------------------------------------------------------------
    async def publish(self, game_id: int) -> None:
        session = await self.sessions.get(game_id)
        row = session.row
        game = session.game
        if game is None or row.status not in ("running", "finished"):
            return
        target_seq = row.seq
        if row.published_seq >= target_seq:
            return
        lang = row.lang
        actions = [a for a in await self.store.actions(game_id, row.published_seq) if a.seq <= target_seq]
        # publish exactly what is stored: never mark as published a sequence number we did not read
        target_seq = actions[-1].seq if actions else max(row.published_seq, 0)
        if target_seq <= row.published_seq:
            return
        lines: list[str] = []
        prompted: set[int] = set(game.actors()) if row.published_seq < 0 else set()
        private: dict[int, list[dict[str, Any]]] = defaultdict(list)
        skip: dict[int, int] = {}  # seat -> the user who just acted for it (already sees the new panel)
        for record in actions:
            for event in record.events:
                kind = event.get("type")
                if kind == "platform.timeout":
                    lines.append(t("notice.timeout", lang, name=session.seat_name(event["seat"])))
                elif kind == "platform.prompt":
                    seats = set(event.get("seats", []))
                    for seat in seats:
                        skip.pop(seat, None)
                    if event.get("skip_user") is not None:
                        skip.update({seat: event["skip_user"] for seat in seats})
                    prompted |= seats
                elif "to" in event:
                    for seat in event["to"]:
                        private[seat].append(event)
                else:
                    text = game.event_text(event, lang)
                    if text:
                        lines.append(text)
        finished = row.status == "finished" or session.outcome() is not None
        actors = [] if finished else [s for s in game.actors() if s not in session.conceded]
        prompted &= set(actors)
        ping_users = sorted({u for s in prompted for u in (row.seat_users or [])[s]})

        status = self.status_line(session, lang, actors)
        previous = await self.store.get_message(game_id, "turn")
        new_post = bool(prompted) or finished or previous is None
        log_lines = lines if new_post else (previous[2].get("lines", []) if previous else []) + lines
        log_lines = log_lines[-MAX_LOG_LINES:]
        content = clip_lines(log_lines + ["", status] if log_lines else [status])
        png = await render_png(session, lang)
        view = None if finished else inert(channel_view(game_id, lang))
        edited = False
        if not new_post and previous is not None:
            channel_id, message_id, _ = previous
            try:
                channel = await self.channel(channel_id)
                if channel is not None:
                    partial = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
                    await partial.edit(content=content, attachments=[board_file(session, png)], view=view,
                                       allowed_mentions=mentions([]))
                    await self.store.set_message(game_id, "turn", channel_id, message_id, {"lines": log_lines})
                    edited = True
            except discord.HTTPException as exc:
                log.warning("editing the turn message of game %s failed (%s); posting anew", game_id, exc)
        if not edited:
            message = await self.post(row.channel_id, content, file=board_file(session, png), view=view,
                                      allowed_mentions=mentions(ping_users))
            if message is not None:
                await self.store.set_message(game_id, "turn", row.channel_id, message.id, {"lines": log_lines})
        # DMs before the mark: a crash in between repeats a post rather than losing a prompt
        await self.send_private(session, prompted, private, skip)
        await self.store.mark_published(game_id, target_seq)
        row.published_seq = max(row.published_seq, target_seq)

    def status_line(self, session: Session, lang: str, actors: list[int]) -> str:
        game = session.game
        assert game is not None
        extra = game.status_lines(lang)
        if session.row.status == "finished" or session.outcome() is not None:
            return "\n".join([*extra, "🏁 " + result_line(session, lang)])
        who = ", ".join(
            " ".join(f"<@{u}>" for u in (session.row.seat_users or [])[s]) + f" ({game.side_name(game.side_of(s), lang)})"
            for s in actors
        )
        deadline = ""
        dues = [session.deadlines[s][0] for s in actors if s in session.deadlines]
        if dues:
            deadline = " " + t("status.deadline", lang, ts=int(min(dues)))
        return "\n".join([*extra, t("status.turn", lang, who=who) + deadline])

    # ---- private delivery ------------------------------------------------------------
    async def send_private(self, session: Session, prompted: set[int],
                           private: dict[int, list[dict[str, Any]]], skip: dict[int, int] | None = None) -> None:
        game = session.game
        assert game is not None
        seats = sorted(prompted | set(private))
        for seat in seats:
            for user_id in (session.row.seat_users or [])[seat]:
                if skip and skip.get(seat) == user_id and not private.get(seat):
                    continue
                lang = session.user_lang(user_id)
                notes = [txt for ev in private.get(seat, []) if (txt := game.event_text(ev, lang))]
                if seat in prompted:
                    content, view = build_panel(session, seat, lang, note="\n".join(notes) or None)
                elif notes:
                    content, view = "\n".join(notes), None
                else:
                    continue
                await self.dm(session, user_id, content, inert(view))

    async def dm(self, session: Session, user_id: int, content: str, view: discord.ui.View | None) -> bool:
        if user_id in self.dm_closed:
            await self.dm_closed_notice(session, user_id)
            return False
        try:
            channel = self._dm_channels.get(user_id)
            if channel is None:
                channel = await self.client.create_dm(discord.Object(user_id))  # type: ignore[arg-type]
                self._dm_channels[user_id] = channel
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            message = await channel.send(content, **kwargs)
            if view is not None and view.children:
                await self.retire_previous_panel(session, user_id, channel, message.id)
            return True
        except discord.Forbidden as exc:
            if exc.code == 50007:
                self.dm_closed.add(user_id)
                await self.store.mark_dm_closed(user_id)
                await self.dm_closed_notice(session, user_id)
            else:
                log.warning("DM to user %s refused: %s", user_id, exc)
        except discord.HTTPException as exc:
            log.warning("DM to user %s failed: %s", user_id, exc)
        return False

    async def retire_previous_panel(self, session: Session, user_id: int, channel: Any, message_id: int) -> None:
        """Strip the controls from the user's previous DM panel of this game.

        Over a game of days the DMs pile up panels; only the newest should look actionable (an
        older one would only answer "no longer available").
        """
        purpose = f"panel:{user_id}"
        previous = await self.store.get_message(session.id, purpose)
        await self.store.set_message(session.id, purpose, getattr(channel, "id", 0), message_id)
        if previous is None or previous[1] == message_id:
            return
        try:
            await channel.get_partial_message(previous[1]).edit(view=None)
        except discord.HTTPException as exc:
            log.info("could not retire an old panel of game %s: %s", session.id, exc)

    async def dm_closed_notice(self, session: Session, user_id: int) -> None:
        """Tell the channel (once per game and user, never the content) to use /game hand."""
        key = (session.id, user_id)
        if key in self._notified:
            return
        self._notified.add(key)
        if await self.store.get_message(session.id, f"dmnotice:{user_id}") is not None:
            return
        message = await self.post(
            session.row.channel_id, t("notice.dm_closed", session.row.lang, user=f"<@{user_id}>"),
            allowed_mentions=mentions([user_id]),
        )
        await self.store.set_message(session.id, f"dmnotice:{user_id}", session.row.channel_id,
                                     message.id if message else 0)

    async def remind(self, game_id: int, seat: int) -> None:
        session = await self.sessions.get(game_id)
        if session.row.status != "running" or seat not in session.deadlines:
            return
        users = (session.row.seat_users or [])[seat]
        due = int(session.deadlines[seat][0])
        await self.post(
            session.row.channel_id,
            t("notice.reminder", session.row.lang, who=" ".join(f"<@{u}>" for u in users), ts=due),
            allowed_mentions=mentions(list(users)),
        )

