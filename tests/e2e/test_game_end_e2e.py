"""End to end (issue 25): the end of a game is told to everyone who played it.

Bob resigns a Pobeda game: the channel gets a final post that mentions both players and says why
the game ended; each player gets one DM in their own language with the result, why, their rating
before → after and the replay; ``/game status`` in the channel then shows that game's result
instead of "no game here".

The end is announced by that one post (issue 25): a resignation, a passed vote and an abort each
bring exactly one channel post about the end, not the cog's own line beside the publisher's.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.core.i18n import t
from tests.e2e.helpers import (
    SharedBot,
    Table,
    assert_clean_output,
    custom_ids,
    game_row,
    open_lobby,
    shared_table,
    start_lobby,
)
from tests.e2e.test_pobeda_e2e import wait_turn_post

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]  # one bot: the module's (shared_bot)


async def test_everyone_is_told_that_the_game_ended(shared_bot: SharedBot) -> None:
    table = shared_table(shared_bot, ["alice", "bob"], locales={"alice": "ru"})
    fake = table.fake
    alice, bob = table.user("alice"), table.user("bob")
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await wait_turn_post(table, 0)
    gid = game_row(table.db, table.channel.id)["id"]

    r = await fake.slash(bob, table.channel, "game leave")
    assert r.message is not None, r.content
    done = await fake.click(bob, r.message, custom_id=custom_ids(r.message, "tt:")[0])
    assert done.content.startswith("✅"), done.content
    assert game_row(table.db, table.channel.id)["status"] == "finished"

    # the channel: one post that mentions (pings) both players and says why (the lobby is Russian)
    def final() -> object | None:
        return next((m for m in fake.channel_messages(table.channel)
                     if set(m.mentions) >= {alice.id, bob.id} and "🏁" in m.content), None)

    post = await fake.wait_for(final, timeout=30)
    assert t("end.reason.conceded", "ru", names="bob") in post.content, post.content
    assert f"/game replay id:{gid}" in post.content

    # each player: one DM with the result, why, the rating change and the replay, in their language
    def result_dm(user: object, marker: str) -> list[object]:
        return [m for m in fake.dm_messages(user) if marker in m.content]

    await fake.wait_for(lambda: result_dm(alice, "Ваш рейтинг") and result_dm(bob, "Your rating"), timeout=30)
    for user, lang, marker in ((alice, "ru", "Ваш рейтинг"), (bob, "en", "Your rating")):
        [dm] = result_dm(user, marker)
        assert t("end.reason.conceded", lang, names="bob") in dm.content, dm.content
        assert f"/game replay id:{gid}" in dm.content and " → " in dm.content
        assert f"/channels/{table.guild.id}/{table.channel.id}/{post.id}" in dm.content
    await asyncio.sleep(2)  # nothing more comes: one DM each
    assert len(result_dm(alice, "Ваш рейтинг")) == 1 and len(result_dm(bob, "Your rating")) == 1

    # /game status right after the end: the result, not "no game here"
    r = await fake.slash(bob, table.channel, "game status")
    assert t("err.no_game_here", "en") not in r.content
    assert t("end.status.last", "en") in r.content and f"#{gid}" in r.content
    assert t("end.reason.conceded", "en", names="bob") in r.content and f"/game replay id:{gid}" in r.content
    assert_clean_output(table.output())
    await table.close()


async def started_pobeda(shared_bot: SharedBot) -> tuple[Table, int]:
    table = shared_table(shared_bot, ["alice", "bob"], locales={"alice": "ru"})
    lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await wait_turn_post(table, 0)
    return table, game_row(table.db, table.channel.id)["id"]


async def one_end_post(table: Table, before: int, reason: str) -> object:
    """The channel's posts since ``before`` (a count of messages): exactly one, the end post, which
    mentions every player and says why; nothing else follows it."""
    fake = table.fake
    alice, bob = table.user("alice"), table.user("bob")

    def end_posts() -> list[object]:
        return [m for m in fake.channel_messages(table.channel) if reason in m.content]

    await fake.wait_for(end_posts, timeout=30)
    await fake.wait_for(lambda: [m for m in fake.dm_messages(bob) if "Your rating" in m.content
                                 or "does not change ratings" in m.content], timeout=30)
    await asyncio.sleep(2)  # whatever else would come has come
    after = fake.channel_messages(table.channel)[before:]
    assert len(after) == 1, [m.content for m in after]
    [post] = after
    assert post.content.startswith("🏁") and reason in post.content, post.content
    assert set(post.mentions) >= {alice.id, bob.id}
    assert sum("🏁" in m.content for m in fake.channel_messages(table.channel)) == 1
    return post


async def test_a_resignation_brings_one_end_post(shared_bot: SharedBot) -> None:
    table, gid = await started_pobeda(shared_bot)
    fake = table.fake
    bob = table.user("bob")
    r = await fake.slash(bob, table.channel, "game leave")
    assert r.message is not None, r.content
    before = len(fake.channel_messages(table.channel))
    done = await fake.click(bob, r.message, custom_id=custom_ids(r.message, "tt:")[0])
    assert done.content.startswith("✅"), done.content
    post = await one_end_post(table, before, t("end.reason.conceded", "ru", names="bob"))
    assert t("result.win", "ru", names="alice") in post.content  # the lobby is Russian
    assert_clean_output(table.output())
    await table.close()


async def test_a_passed_vote_to_end_brings_one_end_post(shared_bot: SharedBot) -> None:
    table, gid = await started_pobeda(shared_bot)
    fake = table.fake
    alice, bob = table.user("alice"), table.user("bob")
    r = await fake.slash(alice, table.channel, "game vote", kind="end")
    assert not r.ephemeral and r.message is not None, r.content
    agree = next(c for c in custom_ids(r.message, "tl:v:") if c.endswith(":end"))
    before = len(fake.channel_messages(table.channel))
    await fake.click(bob, r.message, custom_id=agree)
    await one_end_post(table, before, t("end.reason.voted_end", "ru"))
    assert game_row(table.db, table.channel.id)["status"] == "aborted"
    assert_clean_output(table.output())
    await table.close()


async def test_an_abort_brings_one_end_post(shared_bot: SharedBot) -> None:
    table, gid = await started_pobeda(shared_bot)
    fake = table.fake
    alice = table.user("alice")
    r = await fake.slash(alice, table.channel, "game abort")  # the first round: the host may
    assert r.message is not None and custom_ids(r.message, "tt:x:"), r.content
    before = len(fake.channel_messages(table.channel))
    done = await fake.click(alice, r.message, custom_id=custom_ids(r.message, "tt:x:")[0])
    assert done.content.startswith("✅"), done.content
    await one_end_post(table, before, t("end.reason.aborted", "ru", who="alice"))
    assert_clean_output(table.output())
    await table.close()
