"""Takebacks on PostgreSQL (issue 27): the takeback point is written by the one-statement move (its CTEs
read the state and the deadlines from the statement's snapshot, before the update) and the takeback is one
transaction, as on SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.replay import verify
from bot.core.sessions import SessionManager
from bot.core.store import Store
from tests.pg_server import PgServer, new_pg_url, pg_server  # noqa: F401 (the fixture)
from tests.takeback.common import Env, free_move, play_until, random_move, start, stored, user_of


@pytest.fixture
async def env(pg_server: PgServer | None) -> AsyncIterator[Env]:  # noqa: F811
    store = await Store.open(await new_pg_url(pg_server, "tb"))
    clock = {"now": 2_000_000.0}
    yield Env(store, SessionManager(store, clock=lambda: clock["now"]), clock)
    await store.close()


async def test_undo_and_agreed_takeback_on_postgresql(env: Env) -> None:
    session = await start(env, "godstorm", mode="agree")
    found = await play_until(env, session, free_move)
    assert found is not None
    seat, action = found
    before = await stored(env, session)
    env.tick(300)
    await env.sessions.act(session.id, user_of(session, seat), seat, action)
    env.tick(60)
    assert (await env.sessions.takeback(session.id, user_of(session, seat), seat)).done
    text, deadlines, _ = await stored(env, session)
    assert (text, deadlines) == before[:2]
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    before = await stored(env, session)
    await env.sessions.act(session.id, user_of(session, seat), seat, action)
    asked = await env.sessions.takeback(session.id, user_of(session, seat), seat)
    assert asked.request is not None
    assert (await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], True)).done
    assert (await stored(env, session))[0] == before[0]
    assert await verify(env.store, session.id)


async def test_an_undo_keeps_the_time_the_bot_was_away_on_postgresql(env: Env) -> None:
    """The downtime's shift moves the takeback points' clocks in the same transaction as the deadlines
    (PostgreSQL reads and writes them through the transaction's connection)."""
    session = await start(env, "godstorm", mode="own")
    found = await play_until(env, session, free_move)
    assert found is not None
    seat, action = found
    before = await stored(env, session)
    await env.sessions.act(session.id, user_of(session, seat), seat, action)
    assert await env.store.shift_deadlines(700.0) > 0
    assert (await env.sessions.takeback(session.id, user_of(session, seat), seat)).done
    text, deadlines, _ = await stored(env, session)
    assert text == before[0]
    assert deadlines == [(s, due + 700.0, None if remind is None else remind + 700.0) for s, due, remind in before[1]]
