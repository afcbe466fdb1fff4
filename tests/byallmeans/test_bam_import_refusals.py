"""``/bam deck import`` where there is no lobby says so (issue 25, item 7), instead of a deck-size error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from tests.slash import StandInInteraction


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "⛔ There is no By All Means lobby in this channel: open one with /game new, then import your deck."),
    ("ru", "⛔ В этом канале нет лобби «Все средства хороши»: откройте его командой /game new, потом импортируйте "
           "колоду."),
])
async def test_import_with_no_lobby_says_there_is_no_lobby(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          locale: str, expected: str) -> None:
    import bot.games.byallmeans.cog
    from bot.games.byallmeans.cog import ByAllMeansCog

    answers: list[str] = []

    async def reply(interaction: Any, content: str, **kwargs: Any) -> None:
        answers.append(content)

    monkeypatch.setattr(bot.games.byallmeans.cog, "reply", reply)
    store = await Store.open(tmp_path / "b.sqlite3")
    try:
        class Bot:
            sessions = SessionManager(store)

        command: Any = ByAllMeansCog.import_.callback
        await command(ByAllMeansCog(Bot()), StandInInteraction(5, 1, locale), "T01 T02")  # two cards: no legal deck either
        assert answers == [expected]
        # in a running game's channel: the lobby is closed, whatever the list
        lobby = await Bot.sessions.create(guild_id=1, channel_id=6, host=UserInfo(1, "a"), game_key="byallmeans",
                                          options={})
        await Bot.sessions.join(lobby.id, UserInfo(2, "b"))
        await Bot.sessions.start(lobby.id, 1, seed=3)
        await command(ByAllMeansCog(Bot()), StandInInteraction(6, 1, "en-US"), "T01 T02")
        assert answers[-1] == "⛔ The lobby is closed."
    finally:
        await store.close()
