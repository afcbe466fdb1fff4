"""End to end: every interaction is answered within Discord's three seconds, even when the move's
commit has to wait; forwarded moderator controls are refused outside the game's channel; controls
whose tag no longer matches answer "no longer available".

The fake Discord drops callbacks later than 3 s ("Unknown interaction"), as Discord does.
"""

from __future__ import annotations

import asyncio
import copy
import sqlite3

import pytest

from bot.core.i18n import t
from tests.e2e.helpers import (
    SharedBot,
    assert_clean_output,
    custom_ids,
    game_row,
    last_turn_post,
    open_lobby,
    shared_table,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.fake_discord import MEMBER_PERMISSIONS

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]  # one bot: the module's (shared_bot)

HOLD = 3.6
"""Seconds the test holds SQLite's write lock: past Discord's 3 s, within the bot's 5 s busy timeout."""


async def test_a_move_whose_commit_waits_is_deferred_and_then_answered(shared_bot: SharedBot) -> None:
    table = shared_table(shared_bot, ["alice", "bob"])
    fake = table.fake
    assert fake.callback_deadline == 3.0
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=20)
    actor = table.by_id(last_turn_post(table).mentions[0])
    panel = await wait_dm_panel(table, actor)
    seq_before = game_row(table.db, table.channel.id)["seq"]
    loop = asyncio.get_running_loop()
    for _ in range(6):
        # another writer holds the database: a step that commits the move must wait for it
        con = sqlite3.connect(table.db, timeout=0, isolation_level=None)
        con.execute("BEGIN IMMEDIATE")

        def release(con: sqlite3.Connection = con) -> None:
            if con.in_transaction:
                con.execute("COMMIT")
            con.close()

        timer = loop.call_later(HOLD, release)
        buttons = custom_ids(panel, "tt:a:")
        if buttons:
            r = await fake.click(actor, panel, custom_id=buttons[0], timeout=15)
        else:  # a nested select: choosing a branch commits nothing, unless it is the only action
            select = next(c for c in panel.all_components() if c.get("custom_id", "").startswith("tt:n:"))
            r = await fake.select(actor, panel, values=[select["options"][0]["value"]],
                                  custom_id=select["custom_id"], timeout=15)
        if r.callback_type == 7:  # answered at once: a step that needed no commit
            timer.cancel()
            release()
            assert game_row(table.db, table.channel.id)["seq"] == seq_before
            panel = r.message
            continue
        break
    # answered in time by a deferred update, then the panel is edited once the move is stored
    assert r.callback_type == 6 and r.callback_latency is not None and r.callback_latency < 3.0
    await fake.wait_for(lambda: r.completed.is_set(), timeout=15)
    assert r.message is not None and r.message.content.startswith("✅"), r.content
    assert game_row(table.db, table.channel.id)["seq"] == seq_before + 1
    assert not [e for e in fake.errors_returned if e[1].get("code") == 10062]  # no "Unknown interaction"
    await table.close()
    assert_clean_output(table.output())


async def test_forwarded_moderator_controls_are_refused_elsewhere(shared_bot: SharedBot) -> None:
    """A moderator of another server (every fake member has all permissions in its own server)
    who gets a forwarded copy of a lobby or an abort confirmation cannot use it there."""
    table = shared_table(shared_bot, ["alice", "bob"])
    fake = table.fake
    other_guild = fake.create_guild("Elsewhere")
    elsewhere = fake.create_channel(other_guild, "general")
    mallory = fake.create_user("mallory")
    fake.add_member(other_guild, mallory)
    fake.add_member(other_guild, table.user("alice"))
    wrong_channel = "⛔ " + t("err.wrong_channel", "en")

    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    copied = fake.user_message(mallory, elsewhere, "look at this")
    copied.components = copy.deepcopy(lobby.components)
    cancel = next(c for c in custom_ids(copied, "tt:l:") if c.endswith(":cancel"))
    r = await fake.click(mallory, copied, custom_id=cancel)
    assert r.ephemeral and r.content == wrong_channel
    assert game_row(table.db, table.channel.id)["status"] == "lobby"

    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=20)
    abort = await fake.slash(table.user("alice"), table.channel, "game abort")
    confirm = custom_ids(abort.message, "tt:x:")[0]
    forwarded = fake.user_message(mallory, elsewhere, "fwd")
    forwarded.components = copy.deepcopy(abort.message.components)
    for who in (mallory, table.user("alice")):  # not even the host, from another channel
        r = await fake.click(who, forwarded, custom_id=confirm)
        assert r.ephemeral and r.content == wrong_channel, r.content
    assert game_row(table.db, table.channel.id)["status"] == "running"
    # in the game's own channel the host's confirmation works
    done = await fake.click(table.user("alice"), abort.message, custom_id=confirm)
    assert done.content.startswith("✅")
    assert game_row(table.db, table.channel.id)["status"] == "aborted"
    await table.close()
    assert_clean_output(table.output())


async def test_moderator_commands_and_controls_refuse_other_players(shared_bot: SharedBot) -> None:
    """In a server of ordinary members, ``/game abort|admin|pause|resume`` and the lobby's Cancel refuse
    a player who is neither the host nor a moderator, privately and in their language, and change
    nothing; with no game in the channel the commands say so, as to anyone; the host is obeyed."""
    table = shared_table(shared_bot, ["alice", "bob"], locales={"bob": "ru"})
    fake = table.fake
    everyone = table.guild.everyone_permissions  # the module's guild: given back after the test
    table.guild.everyone_permissions = MEMBER_PERMISSIONS  # no one manages the channel: only the host moderates
    try:
        bob = table.user("bob")
        r = await fake.slash(bob, table.channel, "game abort")
        assert r.ephemeral and r.content == "ℹ️ " + t("err.no_game_here", "ru"), r.content
        r = await fake.slash(bob, table.channel, "game pause")
        assert r.ephemeral and r.content == "⛔ " + t("err.no_game_here", "ru"), r.content

        refusal = "⛔ " + t("err.moderator_only", "ru")
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
        cancel = next(c for c in custom_ids(lobby, "tt:l:") if c.endswith(":cancel"))
        r = await fake.click(bob, lobby, custom_id=cancel)
        assert r.ephemeral and r.content == refusal, r.content
        assert game_row(table.db, table.channel.id)["status"] == "lobby"

        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        for command in ("game abort", "game admin", "game pause", "game resume"):
            r = await fake.slash(bob, table.channel, command)
            assert r.ephemeral and r.content == refusal, (command, r.content)
            assert not r.message.components, command
        assert game_row(table.db, table.channel.id)["status"] == "running"
        status = await fake.slash(table.user("alice"), table.channel, "game status")
        assert "⏸" not in status.content  # bob's /game pause changed nothing
        r = await fake.slash(table.user("alice"), table.channel, "game pause")
        assert r.ephemeral and r.content == "✅ " + t("lifecycle.paused_ok", "en"), r.content
        status = await fake.slash(table.user("alice"), table.channel, "game status")
        assert "⏸" in status.content
    finally:
        table.guild.everyone_permissions = everyone
    await table.close()
    assert_clean_output(table.output())


async def test_a_control_whose_tag_matches_nothing_is_no_longer_available(shared_bot: SharedBot) -> None:
    """A button from before the keyed tags (10 hex digits) or with a tampered tag answers the
    clear "no longer available" and changes nothing."""
    table = shared_table(shared_bot, ["alice", "bob"])
    fake = table.fake
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=20)
    actor = table.by_id(last_turn_post(table).mentions[0])
    panel = await wait_dm_panel(table, actor)
    real = (custom_ids(panel, "tt:a:") or custom_ids(panel, "tt:n:"))[0]
    gid, seat, stamp = real.split(":")[2:5]
    seq = game_row(table.db, table.channel.id)["seq"]
    stale = "⛔ " + t("err.stale", "en")
    for forged in (f"tt:a:{gid}:{seat}:{stamp}:0123456789", f"tt:a:{gid}:{seat}:{stamp}:" + "f" * 16,
                   f"tt:n:{gid}:{seat}:{stamp}:-:0", f"tt:b:{gid}:{seat}:{stamp}:0.1"):
        old = fake.user_message(actor, table.channel, "old panel")
        old.components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x",
                                                      "custom_id": forged}]}]
        r = await fake.click(actor, old, custom_id=forged)
        assert r.ephemeral and r.content == stale, (forged, r.content)
    assert game_row(table.db, table.channel.id)["seq"] == seq
    await table.close()
    assert_clean_output(table.output())


async def test_a_slash_command_that_waits_is_deferred_publicly_and_filled_in(shared_bot: SharedBot) -> None:
    """``/game new`` writes the lobby row; while the database is busy the command is deferred (a
    public "thinking…", since the lobby is public) and the lobby then fills it in."""
    table = shared_table(shared_bot, ["alice", "bob"])
    fake = table.fake
    con = sqlite3.connect(table.db, timeout=0, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(HOLD, lambda: (con.execute("COMMIT"), con.close()))
    r = await fake.slash(table.user("alice"), table.channel, "game new", game="pobeda", timeout=15)
    assert r.callback_type == 5 and r.callback_latency is not None and r.callback_latency < 3.0
    assert not r.ephemeral and r.embeds
    assert r.embeds[0]["title"] == t("lobby.title", "en", game=t("pobeda.name", "en"))
    # the lobby works from the message that filled the deferral
    joined = await fake.click(table.user("bob"), r.message, custom_id=custom_ids(r.message, "tt:l:")[0])
    assert f"<@{table.user('bob').id}>" in joined.text
    assert game_row(table.db, table.channel.id)["status"] == "lobby"
    await table.close()
    assert_clean_output(table.output())
