"""End to end: a game whose stored state no longer loads harms no other game. Its channel is told
once, moves on it are refused with that message, ``/games`` lists it, ``/game abort`` ends it
without loading it, and the game in the next channel plays on."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    db_query,
    game_row,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
)
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

NOTICE = "cannot be loaded after an update or a fault"


async def started_pobeda(table: Table) -> None:
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await table.fake.wait_for(lambda: game_row(table.db, table.channel.id)["published_seq"] >= 0, timeout=30)


async def actor_panel(table: Table) -> tuple[Any, Any]:
    """The player to act and their ``/game hand`` panel (the one with action buttons or selects)."""
    for name in ("alice", "bob"):
        user = table.user(name)
        r = await table.fake.slash(user, table.channel, "game hand")
        if custom_ids(r.message, "tt:a:") or custom_ids(r.message, "tt:n:"):
            return user, r.message
    raise AssertionError("nobody may act")


async def test_a_broken_game_is_told_once_listed_aborted_and_harms_no_other(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"])
        other = Table(fake, table.bot, table.db, table.guild, fake.create_channel(table.guild, "more-games"),
                      table.users)
        await started_pobeda(table)
        await started_pobeda(other)
        await table.bot.kill()
        con = sqlite3.connect(table.db)
        con.execute("UPDATE games SET state = '{\"cut off' WHERE channel_id = ?", (table.channel.id,))
        con.commit()
        con.close()
        await table.bot.start(timeout=60)

        # the first use of the broken game refuses with a clear message and tells the channel once
        alice, bob = table.user("alice"), table.user("bob")
        status = await fake.slash(alice, table.channel, "game status")
        assert status.ephemeral and status.content.startswith("⛔") and "/game abort" in status.content

        def notices() -> list[Any]:
            return [m for m in fake.channel_messages(table.channel) if NOTICE in m.content]

        await fake.wait_for(notices, timeout=20)
        hand = await fake.slash(bob, table.channel, "game hand")
        assert hand.ephemeral and hand.content.startswith("⛔")
        # the controls of posts from before the fault answer the same
        old_post = [m for m in fake.channel_messages(table.channel) if custom_ids(m, "tt:p:")][-1]
        r = await fake.click(bob, old_post, custom_id=custom_ids(old_post, "tt:p:")[0])
        assert r.ephemeral and r.answered.startswith("⛔") and "cannot be loaded" in r.content
        await asyncio.sleep(1.0)
        assert len(notices()) == 1 and "/game abort" in notices()[0].content

        listed = await fake.slash(bob, table.channel, "games")
        lines = listed.content.split("\n")
        assert any(f"<#{table.channel.id}>" in line and "cannot be loaded" in line for line in lines), listed.content
        assert any(f"<#{other.channel.id}>" in line and "cannot be loaded" not in line for line in lines)

        # the other channel's game plays on
        before = game_row(table.db, other.channel.id)["seq"]
        user, panel = await actor_panel(other)
        r = await play_panel(fake, user, panel)
        assert r.answered.startswith("✅"), r.content
        assert game_row(table.db, other.channel.id)["seq"] == before + 1

        # the host ends the broken game; the channel is free again
        abort = await fake.slash(alice, table.channel, "game abort")
        assert abort.ephemeral and custom_ids(abort.message, "tt:x:"), abort.content
        done = await fake.click(alice, abort.message, custom_id=custom_ids(abort.message, "tt:x:")[0])
        assert done.answered.startswith("✅")
        assert db_query(table.db, "SELECT status FROM games WHERE channel_id = ?", (table.channel.id,)) == [("aborted",)]
        again = await fake.slash(alice, table.channel, "game new", game="pobeda")
        assert not again.ephemeral and again.embeds
        await table.bot.stop()
        output = table.bot.output()
        assert_clean_output(output)
        assert "cannot be loaded and is marked broken" in output
