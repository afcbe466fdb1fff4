"""Round robin and single elimination at tables of more than two (issue 28; docs/leagues.md "Pairing rules
implemented"): every pair meets at least once, in at least the rounds the definition allows; an elimination's
tables are seeded in a snake and each table's winner goes on."""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import pytest

from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, Table
from bot.core.leagues.pairing import elimination_rounds, snake_tables, table_rounds
from bot.core.leagues.scheduler import Scheduler, total_rounds
from bot.core.leagues.standings import standings
from bot.core.leagues.storage import LeagueRow, LeagueStore
from bot.core.store import Store

WORKER = Path(__file__).with_name("league_worker.py")


@pytest.mark.parametrize("per_table", [3, 4, 5])
def test_every_pair_meets_at_least_once(per_table: int) -> None:
    for n in range(per_table, 25):
        players = [100 + 7 * i for i in range(n)]
        rounds = table_rounds(players, per_table)
        met: set[frozenset[int]] = set()
        for tables in rounds:
            seated = [u for table in tables for u in table]
            assert sorted(seated) == sorted(players), (n, tables)  # everyone plays once a round, no bye
            sizes = [len(table) for table in tables]
            assert 2 <= min(sizes) and max(sizes) <= per_table and max(sizes) - min(sizes) <= 1
            met.update(frozenset(p) for table in tables for p in itertools.combinations(table, 2))
        assert met == {frozenset(p) for p in itertools.combinations(players, 2)}, n
        # a player meets at most per_table - 1 new opponents a round
        assert len(rounds) >= math.ceil((n - 1) / (per_table - 1))
        assert total_rounds(Format.ROUND_ROBIN, n, 0, per_table) == len(rounds)


def test_the_schedule_is_complete_in_the_fewest_rounds_where_tables_fill_evenly() -> None:
    # sixteen players at tables of four: five rounds, each player meeting three new ones a round (15 / 3)
    assert len(table_rounds(list(range(16)), 4)) == 5
    # a single table plays once
    assert len(table_rounds(list(range(5)), 5)) == 1


def test_elimination_tables_are_seeded_in_a_snake() -> None:
    seeds = list(range(1, 10))  # nine players, tables of three
    assert snake_tables(seeds, 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    # uneven: ten players at tables of at most four sit 4, 3, 3 (larger tables first); the snake goes on
    # past the full tables
    assert snake_tables(list(range(1, 11)), 4) == [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]
    # the first T seeds sit at different tables
    for n, k in ((9, 3), (12, 4), (20, 5), (11, 3)):
        tables = snake_tables(list(range(1, n + 1)), k)
        assert sorted(t[0] for t in tables) == list(range(1, len(tables) + 1))
    # rounds: tables of the field, then of their winners, until one is left
    assert elimination_rounds(9, 3) == 2 and elimination_rounds(27, 3) == 3 and elimination_rounds(3, 3) == 1
    assert total_rounds(Format.ELIMINATION, 16, 0, 4) == 2


async def _league(store: Store, fmt: Format, n: int, per_table: int) -> int:
    leagues = LeagueStore(store)
    league = await leagues.create(guild_id=1, channel_id=10, game="godstorm", fmt=fmt, host_id=1, lang="en",
                                  config=LeagueConfig(players_per_game=per_table))
    for u in range(1, n + 1):
        await leagues.join(league.id, u, f"p{u}", rating=100.0 - u, now=float(u))
    await leagues.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.SIGNUP])
    return league.id


async def _run(tmp_path: Path, fmt: Format, n: int, per_table: int) -> tuple[LeagueRow, list[Table]]:
    """A league of ``n`` at tables of ``per_table`` run by the scheduler to its end (the worker's fake Discord,
    where the lowest id, the better seed, wins every table): the league and its tables as stored."""
    sys.path.insert(0, str(WORKER.parent))
    from league_worker import FileDiscord

    store = await Store.open(tmp_path / "l.sqlite3")
    try:
        lid = await _league(store, fmt, n, per_table)
        leagues = LeagueStore(store)
        await Scheduler(leagues, FileDiscord(tmp_path / "d.sqlite3"), player_range=lambda _g: (2, 5)).tick(lid)
        league = await leagues.league(lid)
        assert league is not None and league.status is LeagueStatus.FINISHED
        return league, await leagues.tables(lid)
    finally:
        await store.close()


async def test_an_elimination_of_nine_at_tables_of_three(tmp_path: Path) -> None:
    league, tables = await _run(tmp_path, Format.ELIMINATION, 9, 3)
    assert league.round == 2
    assert [t.seats for t in tables if t.round == 1] == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert [t.seats for t in tables if t.round == 2] == [[1, 2, 3]]  # the three winners, by seed
    rows = standings(Format.ELIMINATION, list(range(1, 10)), tables, {u: 100.0 - u for u in range(1, 10)})
    assert rows[0].user_id == 1 and [r.user_id for r in rows[1:3]] == [2, 3]


async def test_a_round_robin_of_seven_at_tables_of_three(tmp_path: Path) -> None:
    league, tables = await _run(tmp_path, Format.ROUND_ROBIN, 7, 3)
    assert league.round == total_rounds(Format.ROUND_ROBIN, 7, 0, 3)
    met = {frozenset(p) for t in tables for p in itertools.combinations(t.seats, 2)}
    assert met == {frozenset(p) for p in itertools.combinations(range(1, 8), 2)}
