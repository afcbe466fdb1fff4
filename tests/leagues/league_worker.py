"""A stand-in for Discord and the game sessions that keeps its own record in a SQLite file, as Discord
would (so it outlives a killed bot process), with Discord's rules for what repeats: a message posted
again with the same nonce is the same message, a message has at most one thread. Games end at once:
the table's lowest id wins (the better seed: the tests rate players lower as their ids grow). Run as a script, it ticks one league until it is finished, or kills
itself (SIGKILL) at the named step."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

from bot.core.leagues.model import Table, TableResult
from bot.core.leagues.scheduler import Scheduler
from bot.core.leagues.storage import LeagueRow, LeagueStore
from bot.core.store import Store


class FileDiscord:
    """Messages (unique by nonce), threads (one per message) and games (one per thread) in a file."""

    def __init__(self, path: Path, kill_at: str = "", kill_after: int = 1) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, nonce TEXT UNIQUE)")
        self.db.execute("CREATE TABLE IF NOT EXISTS threads (id INTEGER PRIMARY KEY, message_id INTEGER UNIQUE)")
        self.db.execute("CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, thread_id INTEGER, winner INTEGER,"
                        " seats TEXT)")
        self.db.execute("CREATE TABLE IF NOT EXISTS calls (kind TEXT, key TEXT)")
        self.kill_at = kill_at
        self.kill_after = kill_after
        self.changes: list[str] = []

    def _call(self, kind: str, key: str) -> None:
        self.db.execute("INSERT INTO calls VALUES (?, ?)", (kind, key))
        n = self.db.execute("SELECT COUNT(*) FROM calls WHERE kind = ?", (kind,)).fetchone()[0]
        if kind == self.kill_at and n == self.kill_after:
            os.kill(os.getpid(), signal.SIGKILL)  # after Discord did it, before the bot wrote it down

    async def post_table(self, league: LeagueRow, table: Table, key: str) -> int:
        self.db.execute("INSERT INTO messages (nonce) VALUES (?) ON CONFLICT (nonce) DO NOTHING", (key,))
        mid = int(self.db.execute("SELECT id FROM messages WHERE nonce = ?", (key,)).fetchone()[0])
        self._call("post", key)
        return mid

    async def open_thread(self, league: LeagueRow, table: Table, key: str) -> int:
        assert table.message_id is not None
        row = self.db.execute("SELECT id FROM threads WHERE message_id = ?", (table.message_id,)).fetchone()
        if row is None:  # Discord refuses a second thread on a message (160004); its thread is the message's
            self.db.execute("INSERT INTO threads (message_id) VALUES (?)", (table.message_id,))
            row = self.db.execute("SELECT id FROM threads WHERE message_id = ?", (table.message_id,)).fetchone()
        self._call("thread", key)
        return int(row[0])

    async def start_game(self, league: LeagueRow, table: Table, key: str) -> int:
        assert table.thread_id is not None
        row = self.db.execute("SELECT id FROM games WHERE thread_id = ?", (table.thread_id,)).fetchone()
        if row is None:  # one game per thread: the one already there is the table's
            self.db.execute("INSERT INTO games (thread_id, winner, seats) VALUES (?, ?, ?)",
                            (table.thread_id, min(table.seats), ",".join(map(str, table.seats))))
            row = self.db.execute("SELECT id FROM games WHERE thread_id = ?", (table.thread_id,)).fetchone()
        self._call("game", key)
        return int(row[0])

    async def result(self, league: LeagueRow, table: Table) -> TableResult | None:
        row = self.db.execute("SELECT winner FROM games WHERE id = ?", (table.game_id,)).fetchone()
        winner = int(row[0])
        return TableResult(places={u: 1 if u == winner else 2 for u in table.seats})

    async def adjudicate(self, league: LeagueRow, table: Table) -> TableResult:
        return TableResult(places=dict.fromkeys(table.seats, 1), how="adjudicated")

    async def changed(self, league: LeagueRow, what: str) -> None:
        self.changes.append(what)


async def run(db_path: str, discord_path: str, league_id: int, kill_at: str, kill_after: int) -> None:
    store = await Store.open(db_path)
    leagues = LeagueStore(store)
    scheduler = Scheduler(leagues, FileDiscord(Path(discord_path), kill_at, kill_after))
    await scheduler.tick(league_id)
    await store.close()


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])))
