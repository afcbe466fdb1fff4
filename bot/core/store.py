"""SQLite persistence (aiosqlite, WAL, foreign keys, forward migrations).

Every accepted action is committed together with the new state in one transaction, guarded by
an optimistic ``seq`` check, before anything is posted to Discord. ``synchronous=NORMAL`` in WAL
mode survives a killed process (SIGKILL) without losing a committed transaction; only a power
loss could drop the last few, which is the usual trade-off for a chat bot.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, cast

import aiosqlite

from bot.core import jsontext
from bot.core.config import ConfigError
from bot.core.db import PgConnection, is_pg_url

log = logging.getLogger(__name__)
OPEN_STATUSES = ("lobby", "running")

MIGRATIONS: list[list[str]] = [
    # version 1
    [
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
            host_id INTEGER NOT NULL,
            lang TEXT NOT NULL,
            options TEXT NOT NULL,
            lobby TEXT NOT NULL,
            settings TEXT NOT NULL,
            seat_users TEXT,
            seat_info TEXT,
            seed INTEGER,
            state TEXT,
            seat_counts TEXT,
            seq INTEGER NOT NULL DEFAULT 0,
            published_seq INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        "CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) "
        "WHERE status IN ('lobby', 'running')",
        "CREATE INDEX games_open ON games(status) WHERE status IN ('lobby', 'running')",
        "CREATE INDEX games_guild ON games(guild_id, status)",
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            action TEXT NOT NULL,
            events TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
        """CREATE TABLE messages (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            purpose TEXT NOT NULL,
            channel_id INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            data TEXT,
            PRIMARY KEY (game_id, purpose)
        )""",
        """CREATE TABLE deadlines (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            due_at REAL NOT NULL,
            remind_at REAL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX deadlines_due ON deadlines(due_at)",
        """CREATE TABLE dm_closed (
            user_id INTEGER PRIMARY KEY,
            since REAL NOT NULL
        )""",
    ],
    # version 2: install-wide settings (e.g. the custom-id secret, the last time the bot was alive)
    # and games whose stored state cannot be loaded (kept apart so one bad row harms no other game)
    [
        """CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
        """CREATE TABLE broken_games (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            reason TEXT NOT NULL,
            since REAL NOT NULL
        )""",
    ],
    # version 3 (issue 12): spectators following a game by DM, per-user choices (reminders by DM)
    [
        """CREATE TABLE followers (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL,
            since REAL NOT NULL,
            PRIMARY KEY (game_id, user_id)
        )""",
        """CREATE TABLE user_prefs (
            user_id INTEGER PRIMARY KEY,
            remind_dm INTEGER NOT NULL DEFAULT 0
        )""",
    ],
    # version 4 (issue 14): several processes on one PostgreSQL claim work with leases (the
    # publishing of a game, the timer); the games whose moves are not all announced, found quickly
    [
        """CREATE TABLE leases (
            name TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL
        )""",
        "CREATE INDEX games_unpublished ON games(id) WHERE published_seq < seq",
    ],
    # version 5 (issue 28): leagues and tournaments (bot/core/leagues/storage.py reads and writes them).
    # A round's tables are written with the round's number in one transaction; a table's key is unique,
    # so a round is paired once and a table opened once, whatever restarts in between.
    [
        """CREATE TABLE leagues (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            format TEXT NOT NULL,
            status TEXT NOT NULL,
            host_id INTEGER NOT NULL,
            lang TEXT NOT NULL,
            config TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            round_due REAL,
            signup_message_id INTEGER,
            standings_message_id INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        "CREATE INDEX leagues_open ON leagues(status) WHERE status IN ('signup', 'running', 'paused')",
        "CREATE INDEX leagues_channel ON leagues(channel_id)",
        """CREATE TABLE league_players (
            league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            rating REAL NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'active',
            joined_at REAL NOT NULL,
            PRIMARY KEY (league_id, user_id)
        )""",
        """CREATE TABLE league_tables (
            league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            table_key TEXT NOT NULL UNIQUE,
            seats TEXT NOT NULL,
            status TEXT NOT NULL,
            message_id INTEGER,
            thread_id INTEGER,
            game_id INTEGER,
            result TEXT,
            updated_at REAL NOT NULL,
            PRIMARY KEY (league_id, round, table_no)
        )""",
        "CREATE INDEX league_tables_game ON league_tables(game_id)",
    ],
    # (issue 27): takeback points, the state and the clocks just before each move of the current run
    # of one seat's moves (written with the move, pruned when another seat moves), so an undo within
    # a turn restores both without replaying the whole log
    [
        """CREATE TABLE takeback_points (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            state TEXT,
            clocks TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
    ],
    # (issue 28): leagues of teams. A member's row names its team's entrant row (bot/core/leagues/storage.py);
    # NULL for an entrant itself (a player, or a team), so the leagues stored before read as they were
    ["ALTER TABLE league_players ADD COLUMN team INTEGER"],
]
SCHEMA_VERSION = len(MIGRATIONS)


CHANGED_CHANNEL = "tabletop_game_changed"
"""PostgreSQL NOTIFY channel: moves were committed (payload: the game ids, separated by commas)."""
NOTIFY_SPACING_S = 0.01
"""A process sends at most one NOTIFY per this many seconds; the games committed meanwhile share it.

The notification is sent right after the commit, not inside the move's transaction: PostgreSQL
serialises every transaction that notifies (a database-wide lock held until its commit is flushed), so
a NOTIFY in each move kept the moves of all games from sharing their WAL flushes. A process that dies
between a commit and its notification leaves the move to the other processes' polling
(:data:`bot.core.cluster.POLL_S`)."""
NOTIFY_IDS = 300
"""Game ids per NOTIFY (a payload holds at most 8,000 bytes)."""


def changed_ids(payload: str) -> list[int]:
    """The game ids of a :data:`CHANGED_CHANNEL` payload (what does not parse is left out)."""
    ids = []
    for part in payload.split(","):
        try:
            ids.append(int(part))
        except ValueError:
            continue
    return ids


MIGRATION_LOCK = 0x7AB1E70B
"""PostgreSQL advisory lock key held while the schema is migrated (one process at a time)."""


class SchemaTooNew(ConfigError, RuntimeError):
    """The database was migrated by a newer version of the bot than this one (``python -m bot``
    stops with its one line, as for any configuration problem)."""


class ChannelBusy(Exception):
    """The channel already holds an unfinished game."""


class Conflict(Exception):
    """The game changed under us (optimistic ``seq`` check failed)."""


def dumps(value: Any) -> str:
    return jsontext.compact(value, _record_json)


def _record_json(value: Any) -> Any:
    """The stored JSON of a record of a game row (a lobby entry, the settings) nested in a value."""
    if isinstance(value, (LobbyEntry, GameSettings)):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


# ---- named records of what the tables hold (the columns and JSON stay exactly as they were) --------
class Deadline(NamedTuple):
    """One row of ``deadlines``: ``seat`` must act by ``due_at``; reminded at ``remind_at``."""

    seat: int
    due_at: float
    remind_at: float | None

    def shifted(self, seconds: float) -> Deadline:
        """The same deadline (and reminder) ``seconds`` later."""
        return Deadline(self.seat, self.due_at + seconds, None if self.remind_at is None else self.remind_at + seconds)


class SeatTimer(NamedTuple):
    """A seat's deadline as the session keeps it (by seat): when it expires and when to remind."""

    due_at: float
    remind_at: float | None


class DueSeat(NamedTuple):
    """A seat of a game whose deadline (or reminder) is due."""

    game_id: int
    seat: int


class Shards(NamedTuple):
    """Some of the bot's ``total`` gateway shards (issue 14): a game belongs to the shard of its guild,
    ``(guild_id >> 22) % total`` as Discord routes it; a game without a guild counts as shard 0 (where
    DMs arrive)."""

    ids: tuple[int, ...]
    total: int
    """The bot's shard count (``SHARD_COUNT``)."""

    def has(self, guild_id: int | None) -> bool:
        return ((guild_id or 0) >> 22) % self.total in self.ids

    def where(self, table: str = "deadlines") -> tuple[str, tuple[int, ...]]:
        """An SQL condition on a row of ``table`` (one with a ``game_id``: ``deadlines``, ``takeback_points``)
        and its parameters (SQLite and PostgreSQL alike)."""
        if not self.ids:
            return "0 = 1", ()
        marks = ", ".join("?" * len(self.ids))
        # correlated on the primary key: only the rows already selected look up their game
        return (f"EXISTS (SELECT 1 FROM games AS g WHERE g.id = {table}.game_id"
                f" AND ((COALESCE(g.guild_id, 0) >> 22) % ?) IN ({marks}))", (self.total, *self.ids))


class OpenCounts(NamedTuple):
    """Open games counted for the caps (:meth:`Store.open_counts`)."""

    lobbies: int
    """Open lobbies in the server."""
    running: int
    """Running games in the server."""
    lobbies_of_host: int
    """Open lobbies the user hosts (in any server)."""


class StoredMessage(NamedTuple):
    """One row of ``messages``: a message the bot edits or resumes later, with its own data."""

    channel_id: int
    message_id: int
    data: dict[str, Any]


@dataclass
class LobbyEntry:
    """A player in a lobby (the ``lobby`` column is a JSON list of these)."""

    user: int
    name: str
    lang: str | None = None
    """The player's language; None only in entries stored before languages were recorded."""
    team: int | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LobbyEntry:
        return cls(user=int(data["user"]), name=str(data["name"]), lang=data.get("lang"), team=data.get("team"))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"user": self.user, "name": self.name}
        if self.lang is not None:
            out["lang"] = self.lang
        out["team"] = self.team
        return out


@dataclass
class GameSettings:
    """The ``settings`` column: platform facts of one game. A field left None is absent from the
    stored JSON (rows written before it existed); keys this version does not know are kept."""

    deadline_s: int | None = None
    """Seconds each seat has to act (0: no deadlines)."""
    rng_version: int | None = None
    """Generator the game was created with (None: stored before versioning, i.e. version 1)."""
    state_version: int | None = None
    """Shape of the stored state (None: version 1)."""
    conceded: list[int] | None = None
    """Seats that conceded (their moves are played automatically)."""
    outcome: dict[str, Any] | None = None
    """The result forced by concessions (the rules' outcome otherwise)."""
    takeback: str | None = None
    """Takebacks (issue 27, :data:`bot.core.takeback.MODES`): "off", "own" (undo within one's turn) or
    "agree" (also with everyone's agreement); None: the default, "agree"."""
    takeback_limit: int | None = None
    """Takeback requests each player may make in this game (None: :data:`bot.core.takeback.DEFAULT_LIMIT`)."""
    extra: dict[str, Any] = field(default_factory=dict)

    KEYS: ClassVar[tuple[str, ...]] = ("deadline_s", "rng_version", "state_version", "conceded", "outcome",
                                       "takeback", "takeback_limit")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        if not isinstance(data, dict):
            raise TypeError(f"settings are a {type(data).__name__}, not an object")
        known = {k: data[k] for k in cls.KEYS if k in data}
        return cls(**known, extra={k: v for k, v in data.items() if k not in cls.KEYS})

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.KEYS if getattr(self, k) is not None}
        return {**out, **self.extra}


INTEGER_COLUMNS = ("id", "guild_id", "channel_id", "host_id", "seed", "seq", "published_seq")
NULLABLE_COLUMNS = ("guild_id", "seed")
REAL_COLUMNS = ("created_at", "updated_at")
TEXT_COLUMNS = ("game", "status", "lang")


def _int_column(value: Any, *, nullable: bool) -> bool:
    return (value is None and nullable) or (isinstance(value, int) and not isinstance(value, bool))


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    lang: str
    options: dict[str, Any]
    lobby: list[LobbyEntry]
    settings: GameSettings
    seat_users: list[list[int]] | None = None
    seat_info: list[dict[str, Any]] | None = None
    seed: int | None = None
    state: dict[str, Any] | None = None
    seat_counts: list[int] = field(default_factory=list)
    seq: int = 0
    published_seq: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0

    @classmethod
    def from_row(cls, row: sqlite3.Row, *, with_state: bool = True) -> GameRow:
        keys = row.keys()

        def j(name: str, default: Any = None) -> Any:
            if name not in keys or row[name] is None:
                return default
            return json.loads(row[name])

        for name in INTEGER_COLUMNS:  # SQLite stores text in an INTEGER column written behind our back
            if name in keys and not _int_column(row[name], nullable=name in NULLABLE_COLUMNS):
                raise TypeError(f"column {name} holds {type(row[name]).__name__} {str(row[name])[:40]!r}, "
                                "not an integer")
        for name in REAL_COLUMNS:
            if name in keys and (isinstance(row[name], bool) or not isinstance(row[name], (int, float))):
                raise TypeError(f"column {name} holds {type(row[name]).__name__}, not a number")
        for name in TEXT_COLUMNS:
            if name in keys and not isinstance(row[name], str):
                raise TypeError(f"column {name} holds {type(row[name]).__name__}, not text")
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            status=row["status"],
            host_id=row["host_id"],
            lang=row["lang"],
            options=j("options", {}),
            lobby=[LobbyEntry.from_json(p) for p in j("lobby", [])],
            settings=GameSettings.from_json(j("settings", {})),
            seat_users=j("seat_users"),
            seat_info=j("seat_info"),
            seed=row["seed"] if "seed" in keys else None,
            state=j("state") if with_state else None,
            seat_counts=j("seat_counts", []),
            seq=row["seq"],
            published_seq=row["published_seq"],
            created_at=row["created_at"] if "created_at" in keys else 0.0,
            updated_at=row["updated_at"] if "updated_at" in keys else 0.0,
        )


class TakebackPoint(NamedTuple):
    """The state and the deadlines just before one move (issue 27: an undo restores both)."""

    state_text: str
    clocks: list[Deadline]


def _point_clocks(raw: str | None) -> list[Deadline]:
    """A takeback point's clocks (``[[seat, due, remind], ...]``, as written with the move), by seat."""
    return sorted((Deadline(int(c[0]), float(c[1]), None if c[2] is None else float(c[2]))
                   for c in json.loads(raw or "[]")), key=lambda d: d.seat)


TAKEBACK_ENTRY_SEAT = -2
"""The seat of a takeback entry in ``actions`` (``bot.core.takeback.TAKEBACK_SEAT``)."""


@dataclass
class ActionRow:
    seq: int
    seat: int
    user_id: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: float


class Store:
    """One SQLite file; one aiosqlite connection (a single writer keeps transactions simple).

    Or, with a ``postgresql://`` URL (``DATABASE_URL``), a pool of PostgreSQL connections through
    :class:`bot.core.db.PgConnection`, which runs the same SQL (translated) with the same guarantees (a
    transaction keeps one connection; other statements take any free one).
    """

    _COMMIT = ("UPDATE games SET state = ?, seq = ?, status = ?, seat_counts = ?, settings = ?, updated_at = ?"
               " WHERE id = ? AND seq = ?")

    def _commit_sql(self, guard_updated: bool) -> str:
        return self._COMMIT + (" AND updated_at = ?" if guard_updated else "")
    # a move that leaves the deadlines as they were, on PostgreSQL: the seq-checked update and the
    # action's row in one statement (its own transaction), one round trip instead of four
    # the takeback point (issue 27): the state and clocks before the move, read from the statement's
    # snapshot (so before the update), and the points of other seats' runs dropped
    _POINT_PG = (
        " pointed AS (INSERT INTO takeback_points (game_id, seq, seat, state, clocks)"
        " SELECT g.id, CAST(? AS BIGINT), CAST(? AS BIGINT), g.state, COALESCE((SELECT CAST(json_agg("
        "json_build_array(d.seat, d.due_at, d.remind_at) ORDER BY d.seat) AS TEXT) FROM deadlines d"
        " WHERE d.game_id = g.id), '[]') FROM games g JOIN moved ON g.id = moved.id"
        " ON CONFLICT (game_id, seq) DO UPDATE SET seat = excluded.seat, state = excluded.state,"
        " clocks = excluded.clocks),"
        " pruned AS (DELETE FROM takeback_points WHERE game_id IN (SELECT id FROM moved)"
        " AND seat <> CAST(? AS BIGINT))"
    )
    _COMMIT_ONE_PG = (
        f"WITH moved AS ({_COMMIT}{{guard}} RETURNING id),{_POINT_PG}"
        " INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
        " SELECT id, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT),"
        " CAST(? AS DOUBLE PRECISION) FROM moved RETURNING game_id"
    )
    # the same with the game's deadlines replaced (a move that changes whose turn it is): the seats no
    # longer listed are deleted and the listed ones upserted (disjoint rows, so the order of the two
    # sub-statements does not matter); all of it only when the seq check let the update through
    _COMMIT_DEADLINES_PG = (
        f"WITH moved AS ({_COMMIT}{{guard}} RETURNING id),{_POINT_PG},"
        " acted AS (INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
        " SELECT id, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT),"
        " CAST(? AS DOUBLE PRECISION) FROM moved RETURNING game_id),"
        " dropped AS (DELETE FROM deadlines WHERE game_id IN (SELECT id FROM moved)"
        " AND NOT (seat = ANY (CAST(? AS BIGINT[])))),"
        " timed AS (INSERT INTO deadlines (game_id, seat, due_at, remind_at)"
        " SELECT moved.id, d.seat, d.due_at, d.remind_at FROM moved, unnest(CAST(? AS BIGINT[]),"
        " CAST(? AS DOUBLE PRECISION[]), CAST(? AS DOUBLE PRECISION[])) AS d(seat, due_at, remind_at)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET due_at = excluded.due_at, remind_at = excluded.remind_at)"
        " SELECT game_id FROM acted"
    )

    @classmethod
    @functools.cache
    def _move_sql(cls, deadlines: bool, guarded: bool) -> str:
        """A PostgreSQL move statement, formatted once (the text is the key of two statement caches)."""
        sql = cls._COMMIT_DEADLINES_PG if deadlines else cls._COMMIT_ONE_PG
        return sql.format(guard=" AND updated_at = ?" if guarded else "")

    def __init__(self, db: aiosqlite.Connection, path: Path, dialect: str = "sqlite") -> None:
        self.db = db
        self.path = path
        self.dialect = dialect
        """"sqlite" or "postgresql" (the few statements that differ look at it)."""
        self._closed = False
        self._write_lock = asyncio.Lock()
        self.url: str | None = None
        """The ``postgresql://`` URL (None: a SQLite file); a second connection listens on it."""
        self.closers: list[Callable[[], Awaitable[None]]] = []
        """Run (and awaited) before the connection closes: what listens or claims beside it stops first."""
        self._stamps: dict[int, float] = {}
        """Per game, the ``updated_at`` this process last wrote (tells its own writes from another's)."""
        self._unannounced: dict[int, None] = {}
        """Games committed here and not yet in a NOTIFY (shared store; in commit order)."""
        self._announcer: asyncio.Task[None] | None = None
        self._announced_at = -NOTIFY_SPACING_S

    @property
    def shared(self) -> bool:
        """Other processes may write the same games (PostgreSQL): cached games are checked before use."""
        return self.dialect == "postgresql"

    def _stamp(self, game_id: int, now: float) -> float:
        if len(self._stamps) > 100_000:
            self._stamps.clear()  # only an optimisation: an unknown stamp costs one reload
        self._stamps[game_id] = now
        return now

    def own_stamp(self, game_id: int) -> float | None:
        """The ``updated_at`` of this process's last write to the game (None: none remembered)."""
        return self._stamps.get(game_id)

    def forget_stamp(self, game_id: int) -> None:
        """The game was loaded again: the stored ``updated_at`` is the one to expect now."""
        self._stamps.pop(game_id, None)

    def _announce(self, game_id: int) -> None:
        """Shared store, after a commit: tell the other processes (see :data:`NOTIFY_SPACING_S`)."""
        if not self.shared or self._closed:
            return
        self._unannounced[game_id] = None
        if self._announcer is None or self._announcer.done():
            self._announcer = asyncio.get_running_loop().create_task(self._send_notifications(),
                                                                      name="store-notify")

    async def _send_notifications(self) -> None:
        loop = asyncio.get_running_loop()
        while self._unannounced:
            wait = self._announced_at + NOTIFY_SPACING_S - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            ids = list(self._unannounced)
            self._unannounced.clear()
            self._announced_at = loop.time()
            for start in range(0, len(ids), NOTIFY_IDS):
                payload = ",".join(str(i) for i in ids[start:start + NOTIFY_IDS])
                try:
                    await self.db.execute("SELECT pg_notify(?, ?)", (CHANGED_CHANNEL, payload))
                except sqlite3.Error as exc:  # the others find the moves by polling
                    log.warning("telling the other processes of %d committed games failed: %s",
                                len(ids[start:start + NOTIFY_IDS]), exc)

    async def _touch(self, game_id: int) -> None:
        """Shared store, inside a transaction: a change of the game's deadlines or reminders moves its
        ``updated_at`` so the other processes load them again (SQLite: nothing to tell)."""
        if self.shared:
            await self.db.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                                  (self._stamp(game_id, time.time()), game_id))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction at a time on the shared connection.

        Games in many channels commit concurrently; without this lock a second coroutine's
        statements would run inside (and share the fate of) the first one's open transaction.
        """
        async with self._write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def write(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Cursor:
        """A single-statement write, serialised with the transactions."""
        async with self._write_lock:
            return await self.db.execute(sql, params)

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """The store at ``path`` (a SQLite file) or at a ``postgresql://`` URL."""
        if is_pg_url(path):
            pg = await PgConnection.connect(str(path))
            # PgConnection offers the subset of aiosqlite.Connection the store's callers use
            store = cls(cast(aiosqlite.Connection, pg), Path("postgresql"), dialect="postgresql")
            store.url = str(path)
            await store._migrate()
            return store
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # every hand and the key that signs the controls live here: owner-only (issue 23). SQLite
            # creates the -wal and -shm files with the main file's mode; older installs are tightened too.
            path.touch(mode=0o600, exist_ok=True)
            for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                if part.exists():
                    part.chmod(0o600)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store._migrate()
        return store

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._announcer is not None and not self._announcer.done():
                try:  # the last commits' notification goes out before the pool closes
                    await asyncio.wait_for(self._announcer, 5.0)
                except Exception:
                    log.exception("the last notification of committed games failed")
            for closer in self.closers:
                try:
                    await closer()
                except Exception:
                    log.exception("stopping a helper of the store failed")
            await self.db.close()

    @asynccontextmanager
    async def schema_lock(self) -> AsyncIterator[None]:
        """Held while a schema is created or migrated: on PostgreSQL an advisory lock, so two
        processes starting at once migrate one after the other (the second finds nothing to do)."""
        if not self.shared:
            yield
            return
        async with cast(PgConnection, self.db).pinned():  # taken and released on one connection
            await self.db.execute("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK,))
            try:
                yield
            finally:
                await self.db.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))

    async def _migrate(self) -> None:
        async with self.schema_lock():
            await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            async with self.db.execute("SELECT version FROM schema_version") as cur:
                row = await cur.fetchone()
            version = row[0] if row else 0
            if version > SCHEMA_VERSION:
                message = (f"the database's schema version {version} is newer than this bot's ({SCHEMA_VERSION}): "
                           "another process runs a newer version; upgrade this one before starting it")
                log.critical("%s", message)
                raise SchemaTooNew(message)
            for target in range(version + 1, SCHEMA_VERSION + 1):
                async with self.transaction():
                    for sql in MIGRATIONS[target - 1]:
                        await self.db.execute(sql)
                    await self.db.execute("DELETE FROM schema_version")
                    await self.db.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))
                log.info("database schema migrated to version %d", target)
            if self.shared:
                await self._compress_states_with_lz4()

    async def _compress_states_with_lz4(self) -> None:
        """PostgreSQL 14 or later built with lz4: the stored states (a few kB, rewritten at every move)
        are compressed with lz4 rather than the default pglz, which took about a tenth of the server's
        CPU per move; reading is unchanged. Elsewhere they stay with pglz."""
        try:
            async with self.db.execute("SELECT CAST(attcompression AS TEXT) FROM pg_attribute"
                                       " WHERE attrelid = CAST('games' AS regclass) AND attname = 'state'") as cur:
                row = await cur.fetchone()
            if row is not None and row[0] != "l":
                await self.db.execute("ALTER TABLE games ALTER COLUMN state SET COMPRESSION lz4")
                log.info("stored game states are compressed with lz4 from now on")
        except sqlite3.Error as exc:
            log.info("stored game states stay compressed with pglz (%s)", exc)

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    # ---- games -----------------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: int,
        lang: str,
        options: dict[str, Any],
        lobby: list[LobbyEntry],
        settings: GameSettings,
    ) -> GameRow:
        now = time.time()
        try:
            cur = await self.write(
                "INSERT INTO games (guild_id, channel_id, game, status, host_id, lang, options, lobby, settings,"
                " created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game, host_id, lang, dumps(options), dumps(lobby), dumps(settings), now, now),
            )
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy(channel_id) from exc
        self._stamp(int(cur.lastrowid or 0), now)
        return GameRow(
            id=int(cur.lastrowid or 0), guild_id=guild_id, channel_id=channel_id, game=game, status="lobby",
            host_id=host_id, lang=lang, options=options, lobby=lobby, settings=settings,
            created_at=now, updated_at=now,
        )

    async def open_counts(self, guild_id: int | None, host_id: int) -> OpenCounts:
        """The caps' counts (issue 23): the server's open lobbies and running games, and the lobbies
        ``host_id`` holds open (the ``games_guild`` index, and the partial ``games_open`` one)."""
        lobbies = running = 0
        if guild_id is not None:
            async with self.db.execute(
                "SELECT status, COUNT(*) FROM games WHERE guild_id = ? AND status IN ('lobby', 'running')"
                " GROUP BY status", (guild_id,),
            ) as cur:
                for status, n in await cur.fetchall():
                    if status == "lobby":
                        lobbies = int(n)
                    else:
                        running = int(n)
        async with self.db.execute(
            "SELECT COUNT(*) FROM games WHERE status = 'lobby' AND host_id = ?", (host_id,),
        ) as cur:
            row = await cur.fetchone()
        return OpenCounts(lobbies, running, int(row[0]) if row else 0)

    async def update_lobby(self, row: GameRow) -> None:
        await self.write(
            "UPDATE games SET options = ?, lobby = ?, settings = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (dumps(row.options), dumps(row.lobby), dumps(row.settings), self._stamp(row.id, time.time()), row.id),
        )

    async def start_game(self, row: GameRow, state_text: str,
                         deadlines: Iterable[Deadline] = ()) -> None:
        """Move a lobby to running with its seats, seed and initial state, in one transaction.

        ``published_seq`` becomes -1: not even the initial board is posted yet.
        """
        async with self.transaction():
            cur = await self.db.execute(
                "UPDATE games SET status = ?, seat_users = ?, seat_info = ?, seed = ?, state = ?, seat_counts = ?,"
                " options = ?, lobby = ?, settings = ?, updated_at = ?, published_seq = -1"
                " WHERE id = ? AND status = 'lobby'",
                (row.status, dumps(row.seat_users), dumps(row.seat_info), row.seed, state_text,
                 dumps(row.seat_counts), dumps(row.options), dumps(row.lobby), dumps(row.settings),
                 self._stamp(row.id, time.time()), row.id),
            )
            if cur.rowcount != 1:
                raise Conflict(row.id)
            await self._replace_deadlines(row.id, deadlines)
        self._announce(row.id)

    async def commit_action(
        self,
        game_id: int,
        *,
        old_seq: int,
        new_seq: int,
        status: str,
        seat_counts: list[int],
        settings: GameSettings,
        seat: int,
        user_id: int | None,
        action: dict[str, Any],
        events: list[dict[str, Any]],
        state_text: str,
        deadlines: Iterable[Deadline] | None = None,
        expect_updated: float | None = None,
    ) -> None:
        """Append the action and store the new state atomically.

        Raises :class:`Conflict` when the stored game is no longer at ``old_seq`` (or, with
        ``expect_updated``, was changed without a move since: a concession, a pause, a vote in
        another process); nothing is written then.
        """
        now = time.time()
        guard = (expect_updated,) if expect_updated is not None else ()
        if self.shared:
            # one statement, its own transaction: one round trip (a transaction takes four to six)
            params = (state_text, new_seq, status, dumps(seat_counts), dumps(settings), now, game_id, old_seq,
                      *guard, new_seq, seat, seat, new_seq, seat, user_id, dumps(action), dumps(events), now)
            if deadlines is not None:
                rows = list(deadlines)
                seats = [d.seat for d in rows]
                params += (seats, seats, [d.due_at for d in rows], [d.remind_at for d in rows])
            cur = await self.db.execute(self._move_sql(deadlines is not None, bool(guard)), params)
            if cur.rowcount != 1:
                raise Conflict(game_id)
            self._stamp(game_id, now)
            self._announce(game_id)
            return
        async with self.transaction():  # SQLite: one connection, statements in the same process
            await self._save_point(game_id, old_seq, new_seq, seat)
            cur = await self.db.execute(self._commit_sql(bool(guard)), (
                state_text, new_seq, status, dumps(seat_counts), dumps(settings), now, game_id, old_seq, *guard))
            if cur.rowcount != 1:
                raise Conflict(game_id)
            await self.db.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, new_seq, seat, user_id, dumps(action), dumps(events), now),
            )
            if deadlines is not None:
                await self._replace_deadlines(game_id, deadlines)
        self._stamp(game_id, now)
        self._announce(game_id)

    async def _save_point(self, game_id: int, old_seq: int, new_seq: int, seat: int) -> None:
        """SQLite, inside a move's transaction: the takeback point of move ``new_seq`` (the state and
        clocks before it) and the points of other seats dropped (issue 27)."""
        await self.db.execute(
            "INSERT OR REPLACE INTO takeback_points (game_id, seq, seat, state, clocks)"
            " SELECT id, ?, ?, state, (SELECT json_group_array(json_array(seat, due_at, remind_at))"
            " FROM deadlines WHERE game_id = games.id) FROM games WHERE id = ? AND seq = ?",
            (new_seq, seat, game_id, old_seq))
        await self.db.execute("DELETE FROM takeback_points WHERE game_id = ? AND seat <> ?", (game_id, seat))

    async def moves(self, game_id: int, limit: int | None = None) -> list[ActionRow]:
        """The log's entries (the last ``limit`` of them, if given) without their events, which a takeback
        plan does not read (issue 27: a Godstorm turn's events are most of the log's bytes)."""
        sql = "SELECT seq, seat, user_id, action FROM actions WHERE game_id = ?"
        params: tuple[Any, ...] = (game_id,)
        if limit is not None:
            sql = f"SELECT * FROM ({sql} ORDER BY seq DESC LIMIT ?) AS latest ORDER BY seq"
            params = (game_id, limit)
        else:
            sql += " ORDER BY seq"
        async with self.db.execute(sql, params) as cur:
            rows = await cur.fetchall()
        return [ActionRow(r[0], r[1], r[2], json.loads(r[3]), [], 0.0) for r in rows]

    async def takeback_point(self, game_id: int, seq: int) -> TakebackPoint | None:
        """The state and clocks stored just before move ``seq`` (None: not kept, e.g. another seat has
        moved since, or the move was stored before takeback points existed)."""
        async with self.db.execute(
            "SELECT state, clocks FROM takeback_points WHERE game_id = ? AND seq = ?", (game_id, seq)
        ) as cur:
            row = await cur.fetchone()
        if row is None or row[0] is None:
            return None
        return TakebackPoint(str(row[0]), _point_clocks(row[1]))

    async def _reclock_points(self, change: Callable[[Deadline], Deadline], cond: str,
                              params: tuple[Any, ...]) -> int:
        """Inside a transaction: the clocks of every takeback point matching ``cond`` passed through
        ``change``, as the game's deadlines were (issue 27: a pause or the bot's downtime after a move
        moves the deadline an undo gives back too). Returns how many points changed."""
        async with self.db.execute(f"SELECT game_id, seq, clocks FROM takeback_points WHERE {cond}", params) as cur:
            rows = list(await cur.fetchall())
        for game_id, seq, raw in rows:
            clocks = [change(d) for d in _point_clocks(raw)]
            await self.db.execute("UPDATE takeback_points SET clocks = ? WHERE game_id = ? AND seq = ?",
                                  (dumps([[d.seat, d.due_at, d.remind_at] for d in clocks]), game_id, seq))
        return len(rows)

    async def commit_takeback(self, game_id: int, *, old_seq: int, new_seq: int, seat_counts: list[int],
                              settings: GameSettings, user_id: int | None, action: dict[str, Any],
                              events: list[dict[str, Any]], state_text: str, deadlines: Iterable[Deadline],
                              first: int, expect_updated: float | None = None) -> None:
        """A takeback (issue 27) in one transaction: the rebuilt state, the takeback entry in the log
        (seat ``TAKEBACK_SEAT``), the restored deadlines, and the takeback points from move ``first`` on
        dropped. Raises :class:`Conflict` when the game moved since ``old_seq`` (nothing is written), so
        a takeback is applied once, also across a crash and a second click."""
        now = time.time()
        guard = (expect_updated,) if expect_updated is not None else ()
        async with self.transaction():
            cur = await self.db.execute(
                "UPDATE games SET state = ?, seq = ?, seat_counts = ?, settings = ?, updated_at = ?"
                " WHERE id = ? AND seq = ? AND status = 'running'" + (" AND updated_at = ?" if guard else ""),
                (state_text, new_seq, dumps(seat_counts), dumps(settings), now, game_id, old_seq, *guard))
            if cur.rowcount != 1:
                raise Conflict(game_id)
            await self.db.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, new_seq, TAKEBACK_ENTRY_SEAT, user_id, dumps(action), dumps(events), now))
            await self._replace_deadlines(game_id, deadlines)
            await self.db.execute("DELETE FROM takeback_points WHERE game_id = ? AND seq >= ?", (game_id, first))
        self._stamp(game_id, now)
        self._announce(game_id)

    async def set_status(self, game_id: int, status: str, settings: GameSettings | None = None, *,
                         seat_users: list[list[int]] | None = None) -> None:
        """The game's status (and settings), in one transaction; ``seat_users`` too when given (a
        concession leaves a team seat to its other members)."""
        async with self.transaction():
            now = self._stamp(game_id, time.time())
            if seat_users is not None:
                await self.db.execute("UPDATE games SET seat_users = ? WHERE id = ?", (dumps(seat_users), game_id))
            if settings is None:
                await self.db.execute(
                    "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, now, game_id)
                )
            else:
                await self.db.execute(
                    "UPDATE games SET status = ?, settings = ?, updated_at = ? WHERE id = ?",
                    (status, dumps(settings), now, game_id),
                )
            if status not in OPEN_STATUSES:
                await self.db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))

    async def mark_published(self, game_id: int, seq: int) -> None:
        await self.write(
            "UPDATE games SET published_seq = MAX(published_seq, ?) WHERE id = ?", (seq, game_id)
        )

    async def open_games(self, bad: dict[int, str] | None = None) -> list[GameRow]:
        """Index of every unfinished game, without states (cheap even for many thousands).

        With ``bad``, a row whose JSON columns do not parse does not fail the whole index: it is
        returned with empty options, lobby and settings, and its id maps to the reason in ``bad``.
        """
        async with self.db.execute(
            "SELECT id, guild_id, channel_id, game, status, host_id, lang, options, lobby, settings, seq,"
            " published_seq, created_at FROM games WHERE status IN ('lobby', 'running')"  # created_at: lobby expiry
        ) as cur:
            rows = await cur.fetchall()
        if bad is None:
            return [GameRow.from_row(r, with_state=False) for r in rows]
        return [self._index_row(r, bad) for r in rows]

    @staticmethod
    def _index_row(r: sqlite3.Row, bad: dict[int, str]) -> GameRow:
        try:
            return GameRow.from_row(r, with_state=False)
        except (ValueError, TypeError, KeyError) as exc:
            bad[int(r["id"])] = f"{type(exc).__name__}: {exc}"
            # what does not parse is replaced by a harmless value: the game is listed (and can be aborted)
            # as broken; a corrupt channel id indexes no channel (the id's negative never is one)
            return GameRow(id=r["id"], guild_id=_int_or(r["guild_id"], 0) or None,
                           channel_id=_int_or(r["channel_id"], -int(r["id"])), game=str(r["game"]),
                           status=str(r["status"]), host_id=_int_or(r["host_id"], 0), lang=str(r["lang"]),
                           options={}, lobby=[], settings=GameSettings(), seq=_int_or(r["seq"], 0),
                           published_seq=_int_or(r["published_seq"], 0))

    async def load_game(self, game_id: int) -> GameRow | None:
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return GameRow.from_row(row) if row else None

    async def load_game_text(self, game_id: int) -> tuple[GameRow, str | None] | None:
        """The game's row with its state left as the stored text (parsed by the caller, which
        can then tell a state that does not load from a game that does not exist)."""
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return GameRow.from_row(row, with_state=False), row["state"]

    async def save_state(self, game_id: int, seq: int, state_text: str, settings: GameSettings,
                         options: dict[str, Any]) -> None:
        """Replace the stored state and options without an action (a game migrated to the rules'
        current state version)."""
        async with self.transaction():
            cur = await self.db.execute(
                "UPDATE games SET state = ?, settings = ?, options = ?, updated_at = ? WHERE id = ? AND seq = ?",
                (state_text, dumps(settings), dumps(options), self._stamp(game_id, time.time()), game_id, seq),
            )
            if cur.rowcount != 1:
                raise Conflict(game_id)

    # ---- games whose state cannot be loaded --------------------------------------------
    async def mark_broken(self, game_id: int, reason: str) -> bool:
        """Record that the game cannot be loaded and drop its deadlines (nothing can be played
        for it). True when it was not marked before, so its channel is told only once."""
        async with self.transaction():
            cur = await self.db.execute(
                "INSERT OR IGNORE INTO broken_games (game_id, reason, since) VALUES (?, ?, ?)",
                (game_id, reason[:1000], time.time()),
            )
            await self.db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
        return cur.rowcount == 1

    async def clear_broken(self, game_id: int) -> None:
        """The game loads again (its rules learnt to migrate it): a later fault is announced anew."""
        await self.write("DELETE FROM broken_games WHERE game_id = ?", (game_id,))

    async def broken_games(self) -> dict[int, str]:
        """Reasons of the games marked broken, by game id."""
        async with self.db.execute("SELECT game_id, reason FROM broken_games") as cur:
            return {r[0]: r[1] for r in await cur.fetchall()}

    async def games_in_guild(self, guild_id: int) -> list[GameRow]:
        """The guild's unfinished games, without states (a row that does not parse is listed with
        empty options and lobby rather than failing the list)."""
        async with self.db.execute(
            "SELECT id, guild_id, channel_id, game, status, host_id, lang, options, lobby, settings, seq,"
            " published_seq FROM games WHERE guild_id = ? AND status IN ('lobby', 'running') ORDER BY id",
            (guild_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [self._index_row(r, {}) for r in rows]

    async def actions(self, game_id: int, after_seq: int = 0, limit: int | None = None) -> list[ActionRow]:
        sql = "SELECT seq, seat, user_id, action, events, created_at FROM actions WHERE game_id = ? AND seq > ?"
        params: tuple[Any, ...] = (game_id, after_seq)
        if limit is not None:
            sql = f"SELECT * FROM ({sql} ORDER BY seq DESC LIMIT ?) AS latest ORDER BY seq"
            params = (*params, limit)
        else:
            sql += " ORDER BY seq"
        async with self.db.execute(sql, params) as cur:
            rows = await cur.fetchall()
        return [
            ActionRow(r["seq"], r["seat"], r["user_id"], json.loads(r["action"]), json.loads(r["events"]),
                      r["created_at"])
            for r in rows
        ]

    # ---- messages we edit or re-register ---------------------------------------------
    async def set_message(self, game_id: int, purpose: str, channel_id: int, message_id: int,
                          data: dict[str, Any] | None = None) -> None:
        await self.write(
            "INSERT INTO messages (game_id, purpose, channel_id, message_id, data) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, purpose) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, data = excluded.data",
            (game_id, purpose, channel_id, message_id, dumps(data) if data is not None else None),
        )

    async def get_message(self, game_id: int, purpose: str) -> StoredMessage | None:
        async with self.db.execute(
            "SELECT channel_id, message_id, data FROM messages WHERE game_id = ? AND purpose = ?",
            (game_id, purpose),
        ) as cur:
            row = await cur.fetchone()
        if not row:
            return None
        return StoredMessage(row[0], row[1], json.loads(row[2]) if row[2] else {})

    async def delete_message(self, game_id: int, purpose: str) -> None:
        await self.write("DELETE FROM messages WHERE game_id = ? AND purpose = ?", (game_id, purpose))

    async def messages_with_prefix(self, prefix: str) -> list[tuple[int, str, StoredMessage]]:
        """Every stored message whose purpose starts with ``prefix`` (start-up housekeeping: DMs still
        owed, old panels still to strip), as (game id, purpose, message)."""
        async with self.db.execute(
            "SELECT game_id, purpose, channel_id, message_id, data FROM messages WHERE purpose LIKE ?"
            " ORDER BY game_id, purpose", (prefix.replace("%", "") + "%",),
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], r[1], StoredMessage(r[2], r[3], json.loads(r[4]) if r[4] else {})) for r in rows]

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The id of the DM channel a panel of ``user_id`` was last sent to (any game), if any: after a
        restart the first DM goes there instead of asking Discord to open the channel again."""
        async with self.db.execute(
            "SELECT channel_id FROM messages WHERE purpose = ? AND channel_id <> 0 LIMIT 1",
            (f"panel:{user_id}",),
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else None

    async def last_ended_game(self, channel_id: int) -> int | None:
        """The id of the channel's latest game that started and then ended (finished or aborted), for
        ``/game status`` right after the end (issue 25). Walks the ids downwards and stops at the first
        match (a channel that never had a game is a scan of the table)."""
        async with self.db.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('finished', 'aborted')"
            " AND seat_users IS NOT NULL ORDER BY id DESC LIMIT 1", (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else None

    # ---- deadlines --------------------------------------------------------------------
    async def _replace_deadlines(self, game_id: int, deadlines: Iterable[Deadline]) -> None:
        await self.db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
        rows = [(game_id, seat, due, remind) for seat, due, remind in deadlines]
        if rows:
            await self.db.executemany(
                "INSERT INTO deadlines (game_id, seat, due_at, remind_at) VALUES (?, ?, ?, ?)", rows
            )

    async def commit_deadlines(self, game_id: int, deadlines: Iterable[Deadline]) -> None:
        async with self.transaction():
            await self._replace_deadlines(game_id, deadlines)
            await self._touch(game_id)

    async def deadlines(self, game_id: int) -> list[Deadline]:
        async with self.db.execute(
            "SELECT seat, due_at, remind_at FROM deadlines WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cur:
            return [Deadline(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[DueSeat]:
        """Due reminders (of the games on ``shards`` only, when given)."""
        cond, params = shards.where() if shards is not None else ("1 = 1", ())
        async with self.db.execute(
            "SELECT game_id, seat FROM deadlines WHERE remind_at IS NOT NULL AND remind_at <= ? AND due_at > ?"
            f" AND {cond}", (now, now, *params),
        ) as cur:
            return [DueSeat(r[0], r[1]) for r in await cur.fetchall()]

    async def clear_reminder(self, game_id: int, seat: int) -> None:
        await self.set_reminder(game_id, seat, None)

    async def due_deadlines(self, now: float, shards: Shards | None = None) -> list[DueSeat]:
        """Due deadlines, earliest first (of the games on ``shards`` only, when given)."""
        cond, params = shards.where() if shards is not None else ("1 = 1", ())
        async with self.db.execute(
            f"SELECT game_id, seat FROM deadlines WHERE due_at <= ? AND {cond} ORDER BY due_at", (now, *params)
        ) as cur:
            return [DueSeat(r[0], r[1]) for r in await cur.fetchall()]

    async def shift_deadlines(self, seconds: float, shards: Shards | None = None) -> int:
        """Push every open deadline and pending reminder ``seconds`` later (only those of the games on
        ``shards``, when given), in one transaction (the bot was away: players could not act). Returns
        how many deadlines moved."""
        cond, params = shards.where() if shards is not None else ("1 = 1", ())
        async with self.transaction() as db:
            cur = await db.execute(
                f"UPDATE deadlines SET due_at = due_at + ?, remind_at = remind_at + ? WHERE {cond}",
                (seconds, seconds, *params),
            )
            moved = cur.rowcount
            # the takeback points' clocks too (issue 27), so an undo keeps the time the bot was away
            await self._reclock_points(lambda d: d.shifted(seconds),
                                       *(shards.where("takeback_points") if shards is not None else ("1 = 1", ())))
            if self.shared:  # the other processes load the moved deadlines again
                now = time.time()
                async with db.execute("UPDATE games SET updated_at = ? WHERE id IN (SELECT game_id FROM deadlines"
                                      f" WHERE {cond}) RETURNING id", (now, *params)) as touched:
                    for row in await touched.fetchall():
                        self._stamp(int(row[0]), now)
            return moved

    # ---- install-wide settings ---------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else None

    async def meta_prefixed(self, prefix: str) -> dict[str, str]:
        """Every ``meta`` entry whose key starts with ``prefix`` (the shards' heartbeats)."""
        async with self.db.execute("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?",
                                   (len(prefix), prefix)) as cur:
            return {str(r[0]): str(r[1]) for r in await cur.fetchall()}

    async def meta_setdefault(self, key: str, value: str) -> str:
        """The stored value of ``key``, storing ``value`` first if there is none: one atomic insert,
        so processes starting at once on one database all end up with the same value (the first)."""
        await self.write("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (key, value))
        stored = await self.get_meta(key)
        assert stored is not None
        return stored

    async def set_meta(self, key: str, value: str) -> None:
        await self.write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # ---- users whose DMs are closed ---------------------------------------------------
    async def mark_dm_closed(self, user_id: int) -> None:
        await self.write(
            "INSERT OR IGNORE INTO dm_closed (user_id, since) VALUES (?, ?)", (user_id, time.time())
        )

    async def clear_dm_closed(self, user_id: int) -> None:
        await self.write("DELETE FROM dm_closed WHERE user_id = ?", (user_id,))

    async def update_seats(self, game_id: int, seat_users: list[list[int]]) -> None:
        await self.write("UPDATE games SET seat_users = ?, updated_at = ? WHERE id = ?",
                         (dumps(seat_users), self._stamp(game_id, time.time()), game_id))

    async def dm_closed_users(self) -> set[int]:
        async with self.db.execute("SELECT user_id FROM dm_closed") as cur:
            return {r[0] for r in await cur.fetchall()}

    # ---- issue 12: followers, per-user choices, a player's games, per-game deadline edits ------
    async def set_following(self, game_id: int, user_id: int, on: bool) -> bool:
        """Follow (or stop following) a game by DM; True when this changed anything."""
        if on:
            cur = await self.write("INSERT OR IGNORE INTO followers (game_id, user_id, since) VALUES (?, ?, ?)",
                                   (game_id, user_id, time.time()))
        else:
            cur = await self.write("DELETE FROM followers WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        return cur.rowcount == 1

    async def followers(self, game_id: int) -> list[int]:
        async with self.db.execute(
            "SELECT user_id FROM followers WHERE game_id = ? ORDER BY since, user_id", (game_id,)
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def remind_dm(self, user_ids: Iterable[int]) -> set[int]:
        """Those of ``user_ids`` who asked for their reminders by DM."""
        ids = list(user_ids)
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        async with self.db.execute(
            f"SELECT user_id FROM user_prefs WHERE remind_dm = 1 AND user_id IN ({marks})", ids
        ) as cur:
            return {r[0] for r in await cur.fetchall()}

    async def set_remind_dm(self, user_id: int, on: bool) -> None:
        await self.write(
            "INSERT INTO user_prefs (user_id, remind_dm) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET remind_dm = excluded.remind_dm",
            (user_id, 1 if on else 0),
        )

    async def games_of_user(self, user_id: int) -> list[GameRow]:
        """The unfinished games (lobbies included) ``user_id`` plays in, without states: a seat of a
        running game or a place in a lobby. Scans only the open games (the partial ``games_open``
        index), so its cost follows the number of unfinished games, not of all games ever played."""
        if self.dialect == "postgresql":
            return await self._games_of_user_pg(user_id)
        async with self.db.execute(
            "SELECT id, guild_id, channel_id, game, status, host_id, lang, options, lobby, settings, seat_users,"
            " seq, published_seq FROM games INDEXED BY games_open WHERE status IN ('lobby', 'running') AND ("
            # a lobby entry's JSON starts {"user":<id>, (LobbyEntry.to_json, compact): a plain text
            # search; seat_users (a seat changing hands) is parsed only where the digits occur
            " instr(lobby, ?2) > 0"
            " OR (instr(seat_users, ?3) > 0 AND EXISTS (SELECT 1 FROM json_each(games.seat_users) AS s,"
            "     json_each(s.value) AS u WHERE u.value = ?1))) ORDER BY id",
            (user_id, '{"user":' + str(int(user_id)) + ",", str(int(user_id))),
        ) as cur:
            rows = await cur.fetchall()
        return [self._index_row(r, {}) for r in rows]

    async def _games_of_user_pg(self, user_id: int) -> list[GameRow]:
        """:meth:`games_of_user` on PostgreSQL (its JSON functions differ from SQLite's)."""
        needle = str(int(user_id))
        async with self.db.execute(
            "SELECT id, guild_id, channel_id, game, status, host_id, lang, options, lobby, settings, seat_users,"
            " seq, published_seq FROM games WHERE status IN ('lobby', 'running') AND ("
            " strpos(lobby, ?) > 0"
            " OR (strpos(seat_users, ?) > 0 AND EXISTS (SELECT 1 FROM json_array_elements(games.seat_users::json)"
            "     AS s(v), json_array_elements_text(s.v) AS u(x) WHERE u.x = ?))) ORDER BY id",
            ('{"user":' + needle + ",", needle, needle),
        ) as cur:
            rows = await cur.fetchall()
        return [self._index_row(r, {}) for r in rows]

    async def last_seq_of_seat(self, game_id: int, seat: int) -> int:
        """The sequence number of ``seat``'s latest action (0: it has not acted yet)."""
        async with self.db.execute(
            "SELECT MAX(seq) FROM actions WHERE game_id = ? AND seat = ?", (game_id, seat)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def set_reminder(self, game_id: int, seat: int, remind_at: float | None) -> None:
        """The seat's next reminder time (None: no more reminders for this deadline)."""
        sql = "UPDATE deadlines SET remind_at = ? WHERE game_id = ? AND seat = ?"
        if not self.shared:
            await self.write(sql, (remind_at, game_id, seat))
            return
        async with self.transaction():
            await self.db.execute(sql, (remind_at, game_id, seat))
            await self._touch(game_id)

    async def save_settings(self, game_id: int, settings: GameSettings,
                            deadlines: Iterable[Deadline] | None = None,
                            reclock: Callable[[Deadline], Deadline] | None = None) -> None:
        """Replace a game's settings only (a paused clock, a vote in progress); with ``deadlines``,
        its deadline rows too, in the same transaction (a resumed clock), and with ``reclock`` the clocks
        of its takeback points passed through it (issue 27: the deadlines a resumed clock moved)."""
        if deadlines is None:
            await self.write("UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
                             (dumps(settings), self._stamp(game_id, time.time()), game_id))
        else:
            async with self.transaction():
                await self.db.execute("UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
                                      (dumps(settings), self._stamp(game_id, time.time()), game_id))
                await self._replace_deadlines(game_id, deadlines)
                if reclock is not None:
                    await self._reclock_points(reclock, "game_id = ?", (game_id,))
        self._announce(game_id)  # other processes' pages (and caches) hear of a pause or a vote at once

    # ---- several processes on one PostgreSQL (issue 14) -----------------------------------------
    async def game_version(self, game_id: int) -> tuple[int, float, str] | None:
        """The game's ``(seq, updated_at, status)`` as stored: a cached copy older than this is reloaded."""
        async with self.db.execute("SELECT seq, updated_at, status FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return (int(row[0]), float(row[1]), str(row[2])) if row else None

    async def unpublished_games(self) -> list[int]:
        """Running or finished games with committed moves not yet announced (the partial index
        ``games_unpublished`` keeps this cheap)."""
        async with self.db.execute(
            "SELECT id FROM games WHERE published_seq < seq AND status IN ('running', 'finished') ORDER BY id"
        ) as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def claim_lease(self, name: str, owner: str, seconds: float, now: float | None = None) -> bool:
        """Take (or keep) the lease ``name`` for ``seconds``: True when ``owner`` holds it now, i.e. it
        was free, expired or already ``owner``'s. One statement, so two claimers never both win."""
        now = time.time() if now is None else now
        cur = await self.write(
            "INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
            " owner = excluded.owner, expires_at = excluded.expires_at"
            " WHERE leases.expires_at < ? OR leases.owner = excluded.owner",
            (name, owner, now + seconds, now),
        )
        return cur.rowcount == 1

    async def renew_leases(self, owner: str, seconds: float, now: float | None = None,
                           names: Iterable[str] | None = None) -> int:
        """Extend the leases ``owner`` holds (only ``names`` when given); how many were extended."""
        now = time.time() if now is None else now
        if names is None:
            cur = await self.write("UPDATE leases SET expires_at = ? WHERE owner = ?", (now + seconds, owner))
            return cur.rowcount
        chosen = sorted(names)
        if not chosen:
            return 0
        marks = ",".join("?" * len(chosen))
        cur = await self.write(f"UPDATE leases SET expires_at = ? WHERE owner = ? AND name IN ({marks})",
                               (now + seconds, owner, *chosen))
        return cur.rowcount

    async def release_lease(self, name: str, owner: str) -> None:
        await self.write("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))

    async def lease(self, name: str) -> tuple[str, float] | None:
        """Who holds ``name`` and until when (an expired row may still be listed)."""
        async with self.db.execute("SELECT owner, expires_at FROM leases WHERE name = ?", (name,)) as cur:
            row = await cur.fetchone()
        return (str(row[0]), float(row[1])) if row else None
