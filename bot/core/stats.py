"""Statistics and ratings of finished games (issue 12), kept beside the games in the same SQLite file.

When a game leaves play (finished, aborted, abandoned) :meth:`Stats.record` writes one row per game
(``stat_games``) and one per user who played it (``stat_players``: place, won, abandoned, moves and
time to move, rating before/after), then adds to the running totals read by the commands
(``stat_users`` per server, user and game, holding the rating too; ``stat_totals`` per server, game
and result). The commands read only those totals, so ``/stats`` and ``/leaderboard`` cost a few
index lookups however many games were played. Recording is idempotent (a game is recorded once) and
``catch_up`` records, at start, games that ended while the bot died before it could record them.

The tables belong to this module: it creates them through the store's connection and versions them
in the ``meta`` table (``stats_schema``), so the store's own migrations stay untouched.

Ratings: OpenSkill's Plackett-Luce model (``openskill.models.PlackettLuce``, default parameters:
mu 25, sigma 25/3, beta 25/6, tau 25/300), one rating per server, game and user. Each side is a
team (Pobeda's team seats, a Cold War seat shared by several users), ranked by its place (ties share
a place). A game with a bot seat, an aborted game and a game ended without a result (a vote to end)
do not move ratings. The shown rating is the ordinal mu - 3 sigma (0 for a newcomer): a
conservative estimate that grows as the uncertainty sigma shrinks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.core import takeback
from bot.core.replay import LoggedAction, off_loop, read_log, stored_state
from bot.core.store import GameRow, Store
from bot.core.votes import bot_seats
from bot.games.base import Game, rng_version
from bot.games.registry import GAMES, game_class

log = logging.getLogger(__name__)

SCHEMA_KEY = "stats_schema"
MODEL = PlackettLuce()
"""Default parameters: mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300."""
ORDINAL_Z = 3.0
"""The shown rating is mu - ORDINAL_Z * sigma."""
ABANDONING = ("conceded", "dropped")
"""Departures (``bot.core.votes.HOWS``) that count as abandoning a game; agreeing to a vote does not."""

SCHEMA: list[list[str]] = [
    # version 1
    [
        """CREATE TABLE IF NOT EXISTS stat_games (
            game_id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('finished', 'aborted', 'abandoned')),
            rated INTEGER NOT NULL,
            players INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            ended_at REAL NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS stat_players (
            game_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            guild_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            seat INTEGER,
            side INTEGER,
            place INTEGER,
            won INTEGER NOT NULL,
            abandoned INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            timed_moves INTEGER NOT NULL,
            think_s REAL NOT NULL,
            mu_before REAL,
            sigma_before REAL,
            mu_after REAL,
            sigma_after REAL,
            PRIMARY KEY (game_id, user_id)
        )""",
        "CREATE INDEX IF NOT EXISTS stat_players_user ON stat_players(guild_id, user_id, game)",
        """CREATE TABLE IF NOT EXISTS stat_users (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            name TEXT,
            played INTEGER NOT NULL DEFAULT 0,
            won INTEGER NOT NULL DEFAULT 0,
            abandoned INTEGER NOT NULL DEFAULT 0,
            aborted INTEGER NOT NULL DEFAULT 0,
            timed_moves INTEGER NOT NULL DEFAULT 0,
            think_s REAL NOT NULL DEFAULT 0,
            rated INTEGER NOT NULL DEFAULT 0,
            mu REAL,
            sigma REAL,
            ordinal REAL,
            PRIMARY KEY (guild_id, user_id, game)
        )""",
        "CREATE INDEX IF NOT EXISTS stat_users_board ON stat_users(guild_id, game, ordinal DESC) "
        "WHERE ordinal IS NOT NULL",
        """CREATE TABLE IF NOT EXISTS stat_totals (
            guild_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            result TEXT NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            moves INTEGER NOT NULL DEFAULT 0,
            timed_moves INTEGER NOT NULL DEFAULT 0,
            think_s REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, game, result)
        )""",
    ],
]


# ---- pure parts: places, teams, ratings, move times ---------------------------------------------
def competition_places(scores: Sequence[float | None]) -> list[int]:
    """1-based places, higher score first, equal scores sharing a place (1, 1, 3...); None last."""
    keyed = [(-s if s is not None else float("inf")) for s in scores]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def side_places(outcome: Mapping[str, Any], sides: Sequence[int], score_field: str = "scores") -> dict[int, int]:
    """Place of each side from a game's outcome: winners first (together), then the others by the
    score the outcome reports (``scores``: a list by side or a dict by seat; failing that, the field its
    game's manifest names, ``score_field``: Pobeda's ``lines``), tied when it reports none. A draw without
    winners ties everyone."""
    sides = sorted(set(sides))
    winners = {int(w) for w in outcome.get("winners") or []}
    if not winners:
        return {s: 1 for s in sides}
    raw = outcome.get("scores", outcome.get(score_field))
    score: dict[int, float | None] = {}
    for s in sides:
        value: Any = None
        if isinstance(raw, list) and 0 <= s < len(raw):
            value = raw[s]
        elif isinstance(raw, dict):
            value = raw.get(str(s), raw.get(s))
        score[s] = float(value) if isinstance(value, (int, float)) else None
    losers = [s for s in sides if s not in winners]
    places = {s: 1 for s in sides if s in winners}
    for s, place in zip(losers, competition_places([score[s] for s in losers]), strict=True):
        places[s] = len(winners) + place
    return places


@dataclass
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_Z * self.sigma


def rate(teams: Sequence[Sequence[Rating]], places: Sequence[int],
         model: PlackettLuce = MODEL) -> list[list[Rating]]:
    """New ratings of every team member after one game (``places``: 1-based, ties equal)."""
    groups = [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    rated = model.rate(groups, ranks=[float(p) for p in places])
    return [[Rating(p.mu, p.sigma) for p in team] for team in rated]


def move_times(actions: Iterable[tuple[int, int | None, list[dict[str, Any]], float]]) -> dict[int, list[float]]:
    """Seconds each user took for each of their moves, from the stored log (seat, user, events, time).

    A seat's clock starts when it was last asked to act (a ``platform.prompt`` event naming it) or
    at its own previous move, whichever is later; a move without a known start (the very first ones,
    before any prompt) and automatic moves (no user) are not timed."""
    started: dict[int, float] = {}
    out: dict[int, list[float]] = {}
    for seat, user, events, at in actions:
        if user is not None and seat in started:
            out.setdefault(user, []).append(max(0.0, at - started[seat]))
        if seat >= 0:
            started[seat] = at
        for event in events:
            if event.get("type") == "platform.prompt":
                for s in event.get("seats") or []:
                    started[int(s)] = at
    return out


def is_bot(user_id: int) -> bool:
    return user_id < 0


# ---- the record of one game -----------------------------------------------------------------------
@dataclass
class PlayerRecord:
    user_id: int
    name: str | None
    seat: int | None
    side: int | None
    place: int | None
    won: bool
    abandoned: bool
    moves: int
    timed_moves: int
    think_s: float


@dataclass
class GameRecord:
    game_id: int
    guild_id: int
    game: str
    result: str
    """finished (played out), abandoned (ended by a concession or a vote), aborted (no result)."""
    rated: bool
    moves: int
    players: list[PlayerRecord]


def game_record(row: GameRow, game: Game | None,
                actions: Sequence[tuple[int, int | None, list[dict[str, Any]], float]]) -> GameRecord | None:
    """What the stats keep of one ended game (None: it never started, nothing to record)."""
    if row.seat_users is None:
        return None
    extra = row.settings.extra
    departures = [d for d in extra.get("departures") or [] if isinstance(d, dict)]
    ending = extra.get("ending")
    forced = row.settings.outcome
    outcome = forced or (game.outcome() if game is not None else None)
    if row.status == "aborted":
        result = "aborted"
    elif forced or ending:
        result = "abandoned"  # ended by a concession or a vote, not by the rules
    else:
        result = "finished"
    if row.status == "finished" and outcome is None:
        result = "abandoned"  # ended without a result (a vote to end)
    seat_of: dict[int, int] = {}
    for seat, users in enumerate(row.seat_users):
        for user in users:
            seat_of[user] = seat
    left: set[int] = set()
    for d in departures:
        gone = d.get("user")
        if isinstance(gone, int):
            user = gone
            if user not in seat_of and isinstance(d.get("seat"), int):
                seat_of[user] = int(d["seat"])  # a team member who conceded left the seat's users
            if d.get("how") in ABANDONING:
                left.add(user)
    conceded = set(row.settings.conceded or [])
    for seat in conceded:
        for user in row.seat_users[seat] if 0 <= seat < len(row.seat_users) else []:
            left.add(user)

    def side(seat: int) -> int:
        return game.side_of(seat) if game is not None else seat

    places: dict[int, int] = {}
    winners = {int(w) for w in (outcome or {}).get("winners") or []} if row.status == "finished" else set()
    if outcome is not None and row.status == "finished":
        all_sides = [side(s) for s in range(len(row.seat_users))]
        known = GAMES.get(row.game)
        places = side_places(outcome, all_sides, known.score_field if known is not None else "scores")
        # a side whose every seat conceded (its moves were then played automatically) comes last
        gone = {x for x in all_sides if x not in winners
                and all(s in conceded for s in range(len(row.seat_users)) if side(s) == x)}
        if gone and len(gone) < len(places):
            stayed = {x: p for x, p in places.items() if x not in gone}
            places = {**stayed, **{x: len(stayed) + 1 for x in gone}}
    times = move_times(actions)
    counts: dict[int, int] = {}
    for _seat, mover, _events, _at in actions:
        if mover is not None:
            counts[mover] = counts.get(mover, 0) + 1
    names = {p.user: p.name for p in row.lobby}
    players = []
    for user, seat in sorted(seat_of.items()):
        s = side(seat)
        taken = times.get(user, [])
        players.append(PlayerRecord(
            user_id=user, name=names.get(user), seat=seat, side=s, place=places.get(s), won=s in winners and not (outcome or {}).get("draw"),
            abandoned=user in left, moves=counts.get(user, 0), timed_moves=len(taken), think_s=sum(taken),
        ))
    bots = bot_seats(extra) or any(is_bot(p.user_id) for p in players)
    sides = {p.side for p in players}
    rated = bool(places) and not bots and len(sides) >= 2 and row.status == "finished"
    return GameRecord(game_id=row.id, guild_id=row.guild_id or 0, game=row.game, result=result, rated=rated,
                      moves=len(actions), players=players)


def record_of(row: GameRow, log_rows: Sequence[LoggedAction]) -> GameRecord | None:
    """:func:`game_record` of a stored game and its undecoded log (the final state loaded from the
    row). Only the events of moves that asked seats to act are decoded: the others do not count."""
    actions = [(a.seat, a.user_id, json.loads(a.events) if "platform.prompt" in a.events else [], a.created_at)
               for a in takeback.effective(log_rows)]  # issue 27: taken-back moves do not count
    return game_record(row, final_game(row), actions)


def final_game(row: GameRow) -> Game | None:
    """The final game of a row (None when it has no state or the state does not load)."""
    if row.state is None:
        return None
    try:
        data = stored_state(row.game, row.state, row.settings.to_json())
        with rng_version(row.settings.rng_version or 1):
            return game_class(row.game).from_json(data)
    except Exception:
        log.exception("stats: game %s's final state does not load; recorded without places", row.id)
        return None


@dataclass
class UserGameStats:
    game: str
    played: int
    won: int
    abandoned: int
    aborted: int
    timed_moves: int
    think_s: float
    rated: int
    mu: float | None
    sigma: float | None
    ordinal: float | None

    @property
    def average_s(self) -> float | None:
        return self.think_s / self.timed_moves if self.timed_moves else None


@dataclass
class TotalStats:
    game: str
    result: str
    games: int
    moves: int
    timed_moves: int
    think_s: float


@dataclass
class BoardRow:
    user_id: int
    name: str | None
    ordinal: float
    mu: float
    sigma: float
    rated: int
    won: int
    played: int


class Stats:
    """Records ended games and answers the stats commands, on the store's connection."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = asyncio.Lock()  # ratings are updated one game at a time, in the order games end
        self._pending: set[asyncio.Task[None]] = set()
        self.on_recorded: Callable[[GameRecord], None] = lambda _record: None
        """Called once a game's record (and its ratings) is written: the Discord layer tells its
        players the result and their rating change (issue 25). Must not block: it schedules."""

    @property
    def db(self) -> Any:
        return self.store.db

    async def setup(self) -> None:
        async with self.store.schema_lock():  # two processes on one PostgreSQL: one creates, one finds
            await self._migrate()

    async def _migrate(self) -> None:
        raw = await self.store.get_meta(SCHEMA_KEY)
        version = int(raw) if raw and raw.isdigit() else 0
        if version > len(SCHEMA):
            raise RuntimeError(f"stats schema {version} is newer than this bot ({len(SCHEMA)})")
        for target in range(version + 1, len(SCHEMA) + 1):
            async with self.store.transaction() as db:
                for sql in SCHEMA[target - 1]:
                    await db.execute(sql)
                await db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key)"
                                 " DO UPDATE SET value = excluded.value", (SCHEMA_KEY, str(target)))

    # ---- recording --------------------------------------------------------------------------
    def schedule(self, game_id: int) -> None:
        """Record a game that just ended, in the background (the hook of the session layer)."""
        task = asyncio.get_running_loop().create_task(self._record_logged(game_id))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def schedule_catch_up(self) -> None:
        """Run :meth:`catch_up` in the background (start-up does not wait for it)."""
        task = asyncio.get_running_loop().create_task(self._catch_up_logged())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _catch_up_logged(self) -> None:
        try:
            await self.catch_up()
        except Exception:
            log.exception("stats: catching up on ended games failed")

    async def idle(self) -> None:
        """Wait until every game scheduled for recording is recorded."""
        while self._pending:
            await asyncio.wait(list(self._pending))

    async def _record_logged(self, game_id: int) -> None:
        try:
            await self.record(game_id)
        except Exception:
            log.exception("stats: recording game %s failed (it is tried again at the next start)", game_id)

    async def record(self, game_id: int) -> GameRecord | None:
        """Record one ended game (nothing when it is already recorded, still open, or never started)."""
        async with self._lock:
            async with self.db.execute("SELECT 1 FROM stat_games WHERE game_id = ?", (game_id,)) as cur:
                if await cur.fetchone():
                    return None
            try:
                row = await self.store.load_game(game_id)
            except ValueError:  # a state that does not parse (a broken game, aborted): recorded without it
                loaded = await self.store.load_game_text(game_id)
                row = loaded[0] if loaded else None
            if row is None or row.status not in ("finished", "aborted"):
                return None
            log_rows = await read_log(self.store, game_id)
            # a long game's log takes a while to go through (25,000 actions): off the event loop
            record = await off_loop(record_of, row, log_rows)
            if record is None:
                return None
            await self._write(record, time.time())
            try:
                self.on_recorded(record)
            except Exception:
                log.exception("stats: the hook after recording game %s failed", game_id)
            return record

    async def catch_up(self) -> int:
        """Record every ended game missing from the stats (the bot died before recording it)."""
        async with self.db.execute(
            "SELECT id FROM games WHERE status IN ('finished', 'aborted') AND seat_users IS NOT NULL"
            " AND id NOT IN (SELECT game_id FROM stat_games) ORDER BY updated_at, id"
        ) as cur:
            ids = [r[0] for r in await cur.fetchall()]
        done = 0
        for game_id in ids:
            try:
                if await self.record(game_id) is not None:
                    done += 1
            except Exception:
                log.exception("stats: recording game %s failed", game_id)
        if done:
            log.info("stats: recorded %d games that ended while the bot was away", done)
        return done

    async def _write(self, record: GameRecord, now: float) -> None:
        async with self.store.transaction() as db:
            old: dict[int, Rating] = {}
            if record.rated:
                old = await self._ratings(db, record.guild_id, record.game, [p.user_id for p in record.players])
            new = self._rated(record, old) if record.rated else {}
            await db.execute(
                "INSERT INTO stat_games (game_id, guild_id, game, result, rated, players, moves, ended_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (record.game_id, record.guild_id, record.game, record.result, int(record.rated),
                 len(record.players), record.moves, now))
            for p in record.players:
                before, after = old.get(p.user_id), new.get(p.user_id)
                await db.execute(
                    "INSERT INTO stat_players (game_id, user_id, guild_id, game, seat, side, place, won, abandoned,"
                    " moves, timed_moves, think_s, mu_before, sigma_before, mu_after, sigma_after)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (record.game_id, p.user_id, record.guild_id, record.game, p.seat, p.side, p.place, int(p.won),
                     int(p.abandoned), p.moves, p.timed_moves, p.think_s,
                     before.mu if before else None, before.sigma if before else None,
                     after.mu if after else None, after.sigma if after else None))
                await db.execute(
                    "INSERT INTO stat_users (guild_id, user_id, game, name, played, won, abandoned, aborted, timed_moves,"
                    " think_s, rated, mu, sigma, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET played = played + excluded.played,"
                    " name = COALESCE(excluded.name, name),"
                    " won = won + excluded.won, abandoned = abandoned + excluded.abandoned,"
                    " aborted = aborted + excluded.aborted, timed_moves = timed_moves + excluded.timed_moves,"
                    " think_s = think_s + excluded.think_s, rated = rated + excluded.rated,"
                    " mu = COALESCE(excluded.mu, mu), sigma = COALESCE(excluded.sigma, sigma),"
                    " ordinal = COALESCE(excluded.ordinal, ordinal)",
                    (record.guild_id, p.user_id, record.game, p.name, int(record.result != "aborted"), int(p.won),
                     int(p.abandoned), int(record.result == "aborted"), p.timed_moves, p.think_s,
                     int(after is not None), after.mu if after else None, after.sigma if after else None,
                     after.ordinal if after else None))
            await db.execute(
                "INSERT INTO stat_totals (guild_id, game, result, games, moves, timed_moves, think_s)"
                " VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, game, result) DO UPDATE SET"
                " games = games + 1, moves = moves + excluded.moves, timed_moves = timed_moves + excluded.timed_moves,"
                " think_s = think_s + excluded.think_s",
                (record.guild_id, record.game, record.result, record.moves,
                 sum(p.timed_moves for p in record.players), sum(p.think_s for p in record.players)))

    @staticmethod
    async def _ratings(db: Any, guild_id: int, game: str, users: list[int]) -> dict[int, Rating]:
        marks = ",".join("?" * len(users))
        async with db.execute(
            f"SELECT user_id, mu, sigma FROM stat_users WHERE guild_id = ? AND game = ? AND user_id IN ({marks})"
            " AND mu IS NOT NULL", (guild_id, game, *users),
        ) as cur:
            found = {r[0]: Rating(r[1], r[2]) for r in await cur.fetchall()}
        return {u: found.get(u, Rating(MODEL.mu, MODEL.sigma)) for u in users}

    @staticmethod
    def _rated(record: GameRecord, old: dict[int, Rating]) -> dict[int, Rating]:
        by_side: dict[int, list[PlayerRecord]] = {}
        for p in record.players:
            if p.side is not None and p.place is not None:
                by_side.setdefault(p.side, []).append(p)
        sides = sorted(by_side)
        if len(sides) < 2:
            return {}
        teams = [[old[p.user_id] for p in by_side[s]] for s in sides]
        places = [by_side[s][0].place or 0 for s in sides]
        new = rate(teams, places)
        return {p.user_id: r for s, team in zip(sides, new, strict=True) for p, r in zip(by_side[s], team, strict=True)}

    # ---- reading ----------------------------------------------------------------------------
    async def user_stats(self, guild_id: int, user_id: int, game: str | None = None) -> list[UserGameStats]:
        sql = ("SELECT game, played, won, abandoned, aborted, timed_moves, think_s, rated, mu, sigma, ordinal"
               " FROM stat_users WHERE guild_id = ? AND user_id = ?")
        params: tuple[Any, ...] = (guild_id, user_id)
        if game is not None:
            sql += " AND game = ?"
            params = (*params, game)
        async with self.db.execute(sql + " ORDER BY game", params) as cur:
            return [UserGameStats(*r) for r in await cur.fetchall()]

    async def totals(self, guild_id: int, game: str | None = None) -> list[TotalStats]:
        sql = "SELECT game, result, games, moves, timed_moves, think_s FROM stat_totals WHERE guild_id = ?"
        params: tuple[Any, ...] = (guild_id,)
        if game is not None:
            sql += " AND game = ?"
            params = (*params, game)
        async with self.db.execute(sql + " ORDER BY game, result", params) as cur:
            return [TotalStats(*r) for r in await cur.fetchall()]

    async def leaderboard(self, guild_id: int, game: str, limit: int = 20) -> list[BoardRow]:
        async with self.db.execute(
            "SELECT user_id, name, ordinal, mu, sigma, rated, won, played FROM stat_users"
            " WHERE guild_id = ? AND game = ? AND ordinal IS NOT NULL ORDER BY ordinal DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        ) as cur:
            return [BoardRow(*r) for r in await cur.fetchall()]

    async def rank_of(self, guild_id: int, game: str, user_id: int) -> int | None:
        """The user's 1-based place on the server's board of ``game`` (None: not rated)."""
        async with self.db.execute(
            "SELECT ordinal FROM stat_users WHERE guild_id = ? AND user_id = ? AND game = ? AND ordinal IS NOT NULL",
            (guild_id, user_id, game),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with self.db.execute(
            "SELECT COUNT(*) FROM stat_users WHERE guild_id = ? AND game = ? AND ordinal IS NOT NULL AND ordinal > ?",
            (guild_id, game, row[0]),
        ) as cur:
            above = await cur.fetchone()
        return 1 + int(above[0] if above else 0)

    async def last_game_in_channel(self, channel_id: int) -> tuple[int, str, int | None] | None:
        """(id, status, guild) of the channel's latest game, whatever its status."""
        async with self.db.execute(
            "SELECT id, status, guild_id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return (row[0], row[1], row[2]) if row else None

    async def game_status(self, game_id: int) -> tuple[int, str, int | None] | None:
        """(id, status, guild) of one game."""
        async with self.db.execute("SELECT id, status, guild_id FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return (row[0], row[1], row[2]) if row else None

    async def player_rows(self, game_id: int) -> list[dict[str, Any]]:
        """The recorded per-user rows of one game (tests and debugging)."""
        async with self.db.execute("SELECT * FROM stat_players WHERE game_id = ? ORDER BY user_id", (game_id,)) as cur:
            return [dict(r) for r in await cur.fetchall()]
