"""End to end: each person's language (issue 13, "Each person's language").

Issue 13: "an en-US player with closed DMs got «я не могу написать вам в личные сообщения…», and
English players see the button «Мои карты и ход»" and "anything addressed to one user (ephemeral
replies, DMs, the closed-DM notice, buttons only they use) is in that user's Discord language; the
shared channel post uses the host's". A Russian host opens Pobeda for an English player and a
Russian player, both with DMs closed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from tests.e2e.helpers import assert_clean_output, custom_ids, make_table, open_lobby, start_lobby, turn_posts
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


def notices(fake: FakeDiscord, channel: Any, user: Any) -> list[Any]:
    return [m for m in fake.channel_messages(channel) if "/game hand" in m.content and f"<@{user.id}>" in m.content]


async def test_closed_dm_notice_and_panel_in_each_players_language(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["olga", "bob", "ivan"],
                                 locales={"olga": "ru", "bob": "en-US", "ivan": "ru"})
        bob, ivan = table.user("bob"), table.user("ivan")
        fake.close_dms(bob)
        fake.close_dms(ivan)
        lobby = await open_lobby(table, "olga", "pobeda", ["olga", "bob", "ivan"])
        await start_lobby(table, "olga", lobby)
        await fake.wait_for(lambda: turn_posts(table) and notices(fake, table.channel, bob)
                            and notices(fake, table.channel, ivan), timeout=30)

        # the notice speaks to one player: English for bob, Russian for ivan, in a Russian game
        [to_bob] = notices(fake, table.channel, bob)
        [to_ivan] = notices(fake, table.channel, ivan)
        assert "I can't send you direct messages" in to_bob.content, to_bob.content
        assert "я не могу написать вам" not in to_bob.content
        assert "я не могу написать вам в личные сообщения" in to_ivan.content, to_ivan.content
        # and it says where the choice is: the channel button, named as that player reads it
        assert "My hand & move" in to_bob.content and "Мои карты и ход" in to_ivan.content

        # the shared channel post keeps the host's language, and its one button reads in both
        post = turn_posts(table)[-1]
        button = next(c for c in post.all_components() if c.get("custom_id", "").startswith("tt:p:"))
        assert "Мои карты" in button["label"] and "My hand" in button["label"], button["label"]

        # the button answers each clicker privately, in the clicker's language
        for user, lang in ((bob, "en"), (ivan, "ru")):
            r = await fake.click(user, post, custom_id=button["custom_id"])
            assert r.ephemeral, r.content
            labels = [c.get("label") for c in r.message.all_components()]
            assert t("panel.dms_open", lang) in labels, (lang, labels)
            other = "ru" if lang == "en" else "en"
            assert t("panel.dms_open", other) not in labels
            assert custom_ids(r.message, "tt:d:")
        await table.bot.stop()
        assert_clean_output(table.bot.output())
