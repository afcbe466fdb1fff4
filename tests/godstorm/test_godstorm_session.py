"""Through the session layer: a 3-player Godstorm game with secret bids, played to a result and replayed."""

from __future__ import annotations

import random
from pathlib import Path

from bot.core.replay import verify
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games.godstorm.playout import choose

USERS = [UserInfo(11, "ann"), UserInfo(12, "bor", "ru"), UserInfo(13, "cat")]


async def test_three_player_game_to_a_result(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.sqlite3")
    try:
        sessions = SessionManager(store)
        session = await sessions.create(guild_id=1, channel_id=77, host=USERS[0], game_key="godstorm", options={})
        for user in USERS[1:]:
            await sessions.join(session.id, user)
        session = await sessions.start(session.id, USERS[0].id, seed=99)
        rnd = random.Random(5)
        bids_seen = 0
        for _ in range(5000):
            game = session.game
            if game is None or game.outcome() is not None:
                break
            actors = game.actors()
            if game.is_simultaneous():
                assert len(actors) >= 1
                bids_seen += 1
            seat = actors[-1]
            action = choose(game, seat, game.legal_actions(seat), rnd)
            result = await sessions.act(session.id, session.row.seat_users[seat][0], seat, action)
            for event in result.events:
                if event.get("type") == "bid_secret":
                    assert event["to"] == [seat]
                elif "to" not in event:
                    assert game.event_text(event, "ru") is None or "godstorm." not in game.event_text(event, "ru")
            session = result.session
        assert session.outcome() is not None and session.outcome()["winners"]
        assert bids_seen >= 15  # five epochs, three secret bids each
        assert await verify(store, session.id)
    finally:
        await store.close()
