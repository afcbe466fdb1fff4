"""Issue 23, item 6: a display name is user text. A player named ``[Claim prize](https://evil.example)``
showed as a live link in the public result line; every name the bot repeats is escaped now
(:func:`bot.core.parse.escape`, applied by ``Session.seat_name``), so Discord shows it as typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app.delivery import result_line
from bot.games import registry
from cogs.common import status_text
from tests.platform.toy import toy_manifest

EVIL = "[Claim prize](https://evil.example)"
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


async def test_a_markdown_name_is_no_link_in_the_result_and_status(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "names.sqlite3")
    try:
        sessions = SessionManager(store)
        session = await sessions.create(guild_id=1, channel_id=42, host=UserInfo(1, EVIL), game_key="toy",
                                        options={})
        await sessions.join(session.id, UserInfo(2, "**Boris** @everyone"))
        await sessions.start(session.id, 1, seed=7)
        status = status_text(session, "en")
        session = await sessions.concede(session.id, 2)  # the evil-named host wins
        line = result_line(session, "en")
        assert r"\[Claim prize\](https\://evil.example)" in line, line
        assert r"\*\*Boris\*\* @" + "\u200beveryone" in status, status
        for text in (line, status):
            assert MASKED_LINK.search(text) is None and "https://" not in text, text
        assert session.player(1).name == EVIL  # stored as typed; escaped where it is shown
    finally:
        await store.close()
