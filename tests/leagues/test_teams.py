"""Leagues of teams (issue 28): the sign-up by team name on both backends, which games offer team tables,
a team's place from its members', and a team Swiss run by the scheduler with teams as entrants."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.core.leagues.model import TEAM_BASE, Format, LeagueConfig, LeagueStatus, TableStatus, is_bot, is_team
from bot.core.leagues.scheduler import Scheduler
from bot.core.leagues.standings import standings
from bot.core.leagues.storage import LeagueStore, TeamFull
from bot.core.leagues.teams import team_counts, team_options, team_places
from bot.core.store import Store
from bot.games.registry import game_class
from tests.leagues.old_schema import schema_database

WORKER = Path(__file__).with_name("league_worker.py")



async def test_sign_up_by_team_name_on_both_backends(leagues: LeagueStore) -> None:
    league = await leagues.create(guild_id=1, channel_id=2, game="pobeda", fmt=Format.SWISS, host_id=1, lang="en",
                                  config=LeagueConfig(team_size=2))
    assert (await leagues.league(league.id)).config.team_size == 2  # type: ignore[union-attr]
    made = await leagues.join_team(league.id, 11, "ann", "Red  Wolves", 2, now=1.0)
    assert made is not None and made[1] and made[0].name == "Red Wolves" and is_team(made[0].user_id)
    again = await leagues.join_team(league.id, 12, "ben", "red wolves", 2, now=2.0)  # the same team, any case
    assert again is not None and not again[1] and again[0].user_id == made[0].user_id
    with pytest.raises(TeamFull):
        await leagues.join_team(league.id, 13, "cat", "RED WOLVES", 2, now=3.0)
    blue = await leagues.join_team(league.id, 13, "cat", "Blue", 2, now=4.0)
    assert blue is not None and blue[1] and blue[0].user_id != made[0].user_id
    assert await leagues.join_team(league.id, 11, "ann", "Blue", 2) is None  # in the league already
    # the entrants are the teams; the members are listed by team
    assert [p.name for p in await leagues.players(league.id)] == ["Red Wolves", "Blue"]
    members = await leagues.members(league.id)
    assert [m.user_id for m in members[made[0].user_id]] == [11, 12] and [m.user_id for m in members[blue[0].user_id]] == [13]
    # leaving during the sign-up: a team without members is gone
    assert await leagues.remove(league.id, 13)
    assert [p.name for p in await leagues.players(league.id)] == ["Red Wolves"]
    assert await leagues.remove(league.id, 12)
    assert [p.name for p in await leagues.players(league.id)] == ["Red Wolves"]
    # a member replaced later keeps the team's place
    await leagues.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.SIGNUP])
    assert await leagues.set_player_status(league.id, 11, "left") and await leagues.set_player_status(
        league.id, made[0].user_id, "left")
    assert await leagues.replace_player(league.id, 11, 99, "zed")
    [team] = await leagues.players(league.id)
    assert team.active and [m.user_id for m in (await leagues.members(league.id))[team.user_id]] == [99]


async def test_a_league_stored_before_teams_reads_as_it_was(tmp_path: Path) -> None:
    """A schema-6 database (no ``team`` column) with a running league: after the migration its players,
    tables and standings read back unchanged."""
    path = tmp_path / "old.sqlite3"
    con = schema_database(path, 6)
    con.execute("INSERT INTO leagues (id, guild_id, channel_id, game, format, status, host_id, lang, config, round,"
                " created_at, updated_at) VALUES (1, 1, 2, 'byallmeans', 'swiss', 'running', 3, 'en',"
                " '{\"rounds\": 2, \"players_per_game\": 2, \"pace\": \"casual\", \"round_hours\": 0,"
                " \"start_at\": null, \"options\": {}}', 1, 0, 0)")
    for u, rating in ((5, 3.0), (6, 2.0), (-1, 0.0)):
        con.execute("INSERT INTO league_players (league_id, user_id, name, rating, status, joined_at)"
                    " VALUES (1, ?, ?, ?, 'active', ?)", (u, f"p{u}", rating, float(u)))
    con.execute("INSERT INTO league_tables (league_id, round, table_no, table_key, seats, status, result, updated_at)"
                " VALUES (1, 1, 1, 'league:1:r1:t1', '[5, 6]', 'done', '{\"places\": {\"5\": 1, \"6\": 2}}', 0)")
    con.commit()
    con.close()
    store = await Store.open(path)
    leagues = LeagueStore(store)
    league = await leagues.league(1)
    assert league is not None and not league.config.teams and league.config.to_json()["rounds"] == 2
    assert "team_size" not in league.config.to_json()  # written back as it was read
    players = await leagues.players(1)
    assert [(p.user_id, p.rating, p.team) for p in players] == [(-1, 0.0, None), (5, 3.0, None), (6, 2.0, None)]
    assert await leagues.members(1) == {}
    rows = standings(Format.SWISS, [p.user_id for p in players], await leagues.tables(1), {})
    assert [(r.user_id, r.points) for r in rows][:1] == [(5, 1)]
    await store.close()


def test_which_games_seat_teams_and_how() -> None:
    # Pobeda's rules ("Командная игра"): two or three teams, at most 12 players
    pobeda = game_class("pobeda")
    assert team_counts(pobeda, 2) == [2, 3] and team_counts(pobeda, 4) == [2, 3] and team_counts(pobeda, 6) == [2]
    options = team_options(pobeda, {}, 3, 6)
    assert options is not None and pobeda.team_count(options, 6) == 3
    # Cold War: two superpowers, a team of players on each seat
    assert team_counts(game_class("coldwar"), 3) == [2]
    # games without teams
    assert team_counts(game_class("godstorm"), 2) == [] and team_counts(game_class("byallmeans"), 2) == []


def test_a_team_places_as_its_best_member() -> None:
    # members of one side share its place; a team none of whose members was recorded is last
    assert team_places({1: 1, 2: 1, 3: 2, 4: 2}, {100: [1, 2], 200: [3, 4]}) == {100: 1, 200: 2}
    assert team_places({1: 2, 2: 1, 3: 1}, {100: [1], 200: [2], 300: [3]}) == {100: 3, 200: 1, 300: 1}
    assert team_places({1: 1}, {100: [1], 200: [7]}) == {100: 1, 200: 2}
    assert is_team(TEAM_BASE) and not is_bot(TEAM_BASE) and is_bot(-1) and not is_team(-1)


async def test_a_team_swiss_runs_with_teams_as_entrants(tmp_path: Path) -> None:
    sys.path.insert(0, str(WORKER.parent))
    from league_worker import FileDiscord

    store = await Store.open(tmp_path / "l.sqlite3")
    leagues = LeagueStore(store)
    league = await leagues.create(guild_id=1, channel_id=10, game="pobeda", fmt=Format.SWISS, host_id=1, lang="en",
                                  config=LeagueConfig(rounds=2, team_size=2))
    names = ["A", "B", "C", "D"]
    for i, user in enumerate((1, 2, 3, 4, 5, 6, -1, -2)):  # team D: two bots
        await leagues.join_team(league.id, user, f"u{user}", names[i // 2], 2, now=float(i))
    teams = await leagues.players(league.id)
    await leagues.set_ratings(league.id, {p.user_id: 10.0 - i for i, p in enumerate(teams)})
    await leagues.set_status(league.id, LeagueStatus.RUNNING, was=[LeagueStatus.SIGNUP])
    await Scheduler(leagues, FileDiscord(tmp_path / "d.sqlite3")).tick(league.id)
    fresh = await leagues.league(league.id)
    assert fresh is not None and fresh.status is LeagueStatus.FINISHED
    tables = await leagues.tables(league.id)
    ids = {p.user_id for p in teams}
    assert all(set(t.seats) <= ids and len(t.seats) == 2 for t in tables)  # teams meet teams
    assert len({frozenset(t.seats) for t in tables}) == 4  # Swiss: no rematch in two rounds of four
    rows = standings(Format.SWISS, sorted(ids), tables, {})
    assert sum(r.points for r in rows) == 4
    await store.close()


async def test_a_table_of_bot_teams_is_decided_without_a_game(tmp_path: Path) -> None:
    from bot.core.leagues.scheduler import plan_round

    store = await Store.open(tmp_path / "l.sqlite3")
    leagues = LeagueStore(store)
    league = await leagues.create(guild_id=1, channel_id=10, game="pobeda", fmt=Format.ROUND_ROBIN, host_id=1,
                                  lang="en", config=LeagueConfig(team_size=2))
    for i, user in enumerate((-1, -2, -3, -4, 1, 2, 3, 4)):  # teams W and X: bots only
        await leagues.join_team(league.id, user, f"u{user}", "WXYZ"[i // 2], 2, now=float(i))
    members = {team: [m.user_id for m in rows] for team, rows in (await leagues.members(league.id)).items()}
    players = await leagues.players(league.id)
    tables = []
    for r in range(3):  # every round of the round robin of four teams
        league.round = r
        plan = plan_round(league, players, [], members=members)
        assert plan.tables is not None
        tables += plan.tables
    bots = {p.user_id for p in players if p.name in ("W", "X")}
    [both] = [t for t in tables if set(t.seats) == bots]
    assert both.status is TableStatus.DONE and both.result is not None and both.result.how == "bots"
    assert all(t.status is TableStatus.PAIRED for t in tables if t is not both)  # a person plays at each other one
    await store.close()
