"""A game that lasts a week (issue 12), the Discord-facing half: reminders, the paused clock,
catch-up notes, followers' DMs, votes to end together and the rows of ``/mygames``.

The decisions are pure functions elsewhere (:mod:`bot.reminders`, :mod:`bot.votes`,
:mod:`bot.catchup`); this module applies them to sessions, the store and Discord. Everything that
must survive a restart is stored: the next reminder time in the deadline row, the paused clock and
a vote in progress in the game's settings (``extra``), followers and DM choices in their tables.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import catchup, limits, reminders, votes
from bot.i18n import t
from bot.sessions import Session, SessionError, SessionManager
from bot.store import Deadline, GameRow, SeatTimer, Shards, Store

if TYPE_CHECKING:
    from bot.delivery import Publisher

log = logging.getLogger(__name__)

PAUSED_KEY = "paused_at"


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


async def pause(sessions: SessionManager, game_id: int, user_id: int, now: float) -> Session:
    """Stop the game's clock: no reminder or deadline fires until :func:`resume`."""
    session = await _running(sessions, game_id)
    async with session.lock:
        if paused_since(session.row) is not None:
            raise SessionError("lifecycle.err.already_paused")
        session.row.settings.extra[PAUSED_KEY] = round(now, 3)
        session.row.settings.extra["paused_by"] = user_id
        await sessions.store.save_settings(game_id, session.row.settings)
    return session


async def resume(sessions: SessionManager, game_id: int, now: float) -> float:
    """Start the clock again: every deadline gets back the time it was paused (see
    :func:`bot.reminders.resumed`). Returns the seconds the clock stood still."""
    session = await _running(sessions, game_id)
    async with session.lock:
        since = paused_since(session.row)
        if since is None:
            raise SessionError("lifecycle.err.not_paused")
        span = span_of(session)
        moved = {seat: SeatTimer(*reminders.resumed(reminders.Timer(*timer), span, since, now))
                 for seat, timer in session.deadlines.items()}
        await sessions.store.commit_deadlines(
            game_id, [Deadline(seat, due, remind) for seat, (due, remind) in sorted(moved.items())])
        session.deadlines = moved
        session.row.settings.extra.pop(PAUSED_KEY, None)
        session.row.settings.extra.pop("paused_by", None)
        await sessions.store.save_settings(game_id, session.row.settings)
    return max(0.0, now - since)


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
    With ``shards``, only the games on those shards (the live ones: see :class:`bot.app.Downtime`)."""
    store = sessions.store
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
    from bot.delivery import nonce

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
        lang = session.user_lang(user)
        head = t("lifecycle.follow.head", lang, game=t(f"{session.row.game}.name", lang),
                 link=channel_link(session.row))
        text = limits.content(head + "\n" + content)
        publisher._background(send_dm(publisher, user, text, key=("follow", session.id, seq, user),
                                      file_png=file_png))


# ---- catch-up ------------------------------------------------------------------------------
async def catchup_note(store: Store, session: Session, seat: int, lang: str) -> str:
    """The summary of what others did since ``seat``'s last action (empty if nothing)."""
    game = session.game
    if game is None:
        return ""
    last = await store.last_seq_of_seat(session.id, seat)
    records = [catchup.Record(a.seat, a.events) for a in await store.actions(session.id, last)]
    summary = catchup.summarise(session.row.game, records, seat)
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
            sessions._drop_if_done(session)
        else:
            await sessions.store.save_settings(game_id, row.settings)
    return VoteResult(session, kind, yes, sorted(eligible), passed)


async def decline_vote(sessions: SessionManager, game_id: int, user_id: int, now: float) -> dict[str, Any]:
    session = await _running(sessions, game_id)
    async with session.lock:
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

