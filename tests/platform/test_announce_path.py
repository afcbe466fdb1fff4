"""Issue 22, point 1: the announcement path never waits on housekeeping, every request on it has a
time budget that includes discord.py's own retries, a request that keeps failing is retried later
without holding what is behind it, and a crash never leaves two live DM panels.

Delivery runs against stub channels (tests/platform/test_delivery.py); the discord.py part runs the
real ``discord.http.HTTPClient`` against a small aiohttp server on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest
from aiohttp import web
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.store import Store
from bot.discord_app import discordhttp
from bot.discord_app.delivery import Publisher, owed_purpose
from bot.discord_app.discordhttp import Postponed
from bot.games import registry
from tests.platform.test_delivery import StubChannel, StubClient, fast, setup, unavailable
from tests.platform.toy import toy_manifest


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


class HangingEdits(StubChannel):
    """A DM channel whose edits (stripping or refreshing an old panel) never finish while ``hang`` is
    clear: Discord answering 5xx to every edit, retried for as long as the budget lasts."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.edit_calls = 0

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edit_calls += 1
                await channel.release.wait()
                channel.edits.append((message_id, kwargs))

        return Partial()


async def play(sessions: Any, session: Any) -> None:
    seat = session.game.actors()[0]
    await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})


async def test_a_stuck_panel_edit_holds_no_announcement(tmp_path: Path) -> None:
    """The previous DM panel's edit hangs (a 5xx burst on it): the next moves are still posted and the
    next actor still gets their panel; the old panel is stripped once Discord lets the edit through."""
    channel, dm = StubChannel(), HangingEdits()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    for _ in range(3):
        await play(sessions, session)
        # would wait forever if retiring the old panel were on the path of the publish
        await asyncio.wait_for(publisher.publish(session.id), 5)
    assert dm.edit_calls >= 1 and dm.edits == []  # the strip is still under way, in the background
    posts_before = len(channel.sent)
    assert (await store.load_game(session.id)).published_seq == session.row.seq  # type: ignore[union-attr]
    assert len(dm.sent) >= 4 and posts_before >= 4  # each turn's post and the next actor's panel went out
    dm.release.set()
    await asyncio.wait_for(publisher.idle(), 5)
    assert all(kwargs == {"view": None} for _, kwargs in dm.edits if "content" not in kwargs)
    stored = await store.get_message(session.id, f"panel:{session.row.seat_users[session.game.actors()[0]][0]}")
    assert stored is not None and stored.data.get("stale") == []  # every older panel was stripped
    await store.close()


async def test_a_refused_post_is_postponed_and_holds_no_dm(tmp_path: Path) -> None:
    """Discord refuses the channel post (503) past the announcement budget: the publish is postponed,
    not marked; the next actor's DM has gone out meanwhile; once Discord takes posts again the same
    post is made exactly once and the move is marked announced."""
    channel, dm = StubChannel(unavailable()), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    publisher.announce_budget = 0.3
    with pytest.raises(Postponed):
        await publisher.publish(session.id)
    assert (await store.load_game(session.id)).published_seq < session.row.seq  # type: ignore[union-attr]
    assert channel.sent == [] and channel.attempts >= 2
    assert len(dm.sent) == len({u for s in session.game.actors() for u in session.row.seat_users[s]})
    channel.error = None
    publisher.request(session.id)  # as the postponed retry does
    await asyncio.wait_for(publisher.idle(), 5)
    assert len([m for m in channel.sent if "file" in m]) == 1
    assert (await store.load_game(session.id)).published_seq == session.row.seq  # type: ignore[union-attr]
    assert len(dm.sent) == 1  # the DM already sent was not sent again (the outbox remembered it)
    await store.close()


async def test_a_postponed_publish_is_tried_again_by_itself(tmp_path: Path) -> None:
    channel = StubChannel(unavailable(), failures=4)
    store, sessions, publisher, session = await setup(tmp_path, channel, StubChannel())
    publisher.announce_budget = 0.05
    publisher.request(session.id)
    for _ in range(100):
        await asyncio.sleep(0.05)
        row = await store.load_game(session.id)
        if row is not None and row.published_seq == session.row.seq:
            break
    assert (await store.load_game(session.id)).published_seq == session.row.seq  # type: ignore[union-attr]
    assert len([m for m in channel.sent if "file" in m]) == 1
    await store.close()


async def test_a_dm_that_fails_is_owed_and_holds_nothing(tmp_path: Path) -> None:
    """The next actor's DM fails past its budget: the move is announced and marked, the DM is kept in
    the game's ``owed:<user>`` row and delivered (the seat's current panel) once Discord takes DMs."""
    channel, dm = StubChannel(), StubChannel(unavailable())
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    publisher.announce_budget = 0.2
    await asyncio.wait_for(publisher.publish(session.id), 5)
    assert (await store.load_game(session.id)).published_seq == session.row.seq  # type: ignore[union-attr]
    actor = session.row.seat_users[session.game.actors()[0]][0]
    owed = await store.get_message(session.id, owed_purpose(actor))
    assert owed is not None and owed.data["items"][0]["panel"] is True
    await play(sessions, session)  # the game goes on meanwhile: its post is not held by the owed DM
    await asyncio.wait_for(publisher.publish(session.id), 5)
    assert len([m for m in channel.sent if "file" in m]) == 2
    dm.error = None
    publisher.wake()
    for _ in range(100):
        if await store.get_message(session.id, owed_purpose(actor)) is None:
            break
        await asyncio.sleep(0.05)
    assert await store.get_message(session.id, owed_purpose(actor)) is None
    assert any(m.get("view") is not None for m in dm.sent)
    await publisher.idle()
    await store.close()


async def test_owed_dms_are_delivered_after_a_restart(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel(unavailable())
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    publisher.announce_budget = 0.2
    await publisher.publish(session.id)
    for task in list(publisher._owed_tasks.values()):  # the process dies with the DM still owed
        task.cancel()
    await asyncio.sleep(0)
    actor = session.row.seat_users[session.game.actors()[0]][0]
    assert await store.get_message(session.id, owed_purpose(actor)) is not None
    dm.error = None
    from bot.core.sessions import SessionManager

    fresh = fast(Publisher(StubClient(channel, dm), SessionManager(store), store))  # type: ignore[arg-type]
    fresh.resume_housekeeping()
    for _ in range(100):
        if await store.get_message(session.id, owed_purpose(actor)) is None:
            break
        await asyncio.sleep(0.05)
    assert await store.get_message(session.id, owed_purpose(actor)) is None
    assert any(m.get("view") is not None for m in dm.sent)
    await fresh.idle()
    await store.close()


async def test_a_crash_between_a_new_panel_and_the_strip_leaves_one_live_panel(tmp_path: Path) -> None:
    """The old DM panel is listed as stale before the new one is sent: if the process dies before its
    controls are removed, start-up removes them."""
    channel, dm = StubChannel(), StubChannel()
    dm.id = 99  # type: ignore[attr-defined]
    store, sessions, publisher, session = await setup(tmp_path, channel, dm, {99: dm})
    await publisher.publish(session.id)
    await publisher.idle()
    actor = session.row.seat_users[session.game.actors()[0]][0]
    first = await store.get_message(session.id, f"panel:{actor}")
    assert first is not None and first.message_id
    # the next panel is announced; the process dies right after Discord took it (no bookkeeping)
    await publisher.panels.replacing(session.id, actor)
    stored = await store.get_message(session.id, f"panel:{actor}")
    assert stored is not None and [first.channel_id, first.message_id] in stored.data["stale"]
    assert (first.message_id, {"view": None}) not in dm.edits
    from bot.core.sessions import SessionManager

    fresh = fast(Publisher(StubClient(channel, dm, {99: dm}), SessionManager(store), store))  # type: ignore[arg-type]
    fresh.resume_housekeeping()
    await asyncio.wait_for(fresh.idle(), 5)
    assert (first.message_id, {"view": None}) in dm.edits
    stored = await store.get_message(session.id, f"panel:{actor}")
    assert stored is not None and stored.data["stale"] == []
    await store.close()


async def test_the_dm_channel_is_remembered_across_a_restart(tmp_path: Path) -> None:
    """After a restart the first DM goes to the DM channel a panel went to before, without asking
    Discord to open it again."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    dm.id = 555  # type: ignore[attr-defined]
    await publisher.publish(session.id)
    await publisher.idle()
    actor = session.row.seat_users[session.game.actors()[0]][0]
    assert await store.dm_channel_of(actor) == 555

    class NoOpening(StubClient):
        opened = 0

        async def create_dm(self, user: Any) -> StubChannel:
            NoOpening.opened += 1
            return self.dm

        def get_partial_messageable(self, channel_id: int, *, type: Any = None) -> Any:  # noqa: A002
            assert channel_id == 555 and type is discord.ChannelType.private
            return self.dm

    from bot.core.sessions import SessionManager

    fresh = fast(Publisher(NoOpening(channel, dm), SessionManager(store), store))  # type: ignore[arg-type]
    assert await fresh.dm_channel(actor) is dm and NoOpening.opened == 0
    await store.close()


# ---- discord.py's own 5xx retries ------------------------------------------------------------
@pytest.fixture
async def flaky_api(monkeypatch: pytest.MonkeyPatch) -> Any:
    """An API on 127.0.0.1 whose message route answers 500 for the first ``state['fail']`` requests."""
    state = {"fail": 1, "hits": 0}

    async def me(request: web.Request) -> web.Response:
        return web.json_response({"id": "1", "username": "bot", "discriminator": "0", "avatar": None})

    async def messages(request: web.Request) -> web.Response:
        state["hits"] += 1
        if state["hits"] <= state["fail"]:
            return web.json_response({"message": "boom", "code": 0}, status=500)
        return web.json_response([])

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/channels/{channel}/messages", messages)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=discordhttp.trace_config())
    await http.static_login("token")
    try:
        yield http, state
    finally:
        await http.close()
        await runner.cleanup()


async def test_inside_our_retries_discord_py_does_not_retry_a_500(flaky_api: Any) -> None:
    http, state = flaky_api
    route = discord.http.Route("GET", "/channels/{channel_id}/messages", channel_id=1)
    token = discordhttp.OWN_RETRIES.set(True)
    try:
        with pytest.raises(discord.DiscordServerError):
            await asyncio.wait_for(http.request(route), 5)
    finally:
        discordhttp.OWN_RETRIES.reset(token)
    assert state["hits"] == 1  # raised at once: no 1 s sleep and second try of discord.py's own


async def test_elsewhere_discord_py_keeps_its_own_retry(flaky_api: Any) -> None:
    http, state = flaky_api
    route = discord.http.Route("GET", "/channels/{channel_id}/messages", channel_id=1)
    assert await asyncio.wait_for(http.request(route), 10) in ([], "[]")
    assert state["hits"] == 2


async def test_publisher_call_retries_a_500_on_its_own_schedule(flaky_api: Any, tmp_path: Path) -> None:
    """Through ``Publisher.call`` a 500 reaches the publisher's backoff (a fraction of a second here),
    not discord.py's 1 + 3 + 5 + 7 + 9 s."""
    http, state = flaky_api
    state["fail"] = 3
    store = await Store.open(tmp_path / "d.sqlite3")
    from bot.core.sessions import SessionManager

    publisher = fast(Publisher(StubClient(StubChannel(), StubChannel()), SessionManager(store), store))  # type: ignore[arg-type]
    route = discord.http.Route("GET", "/channels/{channel_id}/messages", channel_id=1)
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await publisher.call("listing", lambda: http.request(route), budget=5) in ([], "[]")
    assert state["hits"] == 4 and loop.time() - started < 4.0  # discord.py alone would sleep 1 + 3 + 5 s
    await store.close()


async def test_a_budget_ends_retries_with_postponed(flaky_api: Any, tmp_path: Path) -> None:
    http, state = flaky_api
    state["fail"] = 10**6
    store = await Store.open(tmp_path / "d.sqlite3")
    from bot.core.sessions import SessionManager

    publisher = fast(Publisher(StubClient(StubChannel(), StubChannel()), SessionManager(store), store))  # type: ignore[arg-type]
    route = discord.http.Route("GET", "/channels/{channel_id}/messages", channel_id=1)
    with pytest.raises(Postponed):
        await publisher.call("listing", lambda: http.request(route), budget=0.5)
    assert state["hits"] >= 3
    await store.close()



# ---- a backlog's news in posts: linear, and the same posts -------------------------------------
@given(st.lists(st.text(alphabet="ab я😀\n", max_size=300), max_size=60), st.integers(0, 1950))
@settings(max_examples=300, deadline=None)
def test_backlog_news_is_cut_into_posts_that_fit(lines: list[str], status_size: int) -> None:
    """Every chunk fits a message and the chunks hold every line in order; the turn post keeps the
    longest tail of lines that fits beside the status, and no line more."""
    from bot.discord_app import limits
    from bot.discord_app.delivery import MAX_CONTENT, chunk_lines, fits, split_tail

    lines = [line.replace("\n", " ") for line in lines]
    chunks = chunk_lines(lines)
    assert all(limits.size(c) <= MAX_CONTENT for c in chunks)
    assert "\n".join(chunks) == "\n".join(limits.shorten(line, MAX_CONTENT) for line in lines)
    for before, after in zip(chunks, chunks[1:], strict=False):  # a chunk closes only when the next line would not fit
        assert limits.size(before + "\n" + after.split("\n")[0]) > MAX_CONTENT
    status = "s" * status_size
    older, tail = split_tail(lines, status)
    assert older + tail == lines
    assert not tail or fits(tail, status)
    assert not older or not fits([older[-1], *tail], status)
