"""The league tables of the store (migrations 5 and 7 of :mod:`bot.core.store`), on SQLite and PostgreSQL.

A league of teams keeps its teams in ``league_players`` too: a team's row is an entrant like a
player's (its id from :func:`bot.core.leagues.model.team_id`, its name, seeding rating and status),
and each member has a row of its own whose ``team`` names the team's row (migration 7 added the
column; NULL on every entrant's row, so a league stored before reads as it was).

Every change that must happen once is a conditional write: a round starts with
``UPDATE leagues SET round = r + 1 WHERE round = r`` and its tables' INSERTs in the same
transaction (a second attempt finds the round moved and writes nothing); a table moves from one
status to the next only ``WHERE status = <the one read>`` (two processes or a replayed tick
cannot both move it).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.core.leagues.model import (
    OPEN_STATUSES,
    Format,
    LeagueConfig,
    LeagueStatus,
    Table,
    TableResult,
    TableStatus,
    is_team,
    table_key,
    team_id,
)
from bot.core.store import Store


async def signing_up(db: aiosqlite.Connection, league_id: int) -> bool:
    """Whether league ``league_id`` exists and takes sign-ups now (read inside the caller's transaction)."""
    async with db.execute("SELECT status FROM leagues WHERE id = ?", (league_id,)) as cur:
        r = await cur.fetchone()
    return r is not None and r[0] == LeagueStatus.SIGNUP.value


class RoundTaken(Exception):
    """The round was started already (by this process before a restart, or by another one)."""


@dataclass
class LeagueRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    format: Format
    status: LeagueStatus
    host_id: int
    lang: str
    config: LeagueConfig
    round: int
    round_due: float | None
    signup_message_id: int | None
    standings_message_id: int | None
    created_at: float
    updated_at: float

    @classmethod
    def from_row(cls, r: Any) -> LeagueRow:
        return cls(id=int(r["id"]), guild_id=int(r["guild_id"]), channel_id=int(r["channel_id"]), game=str(r["game"]),
                   format=Format(r["format"]), status=LeagueStatus(r["status"]), host_id=int(r["host_id"]),
                   lang=str(r["lang"]), config=LeagueConfig.from_json(json.loads(r["config"])), round=int(r["round"]),
                   round_due=None if r["round_due"] is None else float(r["round_due"]),
                   signup_message_id=_opt_int(r["signup_message_id"]),
                   standings_message_id=_opt_int(r["standings_message_id"]),
                   created_at=float(r["created_at"]), updated_at=float(r["updated_at"]))


@dataclass
class LeaguePlayer:
    user_id: int
    name: str
    rating: float
    status: str
    """``active``, ``left`` (``/league leave``) or ``dropped`` (by a moderator)."""
    joined_at: float
    team: int | None = None
    """A member's team (its entrant id); None for an entrant (a player, or a team's own row)."""

    @property
    def active(self) -> bool:
        return self.status == "active"


class TeamFull(Exception):
    """The team named has as many members as the league allows."""


def _player(r: Any) -> LeaguePlayer:
    team = r["team"]
    return LeaguePlayer(user_id=int(r["user_id"]), name=str(r["name"]), rating=float(r["rating"]),
                        status=str(r["status"]), joined_at=float(r["joined_at"]),
                        team=None if team is None else int(team))


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _table(r: Any) -> Table:
    result = r["result"]
    return Table(round=int(r["round"]), number=int(r["table_no"]), seats=[int(u) for u in json.loads(r["seats"])],
                 status=TableStatus(r["status"]),
                 result=None if result is None else TableResult.from_json(json.loads(result)),
                 thread_id=_opt_int(r["thread_id"]), message_id=_opt_int(r["message_id"]),
                 game_id=_opt_int(r["game_id"]))


class LeagueStore:
    """Reads and conditional writes of the league tables over the bot's :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def db(self) -> Any:
        return self.store.db

    # ---- leagues ---------------------------------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, game: str, fmt: Format, host_id: int, lang: str,
                     config: LeagueConfig, now: float | None = None) -> LeagueRow:
        now = time.time() if now is None else now
        cur = await self.store.write(
            "INSERT INTO leagues (guild_id, channel_id, game, format, status, host_id, lang, config, round,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, 'signup', ?, ?, ?, 0, ?, ?)",
            (guild_id, channel_id, game, fmt.value, host_id, lang, json.dumps(config.to_json()), now, now))
        league = await self.league(int(cur.lastrowid or 0))
        assert league is not None
        return league

    async def league(self, league_id: int) -> LeagueRow | None:
        async with self.db.execute("SELECT * FROM leagues WHERE id = ?", (league_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else LeagueRow.from_row(r)

    async def open_leagues(self) -> list[LeagueRow]:
        marks = ",".join("?" * len(OPEN_STATUSES))
        async with self.db.execute(f"SELECT * FROM leagues WHERE status IN ({marks}) ORDER BY id",
                                   tuple(s.value for s in OPEN_STATUSES)) as cur:
            return [LeagueRow.from_row(r) for r in await cur.fetchall()]

    async def in_channel(self, channel_id: int) -> list[LeagueRow]:
        """The channel's leagues, newest first."""
        async with self.db.execute("SELECT * FROM leagues WHERE channel_id = ? ORDER BY id DESC", (channel_id,)) as cur:
            return [LeagueRow.from_row(r) for r in await cur.fetchall()]

    async def set_status(self, league_id: int, status: LeagueStatus, *, was: Iterable[LeagueStatus] | None = None,
                         now: float | None = None) -> bool:
        """Move the league to ``status`` (only from one of ``was`` when given); whether it moved."""
        now = time.time() if now is None else now
        sql = "UPDATE leagues SET status = ?, updated_at = ? WHERE id = ?"
        params: tuple[Any, ...] = (status.value, now, league_id)
        if was is not None:
            before = [s.value for s in was]
            sql += f" AND status IN ({','.join('?' * len(before))})"
            params += tuple(before)
        cur = await self.store.write(sql, params)
        return cur.rowcount == 1

    async def set_message(self, league_id: int, which: str, message_id: int) -> None:
        column = {"signup": "signup_message_id", "standings": "standings_message_id"}[which]
        await self.store.write(f"UPDATE leagues SET {column} = ? WHERE id = ?", (message_id, league_id))

    async def set_config(self, league_id: int, config: LeagueConfig) -> None:
        await self.store.write("UPDATE leagues SET config = ? WHERE id = ?", (json.dumps(config.to_json()), league_id))

    async def set_round_due(self, league_id: int, due: float | None) -> None:
        await self.store.write("UPDATE leagues SET round_due = ? WHERE id = ?", (due, league_id))

    # ---- players ---------------------------------------------------------------------------------
    async def join(self, league_id: int, user_id: int, name: str, rating: float, now: float | None = None) -> bool:
        """Sign ``user_id`` up (during sign-up only); False when already in or the sign-up closed."""
        now = time.time() if now is None else now
        async with self.store.transaction() as db:
            if not await signing_up(db, league_id):
                return False
            cur2 = await db.execute(
                "INSERT INTO league_players (league_id, user_id, name, rating, status, joined_at)"
                " VALUES (?, ?, ?, ?, 'active', ?) ON CONFLICT (league_id, user_id) DO NOTHING",
                (league_id, user_id, name, rating, now))
            return cur2.rowcount == 1

    async def remove(self, league_id: int, user_id: int) -> bool:
        """Take a player out during sign-up (a team's member: its team goes too once it has no member)."""
        async with self.store.transaction() as db:
            async with db.execute("SELECT team FROM league_players WHERE league_id = ? AND user_id = ?",
                                  (league_id, user_id)) as cur:
                r = await cur.fetchone()
            cur2 = await db.execute("DELETE FROM league_players WHERE league_id = ? AND user_id = ?"
                                    " AND EXISTS (SELECT 1 FROM leagues WHERE id = ? AND status = 'signup')",
                                    (league_id, user_id, league_id))
            if cur2.rowcount != 1:
                return False
            if r is not None and r[0] is not None:
                await db.execute("DELETE FROM league_players WHERE league_id = ? AND user_id = ? AND NOT EXISTS"
                                 " (SELECT 1 FROM league_players WHERE league_id = ? AND team = ?)",
                                 (league_id, int(r[0]), league_id, int(r[0])))
            return True

    async def set_player_status(self, league_id: int, user_id: int, status: str) -> bool:
        cur = await self.store.write("UPDATE league_players SET status = ? WHERE league_id = ? AND user_id = ?",
                                     (status, league_id, user_id))
        return cur.rowcount == 1

    async def set_ratings(self, league_id: int, ratings: dict[int, float]) -> None:
        """The seeding ratings, fixed when the league starts."""
        async with self.store.transaction() as db:
            for user_id, rating in sorted(ratings.items()):
                await db.execute("UPDATE league_players SET rating = ? WHERE league_id = ? AND user_id = ?",
                                 (rating, league_id, user_id))

    async def replace_player(self, league_id: int, old: int, new: int, name: str) -> bool:
        """``new`` takes ``old``'s place: their points so far and every table not yet played."""
        async with self.store.transaction() as db:
            cur = await db.execute("UPDATE league_players SET user_id = ?, name = ?, status = 'active'"
                                   " WHERE league_id = ? AND user_id = ?", (new, name, league_id, old))
            if cur.rowcount != 1:
                return False
            # a team's member: the team plays on with the newcomer (back in, if its last member had left)
            await db.execute("UPDATE league_players SET status = 'active' WHERE league_id = ? AND user_id ="
                             " (SELECT team FROM league_players WHERE league_id = ? AND user_id = ?)",
                             (league_id, league_id, new))
            async with db.execute("SELECT table_key, seats, result FROM league_tables WHERE league_id = ?",
                                  (league_id,)) as cur2:
                rows = list(await cur2.fetchall())
            for r in rows:
                seats = [int(u) for u in json.loads(r["seats"])]
                if old not in seats:
                    continue
                seats = [new if u == old else u for u in seats]
                result = r["result"]
                if result is not None:
                    data = TableResult.from_json(json.loads(result))
                    data.places = {new if u == old else u: p for u, p in data.places.items()}
                    result = json.dumps(data.to_json())
                await db.execute("UPDATE league_tables SET seats = ?, result = ? WHERE table_key = ?",
                                 (json.dumps(seats), result, r["table_key"]))
            return True

    async def players(self, league_id: int) -> list[LeaguePlayer]:
        """The league's entrants: its players, or in a league of teams its teams."""
        async with self.db.execute("SELECT * FROM league_players WHERE league_id = ? AND team IS NULL"
                                   " ORDER BY joined_at, user_id", (league_id,)) as cur:
            return [_player(r) for r in await cur.fetchall()]

    async def members(self, league_id: int) -> dict[int, list[LeaguePlayer]]:
        """A league of teams: each team's members (who left included), in the order they joined."""
        out: dict[int, list[LeaguePlayer]] = {}
        async with self.db.execute("SELECT * FROM league_players WHERE league_id = ? AND team IS NOT NULL"
                                   " ORDER BY joined_at, user_id", (league_id,)) as cur:
            for r in await cur.fetchall():
                member = _player(r)
                assert member.team is not None
                out.setdefault(member.team, []).append(member)
        return out

    async def member(self, league_id: int, user_id: int) -> LeaguePlayer | None:
        """The user's member row in a league of teams (None: not in a team)."""
        async with self.db.execute("SELECT * FROM league_players WHERE league_id = ? AND user_id = ?"
                                   " AND team IS NOT NULL", (league_id, user_id)) as cur:
            r = await cur.fetchone()
        return None if r is None else _player(r)

    async def join_team(self, league_id: int, user_id: int, name: str, team_name: str, size: int,
                        now: float | None = None) -> tuple[LeaguePlayer, bool] | None:
        """Sign ``user_id`` up in the team called ``team_name`` (compared without case), made when there is
        none yet; during sign-up only. The team's row and whether it was made now; None when the user is in
        the league already or the sign-up closed. Raises :class:`TeamFull` when the team has ``size``."""
        now = time.time() if now is None else now
        async with self.store.transaction() as db:
            if not await signing_up(db, league_id):
                return None
            async with db.execute("SELECT 1 FROM league_players WHERE league_id = ? AND user_id = ?",
                                  (league_id, user_id)) as cur:
                if await cur.fetchone() is not None:
                    return None
            async with db.execute("SELECT * FROM league_players WHERE league_id = ? AND team IS NULL"
                                  " ORDER BY user_id DESC", (league_id,)) as cur:
                teams = [_player(x) for x in await cur.fetchall()]
            wanted = " ".join(team_name.split()).casefold()
            team = next((x for x in teams if x.name.casefold() == wanted), None)
            made = team is None
            if team is None:
                lowest = min((x.user_id for x in teams if is_team(x.user_id)), default=team_id(0) + 1)
                team = LeaguePlayer(user_id=lowest - 1, name=" ".join(team_name.split()), rating=0.0,
                                    status="active", joined_at=now)
                await db.execute("INSERT INTO league_players (league_id, user_id, name, rating, status, joined_at)"
                                 " VALUES (?, ?, ?, 0, 'active', ?)", (league_id, team.user_id, team.name, now))
            else:
                async with db.execute("SELECT COUNT(*) FROM league_players WHERE league_id = ? AND team = ?",
                                      (league_id, team.user_id)) as cur:
                    count = await cur.fetchone()
                if count is not None and int(count[0]) >= size:
                    raise TeamFull(team.name)
            await db.execute("INSERT INTO league_players (league_id, user_id, name, rating, status, joined_at, team)"
                             " VALUES (?, ?, ?, 0, 'active', ?, ?)", (league_id, user_id, name, now, team.user_id))
            return team, made

    # ---- rounds and tables -----------------------------------------------------------------------
    async def start_round(self, league_id: int, round_no: int, tables: list[Table], due: float | None,
                          now: float | None = None) -> None:
        """Round ``round_no`` (the league stood at ``round_no - 1``) with its tables, in one transaction.
        Raises :class:`RoundTaken` when the round was started already: nothing is written then."""
        now = time.time() if now is None else now
        async with self.store.transaction() as db:
            cur = await db.execute(
                "UPDATE leagues SET round = ?, round_due = ?, status = 'running', updated_at = ?"
                " WHERE id = ? AND round = ? AND status IN ('signup', 'running')",
                (round_no, due, now, league_id, round_no - 1))
            if cur.rowcount != 1:
                raise RoundTaken(f"league {league_id} round {round_no}")
            for table in tables:
                await db.execute(
                    "INSERT INTO league_tables (league_id, round, table_no, table_key, seats, status, result, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (league_id, round_no, table.number, table_key(league_id, round_no, table.number),
                     json.dumps(table.seats), table.status.value,
                     None if table.result is None else json.dumps(table.result.to_json()), now))

    async def tables(self, league_id: int, round_no: int | None = None) -> list[Table]:
        sql = "SELECT * FROM league_tables WHERE league_id = ?"
        params: tuple[Any, ...] = (league_id,)
        if round_no is not None:
            sql += " AND round = ?"
            params += (round_no,)
        async with self.db.execute(sql + " ORDER BY round, table_no", params) as cur:
            return [_table(r) for r in await cur.fetchall()]

    async def move_table(self, league_id: int, table: Table, was: TableStatus, now: float | None = None) -> bool:
        """Write ``table``'s status and ids if it is still ``was`` in the database; whether it was."""
        now = time.time() if now is None else now
        try:
            cur = await self.store.write(
                "UPDATE league_tables SET status = ?, message_id = ?, thread_id = ?, game_id = ?, result = ?,"
                " updated_at = ? WHERE table_key = ? AND status = ?",
                (table.status.value, table.message_id, table.thread_id, table.game_id,
                 None if table.result is None else json.dumps(table.result.to_json()), now,
                 table.key(league_id), was.value))
        except sqlite3.IntegrityError:
            return False
        return cur.rowcount == 1

    async def table_of_game(self, game_id: int) -> tuple[int, Table] | None:
        """The league and table a game is played at, if any."""
        async with self.db.execute("SELECT * FROM league_tables WHERE game_id = ?", (game_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else (int(r["league_id"]), _table(r))

    async def place_of(self, game_id: int) -> dict[int, int] | None:
        """The places the stats recorded for a game (None before they are recorded)."""
        async with self.db.execute("SELECT user_id, place FROM stat_players WHERE game_id = ?", (game_id,)) as cur:
            rows = list(await cur.fetchall())
        if not rows:
            return None
        return {int(r[0]): int(r[1]) if r[1] is not None else len(rows) for r in rows}
