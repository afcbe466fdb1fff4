"""Issue 23, item 4: a row of ``games`` with text in an integer (or number) column, written behind the
bot's back, no longer stops start-up: that game is marked broken like any other corrupt row (said
once: one log line and one channel notice), and every other game goes on."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.core.sessions import Session, SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from tests.platform.toy import toy_manifest

A, B = UserInfo(1, "a"), UserInfo(2, "b")


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


async def start_toy(sessions: SessionManager, channel: int) -> int:
    session = await sessions.create(guild_id=5, channel_id=channel, host=A, game_key="toy", options={},
                                    deadline_s=600)
    await sessions.join(session.id, B)
    await sessions.start(session.id, A.id, seed=3)
    return session.id


def restarted(store: Store, told: list[int]) -> SessionManager:
    sessions = SessionManager(store, clock=lambda: 1000.0)

    def on_broken(session: Session) -> None:
        told.append(session.id)

    sessions.on_broken = on_broken
    return sessions


@pytest.mark.parametrize("column", ["seq", "published_seq", "host_id", "channel_id", "guild_id", "seed",
                                    "created_at", "updated_at"])
async def test_text_in_a_number_column_marks_only_that_game_broken(tmp_path: Path, column: str,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "c.sqlite3"
    store = await Store.open(db)
    first = SessionManager(store, clock=lambda: 1000.0)
    bad = await start_toy(first, 100)
    good = await start_toy(first, 200)
    await store.close()
    # behind the bot's back, as the sqlite3 shell would
    import sqlite3
    with sqlite3.connect(db) as raw:
        raw.execute(f"UPDATE games SET {column} = 'abc' WHERE id = ?", (bad,))
    store = await Store.open(db)
    try:
        told: list[int] = []
        sessions = restarted(store, told)
        with caplog.at_level(logging.ERROR, logger="bot.core.sessions"):
            await sessions.restore()  # start-up does not fail
            session = await sessions.get(bad)
        assert session.broken and session.game is None
        assert told == [bad]  # the channel is told once
        assert bad in await store.broken_games()
        lines = [r.getMessage() for r in caplog.records if f"game {bad}" in r.getMessage()]
        assert len(lines) == 1 and "broken" in lines[0]
        with pytest.raises(SessionError) as err:
            await sessions.act(bad, A.id, 0, {"type": "add", "n": 1})
        assert err.value.key == "err.game_broken"
        # the other game plays on
        other = await sessions.get(good)
        seat = other.game.actors()[0]
        await sessions.act(good, other.row.seat_users[seat][0], seat, other.game.legal_actions(seat)[0])
        assert (await store.load_game(good)).seq == 1
        # and the broken one can still be ended
        await sessions.abort(bad)
        # a second start says nothing new to the channel
        told2: list[int] = []
        again = restarted(store, told2)
        await again.restore()
        assert told2 == []
    finally:
        await store.close()
