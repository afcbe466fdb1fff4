"""The league's state machine: rounds that run themselves, restart-proof.

A league moves ``signup -> running -> finished`` (``paused`` holds it; ``cancelled`` ends it). While
running, each call of :meth:`Scheduler.tick` looks at the stored league and does the next steps:

==========================  ===============================================================
the round's tables          the step
==========================  ===============================================================
all ``done`` (or round 0)   pair the next round (:func:`plan_round`) and write it with the
                            round number in one transaction; or finish the league
``paired``                  ``-> opening``; post the table's announcement (keyed, see below)
``opening``                 the announcement's id is stored; open its thread ``-> opened``
``opened``                  start the game in the thread ``-> playing``
``playing``                 the game's result, once it has one ``-> done``; past the round's
                            deadline the game is adjudicated (:data:`ADJUDICATION`)
==========================  ===============================================================

Every step is a conditional write of the status read (``WHERE status = ...``), so two processes
or a repeated tick move a table once. The effects on Discord between two writes are asked of
:class:`Effects` with the table's key, and must be idempotent by it: the Discord side posts the
announcement with the key as its nonce (Discord returns the same message for a repeated nonce) and
opens the thread *from that message* (a message has at most one thread), and it starts a game in a
thread only when the thread has none (:func:`bot.discord_app.leagues`). So a SIGKILL between the
pairing and the thread, or between the thread and the game, resumes without doubles.

Where several processes share a PostgreSQL database the caller runs :meth:`Scheduler.tick` for a
league only while it holds the lease ``league:<id>`` (:func:`lease_name`).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.core.leagues import colours, pairing
from bot.core.leagues.model import Format, LeagueStatus, Table, TableResult, TableStatus, is_bot
from bot.core.leagues.standings import table_points
from bot.core.leagues.storage import LeaguePlayer, LeagueRow, LeagueStore, RoundTaken

log = logging.getLogger(__name__)

ADJUDICATION = "shared"
"""What an unfinished game at the round's deadline scores: every player still seated shares the
first place (a draw: ½ each at two players), unless a moderator adjudicates otherwise
(``/league admin adjudicate``). Documented in docs/leagues.md."""


MIN_PLAYERS = {Format.SWISS: 2, Format.ROUND_ROBIN: 3, Format.ELIMINATION: 2}
"""Players a league needs to start (and at least one table's worth)."""


def lease_name(league_id: int) -> str:
    return f"league:{league_id}"


class Effects(Protocol):
    """What the scheduler asks of the outside world (Discord, the game sessions). Each call gets the
    table's key and must do its work once per key, however often it is called."""

    async def post_table(self, league: LeagueRow, table: Table, key: str) -> int:
        """Announce the table in the league's channel; the message's id."""

    async def open_thread(self, league: LeagueRow, table: Table, key: str) -> int:
        """The thread of the table, made from its announcement (``table.message_id``); its id."""

    async def start_game(self, league: LeagueRow, table: Table, key: str) -> int:
        """The table's game in its thread (``table.thread_id``), started with the league's pace; its id."""

    async def result(self, league: LeagueRow, table: Table) -> TableResult | None:
        """The places at the table once its game has ended (None while it runs)."""

    async def adjudicate(self, league: LeagueRow, table: Table) -> TableResult:
        """End the table's unfinished game at the round's deadline; the result it counts as."""

    async def changed(self, league: LeagueRow, what: str) -> None:
        """``round`` (a round was paired), ``table`` (a result came in), ``finished``."""


@dataclass
class Plan:
    """The next round's tables, or None when the league is over."""

    tables: list[Table] | None


def total_rounds(fmt: Format, players: int, wanted: int, per_table: int = 2) -> int:
    """Rounds the league lasts: Swiss as chosen (default: ⌈log2 n⌉, enough for one winner), round
    robin n - 1 (n even; n with a bye), elimination ⌈log2 n⌉. At tables of more than two: the round
    robin's greedy schedule (:func:`pairing.table_rounds`), an elimination's rounds of tables until one
    winner is left (:func:`pairing.elimination_rounds`)."""
    if players < 2:
        return 0
    if per_table > 2 and fmt is Format.ROUND_ROBIN:
        return len(pairing.table_rounds(list(range(players)), per_table))
    if per_table > 2 and fmt is Format.ELIMINATION:
        return pairing.elimination_rounds(players, per_table)
    if fmt is Format.ROUND_ROBIN:
        return players - 1 if players % 2 == 0 else players
    need = math.ceil(math.log2(players))
    if fmt is Format.ELIMINATION:
        return need
    return wanted or need


def league_rounds(league: LeagueRow, entrants: int) -> int:
    """:func:`total_rounds` of this league with ``entrants`` entrants."""
    return total_rounds(league.format, entrants, league.config.rounds, league.config.players_per_game)


def history(tables: Sequence[Table]) -> pairing.History:
    """Scores, encounters and byes from the finished tables."""
    h = pairing.History()
    last = max((t.round for t in tables), default=0)
    for table in tables:  # who sat first at each two-player table (a table's first seat is the first)
        if len(table.seats) == 2:
            for colour, user in enumerate(table.seats):
                h.colours.setdefault(user, [None] * last)[table.round - 1] = colour
    for table in tables:
        if table.result is None:
            continue
        for user, got in table_points(table.result.places).items():
            h.scores[user] = h.scores.get(user, 0.0) + float(got)
        if table.is_bye:
            h.byes[table.seats[0]] = h.byes.get(table.seats[0], 0) + 1
        else:
            h.meet(table.seats)
    return h


def winners(tables: Sequence[Table]) -> list[int]:
    """Each table's sole first place, in table order (elimination: who goes on)."""
    out = []
    for table in sorted(tables, key=lambda t: t.number):
        if table.result is None:
            continue
        first = min(table.result.places.values())
        top = [u for u in table.seats if table.result.places.get(u) == first]
        out.append(top[0])  # a shared first place (adjudicated): the one listed first (the better seed)
    return out


def seeded(players: Sequence[LeaguePlayer]) -> list[int]:
    """Player ids by seeding rating (highest first), then by sign-up."""
    return [p.user_id for p in sorted(players, key=lambda p: (-p.rating, p.joined_at, p.user_id))]


def bye_table(round_no: int, number: int, user: int) -> Table:
    return Table(round=round_no, number=number, seats=[user], status=TableStatus.DONE,
                 result=TableResult(places={user: 1}, how="bye"))


def plan_round(league: LeagueRow, players: Sequence[LeaguePlayer], tables: Sequence[Table],
               low: int = 2, high: int = 2, members: Mapping[int, Sequence[int]] | None = None) -> Plan:
    """The tables of round ``league.round + 1`` (pure: the same inputs give the same tables).

    ``low``/``high``: the game's player range (in a league of teams, the teams a table may seat), for
    tables of more than two. ``members``: a league of teams' members by team (who plays for each entrant)."""
    round_no = league.round + 1
    everyone = seeded(players)
    active = {p.user_id for p in players if p.active}
    count = league_rounds(league, len(everyone))
    if round_no > count:
        return Plan(None)
    ratings = {p.user_id: p.rating for p in players}
    out: list[Table] = []
    per_table = league.config.players_per_game
    if per_table > 2 and league.format is Format.ROUND_ROBIN:  # every pair meets at least once
        for seats in pairing.table_rounds(everyone, per_table)[round_no - 1]:
            out.append(Table(round=round_no, number=len(out) + 1, seats=seats))
    elif per_table > 2 and league.format is Format.ELIMINATION:  # each table's winner goes on
        field = everyone if round_no == 1 else winners([t for t in tables if t.round == league.round])
        if len(field) < 2:
            return Plan(None)
        rank = {u: i for i, u in enumerate(everyone)}
        for seats in pairing.snake_tables(sorted(field, key=rank.__getitem__), per_table):
            out.append(Table(round=round_no, number=len(out) + 1, seats=seats))
    elif league.format is Format.ROUND_ROBIN:
        h = history(tables)
        seed_no = {u: i + 1 for i, u in enumerate(everyone)}
        for pair in pairing.round_robin(everyone)[round_no - 1]:
            a, b = pair
            if b is not None and seed_no[b] < seed_no[a]:
                a, b = b, a  # the better seed is the higher-ranked (C.04.3 E.4, E.5)
            out.append(bye_table(round_no, len(out) + 1, a) if b is None else
                       Table(round=round_no, number=len(out) + 1, seats=seated(a, b, seed_no, h)))
    elif league.format is Format.ELIMINATION:
        if round_no == 1:
            slots = pairing.elimination_slots(everyone)
        else:
            slots = list(winners([t for t in tables if t.round == league.round]))
            if len(slots) < 2:
                return Plan(None)
        for a, b in pairing.slot_pairs(slots):
            out.append(bye_table(round_no, len(out) + 1, a) if b is None else
                       Table(round=round_no, number=len(out) + 1, seats=[a, b]))
    else:
        h = history(tables)
        field = [u for u in everyone if u in active]
        if len(field) < max(2, low):
            return Plan(None)
        if league.config.players_per_game > 2:
            order = pairing.ranked(field, ratings, h.scores)
            for seats in pairing.tables(order, league.config.players_per_game, max(low, 3), high, h):
                out.append(Table(round=round_no, number=len(out) + 1, seats=seats))
        else:
            swiss = pairing.swiss(field, ratings, h)
            numbers = {u: i + 1 for i, u in enumerate(pairing.ranked(everyone, ratings, {}))}
            for a, b in swiss.pairs:
                out.append(Table(round=round_no, number=len(out) + 1, seats=seated(a, b, numbers, h)))
            if swiss.bye is not None:
                out.append(bye_table(round_no, len(out) + 1, swiss.bye))
    for table in out:
        gone = [u for u in table.seats if u not in active]
        if table.status is TableStatus.DONE:
            continue
        if gone:  # a player who left or was dropped concedes the games of this round at once
            table.status = TableStatus.DONE
            table.result = forfeit(table.seats, gone)
        elif all(is_bot(m) for u in table.seats for m in (members or {}).get(u, [u])):
            # bot entrants only: the platform ends a game no person plays, so there is none; the better seed
            # (in Swiss the better score, then seed) wins, the others follow in that order
            if league.format is Format.SWISS:
                rank = {u: i for i, u in enumerate(pairing.ranked(everyone, ratings, history(tables).scores))}
            else:
                rank = {u: i for i, u in enumerate(everyone)}
            table.status = TableStatus.DONE
            ordered = sorted(table.seats, key=rank.__getitem__)
            table.result = TableResult(places={u: 1 + ordered.index(u) for u in table.seats}, how="bots")
    return Plan(out)


def seated(higher: int, lower: int, numbers: Mapping[int, int], h: pairing.History) -> list[int]:
    """A two-player table's seats, the first seat first, by the colour rules (:mod:`colours`): ``higher`` is
    the higher-ranked of the two, ``numbers`` the entrants' pairing numbers (their initial ranking)."""
    return list(colours.allocate(higher, lower, h.colours, numbers))


def forfeit(seats: Sequence[int], gone: Sequence[int]) -> TableResult:
    """The result of a table some of whose players are gone: those still in share the first place,
    the gone ones the last."""
    staying = [u for u in seats if u not in gone]
    last = len(staying) + 1
    return TableResult(places={u: (1 if u in staying else last) for u in seats}, how="forfeit")


class Scheduler:
    """Runs leagues' rounds (see the module's docstring)."""

    def __init__(self, store: LeagueStore, effects: Effects, *, clock: Callable[[], float] = time.time,
                 player_range: Callable[[str], tuple[int, int]] = lambda _game: (2, 2)) -> None:
        self.store = store
        self.effects = effects
        self.clock = clock
        self.player_range = player_range

    async def tick(self, league_id: int) -> None:
        """Do every step that is due for the league now (nothing when it is not running)."""
        for _ in range(64):  # a bounded number of rounds of steps: a fast league never loops forever
            league = await self.store.league(league_id)
            if league is None or league.status is not LeagueStatus.RUNNING:
                return
            if not await self._step(league):
                return

    async def _step(self, league: LeagueRow) -> bool:
        """One pass over the current round; whether anything moved."""
        tables = await self.store.tables(league.id)
        current = [t for t in tables if t.round == league.round]
        if league.round and any(t.status is not TableStatus.DONE for t in current):
            moved = False
            failed: list[Exception] = []
            for table in current:  # one table's failure (Discord refusing its thread) holds no other table
                try:
                    moved |= await self._advance(league, table)
                except Exception as exc:
                    failed.append(exc)
            if failed:
                raise failed[0]  # the caller logs it; the next tick tries again from the stored status
            return moved
        players = await self.store.players(league.id)
        low, high = self.player_range(league.game)
        members: dict[int, list[int]] | None = None
        if league.config.teams:
            members = {team: [m.user_id for m in rows]
                       for team, rows in (await self.store.members(league.id)).items()}
            low, high = 2, max(2, league.config.players_per_game)
        plan = plan_round(league, players, tables, low, high, members)
        if plan.tables is None:
            if await self.store.set_status(league.id, LeagueStatus.FINISHED, was=[LeagueStatus.RUNNING],
                                           now=self.clock()):
                log.info("league %s: finished after round %s", league.id, league.round)
                await self.effects.changed(league, "finished")
            return False
        due = self.clock() + league.config.round_hours * 3600 if league.config.round_hours else None
        try:
            await self.store.start_round(league.id, league.round + 1, plan.tables, due, now=self.clock())
        except RoundTaken:
            log.info("league %s: round %s was paired already", league.id, league.round + 1)
            return True
        await self.effects.changed(league, "round")
        return True

    async def _advance(self, league: LeagueRow, table: Table) -> bool:
        key = table.key(league.id)
        was = table.status
        if was is TableStatus.PAIRED:
            table.status = TableStatus.OPENING
            return await self.store.move_table(league.id, table, was, now=self.clock())
        if was is TableStatus.OPENING:
            if table.message_id is None:
                table.message_id = await self.effects.post_table(league, table, key)
                return await self.store.move_table(league.id, table, was, now=self.clock())
            table.thread_id = await self.effects.open_thread(league, table, key)
            table.status = TableStatus.OPENED
            return await self.store.move_table(league.id, table, was, now=self.clock())
        if was is TableStatus.OPENED:
            table.game_id = await self.effects.start_game(league, table, key)
            table.status = TableStatus.PLAYING
            return await self.store.move_table(league.id, table, was, now=self.clock())
        if was is TableStatus.PLAYING:
            result = await self.effects.result(league, table)
            if result is None and league.round_due is not None and self.clock() >= league.round_due:
                result = await self.effects.adjudicate(league, table)
            if result is None:
                return False
            table.result = result
            table.status = TableStatus.DONE
            if await self.store.move_table(league.id, table, was, now=self.clock()):
                await self.effects.changed(league, "table")
                return True
        return False

    async def record(self, league: LeagueRow, table: Table, result: TableResult) -> bool:
        """A moderator's (or a leaving player's) result for a table not yet done."""
        was = table.status
        if was is TableStatus.DONE:
            return False
        table.result = result
        table.status = TableStatus.DONE
        if await self.store.move_table(league.id, table, was, now=self.clock()):
            await self.effects.changed(league, "table")
            return True
        return False
