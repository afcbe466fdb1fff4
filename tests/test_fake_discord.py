"""End-to-end checks that tests/fake_discord works with the REAL discord.py.

Each test runs ``python -m tests.fake_discord.demo_bot`` (a small discord.py bot) as a subprocess against
a FakeDiscord and drives it as users would.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # `tests` is not a package; make `tests.fake_discord` importable
    sys.path.insert(0, str(REPO_ROOT))

from tests.fake_discord import BotProcess, Channel, FakeDiscord, Guild, User  # noqa: E402

pytestmark = pytest.mark.e2e


@dataclass
class World:
    fake: FakeDiscord
    bot: BotProcess
    guild: Guild
    channel: Channel
    alice: User
    bob: User


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("Test")
        channel = fake.create_channel(guild, "games")
        alice = fake.create_user("alice", locale="ru")
        bob = fake.create_user("bob", locale="en-US")
        fake.add_member(guild, alice)
        fake.add_member(guild, bob)
        bot = BotProcess(
            fake, tmp_path / "db.sqlite", guild_ids=[guild.id], module="tests.fake_discord.demo_bot"
        )
        await bot.start()
        try:
            yield World(fake, bot, guild, channel, alice, bob)
        finally:
            await bot.stop()
        assert not fake.unknown_routes, fake.unknown_routes


async def test_startup_identify_and_sync(world: World) -> None:
    fake = world.fake
    assert len(fake.identifies) == 1
    assert fake.identifies[0][1]["token"] == "fake-token"
    assert fake.gateway_queries[0].get("compress") == "zlib-stream"  # compressed frames were used
    demo = fake.command("demo", world.guild)
    assert demo is not None and demo["guild_id"] == str(world.guild.id)
    subs = {o["name"] for o in demo["options"]}
    assert {"hello", "dm", "slow", "post", "admin"} <= subs
    paths = [r.path for r in fake.requests]
    assert "/users/@me" in paths and "/gateway/bot" in paths


async def test_slash_options_select_and_button_with_png(world: World) -> None:
    fake, ch, alice, bob = world.fake, world.channel, world.alice, world.bob
    r = await fake.slash(alice, ch, "demo hello", name="Bob", times="twice", friend=bob)
    assert r.content == "Hello Bob! Hello Bob! (friend: bob) [ru/en-US]"
    assert not r.ephemeral and r.callback_type == 4
    assert fake.last_message(ch, containing="Hello Bob") is r.message

    picked = await fake.select(bob, r.message, values=["3"], placeholder="Pick a number")
    assert picked.ephemeral and picked.content == "You picked 3"
    assert picked.message not in fake.channel_messages(ch)  # ephemeral: not in the public list
    assert picked.message in fake.channel_messages(ch, include_ephemeral=True)

    ticked = await fake.click(bob, r.message, label="Tick")
    assert ticked.callback_type == 6 and ticked.message is r.message and r.message.content.endswith("+tick")

    threaded = await fake.click(bob, r.message, custom_id="demo:thread")  # returns after the quiet period
    (thread,) = [c for c in world.guild.channels if c.is_thread]
    assert thread.name == "game thread" and thread.parent_id == ch.id and threaded.followups == []
    (in_thread,) = fake.channel_messages(thread)
    assert in_thread.content == "thread for bob" and in_thread.attachments[0].filename == "thread.png"
    assert in_thread.attachments[0].is_png

    clicked = await fake.click(bob, r.message, label="Roll")
    assert clicked.callback_type == 7 and clicked.message is r.message
    assert clicked.content == "Rolled by bob (en-US)" and clicked.components == []
    ((name, data),) = clicked.attachments
    assert name == "roll.png" and data.startswith(b"\x89PNG\r\n\x1a\n")
    assert (
        r.message.edited and r.message.versions[0].content == "Hello Bob! Hello Bob! (friend: bob) [ru/en-US]"
    )

    secret = await fake.slash(bob, ch, "demo hello", name="x", secret=True)
    assert secret.ephemeral and secret.message not in fake.all_guild_messages()


async def test_nested_group_autocomplete_modal_and_deferred(world: World) -> None:
    fake, ch, alice = world.fake, world.channel, world.alice
    r = await fake.slash(alice, ch, "demo admin echo", text="hi", count=2)
    assert r.content == "hi hi"

    choices = await fake.autocomplete(alice, ch, "demo fruit", focused="kind", options={"kind": "ap"})
    assert [c["value"] for c in choices] == ["apple", "apricot"]

    m = await fake.slash(alice, ch, "demo feedback")
    assert m.callback_type == 9 and m.modal and m.modal["title"] == "Feedback"
    s = await fake.submit_modal(alice, m, {"demo:fb:text": "great"})
    assert s.ephemeral and s.content == "feedback: great"

    d = await fake.slash(alice, ch, "demo slow")
    assert d.callback_type == 5 and d.content == "done slowly" and not d.message.loading
    assert d.attachments[0].is_png and not d.ephemeral


async def test_dm_send_click_and_closed_dms(world: World) -> None:
    fake, ch, alice, bob = world.fake, world.channel, world.alice, world.bob
    r = await fake.slash(alice, ch, "demo dm")
    assert r.ephemeral and r.content == "Check your DMs"
    (dm,) = fake.dm_messages(alice)
    assert dm.content == "Want to play?" and dm.guild_id is None

    played = await fake.click(alice, dm, label="Play")
    assert played.content == "played in dm by alice"
    assert played.message in fake.dm_messages(alice)

    fake.close_dms(bob)
    failed = await fake.slash(bob, ch, "demo dm")
    assert failed.content == "DM failed"
    assert fake.last_message(ch).content == "Cannot DM bob: 50007"
    assert fake.dm_messages(bob) == []


async def test_429_is_retried_by_discord_py(world: World) -> None:
    fake, ch = world.fake, world.channel
    fake.rate_limit_next(retry_after=0.3, route_contains=f"/channels/{ch.id}/messages", method="POST")
    r = await fake.slash(world.alice, ch, "demo post", text="hello world")
    assert r.ephemeral and r.content == "posted" and not r.message.edited  # filled deferral, not an edit
    posts = fake.requests_matching(f"/channels/{ch.id}/messages", method="POST")
    assert [p.status for p in posts] == [429, 200]
    assert posts[1].at - posts[0].at >= 0.25
    (msg,) = [m for m in fake.channel_messages(ch) if "hello world" in m.content]
    assert msg.versions[0].attachments == [] and [a.filename for a in msg.attachments] == ["post.png"]
    assert msg.content == "hello world (edited)" and [v.content for v in msg.versions] == [
        "hello world",
        "hello world (edited)",
    ]


async def test_sigkill_restart_and_resume(world: World) -> None:
    fake, ch, alice = world.fake, world.channel, world.alice
    first = await fake.slash(alice, ch, "demo hello", name="A")

    await fake.disconnect_gateway(4000)  # discord.py RESUMEs the session
    await fake.wait_for(lambda: fake.resumes and fake.connected)
    assert len(fake.identifies) == 1
    assert (await fake.slash(alice, ch, "demo admin echo", text="after resume")).content == "after resume"

    await fake.invalidate_session()  # op 9: discord.py drops the session and IDENTIFYs again
    await fake.wait_for(lambda: len(fake.identifies) == 2 and fake.connected)
    assert (await fake.slash(alice, ch, "demo admin echo", text="after op9")).content == "after op9"

    await world.bot.kill()
    assert world.bot.returncode == -9
    await fake.wait_for(lambda: not fake.connected)
    await world.bot.start()
    assert len(fake.identifies) == 3
    clicked = await fake.click(alice, first.message, label="Roll")  # persistent view survives restart
    assert clicked.content.startswith("Rolled by alice")
    assert "----- run 2" in world.bot.output()


async def test_rest_details_without_bot() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        async with http.get(f"{fake.api_base}/gateway/bot") as resp:
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["url"] == fake.gateway_url
        async with http.get(f"{fake.api_base}/nope") as resp:
            assert resp.status == 404
        assert fake.unknown_routes == ["GET /nope"]
        fake.unknown_routes.clear()
        g = fake.create_guild()
        ch = fake.create_channel(g, "c")
        async with http.post(f"{fake.api_base}/channels/{ch.id}/messages", json={"content": ""}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50006
        async with http.post(
            f"{fake.api_base}/channels/{ch.id}/messages", json={"content": "x" * 2001}
        ) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035
        fake.rate_limit_next(1.5)
        async with http.get(f"{fake.api_base}/users/@me") as resp:
            assert resp.status == 429 and resp.headers["Via"] and resp.headers["Retry-After"] == "2"
            assert (await resp.json())["retry_after"] == 1.5


async def test_fault_switches_without_bot() -> None:
    """503 bursts, dropped connections, lost answers, a REST outage, and Discord's nonce dedup
    ("If another message was created by the same author with the same nonce, that message will be
    returned and no new message will be created", Discord API docs, Create Message)."""
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        ch = fake.create_channel(fake.create_guild(), "c")
        url = f"{fake.api_base}/channels/{ch.id}/messages"
        rule = fake.fail_requests(503, "/messages", method="POST", count=2)
        for _ in range(2):
            async with http.post(url, json={"content": "a"}) as resp:
                assert resp.status == 503 and resp.headers["Content-Type"] == "application/json"
        async with http.get(f"{fake.api_base}/users/@me") as resp:  # other routes are untouched
            assert resp.status == 200
        async with http.post(url, json={"content": "a"}) as resp:
            assert resp.status == 200
        assert rule.hits == 2 and rule.remaining == 0
        assert [m.content for m in fake.channel_messages(ch)] == ["a"]

        fake.fail_requests(route_contains="/messages", drop=True)
        with pytest.raises(aiohttp.ClientError):
            async with http.post(url, json={"content": "b"}) as resp:
                await resp.read()
        assert [m.content for m in fake.channel_messages(ch)] == ["a"]

        fake.fail_requests(route_contains="/messages", lose_response=True)
        body = {"content": "c", "nonce": "n1", "enforce_nonce": True}
        with pytest.raises(aiohttp.ClientError):
            async with http.post(url, json=body) as resp:
                await resp.read()
        async with http.post(url, json=body) as resp:  # the retry finds the message made before
            assert resp.status == 200
            assert int((await resp.json())["id"]) == fake.channel_messages(ch)[-1].id
        assert [m.content for m in fake.channel_messages(ch)] == ["a", "c"]

        fake.rest_outage = True
        async with http.get(f"{fake.api_base}/gateway/bot") as resp:
            assert resp.status == 503
        fake.outage_drops = True
        with pytest.raises(aiohttp.ClientError):
            async with http.get(f"{fake.api_base}/users/@me") as resp:
                await resp.read()
        fake.rest_outage = False
        async with http.get(f"{fake.api_base}/users/@me") as resp:
            assert resp.status == 200
        # the lost answer is recorded with the status of what was done; a drop has no answer (-1)
        assert [r.status for r in fake.faults_injected[:5]] == [503, 503, -1, 200, 503]
        assert {r.status for r in fake.faults_injected[5:]} == {-1}  # aiohttp may retry a GET once


async def test_threads_and_privacy_scan(world: World) -> None:
    fake, alice = world.fake, world.alice
    thread = fake.create_thread(world.channel, "t1")  # created while connected: THREAD_CREATE
    r = await fake.slash(alice, thread, "demo admin echo", text="in thread")
    assert r.message in fake.channel_messages(thread)
    await fake.slash(alice, thread, "demo hello", name="secret", secret=True)
    await fake.slash(alice, world.channel, "demo post", text="public")
    texts = [v.text for m in fake.all_guild_messages() for v in m.versions]
    assert "in thread" in texts and "public" in texts and "public (edited)\npost.png" in texts
    assert not any("secret" in t for t in texts)
    assert any("secret" in m.content for m in fake.ephemeral_messages(alice))
    with pytest.raises(ValueError, match="must be <= 3"):
        await fake.slash(alice, thread, "demo admin echo", text="x", count=4)


async def test_global_sync_and_slash_in_dm(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        alice = fake.create_user("alice", locale="en-US")
        bot = BotProcess(
            fake, tmp_path / "db.sqlite", module="tests.fake_discord.demo_bot", ready_log="demo bot ready"
        )
        await bot.start()  # no guild ids: waits for the global command PUT, then for the on_ready log line
        try:
            assert fake.command("demo") is not None and fake.guild_commands == {}
            dm = fake.open_dm_channel(alice)
            r = await fake.slash(alice, dm, "demo hello", name="dm")
            assert r.content == "Hello dm! [en-US/-]" and r.message in fake.dm_messages(alice)
            assert "guild_id" not in r.payload and r.payload["user"]["id"] == str(alice.id)
        finally:
            await bot.stop()
        assert bot.returncode is not None


# ---------------------------------------------------------------- sharding (issue 14)
class RawShard:
    """A bare gateway client IDENTIFYing as one shard: it records every DISPATCH and answers each
    interaction with "shard N" (through the REST callback), so tests see which shard got what."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession, shard: list[int] | None) -> None:
        self.fake, self.http, self.shard = fake, http, shard
        self.events: list[tuple[str, dict[str, object]]] = []
        self.closed_with: int | None = None

    async def __aenter__(self) -> RawShard:
        self.ws = await self.http.ws_connect(self.fake.gateway_url + "?v=10&encoding=json")
        hello = await self.ws.receive_json()
        assert hello["op"] == 10
        identify = {"token": "fake-token", "intents": (1 << 9) | (1 << 12) | 1, "properties": {}}
        if self.shard is not None:
            identify["shard"] = self.shard
        await self.ws.send_json({"op": 2, "d": identify})
        self.reader = asyncio.get_running_loop().create_task(self.read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()
        await self.reader

    async def read(self) -> None:
        async for msg in self.ws:
            frame = json.loads(msg.data)
            if frame["op"] != 0:
                continue
            self.events.append((frame["t"], frame["d"]))
            if frame["t"] == "INTERACTION_CREATE":
                d = frame["d"]
                url = f"{self.fake.api_base}/interactions/{d['id']}/{d['token']}/callback"
                body = {"type": 4, "data": {"content": f"shard {(self.shard or [0])[0]}"}}
                async with self.http.post(url, json=body) as answer:
                    assert answer.status in (200, 204), await answer.text()
        self.closed_with = self.ws.close_code

    def got(self, event: str) -> list[dict[str, object]]:
        return [d for t, d in self.events if t == event]

    def guild_ids(self, event: str) -> set[int]:
        return {int(str(d.get("guild_id") or d.get("id"))) for d in self.got(event)}


async def guild_on_each_shard(fake: FakeDiscord) -> list[Guild]:
    """One guild per shard of 2 (a guild's shard is (id >> 22) % 2: its creation millisecond's parity)."""
    found: dict[int, Guild] = {}
    while len(found) < 2:
        guild = fake.create_guild("G")
        if found.setdefault((guild.id >> 22) % 2, guild) is not guild:
            fake.guilds.pop(guild.id)  # a second one of the same shard: not wanted (nothing is connected yet)
        await asyncio.sleep(0.001)
    return [found[0], found[1]]


async def test_shards_get_their_guilds_events_and_dms_go_to_shard_0() -> None:
    async with FakeDiscord(shard_count=2) as fake, aiohttp.ClientSession() as http:
        async with http.get(fake.api_base + "/gateway/bot") as answer:
            assert (await answer.json())["shards"] == 2
        g0, g1 = await guild_on_each_shard(fake)
        ch0, ch1 = fake.create_channel(g0, "a"), fake.create_channel(g1, "b")
        alice = fake.create_user("alice")
        for guild in (g0, g1):
            fake.add_member(guild, alice)
        async with http.put(f"{fake.api_base}/applications/{fake.application_id}/commands",
                            json=[{"name": "ping", "description": "p", "type": 1}]) as answer:
            assert answer.status == 200
        async with RawShard(fake, http, [0, 2]) as s0, RawShard(fake, http, [1, 2]) as s1:
            await fake.wait_for(lambda: s0.got("GUILD_CREATE") and s1.got("GUILD_CREATE"))
            # READY and the GUILD_CREATEs at start name only the shard's own guilds
            assert [g["id"] for g in s0.got("READY")[0]["guilds"]] == [str(g0.id)]  # type: ignore[index]
            assert [g["id"] for g in s1.got("READY")[0]["guilds"]] == [str(g1.id)]  # type: ignore[index]
            assert s0.got("READY")[0]["shard"] == [0, 2] and s1.got("READY")[0]["shard"] == [1, 2]
            assert s0.guild_ids("GUILD_CREATE") == {g0.id} and s1.guild_ids("GUILD_CREATE") == {g1.id}
            assert fake.shard_of(g0) == 0 and fake.shard_of(g1) == 1 and fake.shard_of(None) == 0
            assert sorted(fake.shard_sessions) == [0, 1]

            # guild events after start: a message and a channel made in g1 reach shard 1 only
            fake.user_message(alice, ch1, "hello")
            fake.create_channel(g1, "c")
            await fake.wait_for(lambda: s1.got("MESSAGE_CREATE") and s1.got("CHANNEL_CREATE"))
            assert s1.guild_ids("MESSAGE_CREATE") == {g1.id}
            # interactions: from a guild channel to that guild's shard, from a DM to shard 0
            assert (await fake.slash(alice, ch1, "ping")).content == "shard 1"
            assert (await fake.slash(alice, ch0, "ping")).content == "shard 0"
            dm = fake.open_dm_channel(alice)
            assert (await fake.slash(alice, dm, "ping")).content == "shard 0"
            fake.user_message(alice, dm, "psst")
            await fake.wait_for(lambda: any(d["content"] == "psst" for d in s0.got("MESSAGE_CREATE")))
            late = fake.create_guild("late")
            await fake.wait_for(lambda: late.id in (s0.guild_ids("GUILD_CREATE") | s1.guild_ids("GUILD_CREATE")))
            await asyncio.sleep(0.2)  # anything misrouted would have arrived by now
            mine = s0 if fake.shard_of(late) == 0 else s1
            other = s1 if mine is s0 else s0
            assert late.id in mine.guild_ids("GUILD_CREATE") and late.id not in other.guild_ids("GUILD_CREATE")
            assert all(int(str(d["guild_id"])) == g1.id for d in s1.got("INTERACTION_CREATE"))
            assert [d.get("guild_id") for d in s0.got("INTERACTION_CREATE")] == [str(g0.id), None]
            assert g0.id not in s1.guild_ids("MESSAGE_CREATE") and not any(
                d["content"] == "psst" for d in s1.got("MESSAGE_CREATE"))
            assert g1.id not in s0.guild_ids("CHANNEL_CREATE") | s0.guild_ids("MESSAGE_CREATE")

            # a switch aimed at one shard leaves the other connected
            await fake.disconnect_gateway(shard=1)
            await fake.wait_for(lambda: not fake.shard_connected(1))
            assert fake.shard_connected(0)
            with pytest.raises(RuntimeError, match="shard 1"):
                await fake.slash(alice, ch1, "ping", timeout=0.3)


async def test_an_invalid_shard_is_refused_and_unsharded_sessions_get_everything() -> None:
    async with FakeDiscord(shard_count=2) as fake, aiohttp.ClientSession() as http:
        g0, g1 = await guild_on_each_shard(fake)
        async with RawShard(fake, http, [2, 2]) as bad:
            await fake.wait_for(lambda: bad.closed_with is not None)
            assert bad.closed_with == 4010 and not bad.events
        async with RawShard(fake, http, None) as whole:  # a bot that ignores the recommended count
            await fake.wait_for(lambda: len(whole.got("GUILD_CREATE")) == 2)
            assert whole.guild_ids("GUILD_CREATE") == {g0.id, g1.id}


async def test_an_unanswered_interaction_says_where_it_went(world: World) -> None:
    """The timeout error of an interaction the bot never answered tells what became of it: the gateway
    session and sequence number it went out with, and that the bot made no request since (here the
    bot process is frozen with SIGSTOP, so it cannot read the event)."""
    import os
    import signal

    fake, ch, alice = world.fake, world.channel, world.alice
    assert world.bot.pid is not None
    os.kill(world.bot.pid, signal.SIGSTOP)
    try:
        with pytest.raises(TimeoutError) as caught:
            await fake.slash(alice, ch, "demo hello", name="A", timeout=1.0)
    finally:
        os.kill(world.bot.pid, signal.SIGCONT)
    text = str(caught.value)
    result = fake.interactions[-1]
    session, seq, open_ = result.delivery[0]
    assert open_ and seq > 0
    assert f"interaction {result.id} sent" in text and f"('{session}', {seq}, True)" in text, text
    assert "no request from the bot since" in text, text
    assert "--- bot lines naming the interaction ---" in text
    # thawed, the bot reads the event from its socket and answers it late
    await fake.wait_for(result.responded.is_set, timeout=10)
    assert any(r.at > result.sent_at and str(result.id) in r.path for r in fake.requests)


def _image(fmt: str, frames: int) -> bytes:
    """A ``frames``-frame image in ``fmt`` (GIF or PNG; PNG with more frames is an APNG)."""
    import io

    from PIL import Image

    images = [Image.new("RGB", (40, 30), (60 * i % 256, 90, 200)) for i in range(frames)]
    buf = io.BytesIO()
    images[0].save(buf, format=fmt, save_all=frames > 1, append_images=images[1:], duration=100, loop=0)
    return buf.getvalue()


def test_attachments_record_whether_discord_would_animate_them() -> None:
    """Discord plays a GIF inline and shows an APNG as its first frame: the fake says which."""
    from tests.fake_discord import Attachment

    gif, apng, png = (Attachment("a.gif", _image("GIF", 3)), Attachment("a.png", _image("PNG", 3)),
                      Attachment("s.png", _image("PNG", 1)))
    assert gif.is_gif and gif.frames == 3 and gif.animated and gif.content_type == "image/gif"
    assert apng.is_png and apng.is_apng and apng.frames == 3 and not apng.animated  # a still on Discord
    assert png.is_png and not png.is_apng and png.frames == 1 and not png.animated
    assert not Attachment("one.gif", _image("GIF", 1)).animated
    assert gif.dimensions == apng.dimensions == (40, 30)
    assert not Attachment("x.bin", b"\0" * 40).animated


async def test_an_upload_over_10_mib_is_refused_like_discord_does() -> None:
    from tests.fake_discord import UPLOAD_LIMIT

    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        guild = fake.create_guild("Test")
        channel = fake.create_channel(guild, "games")
        url = f"{fake.api_base}/channels/{channel.id}/messages"
        headers = {"Authorization": "Bot fake-token"}

        async def post(data: bytes, name: str) -> tuple[int, dict[str, object]]:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps({"content": "history", "attachments": [{"id": 0}]}),
                           content_type="application/json")
            form.add_field("files[0]", data, filename=name)
            async with http.post(url, data=form, headers=headers) as resp:
                return resp.status, await resp.json()

        status, body = await post(b"\0" * (UPLOAD_LIMIT + 1), "big.gif")
        assert (status, body["code"], body["message"]) == (413, 40005, "Request entity too large")
        assert fake.channel_messages(channel) == []
        gif = _image("GIF", 2)
        status, body = await post(gif, "history.gif")
        assert status == 200, body
        (message,) = fake.channel_messages(channel)
        (attachment,) = message.attachments
        assert attachment.animated and body["attachments"][0]["content_type"] == "image/gif"  # type: ignore[index]
        status, _body = await post(b"\0" * UPLOAD_LIMIT, "exactly.bin")  # the limit itself still passes
        assert status == 200
