"""A game that lasts a week (issue 12), the Discord-facing half: reminders, the paused clock,
catch-up notes, followers' DMs, votes to end together and the rows of ``/mygames``.

The decisions are pure functions elsewhere (:mod:`bot.core.reminders`, :mod:`bot.core.votes`,
:mod:`bot.core.catchup`); this module applies them to sessions, the store and Discord. Everything that
must survive a restart is stored: the next reminder time in the deadline row, the paused clock and
a vote in progress in the game's settings (``extra``), followers and DM choices in their tables.
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.core import catchup, reminders, votes
from bot.core.i18n import t
from bot.core.sessions import Session, SessionError, SessionManager
from bot.core.store import Deadline, GameRow, SeatTimer, Shards, Store
from bot.discord_app import limits

if TYPE_CHECKING:
    from bot.discord_app.delivery import Publisher

log = logging.getLogger(__name__)


def nonce(*parts: object) -> str:
    """A deterministic message nonce (Discord allows 25 characters): the same announcement sent twice
    within Discord's dedup window yields one message (the publisher's posts and these DMs alike)."""
    return hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=12).hexdigest()[:25]


PAUSED_KEY = "paused_at"
PAUSED_TOTAL_KEY = "paused_total"
"""Seconds the clock stood still in the game's earlier pauses (settings ``extra``)."""


# ---- the paused clock ---------------------------------------------------------------------
def paused_since(row: GameRow) -> float | None:
    value = row.settings.extra.get(PAUSED_KEY)
    return float(value) if isinstance(value, (int, float)) else None


def is_paused(sessions: SessionManager, game_id: int) -> bool:
    """From the in-memory index (its settings are loaded at start): no query per tick."""
    session = sessions.sessions.get(game_id)
    return session is not None and paused_since(session.row) is not None


def span_of(session: Session) -> float:
    """Seconds a seat has per decision now (a decision's own forced timeout first)."""
    forced = session.game.forced_timeout() if session.game is not None else None
    return float(forced or session.row.settings.deadline_s or 0)


async def _running(sessions: SessionManager, game_id: int) -> Session:
    session = await sessions.get(game_id)
    if session.broken is not None:
        raise SessionError("err.game_broken", id=session.id)
    if session.row.status != "running" or session.game is None:
        raise SessionError("err.not_running")
    return session


def paused_total(row: GameRow) -> float:
    """Seconds the game's clock has stood still in earlier pauses (the current one not counted)."""
    value = row.settings.extra.get(PAUSED_TOTAL_KEY)
    return float(value) if isinstance(value, (int, float)) else 0.0


def pause_left(row: GameRow, limit: float, now: float) -> float:
    """Seconds of pause the game still has (issue 23: a game stands still at most ``limit`` seconds
    in all; after that its clock runs, and only a passed ``end`` vote stops it for good)."""
    since = paused_since(row)
    used = paused_total(row) + (max(0.0, now - since) if since is not None else 0.0)
    return limit - used


async def pause(sessions: SessionManager, game_id: int, user_id: int, now: float) -> Session:
    """Stop the game's clock: no reminder or deadline fires until :func:`resume` (or until the
    game's pause allowance, ``sessions.limits.pause_s`` in all, is used up: see :func:`tick`)."""
    session = await _running(sessions, game_id)
    async with session.lock, sessions.changing(session):
        if paused_since(session.row) is not None:
            raise SessionError("lifecycle.err.already_paused")
        if pause_left(session.row, sessions.limits.pause_s, now) <= 0:
            raise SessionError("lifecycle.err.pause_used",
                               days=max(1, round(sessions.limits.pause_s / 86400)))
        session.row.settings.extra[PAUSED_KEY] = round(now, 3)
        session.row.settings.extra["paused_by"] = user_id
        await sessions.store.save_settings(game_id, session.row.settings)
    sessions.changed(session)
    return session


async def resume(sessions: SessionManager, game_id: int, now: float) -> float:
    """Start the clock again: every deadline gets back the time it was paused (see
    :func:`bot.core.reminders.resumed`). Returns the seconds the clock stood still."""
    session = await _running(sessions, game_id)
    async with session.lock, sessions.changing(session):
        since = paused_since(session.row)
        if since is None:
            raise SessionError("lifecycle.err.not_paused")
        span = span_of(session)
        moved = {seat: SeatTimer(*reminders.resumed(reminders.Timer(*timer), span, since, now))
                 for seat, timer in session.deadlines.items()}
        extra = session.row.settings.extra
        extra.pop(PAUSED_KEY, None)
        extra.pop("paused_by", None)
        extra[PAUSED_TOTAL_KEY] = round(paused_total(session.row) + max(0.0, now - since), 3)
        # the deadlines and the settings in one transaction: a refused write changes neither
        await sessions.store.save_settings(game_id, session.row.settings,
                                           deadlines=[Deadline(seat, due, remind)
                                                      for seat, (due, remind) in sorted(moved.items())],
                                           reclock=lambda d: Deadline(d.seat, *reminders.resumed(  # issue 27
                                               reminders.Timer(d.due_at, d.remind_at), span, since, now)))
        session.deadlines = moved
    sessions.changed(session)
    return max(0.0, now - since)


async def expire_pauses(sessions: SessionManager, publisher: Publisher, now: float) -> list[int]:
    """Paused games whose pause allowance is used up start their clock again, and their channel is
    told (in the game's language). Returns their ids."""
    done: list[int] = []
    limit = sessions.limits.pause_s
    for session in list(sessions.sessions.values()):
        row = session.row
        if row.status != "running" or session.broken is not None or paused_since(row) is None:
            continue
        if pause_left(row, limit, now) > 0:
            continue
        try:
            await resume(sessions, session.id, now)
        except SessionError:
            continue
        done.append(session.id)
        text = "▶️ " + t("lifecycle.notice.pause_over", row.lang, days=max(1, round(limit / 86400)))
        publisher._background(publisher.post(row.channel_id, text, allowed_mentions=_mentions([]),
                                             key=("pause_over", session.id, int(now))))
    return done


async def expire_lobbies(sessions: SessionManager, publisher: Publisher, now: float,
                         shards: Shards | None = None) -> list[int]:
    """Lobbies open longer than ``sessions.limits.lobby_ttl_s`` without starting are closed (they
    hold their channel), and the host is told in the channel, in the lobby's language."""
    ttl = sessions.limits.lobby_ttl_s
    if ttl <= 0:
        return []
    closed: list[int] = []
    for session in list(sessions.sessions.values()):
        row = session.row
        if row.status != "lobby" or row.created_at <= 0 or row.created_at + ttl > now:
            continue
        if shards is not None and not shards.has(row.guild_id):
            continue
        try:
            await sessions.abort(session.id)
        except SessionError:
            continue
        closed.append(session.id)
        log.info("game %s: lobby in channel %s expired after %.0f h without starting", row.id, row.channel_id,
                 ttl / 3600)
        text = "⌛ " + t("lifecycle.notice.lobby_expired", row.lang, host=f"<@{row.host_id}>",
                         game=t(f"{row.game}.name", row.lang), h=max(1, round(ttl / 3600)))
        publisher._background(publisher.post(row.channel_id, text, allowed_mentions=_mentions([row.host_id]),
                                             key=("lobby_expired", row.id)))
    return closed


# ---- reminders ----------------------------------------------------------------------------
async def fire_reminder(sessions: SessionManager, publisher: Publisher, game_id: int, seat: int,
                        now: float) -> str | None:
    """One reminder is due: store the next one first (so it fires once, even across a crash),
    then mention the seat's users in the channel and DM those who asked. Returns its kind."""
    store = sessions.store
    try:
        session = await sessions.get(game_id)
    except SessionError:
        await store.set_reminder(game_id, seat, None)
        return None
    async with session.lock:
        timer = session.deadlines.get(seat)
        if session.row.status != "running" or timer is None or timer.remind_at is None:
            await store.set_reminder(game_id, seat, None)
            return None
        if timer.remind_at > now:  # moved meanwhile (a move, a resume): not due after all
            return None
        span = span_of(session)
        kind = reminders.kind_of(timer.due_at, span, timer.remind_at)
        following = reminders.next_reminder(timer.due_at, span, timer.remind_at)
        await store.set_reminder(game_id, seat, following)
        session.deadlines[seat] = timer._replace(remind_at=following)
    await publisher.remind(game_id, seat, kind=kind)
    return kind


async def post_reminder(publisher: Publisher, session: Session, seat: int, kind: str) -> None:
    """Mention the seat's users in the channel, and DM those who asked for reminders by DM (in the
    background: the timer loop must not wait on a retrying post)."""
    users = list((session.row.seat_users or [])[seat])
    timer = session.deadlines.get(seat)
    if timer is None:
        return
    game_id, due = session.id, int(timer.due_at)
    # it speaks to this seat alone: its player's language (a team seat: the host's), issue 13
    lang = session.user_lang(users[0]) if len(users) == 1 else session.row.lang
    text = t(f"lifecycle.remind.{kind}", lang, who=" ".join(f"<@{u}>" for u in users), ts=due)
    publisher._background(publisher.post(
        session.row.channel_id, text, allowed_mentions=_mentions(users), key=("remind", game_id, seat, due, kind)))
    for user in await publisher.store.remind_dm(users):
        ulang = session.user_lang(user)
        dm_text = t(f"lifecycle.remind_dm.{kind}", ulang, game=t(f"{session.row.game}.name", ulang),
                    link=channel_link(session.row), ts=due)
        publisher._background(send_dm(publisher, user, dm_text, key=("remindm", game_id, seat, user, due, kind)))


async def tick(sessions: SessionManager, publisher: Publisher, now: float,
               expire: Callable[[int, int], Awaitable[Any]], shards: Shards | None = None) -> None:
    """The timer's work for one tick: due reminders, then due deadlines; a paused game is skipped.
    With ``shards``, only the games on those shards (the live ones: see :class:`bot.discord_app.app.Downtime`)."""
    store = sessions.store
    for work in (expire_pauses(sessions, publisher, now), expire_lobbies(sessions, publisher, now, shards)):
        try:
            await work
        except Exception:
            log.exception("expiring pauses or lobbies failed")
    for game_id, seat in await store.due_reminders(now, shards):
        if is_paused(sessions, game_id):
            continue
        try:
            await fire_reminder(sessions, publisher, game_id, seat, now)
        except Exception:
            log.exception("reminder of game %s seat %s failed", game_id, seat)
    for game_id, seat in await store.due_deadlines(now, shards):
        if is_paused(sessions, game_id):
            continue
        try:
            await expire(game_id, seat)
        except Exception:
            log.exception("deadline of game %s seat %s failed", game_id, seat)


# ---- DMs ---------------------------------------------------------------------------------
def _mentions(user_ids: list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in user_ids])


def channel_link(row: GameRow) -> str:
    if row.guild_id:
        return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
    return f"<#{row.channel_id}>"


async def send_dm(publisher: Publisher, user_id: int, content: str, *, key: tuple[object, ...],
                  file_png: tuple[str, bytes] | None = None) -> bool:
    """A plain DM (a reminder, a followed game's post) outside the game's panels: a closed DM is
    skipped quietly (the channel is not told, unlike a player's panel). ``file_png`` (name, bytes)
    is attached, re-wrapped for every attempt."""
    if user_id in publisher.dm_closed:
        return False
    try:
        channel = await publisher.call(f"opening a DM with user {user_id}",
                                       lambda: publisher.client.create_dm(discord.Object(user_id)))
        def attempt() -> Awaitable[Any]:
            extra: dict[str, Any] = {}
            if file_png is not None:
                extra["file"] = discord.File(io.BytesIO(file_png[1]), filename=file_png[0])
            return channel.send(content, nonce=nonce(*key), allowed_mentions=discord.AllowedMentions.none(), **extra)

        await publisher.call(f"DM to user {user_id}", attempt)
        return True
    except discord.HTTPException as exc:
        log.info("DM to user %s not delivered: %s", user_id, exc)
        return False


async def notify_followers(publisher: Publisher, session: Session, content: str, seq: int,
                           file_png: tuple[str, bytes] | None = None) -> None:
    """DM the game's followers the public post of this turn, with its board (never anything private)."""
    followers = await publisher.store.followers(session.id)
    if not followers:
        return
    players = {u for users in session.row.seat_users or [] for u in users}
    for user in followers:
        if user in players:
            continue
        if not await can_see(publisher.client, session.row, user):
            # issue 23: a follower who can no longer see the channel (left the server, lost the role,
            # the channel was made private) stops receiving its posts
            await publisher.store.set_following(session.id, user, False)
            log.info("game %s: follower %s can no longer see channel %s and is dropped", session.id, user,
                     session.row.channel_id)
            continue
        lang = session.user_lang(user)
        head = t("lifecycle.follow.head", lang, game=t(f"{session.row.game}.name", lang),
                 link=channel_link(session.row))
        text = limits.content(head + "\n" + content)
        publisher._background(send_dm(publisher, user, text, key=("follow", session.id, seq, user),
                                      file_png=file_png))


async def can_see(client: Any, row: GameRow, user_id: int) -> bool:
    """Whether ``user_id`` may still view the game's channel (a thread: its parent's permissions).
    True when it cannot be told (the channel is not in the cache, no guild), so nobody loses posts on
    a cache miss; False when the member left the server or lacks ``view_channel``."""
    get_channel = getattr(client, "get_channel", None)
    channel = get_channel(row.channel_id) if get_channel is not None else None
    guild = getattr(channel, "guild", None)
    if channel is None or guild is None:
        return True
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            return False  # no longer in the server
        except discord.HTTPException as exc:
            log.info("checking whether user %s sees channel %s failed: %s", user_id, row.channel_id, exc)
            return True
    perms = channel.permissions_for(member)
    if not perms.view_channel:
        return False
    if isinstance(channel, discord.Thread) and channel.is_private() and not perms.manage_threads:
        from bot.discord_app.visibility import (
            is_thread_member,  # a private thread is seen by its members only
        )

        return await is_thread_member(channel, user_id)
    return True


# ---- catch-up ------------------------------------------------------------------------------
async def catchup_note(store: Store, session: Session, seat: int, lang: str) -> str:
    """The summary of what others did since ``seat``'s last action (empty if nothing)."""
    game = session.game
    if game is None:
        return ""
    last = await store.last_seq_of_seat(session.id, seat)
    records = [catchup.Record(a.seat, a.events, a.action) for a in await store.actions(session.id, last)]
    summary = catchup.summarise(session.row.game, records, seat, game.side_of(seat))  # the reader's losses first
    return catchup.summary_text(summary, session.seat_name, lambda side: game.side_name(side, lang), lang)


# ---- ending together ------------------------------------------------------------------------
@dataclass
class VoteResult:
    session: Session
    kind: str
    yes: list[int]
    needed: list[int]
    passed: bool


async def vote(sessions: SessionManager, game_id: int, user_id: int, kind: str, now: float) -> VoteResult:
    """Cast a yes for ``kind`` (``draw`` or ``end``); when every remaining human player agrees the
    game ends at once: a draw, or no result."""
    session = await _running(sessions, game_id)
    async with session.lock:
        async with sessions.changing(session):
            passed, yes, eligible = await _cast(sessions, session, user_id, kind, now)
        sessions._drop_if_done(session)
    return VoteResult(session, kind, yes, sorted(eligible), passed)


async def _cast(sessions: SessionManager, session: Session, user_id: int, kind: str,
                now: float) -> tuple[bool, list[int], set[int]]:
    """The vote's change and its one write (caller: the lock and ``sessions.changing``)."""
    game_id = session.id
    row = session.row
    eligible = votes.voters(row.seat_users or [], session.conceded)
    try:
        passed = votes.cast(row.settings.extra, kind, user_id, eligible, row.seq, now)
    except votes.VoteRefused as exc:
        raise SessionError(exc.key) from exc
    yes = list(row.settings.extra["vote"]["yes"])
    if passed:
        outcome = votes.close_by_vote(row.settings.extra, kind, row.seat_users or [], yes, now)
        status = "finished" if outcome is not None else "aborted"
        row.settings.outcome = outcome
        await sessions.store.set_status(game_id, status, row.settings)
        row.status = status
    else:
        await sessions.store.save_settings(game_id, row.settings)
    return passed, yes, eligible


async def decline_vote(sessions: SessionManager, game_id: int, user_id: int, now: float) -> dict[str, Any]:
    session = await _running(sessions, game_id)
    async with session.lock, sessions.changing(session):
        row = session.row
        eligible = votes.voters(row.seat_users or [], session.conceded)
        try:
            closed = votes.decline(row.settings.extra, user_id, eligible, row.seq, now)
        except votes.VoteRefused as exc:
            raise SessionError(exc.key) from exc
        await sessions.store.save_settings(game_id, row.settings)
    return closed


# ---- /mygames --------------------------------------------------------------------------------
@dataclass
class MyGame:
    row: GameRow
    my_turn: bool
    to_act: list[int]
    """Seats that must act now."""
    due: float | None
    names: list[str]
    """Names of the seats that must act."""
    paused: bool


def order(games: list[MyGame]) -> list[MyGame]:
    """The caller's turn first; then the soonest deadline; games without one after; oldest first."""
    return sorted(games, key=lambda g: (not g.my_turn, g.due is None, g.due or 0.0, g.row.id))


async def my_games(sessions: SessionManager, user_id: int) -> list[MyGame]:
    """The caller's unfinished games across servers, in :func:`order`."""
    out: list[MyGame] = []
    for row in await sessions.store.games_of_user(user_id):
        if row.status != "running":
            out.append(MyGame(row, False, [], None, [], False))
            continue
        try:
            session = await sessions.get(row.id)
        except SessionError:
            continue
        game = session.game
        if game is None:
            continue
        actors = [s for s in game.actors() if s not in session.conceded]
        mine = set(session.seats_of(user_id))
        dues = [session.deadlines[s].due_at for s in actors if s in session.deadlines]
        out.append(MyGame(session.row, bool(mine & set(actors)), actors, min(dues) if dues else None,
                          [session.seat_name(s) for s in actors], paused_since(session.row) is not None))
    return order(out)

