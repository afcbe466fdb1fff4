"""Ending together and /mygames (issue 12: "A vote to end or to call a draw (all remaining human
players agree) ... the result records who left and how"; "/mygames ... lists the caller's
unfinished games across servers ... the games where it is the caller's turn first")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import votes
from bot.core.sessions import SessionError, SessionManager
from bot.core.store import GameRow, GameSettings, Store
from bot.discord_app import lifecycle
from tests.lifecycle.common import ALICE, BOB, CAROL, Clock, running_game


def test_voters_are_the_remaining_human_players() -> None:
    seats = [[1], [2, 3], [-7], [4]]  # a team seat; a seat a bot plays (negative user id)
    assert votes.voters(seats, conceded=[3]) == {1, 2, 3}


def test_a_vote_passes_only_when_everyone_agrees_and_lapses_with_the_turn_or_a_day() -> None:
    extra: dict[str, object] = {}
    eligible = {1, 2, 3}
    assert not votes.cast(extra, "draw", 1, eligible, seq=5, now=100.0)
    assert not votes.cast(extra, "draw", 1, eligible, seq=5, now=101.0)  # twice counts once
    with pytest.raises(votes.VoteRefused, match="other_open"):
        votes.cast(extra, "end", 2, eligible, seq=5, now=102.0)
    with pytest.raises(votes.VoteRefused, match="not_voter"):
        votes.cast(extra, "draw", 9, eligible, seq=5, now=102.0)
    assert not votes.cast(extra, "draw", 2, eligible, seq=5, now=103.0)
    assert votes.cast(extra, "draw", 3, eligible, seq=5, now=104.0)
    # a move after it opened: the old yeses are gone
    fresh: dict[str, object] = {}
    votes.cast(fresh, "end", 1, eligible, seq=5, now=100.0)
    assert votes.live_vote(fresh, seq=6, now=101.0) is None
    assert votes.live_vote(fresh, seq=5, now=100.0 + votes.VOTE_TTL) is None  # a day later
    assert votes.live_vote(fresh, seq=5, now=100.0 + votes.VOTE_TTL - 1) is not None
    closed = votes.decline(fresh, 2, eligible, seq=5, now=101.0)
    assert closed["kind"] == "end" and "vote" not in fresh
    with pytest.raises(votes.VoteRefused, match="none"):
        votes.decline(fresh, 2, eligible, seq=5, now=101.0)


async def test_a_draw_vote_ends_the_game_and_records_how_everyone_left(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "v.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    gid = await running_game(sessions, players=(ALICE, BOB, CAROL))
    first = await lifecycle.vote(sessions, gid, ALICE.id, "draw", 1000.0)
    assert not first.passed and first.yes == [ALICE.id] and first.needed == [1, 2, 3]
    with pytest.raises(SessionError):
        await lifecycle.vote(sessions, gid, 99, "draw", 1001.0)  # a spectator
    await lifecycle.vote(sessions, gid, BOB.id, "draw", 1002.0)
    result = await lifecycle.vote(sessions, gid, CAROL.id, "draw", 1003.0)
    assert result.passed
    row = await store.load_game(gid)
    assert row is not None and row.status == "finished"
    assert row.settings.outcome == {"winners": [], "draw": True, "voted": True}
    assert row.settings.extra["ending"] == "voted_draw"
    assert sorted(d["user"] for d in row.settings.extra["departures"]) == [1, 2, 3]
    assert {d["how"] for d in row.settings.extra["departures"]} == {"voted_draw"}
    assert gid not in sessions.sessions  # no longer an unfinished game
    await store.close()


async def test_end_vote_aborts_and_concede_and_abort_are_recorded(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "w.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    gid = await running_game(sessions, players=(ALICE, BOB, CAROL))
    await sessions.concede(gid, CAROL.id)  # Carol leaves; the two others go on
    await lifecycle.vote(sessions, gid, ALICE.id, "end", 1001.0)
    result = await lifecycle.vote(sessions, gid, BOB.id, "end", 1002.0)  # Carol no longer votes
    assert result.passed
    row = await store.load_game(gid)
    assert row is not None and row.status == "aborted" and row.settings.outcome is None
    assert [(d["user"], d["how"]) for d in row.settings.extra["departures"]] == [
        (3, "conceded"), (1, "voted_end"), (2, "voted_end")]
    assert row.settings.extra["ending"] == "voted_end"

    other = await running_game(sessions, channel=101)
    await sessions.abort(other, by=ALICE.id)
    row = await store.load_game(other)
    assert row is not None and row.status == "aborted"
    assert row.settings.extra["ending"] == "aborted"
    assert [(d["user"], d["how"]) for d in row.settings.extra["departures"]] == [(1, "aborted")]
    await store.close()


def game(gid: int, my_turn: bool, due: float | None) -> lifecycle.MyGame:
    row = GameRow(id=gid, guild_id=1, channel_id=gid, game="toy", status="running", host_id=1, lang="en",
                  options={}, lobby=[], settings=GameSettings())
    return lifecycle.MyGame(row, my_turn, [], due, [], False)


def test_order_puts_the_callers_turn_first_then_the_soonest_deadline() -> None:
    games = [game(1, False, None), game(2, False, 500.0), game(3, True, 900.0), game(4, True, 100.0),
             game(5, False, 50.0)]
    assert [g.row.id for g in lifecycle.order(games)] == [4, 3, 5, 2, 1]


async def test_my_games_across_servers(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "m.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    a = await running_game(sessions, channel=100, guild=5)
    b = await running_game(sessions, channel=200, guild=6, seed=3)
    not_mine = await running_game(sessions, channel=300, guild=6, players=(BOB, CAROL))
    lobby = await sessions.create(guild_id=7, channel_id=400, host=BOB, game_key="toy", options={}, deadline_s=0)
    await sessions.join(lobby.id, ALICE)
    turns = {gid: ALICE.id in (sessions.sessions[gid].row.seat_users or [])[sessions.sessions[gid].game.actors()[0]]
             for gid in (a, b)}  # type: ignore[union-attr]
    # make exactly one of the two Alice's turn
    if turns[a] == turns[b]:
        session = sessions.sessions[b]
        (seat,) = session.game.actors()  # type: ignore[union-attr]
        await sessions.act(b, (session.row.seat_users or [])[seat][0], seat, {"type": "add", "n": 1})
        turns[b] = not turns[b]
    rows = await store.games_of_user(ALICE.id)
    assert sorted(r.id for r in rows) == sorted([a, b, lobby.id]) and not_mine not in [r.id for r in rows]
    listed = await lifecycle.my_games(sessions, ALICE.id)
    mine_first = a if turns[a] else b
    assert [g.row.id for g in listed][0] == mine_first and listed[0].my_turn
    assert [g.row.id for g in listed][-1] == lobby.id  # a lobby has no turn or deadline
    assert listed[0].due is not None
    await store.close()


async def test_followers_and_dm_choices_are_stored(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "f.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    gid = await running_game(sessions)
    assert await store.set_following(gid, 9, True)
    assert not await store.set_following(gid, 9, True)
    assert await store.followers(gid) == [9]
    assert await store.set_following(gid, 9, False) and await store.followers(gid) == []
    await store.set_remind_dm(ALICE.id, True)
    await store.set_remind_dm(BOB.id, False)
    assert await store.remind_dm([ALICE.id, BOB.id, CAROL.id]) == {ALICE.id}
    await store.close()


async def test_games_of_user_matches_whole_ids_only(tmp_path: Path) -> None:
    from bot.core.sessions import UserInfo

    store = await Store.open(tmp_path / "ids.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    u7, u17, u77 = UserInfo(7, "seven"), UserInfo(17, "seventeen"), UserInfo(77, "seventy-seven")
    running = await running_game(sessions, channel=1, players=(u17, u77))
    lobby = await sessions.create(guild_id=5, channel_id=2, host=u7, game_key="toy", options={}, deadline_s=0)
    assert [r.id for r in await store.games_of_user(7)] == [lobby.id]
    assert [r.id for r in await store.games_of_user(17)] == [running]
    assert await store.games_of_user(1) == []
    await store.close()
