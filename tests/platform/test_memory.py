"""Memory stays bounded over months of uptime: what the bot keeps per game, channel or user.

Finished, conceded and aborted games leave nothing behind in the session index or the publisher;
per-user caches (DM channels, "use /game hand" notices) keep a bounded number of recent users.
Real SQLite, the toy game, and a stub Discord client (the bound does not depend on Discord).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core.sessions import Session, SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app import limits
from bot.discord_app.delivery import Publisher
from bot.games import registry
from tests.platform.toy import toy_manifest


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


class Channel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.sent = 0

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.sent += 1
        return SimpleNamespace(id=self.sent)

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**kwargs: Any) -> None:
            return None

        return SimpleNamespace(edit=edit)


class Client:
    """Every channel and every DM accepts posts; ``opened`` counts DM channels opened."""

    def __init__(self) -> None:
        self.opened = 0

    def get_channel(self, channel_id: int) -> Channel:
        return Channel(channel_id)

    async def create_dm(self, user: Any) -> Channel:
        self.opened += 1
        return Channel(-int(user.id))


async def play_out(sessions: SessionManager, session: Session) -> None:
    """Everyone to act plays their first legal action until the game ends."""
    for _ in range(200):
        game = session.game
        if session.row.status != "running" or game is None or game.outcome() is not None:
            return
        seat = game.actors()[0]
        user = session.row.seat_users[seat][0]  # type: ignore[index]
        await sessions.act(session.id, user, seat, game.legal_actions(seat)[0])
    raise AssertionError("the toy game did not end")


async def test_finished_games_and_their_users_leave_nothing_behind(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "m.sqlite3")
    client = Client()
    sessions = SessionManager(store)
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    sessions.on_change = publisher.request
    try:
        n_games = 120
        for g in range(n_games):
            host = UserInfo(id=10_000 + 2 * g, name=f"h{g}")
            guest = UserInfo(id=10_001 + 2 * g, name=f"g{g}")
            session = await sessions.create(guild_id=1, channel_id=500 + g, host=host, game_key="toy", options={})
            await sessions.join(session.id, guest)
            if g % 4 == 3:  # an abandoned lobby, aborted by a moderator
                await sessions.abort(session.id)
                continue
            await sessions.start(session.id, host.id, seed=g)
            if g % 4 == 2:
                await sessions.concede(session.id, guest.id)
            elif g % 4 == 1:
                await sessions.abort(session.id)
            else:
                await play_out(sessions, session)
            # one game open at a time in its channel while it runs: the index holds exactly it
            assert len(sessions.sessions) <= 1
        await publisher.idle()
        assert sessions.sessions == {} and sessions.channels == {}
        assert not publisher._tasks and not publisher._dirty and not publisher._channel_locks
        # the games did reach Discord: DMs were opened for the players of the games that were played
        assert client.opened > 0
        # and a restart indexes none of them
        fresh = SessionManager(store)
        assert await fresh.restore() == [] and fresh.sessions == {} and fresh.channels == {}
    finally:
        await store.close()


async def test_per_user_caches_keep_only_recent_users(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "DM_CHANNELS", 50)
    monkeypatch.setattr(limits, "NOTICES", 40)
    store = await Store.open(tmp_path / "u.sqlite3")
    client = Client()
    sessions = SessionManager(store)
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    try:
        session = await sessions.create(guild_id=1, channel_id=7, host=UserInfo(id=1, name="host"),
                                        game_key="toy", options={})
        users = list(range(100_000, 100_500))  # 500 distinct users over time
        for user_id in users:
            assert await publisher.dm(session, user_id, "hello", None)
        assert client.opened == 500
        assert len(publisher._dm_channels) == 50
        # the most recent users are the ones remembered: writing to them opens nothing new
        for user_id in users[-50:]:
            assert await publisher.dm(session, user_id, "again", None)
        assert client.opened == 500
        # an old one is opened again (correct, only slower)
        assert await publisher.dm(session, users[0], "back", None)
        assert client.opened == 501 and len(publisher._dm_channels) == 50

        for user_id in users[:200]:
            await publisher.dm_closed_notice(session, user_id)
        assert len(publisher._notified) == 40
        # a forgotten notice is not repeated: the database remembers it was posted
        posted = [await store.get_message(session.id, f"dmnotice:{u}") for u in users[:200]]
        assert all(p is not None for p in posted)
        before = [p[1] for p in posted]
        await publisher.dm_closed_notice(session, users[0])
        after = await store.get_message(session.id, f"dmnotice:{users[0]}")
        assert after is not None and after[1] == before[0]
    finally:
        await store.close()


def test_lru_keeps_the_most_recently_used() -> None:
    cache: limits.Lru[int, str] = limits.Lru(3)
    for k in range(5):
        cache[k] = str(k)
    assert len(cache) == 3 and 0 not in cache and 1 not in cache
    assert cache.get(2) == "2"  # 2 is now the most recent; 3 the oldest
    cache[5] = "5"
    assert 3 not in cache and 2 in cache and 4 in cache and 5 in cache
    seen: limits.Lru[tuple[int, int], None] = limits.Lru(2)
    seen.add((1, 1))
    seen.add((1, 2))
    seen.add((2, 1))
    assert (1, 1) not in seen and (2, 1) in seen
    seen.discard((2, 1))
    assert len(seen) == 1
