"""The scheduler over a real store: rounds run to the end; a SIGKILL at any step between pairing, the
announcement, the thread and the game resumes without a second round, thread or game."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, TableStatus
from bot.core.leagues.scheduler import Scheduler, plan_round
from bot.core.leagues.standings import standings
from bot.core.leagues.storage import LeagueStore, RoundTaken
from bot.core.store import Store
from tests.leagues.old_schema import schema_database

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("league_worker.py")


async def new_league(store: Store, fmt: Format, n: int, rounds: int = 0) -> int:
    leagues = LeagueStore(store)
    league = await leagues.create(guild_id=1, channel_id=10, game="byallmeans", fmt=fmt, host_id=1, lang="en",
                                  config=LeagueConfig(rounds=rounds))
    for u in range(1, n + 1):
        assert await leagues.join(league.id, u, f"p{u}", rating=100.0 - u, now=float(u))
    assert await leagues.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.SIGNUP])
    return league.id


async def test_round_robin_league_runs_to_the_end(tmp_path: Path) -> None:
    sys.path.insert(0, str(WORKER.parent))
    from league_worker import FileDiscord

    store = await Store.open(tmp_path / "l.sqlite3")
    lid = await new_league(store, Format.ROUND_ROBIN, 4)
    discord = FileDiscord(tmp_path / "discord.sqlite3")
    await Scheduler(LeagueStore(store), discord).tick(lid)
    leagues = LeagueStore(store)
    league = await leagues.league(lid)
    assert league is not None and league.status is LeagueStatus.FINISHED and league.round == 3
    tables = await leagues.tables(lid)
    assert len(tables) == 6 and all(t.status is TableStatus.DONE for t in tables)
    pairs = {frozenset(t.seats) for t in tables}
    assert len(pairs) == 6  # every pair of four once
    rows = standings(Format.ROUND_ROBIN, [1, 2, 3, 4], tables, {})
    assert rows[0].points == 3 and discord.changes.count("round") == 3 and discord.changes[-1] == "finished"
    await store.close()


async def test_a_round_is_written_once(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "l.sqlite3")
    lid = await new_league(store, Format.SWISS, 6, rounds=3)
    leagues = LeagueStore(store)
    league = await leagues.league(lid)
    assert league is not None
    plan = plan_round(league, await leagues.players(lid), [])
    assert plan.tables is not None
    await leagues.start_round(lid, 1, plan.tables, None)
    with pytest.raises(RoundTaken):  # a second process (or a replayed tick) with the same plan
        await leagues.start_round(lid, 1, plan.tables, None)
    assert len(await leagues.tables(lid)) == 3
    await store.close()


# the thread step is killed through the real fake Discord, which refuses a second thread on a message (160004):
# tests/e2e/test_league_e2e.py::test_sigkill_between_pairing_and_threads_resumes_without_doubles
@pytest.mark.parametrize("kill_at,kill_after", [("post", 1), ("post", 3), ("game", 1), ("game", 4)])
async def test_sigkill_between_pairing_and_thread_resumes_without_doubles(tmp_path: Path, kill_at: str,
                                                                           kill_after: int) -> None:
    db, discord = tmp_path / "l.sqlite3", tmp_path / "discord.sqlite3"
    store = await Store.open(db)
    lid = await new_league(store, Format.SWISS, 8, rounds=3)
    await store.close()

    async def worker(kill: str) -> int:
        proc = await asyncio.create_subprocess_exec(sys.executable, str(WORKER), str(db), str(discord), str(lid), kill,
                                                    str(kill_after), cwd=str(ROOT),
                                                    env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        return await proc.wait()

    assert await worker(kill_at) == -9  # killed after Discord acted and before the store heard of it
    assert await worker("") == 0  # the restart finishes the league
    store = await Store.open(db)
    leagues = LeagueStore(store)
    league = await leagues.league(lid)
    assert league is not None and league.status is LeagueStatus.FINISHED and league.round == 3
    tables = await leagues.tables(lid)
    assert len(tables) == 12 and len({t.key(lid) for t in tables}) == 12
    import sqlite3
    seen = sqlite3.connect(discord)
    assert seen.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 12
    assert seen.execute("SELECT COUNT(*) FROM threads").fetchone()[0] == 12
    assert seen.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 12
    assert {t.game_id for t in tables} == {r[0] for r in seen.execute("SELECT id FROM games")}
    for r in (1, 2, 3):  # Swiss: nobody meets anyone twice in 3 rounds of 8
        assert sorted(u for t in tables if t.round == r for u in t.seats) == list(range(1, 9))
    met = [frozenset(t.seats) for t in tables]
    assert len(met) == len(set(met))
    await store.close()


async def test_round_deadline_adjudicates_unfinished_games(tmp_path: Path) -> None:
    sys.path.insert(0, str(WORKER.parent))
    from league_worker import FileDiscord

    class Slow(FileDiscord):
        """Games that never end by themselves."""

        async def result(self, league, table):  # type: ignore[no-untyped-def]
            return None

    store = await Store.open(tmp_path / "l.sqlite3")
    leagues = LeagueStore(store)
    league = await leagues.create(guild_id=1, channel_id=10, game="byallmeans", fmt=Format.SWISS, host_id=1,
                                  lang="en", config=LeagueConfig(rounds=2, round_hours=1.0))
    for u in (1, 2, 3, 4):
        await leagues.join(league.id, u, f"p{u}", 0.0, now=float(u))
    await leagues.set_status(league.id, LeagueStatus.RUNNING)
    now = [1000.0]
    scheduler = Scheduler(leagues, Slow(tmp_path / "d.sqlite3"), clock=lambda: now[0])
    await scheduler.tick(league.id)
    tables = await leagues.tables(league.id)
    assert len(tables) == 2 and all(t.status is TableStatus.PLAYING for t in tables)
    now[0] += 3599  # within the round's hour: nothing moves
    await scheduler.tick(league.id)
    assert all(t.status is TableStatus.PLAYING for t in await leagues.tables(league.id))
    now[0] += 2  # past it: each unfinished game counts as shared places, and round 2 starts
    await scheduler.tick(league.id)
    first = await leagues.tables(league.id, 1)
    assert all(t.result is not None and t.result.how == "adjudicated" and set(t.result.places.values()) == {1}
               for t in first)
    fresh = await leagues.league(league.id)
    assert fresh is not None and fresh.round == 2 and fresh.round_due == now[0] + 3600
    await store.close()


async def test_a_schema_4_database_gains_the_league_tables_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    con = schema_database(path, 4)
    con.execute("INSERT INTO games (guild_id, channel_id, game, status, host_id, lang, options, lobby, settings,"
                " created_at, updated_at) VALUES (1, 2, 'pobeda', 'lobby', 3, 'en', '{}', '[]', '{}', 0, 0)")
    con.commit()
    con.close()
    store = await Store.open(path)
    assert (await store.load_game(1)) is not None
    leagues = LeagueStore(store)
    created = await leagues.create(guild_id=1, channel_id=2, game="pobeda", fmt=Format.SWISS, host_id=3, lang="en",
                                   config=LeagueConfig())
    assert (await leagues.in_channel(2))[0].id == created.id
    await store.close()
