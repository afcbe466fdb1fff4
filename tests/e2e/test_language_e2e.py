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

from bot.core.i18n import t
from tests.e2e.helpers import actor_ids, assert_clean_output, make_table, open_lobby, start_lobby, turn_posts
from tests.e2e.test_pobeda_e2e import play_turn, wait_turn_post
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
        await wait_turn_post(table, 0)

        # the shared channel post keeps the host's language, and its one button reads in both
        post = turn_posts(table)[-1]
        assert "Ход:" in post.content, post.content
        button = next(c for c in post.all_components() if c.get("custom_id", "").startswith("tt:p:"))
        assert "Мои карты" in button["label"] and "My hand" in button["label"], button["label"]

        checked: set[int] = set()
        for _ in range(8):  # seats are drawn at random: play on until both closed-DM players were asked
            actor = table.by_id(actor_ids(table)[0])
            if actor is table.user("olga"):
                assert await play_turn(table)
                continue
            lang = "en" if actor is bob else "ru"
            # the notice speaks to one player, in their language, and says where the choice is
            [notice] = await fake.wait_for(lambda a=actor: notices(fake, table.channel, a), timeout=20)
            if lang == "en":
                assert "I can't send you direct messages" in notice.content, notice.content
                assert "я не могу" not in notice.content and "My hand & move" in notice.content
            else:
                assert "я не могу написать вам в личные сообщения" in notice.content, notice.content
                assert "I can't" not in notice.content and "Мои карты и ход" in notice.content
            # the shared button answers the clicker privately, in the clicker's language
            post = turn_posts(table)[-1]
            button = next(c for c in post.all_components() if c.get("custom_id", "").startswith("tt:p:"))
            r = await fake.click(actor, post, custom_id=button["custom_id"])
            assert r.ephemeral, r.content
            labels = [c.get("label") for c in r.message.all_components()]
            other = "ru" if lang == "en" else "en"
            assert t("panel.dms_open", lang) in labels and t("panel.dms_open", other) not in labels, labels
            checked.add(actor.id)
            if checked == {bob.id, ivan.id}:
                break
            assert await play_turn(table, via_hand=True)
        assert checked == {bob.id, ivan.id}
        assert len(notices(fake, table.channel, bob)) == len(notices(fake, table.channel, ivan)) == 1
        await table.bot.stop()
        assert_clean_output(table.bot.output())
