"""End to end: Discord misbehaving while real games are played (issue 16, points 1 and 2).

Each test injects one kind of fault through the fake Discord into a game played by its users, then
checks what the issue asks: the game goes on, every committed move is announced exactly once
(compared by content with the event texts read back from SQLite), and the players who must act are
pinged (the driver waits for their DM panels, and the latest turn post mentions exactly them).

Why 503 and dropped connections rather than 500: discord.py retries 500/502/504 itself (five tries,
sleeping 1, 3, 5, 7 s), so a burst that outlasts it costs 25 s per request; it does not retry 503 or a
dropped connection at all, so those bursts reach the bot's own retry at once.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.games.registry import game_class
from tests.e2e.coldwar_play import ColdWarDriver
from tests.e2e.helpers import (
    NO_WINDOW,
    Table,
    assert_clean_output,
    db_query,
    game_row,
    last_turn_post,
    latest_panel,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.e2e.test_coldwar_e2e import open_coldwar
from tests.e2e.test_pobeda_e2e import play_turn
from tests.fake_discord import FakeDiscord

"""Pobeda's undo window (issue 27) off: these tests are about the platform, and a turn here is one play."""


pytestmark = pytest.mark.e2e


# ---- what was committed, and what was announced ---------------------------------------------
def expected_lines(fake: FakeDiscord, db: Path, game_id: int) -> Counter[str]:
    """The public text of every committed event, from the action log (private ``"to"`` events and
    the platform's own bookkeeping events are not channel news). Seats are named after their users,
    as the bot names them."""
    key, lang, state, seats = db_query(db, "SELECT game, lang, state, seat_users FROM games WHERE id = ?",
                                       (game_id,))[0]
    game = game_class(key).from_json(json.loads(state))
    game.seat_names = [" & ".join(fake.users[u].name for u in users) for users in json.loads(seats)]
    lines: Counter[str] = Counter()
    for (raw,) in db_query(db, "SELECT events FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)):
        for event in json.loads(raw):
            if "to" in event or str(event.get("type", "")).startswith("platform."):
                continue
            text = game.event_text(event, lang)
            if text:
                lines[text] += 1
    return lines


def announced(fake: FakeDiscord, channel: Any, texts: list[str]) -> Counter[str]:
    """How often each text was announced in the channel. A turn post that is edited repeats its
    earlier lines, so a message counts a text as often as its fullest version shows it."""
    counts: Counter[str] = Counter()
    for message in fake.channel_messages(channel):
        for text in texts:
            counts[text] += max(version.content.count(text) for version in message.versions)
    return counts


def assert_announced_once(table: Table, game_id: int) -> int:
    expected = expected_lines(table.fake, table.db, game_id)
    assert expected, "no committed move to check"
    got = announced(table.fake, table.channel, list(expected))
    missing = {k: v for k, v in expected.items() if got[k] < v}
    repeated = {k: got[k] for k, v in expected.items() if got[k] > v}
    assert not missing and not repeated, f"lost: {missing}\nrepeated: {repeated}"
    return sum(expected.values())


async def all_published(table: Table, timeout: float = 30) -> dict[str, Any]:
    return await table.fake.wait_for(
        lambda: (r := game_row(table.db, table.channel.id))["published_seq"] == r["seq"] and r, timeout=timeout)


async def assert_actors_pinged(table: Table) -> None:
    """The newest turn post pings exactly the users who must act now (once everything is out)."""
    row = await all_published(table)
    key = db_query(table.db, "SELECT game FROM games WHERE id = ?", (row["id"],))[0][0]
    game = game_class(key).from_json(row["state"])
    if row["status"] == "finished":
        return
    must_act = {u for seat in game.actors() for u in row["seat_users"][seat]}
    newest = max((m for m in turn_posts(table) if m.mentions), key=lambda m: m.id)
    assert set(newest.mentions) <= must_act and newest.mentions, (newest.mentions, must_act)


async def pobeda_table(fake: FakeDiscord, tmp_path: Path, extra_env: dict[str, str] | None = None) -> Table:
    table = await make_table(fake, tmp_path, ["alice", "bob"], extra_env=extra_env)
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], options=NO_WINDOW)
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    return table


# ---- the tests -------------------------------------------------------------------------------
async def test_5xx_bursts_and_dropped_connections_on_posts_edits_and_dm_opens(tmp_path: Path) -> None:
    """Cold War: the simultaneous agent choice edits the turn post in place, so posts, edits and DMs
    all meet refusals; each burst is longer than anything discord.py retries on its own."""
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"])
        channel_msgs = f"/channels/{table.channel.id}/messages"
        # the DM channels are opened once per user: refuse the first opens before the game starts
        dm_opens = fake.fail_requests(503, "/users/@me/channels", method="POST", count=4)
        rules = [dm_opens]
        bursts = [  # (status, route, method, count, drop): one burst at a time, each kind in turn
            (503, channel_msgs, "POST", 3, False),
            (503, channel_msgs + "/", "PATCH", 3, False),
            (0, "/messages", "POST", 3, True),
            (503, "/messages", "POST", 3, False),
        ]
        row = await open_coldwar(table, "alice", {"alice": 0, "bob": 1}, goal=50)
        driver = ColdWarDriver(table, seed=5, hand_every=0, max_groups=1)
        for _ in range(32):
            if all(r.remaining == 0 for r in rules):
                status, route, method, count, drop = bursts[(len(rules) - 1) % len(bursts)]
                rules.append(fake.fail_requests(status, route, method=method, count=count, drop=drop))
            if not await driver.step():
                break
        await all_published(table)
        used = [r for r in rules if r.remaining == 0]
        assert dm_opens.hits == 4 and len(used) >= 6, [(r.method, r.route_contains, r.hits) for r in rules]
        assert {(r.method, r.drop) for r in used} >= {("POST", False), ("PATCH", False), ("POST", True)}
        announced_moves = assert_announced_once(table, row["id"])
        assert announced_moves >= 20
        await assert_actors_pinged(table)
        await table.bot.stop()
        assert_clean_output(table.bot.output())


async def test_dropped_gateway_and_invalidated_session_mid_game(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await pobeda_table(fake, tmp_path)
        game_id = game_row(table.db, table.channel.id)["id"]
        assert await play_turn(table)
        # the socket drops while the move's post is being refused: the post still goes out once
        fake.fail_requests(503, f"/channels/{table.channel.id}/messages", method="POST", count=3)
        resumed = len(fake.resumes)
        turn = asyncio.create_task(play_turn(table))
        await fake.wait_for(lambda: fake.faults_injected, timeout=20)
        await fake.disconnect_gateway(4000)
        await fake.wait_for(lambda: len(fake.resumes) > resumed and fake.connected, timeout=30)
        assert await turn
        assert await play_turn(table)  # interactions arrive over the resumed session

        identified = len(fake.identifies)
        fake.fail_requests(503, "/messages", method="POST", count=4)
        turn = asyncio.create_task(play_turn(table))
        await fake.wait_for(lambda: len(fake.faults_injected) >= 4, timeout=20)
        await fake.invalidate_session()
        await fake.wait_for(lambda: len(fake.identifies) > identified and fake.connected, timeout=30)
        assert await turn
        for _ in range(3):
            assert await play_turn(table)
        await all_published(table)
        assert assert_announced_once(table, game_id) >= 7
        await assert_actors_pinged(table)
        await table.bot.stop()
        assert_clean_output(table.bot.output())


async def test_rest_outage_in_the_middle_of_a_move(tmp_path: Path) -> None:
    """The move is committed and answered, then every REST route fails for 15 s (the issue says
    up to a minute; 15 s already outlasts several doublings of the bot's backoff, which is capped
    at 15 s, so a longer outage only repeats the same capped waits and would slow the suite)."""
    async with FakeDiscord() as fake:
        table = await pobeda_table(fake, tmp_path)
        game_id = game_row(table.db, table.channel.id)["id"]
        assert await play_turn(table)
        posts = len(turn_posts(table))
        seq = game_row(table.db, table.channel.id)["seq"]
        # the move: the next turn post is held back (two quick refusals) until the outage is on
        fake.fail_requests(503, f"/channels/{table.channel.id}/messages", method="POST", count=2)
        user = table.by_id(last_turn_post(table).mentions[0])
        r = await play_panel(fake, user, await wait_dm_panel(table, user))
        assert r.answered.startswith("✅"), r.content
        fake.rest_outage = True  # the move is committed and answered; announcing it fails from here on
        outage_start = time.monotonic()
        assert game_row(table.db, table.channel.id)["seq"] > seq
        await asyncio.sleep(7.5)
        fake.outage_drops = True  # the second half of the outage: connections dropped, no answer
        await asyncio.sleep(7.5)
        row = game_row(table.db, table.channel.id)
        assert row["published_seq"] < row["seq"] and len(turn_posts(table)) == posts  # nothing got through
        fake.clear_faults()  # Discord is back (the held-back rule may not have been used up)
        back = time.monotonic()
        await fake.wait_for(lambda: len(turn_posts(table)) > posts, timeout=30)
        recovered = next(r.at for r in fake.requests if r.at > back and r.status == 200) - back
        tail = "\n".join(line for line in table.bot.output().splitlines()[-40:] if "DEBUG" not in line)
        assert recovered <= 16.0, f"{recovered}\n{tail}"  # the backoff is capped at 15 s
        assert back - outage_start >= 15
        # the next player's DM may have gone out before this post (a refused post holds no DM for long):
        # they play from /game hand, the driver's DM look-up only takes panels after the post
        assert await play_turn(table, via_hand=True)
        assert await play_turn(table)
        await all_published(table)
        assert assert_announced_once(table, game_id) >= 4
        await assert_actors_pinged(table)
        await table.bot.stop()
        assert_clean_output(table.bot.output())


async def test_a_failing_renderer_posts_text_and_recovers(tmp_path: Path) -> None:
    fault = tmp_path / "render-faults"
    fault.write_text("0")
    async with FakeDiscord() as fake:
        table = await pobeda_table(fake, tmp_path, extra_env={"TABLETOP_TEST_RENDER_FAULTS": str(fault)})
        game_id = game_row(table.db, table.channel.id)["id"]
        assert await play_turn(table)
        before = len(fake.channel_messages(table.channel))
        fault.write_text("2")  # the next two boards cannot be drawn

        def text_posts() -> list[Any]:
            return [m for m in fake.channel_messages(table.channel)[before:] if not m.attachments and m.mentions]

        for _ in range(2):
            user = table.by_id(max(turn_posts(table) + text_posts(), key=lambda m: m.id).mentions[0])
            await turn_without_board(table, user)
        assert fault.read_text() == "0" and len(text_posts()) == 2
        assert all("<@" in m.content for m in text_posts())  # the news and who is to act, as text
        assert game_row(table.db, table.channel.id)["status"] == "running"
        assert await play_turn(table)  # the next post carries the board again
        newest = fake.channel_messages(table.channel)[-1]
        assert [a.is_png for a in newest.attachments] == [True]
        await all_published(table)
        assert assert_announced_once(table, game_id) >= 4
        await assert_actors_pinged(table)
        await table.bot.stop()
        output = table.bot.output()
        assert output.count(f"rendering the board of game {game_id} failed") == 2
        assert "injected render fault" in output


async def turn_without_board(table: Table, user: Any) -> None:
    """One move while boards fail: like ``play_turn``, but the new post has no image to wait for."""
    fake = table.fake
    seq = game_row(table.db, table.channel.id)["seq"]
    panel = await fake.wait_for(
        lambda: latest_panel(fake.dm_messages(user), table.used_panels), timeout=20)
    table.used_panels.add(panel.id)
    r = await play_panel(fake, user, panel)
    assert r.answered.startswith("✅"), r.content
    while latest_panel([r.message]) is not None:
        r = await play_panel(fake, user, r.message)
        assert r.answered.startswith("✅"), r.content
    await fake.wait_for(lambda: (row := game_row(table.db, table.channel.id))["seq"] > seq
                        and row["published_seq"] == row["seq"], timeout=20)
