"""Through the platform's session layer: a 2v2 game with teams sharing seats, deadlines, the channel
log scanned for agent names, and the stored log replayed."""

from __future__ import annotations

import random
from pathlib import Path

from bot.core.i18n import t
from bot.core.replay import verify
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games.coldwar import ColdWar

AGENTS = [t(f"coldwar.agent.{i}", lang) for i in range(1, 7) for lang in ("ru", "en")]


async def test_team_game_through_sessions(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "cw.sqlite3")
    clock = {"now": 1000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"], on_change=lambda _gid: None)
    try:
        users = [UserInfo(1, "alice"), UserInfo(2, "bob", "ru"), UserInfo(3, "carol"), UserInfo(4, "dave")]
        session = await sessions.create(guild_id=1, channel_id=77, host=users[0], game_key="coldwar",
                                        options={}, deadline_s=60)
        await sessions.join(session.id, users[0], team=0)
        await sessions.join(session.id, users[1], team=1)
        await sessions.join(session.id, users[2], team=0)
        await sessions.join(session.id, users[3])
        await sessions.start(session.id, users[0].id, seed=99)
        assert sorted(session.row.seat_users[0]) == [1, 3] and sorted(session.row.seat_users[1]) == [2, 4]
        rng = random.Random(4)
        secret = False
        dms = 0
        steps = 0
        while session.row.status == "running":
            game = session.game
            assert isinstance(game, ColdWar)
            seat = rng.choice(game.actors())
            if rng.random() < 0.1:
                clock["now"] += 61
                events = await sessions.expire(session.id, seat) or []
            else:
                user = rng.choice(session.row.seat_users[seat])    # any member of the team may act
                action = rng.choice(game.legal_actions(seat))
                events = (await sessions.act(session.id, user, seat, action)).events
            for e in events:
                if e["type"].startswith("platform."):
                    continue
                if e["type"] == "planning":
                    secret = True
                elif e["type"] == "truce":
                    secret = False
                text = game.event_text(e, "en") or ""
                if "to" in e:
                    dms += 1
                elif secret:
                    assert not any(a in text for a in AGENTS), text
            view = session.public_view()
            if secret:
                assert all(side["x"] in (None, "hidden") for side in view["sides"])
            steps += 1
            assert steps < 5000
        assert session.row.status == "finished" and dms > 0
        assert await verify(store, session.id)
    finally:
        await store.close()
