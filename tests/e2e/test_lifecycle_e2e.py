"""End to end (issue 12): a game with short deadlines whose reminders arrive (channel mention and
opt-in DM) and whose clock is paused and resumed; a player catching up after two other moves; a
follower getting the public posts by DM; /mygames from a DM; a draw agreed by vote."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from bot.core.i18n import t
from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    db_query,
    game_row,
    last_turn_post,
    make_table,
    open_lobby,
    start_lobby,
    turn_posts,
)
from tests.e2e.test_pobeda_e2e import play_turn
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

HALF = "half of your time for this move is gone"
FINAL = "your time for this move is almost up"


def channel_texts(table: Table, needle: str) -> list[object]:
    return [m for m in table.fake.channel_messages(table.channel) if needle in m.content]


def dms_with(table: Table, user: object, needle: str) -> list[object]:
    return [m for m in table.fake.dm_messages(user) if needle in m.content]


async def test_reminders_pause_and_resume(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        # an 18 s deadline is under the 30 s floor (issue 23): lowered for this test
        table = await make_table(fake, tmp_path, ["alice", "bob"], extra_env={"TABLETOP_DEADLINE_MIN_S": "1"})
        for name in ("alice", "bob"):  # both opt in to reminders by DM
            r = await fake.slash(table.user(name), table.channel, "game remind", mode="on")
            assert r.ephemeral and t("lifecycle.remind_dm.now_on", "en") in r.content
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], deadline_hours=0.005)  # 18 s
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        actor_id = last_turn_post(table).mentions[0]
        actor = table.by_id(actor_id)
        assert "<t:" in last_turn_post(table).content
        # the DM panel shows the deadline as a Discord timestamp
        panel = await fake.wait_for(lambda: [m for m in fake.dm_messages(actor) if custom_ids(m, "tt:")], timeout=20)
        assert "⏰ Deadline: <t:" in panel[-1].content

        # half time (9 s): the channel mentions exactly the player to act, and a DM comes too
        half = await fake.wait_for(lambda: channel_texts(table, HALF), timeout=20)
        assert half[0].mentions == [actor_id]
        await fake.wait_for(lambda: dms_with(table, actor, HALF), timeout=10)

        # the host pauses the clock: the status says so, and nothing times out meanwhile
        gid = game_row(table.db, table.channel.id)["id"]
        ((due_before,),) = db_query(table.db, "SELECT due_at FROM deadlines WHERE game_id = ?", (gid,))
        r = await fake.slash(table.user("alice"), table.channel, "game pause")
        paused_at = time.time()
        assert r.ephemeral and t("lifecycle.paused_ok", "en") in r.content
        await fake.wait_for(lambda: channel_texts(table, "paused the game's clock"), timeout=10)
        status = await fake.slash(table.user("bob"), table.channel, "game status")
        assert "⏸ Clock paused" in status.content
        await asyncio.sleep(max(0.0, due_before - time.time()) + 3)  # past the original deadline
        assert game_row(table.db, table.channel.id)["seq"] == 0
        assert not channel_texts(table, FINAL)

        r = await fake.slash(table.user("alice"), table.channel, "game resume")
        resumed_at = time.time()
        assert t("lifecycle.resumed_ok", "en") in r.content
        notice = await fake.wait_for(lambda: channel_texts(table, "restarted the game's clock"), timeout=10)
        assert "<t:" in notice[0].content
        ((due_after,),) = db_query(table.db, "SELECT due_at FROM deadlines WHERE game_id = ?", (gid,))
        # moved by the paused time (measured here around the two commands)
        assert resumed_at - paused_at - 2 <= due_after - due_before <= resumed_at - paused_at + 2
        status = await fake.slash(table.user("bob"), table.channel, "game status")
        assert "⏸" not in status.content and f"<t:{int(due_after)}:R>" in status.content

        # shortly before the new end: the last reminder, in the channel and by DM
        final = await fake.wait_for(lambda: channel_texts(table, FINAL), timeout=25)
        assert final[0].mentions == [actor_id]
        await fake.wait_for(lambda: dms_with(table, actor, FINAL), timeout=10)
        assert len(channel_texts(table, HALF)) == 1  # each reminder once
        # a fast test may end before discord.py's delayed on_ready (2 s after the guilds): let it run
        await fake.wait_for(lambda: "ready as" in table.bot.output(), timeout=10)
        await table.bot.stop()
        assert_clean_output(table.bot.output())


async def test_catch_up_follow_mygames_and_a_draw_by_vote(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob", "carol", "eve"])
        # an older lobby in another channel: listed after the running game where it is one's turn
        other = fake.create_channel(table.guild, "more-games")
        r = await fake.slash(table.user("alice"), other, "game new", game="pobeda")
        assert not r.ephemeral
        for name in ("bob", "carol"):
            await fake.click(table.user(name), r.message, custom_id=custom_ids(r.message, "tt:l:")[0])

        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob", "carol"])
        followed = await fake.slash(table.user("eve"), table.channel, "game follow")
        assert followed.ephemeral and t("lifecycle.follow.on", "en") in followed.content
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        first = table.by_id(last_turn_post(table).mentions[0])
        for _ in range(3):  # every player moves once
            assert await play_turn(table)
        # the first player's turn again: their DM panel starts with what the two others did
        assert last_turn_post(table).mentions == [first.id]
        post_id = last_turn_post(table).id
        panel = await fake.wait_for(
            lambda: [m for m in fake.dm_messages(first) if m.id > post_id and custom_ids(m, "tt:")], timeout=20)
        text = panel[-1].content
        assert text.startswith("📰 **Since your last move:**"), text
        summary = text.split("\n\n")[0].split("\n")[1:]
        others = sorted(n for n in ("alice", "bob", "carol") if table.user(n).id != first.id)
        assert sorted(line.split(":")[0].removeprefix("• ") for line in summary) == others
        assert all(": 1 move" in line for line in summary)

        # the follower got the public posts by DM (one per turn), never a panel
        follower_dms = await fake.wait_for(
            lambda: (lambda ms: ms if len(ms) >= 3 else None)(dms_with(table, table.user("eve"), "👁")), timeout=20)
        link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}"
        assert all(link in m.content and not custom_ids(m, "tt:") for m in follower_dms)
        assert all(any(a.is_png for a in m.attachments) for m in follower_dms)  # with the board
        # the same public text as the channel's latest turn post (its last line: whose turn it is)
        whose = last_turn_post(table).content.split("\n")[-1]
        await fake.wait_for(lambda: [m for m in dms_with(table, table.user("eve"), "👁")
                                     if m.content.split("\n")[-1] == whose], timeout=10)

        # /mygames in a DM: the running game where it is the caller's turn comes first
        dm = fake.open_dm_channel(first)
        mine = await fake.slash(first, dm, "mygames")
        lines = mine.content.split("\n")
        assert lines[0] == t("lifecycle.mygames.title", "en")
        gid = game_row(table.db, table.channel.id)["id"]
        name = t("pobeda.name", "en")
        assert lines[1] == f"▶️ **{name}** #{gid} — **your turn**" and link in lines[2]  # no deadline set
        assert "lobby" in lines[3]
        waiting = await fake.slash(table.user(others[0]), fake.open_dm_channel(table.user(others[0])), "mygames")
        assert f"#{gid} — waiting for " in waiting.content

        # a draw by vote: one proposes, the two others agree by button
        proposer = first
        r = await fake.slash(proposer, table.channel, "game vote", kind="draw")
        assert not r.ephemeral and "A draw is proposed. 1 of 3 agree" in r.content
        vote_message = r.message
        for name in others:
            agree = next(c for c in custom_ids(vote_message, "tl:v:") if c.endswith(":draw"))
            clicked = await fake.click(table.user(name), vote_message, custom_id=agree)
            vote_message = clicked.message
        # the one end post says why (the lobby's language): no separate "all agreed" line beside it
        await fake.wait_for(lambda: channel_texts(table, t("end.reason.voted_draw", "en")), timeout=10)
        row = db_query(table.db, "SELECT status, settings FROM games WHERE id = ?", (gid,))[0]
        settings = json.loads(row[1])
        assert row[0] == "finished" and settings["outcome"]["draw"] is True
        assert settings["ending"] == "voted_draw" and len(settings["departures"]) == 3
        after = await fake.slash(first, dm, "mygames")
        assert f"#{gid} " not in after.content and "lobby" in after.content
        # a fast test may end before discord.py's delayed on_ready (2 s after the guilds): let it run
        await fake.wait_for(lambda: "ready as" in table.bot.output(), timeout=10)
        await table.bot.stop()
        assert_clean_output(table.bot.output())
