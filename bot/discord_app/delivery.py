"""Publishing committed game changes to Discord: channel posts, DMs with fallback, reminders.

Publishing is driven only by what is committed: ``request(game_id)`` marks a game dirty and a
per-game task posts every action after ``published_seq`` (read back from the database), then
advances ``published_seq``. Bursts coalesce into one post, posts of one game never interleave,
and a crash between commit and post is healed on restart by requesting every game whose
``published_seq`` lags behind its ``seq``.

Nothing announced is lost: every Discord call goes through ``Publisher.call``, which retries a 5xx,
a 429 without retry information, a network error or a timed-out attempt with exponential backoff
and jitter until Discord accepts it (a 403, 404 or other 4xx is final and gets its fallback once).
Each game retries in its own task, so one game waiting on Discord never holds up another; a
per-channel lock keeps a later post from overtaking an earlier one in the same channel. The steps
of one publish are checkpointed (the turn message row carries the sequence number it announced,
an ``outbox`` row the users already DMed), so a restart resumes where it stopped instead of
repeating a post; message posts carry a nonce Discord uses to drop a duplicate of a post whose
answer was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import math
import os
import random
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord

from bot.core import bots
from bot.core.cluster import Cluster, publish_lease
from bot.core.i18n import has, t
from bot.core.sessions import Session, SessionManager
from bot.core.store import Store, StoredMessage
from bot.discord_app import boards, lifecycle, limits
from bot.discord_app.discordhttp import OWN_RETRIES, Postponed
from bot.discord_app.lifecycle import nonce
from bot.discord_app.livepanels import LivePanels
from bot.discord_app.panels import (
    PRIVATE_ROOM,
    build_panel,
    channel_view,
    has_controls,
    jump_url,
    offer_undo,
    private_notes_fit,
)
from bot.games import registry
from bot.games.registry import renderer

if TYPE_CHECKING:
    from discord.abc import Messageable

log = logging.getLogger(__name__)

MAX_LOG_LINES = 14
PUBLISH_INTERVAL = 4.0
BOARD_INTERVALS = 3
"""Within a turn the board is uploaded at most once per this many publish intervals."""
"""Seconds between two channel updates (edit and board upload) within one turn (``PUBLISH_INTERVAL``)."""
MAX_CONTENT = 1900
PANEL_NOTE = 1200  # private news up to this size rides in the panel's DM; longer news goes before it
ANNOUNCE_BUDGET = 8.0
"""Seconds one request on the path of a turn's announcement (its channel post, the next actor's DM)
may take, attempts and retries together: past it the publish is postponed and tried again later from
the outbox (the same nonces), and nothing behind it waits. Discord refusing that very post is the
only thing that delays an announcement."""
HOUSEKEEPING_BUDGET = 60.0
"""Seconds a cosmetic request (stripping an old panel, refreshing a DM panel, a late board) may
take: these run in the background, beside the announcements, never before them."""
LINK_WAIT = 5.0
"""Seconds the DMs of a publish wait for its channel post (the DM panel links to it, and a player
reads the news before the panel) before they go without the link: a refused post must not hold the
next actor's DM for long."""
RETRY_LATER_MAX = 30.0
"""Longest wait before a postponed publish or an owed DM is tried again (doubling from one second)."""
# Test-only fault hook: a file holding a number N makes the next N board renders raise.
RENDER_FAULT_ENV = "TABLETOP_TEST_RENDER_FAULTS"

T = TypeVar("T")


END = "end"
"""The ``messages`` row of a game's final post (the end announcement: every player mentioned)."""
END_DUE = "enddue"
"""The ``messages`` row of a game whose end announcement (final post, result DMs) is not done yet."""


def result_purpose(user_id: int) -> str:
    """The ``messages`` row saying the result DM of a game went (or is owed) to ``user_id``: once each."""
    return f"result:{user_id}"


def owed_purpose(user_id: int) -> str:
    """The ``messages`` row of a game's DMs to ``user_id`` that Discord has not taken yet."""
    return f"owed:{user_id}"


@dataclass
class Outbox:
    """The checkpoint of one publish (the ``outbox`` row): the sequence number it announces, the
    (seat, user) pairs already DMed, and whether the channel side posts anew or edits. Written whole,
    so the channel side and the DMs, which run side by side, never drop each other's part."""

    store: Store
    game_id: int
    seq: int
    sent: set[tuple[int, int]]
    mode: str | None = None

    async def save(self) -> None:
        await self.store.set_message(self.game_id, "outbox", 0, 0,
                                     {"seq": self.seq, "sent": sorted(map(list, self.sent)), "mode": self.mode})


def transient(exc: BaseException) -> bool:
    """Worth retrying: Discord had a problem (5xx, a 429 discord.py gave up on), or the network did."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (aiohttp.ClientError, OSError, asyncio.TimeoutError))


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
    return limits.tail_lines(lines, limit)


def compose(log_lines: list[str], status: str) -> str:
    """A turn post: the news of this turn, a blank line, whose turn it is."""
    return clip_lines(log_lines + ["", status] if log_lines else [status])


def fits(log_lines: list[str], status: str) -> bool:
    text = "\n".join(log_lines + ["", status]) if log_lines else status
    return len(log_lines) <= MAX_LOG_LINES and limits.size(text) <= MAX_CONTENT


def split_tail(lines: list[str], status: str) -> tuple[list[str], list[str]]:
    """(older lines that do not fit, the newest lines that fit one turn post with its status)."""
    keep = min(len(lines), MAX_LOG_LINES)  # more never fits: linear in the lines, however many (a backlog)
    while keep > 0 and not fits(lines[-keep:], status):
        keep -= 1
    return lines[:len(lines) - keep], lines[len(lines) - keep:]


def chunk_lines(lines: list[str], limit: int = MAX_CONTENT) -> list[str]:
    """Lines grouped into posts of at most ``limit`` (a single longer line is shortened)."""
    chunks: list[str] = []
    current: list[str] = []
    used = 0  # the size of "\n".join(current), kept as lines are added (UTF-16 sizes add up)
    for line in lines:
        line = limits.shorten(line, limit)
        width = limits.size(line)
        if current and used + 1 + width > limit:
            chunks.append("\n".join(current))
            current, used = [], 0
        used += width + (1 if current else 0)
        current.append(line)
    if current:
        chunks.append("\n".join(current))
    return chunks


def reason_pattern(game: str) -> str:
    """Where a game's own ending reasons are worded: its manifest's ``reason_key`` (else
    ``end.reason.<game>.<reason>``)."""
    manifest = registry.GAMES.get(game)
    return manifest.reason_pattern() if manifest is not None else f"end.reason.{game}.{{}}"


def _user_names(session: Session, users: list[int]) -> str:
    from bot.core.parse import escape  # noqa: PLC0415

    return ", ".join(escape(session.user_name(u)) for u in dict.fromkeys(users))


def end_reason(session: Session, lang: str) -> str:
    """Why the game ended (issue 25): its own rules (a line, a score goal, a conquest, influence...),
    a vote, a resignation, a player dropped after missed deadlines, an abort."""
    row = session.row
    extra = row.settings.extra
    ending = extra.get("ending")
    departures = [d for d in extra.get("departures") or [] if isinstance(d, dict)]

    def who(how: str) -> list[int]:
        return [d["user"] for d in departures if d.get("how") == how and isinstance(d.get("user"), int)]

    if ending == "aborted" or (row.status == "aborted" and ending is None):
        by = who("aborted")
        return t("end.reason.aborted", lang, who=_user_names(session, by)) if by else t("end.reason.platform", lang)
    if ending in ("voted_draw", "voted_end"):
        return t(f"end.reason.{ending}", lang)
    outcome: Mapping[str, Any] = session.outcome() or {}
    if ending == "conceded" or outcome.get("conceded"):
        parts = [t(f"end.reason.{how}", lang, names=_user_names(session, users))
                 for how in ("conceded", "dropped") if (users := who(how))]
        return "; ".join(parts) or t("end.reason.rules", lang)
    raw = outcome.get("reasons") or ([outcome["reason"]] if outcome.get("reason") else [])
    pattern = reason_pattern(row.game)
    texts = [t(pattern.format(r), lang) for r in raw if isinstance(r, str) and has(pattern.format(r))]
    return "; ".join(texts) or t("end.reason.rules", lang)


def result_line(session: Session, lang: str) -> str:
    """The result and why the game ended, e.g. "Winner: alice! How it ended: bob resigned."."""
    outcome = session.outcome()
    game = session.game
    if session.row.status == "aborted" or outcome is None:
        head = t("end.no_result", lang)
    elif outcome.get("draw") or not outcome.get("winners"):
        head = t("result.draw", lang)
    else:
        winners = set(outcome.get("winners", []))
        seats = range(len(session.row.seat_users or []))
        names = [session.seat_name(s) for s in seats if game is not None and game.side_of(s) in winners]
        head = t("result.win", lang, names=", ".join(names))
    return head + " " + t("end.why", lang, reason=end_reason(session, lang))


def player_users(session: Session) -> list[int]:
    """Every human who played the game: its seats' users and those who left a team seat."""
    row = session.row
    users = [u for seat in row.seat_users or [] for u in seat]
    users += [d["user"] for d in row.settings.extra.get("departures") or []
              if isinstance(d, dict) and isinstance(d.get("user"), int) and d.get("seat") is not None]
    return sorted({u for u in users if not bots.is_bot(u)})


def rating_text(value: float) -> str:
    return f"{value:.1f}"


def signed(delta: float) -> str:
    """+1.2, −0.8 (a real minus sign), ±0.0 for no change (never "−0.0")."""
    shown = round(delta, 1)
    if shown == 0:
        return "±0.0"
    return f"+{shown:.1f}" if shown > 0 else f"\u2212{-shown:.1f}"


def injected_render_fault() -> bool:
    """Consume one injected render failure (end-to-end tests only; inert unless the env var is set)."""
    path = os.environ.get(RENDER_FAULT_ENV)
    if not path:
        return False
    try:
        left = int(Path(path).read_text().strip() or 0)
    except (OSError, ValueError):
        return False
    if left <= 0:
        return False
    Path(path).write_text(str(left - 1))
    return True


async def render_png(session: Session, lang: str) -> bytes:
    """Render the public view off the event loop (one big board must not stall other games), in a
    render process (``bot.core.drawing``: the bot's own memory stays lean; a thread when there is none)."""
    from bot.core import drawing

    if injected_render_fault():
        raise RuntimeError("injected render fault (test hook)")
    view = json.loads(json.dumps(session.public_view()))
    return await drawing.draw(renderer(session.row.game), view, lang)


def board_file(session: Session, png: bytes) -> discord.File:
    """A fresh upload of ``png`` (a File is consumed by one request)."""
    return discord.File(io.BytesIO(png), filename=f"{session.row.game}-{session.id}-{session.row.seq}.png")


async def render_board(session: Session, lang: str) -> discord.File:
    return board_file(session, await render_png(session, lang))


class Publisher:
    # backoff of a refused call: base * 2**n seconds with jitter, capped; each attempt bounded
    retry_base = 0.25
    retry_cap = 15.0
    attempt_timeout = 20.0

    def __init__(self, client: discord.Client, sessions: SessionManager, store: Store) -> None:
        self.client = client
        self.sessions = sessions
        self.store = store
        self.dm_closed: set[int] = set()
        self._dm_channels: limits.Lru[int, discord.abc.Messageable] = limits.Lru(limits.DM_CHANNELS)
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._side: set[asyncio.Task[Any]] = set()
        self._notified: limits.Lru[tuple[int, int], None] = limits.Lru(limits.NOTICES)
        self._channel_locks: dict[int, tuple[asyncio.Lock, int]] = {}  # lock, holders + waiters
        self._wake: asyncio.Future[None] | None = None
        self._sleepers = 0
        self.panels = LivePanels(self)
        # coalescing: within one player's turn the channel post is edited (and the board uploaded) at
        # most once per ``publish_interval`` seconds; a change of who must act publishes at once
        self.publish_interval = PUBLISH_INTERVAL
        self.clock: Callable[[], float] = time.monotonic
        self._last: limits.Lru[int, tuple[float, tuple[Any, ...]]] = limits.Lru(limits.NOTICES)  # game -> (when,
        # whose turn) last published; bounded: a game dropped from it only coalesces its next post less
        self._nudge: dict[int, asyncio.Event] = {}
        self.holding: set[int] = set()
        self.reuse_board = True  # an edit leaves an identical board as it is (False: re-upload, as before)
        self._board_at: limits.Lru[int, float] = limits.Lru(limits.NOTICES)  # game -> last board upload
        self._owed: set[int] = set()  # games whose post shows an older board than its text
        self.cluster: Cluster | None = None
        """On a shared store (PostgreSQL): the leases that make this the one process publishing a game."""
        self._polled: dict[int, tuple[float, float]] = {}  # game -> (next poll request, its spacing)
        self._later: dict[int, tuple[int, asyncio.TimerHandle | None]] = {}  # postponed: (failures, retry)
        self._owed_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}  # (game, user) -> DM retrier
        self._stopping = False  # shutdown began (:meth:`stop_owed`): no retrier starts another step
        self.announce_budget = ANNOUNCE_BUDGET
        self.housekeeping_budget = HOUSEKEEPING_BUDGET
        self.ratings: Callable[[int], Awaitable[list[dict[str, Any]]]] | None = None
        """The recorded per-player rows of an ended game (``Stats.player_rows``: rating before/after)."""
        self._ending: set[int] = set()  # games whose end announcement is running
        add_listener = getattr(client, "add_listener", None)
        if add_listener is not None:  # a reconnect means Discord is back: retry now, not after the backoff
            for event in ("on_resumed", "on_ready"):
                add_listener(self._on_reconnect, event)

    async def load(self) -> None:
        self.dm_closed = await self.store.dm_closed_users()
        if self.store.shared and self.cluster is None:
            self.cluster = Cluster(self.store)
            self.cluster.on_changed = self._changed_elsewhere
            self.cluster.on_poll = self.poll_unpublished
            await self.cluster.start()

    def _ready(self) -> bool:
        """Connected and not closing (a poll during shutdown would start publishes the store cannot finish)."""
        is_closed = getattr(self.client, "is_closed", None)
        if callable(is_closed) and is_closed():
            return False
        is_ready = getattr(self.client, "is_ready", None)
        return bool(is_ready()) if callable(is_ready) else True

    def _changed_elsewhere(self, game_id: int) -> None:
        """A notification: some process committed a move of ``game_id`` (before the gateway is ready
        the start-up re-publish and the poll pick it up)."""
        if self._ready():
            self.request(game_id)

    async def poll_unpublished(self) -> None:
        """Request every game with moves not yet announced (the fallback when a notification was
        lost, or the process that held a game's lease died). A game this process already tried is
        asked again at growing intervals (3 s doubling to a minute), so one that cannot be published
        does not fill the log."""
        if not self._ready():
            return
        now = self.clock()
        waiting = set(await self.store.unpublished_games())
        for game_id in list(self._polled):
            if game_id not in waiting:
                del self._polled[game_id]
        for game_id in sorted(waiting):
            task = self._tasks.get(game_id)
            session = self.sessions.sessions.get(game_id)
            if (task is not None and not task.done()) or (session is not None and session.broken is not None):
                continue
            due, spacing = self._polled.get(game_id, (now, 0.0))
            if due > now:
                continue
            spacing = min(60.0, max(3.0, spacing * 2))
            self._polled[game_id] = (now + spacing, spacing)
            self.request(game_id)

    # ---- retrying ----------------------------------------------------------------------
    async def _on_reconnect(self) -> None:
        self.wake()

    def wake(self) -> None:
        """Cut every backoff sleep short (Discord answered again, or the gateway came back); postponed
        publishes are tried now."""
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)
        self._wake = None
        for game_id, (_, handle) in list(self._later.items()):
            if handle is not None:
                handle.cancel()
                self._retry_due(game_id)

    def backoff(self, failures: int) -> float:
        delay = min(self.retry_cap, self.retry_base * 2 ** min(failures - 1, 16))
        return random.uniform(delay / 2, delay)

    async def _pause(self, delay: float) -> None:
        if self._wake is None:
            self._wake = asyncio.get_running_loop().create_future()
        wake = self._wake
        self._sleepers += 1
        try:
            await asyncio.wait({wake}, timeout=delay)
        finally:
            self._sleepers -= 1
        if wake.done():  # woken: spread the retries of many games a little
            await asyncio.sleep(random.uniform(0, min(delay, 0.3)))

    async def call(self, what: str, factory: Callable[[], Awaitable[T]], *, attempts: int | None = None,
                   budget: float | None = None) -> T:
        """Await ``factory()`` until Discord accepts it: transient failures are retried with backoff
        (forever unless ``attempts`` is given), anything else is raised to the caller at once.

        ``budget``: seconds for all attempts together; when the next retry would start past it,
        :class:`Postponed` is raised. Inside this call discord.py does not retry a 5xx by itself
        (``bot.discord_app.discordhttp``): this schedule, not its 25 s one, decides."""
        failures = 0
        loop = asyncio.get_running_loop()
        ends = None if budget is None else loop.time() + budget
        while True:
            timeout = self.attempt_timeout if ends is None else max(0.05, min(self.attempt_timeout,
                                                                              ends - loop.time()))
            own = OWN_RETRIES.set(True)
            try:
                result = await asyncio.wait_for(factory(), timeout)
            except Exception as exc:
                error: Exception | None = exc
            else:
                error = None
            finally:
                # only around the attempt, not the pause after it: a call still pausing when its task is
                # dropped (its loop closed) is closed later, from whatever context is current, where this
                # token is not valid (CI saw that ValueError, and CPython 3.11's AST compiler, which the
                # collection interrupted, raise a SystemError in another test)
                with contextlib.suppress(ValueError):
                    OWN_RETRIES.reset(own)
            if error is None:
                if failures:
                    log.info("%s went through after %d retries", what, failures)
                if self._sleepers:
                    self.wake()
                return result
            if not transient(error):
                raise error
            failures += 1
            if attempts is not None and failures >= attempts:
                raise error
            delay = self.backoff(failures)
            if budget is not None:  # several quick tries within the budget rather than one long wait
                delay = min(delay, budget / 4)
            if ends is not None and loop.time() + delay >= ends:
                log.warning("%s failed (%s: %s) %d times within its %.0f s budget; postponed", what,
                            type(error).__name__, error, failures, budget)
                raise Postponed(what, error) from error
            log.log(logging.WARNING if failures == 1 else logging.INFO,
                    "%s failed (%s: %s); retry %d in %.2f s", what, type(error).__name__, error, failures, delay)
            await self._pause(delay)

    @asynccontextmanager
    async def channel_turn(self, channel_id: int) -> AsyncIterator[None]:
        """Serialise posts per channel (FIFO), so a retried post is never overtaken in its channel."""
        lock, users = self._channel_locks.get(channel_id, (asyncio.Lock(), 0))
        self._channel_locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._channel_locks[channel_id]
            if users > 1:
                self._channel_locks[channel_id] = (lock, users - 1)
            else:  # nobody waits: drop it (one lock per channel ever used would only grow)
                del self._channel_locks[channel_id]

    # ---- scheduling ------------------------------------------------------------------
    def request(self, game_id: int) -> None:
        self._dirty.add(game_id)
        nudge = self._nudge.get(game_id)
        if nudge is not None:  # a holding publish looks again: the turn may have passed
            nudge.set()
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def _run(self, game_id: int) -> None:
        lease = publish_lease(game_id)
        while game_id in self._dirty or game_id in self._owed:
            # several processes: only the holder of the game's lease publishes it (the others leave it)
            if self.cluster is not None and not await self.cluster.claim(lease):
                self._dirty.discard(game_id)
                self._owed.discard(game_id)
                break
            try:
                await self._hold(game_id)
            except Exception:
                log.exception("coalescing the posts of game %s failed", game_id)
            try:
                if game_id in self._dirty:
                    self._dirty.discard(game_id)
                    await self.publish(game_id)
                    self._later.pop(game_id, None)
                else:
                    await self.refresh_board(game_id)
            except Postponed as exc:
                self._retry_later(game_id, str(exc))
            except Exception:
                log.exception("publishing game %s failed", game_id)
            if self.cluster is not None and not (game_id in self._dirty or game_id in self._owed):
                await self.cluster.release(lease)  # a change meanwhile loops (and claims) again
        self._tasks.pop(game_id, None)
        self._nudge.pop(game_id, None)

    def _retry_later(self, game_id: int, why: str) -> None:
        """Publish ``game_id`` again after a growing pause (1 s doubling to ``RETRY_LATER_MAX``), or as
        soon as Discord answers again (:meth:`wake`): its publish was postponed, and the game's task ends
        meanwhile so nothing waits behind it."""
        failures = self._later.get(game_id, (0, None))[0] + 1
        previous = self._later.get(game_id, (0, None))[1]
        if previous is not None:
            previous.cancel()
        delay = random.uniform(0.5, 1.0) * min(RETRY_LATER_MAX, 2.0 ** (failures - 1))
        handle = asyncio.get_running_loop().call_later(delay, self._retry_due, game_id)
        self._later[game_id] = (failures, handle)
        log.info("game %s: %s; publishing again in %.1f s", game_id, why, delay)

    def _retry_due(self, game_id: int) -> None:
        failures, _ = self._later.get(game_id, (0, None))
        self._later[game_id] = (failures, None)
        if not self._closing():
            self.request(game_id)

    def _closing(self) -> bool:
        if self._stopping:
            return True
        is_closed = getattr(self.client, "is_closed", None)
        return bool(is_closed()) if callable(is_closed) else False

    async def _turn_key(self, game_id: int) -> tuple[Any, ...]:
        return self._key_of(await self.sessions.get(game_id))

    @staticmethod
    def _key_of(session: Session) -> tuple[Any, ...]:
        """Who must act and whether the game goes on: a change publishes at once."""
        game = session.game
        actors = tuple(sorted(game.actors())) if game is not None and session.outcome() is None else ()
        return session.row.status, actors

    @property
    def board_interval(self) -> float:
        """Seconds between two uploads of the board within one turn (its text is edited more often)."""
        return BOARD_INTERVALS * self.publish_interval

    def _board_time(self, game_id: int) -> float:
        when = self._board_at.get(game_id)
        return -math.inf if when is None else when

    def _board_due(self, game_id: int) -> bool:
        return self.publish_interval <= 0 or \
            self.clock() - self._board_time(game_id) >= self.board_interval

    async def _hold(self, game_id: int) -> None:
        """Within one turn, wait until ``publish_interval`` has passed since the last post or edit, so
        the moves of those seconds go out as one edit; a board owed by a text-only edit waits for
        ``board_interval``. Returns at once when the turn has moved on (a new post, new prompts) or
        the game ended."""
        last = self._last.get(game_id)
        if self.publish_interval <= 0 or last is None:
            return
        nudge = self._nudge.setdefault(game_id, asyncio.Event())
        self.holding.add(game_id)
        try:
            while True:
                if await self._turn_key(game_id) != last[1]:
                    return
                if game_id in self._dirty:
                    left = last[0] + self.publish_interval - self.clock()
                else:  # only the board is owed
                    left = self._board_time(game_id) + self.board_interval - self.clock()
                if left <= 0:
                    return
                nudge.clear()
                try:
                    await asyncio.wait_for(nudge.wait(), left)
                except TimeoutError:
                    return
        finally:
            self.holding.discard(game_id)

    def _background(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._side.add(task)
        task.add_done_callback(self._side.discard)

    async def settled(self, game_id: int) -> None:
        """Wait until nothing of ``game_id`` is being published (a bot turn waits for the post before it)."""
        while (task := self._tasks.get(game_id)) is not None and not task.done() and game_id not in self.holding:
            await asyncio.wait({task}, timeout=0.05)  # a post held back to coalesce moves does not block

    async def stop_owed(self, timeout: float) -> None:
        """Shutdown, before the client's HTTP session and the store close: the owed DMs' retriers end their
        current step (each stops at the top of its loop), and the background housekeeping its requests,
        within ``timeout``, or are cancelled. What is still owed stays stored and is delivered after the
        next start; a panel left unstripped is stripped then (see bot/discord_app/livepanels.py)."""
        self._stopping = True
        ends = time.monotonic() + timeout
        tasks = [task for task in self._owed_tasks.values() if not task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        # a DM that went through in that last step starts its panel bookkeeping (livepanels) in the
        # background: it gets what is left of the grace too, then is cancelled, not cut by a closed session
        tasks += [task for task in self._side if not task.done()]
        _, pending = await asyncio.wait(tasks, timeout=max(0.0, ends - time.monotonic())) if tasks else ((), set())
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until nothing is being published (used by tests and shutdown)."""
        while self._tasks or self._side:
            await asyncio.gather(*list(self._tasks.values()), *list(self._side), return_exceptions=True)

    # ---- channel helpers -------------------------------------------------------------
    async def channel(self, channel_id: int, *, budget: float | None = None) -> Messageable | None:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.call(f"fetching channel {channel_id}",
                                          lambda: self.client.fetch_channel(channel_id), budget=budget)
            except (discord.NotFound, discord.Forbidden):
                log.warning("channel %s is gone or hidden; cannot publish there", channel_id)
                return None
        return channel  # type: ignore[return-value]

    async def post(self, channel_id: int, content: str, *, file_png: tuple[str, bytes] | None = None,
                   key: tuple[object, ...] | None = None, budget: float | None = None,
                   **kwargs: Any) -> discord.Message | None:
        """Post in a channel, retrying until Discord takes it; None if it refused for good (logged).

        ``file_png`` (name, bytes) is re-wrapped for every attempt; ``key`` makes the post idempotent
        on Discord's side (a nonce), for announcements that may be sent again after a lost answer.
        ``budget``: see :meth:`call` (:class:`Postponed` is raised past it).
        """
        channel = await self.channel(channel_id, budget=budget)
        if channel is None:
            return None
        if key is not None:
            kwargs["nonce"] = nonce(*key)

        def attempt() -> Awaitable[discord.Message]:
            extra = dict(kwargs)
            if file_png is not None:
                extra["file"] = discord.File(io.BytesIO(file_png[1]), filename=file_png[0])
            return channel.send(content, **extra)

        try:
            async with self.channel_turn(channel_id):
                return await self.call(f"posting in channel {channel_id}", attempt, budget=budget)
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
        seen = (target_seq, self._key_of(session))  # whose turn it is at the sequence read
        lang = row.lang
        previous = await self.store.get_message(game_id, "turn")
        outbox = await self.store.get_message(game_id, "outbox")
        # a publish interrupted by a restart is finished first, for exactly the actions it announced
        # (with the same message nonces, so a post Discord took before the crash is not made twice)
        started = [rec.data.get("seq", -1) for rec in (previous, outbox) if rec is not None]
        started = [seq for seq in started if seq > row.published_seq]
        if started:
            target_seq = min(target_seq, min(started))
        actions = [a for a in await self.store.actions(game_id, row.published_seq) if a.seq <= target_seq]
        # publish exactly what is stored: never mark as published a sequence number we did not read
        target_seq = actions[-1].seq if actions else max(row.published_seq, 0)
        if target_seq <= row.published_seq:
            return
        lines: list[str] = []
        prompted: set[int] = set(game.actors()) if row.published_seq < 0 else set()
        private: dict[int, list[dict[str, Any]]] = defaultdict(list)
        skip: dict[int, int] = {}  # seat -> the user who just acted for it (already sees the new panel)
        shown: dict[int, set[int]] = defaultdict(set)  # user -> private events their ✅ answer showed
        for record in actions:
            if record.user_id is not None and 0 <= record.seat:
                mine = [ev for ev in record.events if "to" in ev and record.seat in ev["to"]]
                if mine and private_notes_fit(game, mine, record.seat, session.user_lang(record.user_id),
                                              PRIVATE_ROOM):
                    shown[record.user_id].update(id(ev) for ev in mine)
            for event in record.events:
                kind = event.get("type")
                if kind == "platform.timeout":
                    lines.append(t("notice.timeout", lang, name=session.seat_name(event["seat"])))
                elif kind == "platform.takeback":  # issue 27: who took back how many moves
                    key = "takeback.event.undo" if event.get("free") else "takeback.event.agreed"
                    lines.append(t(key, lang, who=session.seat_name(int(event["seat"])), n=int(event["count"])))
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
        prompted -= set(bots.bot_seats(row))  # a bot seat is never pinged nor sent a panel
        ping_users = sorted({u for s in prompted for u in (row.seat_users or [])[s]})
        if finished:  # the final post mentions every player (issue 25)
            ping_users = player_users(session)

        resumed = outbox[2] if outbox is not None and outbox[2].get("seq") == target_seq else None
        box = Outbox(self.store, game_id, target_seq,
                     {(seat, user) for seat, user in resumed.get("sent", [])} if resumed else set(),
                     resumed.get("mode") if resumed else None)
        posted = asyncio.Event()

        async def channel_side() -> None:
            try:
                if previous is None or previous[2].get("seq", -1) < target_seq:
                    await self.announce(session, target_seq, lines, previous, prompted, finished, actors,
                                        ping_users, outbox=box)
            finally:
                posted.set()

        async def private_side() -> None:
            with contextlib.suppress(TimeoutError):  # the DM panel links to the post, if it is quick
                await asyncio.wait_for(posted.wait(), LINK_WAIT)
            await self.send_private(session, prompted, private, skip, outbox=box, shown=shown)

        # the channel post and the DMs go side by side: a post Discord refuses holds no DM, and a DM
        # that does not go through is owed to its user (retried from its row) and holds no post
        failures = [r for r in await asyncio.gather(channel_side(), private_side(), return_exceptions=True)
                    if isinstance(r, BaseException)]
        if failures:  # not marked: the next try resumes from the outbox, with the same nonces
            raise failures[0]
        await self.store.mark_published(game_id, target_seq)
        row.published_seq = max(row.published_seq, target_seq)
        # what was just published is the state of ``seen`` only if nothing was cut short
        self._last[game_id] = (self.clock(), seen[1] if target_seq == seen[0] else ("?",))
        if row.published_seq < row.seq:  # a resumed publish stopped short of what is committed now
            self._dirty.add(game_id)

    async def announce(self, session: Session, target_seq: int, lines: list[str],
                       previous: tuple[int, int, dict[str, Any]] | None, prompted: set[int], finished: bool,
                       actors: list[int], ping_users: list[int], outbox: Outbox | None = None) -> None:
        """The channel side of one publish: a new turn post, or an edit of the current one.

        The choice is recorded (with the target) in the ``outbox`` row before Discord sees anything:
        a publish resumed after a crash makes the same choice with the same nonces, so whatever
        Discord took before the crash is not announced a second time."""
        game_id, row, lang = session.id, session.row, session.row.lang
        if previous is not None and previous[1] == 0:  # the last post was refused for good
            previous = None
        status = self.status_line(session, lang, actors)
        # a stretch of play that shares one post (``Game.post_group``: a Godstorm set-up round): a prompt
        # within it edits the post its first prompt made (which alone pinged) instead of a new one
        assert session.game is not None
        group = None if finished else session.game.post_group()
        grouped = group is not None and previous is not None and previous[2].get("group") == group
        new_post = (bool(prompted) and not grouped) or finished or previous is None
        edit_lines = (previous[2].get("lines", []) if previous else []) + lines
        if not new_post and previous is not None and not fits(edit_lines, status):
            new_post = True  # the turn post is full: a new one, so no line ever drops out of view
            # it takes over the question of the post it continues: whoever that asked and must still act
            still = {u for s in actors for u in (row.seat_users or [])[s]}
            ping_users = sorted(set(ping_users) | (set(previous[2].get("ping", [])) & still))
        if outbox is None:
            outbox = Outbox(self.store, game_id, target_seq, set())
        if outbox.mode is not None:
            new_post = outbox.mode == "post" or previous is None
        else:
            outbox.mode = "post" if new_post else "edit"
            await outbox.save()
        budget = self.announce_budget
        # an edit within a turn whose board is not due yet leaves the post's board as it is (owed, below): it
        # is not drawn either, since nobody would see it (a quick turn's moves drew a board each for nothing)
        board_later = (not new_post and previous is not None and self.reuse_board and self.publish_interval > 0
                       and not self._board_due(game_id))
        png = None if board_later else await self._board_png(session, lang)
        name = f"{row.game}-{game_id}-{target_seq}.png"
        digest = hashlib.blake2b(png, digest_size=8).hexdigest() if png is not None else None
        view = None if finished else inert(channel_view(game_id, lang))
        if not new_post and previous is not None:
            channel_id, message_id, _ = previous
            channel = await self.channel(channel_id, budget=budget)
            if channel is not None:
                partial = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
                content = compose(edit_lines, status)
                asked = previous[2].get("ping", [])  # the edit keeps the post's mentions (no new ping)

                # the same board as the post already shows (a phase ended, a card was drawn) is not
                # uploaded again: the edit leaves the attachment as it is; within a turn the board is
                # uploaded at most once per board interval (the text is current, the board follows)
                same_board = self.reuse_board and digest is not None and previous[2].get("png") == digest
                late = board_later or (not same_board and png is not None and not self._board_due(game_id))
                if late:
                    same_board = True
                    self._owed.add(game_id)
                else:
                    self._owed.discard(game_id)
                shown = previous[2].get("png") if same_board else digest

                def edit() -> Awaitable[Any]:
                    if same_board:
                        return partial.edit(content=content, view=view, allowed_mentions=mentions(asked))
                    files = [discord.File(io.BytesIO(png), filename=name)] if png is not None else []
                    return partial.edit(content=content, attachments=files, view=view,
                                        allowed_mentions=mentions(asked))

                try:
                    async with self.channel_turn(channel_id):
                        await self.call(f"editing the turn message of game {game_id}", edit, budget=budget)
                    await self.store.set_message(game_id, "turn", channel_id, message_id,
                                                 {"lines": edit_lines, "seq": target_seq,
                                                  "ping": previous[2].get("ping", []), "png": shown,
                                                  "group": previous[2].get("group")})
                    if not same_board:
                        self._board_at[game_id] = self.clock()
                    return
                except discord.HTTPException as exc:
                    log.warning("editing the turn message of game %s failed (%s); posting anew", game_id, exc)
        if board_later:  # the edit could not be made: the new post shows the board
            png = await self._board_png(session, lang)
            digest = hashlib.blake2b(png, digest_size=8).hexdigest() if png is not None else None
        # more news than one post shows: the older lines go first, in posts of their own
        overflow, log_lines = split_tail(lines, status)
        for index, chunk in enumerate(chunk_lines(overflow)):
            await self.post(row.channel_id, chunk, allowed_mentions=mentions([]),
                            key=("log", game_id, target_seq, index), budget=budget)
        message = await self.post(row.channel_id, compose(log_lines, status),
                                  file_png=(name, png) if png is not None else None, view=view,
                                  allowed_mentions=mentions(ping_users), key=("turn", game_id, target_seq),
                                  budget=budget)
        self._owed.discard(game_id)
        self._board_at[game_id] = self.clock()
        # refused for good (logged): the game goes on, the row records that this step is over
        await self.store.set_message(game_id, "turn", row.channel_id, message.id if message else 0,
                                     {"lines": log_lines, "seq": target_seq, "ping": ping_users, "png": digest,
                                      "group": group})
        if finished:  # this is the final post: the end announcement links to it and makes no other
            await self.store.set_message(game_id, END, row.channel_id, message.id if message else 0,
                                         {"seq": target_seq})
        await lifecycle.notify_followers(self, session, compose(log_lines, status), target_seq,
                                         (name, png) if png is not None else None)

    @staticmethod
    async def _board_png(session: Session, lang: str) -> bytes | None:
        try:
            return await render_png(session, lang)
        except Exception:  # the news goes out as text; the next post tries the board again
            log.exception("rendering the board of game %s failed; posting text only", session.id)
            return None

    async def refresh_board(self, game_id: int) -> None:
        """Upload the board a text-only edit left behind, if the post still shows an older one."""
        self._owed.discard(game_id)
        session = await self.sessions.get(game_id)
        row = session.row
        previous = await self.store.get_message(game_id, "turn")
        if previous is None or not previous.message_id or session.game is None or row.seq > row.published_seq:
            return  # nothing to fix, or a publish is coming that brings the board along
        try:
            png = await render_png(session, row.lang)
        except Exception:
            log.exception("rendering the board of game %s failed", game_id)
            return
        digest = hashlib.blake2b(png, digest_size=8).hexdigest()
        if previous.data.get("png") == digest:
            return
        try:
            channel = await self.channel(previous.channel_id, budget=self.announce_budget)
        except Postponed:
            return
        if channel is None:
            return
        partial = channel.get_partial_message(previous.message_id)  # type: ignore[attr-defined]
        name = f"{row.game}-{game_id}-{row.published_seq}.png"
        try:
            async with self.channel_turn(previous.channel_id):
                await self.call(f"updating the board of game {game_id}", lambda: partial.edit(
                    attachments=[discord.File(io.BytesIO(png), filename=name)]), budget=self.announce_budget)
        except Postponed:  # cosmetic: the next post or edit brings the board along
            return
        except discord.HTTPException as exc:
            log.warning("updating the board of game %s failed: %s", game_id, exc)
            return
        self._board_at[game_id] = self.clock()
        await self.store.set_message(game_id, "turn", previous.channel_id, previous.message_id,
                                     {**previous.data, "png": digest})

    def status_line(self, session: Session, lang: str, actors: list[int]) -> str:
        game = session.game
        assert game is not None
        extra = game.status_lines(lang)
        if session.row.status == "finished" or session.outcome() is not None:
            # the final post: the result and why, every player mentioned, and where the replay is
            players = " ".join(f"<@{u}>" for u in player_users(session))
            return "\n".join([*extra, "🏁 " + result_line(session, lang), t("end.players", lang, who=players),
                              t("end.replay_hint", lang, id=session.id)])
        who = ", ".join(
            (session.seat_name(s) if bots.controlled(session.row, s)  # a bot's seat: named, never mentioned
             else " ".join(f"<@{u}>" for u in (session.row.seat_users or [])[s]))
            + f" ({game.side_name(game.side_of(s), lang)})"
            for s in actors
        )
        deadline = ""
        dues = [session.deadlines[s].due_at for s in actors if s in session.deadlines]
        if lifecycle.paused_since(session.row) is not None:
            deadline = " " + t("lifecycle.status.paused", lang)
        elif dues:
            deadline = " " + t("status.deadline", lang, ts=int(min(dues)))
        return "\n".join([*extra, t("status.turn", lang, who=who) + deadline])

    # ---- private delivery ------------------------------------------------------------
    async def send_private(self, session: Session, prompted: set[int],
                           private: dict[int, list[dict[str, Any]]], skip: dict[int, int] | None = None,
                           *, done: set[tuple[int, int]] | None = None, seq: int | None = None,
                           shown: dict[int, set[int]] | None = None, outbox: Outbox | None = None) -> None:
        """DM each prompted seat its panel and each seat its private events. With ``outbox`` (or
        ``seq``), every finished DM is checkpointed in the ``outbox`` row, and the (seat, user) pairs
        already in it (or in ``done``) are skipped. ``shown``: per user, private events the answer to
        their own move already showed (one DM per event: they are not sent again).

        With a checkpoint, each DM has the announcement budget: one that does not go through within
        it is *owed* (its texts kept in the game's ``owed:<user>`` row, retried in the background by
        :meth:`_deliver_owed`, also after a restart) and counts as done here, so a user whose DMs
        fail holds neither the other players' DMs nor the game's next post."""
        game = session.game
        assert game is not None
        if outbox is None and seq is not None:
            outbox = Outbox(self.store, session.id, seq, set(done or ()))
        done = set(done or ()) | (outbox.sent if outbox is not None else set())
        budget = self.announce_budget if outbox is not None else None
        seats = sorted(prompted | set(private))
        by_user: dict[int, list[int]] = defaultdict(list)
        for seat in seats:
            for user_id in (session.row.seat_users or [])[seat]:
                if (seat, user_id) not in done and not bots.is_bot(user_id):
                    by_user[user_id].append(seat)
        # each user's DMs in order, the users side by side: one player's failing DMs hold no other's
        await asyncio.gather(*(self._send_user(session, user_id, user_seats, prompted, private, skip, shown,
                                               outbox, budget) for user_id, user_seats in by_user.items()))

    async def _send_user(self, session: Session, user_id: int, seats: list[int], prompted: set[int],
                         private: dict[int, list[dict[str, Any]]], skip: dict[int, int] | None,
                         shown: dict[int, set[int]] | None, outbox: Outbox | None, budget: float | None) -> None:
        game = session.game
        assert game is not None
        for seat in seats:
            seen = (shown or {}).get(user_id, set())
            news = [ev for ev in private.get(seat, []) if id(ev) not in seen]
            if skip and skip.get(seat) == user_id and not news:
                continue
            lang = session.user_lang(user_id)
            notes = [txt for ev in news if (txt := game.event_text(ev, lang))]
            key = None if outbox is None else ("dm", session.id, outbox.seq, seat, user_id)
            if outbox is not None and (session.id, user_id) in self._owed_tasks:
                # DMs owed to this user go first, in order: this one joins them
                await self._owe(session, user_id, seat, notes, seat in prompted, key)
            else:
                try:
                    await self._dm_news(session, seat, user_id, notes, seat in prompted, key, budget)
                except Postponed:
                    await self._owe(session, user_id, seat, notes, seat in prompted, key)
            if outbox is not None:
                outbox.sent.add((seat, user_id))
                await outbox.save()

    async def _dm_news(self, session: Session, seat: int, user_id: int, notes: list[str], panel: bool,
                       key: tuple[object, ...] | None, budget: float | None) -> None:
        """DM ``notes`` (private news) and, with ``panel``, the seat's current panel to ``user_id``.
        Private news is never shortened away: what does not fit beside the panel goes first, in DMs of
        its own, split at line breaks within Discord's limit. Every DM carries a nonce made from ``key``,
        so an owed delivery tried again does not repeat what Discord took. Raises :class:`Postponed`
        past ``budget``."""
        game = session.game
        assert game is not None
        lang = session.user_lang(user_id)
        note = "\n".join(notes)
        chunks = limits.split(note) if note else []
        inline = chunks.pop() if chunks and (not panel or limits.size(note) <= PANEL_NOTE) else None
        for index, chunk in enumerate(chunks):
            await self.dm(session, user_id, chunk, None, key=(*key, "note", index) if key else None,
                          budget=budget)
        if panel:
            # what others did since this seat's last move comes first (issue 12)
            summary = await lifecycle.catchup_note(self.store, session, seat, lang)
            inline = "\n\n".join(p for p in (summary, inline) if p) or None
            content, view = build_panel(session, seat, lang, note=inline, link=await self.turn_link(session))
            # issue 27: ↩ when the seat's own move is the latest (a teammate's, an undo's panel)
            await offer_undo(self.sessions, view, session, seat, user_id, lang)
        elif inline:
            content, view = inline, None
        else:
            return
        await self.dm(session, user_id, content, inert(view), key=key, seat=seat, budget=budget)

    # ---- the end of a game (issue 25) ---------------------------------------------------
    def game_ended(self, game_id: int) -> None:
        """A game left play and its stats are recorded (``Stats.on_recorded``): announce the end in the
        background. The channel gets a final post mentioning every player (unless the final turn post
        was it), and each human player a DM with the result, why, their rating change and the replay,
        once, also across a restart (the ``enddue`` row resumes it, ``result:<user>`` rows mark each DM)."""
        if game_id not in self._ending:
            self._ending.add(game_id)
            self._background(self._announce_end(game_id))

    async def _announce_end(self, game_id: int) -> None:
        try:
            await self.store.set_message(game_id, END_DUE, 0, 0, {})
            await self.settled(game_id)  # the final turn post, when the last move ended it, goes first
            session = await self.sessions.get(game_id)
            row = session.row
            if row.seat_users is not None and row.status in ("finished", "aborted"):
                end = await self.store.get_message(game_id, END)
                if end is None and not (row.status == "finished" and row.published_seq < row.seq):
                    end = await self._end_post(session)  # not ended by a move: no final turn post
                link = None
                if end is not None and end.message_id and row.guild_id is not None:
                    link = jump_url(row.guild_id, end.channel_id, end.message_id)
                rows = await self.ratings(game_id) if self.ratings is not None else []
                by_user = {int(r["user_id"]): r for r in rows}
                await asyncio.gather(*(self._result_dm(session, user, by_user.get(user), link)
                                       for user in player_users(session)))
            if not self._closing():
                await self.store.delete_message(game_id, END_DUE)
        except Exception:
            log.exception("announcing the end of game %s failed", game_id)
        finally:
            self._ending.discard(game_id)

    async def _end_post(self, session: Session) -> StoredMessage | None:
        """The final post of a game that ended without a move (a resignation, a vote, an abort)."""
        row, lang = session.row, session.row.lang
        users = player_users(session)
        lines = [t("end.post", lang, game=t(f"{row.game}.name", lang), id=session.id,
                   result=result_line(session, lang)),
                 t("end.players", lang, who=" ".join(f"<@{u}>" for u in users))]
        if row.status == "finished":
            lines.append(t("end.replay_hint", lang, id=session.id))
        failures = 0
        while True:
            try:
                message = await self.post(row.channel_id, "\n".join(lines), allowed_mentions=mentions(users),
                                          key=("end", session.id), budget=self.announce_budget)
                break
            except Postponed:
                if self._closing():
                    raise
                failures += 1
                await self._pause(random.uniform(0.5, 1.0) * min(RETRY_LATER_MAX, 2.0 ** (failures - 1)))
        await self.store.set_message(session.id, END, row.channel_id, message.id if message else 0, {})
        return await self.store.get_message(session.id, END)

    def result_text(self, session: Session, user_id: int, rating: dict[str, Any] | None, link: str | None) -> str:
        """The result DM of one player, in their language: the result and why, their rating change
        (openskill ordinal before → after) or why it is unchanged, the replay, the final post."""
        row = session.row
        lang = session.user_lang(user_id)
        lines = [t("end.dm.title", lang, game=t(f"{row.game}.name", lang), id=session.id, channel=row.channel_id),
                 result_line(session, lang)]
        if rating is not None and rating.get("mu_after") is not None and rating.get("mu_before") is not None:
            before = float(rating["mu_before"]) - 3 * float(rating["sigma_before"])
            after = float(rating["mu_after"]) - 3 * float(rating["sigma_after"])
            lines.append(t("end.dm.rating", lang, before=rating_text(before), after=rating_text(after),
                           delta=signed(after - before)))
        elif bots.bot_seats(row) or any(bots.is_bot(u) for seat in row.seat_users or [] for u in seat) \
                or row.settings.extra.get("bots"):
            lines.append(t("end.dm.unrated_bots", lang))
        else:
            lines.append(t("end.dm.unrated", lang))
        lines.append(t("end.replay_hint" if row.status == "finished" else "end.dm.no_replay", lang, id=session.id))
        if link:
            lines.append(t("end.dm.final_post", lang, url=link))
        return "\n".join(lines)

    async def _result_dm(self, session: Session, user_id: int, rating: dict[str, Any] | None,
                         link: str | None) -> None:
        """DM one player the result, once: a DM that does not go through within the budget is owed."""
        purpose = result_purpose(user_id)
        if user_id in self.dm_closed or await self.store.get_message(session.id, purpose) is not None:
            return
        text = self.result_text(session, user_id, rating, link)
        key = ("result", session.id, user_id)
        if (session.id, user_id) in self._owed_tasks:
            await self._owe_text(session, user_id, text, key)
        else:
            try:  # DMs found closed: no "/game hand" notice, the channel's end post already tells the result
                await self.dm(session, user_id, text, None, key=key, budget=self.announce_budget, closed_notice=False)
            except Postponed:
                await self._owe_text(session, user_id, text, key)
        await self.store.set_message(session.id, purpose, 0, 0, {})

    async def _owe_text(self, session: Session, user_id: int, text: str, key: tuple[object, ...]) -> None:
        purpose = owed_purpose(user_id)
        stored = await self.store.get_message(session.id, purpose)
        items = list(stored.data.get("items", [])) if stored is not None else []
        items.append({"seat": -1, "notes": [], "panel": False, "key": list(key), "text": text})
        await self.store.set_message(session.id, purpose, 0, 0, {"items": items})
        self._start_owed(session.id, user_id)

    # ---- DMs owed ----------------------------------------------------------------------
    async def _owe(self, session: Session, user_id: int, seat: int, notes: list[str], panel: bool,
                   key: tuple[object, ...] | None) -> None:
        """Keep a DM that did not go through (its texts, and whether the seat's panel is due) in the
        game's ``owed:<user>`` row, and make sure its retrier runs."""
        purpose = owed_purpose(user_id)
        stored = await self.store.get_message(session.id, purpose)
        items = list(stored.data.get("items", [])) if stored is not None else []
        items.append({"seat": seat, "notes": notes, "panel": panel, "key": list(key) if key else None})
        await self.store.set_message(session.id, purpose, 0, 0, {"items": items})
        self._start_owed(session.id, user_id)

    def _start_owed(self, game_id: int, user_id: int) -> None:
        task = self._owed_tasks.get((game_id, user_id))
        if task is None or task.done():
            self._owed_tasks[(game_id, user_id)] = asyncio.get_running_loop().create_task(
                self._deliver_owed(game_id, user_id))
        else:
            self.wake()

    async def _deliver_owed(self, game_id: int, user_id: int) -> None:
        """Send the DMs owed to ``user_id`` in ``game_id``, oldest first, until none is left: each try
        within the announcement budget, then a pause that grows to ``RETRY_LATER_MAX`` (cut short when
        Discord answers again). A panel is built when it is sent, so it is the seat's current one; a
        seat that no longer has a decision gets only its news."""
        purpose = owed_purpose(user_id)
        failures = 0
        try:
            while not self._closing():
                stored = await self.store.get_message(game_id, purpose)
                items = list(stored.data.get("items", [])) if stored is not None else []
                if not items:
                    await self.store.delete_message(game_id, purpose)
                    return
                session = await self.sessions.get(game_id)
                item = items[0]
                seat = int(item.get("seat", -1))
                game = session.game
                panel = bool(item.get("panel")) and game is not None and session.row.status == "running" \
                    and seat in game.actors() and seat not in bots.bot_seats(session.row)
                try:
                    if item.get("text") is not None:  # a DM of its own (the result of a game), as it was
                        key = tuple(item["key"]) if item.get("key") else None
                        await self.dm(session, user_id, str(item["text"]), None, key=key, budget=self.announce_budget,
                                      closed_notice=False)
                    elif game is not None and user_id in (session.row.seat_users or [[]] * (seat + 1))[seat]:
                        key = tuple(item["key"]) if item.get("key") else None
                        await self._dm_news(session, seat, user_id, list(item.get("notes", [])), panel, key,
                                            self.announce_budget)
                except Postponed:
                    failures += 1
                    await self._pause(random.uniform(0.5, 1.0) * min(RETRY_LATER_MAX, 2.0 ** (failures - 1)))
                    continue
                failures = 0
                stored = await self.store.get_message(game_id, purpose)
                left = list(stored.data.get("items", []))[1:] if stored is not None else []
                if left:
                    await self.store.set_message(game_id, purpose, 0, 0, {"items": left})
                else:
                    await self.store.delete_message(game_id, purpose)
        except Exception:
            log.exception("delivering the DMs owed in game %s failed", game_id)
        finally:
            self._owed_tasks.pop((game_id, user_id), None)

    def resume_housekeeping(self) -> None:
        """At start (once connected): DMs still owed are retried, and DM panels that lost their place to
        a newer one before their controls were removed are stripped (see bot/discord_app/livepanels.py).
        Not once shutdown began: a SIGTERM can arrive just before the gateway's ready event, and the
        housekeeping would then outlive the store (the next start does it)."""
        if self._stopping:
            log.info("shutting down: the DM housekeeping is left to the next start")
            return
        self._background(self._resume_housekeeping())

    async def _resume_housekeeping(self) -> None:
        try:
            for game_id, purpose, _ in await self.store.messages_with_prefix("owed:"):
                self._start_owed(game_id, int(purpose.split(":", 1)[1]))
            for game_id, _purpose, _ in await self.store.messages_with_prefix(END_DUE):
                self.game_ended(game_id)  # ended before a restart, its announcement unfinished
            await self.panels.strip_stale()
        except Exception:
            log.exception("resuming the DM housekeeping failed")

    async def dm(self, session: Session, user_id: int, content: str, view: discord.ui.View | None,
                 *, key: tuple[object, ...] | None = None, seat: int | None = None,
                 budget: float | None = None, closed_notice: bool = True) -> bool:
        """DM ``content`` (with ``view``: a panel) to ``user_id``; False if DMs are closed or Discord
        refused it for good. ``budget``: see :meth:`call` (:class:`Postponed` is raised past it). A
        panel's bookkeeping (the older panel loses its controls) runs in the background, after it.
        ``closed_notice``: closed DMs are told in the channel ("use /game hand"); not for a game's result
        DM (issue 25), which the end post already tells and after which there is no hand to open."""
        if user_id in self.dm_closed:
            if closed_notice:
                await self.dm_closed_notice(session, user_id)
            return False
        # the seat's count of actions the content was built at (read before any await: the player may act
        # meanwhile, and the live-panel bookkeeping then brings this panel up to date)
        panel_seat = self._seat_of(session, user_id, seat)
        counts = session.row.seat_counts or []
        built_stamp = counts[panel_seat] if 0 <= panel_seat < len(counts) else None
        try:
            channel = await self.dm_channel(user_id, budget)
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            if key is not None:
                kwargs["nonce"] = nonce(*key)
            dm_channel = channel
            if has_controls(view):  # a panel: no other DM or ephemeral panel of this player stays live
                # the seat's personal board rides along (Pobeda; issue 13, see bot/discord_app/boards.py)
                board = await boards.personal_board(session, panel_seat, session.user_lang(user_id))

                def panel() -> Awaitable[discord.Message]:
                    extra: dict[str, Any] = {"file": boards.as_file(board)} if board else {}  # fresh per attempt
                    return dm_channel.send(content, **kwargs, **extra)

                await self.panels.replacing(session.id, user_id)  # a crash after the send still strips it
                message = await self.call(f"DM to user {user_id}", panel, budget=budget)
                self._background(self.panels.dm_shown(session, user_id, panel_seat, channel, message.id,
                                                      built_stamp, shown_at=time.monotonic()))
            else:
                await self.call(f"DM to user {user_id}", lambda: dm_channel.send(content, **kwargs), budget=budget)
            return True
        except discord.Forbidden as exc:
            if exc.code == 50007:
                self.dm_closed.add(user_id)
                await self.store.mark_dm_closed(user_id)
                if closed_notice:
                    await self.dm_closed_notice(session, user_id)
            else:
                log.warning("DM to user %s refused: %s", user_id, exc)
        except discord.HTTPException as exc:
            log.warning("DM to user %s failed: %s", user_id, exc)
        return False

    async def dm_channel(self, user_id: int, budget: float | None = None) -> Messageable:
        """The DM channel of ``user_id``: cached, else the one a panel of theirs went to before (stored,
        so a restart does not open every player's DM channel again), else opened (within ``budget``)."""
        channel = self._dm_channels.get(user_id)
        if channel is not None:
            return channel
        stored = await self.store.dm_channel_of(user_id)
        partial = getattr(self.client, "get_partial_messageable", None)
        if stored is not None and callable(partial):
            channel = partial(stored, type=discord.ChannelType.private)
        else:
            channel = await self.call(f"opening a DM with user {user_id}",
                                      lambda: self.client.create_dm(discord.Object(user_id)), budget=budget)
        self._dm_channels[user_id] = channel
        return channel

    @staticmethod
    def _seat_of(session: Session, user_id: int, seat: int | None) -> int:
        if seat is not None:
            return seat
        seats = session.seats_of(user_id)
        actors = set(session.game.actors()) if session.game is not None else set()
        return next((s for s in seats if s in actors), seats[0] if seats else -1)

    async def turn_link(self, session: Session) -> str | None:
        """The address of the game's current channel post (for a DM panel's link button)."""
        stored = await self.store.get_message(session.id, "turn")
        if stored is None or not stored.message_id or session.row.guild_id is None:
            return None
        return jump_url(session.row.guild_id, stored.channel_id, stored.message_id)

    async def dm_closed_notice(self, session: Session, user_id: int) -> None:
        """Tell the channel (once per game and user, never the content) to use /game hand: in that
        user's own language, since it speaks to them alone (issue 13). Not once the game is over: there
        is no hand to open then, and the end post tells the result (issue 25)."""
        if session.row.status not in ("lobby", "running"):
            return
        key = (session.id, user_id)
        if key in self._notified:
            return
        self._notified.add(key)
        if await self.store.get_message(session.id, f"dmnotice:{user_id}") is not None:
            return
        message = await self.post(
            session.row.channel_id, t("notice.dm_closed", session.user_lang(user_id), user=f"<@{user_id}>"),
            allowed_mentions=mentions([user_id]), key=("dmnotice", session.id, user_id),
        )
        await self.store.set_message(session.id, f"dmnotice:{user_id}", session.row.channel_id,
                                     message.id if message else 0)

    async def remind(self, game_id: int, seat: int, kind: str | None = None) -> None:
        """Post a reminder in the background: the timer loop must not wait on a retrying post."""
        session = await self.sessions.get(game_id)
        if session.row.status != "running" or seat not in session.deadlines:
            return
        if kind is not None:  # half time or shortly before the end, with DMs to those who asked
            await lifecycle.post_reminder(self, session, seat, kind)
            return
        users = (session.row.seat_users or [])[seat]
        due = int(session.deadlines[seat].due_at)
        self._background(self.post(
            session.row.channel_id,
            t("notice.reminder", session.user_lang(users[0]) if len(users) == 1 else session.row.lang,
              who=" ".join(f"<@{u}>" for u in users), ts=due),
            allowed_mentions=mentions(list(users)), key=("remind", game_id, seat, due),
        ))
