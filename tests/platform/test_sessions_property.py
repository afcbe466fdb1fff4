"""Property test of the session layer: random moves, double clicks, timeouts and restarts.

Whatever happens, every accepted action is stored exactly once, the stored state is what the log
replays to, and a fresh process (new Store + SessionManager) continues from the same state.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.replay import verify
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from bot.games.base import IllegalAction
from tests.platform.toy import toy_manifest

OPS = st.lists(
    st.tuples(st.sampled_from(["act", "double", "timeout", "restart", "wrong_seat"]), st.integers(0, 5)),
    min_size=1, max_size=25,
)


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


async def scenario(db: Path, ops: list[tuple[str, int]]) -> None:
    clock = {"now": 0.0}
    store = await Store.open(db)
    sessions = SessionManager(store, clock=lambda: clock["now"])
    users = [UserInfo(10 + i, f"u{i}") for i in range(3)]
    session = await sessions.create(guild_id=1, channel_id=1, host=users[0], game_key="toy", options={},
                                    deadline_s=60)
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=99)
    accepted = 0
    for op, pick in ops:
        session = await sessions.get(session.id)
        if session.row.status != "running":
            break
        game = session.game
        assert game is not None
        seat = game.actors()[pick % len(game.actors())]
        user = session.row.seat_users[seat][0]
        legal = game.legal_actions(seat)
        action = legal[pick % len(legal)]
        stamp = session.row.seat_counts[seat]
        if op == "act":
            await sessions.act(session.id, user, seat, action, stamp)
            accepted += 1
        elif op == "double":
            results = await asyncio.gather(sessions.act(session.id, user, seat, action, stamp),
                                           sessions.act(session.id, user, seat, action, stamp),
                                           return_exceptions=True)
            assert sum(not isinstance(r, BaseException) for r in results) == 1, results
            # the second click is stale, or finds the game already won by the first
            assert all(isinstance(r, SessionError) and r.key in ("err.stale", "err.not_running")
                       for r in results if isinstance(r, BaseException)), results
            accepted += 1
        elif op == "timeout":
            clock["now"] += 61
            before = session.row.seq
            for due_seat in [s for _, s in await store.due_deadlines(clock["now"])]:
                await sessions.expire(session.id, due_seat)
            accepted += session.row.seq - before
        elif op == "wrong_seat":
            others = [s for s in range(3) if s != seat and s not in game.actors()]
            if others:
                with pytest.raises((SessionError, IllegalAction)):
                    await sessions.act(session.id, session.row.seat_users[others[0]][0], others[0], action)
        elif op == "restart":
            await store.close()
            store = await Store.open(db)
            sessions = SessionManager(store, clock=lambda: clock["now"])
            await sessions.restore()
        stored = await store.load_game(session.id)
        assert stored is not None and stored.seq == accepted == len(await store.actions(session.id))
    assert await verify(store, session.id)
    await store.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_random_operations_never_lose_or_duplicate_a_move(ops: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "p.sqlite3", ops))
