"""PostgreSQL behind the same connection interface the store uses for SQLite (issue 14, phase 1).

:class:`PgConnection` looks like the part of an ``aiosqlite.Connection`` the store and its
neighbours call (``execute`` as an awaitable or ``async with``, ``executemany``, cursors with
``fetchone``/``fetchall``/``rowcount``/``lastrowid``) so the store keeps one set of SQL. Each
statement is translated once (:func:`translate`) from the SQLite dialect:

* ``?`` and ``?N`` placeholders become ``$n``;
* ``BEGIN IMMEDIATE`` becomes ``BEGIN``; ``PRAGMA`` statements do nothing;
* in ``CREATE TABLE``/``ALTER TABLE``: ``INTEGER`` becomes ``BIGINT`` (Discord ids are 64 bit),
  ``REAL`` becomes ``DOUBLE PRECISION``, an ``id INTEGER PRIMARY KEY [AUTOINCREMENT]`` becomes an
  identity column, and an ``INSERT`` into such a table returns the new ``id`` (``lastrowid``);
* ``INSERT OR IGNORE`` becomes ``INSERT … ON CONFLICT DO NOTHING``; ``INSERT OR REPLACE`` becomes
  an upsert on the table's primary key (learnt from the ``CREATE TABLE`` statements seen);
* the two-argument scalar ``MAX(a, b)``/``MIN(a, b)`` become ``GREATEST``/``LEAST``;
  ``INDEXED BY`` hints are dropped; ``instr(`` becomes ``strpos(``.

A pool of connections per process (:data:`POOL_SIZE`): a statement outside a transaction runs on
any free connection, and a transaction (``BEGIN`` … ``COMMIT``/``ROLLBACK``) holds one connection for
the task that opened it (see :class:`PgConnection`), so it behaves as on SQLite. Errors are re-raised as
the DB-API classes of :mod:`sqlite3` (``IntegrityError`` for a violated constraint,
``OperationalError`` otherwise) so the callers' ``except sqlite3.…`` clauses hold for both.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

PG_SCHEMES = ("postgresql://", "postgres://")


def is_pg_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(PG_SCHEMES)


class Row:
    """A result row read by position or by column name, with ``keys()`` (as ``sqlite3.Row``)."""

    __slots__ = ("_keys", "_values", "_index")

    def __init__(self, keys: list[str], values: tuple[Any, ...], index: dict[str, int]) -> None:
        self._keys = keys
        self._values = values
        self._index = index

    def keys(self) -> list[str]:
        return self._keys

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            return self._values[self._index[key]]
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Row):
            return self._values == other._values
        if isinstance(other, tuple):
            return self._values == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._keys, self._values, strict=True))!r})"


class Cursor:
    """The rows (all fetched) and the counts of one executed statement."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._pos = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Row | None:
        if self._pos >= len(self._rows):
            return None
        self._pos += 1
        return self._rows[self._pos - 1]

    async def fetchall(self) -> list[Row]:
        rest = self._rows[self._pos:]
        self._pos = len(self._rows)
        return rest

    async def fetchmany(self, size: int = 1) -> list[Row]:
        rest = self._rows[self._pos:self._pos + size]
        self._pos += len(rest)
        return rest

    def __aiter__(self) -> Cursor:
        return self

    async def __anext__(self) -> Row:
        row = await self.fetchone()
        if row is None:
            raise StopAsyncIteration
        return row

    async def close(self) -> None:
        return None


class _Result:
    """What ``execute`` returns: awaited, a :class:`Cursor`; or used with ``async with``."""

    def __init__(self, conn: PgConnection, sql: str, params: Sequence[Any]) -> None:
        self._conn = conn
        self._sql = sql
        self._params = params
        self._cursor: Cursor | None = None

    def __await__(self) -> Generator[Any, None, Cursor]:
        return self._conn._run(self._sql, self._params).__await__()

    async def __aenter__(self) -> Cursor:
        self._cursor = await self._conn._run(self._sql, self._params)
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        return None


# ---- translation --------------------------------------------------------------------------------
class Translated:
    __slots__ = ("sql", "kind", "returns_id", "counts_rows", "creates", "table")

    def __init__(self, sql: str, kind: str, returns_id: bool, table: str | None = None) -> None:
        self.sql = sql
        self.table = table  # an INSERT's table (its identity and primary key come from the schema)
        self.kind = kind  # "noop", "rows" (a result set), "status" (a count of rows changed)
        self.returns_id = returns_id
        head = sql.lstrip().upper()
        self.counts_rows = not head.startswith("SELECT")  # rows of a write's RETURNING count as changed
        self.creates = head.startswith("CREATE")  # the schema may have learnt something


_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s*\(", re.I)
_INSERT = re.compile(r"^\s*INSERT\s+(?:OR\s+(IGNORE|REPLACE)\s+)?INTO\s+(\w+)\s*(\(([^)]*)\))?", re.I)
_ID_PK = re.compile(r"\bid\s+INTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?", re.I)
_SCALAR_MINMAX = re.compile(r"\b(MAX|MIN)\(\s*([^(),]+?)\s*,\s*([^(),]+?)\s*\)", re.I)


def _split_literals(sql: str) -> list[tuple[bool, str]]:
    """The SQL cut into (is_literal, text) pieces so no rewrite touches a quoted string."""
    parts: list[tuple[bool, str]] = []
    i = 0
    start = 0
    while i < len(sql):
        if sql[i] == "'":
            if start < i:
                parts.append((False, sql[start:i]))
            j = i + 1
            while j < len(sql):
                if sql[j] == "'":
                    if j + 1 < len(sql) and sql[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            parts.append((True, sql[i:j + 1]))
            i = start = j + 1
            continue
        i += 1
    if start < len(sql):
        parts.append((False, sql[start:]))
    return parts


def _placeholders(code: str, counter: list[int]) -> str:
    def repl(m: re.Match[str]) -> str:
        if m.group(1):
            return "$" + m.group(1)
        counter[0] += 1
        return f"${counter[0]}"

    return re.sub(r"\?(\d*)", repl, code)


def _primary_key(create_sql: str) -> list[str]:
    """The primary-key columns of a CREATE TABLE statement (an inline or a table constraint)."""
    m = re.search(r"PRIMARY\s+KEY\s*\(([^)]*)\)", create_sql, re.I)
    if m:
        return [c.strip() for c in m.group(1).split(",")]
    m = re.search(r"[(,]\s*(\w+)\s+[^,]*?PRIMARY\s+KEY", create_sql, re.I)
    return [m.group(1)] if m else []


class Dialect:
    """What the translation learnt of the schema: tables with an identity ``id``, primary keys."""

    def __init__(self) -> None:
        self.identity_tables: set[str] = set()
        self.primary_keys: dict[str, list[str]] = {}
        self.tables: set[str] = set()  # tables whose schema was read (or found missing) or created here
        self._cache: dict[str, Translated] = {}

    def translate(self, sql: str) -> Translated:
        tr = self._cache.get(sql)
        if tr is None:
            tr = translate(sql, self.identity_tables, self.primary_keys)
            if len(self._cache) < 4096:
                self._cache[sql] = tr
        return tr

    def forget(self) -> None:
        """Drop the cached translations (the schema was read again)."""
        self._cache.clear()

    def learn(self, sql: str) -> None:
        m = _CREATE_TABLE.match(sql)
        if not m:
            return
        table = m.group(1).lower()
        self.tables.add(table)
        if _ID_PK.search(sql):
            self.identity_tables.add(table)
        self.primary_keys[table] = _primary_key(sql)
        self._cache.clear()


def translate(sql: str, identity_tables: Iterable[str] = (), primary_keys: dict[str, list[str]] | None = None
              ) -> Translated:
    """One SQLite statement as PostgreSQL runs it (see the module's docstring)."""
    head = sql.lstrip().upper()
    if head.startswith("PRAGMA"):
        return Translated("", "noop", False)
    if head.startswith("BEGIN"):
        return Translated("BEGIN", "status", False)
    ddl = head.startswith(("CREATE TABLE", "ALTER TABLE"))
    counter = [0]
    out: list[str] = []
    for literal, text in _split_literals(sql):
        if literal:
            out.append(text)
            continue
        if ddl:
            text = _ID_PK.sub("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", text)
            text = re.sub(r"\bINTEGER\b", "BIGINT", text, flags=re.I)
            text = re.sub(r"\bREAL\b", "DOUBLE PRECISION", text, flags=re.I)
        else:
            text = _SCALAR_MINMAX.sub(lambda m: ("GREATEST" if m.group(1).upper() == "MAX" else "LEAST")
                                      + f"({m.group(2)}, {m.group(3)})", text)
            text = re.sub(r"\bINDEXED\s+BY\s+\w+", "", text, flags=re.I)
            text = re.sub(r"\binstr\(", "strpos(", text, flags=re.I)
        out.append(_placeholders(text, counter))
    result = "".join(out)
    kind = "rows" if head.startswith(("SELECT", "WITH", "VALUES")) else "status"
    returns_id = False
    table: str | None = None
    m = _INSERT.match(result)
    if m:
        mode, table = (m.group(1) or "").upper(), m.group(2).lower()
        if mode:
            result = re.sub(r"^\s*INSERT\s+OR\s+\w+\s+INTO", "INSERT INTO", result, count=1, flags=re.I)
        if mode == "IGNORE":
            result += " ON CONFLICT DO NOTHING"
        elif mode == "REPLACE":
            pk = (primary_keys or {}).get(table)
            cols = [c.strip() for c in (m.group(4) or "").split(",") if c.strip()]
            if not pk or not cols:
                raise sqlite3.OperationalError(f"INSERT OR REPLACE into {table}: primary key or columns unknown")
            rest = [c for c in cols if c not in pk]
            action = ("DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in rest)) if rest else "DO NOTHING"
            result += f" ON CONFLICT ({', '.join(pk)}) {action}"
        cols = [c.strip() for c in (m.group(4) or "").split(",") if c.strip()]
        result = _qualify_upsert(result, table, cols)
        if table in set(identity_tables) and "RETURNING" not in result.upper():
            result += " RETURNING id"
            returns_id = True
    if re.search(r"\bRETURNING\b", result, re.I):
        kind = "rows"
    return Translated(result, kind, returns_id, table)


def _qualify_upsert(sql: str, table: str, cols: list[str]) -> str:
    """In ``ON CONFLICT … DO UPDATE SET a = a + excluded.a``, SQLite reads the bare ``a`` as the
    existing row's column; PostgreSQL calls it ambiguous. Qualify it with the table's name."""
    m = re.search(r"\bDO\s+UPDATE\s+SET\b", sql, re.I)
    if not m or not cols:
        return sql
    names = "|".join(re.escape(c) for c in cols)
    pattern = re.compile(rf"(?<![.\w])({names})\b(?!\s*=[^=])", re.I)
    return sql[:m.end()] + pattern.sub(lambda c: f"{table}.{c.group(1)}", sql[m.end():])


def _count(status: str) -> int:
    tail = status.rsplit(" ", 1)[-1] if status else ""
    return int(tail) if tail.isdigit() else -1


POOL_SIZE = 10
"""Connections per process in :class:`PgConnection`'s pool: moves of different games commit at the same
time, so their WAL flushes are shared (group commit) instead of queued behind one connection."""


class Pool:
    """Up to ``size`` asyncpg connections of one process, each lent to one task at a time.

    What asyncpg's own pool does for the store, in a few dictionary operations: its acquire and
    release cost about 75 µs of CPU together (a task per release, timeouts, proxies), as much as the
    statement they wrap, and the store lends a connection for every statement. A connection comes
    back from :meth:`release` with any open transaction rolled back; one that is closed or still
    cancelling a query is dropped (a new one is opened when needed), so a lost server connection is
    replaced as with asyncpg's pool.
    """

    def __init__(self, connect: Callable[[], Awaitable[Any]], size: int) -> None:
        self._connect = connect
        self.size = size
        self._idle: deque[Any] = deque()
        self._waiters: deque[asyncio.Future[Any]] = deque()
        self._open = 0  # connections lent, idle, or being opened
        self._lent = 0
        self._returned = asyncio.Event()  # set while none is lent (close waits for it)
        self._returned.set()
        self._closed = False

    @property
    def idle(self) -> int:
        return len(self._idle)

    async def fill(self, count: int) -> None:
        """Open ``count`` connections now (start-up finds a wrong URL at once)."""
        while self._open < min(count, self.size):
            self._open += 1
            try:
                conn = await self._connect()
            except BaseException:
                self._open -= 1
                raise
            self._idle.append(conn)

    async def acquire(self) -> Any:
        while True:
            if self._closed:
                raise sqlite3.OperationalError("the PostgreSQL connection pool is closed")
            while self._idle:
                conn = self._idle.pop()  # the most recently used: warm caches on both sides
                if not conn.is_closed():
                    return self._lend(conn)
                self._open -= 1
            if self._open < self.size:
                self._open += 1
                try:
                    conn = await self._connect()
                except BaseException:
                    self._open -= 1
                    self._wake_one(None)  # the slot is free again: a waiter may try
                    raise
                return self._lend(conn)
            waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                conn = await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled() and waiter.result() is not None:
                    self._lent += 1  # handed over as this task was cancelled: pass it on
                    await self.release(waiter.result())
                elif not waiter.done():
                    waiter.cancel()
                raise
            if conn is not None:
                return self._lend(conn)
            # woken without one (a connection was dropped): try again

    def _lend(self, conn: Any) -> Any:
        self._lent += 1
        self._returned.clear()
        return conn

    async def release(self, conn: Any) -> None:
        """Take ``conn`` back (rolling back what it left open; a broken one is dropped)."""
        self._lent -= 1
        if self._lent == 0:
            self._returned.set()
        usable = not conn.is_closed() and not _cancelling(conn)
        if usable and conn.is_in_transaction():
            try:
                await conn.execute("ROLLBACK")
            except Exception:  # noqa: BLE001 - the connection is broken: dropped below
                usable = False
            except BaseException:  # cancelled while rolling back: the connection's state is unknown
                conn.terminate()
                self._drop()
                raise
        if not usable:
            if not conn.is_closed():
                conn.terminate()
            self._drop()
            return
        if self._closed:
            self._open -= 1
            await conn.close()
            return
        if not self._wake_one(conn):
            self._idle.append(conn)

    def _drop(self) -> None:
        self._open -= 1
        self._wake_one(None)

    def _wake_one(self, conn: Any) -> bool:
        """Hand ``conn`` (or, with None, the chance to open one) to the first task still waiting."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return True
        return False

    async def close(self, grace_s: float = 10.0) -> None:
        """Close every connection: the idle ones now, the lent ones when given back (those still out
        after ``grace_s`` are cut)."""
        self._closed = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)  # they find the pool closed
        self._waiters.clear()
        while self._idle:
            conn = self._idle.pop()
            self._open -= 1
            try:
                await conn.close()
            except Exception:  # noqa: BLE001 - a broken connection: nothing left to close
                conn.terminate()
        try:
            await asyncio.wait_for(self._returned.wait(), grace_s)
        except TimeoutError:
            pass


def _cancelling(conn: Any) -> bool:
    """The connection still waits for the server to end a cancelled query (asyncpg's own pool asks
    the same private flag); it cannot run another statement yet."""
    protocol = getattr(conn, "_protocol", None)
    check = getattr(protocol, "_is_cancelling", None)
    return bool(check()) if check is not None else False


class _Bound:
    """A pool connection held by one task: its open transaction (or a session lock) runs on it."""

    __slots__ = ("conn", "depth", "task")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.depth = 0  # pinned sessions around it (:meth:`PgConnection.pinned`); 0: released at COMMIT
        self.task = asyncio.current_task()  # a task started inside inherits the variable, not the connection


class PgConnection:
    """A pool of asyncpg connections speaking the store's (SQLite) SQL; see the module's docstring.

    A statement outside a transaction runs on any free connection of the pool; ``BEGIN`` takes one
    for the task that issued it (a context variable), and that task's statements run on it until
    ``COMMIT`` or ``ROLLBACK`` gives it back. So other tasks' reads never land inside (or see) an open
    transaction, and transactions of different games may commit at once.
    """

    dialect = "postgresql"

    def __init__(self, conn: Any, pool: Pool) -> None:
        self._conn = conn
        self._pool = pool
        self._bound: contextvars.ContextVar[_Bound | None] = contextvars.ContextVar(f"pg_bound_{id(self)}",
                                                                                    default=None)
        self.schema = Dialect()
        self._learning = asyncio.Lock()  # _learn_schema runs on the one dedicated connection
        self.row_factory: Any = None  # accepted and ignored (rows are always :class:`Row`)

    @classmethod
    async def connect(cls, url: str, pool_size: int | None = None) -> PgConnection:
        import asyncpg  # optional dependency: pip install 'tabletop-bot[pg]'

        pool_size = pool_size or POOL_SIZE

        conn = await asyncpg.connect(url)
        pool = Pool(lambda: asyncpg.connect(url, statement_cache_size=512), pool_size)
        try:
            await pool.fill(min(2, pool_size))
        except BaseException:
            await pool.close()
            await conn.close()
            raise
        self = cls(conn, pool)
        await self._learn_schema()
        return self

    async def _learn_schema(self) -> None:
        """Identity columns and primary keys of the tables that already exist."""
        async with self._learning:
            await self._read_schema()

    async def _read_schema(self) -> None:
        rows = await self._conn.fetch(
            "SELECT c.table_name, c.column_name, c.is_identity FROM information_schema.columns c"
            " WHERE c.table_schema = current_schema()"
        )
        for r in rows:
            self.schema.tables.add(r["table_name"])
            if r["column_name"] == "id" and r["is_identity"] == "YES":
                self.schema.identity_tables.add(r["table_name"])
        keys = await self._conn.fetch(
            "SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc"
            " JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name"
            " AND kcu.table_schema = tc.table_schema"
            " WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = current_schema()"
            " ORDER BY kcu.ordinal_position"
        )
        found: dict[str, list[str]] = {}
        for r in keys:
            found.setdefault(r["table_name"], []).append(r["column_name"])
        self.schema.primary_keys.update(found)
        self.schema.forget()

    async def _translate(self, sql: str) -> Translated:
        """``sql`` translated; an INSERT into a table this connection has not seen first reads the
        schema again: another process may have created it after this one connected (two processes
        starting at once on an empty database: the first migrates, the second waits for it and then
        runs no CREATE of its own), and without its identity column the INSERT would return no id."""
        tr = self.schema.translate(sql)
        if tr.table is not None and tr.table not in self.schema.tables:
            await self._learn_schema()
            self.schema.tables.add(tr.table)  # once per table, also when it does not exist
            tr = self.schema.translate(sql)
        return tr

    @property
    def raw(self) -> Any:
        """An asyncpg connection of its own (for bulk copies; not for the store's statements)."""
        return self._conn

    def _held(self) -> _Bound | None:
        """The connection the current task holds (its transaction or pinned session), if any."""
        bound = self._bound.get()
        return bound if bound is not None and bound.task is asyncio.current_task() else None

    @asynccontextmanager
    async def pinned(self) -> AsyncIterator[None]:
        """The task's statements inside run on one connection (a session-level advisory lock must be
        released on the connection that took it); transactions inside use it too."""
        bound = self._held()
        if bound is not None:
            bound.depth += 1
            try:
                yield
            finally:
                bound.depth -= 1
            return
        bound = _Bound(await self._pool.acquire())
        bound.depth = 1
        token = self._bound.set(bound)
        try:
            yield
        finally:
            self._bound.reset(token)
            await self._pool.release(bound.conn)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        return _Result(self, sql, tuple(params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Cursor:
        tr = await self._translate(sql)
        bound = self._held()
        try:
            if bound is not None:
                await bound.conn.executemany(tr.sql, [tuple(r) for r in rows])
            else:
                conn = await self._pool.acquire()
                try:
                    await conn.executemany(tr.sql, [tuple(r) for r in rows])
                finally:
                    await self._pool.release(conn)
        except Exception as exc:  # noqa: BLE001 - re-raised as the DB-API class
            raise _db_error(exc) from exc
        return Cursor([], -1, None)

    async def _run(self, sql: str, params: Sequence[Any]) -> Cursor:
        tr = await self._translate(sql)
        if tr.kind == "noop":
            return Cursor([], -1, None)
        bound = self._held()
        if bound is None and tr.sql == "BEGIN":
            bound = _Bound(await self._pool.acquire())
            self._bound.set(bound)
        if bound is None:
            conn = await self._pool.acquire()
            try:
                cursor = await self._on(conn, tr, params)
            finally:
                await self._pool.release(conn)
        else:
            ends = tr.sql.upper() in ("COMMIT", "ROLLBACK", "END")
            try:
                cursor = await self._on(bound.conn, tr, params)
            except BaseException:
                if tr.sql == "BEGIN" or ends:
                    await self._unbind(bound)
                raise
            if ends:
                await self._unbind(bound)
        if tr.creates:
            self.schema.learn(sql)
        return cursor

    async def _unbind(self, bound: _Bound) -> None:
        if bound.depth == 0:  # a transaction's own connection (a pinned one stays for the session)
            self._bound.set(None)
            await self._pool.release(bound.conn)

    @staticmethod
    async def _on(conn: Any, tr: Translated, params: Sequence[Any]) -> Cursor:
        try:
            if tr.kind == "rows":
                records = await conn.fetch(tr.sql, *params)
                rows = _rows(records)
                if tr.returns_id:
                    return Cursor([], len(rows), int(rows[0][0]) if rows else None)
                return Cursor(rows, len(rows) if tr.counts_rows else -1, None)
            status = await conn.execute(tr.sql, *params) if params else await conn.execute(tr.sql)
        except Exception as exc:  # noqa: BLE001 - re-raised as the DB-API class
            raise _db_error(exc) from exc
        return Cursor([], _count(status), None)

    async def commit(self) -> None:
        return None

    async def close(self) -> None:
        try:
            await self._pool.close()
        finally:
            await self._conn.close()


def _rows(records: list[Any]) -> list[Row]:
    if not records:
        return []
    keys = list(records[0].keys())
    index = {k: i for i, k in enumerate(keys)}
    return [Row(keys, tuple(r.values()), index) for r in records]


def _db_error(exc: Exception) -> Exception:
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - a PgConnection exists only with asyncpg installed
        return exc
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return sqlite3.IntegrityError(str(exc))
    if isinstance(exc, (asyncpg.PostgresError, asyncpg.InterfaceError)):
        return sqlite3.OperationalError(str(exc))
    return exc
