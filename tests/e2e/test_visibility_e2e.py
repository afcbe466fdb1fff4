"""End to end (issue 23, item 1): nobody can read another channel's game.

A server where @everyone is an ordinary member (the fake models permission overwrites and private
threads). A Pobeda game is played in a private channel, and another in a private thread of a public
channel. A member who cannot see the game's channel can neither replay it (by id, from a public
channel), nor page its replay, nor read its status or log, nor find it in ``/games``: each refusal is
private and in their language, and nothing of the game reaches a channel they see. Those who can see
the channel still can; their replay is public only in the game's own channel, and private elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    db_query,
    open_lobby,
    start_bot,
    start_lobby,
)
from tests.e2e.test_pobeda_e2e import play_turn, wait_turn_post
from tests.fake_discord import MEMBER_PERMISSIONS, FakeDiscord
from tests.fake_discord.models import MANAGE_THREADS

pytestmark = pytest.mark.e2e


async def world(fake: FakeDiscord, tmp_path: Path) -> tuple[Any, dict[str, Any], Any]:
    guild = fake.create_guild("Club", everyone_permissions=MEMBER_PERMISSIONS)
    public = fake.create_channel(guild, "public")
    users = {name: fake.create_user(name, locale="ru" if name == "carol" else "en-US")
             for name in ("alice", "bob", "carol", "dave")}
    thread_mods = fake.create_role(guild, "thread mods", MEMBER_PERMISSIONS | MANAGE_THREADS)
    for name, user in users.items():
        fake.add_member(guild, user, roles=[thread_mods] if name == "dave" else [])
    return guild, users, public


async def play_and_draw(table: Table, moves: int = 0) -> int:
    """alice and bob open a Pobeda game in the table's channel and make ``moves`` moves."""
    fake = table.fake
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    gid = int(db_query(table.db, "SELECT id FROM games WHERE channel_id = ?", (table.channel.id,))[0][0])
    await fake.wait_for(lambda: db_query(table.db, "SELECT status FROM games WHERE id = ?", (gid,))[0][0]
                        == "running", timeout=10)
    await wait_turn_post(table, 0)
    for _ in range(moves):
        assert await play_turn(table)
    return gid


async def draw(table: Table, gid: int) -> None:
    fake = table.fake
    r = await fake.slash(table.user("alice"), table.channel, "game vote", kind="draw")
    agree = next(c for c in custom_ids(r.message, "tl:v:") if c.endswith(":draw"))
    await fake.click(table.user("bob"), r.message, custom_id=agree)
    await fake.wait_for(lambda: db_query(table.db, "SELECT status FROM games WHERE id = ?", (gid,))[0][0]
                        == "finished", timeout=10)


def game_texts(fake: FakeDiscord, channel: Any, gid: int) -> list[str]:
    """What of game ``gid`` anyone reading ``channel`` sees (its public messages)."""
    needles = (f"#{gid}", f"№{gid}", t("pobeda.name", "en"), t("pobeda.name", "ru"))
    return [m.text for m in fake.channel_messages(channel) if any(n in m.text for n in needles)]


async def refused(fake: FakeDiscord, user: Any, channel: Any, command: str, expected: str, **options: Any) -> None:
    r = await fake.slash(user, channel, command, **options)
    assert r.ephemeral and r.content == expected, (command, r.content)
    assert all(m.ephemeral for m in r.messages), command


async def test_a_private_channels_game_is_not_shown_to_who_cannot_see_it(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild, users, public = await world(fake, tmp_path)
        alice, bob, carol = users["alice"], users["bob"], users["carol"]
        secret = fake.create_private_channel(guild, "secret", members=[alice, bob])
        assert not fake.can_view(carol, secret) and fake.can_view(bob, secret)
        bot = await start_bot(fake, tmp_path / "bot.sqlite3", [guild.id])
        table = Table(fake, bot, tmp_path / "bot.sqlite3", guild, secret, users)
        gid = await play_and_draw(table, moves=12)  # enough moves for a replay of several pages
        hidden_ru = t("visibility.no_such_game", "ru", id=gid)

        # while it runs: not listed for carol, listed for alice; its status and log are not carol's to read
        r = await fake.slash(carol, public, "games")
        assert r.ephemeral and f"#{gid}" not in r.content and r.content == "ℹ️ " + t("games.none", "ru")
        r = await fake.slash(alice, public, "games")
        assert f"#{gid}" in r.content
        await refused(fake, carol, public, "game replay", hidden_ru, id=gid)
        await refused(fake, carol, public, "game status", "ℹ️ " + t("err.no_game_here", "ru"))
        fake.enforce_view = False  # a client still showing the channel (say, just after losing access)
        await refused(fake, carol, secret, "game status", t("visibility.channel_hidden", "ru"))
        await refused(fake, carol, secret, "game log", t("visibility.channel_hidden", "ru"))
        fake.enforce_view = True
        r = await fake.slash(bob, secret, "game status")
        assert r.ephemeral and t("pobeda.name", "en") in r.content
        r = await fake.slash(bob, secret, "game log")
        assert r.ephemeral and r.content != t("visibility.channel_hidden", "en")

        await draw(table, gid)
        # carol, from the public channel: the replay is refused privately, in Russian
        await refused(fake, carol, public, "game replay", hidden_ru, id=gid)
        # alice sees the game, but not everyone in the public channel does: her replay is private
        r = await fake.slash(alice, public, "game replay", id=gid)
        assert r.ephemeral and r.content == t("visibility.replay_private", "en", id=gid)
        title = t("replay.title", "en", game=t("pobeda.name", "en"), id=gid, page=1, pages=0).split("(")[0].strip()
        page = await fake.wait_for(lambda: next((m for m in r.followups if m.content.startswith(title)), None))
        assert page.ephemeral and t("replay.start", "en") in page.content
        anim = await fake.wait_for(lambda: next((m for m in r.followups if m.attachments), None), timeout=60)
        assert anim.ephemeral
        assert game_texts(fake, public, gid) == []  # nothing of the game in the public channel

        # in the game's own channel the replay is public, as before
        r = await fake.slash(bob, secret, "game replay")
        assert not r.ephemeral and r.content.startswith(title)
        await fake.wait_for(lambda: next((m for m in r.followups if m.attachments), None), timeout=60)
        # its page buttons answer only those who see the channel
        buttons = custom_ids(r.message, "ttr:")
        assert buttons, "the replay should have more than one page"
        before = r.message.content
        fake.enforce_view = False
        clicked = await fake.click(carol, r.message, custom_id=buttons[0])
        assert clicked.ephemeral and clicked.content == hidden_ru
        assert fake.message(r.message.id).content == before
        fake.enforce_view = True
        clicked = await fake.click(alice, r.message, custom_id=buttons[0])
        assert clicked.message.content != before and clicked.message.content.startswith(title)
        assert game_texts(fake, public, gid) == []

        await fake.wait_for(lambda: "ready as" in bot.output(), timeout=10)
        await bot.stop()
        assert_clean_output(bot.output())


async def test_a_private_threads_game_is_seen_only_by_its_members_and_thread_moderators(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild, users, public = await world(fake, tmp_path)
        alice, bob, carol, dave = users["alice"], users["bob"], users["carol"], users["dave"]
        thread = fake.create_thread(public, "our game", owner=alice, private=True, members=[bob])
        assert fake.can_view(carol, public) and not fake.can_view(carol, thread) and fake.can_view(dave, thread)
        bot = await start_bot(fake, tmp_path / "bot.sqlite3", [guild.id])
        table = Table(fake, bot, tmp_path / "bot.sqlite3", guild, thread, users)
        gid = await play_and_draw(table)
        hidden_ru = t("visibility.no_such_game", "ru", id=gid)

        r = await fake.slash(carol, public, "games")
        assert f"#{gid}" not in r.content
        r = await fake.slash(dave, public, "games")  # Manage Threads sees private threads
        assert f"#{gid}" in r.content
        fake.enforce_view = False
        await refused(fake, carol, thread, "game status", t("visibility.channel_hidden", "ru"))
        fake.enforce_view = True

        await draw(table, gid)
        await refused(fake, carol, public, "game replay", hidden_ru, id=gid)
        # a member of the thread, in its (public) parent: privately
        r = await fake.slash(bob, public, "game replay", id=gid)
        assert r.ephemeral and r.content == t("visibility.replay_private", "en", id=gid)
        r = await fake.slash(dave, public, "game replay", id=gid)
        assert r.ephemeral and r.content == t("visibility.replay_private", "en", id=gid)
        await fake.wait_for(lambda: next((m for m in r.followups if m.attachments), None), timeout=60)
        assert game_texts(fake, public, gid) == []
        # once carol joins the thread, she sees it; in the thread itself the replay is public
        fake.add_thread_member(thread, carol)
        r = await fake.slash(carol, thread, "game replay", id=gid)
        assert not r.ephemeral and r.content.startswith(
            t("replay.title", "ru", game=t("pobeda.name", "ru"), id=gid, page=1, pages=0).split("(")[0].strip())
        await fake.wait_for(lambda: next((m for m in r.followups if m.attachments), None), timeout=60)
        assert game_texts(fake, public, gid) == []

        await fake.wait_for(lambda: "ready as" in bot.output(), timeout=10)
        await bot.stop()
        assert_clean_output(bot.output())
