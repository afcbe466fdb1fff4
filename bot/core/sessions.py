"""Sessions: which game lives in which channel, lobbies, seats, one lock per game, deadlines.

This layer knows users and seats but nothing of Discord. Every accepted action goes
game.apply -> Store.commit_action (one transaction) -> :class:`~bot.core.events.GameCommitted` to the
subscribers (:meth:`SessionManager.subscribe`), and only then may the delivery layer post anything.
Whom a move prompts comes from the game's open decisions before and after it (``Game.open_decisions``).
Whatever fails on the way (the rules raising, a bad event, the commit) restores the in-memory game from
the last committed state before the lock is released, so memory never runs ahead of the database.

A game whose stored state cannot be loaded (bad JSON, an unknown shape, a state version the rules
cannot migrate) is marked broken: it stays indexed so its channel stays busy and ``abort`` works,
every move is refused with a clear message, and no other game is affected.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.core import config, reminders, takeback, votes
from bot.core.events import GameCommitted, Subscriber
from bot.core.session import (
    ActResult,
    Session,
    SessionError,
    UserInfo,
    bot_levels,
    controlled,
    is_bot,
    note_acted,
    note_missed,
    seat_log,
)
from bot.core.store import (
    ChannelBusy,
    Conflict,
    Deadline,
    GameRow,
    GameSettings,
    LobbyEntry,
    SeatTimer,
    Store,
    dumps,
)
from bot.games import registry
from bot.games.base import (
    ADMIN,
    RNG_VERSION,
    Action,
    Event,
    Game,
    IllegalAction,
    OpenDecision,
    Player,
    rng_version,
    seating_rng,
)
from bot.games.decision import in_window, newly_open
from bot.games.registry import game_class

log = logging.getLogger(__name__)

TAKEBACK_TAIL = 16
"""Log entries a takeback plan reads first (issue 27); the whole log only when its moves go further back."""
UNDO_FREE_CACHE = 256
"""Positions whose ↩ :meth:`SessionManager.undo_offer` remembers (whether the undo needs nobody's agreement)."""
MAX_AUTOPLAY = 500
"""Bound on consecutive automatic actions for conceded seats (a safety net, never reached in play)."""


def _action_type(action: Any) -> str:
    return str(action.get("type"))[:40] if isinstance(action, dict) else type(action).__name__


def _log_text(value: Any) -> str:
    try:
        return dumps(value)[:500]
    except (TypeError, ValueError):
        return repr(value)[:500]

def not_legal(game: Game, seat: int, action: Any) -> SessionError:
    """The refusal of an action ``seat`` may not take now: the game's reason when it has one (issue 25,
    ``Game.why_not``: "not your territory", "not adjacent", "not at this step"), else ``err.not_legal``.
    The reason's parameters are the game's ids; a cog names them with ``Game.reason_params``."""
    try:
        reason = game.why_not(seat, action)
    except Exception:  # a bug in the explanation must not turn a refusal into a failure
        log.exception("why_not failed for %s", type(game).__name__)
        reason = None
    if reason is None:
        return SessionError("err.not_legal")
    key, params = reason
    return SessionError(key, **params)

@dataclasses.dataclass
class TakebackPlan:
    """What a takeback would undo (issue 27): the moves' sequence numbers, whether nobody need agree,
    and the effective log it was planned on."""

    seat: int
    moves: list[int]
    free: bool
    log: list[takeback.Move]
    whole: bool = True
    """Whether ``log`` is the whole effective log (else only its tail, which holds every move taken back)."""
    before_text: str | None = None
    """The stored state before the first move taken back, once read (with its ``clocks``, None when rebuilt)."""
    clocks: list[Deadline] | None = None


@dataclasses.dataclass
class TakebackResult:
    """A takeback done (``done``), or a request waiting for answers (``request``), or declined."""

    session: Session
    done: bool
    moves: list[int]
    request: dict[str, Any] | None = None
    events: list[Event] = dataclasses.field(default_factory=list)
    declined: bool = False


class SessionManager:
    """All sessions of this process; the only writer of game state."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 on_change: Callable[[int], None] | None = None, limits: config.Limits | None = None) -> None:
        self.store = store
        self.limits = config.load_limits() if limits is None else limits
        """Caps on lobbies and games, the lobby expiry, the pause allowance, the deadline's range."""
        self.clock = clock
        self._subscribers: list[Subscriber] = []
        self.on_change: Callable[[int], None] = on_change or (lambda _gid: None)
        """Called with the game id after each committed change, after the :meth:`subscribe` subscribers
        (kept for callers written before :class:`~bot.core.events.GameCommitted`; new code subscribes)."""
        self.on_broken: Callable[[Session], None] = lambda _session: None
        """Called once when a game is newly marked broken (the Discord layer tells its channel)."""
        self.on_end: Callable[[Session], None] = lambda _session: None
        """Called once a game has left play (finished or aborted, committed): stats record it."""
        self.on_reclaim: Callable[[Session, int, list[int]], None] = lambda _session, _user, _seats: None
        """Called when a player's move took their seats back from a bot (the Discord layer posts the
        reclaim notice, as for ``/game reclaim``)."""
        self.sessions: dict[int, Session] = {}
        self.channels: dict[int, int] = {}
        self._marked: set[int] = set()
        """Games marked broken in the database at start (cleared when one loads again)."""
        self._undo_free: dict[tuple[int, int, int, int], bool] = {}
        """(game, seq, seat, move) -> whether its ↩ undoes at once (issue 27, :meth:`undo_offer`)."""

    # ---- the committed event ---------------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> None:
        """Hear of every committed change (:class:`~bot.core.events.GameCommitted`), in the order
        subscribed; registered at start-up (the publisher, the bots' driver, the web page)."""
        self._subscribers.append(subscriber)

    def _committed(self, session: Session, events: list[Event] | None = None,
                   prompted: list[int] | None = None) -> None:
        """Tell the subscribers, outside the lock, that ``session``'s change is committed; its prompted
        seats are those of ``events``' ``platform.prompt`` events (or ``prompted``)."""
        seats = set(prompted or ())
        for event in events or ():
            if event.get("type") == "platform.prompt":
                seats.update(event.get("seats") or ())
        news = GameCommitted(session.id, session.row.seq, session.row.status, tuple(sorted(seats)))
        for subscriber in (*self._subscribers, lambda e: self.on_change(e.game_id)):
            try:
                subscriber(news)
            except Exception:  # the change is committed: one listener's bug must not undo the answer
                log.exception("game %s: a subscriber of the committed change failed", session.id)

    def changed(self, session: Session) -> None:
        """A change outside a move is committed (a pause, a resume): the subscribers hear of it, so a
        page following the game shows it at once, not at the next move."""
        self._committed(session)

    # ---- index -----------------------------------------------------------------------
    async def restore(self) -> list[int]:
        """Index every unfinished game (states load lazily). Returns ids needing a re-publish.

        A row that cannot be indexed (its columns do not parse, its game no longer exists) is
        marked broken and logged instead of failing the start. A game marked broken before is
        loaded again on first use: an upgrade may have taught its rules to read it (if not, it is
        broken again, and its channel is not told twice).
        """
        bad: dict[int, str] = {}
        rows = await self.store.open_games(bad)
        self._marked = set(await self.store.broken_games())
        stale: list[int] = []
        for row in rows:
            session = Session(row=row)
            self.sessions[row.id] = session
            self.channels[row.channel_id] = row.id
            if session.broken is None:
                reason = bad.get(row.id)
                if reason is None and row.game not in registry.GAMES:  # rules are imported lazily, on load
                    reason = f"unknown game {row.game!r}"
                if reason is not None:
                    await self._mark_broken(session, reason)
                elif row.status == "lobby" and row.id in self._marked:
                    self._marked.discard(row.id)  # a lobby has no state: its row indexes again
                    await self.store.clear_broken(row.id)
            if session.broken is None and row.status == "running" and row.published_seq < row.seq:
                stale.append(row.id)
        # a game whose last move (its end) was committed but not announced when the process died is no
        # longer indexed, yet its channel still waits for the result (the soak's SIGKILLs hit this)
        stale += [gid for gid in await self.store.unpublished_games() if gid not in self.sessions
                  and gid not in self._marked]
        count = sum(1 for s in self.sessions.values() if s.broken is not None)
        if count or self._marked:
            log.warning("%d unfinished games cannot be indexed and %d more were marked broken before (loaded "
                        "again on first use); each waits for /game abort in its channel", count, len(self._marked))
        return stale

    def by_channel(self, channel_id: int) -> Session | None:
        gid = self.channels.get(channel_id)
        return self.sessions.get(gid) if gid is not None else None

    async def get(self, game_id: int, *, refresh: bool = True) -> Session:
        """The game's session, its state loaded. A broken game is returned with ``game`` None and
        ``broken`` set (so it can be listed and aborted); moves on it are refused.

        On a shared store (PostgreSQL, several processes) a cached game is first checked against
        the stored one and reloaded when another process changed it (one cheap read); on SQLite the
        cache is the truth and nothing is read. ``refresh=False``: the caller checks under the lock."""
        session = self.sessions.get(game_id)
        if session is not None:
            if refresh and self.store.shared and not session.lock.locked():
                async with session.lock:  # a holder of the lock is changing the game: it is current
                    await self._refresh(session)
        else:
            try:  # the state is parsed (and checked) by _load
                loaded = await self.store.load_game_text(game_id)
            except (TypeError, ValueError, KeyError) as exc:  # a corrupt column of a game not indexed
                log.error("game %s cannot be read: %s: %s", game_id, type(exc).__name__, exc)
                raise SessionError("err.game_broken", id=game_id) from exc
            if loaded is None:
                raise SessionError("err.no_game")
            row = loaded[0]
            session = Session(row=row)
            if row.status in ("lobby", "running"):
                self.sessions[game_id] = session
                self.channels[row.channel_id] = game_id
        await self._ensure_loaded(session)
        return session

    async def _refresh(self, session: Session, *, force: bool = False) -> bool:
        """Reload the game when the stored copy moved past the cached one (its ``seq``, status or
        ``updated_at`` differ, and the stamp is not this process's own last write); ``force``: reload
        without asking (a commit lost the optimistic check). Caller holds the lock. True if reloaded.

        Only on a shared store: with SQLite this process is the only writer. A game that ended
        elsewhere leaves the index (its channel is free again)."""
        if not self.store.shared or session.broken is not None:
            return False
        row = session.row
        if not force:
            version = await self.store.game_version(session.id)
            if version is None:
                return False
            seq, updated, status = version
            if seq == row.seq and status == row.status and updated in (row.updated_at,
                                                                        self.store.own_stamp(session.id)):
                return False
            log.debug("game %s changed in another process (seq %s -> %s): reloading", session.id, row.seq, seq)
        session.game = None
        session.state_text = None
        self.store.forget_stamp(session.id)  # what is stored now is what the next commit expects
        await self._load(session)
        if session.row.status not in ("lobby", "running"):
            self._forget(session)
        return True

    def _expected_stamp(self, session: Session) -> float | None:
        """The ``updated_at`` a commit expects on a shared store (None: SQLite, no such check): this
        process's last write, else the stored value it loaded."""
        if not self.store.shared:
            return None
        own = self.store.own_stamp(session.id)
        return own if own is not None else session.row.updated_at

    async def _ensure_loaded(self, session: Session) -> None:
        if session.game is not None or session.broken is not None or session.row.status in ("lobby", "aborted"):
            return
        # two first interactions after a restart must not each load (and then act on) a copy
        async with session.lock:
            if session.game is None and session.broken is None:
                await self._load(session)

    async def _load(self, session: Session) -> None:
        """Load the stored state into a live game, migrating an older state version; a state
        that does not load marks the game broken instead of raising."""
        try:
            loaded = await self.store.load_game_text(session.id)
        except (TypeError, ValueError, KeyError) as exc:  # a column written behind the bot's back
            await self._mark_broken(session, f"{type(exc).__name__}: {exc}")
            return
        if loaded is None:
            raise SessionError("err.no_game")
        session.row, text = loaded
        if text is None:
            return
        try:
            game, text, migrated = self._game_from_text(session, text)
        except Exception as exc:
            await self._mark_broken(session, f"{type(exc).__name__}: {exc}")
            return
        if migrated:
            await self.store.save_state(session.id, session.row.seq, text, session.row.settings,
                                        session.row.options)
            log.info("game %s: state migrated to version %s", session.id, session.cls.STATE_VERSION)
        session.game = game
        session.state_text = text  # the game object is the live copy; the text is the committed one
        session.deadlines = {d.seat: SeatTimer(d.due_at, d.remind_at) for d in await self.store.deadlines(session.id)}
        if session.id in self._marked:
            self._marked.discard(session.id)
            await self.store.clear_broken(session.id)
            log.info("game %s loads again and is no longer marked broken", session.id)

    @staticmethod
    def _game_from_text(session: Session, text: str) -> tuple[Game, str, bool]:
        """The live game of a stored state text (migrated when stored by an older version of the
        rules), the committed text to restore from, and whether a migration happened."""
        cls = session.cls
        data = json.loads(text)
        settings = session.row.settings
        version = settings.state_version or 1
        if version > cls.STATE_VERSION:
            raise ValueError(f"state version {version} is newer than these rules ({cls.STATE_VERSION})")
        migrated = version < cls.STATE_VERSION
        if migrated:
            data = cls.migrate_state(data, version)
            options = cls.migrate_options(dict(session.row.options), version)
        with rng_version(session.rng_version):
            game = cls.from_json(data)
            # an unknown shape often loads and fails on first use: use it once now
            actors = game.actors()
            game.outcome()
            for seat in actors:
                game.legal_actions(seat)
            game.view(None)
        game.seat_names = session.seat_names()
        if migrated:
            text = game.to_json_text()
            settings.state_version = cls.STATE_VERSION
            session.row.options = options
        return game, text, migrated

    async def _mark_broken(self, session: Session, reason: str) -> None:
        session.broken = reason
        session.game = None
        session.deadlines = {}
        log.error("game %s (%s) in channel %s cannot be loaded and is marked broken: %s",
                  session.id, session.row.game, session.row.channel_id, reason)
        if await self.store.mark_broken(session.id, reason):
            self.on_broken(session)

    def _restore_committed(self, session: Session) -> None:
        """Put back the game as last committed (after anything failed during a move)."""
        if session.state_text is None:
            return
        with rng_version(session.rng_version):
            session.game = session.cls.from_json(json.loads(session.state_text))
        session.game.seat_names = session.seat_names()

    @asynccontextmanager
    async def changing(self, session: Session) -> AsyncIterator[Session]:
        """The one way to change a session outside a move (issue 23): a join, a lobby option, a bot,
        a pause, a vote, a takeover, a concession, an abort. The row (its lobby, seats, settings,
        status), the deadlines and the game are snapshotted on entry; whatever raises inside (a
        refusal, the disk full on the store write) puts them back before it propagates, so memory
        never keeps a change the database refused and the next successful write cannot save it.
        The caller holds the game's lock and writes to the store inside the block."""
        row = session.row
        saved_row = copy.deepcopy(row)
        saved_deadlines = dict(session.deadlines)
        saved_state = session.state_text
        try:
            yield session
        except BaseException:
            for f in dataclasses.fields(GameRow):  # in place: others hold this row object
                setattr(row, f.name, getattr(saved_row, f.name))
            session.deadlines = saved_deadlines
            session.state_text = saved_state
            if session.game is not None and saved_state is not None:
                self._restore_committed(session)
            raise

    async def save_seats(self, session: Session) -> None:
        """Seat users, lobby names, settings and deadlines of a running game, in one transaction (a bot's
        takeover, a reclaim); the caller holds the lock, inside :meth:`changing`."""
        row = session.row
        rows = self._deadline_rows(session.deadlines)
        async with self.store.transaction() as db:
            await db.execute("UPDATE games SET seat_users = ?, lobby = ?, settings = ?, updated_at = ? WHERE id = ?",
                             (dumps(row.seat_users), dumps(row.lobby), dumps(row.settings),
                              self.store._stamp(row.id, time.time()), row.id))
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (row.id,))
            await db.executemany("INSERT INTO deadlines (game_id, seat, due_at, remind_at) VALUES (?, ?, ?, ?)",
                                 [(row.id, d.seat, d.due_at, d.remind_at) for d in rows])
        if session.game is not None:
            session.game.seat_names = session.seat_names()

    async def reclaim_seats(self, session: Session, user_id: int, seats: list[int]) -> None:
        """``user_id`` takes ``seats`` back from their bot (caller holds the lock): the seat log records
        it, a seat whose move it is gets a fresh deadline, all in one transaction (or nothing changes).
        ``/game reclaim``, its button (:func:`bot.core.bots.reclaim`), and a move made for a seat a bot
        plays (issue 23) come here."""
        async with self.changing(session):
            row = session.row
            assert row.seat_users is not None and session.game is not None
            span = int(row.settings.deadline_s or 0)
            now = self.clock()
            entries = seat_log(row.settings)
            for seat in seats:
                # the bot leaves the seat but stays in ``bots`` and the lobby: the log still names it, and the
                # game stays one that had a bot player (unrated)
                row.seat_users[seat] = [u for u in row.seat_users[seat] if not is_bot(u)]
                note_acted(row.settings, seat)
                entries.append({"type": "platform.reclaim", "seat": seat, "seq": row.seq, "users": [user_id]})
                if span and session.deciding(seat) and session.game.outcome() is None:
                    session.deadlines[seat] = SeatTimer(now + span, now + span / 2)
            row.settings.extra["seat_log"] = entries
            await self.save_seats(session)
        log.info("game %s: user %s reclaims seats %s from the bot", session.id, user_id, seats)

    async def channel_session(self, channel_id: int) -> Session | None:
        gid = self.channels.get(channel_id)
        if gid is None:
            return None
        return await self.get(gid)

    def _forget(self, session: Session) -> None:
        self.sessions.pop(session.id, None)
        self._marked.discard(session.id)
        if self.channels.get(session.row.channel_id) == session.id:
            del self.channels[session.row.channel_id]

    # ---- lobby -----------------------------------------------------------------------
    def check_deadline(self, seconds: float) -> int:
        """The one floor (and ceiling) of a turn deadline, whichever way it is set (a preset,
        ``deadline_hours``, ``/game deadline``, the lobby): 0 (none) or between
        ``limits.deadline_min_s`` and ``limits.deadline_max_s``; anything else is refused. The range
        check is :func:`bot.core.reminders.deadline_seconds`, the one ``/game deadline``'s parser uses."""
        low, high = self.limits.deadline_min_s, self.limits.deadline_max_s
        value = reminders.deadline_seconds(seconds, low, high)
        if value is None:
            raise SessionError("err.bad_deadline", min=low, max=high // 86400)
        return value

    async def _check_caps(self, guild_id: int | None, user_id: int, *, lobby: bool) -> None:
        """Refuse a new lobby (``lobby``) or a player's place in another game past the caps of
        :class:`bot.core.config.Limits` (a cap of 0 is off)."""
        caps = self.limits
        if lobby:
            counts = await self.store.open_counts(guild_id, user_id)
            if caps.lobbies_per_user and counts.lobbies_of_host >= caps.lobbies_per_user:
                raise SessionError("err.cap_lobbies_user", n=caps.lobbies_per_user)
            if guild_id is not None and caps.lobbies_per_server and counts.lobbies >= caps.lobbies_per_server:
                raise SessionError("err.cap_lobbies_server", n=caps.lobbies_per_server)
            if guild_id is not None and caps.games_per_server and counts.running >= caps.games_per_server:
                raise SessionError("err.cap_games_server", n=caps.games_per_server)
        if caps.games_per_user and not is_bot(user_id):
            playing = sum(1 for r in await self.store.games_of_user(user_id) if r.status == "running")
            if playing >= caps.games_per_user:
                raise SessionError("err.cap_games_user", n=caps.games_per_user)

    async def create(self, *, guild_id: int | None, channel_id: int, host: UserInfo, game_key: str,
                     options: dict[str, Any], deadline_s: float = 0) -> Session:
        cls = game_class(game_key)
        merged = cls.default_options()
        for name, value in options.items():
            merged[name] = self._option_value(cls, name, value)
        deadline = self.check_deadline(deadline_s)
        existing = self.by_channel(channel_id)
        if existing is not None and self.store.shared:
            await self.get(existing.id)  # it may have ended in another process (then it leaves the index)
            existing = self.by_channel(channel_id)
        if existing is not None:
            raise SessionError("err.channel_busy", game=existing.row.game, id=existing.id)
        await self._check_caps(guild_id, host.id, lobby=True)
        lobby = [LobbyEntry(user=host.id, name=host.name, lang=host.lang, team=None)]
        try:
            row = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, game=game_key, host_id=host.id, lang=host.lang,
                options=merged, lobby=lobby, settings=GameSettings(deadline_s=deadline),
            )
        except ChannelBusy as exc:
            raise SessionError("err.channel_busy", game="?", id="?") from exc
        session = Session(row=row)
        self.sessions[row.id] = session
        self.channels[channel_id] = row.id
        return session

    async def _lobby(self, game_id: int) -> Session:
        session = await self.get(game_id)
        if session.broken is not None:
            raise SessionError("err.game_broken", id=session.id)
        if session.row.status != "lobby":
            raise SessionError("err.not_lobby")
        return session

    async def join(self, game_id: int, user: UserInfo, team: int | None = None) -> Session:
        session = await self._lobby(game_id)
        async with session.lock, self.changing(session):
            row = session.row
            cls = session.cls
            _, max_players = cls.player_range(row.options)
            teams = cls.team_count(row.options, len(row.lobby))
            if team is not None and not (0 <= team < max(teams, 0)):
                raise SessionError("err.bad_team")
            entry = session.player(user.id)
            if entry is None:
                if len(row.lobby) >= max_players:
                    raise SessionError("err.lobby_full", max=max_players)
                await self._check_caps(row.guild_id, user.id, lobby=False)
                row.lobby.append(LobbyEntry(user=user.id, name=user.name, lang=user.lang, team=team))
            else:
                entry.name, entry.lang = user.name, user.lang
                if team is not None:
                    entry.team = team
            await self.store.update_lobby(row)
        return session

    async def leave_lobby(self, game_id: int, user_id: int) -> Session:
        session = await self._lobby(game_id)
        async with session.lock, self.changing(session):
            row = session.row
            if session.player(user_id) is None:
                raise SessionError("err.not_in_lobby")
            if user_id == row.host_id:
                raise SessionError("err.host_cannot_leave")
            row.lobby = [p for p in row.lobby if p.user != user_id]
            await self.store.update_lobby(row)
        return session

    async def set_player_option(self, game_id: int, user_id: int, name: str, value: Any) -> Session:
        """A lobby member's own option, kept in ``options[name][str(user_id)]`` (None removes it): By All
        Means' own deck list (``user_decks``). The caller validates ``value``; the game reads it when it
        arranges the seats."""
        session = await self._lobby(game_id)
        async with session.lock, self.changing(session):
            row = session.row
            if all(p.user != user_id for p in row.lobby):
                raise SessionError("err.not_in_lobby")
            mine = dict(row.options.get(name) or {})
            if value is None:
                mine.pop(str(user_id), None)
            else:
                mine[str(user_id)] = value
            row.options[name] = mine
            await self.store.update_lobby(row)
        return session

    async def set_option(self, game_id: int, user_id: int, name: str, value: Any) -> Session:
        session = await self._lobby(game_id)
        async with session.lock, self.changing(session):
            row = session.row
            if user_id != row.host_id:
                raise SessionError("err.host_only")
            if name == "deadline_s":
                row.settings.deadline_s = self.check_deadline(float(value))
            else:
                row.options[name] = self._option_value(session.cls, name, value)
                teams = session.cls.team_count(row.options, len(row.lobby))
                for p in row.lobby:
                    if p.team is not None and p.team >= teams:
                        p.team = None
            await self.store.update_lobby(row)
        return session

    async def start(self, game_id: int, user_id: int, *, seed: int | None = None) -> Session:
        session = await self._lobby(game_id)
        async with session.lock:
            row = session.row
            if user_id != row.host_id:
                raise SessionError("err.host_only")
            cls = session.cls
            low, high = cls.player_range(row.options)
            if not low <= len(row.lobby) <= high:
                raise SessionError("err.player_count", min=low, max=high, n=len(row.lobby))
            caps = self.limits
            if row.guild_id is not None and caps.games_per_server:
                if (await self.store.open_counts(row.guild_id, row.host_id)).running >= caps.games_per_server:
                    raise SessionError("err.cap_games_server", n=caps.games_per_server)
            seed = secrets.randbits(62) if seed is None else seed
            players = [Player(user_id=p.user, team=p.team) for p in row.lobby]
            with rng_version(RNG_VERSION):
                arrangement = cls.arrange_seats(players, row.options, seating_rng(seed))
                game = cls.new(arrangement.seat_info, row.options, seed)
            # replays need the generator and the state's shape this game starts with
            row.settings.rng_version = RNG_VERSION
            row.settings.state_version = cls.STATE_VERSION
            row.seat_users = arrangement.seat_users
            game.seat_names = session.seat_names()
            row.seat_info = arrangement.seat_info
            row.seed = seed
            row.seat_counts = [0] * len(arrangement.seat_users)
            row.status = "running"
            row.published_seq = -1
            state_text = game.to_json_text()
            decisions = game.open_decisions()
            deadlines = self._deadlines_for(session, game, decisions, acting_seat=None)
            try:
                await self.store.start_game(row, state_text, self._deadline_rows(deadlines))
            except BaseException:
                row.status = "lobby"
                row.seat_users = row.seat_info = row.seed = None
                raise
            session.game = game
            session.state_text = state_text
            session.decisions, session.decided_on = decisions, state_text
            session.deadlines = deadlines
        self._committed(session, prompted=[s for d in session.open_decisions() for s in d.seats])
        return session

    # ---- play ------------------------------------------------------------------------
    def _deadlines_for(self, session: Session, game: Game, decisions: list[OpenDecision],
                       acting_seat: int | None) -> dict[int, SeatTimer]:
        """Deadlines of the seats that hold an open decision; a seat still deciding keeps its old one.
        A deadline the rules impose (``OpenDecision.deadline_s``, the longest of those open) overrides
        the game's pace."""
        if game.outcome() is not None:
            return {}
        now = self.clock()
        forced = max((d.deadline_s for d in decisions if d.deadline_s), default=None)
        span = forced if forced else int(session.row.settings.deadline_s or 0)
        if not span:
            return {}
        result: dict[int, SeatTimer] = {}
        windows = {s for d in decisions if d.auto for s in d.seats}  # closed by the rules: no reminder
        for seat in dict.fromkeys(s for d in decisions for s in d.seats):
            if seat in session.conceded or controlled(session.row, seat):
                continue  # a bot seat moves at once; an absent player's seat a bot plays has no deadline
            if seat != acting_seat and seat in session.deadlines:
                result[seat] = session.deadlines[seat]
            else:
                result[seat] = SeatTimer(now + span, None if seat in windows else now + span / 2)
        return result

    @staticmethod
    def _deadline_rows(deadlines: dict[int, SeatTimer]) -> list[Deadline]:
        return [Deadline(seat, due, remind) for seat, (due, remind) in sorted(deadlines.items())]

    async def _running(self, game_id: int) -> Session:
        session = await self.get(game_id)
        self._check_running(session)
        return session

    @staticmethod
    def _check_running(session: Session) -> None:
        if session.broken is not None:
            raise SessionError("err.game_broken", id=session.id)
        if session.row.status != "running" or session.game is None:
            raise SessionError("err.not_running")

    async def _locked_running(self, game_id: int) -> Session:
        """The running game's session for a move: a shared store checks it is current under the
        lock (the caller enters ``session.lock`` and calls :meth:`_current`)."""
        session = await self.get(game_id, refresh=False)
        if not self.store.shared:
            self._check_running(session)
        return session

    async def _current(self, session: Session, *, force: bool = False) -> None:
        """Under the lock: reload what another process changed, then the game must be running."""
        await self._refresh(session, force=force)
        self._check_running(session)

    async def _commit(self, session: Session, seat: int, user_id: int | None, action: Action,
                      meta: list[Event] | None = None, *, standing: bool = False) -> list[Event]:
        """Apply one action and commit it with the new state; caller holds the lock.

        ``session.row`` changes only once the transaction is committed: the publisher reads
        ``row.seq`` concurrently and must never see a sequence number whose action is not stored.
        """
        game = session.game
        assert game is not None
        row = session.row
        secret = True  # until the game says otherwise, a failed action is logged by its type only
        try:
            secret = game.is_secret(seat, action)
            before = session.open_decisions()  # of the committed state, before apply changes the game
            with rng_version(session.rng_version):
                events = game.apply(seat, action)
            self._check_recipients(session, events)
            return await self._store_move(session, seat, user_id, action, meta or [], events, before, standing)
        except IllegalAction:
            self._restore_committed(session)  # a refusal should change nothing; make sure of it
            raise
        except Exception as exc:
            self._restore_committed(session)
            if isinstance(exc, (SessionError, Conflict, sqlite3.Error)):
                raise  # a refusal, or the database (the commit had already been refused or rolled back)
            # a secret choice (Cold War agents, Godstorm bids) is logged without its value
            shown = action if not secret and isinstance(action, dict) else {"type": _action_type(action)}
            log.exception("game %s (%s): seat %s's move %s failed; the game is back at seq %s",
                          row.id, row.game, seat, _log_text(shown), row.seq)
            raise SessionError("err.move_failed") from exc
        except BaseException:
            self._restore_committed(session)  # cancelled while committing: memory follows the database
            raise

    async def _store_move(self, session: Session, seat: int, user_id: int | None, action: Action,
                          meta: list[Event], events: list[Event], before: list[OpenDecision],
                          standing: bool = False) -> list[Event]:
        """The second half of :meth:`_commit`: prompts, deadlines, the transaction, then the row.

        Who is prompted comes from the open decisions before and after the move
        (:func:`bot.games.decision.newly_open`): a seat holding a decision it did not hold before. The
        acting seat is left out (its panel answers the click in place), except a seat shared by a team
        that is still deciding after a move of its own: its other members are told (the clicker,
        ``skip_user``, is not)."""
        game = session.game
        assert game is not None
        row = session.row
        stored_events = meta + events
        after = game.open_decisions()
        # a window the rules closed themselves (issue 27: no click, so no panel answered in place) prompts a
        # seat that still decides after it, like any other seat
        closed = user_id is None and seat not in session.conceded and in_window(before, seat)
        newly = newly_open(before, after) - (set() if closed else {seat})
        prompt: Event = {"type": "platform.prompt", "seats": []}
        if not standing and len(self._users(session, seat)) > 1 and any(seat in d.seats for d in after):
            newly.add(seat)
            prompt["skip_user"] = user_id
        if newly and game.outcome() is None:
            # seats that must now act: the delivery layer pings them and sends their panels; the open
            # decisions ride along for the publisher and later tools (absent from logs written before)
            prompt["seats"] = sorted(newly)
            prompt["decisions"] = [d.to_json() for d in after]
            stored_events.append(prompt)
        new_seq = row.seq + 1
        seat_counts = list(row.seat_counts)
        if 0 <= seat < len(seat_counts):
            seat_counts[seat] += 1
        status = "finished" if session.outcome() is not None else row.status
        # a standing preference (issue 10) restarts nobody's clock, not even the setter's
        deadlines = self._deadlines_for(session, game, after, acting_seat=None if standing else seat)
        state_text = game.to_json_text()
        await self.store.commit_action(
            row.id, old_seq=row.seq, new_seq=new_seq, status=status, seat_counts=seat_counts,
            settings=row.settings, seat=seat, user_id=user_id, action=action, events=stored_events,
            state_text=state_text,
            deadlines=None if deadlines == session.deadlines else self._deadline_rows(deadlines),
            expect_updated=self._expected_stamp(session),
        )
        row.seq, row.status, row.seat_counts = new_seq, status, seat_counts
        session.state_text = state_text
        session.decisions, session.decided_on = after, state_text
        session.deadlines = deadlines
        return stored_events

    @staticmethod
    def _check_recipients(session: Session, events: list[Event]) -> None:
        """``"to"`` marks an event private to a list of seats; anything else is a game bug that
        would misroute private information, so the action is undone and refused loudly."""
        n = len(session.row.seat_users or [])
        for event in events:
            to = event.get("to")
            if to is None:
                continue
            if not isinstance(to, list) or not all(isinstance(s, int) and 0 <= s < n for s in to):
                raise RuntimeError(f"{session.row.game}: event {event.get('type')!r} has a malformed 'to'")

    @staticmethod
    def _users(session: Session, seat: int) -> list[int]:
        seats = session.row.seat_users or []
        return list(seats[seat]) if 0 <= seat < len(seats) else []

    async def _autoplay(self, session: Session) -> list[Event]:
        """Play for conceded seats (their timeout action, else their first legal action), and close the
        automatic windows (an undo window before a draw or a roll, issue 27) at once in a game whose
        takebacks are off: nothing could be taken back in them, so they would only hold the game up."""
        events: list[Event] = []
        game = session.game
        assert game is not None
        closing = takeback.mode_of(session.row.settings.takeback) == "off"
        for _ in range(MAX_AUTOPLAY):
            if session.row.status != "running" or game.outcome() is not None:
                break
            conceded = session.conceded
            seats = [s for d in session.open_decisions() for s in d.seats if s in conceded or (closing and d.auto)]
            if not seats:
                break
            seat = seats[0]
            action = game.timeout_action(seat)
            if action is None:
                legal = game.legal_actions(seat)
                if not legal:
                    break
                action = legal[0]
            try:
                events += await self._commit(session, seat, None, action)
            except (SessionError, IllegalAction, Conflict) as exc:
                # the move before is committed and stays; the conceded seat waits for the next try
                log.warning("game %s: automatic move of conceded seat %s refused (%s)", session.id, seat, exc)
                break
            game = session.game
            assert game is not None
        return events

    async def act(self, game_id: int, user_id: int, seat: int, action: Action,
                  stamp: int | None = None, *, expect_seq: int | None = None) -> ActResult:
        """Apply ``action`` for ``seat`` on behalf of ``user_id``.

        ``stamp`` is the number of actions the seat had made when the control was built; a
        control built before the seat's last action is stale (this makes double clicks safe).
        """
        session = await self._locked_running(game_id)
        async with session.lock:
            if self.store.shared:
                events = await self._act_shared(session, user_id, seat, action, stamp, expect_seq)
            else:
                events = await self._act_checked(session, user_id, seat, action, stamp, expect_seq)
            events += await self._autoplay(session)
            self._drop_if_done(session)
        self._committed(session, events)
        return ActResult(session, events, seat)

    async def _act_shared(self, session: Session, user_id: int, seat: int, action: Action, stamp: int | None,
                          expect_seq: int | None) -> list[Event]:
        """:meth:`act` on a shared store, optimistically: checked and applied on the cached game with no
        extra read, since the commit itself refuses a game changed since (its ``seq`` and change stamp).
        A lost commit, or a refusal that a newer stored game might not make, looks at the stored game:
        when another process changed it, the move is checked and applied once more on what it stored
        (the seq check never lets both land); a second lost commit answers ``err.busy``."""
        try:
            self._check_running(session)
            return await self._act_checked(session, user_id, seat, action, stamp, expect_seq)
        except (SessionError, IllegalAction, Conflict) as exc:
            if not await self._refresh(session, force=isinstance(exc, Conflict)):
                raise
        self._check_running(session)
        try:
            return await self._act_checked(session, user_id, seat, action, stamp, expect_seq)
        except Conflict as exc:
            await self._refresh(session, force=True)
            raise SessionError("err.busy") from exc

    async def _act_checked(self, session: Session, user_id: int, seat: int, action: Action, stamp: int | None,
                           expect_seq: int | None) -> list[Event]:
        """The checks and the commit of :meth:`act`; caller holds the lock."""
        session.check_seat(user_id, seat, stamp)
        game = session.game
        assert game is not None
        actor = session.deciding(seat)
        listed = actor and game.is_listed(seat, action)  # the one legal list of this click
        # a standing preference (issue 10, ``Game.standing_actions``) is taken at any time
        standing = not listed and game.is_standing(seat, action)
        if not actor and not standing:
            raise SessionError("err.not_your_turn")
        if not listed and not standing:
            # only what the game lists reaches its rules (a slash command can build any dict)
            raise not_legal(game, seat, action)
        if expect_seq is not None and session.row.seq != expect_seq:
            raise SessionError("err.stale")  # a bot decided on an older state
        if not is_bot(user_id):
            if controlled(session.row, seat):
                # issue 23: a player who moves for the seat a bot took over is back: the move reclaims
                # the seat (as /game reclaim does), so the player and the bot never race for it
                await self.reclaim_seats(session, user_id, [seat])
                self.on_reclaim(session, user_id, [seat])
            note_acted(session.row.settings, seat)  # stored with the move
        return await self._commit(session, seat, user_id, action, standing=standing)

    async def act_admin(self, game_id: int, user_id: int, action: Action) -> ActResult:
        session = await self._locked_running(game_id)
        async with session.lock:
            await self._current(session)
            game = session.game
            assert game is not None
            if action not in game.admin_actions():
                raise SessionError("err.stale")
            try:
                events = await self._commit(session, ADMIN, user_id, action)
            except Conflict as exc:  # another process moved first: the moderator looks again
                await self._refresh(session, force=True)
                raise SessionError("err.busy") from exc
            events += await self._autoplay(session)
            self._drop_if_done(session)
        self._committed(session, events)
        return ActResult(session, events, ADMIN)

    async def expire(self, game_id: int, seat: int) -> list[Event] | None:
        """A seat's deadline passed: apply the game's rule for an absent seat."""
        try:
            session = await self._locked_running(game_id)
        except SessionError:
            return None
        async with session.lock:
            try:
                await self._current(session)
            except SessionError:
                return None
            game = session.game
            if session.row.status != "running" or game is None:
                return None
            due = session.deadlines.get(seat)
            if due is not None and due.due_at > self.clock():
                return None
            action = game.timeout_action(seat) if due is not None and session.deciding(seat) else None
            if action is None:
                session.deadlines.pop(seat, None)
                await self.store.commit_deadlines(game_id, self._deadline_rows(session.deadlines))
                return None
            meta: list[Event] = []  # a window the rules close themselves (issue 27) is not a missed turn
            if not in_window(session.open_decisions(), seat):
                meta = [{"type": "platform.timeout", "seat": seat}]
                note_missed(session.row.settings, seat)  # stored with the timeout move
            try:
                events = await self._commit(session, seat, None, action, meta=meta)
            except Conflict:
                # another process moved first (a move in time, or this same deadline): it stands
                await self._refresh(session, force=True)
                log.info("game %s: seat %s's deadline found the game changed elsewhere; not fired", game_id, seat)
                return None
            events += await self._autoplay(session)
            self._drop_if_done(session)
        self._committed(session, events)
        return events

    async def concede(self, game_id: int, user_id: int, *, how: str = "conceded") -> Session:
        """The player leaves the game (``how``: "conceded", or "dropped" by the absent-player rule)."""
        session = await self._locked_running(game_id)
        async with session.lock:
            await self._current(session)
            async with self.changing(session):
                ended = await self._concede_seats(session, user_id, how)
            events = [] if ended else await self._autoplay(session)  # moves of their own, after the concession
            self._drop_if_done(session)
        self._committed(session, events)
        return session

    async def _concede_seats(self, session: Session, user_id: int, how: str) -> bool:
        """The concession itself, written in one transaction (caller: lock and :meth:`changing`).
        Returns whether it ended the game."""
        game_id = session.id
        seats = session.seats_of(user_id)
        if not seats:
            raise SessionError("err.spectator")
        game = session.game
        assert game is not None
        row = session.row
        for seat in seats:
            users = row.seat_users[seat] if row.seat_users else []
            if len(users) > 1:
                users.remove(user_id)  # a team seat goes on with its other members
                continue
            row.settings.conceded = sorted({*(row.settings.conceded or []), seat})
        for seat in seats:  # who left and how (issue 12: the stats count abandoned games)
            votes.record_departure(row.settings.extra, user_id, seat, how, self.clock())
        live_sides = {game.side_of(s) for s in range(len(row.seat_users or [])) if s not in session.conceded}
        if len(live_sides) <= 1:
            row.settings.outcome = {"winners": sorted(live_sides), "draw": False, "conceded": True}
            row.settings.extra["ending"] = "conceded"
            await self.store.set_status(game_id, "finished", row.settings, seat_users=row.seat_users)
            row.status = "finished"
            return True
        await self.store.set_status(game_id, "running", row.settings, seat_users=row.seat_users)
        game.seat_names = session.seat_names()
        return False

    async def abort(self, game_id: int, by: int | None = None) -> Session:
        """End the game without a result (``by``: the host or moderator who asked; None: the platform,
        e.g. an expired lobby or a game only bots were left in). A player of a rated game past its
        first round cannot: see :func:`bot.core.votes.abort_needs_vote` (issue 23)."""
        session = await self.get(game_id, refresh=False)
        async with session.lock:
            await self._refresh(session)
            if session.row.status not in ("lobby", "running"):
                raise SessionError("err.not_running")
            self.check_abort(session, by)
            async with self.changing(session):
                if session.row.status == "running" and session.broken is None:
                    votes.record_departure(session.row.settings.extra, by, None, "aborted", self.clock())
                    session.row.settings.extra["ending"] = "aborted"
                    await self.store.set_status(game_id, "aborted", session.row.settings)
                else:
                    await self.store.set_status(game_id, "aborted")
                session.row.status = "aborted"
            self._forget(session)
            self.on_end(session)
        self._committed(session)
        return session

    @staticmethod
    def check_abort(session: Session, by: int | None) -> None:
        """Refuse (``err.abort_needs_vote``) a player's abort of a rated game past its first round:
        ending it without a result then needs everyone's agreement (``/game vote end``), or the
        player resigns (``/game leave``), which counts for the ratings."""
        row = session.row
        if by is None or row.status != "running" or session.broken is not None:
            return
        if votes.abort_needs_vote(by, row.seat_users or [], row.seat_counts, session.conceded,
                                  rated=not bot_levels(row.settings)):
            raise SessionError("err.abort_needs_vote")

    def _drop_if_done(self, session: Session) -> None:
        if session.row.status in ("finished", "aborted"):
            self._forget(session)
            self.on_end(session)

    # ---- takebacks (issue 27) -------------------------------------------------------------
    async def takeback_log(self, session: Session, tail: int | None = None) -> tuple[list[takeback.Move], bool]:
        """The game's effective log (takeback entries and the moves they undid left out), or that of its
        last ``tail`` entries only; with whether it is the whole log."""
        rows = await self.store.moves(session.id, limit=tail)
        moves = [takeback.Move(r.seq, r.seat, r.user_id, r.action) for r in takeback.effective(rows)]
        return moves, tail is None or len(rows) < tail

    async def _state_before(self, session: Session, moves: list[takeback.Move], whole: bool,
                            first: int) -> tuple[str, list[Deadline] | None]:
        """The stored state text just before move ``first`` with its clocks: the takeback point written with
        that move when it is kept, else rebuilt from the seed and the effective log (clocks None)."""
        point = await self.store.takeback_point(session.id, first)
        if point is not None:
            return point.state_text, point.clocks
        if not whole:
            moves, _ = await self.takeback_log(session)
        row = session.row
        game = takeback.rebuild(session.cls, row.seat_info or [], row.options, row.seed or 0,
                                [m for m in moves if m.seq < first], rng=session.rng_version)
        return game.to_json_text(), None

    def _game_of(self, session: Session, text: str) -> Game:
        with rng_version(session.rng_version):
            return session.cls.from_json(json.loads(text))

    async def plan_takeback(self, session: Session, seat: int, from_seq: int | None = None,
                            user_id: int | None = None) -> TakebackPlan:
        """What a takeback by ``seat`` would undo now: from ``from_seq`` (a move of its own; default its
        most recent one) to the end of the effective log, and whether it needs nobody's agreement (all
        those moves are the seat's own and none revealed anything). With ``user_id``, "its own" means that
        user's: on a seat a team shares, a member's moves are not another member's to undo. Caller holds the
        lock. Only the log's tail is read when the moves lie in it (an undo of the last move reads a few rows,
        not the game)."""
        moves, whole = await self.takeback_log(session, TAKEBACK_TAIL)
        own = takeback.own_moves(moves, seat, user_id)
        if not whole and (not own or (from_seq is not None and from_seq < own[0].seq)):
            moves, whole = await self.takeback_log(session)
            own = takeback.own_moves(moves, seat, user_id)
        if from_seq is None:
            if not own:
                raise SessionError("takeback.err.nothing")
            from_seq = takeback.move_start(moves, own[-1], session.cls.continues).seq
        elif all(m.seq != from_seq for m in own):
            raise SessionError("takeback.err.stale")  # the move is no longer in the game (taken back already)
        undo = [m for m in moves if m.seq >= from_seq]
        if len(undo) > takeback.MAX_MOVES:
            raise SessionError("takeback.err.too_far", n=takeback.MAX_MOVES)
        run = takeback.own_run(moves, seat, user_id)
        plan = TakebackPlan(seat, [m.seq for m in undo], False, moves, whole)
        if run and run[0].seq <= from_seq:
            plan.before_text, plan.clocks = await self._state_before(session, moves, whole, from_seq)
            before = self._game_of(session, plan.before_text)
            plan.free = len(takeback.free_moves(before, undo, seat, session.rng_version)) == len(undo)
        return plan

    def _takeback_checks(self, session: Session, user_id: int, seat: int, stamp: int | None) -> str:
        """The game runs, ``user_id`` plays ``seat`` (at ``stamp``), takebacks are on: the game's mode."""
        self._check_running(session)
        session.check_seat(user_id, seat)
        if stamp is not None and session.row.seat_counts[seat] != stamp:
            raise SessionError("takeback.err.stale")  # a ↩ of an older panel: the seat moved, or a takeback
        if session.outcome() is not None:
            raise SessionError("err.not_running")
        mode = takeback.mode_of(session.row.settings.takeback)
        if mode == "off":
            raise SessionError("takeback.err.off")
        return mode

    async def takeback(self, game_id: int, user_id: int, seat: int, *, from_seq: int | None = None,
                       stamp: int | None = None) -> TakebackResult:
        """``/game undo`` and the ↩ button: undo ``seat``'s moves from ``from_seq`` (default: its last)
        at once when nothing was revealed since (:meth:`plan_takeback`); otherwise, where the game
        allows it, ask every other human player (a request in the settings, answered with
        :meth:`answer_takeback`; bots agree only when nothing random or hidden was revealed)."""
        session = await self._locked_running(game_id)
        async with session.lock:
            await self._current(session)
            mode = self._takeback_checks(session, user_id, seat, stamp)
            plan = await self.plan_takeback(session, seat, from_seq, user_id)
            if plan.free:
                result = await self._apply_takeback(session, seat, user_id, plan, agreed=[])
            else:
                result = await self._ask_takeback(session, seat, user_id, plan, mode)
            if result.done:
                result.events += await self._autoplay(session)  # a conceded seat to move in the old position
        if result.done:
            self._committed(session, result.events)
        return result

    async def _ask_takeback(self, session: Session, seat: int, user_id: int, plan: TakebackPlan,
                            mode: str) -> TakebackResult:
        row = session.row
        extra = row.settings.extra
        now = self.clock()
        if mode != "agree":
            raise SessionError("takeback.err.own_turn_only")
        if takeback.live_request(extra, row.seq, now) is not None:
            raise SessionError("takeback.err.pending")
        limit = takeback.limit_of(row.settings.takeback_limit)
        if takeback.used(extra, user_id) >= limit:
            raise SessionError("takeback.err.limit", n=limit)
        asked = sorted(votes.voters(row.seat_users or [], session.conceded) - {user_id})
        has_bots = bool(bot_levels(row.settings)) or any(
            controlled(row, s) or any(is_bot(u) for u in users) for s, users in enumerate(row.seat_users or []))
        if has_bots:
            if plan.before_text is None:
                plan.before_text, plan.clocks = await self._state_before(session, plan.log, plan.whole,
                                                                         plan.moves[0])
            before = self._game_of(session, plan.before_text)
            undo = [m for m in plan.log if m.seq >= plan.moves[0]]
            if not takeback.safe_for_bots(before, undo, session.rng_version):
                raise SessionError("takeback.err.bot_declines")
        async with self.changing(session):
            takeback.count_request(extra, user_id)
            if not asked:  # only bots to ask, and they agree
                return await self._apply_takeback(session, seat, user_id, plan, agreed=[])
            request = {"id": secrets.token_hex(4), "seq": row.seq, "seat": seat, "user": user_id,
                       "moves": plan.moves, "asked": asked, "agreed": [], "at": now}
            extra["takeback_request"] = request
            await self.store.save_settings(session.id, row.settings)
        return TakebackResult(session, done=False, request=request, moves=plan.moves)

    async def answer_takeback(self, game_id: int, user_id: int, request_id: str, yes: bool) -> TakebackResult:
        """A player's Accept or Decline of the takeback request ``request_id``: a decline ends it and
        changes nothing else; the last acceptance applies the takeback (in the same transaction that
        clears the request, so it is applied once)."""
        session = await self._locked_running(game_id)
        async with session.lock:
            await self._current(session)
            row = session.row
            request = takeback.live_request(row.settings.extra, row.seq, self.clock())
            if request is None or request.get("id") != request_id:
                raise SessionError("takeback.err.no_request")
            if user_id not in request.get("asked", []):
                raise SessionError("takeback.err.not_asked")
            if not yes:
                async with self.changing(session):
                    row.settings.extra.pop("takeback_request", None)
                    await self.store.save_settings(session.id, row.settings)
                return TakebackResult(session, done=False, request=request, moves=request["moves"], declined=True)
            agreed = sorted({*request.get("agreed", []), user_id})
            if set(agreed) < set(request["asked"]):
                async with self.changing(session):
                    request["agreed"] = agreed
                    await self.store.save_settings(session.id, row.settings)
                return TakebackResult(session, done=False, request=request, moves=request["moves"])
            seat = int(request["seat"])
            moves, _ = await self.takeback_log(session)
            wanted = set(request["moves"])
            if {m.seq for m in moves if m.seq >= min(wanted)} != wanted:
                raise SessionError("takeback.err.no_request")  # the log changed under the request
            plan = TakebackPlan(seat, sorted(wanted), False, moves, True)
            result = await self._apply_takeback(session, seat, int(request["user"]), plan, agreed=agreed)
        self._committed(session, result.events)
        return result

    async def _apply_takeback(self, session: Session, seat: int, user_id: int, plan: TakebackPlan,
                              agreed: list[int]) -> TakebackResult:
        """Rebuild the game without ``plan.moves`` and commit it with the takeback entry, in one
        transaction (caller: the lock). Every seat's stamp moves on, so every older panel is refused."""
        row = session.row
        first = plan.moves[0]
        if plan.before_text is None:
            plan.before_text, plan.clocks = await self._state_before(session, plan.log, plan.whole, first)
        text, clocks = plan.before_text, plan.clocks
        game = self._game_of(session, text)
        game.seat_names = session.seat_names()
        if clocks is not None:
            deadlines = {d.seat: SeatTimer(d.due_at, d.remind_at) for d in clocks}
        else:
            deadlines = self._deadlines_for(session, game, game.open_decisions(), acting_seat=None)
        entry = takeback.entry(seat, plan.moves, agreed, free=plan.free)
        events: list[Event] = [takeback.event(seat, plan.moves, agreed, free=plan.free)]
        decisions = game.open_decisions()
        prompted = sorted({s for d in decisions for s in d.seats} - set(session.conceded))
        if prompted:
            prompt: Event = {"type": "platform.prompt", "seats": prompted,
                             "decisions": [d.to_json() for d in decisions]}
            if plan.free:
                prompt["skip_user"] = user_id  # the undoing player sees the panel in place (↩, /game undo)
            events.append(prompt)
        seat_counts = [c + 1 for c in row.seat_counts]
        new_seq = row.seq + 1
        async with self.changing(session):
            row.settings.extra.pop("takeback_request", None)
            try:
                await self.store.commit_takeback(
                    session.id, old_seq=row.seq, new_seq=new_seq, seat_counts=seat_counts, settings=row.settings,
                    user_id=user_id, action=entry, events=events, state_text=text,
                    deadlines=self._deadline_rows(deadlines), first=first,
                    expect_updated=self._expected_stamp(session))
            except Conflict as exc:
                await self._refresh(session, force=True)
                raise SessionError("err.busy") from exc
        row.seq, row.seat_counts = new_seq, seat_counts
        session.game, session.state_text, session.deadlines = game, text, deadlines
        session.decisions, session.decided_on = decisions, text
        log.info("game %s: seat %s took back moves %s (agreed: %s)", session.id, seat, plan.moves, agreed)
        return TakebackResult(session, done=True, moves=plan.moves, events=events)

    def takeback_request(self, session: Session) -> dict[str, Any] | None:
        """The takeback request waiting for answers in ``session`` (None: none, or lapsed)."""
        return takeback.live_request(session.row.settings.extra, session.row.seq, self.clock())

    async def undo_offer(self, session: Session, seat: int, user_id: int, *, latest: bool = True) -> int | None:
        """The move a ↩ shown to ``user_id`` on ``seat``'s panel takes back: the seat's most recent move of
        its own in the effective log; with ``latest`` (a panel, not the confirmation of that very move) only
        while it is the last move, so the panel is seen right after it. None when no ↩ applies: takebacks
        off, the game over, no such move, or the move can neither be undone at once nor asked for (``own``
        past a reveal; ``agree`` past a reveal with the caller's requests used up or another one waiting).
        Reads the log's tail; plans (replays the seat's run) only when the answer depends on it, once per
        position. Takes no lock: a panel built from a position that moves on meanwhile is refused by stamp."""
        row = session.row
        if (session.broken is not None or row.status != "running" or session.game is None
                or session.outcome() is not None or seat not in session.seats_of(user_id)):
            return None
        mode = takeback.mode_of(row.settings.takeback)
        if mode == "off":
            return None
        at_seq = row.seq
        moves, _ = await self.takeback_log(session, TAKEBACK_TAIL)
        own = takeback.own_moves(moves, seat, user_id)  # the caller's own: not a teammate's on a shared seat
        if not own or (latest and own[-1] is not moves[-1]) or self._is_preference(session.game, seat, own[-1].action):
            return None  # a standing preference is changed back by setting it again, not taken back
        target = takeback.move_start(moves, own[-1], session.cls.continues).seq  # a ✔ goes with its play
        extra = row.settings.extra
        if (mode == "agree" and takeback.used(extra, user_id) < takeback.limit_of(row.settings.takeback_limit)
                and takeback.live_request(extra, at_seq, self.clock()) is None):
            return target  # undone at once or asked for: either way the ↩ does something
        key = (session.id, at_seq, seat, target)
        free = self._undo_free.get(key)
        if free is None:
            try:
                free = (await self.plan_takeback(session, seat, target, user_id)).free
            except SessionError:
                free = False
            if len(self._undo_free) >= UNDO_FREE_CACHE:
                self._undo_free.clear()
            self._undo_free[key] = free
        return target if free and row.seq == at_seq else None

    @staticmethod
    def _is_preference(game: Game, seat: int, action: Any) -> bool:
        """Whether a logged action of ``seat`` is one of its standing preferences (issue 10)."""
        action = json.loads(action) if isinstance(action, str) else action
        kind = action.get("type") if isinstance(action, dict) else None
        return kind is not None and kind in {a.get("type") for a in game.standing_actions(seat)}

    async def set_takebacks(self, game_id: int, user_id: int, mode: str, limit: int | None) -> Session:
        """The host's per-game setting (issue 27): ``mode`` in :data:`bot.core.takeback.MODES` and the
        requests each player may make (``limit``, None: unchanged); in the lobby or while running."""
        session = await self.get(game_id)
        if mode not in takeback.MODES or (limit is not None and not 0 <= limit <= takeback.MAX_LIMIT):
            raise SessionError("takeback.err.bad_setting", max=takeback.MAX_LIMIT)
        async with session.lock:
            await self._refresh(session)
            if session.row.status not in ("lobby", "running"):
                raise SessionError("err.not_running")
            if user_id != session.row.host_id:
                raise SessionError("err.host_only")
            async with self.changing(session):
                session.row.settings.takeback = mode
                if limit is not None:
                    session.row.settings.takeback_limit = limit
                await self.store.save_settings(session.id, session.row.settings)
        return session

    # ---- helpers for the Discord layer ----------------------------------------------
    @staticmethod
    def _option_value(cls: type[Game], name: str, value: Any, *, as_text: bool = False) -> Any:
        """The option's own value for ``value`` (compared as text when parsing a command line)."""
        spec = next((s for s in cls.option_specs() if s.name == name), None)
        for choice, _label in spec.choices if spec else ():
            if (str(choice) == value) if as_text else (choice == value):
                return choice
        raise SessionError("err.bad_option", name=name, value=value)

    def parse_options(self, cls: type[Game], text: str) -> dict[str, Any]:
        """``"lines=2 layout=shuffled"`` -> typed option values (refused when unknown)."""
        result: dict[str, Any] = {}
        for part in text.replace(",", " ").split():
            name, sep, raw = part.partition("=")
            if not sep:
                raise SessionError("err.bad_option", name=part, value="")
            result[name] = self._option_value(cls, name, raw, as_text=True)
        return result

