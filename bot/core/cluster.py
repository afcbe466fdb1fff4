"""Several bot processes on one PostgreSQL (issue 14): leases, change notifications, polling.

Whatever must happen once across the processes is claimed with a *lease*, a row of ``leases``
(name, owner, expiry) taken in one statement when it is free, expired or already ours
(:meth:`bot.core.store.Store.claim_lease`): ``publish:<game id>`` while a process announces a game's
new moves, ``timer`` for the process that fires deadlines and reminders. Leases are short
(:data:`LEASE_S`) and renewed every :data:`POLL_S` while the owner lives, so a killed owner's work
is taken over within about ``LEASE_S`` seconds. Clocks of the processes are assumed to agree to
well under a second (one machine, or NTP).

A move committed by one process is announced to the others with ``NOTIFY`` right after its commit
(see :data:`bot.core.store.CHANGED_CHANNEL`; the games a process commits within
:data:`bot.core.store.NOTIFY_SPACING_S` share one); a dedicated connection listens and is reconnected when it
drops. Short polling for games with unannounced moves backs it up (a lost notification, a
listener being reconnected, a dead owner's lease that just expired).

None of this runs on SQLite: one process owns the file, and the publisher claims nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.core.sessions import SessionError, SessionManager
from bot.core.store import CHANGED_CHANNEL, Shards, Store, changed_ids

log = logging.getLogger(__name__)

LEASE_S = 15.0
"""Seconds a lease lasts unless renewed (a dead owner's work waits at most this long)."""
POLL_S = 3.0
"""Seconds between two renewals of this process's leases and two polls for unannounced moves."""
TIMER = "timer"
"""The lease of the process that fires deadlines and reminders: claimed again at every tick (not renewed
in the background), for :func:`timer_lease_s` seconds."""


def timer_lease_s(timer_interval: float) -> float:
    """How long a tick's claim of the timer lasts: three ticks, and at least :data:`LEASE_S`."""
    return max(LEASE_S, 3 * timer_interval)


def publish_lease(game_id: int) -> str:
    return f"publish:{game_id}"


def new_owner() -> str:
    """This process's name in the ``leases`` table: host, pid and a random part (a restarted
    process with a reused pid is another owner)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


async def refresh_due(sessions: SessionManager, now: float, shards: Shards | None = None) -> None:
    """Before the timer fires anything: bring the games with a due reminder or deadline up to date
    (a pause, a move or a reminder sent by another process changes what is due and whether); with
    ``shards``, only those the tick fires (the games on live shards)."""
    store = sessions.store
    due = ({g for g, _ in await store.due_reminders(now, shards)}
           | {g for g, _ in await store.due_deadlines(now, shards)})
    for game_id in sorted(due):
        try:
            await sessions.get(game_id)
        except SessionError:
            pass  # gone or broken: the tick itself deals with it


class Cluster:
    """This process's part in the cluster: its leases, its listener and its poll loop."""

    def __init__(self, store: Store, *, owner: str | None = None, lease_s: float | None = None,
                 poll_s: float | None = None, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.owner = owner or new_owner()
        self.lease_s = LEASE_S if lease_s is None else lease_s
        self.poll_s = POLL_S if poll_s is None else poll_s
        self.clock = clock
        self.held: set[str] = set()
        self.on_changed: Callable[[int], None] = lambda _game_id: None
        """Called with the game id of each notification (another process, or this one, committed)."""
        self.on_poll: Callable[[], Awaitable[None]] | None = None
        """Called every ``poll_s`` seconds (the publisher looks for unannounced moves)."""
        self.listening = False
        self._listener: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lost_at: float | None = None

    # ---- leases ------------------------------------------------------------------------------
    async def claim(self, name: str, seconds: float | None = None) -> bool:
        """Take or keep the lease ``name``; False when another live process holds it (or the
        database cannot be reached: then nobody here acts on it). With ``seconds`` the lease lasts that
        long and is not renewed in the background: it lives only as long as its holder claims it again
        (the timer: a process whose gateway is away stops ticking, and another takes the timer over)."""
        try:
            ok = await self.store.claim_lease(name, self.owner, self.lease_s if seconds is None else seconds,
                                              self.clock())
        except sqlite3.Error as exc:
            log.warning("claiming %s failed: %s", name, exc)
            ok = False
        if ok and seconds is None:
            self.held.add(name)
        else:
            self.held.discard(name)
        return ok

    async def release(self, name: str) -> None:
        self.held.discard(name)
        try:
            await self.store.release_lease(name, self.owner)
        except sqlite3.Error as exc:  # it expires by itself
            log.warning("releasing %s failed: %s", name, exc)

    async def renew(self) -> None:
        if self.held:
            await self.store.renew_leases(self.owner, self.lease_s, self.clock(), self.held)

    # ---- the loop: listen, renew, poll ---------------------------------------------------------
    async def start(self) -> None:
        await self._listen()
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="cluster")
        self.store.closers.append(self.stop)
        log.info("cluster: process %s shares the database (leases of %.0f s, polling every %.0f s)",
                 self.owner, self.lease_s, self.poll_s)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        for name in sorted(self.held | {TIMER}):  # a clean stop hands the work over at once
            await self.release(name)
        await self._close_listener()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            for step in (self._listen, self.renew, self._poll):
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("cluster: %s failed", step.__name__.strip("_"))

    async def _poll(self) -> None:
        if self.on_poll is not None:
            await self.on_poll()

    async def _listen(self) -> None:
        """(Re)connect the listening connection when there is none; a failure leaves polling."""
        if self._listener is not None and not self._listener.is_closed():
            return
        if self.store.url is None:
            return
        import asyncpg

        was_listening = self.listening
        self.listening = False
        await self._close_listener()
        try:
            conn = await asyncpg.connect(self.store.url)
            await conn.add_listener(CHANGED_CHANNEL, self._notified)
            conn.add_termination_listener(self._terminated)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            if was_listening or self._lost_at is None:
                log.warning("cluster: cannot listen for changes (%s); polling every %.0f s meanwhile", exc,
                            self.poll_s)
            self._lost_at = self._lost_at or self.clock()
            return
        self._listener = conn
        self.listening = True
        if self._lost_at is not None:
            log.info("cluster: listening for changes again after %.0f s", self.clock() - self._lost_at)
            self._lost_at = None

    def _terminated(self, _conn: Any) -> None:
        self.listening = False
        self._lost_at = self.clock()
        log.warning("cluster: the listening connection dropped; reconnecting within %.0f s", self.poll_s)

    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        for game_id in changed_ids(payload):  # one or several games (a process's commits share a NOTIFY)
            try:
                self.on_changed(game_id)
            except Exception:
                log.exception("cluster: handling the change of game %s failed", game_id)

    async def _close_listener(self) -> None:
        conn, self._listener = self._listener, None
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.close(), timeout=2.0)
            except Exception:  # closing a broken connection: nothing left to do
                conn.terminate()
