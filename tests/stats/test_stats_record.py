"""Recording ended games (bot.core.stats): per game and per user rows, totals, ratings; what is not rated."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.stats import Stats, final_game, game_record
from bot.core.store import Store
from bot.games.base import IllegalAction
from bot.tools.bench import random_action

GUILD = 5
ANNA, BORIS, CLARA, DIMA = UserInfo(1, "Anna"), UserInfo(2, "Boris", "ru"), UserInfo(3, "Clara"), UserInfo(4, "Dima")


@pytest.fixture
async def env(tmp_path: Path):
    store = await Store.open(tmp_path / "s.sqlite3")
    stats = Stats(store)
    await stats.setup()
    sessions = SessionManager(store)
    sessions.on_end = lambda session: stats.schedule(session.id)
    yield store, sessions, stats
    await stats.idle()
    await store.close()


async def start(sessions: SessionManager, users: list[UserInfo], channel: int, options: dict | None = None,
                seed: int = 3) -> int:
    session = await sessions.create(guild_id=GUILD, channel_id=channel, host=users[0], game_key="pobeda",
                                    options=options or {})
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=seed)
    return session.id


async def play_out(sessions: SessionManager, game_id: int, seed: int = 1, stop_after: int | None = None) -> dict:
    rng = random.Random(seed)
    moves = 0
    while stop_after is None or moves < stop_after:
        session = await sessions.get(game_id)
        if session.row.status != "running":
            return session.outcome() or {}
        choice = random_action(session.game, rng)
        assert choice is not None
        seat, action = choice
        try:
            await sessions.act(game_id, session.row.seat_users[seat][0], seat, action)
        except (SessionError, IllegalAction):
            continue
        moves += 1
    return {}


async def test_a_played_out_game_is_recorded_per_user_and_rated(env) -> None:
    store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS], 10)
    outcome = await play_out(sessions, gid)
    await stats.idle()
    rows = {r["user_id"]: r for r in await stats.player_rows(gid)}
    assert set(rows) == {1, 2}
    winners = set(outcome["winners"])
    model = PlackettLuce()
    if outcome["draw"]:
        places = [1, 1]
    else:
        places = [1, 2] if 0 in winners else [2, 1]
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=places)
    expected = {1: a, 2: b}
    logged = await store.actions(gid)
    for user, seat in ((1, 0), (2, 1)):
        row = rows[user]
        assert row["won"] == int(seat in winners and not outcome["draw"])
        assert row["place"] == places[seat]
        assert row["moves"] == sum(1 for x in logged if x.user_id == user)
        assert row["mu_after"] == pytest.approx(expected[user].mu)
        assert row["sigma_after"] == pytest.approx(expected[user].sigma)
    [mine] = await stats.user_stats(GUILD, 1)
    assert (mine.played, mine.won, mine.rated, mine.abandoned) == (1, rows[1]["won"], 1, 0)
    assert mine.ordinal == pytest.approx(expected[1].mu - 3 * expected[1].sigma)
    board = await stats.leaderboard(GUILD, "pobeda")
    assert [r.user_id for r in board] == sorted([1, 2], key=lambda u: -(expected[u].mu - 3 * expected[u].sigma))
    [total] = await stats.totals(GUILD)
    assert (total.game, total.result, total.games, total.moves) == ("pobeda", "finished", 1, len(logged))
    # the record is written once
    assert await stats.record(gid) is None
    assert (await stats.user_stats(GUILD, 1))[0].played == 1


async def test_teams_share_a_place_and_a_rating_change(env) -> None:
    _store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS, CLARA, DIMA], 11, {"teams": 2})
    await play_out(sessions, gid)
    await stats.idle()
    rows = await stats.player_rows(gid)
    by_side: dict[int, list[dict]] = {}
    for row in rows:
        by_side.setdefault(row["side"], []).append(row)
    assert sorted(len(v) for v in by_side.values()) == [2, 2]
    for members in by_side.values():
        assert len({(m["place"], m["mu_after"], m["sigma_after"]) for m in members}) == 1


async def test_aborted_game_is_counted_but_moves_no_rating(env) -> None:
    _store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS], 12)
    await play_out(sessions, gid, stop_after=4)
    # past the first round a player may no longer abort a rated game (issue 23): a moderator who
    # does not play ends it
    await sessions.abort(gid, 999)
    await stats.idle()
    rows = await stats.player_rows(gid)
    assert rows and all(r["mu_after"] is None and r["place"] is None for r in rows)
    [mine] = await stats.user_stats(GUILD, ANNA.id)
    assert (mine.played, mine.aborted, mine.rated, mine.ordinal) == (0, 1, 0, None)
    assert await stats.leaderboard(GUILD, "pobeda") == []
    assert [(t.result, t.games) for t in await stats.totals(GUILD)] == [("aborted", 1)]


async def test_a_concession_is_abandoned_by_the_one_who_left_and_still_rated(env) -> None:
    _store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS], 13)
    await play_out(sessions, gid, stop_after=3)
    await sessions.concede(gid, BORIS.id)
    await stats.idle()
    rows = {r["user_id"]: r for r in await stats.player_rows(gid)}
    assert (rows[BORIS.id]["abandoned"], rows[ANNA.id]["abandoned"]) == (1, 0)
    assert (rows[ANNA.id]["won"], rows[BORIS.id]["won"]) == (1, 0)
    assert rows[ANNA.id]["mu_after"] > 25 > rows[BORIS.id]["mu_after"]
    assert [(t.result, t.games) for t in await stats.totals(GUILD)] == [("abandoned", 1)]


async def test_games_with_a_bot_seat_are_not_rated(env) -> None:
    store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS], 14)
    await play_out(sessions, gid)
    row = await store.load_game(gid)
    assert row is not None and row.status == "finished"
    actions = [(a.seat, a.user_id, a.events, a.created_at) for a in await store.actions(gid)]
    game = final_game(row)
    record = game_record(row, game, actions)
    assert record is not None and record.rated  # the same game with two humans is rated
    row.settings.extra["bots"] = [1]  # the bots feature lists the seats it plays
    record = game_record(row, game, actions)
    assert record is not None and not record.rated and record.result == "finished"
    row.settings.extra.pop("bots")
    row.seat_users = [[ANNA.id], [-7]]  # a negative user id is a bot too
    record = game_record(row, game, actions)
    assert record is not None and not record.rated


async def test_catch_up_records_games_that_ended_unrecorded(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    sessions = SessionManager(store)  # no stats hook: the bot died before recording
    gid = await start(sessions, [ANNA, BORIS], 15)
    await play_out(sessions, gid)
    stats = Stats(store)
    await stats.setup()
    assert await stats.catch_up() == 1
    assert await stats.catch_up() == 0
    assert len(await stats.player_rows(gid)) == 2
    await store.close()


async def test_stats_tables_survive_a_reopen(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "r.sqlite3")
    stats = Stats(store)
    await stats.setup()
    await stats.setup()  # idempotent
    assert await store.get_meta("stats_schema") == "1"
    await store.close()


async def test_an_aborted_broken_game_is_recorded_without_its_state(env) -> None:
    store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS], 16)
    await play_out(sessions, gid, stop_after=2)
    await store.write("UPDATE games SET state = '{not json' WHERE id = ?", (gid,))
    sessions.sessions.pop(gid, None)  # as after a restart: the state is read again (and does not load)
    sessions.channels.pop(16, None)
    await store.write("UPDATE games SET status = 'aborted' WHERE id = ?", (gid,))
    record = await stats.record(gid)
    assert record is not None and record.result == "aborted" and not record.rated
    assert {p.user_id for p in record.players} == {ANNA.id, BORIS.id}


async def test_a_player_who_conceded_while_the_others_played_on_comes_last(env) -> None:
    _store, sessions, stats = env
    gid = await start(sessions, [ANNA, BORIS, CLARA], 17)
    await play_out(sessions, gid, stop_after=3)
    await sessions.concede(gid, CLARA.id)
    outcome = await play_out(sessions, gid, seed=4)
    await stats.idle()
    rows = {r["user_id"]: r for r in await stats.player_rows(gid)}
    [total] = await stats.totals(GUILD)
    assert total.result == "finished"  # the game itself was played out by the rules
    assert rows[CLARA.id]["abandoned"] == 1 and rows[ANNA.id]["abandoned"] == rows[BORIS.id]["abandoned"] == 0
    assert rows[CLARA.id]["side"] not in outcome["winners"]  # her seat, played automatically, did not win
    assert rows[CLARA.id]["place"] == 3  # so she is last, whatever her seat's score
    assert rows[CLARA.id]["mu_after"] < min(rows[ANNA.id]["mu_after"], rows[BORIS.id]["mu_after"])
