"""One channel post for a stretch of play (issue 25, ``Game.post_group``): while the game names the same
group as the current turn post was made in, a prompt edits that post (the prompted seat still gets its
DM panel; only the post's first prompt pinged) instead of making a new one; a full post, or a new
group, makes a new one. Played with the platform's toy game against a stub Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.store import Store
from bot.discord_app import delivery
from tests.platform.test_delivery import StubChannel, setup, toy_registered  # noqa: F401 (autouse fixture)
from tests.platform.toy import Toy


async def move(sessions: object, session: object) -> int:
    """The seat to act adds 1 (the other seat is prompted); the user prompted next."""
    seat = session.game.actors()[0]  # type: ignore[attr-defined]
    users = session.row.seat_users  # type: ignore[attr-defined]
    await sessions.act(session.id, users[seat][0], seat, {"type": "add", "n": 1})  # type: ignore[attr-defined]
    return int(users[session.game.actors()[0]][0])  # type: ignore[attr-defined]


def post_edits(channel: StubChannel) -> list[dict[str, object]]:
    """Edits of the turn post (the stub's channel also takes the DM panels' refreshes)."""
    return [kwargs for _, kwargs in channel.edits if "adds 1" in str(kwargs.get("content", ""))]


async def turn_data(store: Store, game_id: int) -> dict[str, object]:
    stored = await store.get_message(game_id, "turn")
    assert stored is not None
    return dict(stored.data)


async def test_prompts_within_one_group_edit_the_post_a_new_group_posts_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    group = {"key": "round:0"}
    monkeypatch.setattr(Toy, "post_group", lambda self: group["key"], raising=False)
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    first = [m for m in channel.sent if "file" in m]
    assert len(first) == 1 and (await turn_data(store, session.id))["group"] == "round:0"
    pinged = [u.id for u in first[0]["allowed_mentions"].users]
    panels = len(dm.sent)
    next_user = await move(sessions, session)
    await publisher.publish(session.id)
    # the other seat was prompted: an edit of the same post, no new post, no new ping; its DM panel went
    assert len(channel.sent) == 1 and len(post_edits(channel)) == 1
    edited = post_edits(channel)[-1]
    assert f"<@{next_user}>" in str(edited["content"])
    assert [u.id for u in edited["allowed_mentions"].users] == pinged  # type: ignore[attr-defined]
    assert len(dm.sent) == panels + 1
    data = await turn_data(store, session.id)
    assert data["group"] == "round:0" and data["ping"] == pinged
    # a new group: a new post, which pings the prompted player
    group["key"] = "round:1"
    next_user = await move(sessions, session)
    await publisher.publish(session.id)
    posts = [m for m in channel.sent if "file" in m]
    assert len(posts) == 2 and [u.id for u in posts[1]["allowed_mentions"].users] == [next_user]
    assert (await turn_data(store, session.id))["group"] == "round:1"
    await store.close()


async def test_a_full_post_still_makes_a_new_one_within_a_group(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Toy, "post_group", lambda self: "set-up", raising=False)
    monkeypatch.setattr(delivery, "MAX_LOG_LINES", 1)
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    await move(sessions, session)
    await publisher.publish(session.id)
    assert len(channel.sent) == 1 and len(post_edits(channel)) == 1  # one line: it fits, an edit
    next_user = await move(sessions, session)
    await publisher.publish(session.id)
    # two lines do not fit one post: a new post (never a line out of view), with the prompted player pinged
    posts = [m for m in channel.sent if "file" in m]
    assert len(posts) == 2 and len(post_edits(channel)) == 1
    assert next_user in [u.id for u in posts[1]["allowed_mentions"].users]
    assert (await turn_data(store, session.id))["group"] == "set-up"
    await store.close()


async def test_without_a_group_every_prompt_posts_anew(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    assert session.game.post_group() is None
    await publisher.publish(session.id)
    for _ in range(2):
        await move(sessions, session)
        await publisher.publish(session.id)
    assert len([m for m in channel.sent if "file" in m]) == 3 and not post_edits(channel)
    assert (await turn_data(store, session.id))["group"] is None
    await store.close()
