"""Issue 23, item 2: a change the database refused (the disk full) is not left applied in memory.

Every change outside a move (join, leave, lobby options, bots, absent rule, pause, resume, vote,
decline, takeover, reclaim, concede, abort) goes through ``SessionManager.changing``: with every
store write failing, the in-memory session still equals the database, and the next successful
move does not save the refused change."""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.core import bots
from bot.core.sessions import Session, SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app import lifecycle
from bot.games import registry
from tests.platform.toy import toy_manifest

ALICE, BOB, CAROL = UserInfo(1, "alice"), UserInfo(2, "bob"), UserInfo(3, "carol")
FULL = "database or disk is full"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[tuple[Store, SessionManager]]:
    store = await Store.open(tmp_path / "r.sqlite3")
    yield store, SessionManager(store, clock=lambda: 1000.0)
    await store.close()


def disk_full(monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    """Every write of the store fails as SQLite does when the disk is full (reads still work)."""

    async def write(*_args: Any, **_kwargs: Any) -> Any:
        raise sqlite3.OperationalError(FULL)

    @asynccontextmanager
    async def transaction() -> AsyncIterator[Any]:
        raise sqlite3.OperationalError(FULL)
        yield  # pragma: no cover

    monkeypatch.setattr(store, "write", write)
    monkeypatch.setattr(store, "transaction", transaction)


async def assert_memory_is_database(store: Store, session: Session) -> None:
    stored = await store.load_game_text(session.id)
    assert stored is not None
    row, text = stored
    mine = session.row
    assert (row.status, row.seq, row.host_id) == (mine.status, mine.seq, mine.host_id)
    assert [p.to_json() for p in row.lobby] == [p.to_json() for p in mine.lobby]
    assert row.settings.to_json() == mine.settings.to_json()
    assert row.options == mine.options
    assert row.seat_users == mine.seat_users
    assert text == session.state_text
    if session.game is not None:
        assert session.game.to_json_text() == text
        assert session.game.seat_names == session.seat_names()
    assert {d.seat: (d.due_at, d.remind_at) for d in await store.deadlines(session.id)} == \
        {seat: tuple(timer) for seat, timer in session.deadlines.items()}


async def lobby(sessions: SessionManager) -> Session:
    session = await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={},
                                    deadline_s=600)
    await sessions.join(session.id, BOB)
    return session


async def running(sessions: SessionManager, *players: UserInfo) -> Session:
    session = await sessions.create(guild_id=5, channel_id=200, host=players[0], game_key="toy", options={},
                                    deadline_s=600)
    for user in players[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, players[0].id, seed=7)
    return session


async def one_move(sessions: SessionManager, session: Session) -> None:
    game = session.game
    assert game is not None
    seat = next(s for s in game.actors() if not bots.controlled(session.row, s))
    user = next(u for u in session.row.seat_users[seat] if u > 0)
    await sessions.act(session.id, user, seat, game.legal_actions(seat)[0])


Change = Callable[[SessionManager, Session], Awaitable[Any]]

LOBBY_CHANGES: dict[str, Change] = {
    "join": lambda s, g: s.join(g.id, CAROL),
    "join_team": lambda s, g: s.join(g.id, UserInfo(2, "bob renamed")),
    "leave": lambda s, g: s.leave_lobby(g.id, BOB.id),
    "option_deadline": lambda s, g: s.set_option(g.id, ALICE.id, "deadline_s", 7200),
    "player_option": lambda s, g: s.set_player_option(g.id, BOB.id, "user_decks", ["x"]),
    "add_bot": lambda s, g: bots.add_bot(s, g.id, ALICE.id, "quick"),
    "absent": lambda s, g: bots.set_absent(s, g.id, ALICE.id, mode="drop", after=3),
    "cancel": lambda s, g: s.abort(g.id),
}


@pytest.mark.parametrize("name", list(LOBBY_CHANGES))
async def test_a_refused_lobby_change_is_not_kept(env: tuple[Store, SessionManager], name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    store, sessions = env
    session = await lobby(sessions)
    before = copy.deepcopy((session.row.settings.to_json(), [p.to_json() for p in session.row.lobby],
                            dict(session.row.options)))
    with monkeypatch.context() as patch:
        disk_full(patch, store)
        with pytest.raises(sqlite3.OperationalError):
            await LOBBY_CHANGES[name](sessions, session)
    assert sessions.sessions[session.id] is session and session.row.status == "lobby"
    await assert_memory_is_database(store, session)
    assert (session.row.settings.to_json(), [p.to_json() for p in session.row.lobby],
            dict(session.row.options)) == before
    # the next successful change does not carry the refused one into the database
    await sessions.join(session.id, UserInfo(4, "dave"))
    await assert_memory_is_database(store, session)
    stored = await store.load_game(session.id)
    assert stored is not None and [p.user for p in stored.lobby] == [1, 2, 4]


async def test_a_refused_remove_bot_is_not_kept(env: tuple[Store, SessionManager],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    store, sessions = env
    session = await lobby(sessions)
    await bots.add_bot(sessions, session.id, ALICE.id, "quick")
    with monkeypatch.context() as patch:
        disk_full(patch, store)
        with pytest.raises(sqlite3.OperationalError):
            await bots.remove_bot(sessions, session.id, ALICE.id)
    await assert_memory_is_database(store, session)
    assert any(bots.is_bot(p.user) for p in session.row.lobby)


async def pause(s: SessionManager, g: Session) -> Any:
    return await lifecycle.pause(s, g.id, ALICE.id, 2000.0)


async def resume(s: SessionManager, g: Session) -> Any:
    return await lifecycle.resume(s, g.id, 3000.0)


async def vote(s: SessionManager, g: Session) -> Any:
    return await lifecycle.vote(s, g.id, ALICE.id, "end", 2000.0)


async def vote_passing(s: SessionManager, g: Session) -> Any:
    return await lifecycle.vote(s, g.id, BOB.id, "draw", 2000.0)


async def decline(s: SessionManager, g: Session) -> Any:
    return await lifecycle.decline_vote(s, g.id, BOB.id, 2000.0)


async def take_over(s: SessionManager, g: Session) -> Any:
    return await bots.take_over(s, g, 1)


async def reclaim(s: SessionManager, g: Session) -> Any:
    return await bots.reclaim(s, g.id, BOB.id)


async def concede(s: SessionManager, g: Session) -> Any:
    return await s.concede(g.id, BOB.id)


async def abort(s: SessionManager, g: Session) -> Any:
    return await s.abort(g.id)


RUNNING_CHANGES: dict[str, tuple[Change, Callable[[SessionManager, Session], Awaitable[Any]] | None]] = {
    "pause": (pause, None),
    "resume": (resume, pause),
    "vote": (vote, None),
    "vote_passing": (vote_passing, lambda s, g: lifecycle.vote(s, g.id, ALICE.id, "draw", 2000.0)),
    "decline": (decline, vote),
    "takeover": (take_over, None),
    "reclaim": (reclaim, take_over),
    "concede": (concede, None),
    "abort": (abort, None),
}


@pytest.mark.parametrize("name", list(RUNNING_CHANGES))
async def test_a_refused_change_of_a_running_game_is_not_kept(env: tuple[Store, SessionManager], name: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store, sessions = env
    session = await running(sessions, ALICE, BOB)
    change, prepare = RUNNING_CHANGES[name]
    if prepare is not None:
        await prepare(sessions, session)
    before = copy.deepcopy((session.row.settings.to_json(), session.row.seat_users, dict(session.deadlines)))
    with monkeypatch.context() as patch:
        disk_full(patch, store)
        with pytest.raises(sqlite3.OperationalError):
            await change(sessions, session)
    assert sessions.sessions.get(session.id) is session and session.row.status == "running"
    await assert_memory_is_database(store, session)
    assert (session.row.settings.to_json(), session.row.seat_users, dict(session.deadlines)) == before
    # the next successful move does not persist the refused change (a pause the user was told had failed)
    await one_move(sessions, session)
    await assert_memory_is_database(store, session)
    stored = await store.load_game(session.id)
    assert stored is not None and stored.status == "running" and stored.seq == 1
    before_settings = before[0]
    for key in ("paused_at", "ending", "departures", "seat_log", "absent"):
        assert (key in stored.settings.extra) == (key in before_settings)
    assert stored.settings.conceded == before_settings.get("conceded")
