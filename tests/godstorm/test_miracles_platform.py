"""The response windows under the platform: the defender's Sky window gets its own deadline (the game's
``answer_window`` option, through ``Game.forced_timeout``) even in a game without deadlines, and when it
passes the platform plays ``no_answer`` and the declared attack rolls."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from tests.godstorm.miracle_kit import game, give, put, script

USERS = [UserInfo(1, "alice"), UserInfo(2, "bob"), UserInfo(3, "carol")]


@pytest.fixture
async def env(tmp_path: Path):
    store = await Store.open(tmp_path / "g.sqlite3")
    clock = {"now": 1000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"], on_change=lambda _id: None)
    yield store, sessions, clock
    await store.close()


async def test_sky_window_times_out_into_no_answer(env) -> None:
    store, sessions, clock = env
    session = await sessions.create(guild_id=5, channel_id=100, host=USERS[0], game_key="godstorm",
                                    options={"ruleset": "godstorm"}, deadline_s=0)
    for user in USERS[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, USERS[0].id, seed=77)
    g = game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    give(g, 1, "men_become_warriors")
    session.game = g
    session.state_text = g.to_json_text()
    session.deadlines = {}
    attacker = session.row.seat_users[0][0]
    await sessions.act(session.id, attacker, 0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.decision() == "answer" and g.actors() == [1]
    # no deadline option, yet the window has its own: 180 s (the answer_window default)
    assert [d[:2] for d in await store.deadlines(session.id)] == [(1, 1000.0 + 180)]
    clock["now"] = 1000.0 + 179
    assert await sessions.expire(session.id, 1) is None
    clock["now"] = 1000.0 + 180
    script(g, [6, 6, 6, 1, 1])
    events = await sessions.expire(session.id, 1)
    assert events is not None and events[0] == {"type": "platform.timeout", "seat": 1}
    types = [e["type"] for e in events]
    assert "no_answer" in types and types.count("roll") == 1
    assert g.decision() == "turn" and g.s.terr["Iberia"].armies == 1
    assert await store.deadlines(session.id) == []  # back to the attacker, in a game without deadlines
