"""Delivery without Discord: a stub client whose channel refuses posts and whose DMs are closed."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.delivery import Publisher
from bot.games import registry
from bot.sessions import SessionManager, UserInfo
from bot.store import Store


def forbidden(code: int) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code, "message": "no"})


class StubChannel:
    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        if self.error is not None:
            raise self.error
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=len(self.sent))

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits.append((message_id, kwargs))

        return Partial()

    @property
    def edits(self) -> list[tuple[int, dict[str, Any]]]:
        return self.__dict__.setdefault("_edits", [])


class StubClient:
    def __init__(self, channel: StubChannel, dm: StubChannel) -> None:
        self.channel = channel
        self.dm = dm

    def get_channel(self, channel_id: int) -> StubChannel:
        return self.channel

    async def create_dm(self, user: Any) -> StubChannel:
        return self.dm


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", ("tests.platform.toy:Toy", "tests.platform.toy:render"))


async def setup(tmp_path: Path, channel: StubChannel, dm: StubChannel):
    store = await Store.open(tmp_path / "d.sqlite3")
    sessions = SessionManager(store)
    publisher = Publisher(StubClient(channel, dm), sessions, store)  # type: ignore[arg-type]
    session = await sessions.create(guild_id=1, channel_id=7, host=UserInfo(1, "a"), game_key="toy", options={})
    await sessions.join(session.id, UserInfo(2, "b"))
    await sessions.start(session.id, 1, seed=5)
    return store, sessions, publisher, session


async def test_missing_permission_is_a_warning_not_a_crash(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    channel, dm = StubChannel(forbidden(50013)), StubChannel()
    store, _, publisher, session = await setup(tmp_path, channel, dm)
    with caplog.at_level(logging.WARNING):
        await publisher.publish(session.id)
    assert any("missing permission" in r.message for r in caplog.records)
    assert (await store.load_game(session.id)).published_seq == 0  # not retried forever
    assert dm.sent  # the player to act still got their panel by DM
    await store.close()


async def test_closed_dms_notice_once_without_content(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel(forbidden(50007))
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    actor = session.game.actors()[0]
    user = session.row.seat_users[actor][0]
    notices = [m for m in channel.sent if "/game hand" in m["content"]]
    assert len(notices) == 1 and f"<@{user}>" in notices[0]["content"]
    assert user in publisher.dm_closed and user in await store.dm_closed_users()
    # later prompts neither retry the DM nor repeat the notice
    await sessions.act(session.id, user, actor, {"type": "add", "n": 1})
    await publisher.publish(session.id)
    other = session.game.actors()[0]
    await sessions.act(session.id, session.row.seat_users[other][0], other, {"type": "add", "n": 1})
    await publisher.publish(session.id)
    for seat in (actor, other):
        uid = session.row.seat_users[seat][0]
        assert len([m for m in channel.sent if "/game hand" in m["content"] and f"<@{uid}>" in m["content"]]) == 1
    # the notices carry no private content: only the mention and the instruction
    assert all("picked" not in m["content"] for m in channel.sent)
    await store.close()


async def test_mentions_only_the_players_to_act(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, _, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    post = next(m for m in channel.sent if "file" in m)
    actor_users = [session.row.seat_users[s][0] for s in session.game.actors()]
    assert [u.id for u in post["allowed_mentions"].users] == actor_users
    assert post["allowed_mentions"].everyone is False and post["allowed_mentions"].roles is False
    await store.close()


async def test_a_new_dm_panel_retires_the_previous_one(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    first_seat = session.game.actors()[0]
    first_user = session.row.seat_users[first_seat][0]
    first_panel = len(dm.sent)  # the id the stub gave the first panel
    for _ in range(2):  # both players move: the first player is prompted again
        seat = session.game.actors()[0]
        await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})
        await publisher.publish(session.id)
    assert session.game.actors() == [first_seat]
    assert (first_panel, {"view": None}) in dm.edits  # its old panel lost its controls
    stored = await store.get_message(session.id, f"panel:{first_user}")
    assert stored is not None and stored[1] == len(dm.sent)
    await store.close()
