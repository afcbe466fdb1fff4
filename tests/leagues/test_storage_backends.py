"""The league tables on both backends (SQLite and PostgreSQL, a throwaway server from tests/pg_server.py):
the same conditional writes hold, so a round is written once and a table moves once on either."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, Table, TableResult, TableStatus
from bot.core.leagues.storage import LeagueStore, RoundTaken


async def test_league_lifecycle_on_both_backends(leagues: LeagueStore) -> None:
    league = await leagues.create(guild_id=2**62, channel_id=2**61, game="pobeda", fmt=Format.SWISS, host_id=1,
                                  lang="ru", config=LeagueConfig(rounds=3, players_per_game=2, pace="slow"))
    assert league.status is LeagueStatus.SIGNUP and league.config.pace == "slow" and league.guild_id == 2**62
    for u in (1, 2, 3):
        assert await leagues.join(league.id, u, f"p{u}", 0.0, now=float(u))
    assert not await leagues.join(league.id, 1, "p1", 0.0)  # once
    assert await leagues.remove(league.id, 3)
    await leagues.set_ratings(league.id, {1: 5.5, 2: 7.25})
    assert [(p.user_id, p.rating) for p in await leagues.players(league.id)] == [(1, 5.5), (2, 7.25)]
    assert await leagues.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.SIGNUP])
    assert not await leagues.join(league.id, 9, "late", 0.0)  # the sign-up is closed
    tables = [Table(round=1, number=1, seats=[2, 1])]
    await leagues.start_round(league.id, 1, tables, due=123.0)
    with pytest.raises(RoundTaken):
        await leagues.start_round(league.id, 1, tables, due=123.0)
    [stored] = await leagues.tables(league.id, 1)
    assert stored.seats == [2, 1] and stored.status is TableStatus.PAIRED
    stored.status = TableStatus.OPENING
    # two movers read "paired" at once: one wins
    first, second = await asyncio.gather(leagues.move_table(league.id, stored, TableStatus.PAIRED),
                                         leagues.move_table(league.id, stored, TableStatus.PAIRED))
    assert sorted([first, second]) == [False, True]
    stored.message_id, stored.thread_id, stored.game_id = 2**60, 2**60, 5
    stored.status = TableStatus.PLAYING
    assert await leagues.move_table(league.id, stored, TableStatus.OPENING)
    assert (await leagues.table_of_game(5)) is not None
    stored.result, stored.status = TableResult(places={2: 1, 1: 2}), TableStatus.DONE
    assert await leagues.move_table(league.id, stored, TableStatus.PLAYING)
    assert await leagues.replace_player(league.id, 1, 10, "new")
    [done] = await leagues.tables(league.id, 1)
    assert done.seats == [2, 10] and done.result is not None and done.result.places == {2: 1, 10: 2}
    fresh = await leagues.league(league.id)
    assert fresh is not None and fresh.round == 1 and fresh.round_due == 123.0
    assert [lg.id for lg in await leagues.open_leagues()] == [league.id]
