"""End to end (issue 25): the end of a game is told to everyone who played it.

Bob resigns a Pobeda game: the channel gets a final post that mentions both players and says why
the game ended; each player gets one DM in their own language with the result, why, their rating
before → after and the replay; ``/game status`` in the channel then shows that game's result
instead of "no game here".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.i18n import t
from tests.e2e.helpers import assert_clean_output, custom_ids, game_row, make_table, open_lobby, start_lobby
from tests.e2e.test_pobeda_e2e import wait_turn_post
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


async def test_everyone_is_told_that_the_game_ended(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"alice": "ru"})
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
        assert_clean_output(table.bot.output())
        await table.bot.stop()
