"""The /stats and /leaderboard answers (cogs/stats.py) on stand-in interactions: text for a short table,
an image for a long one, in the caller's language."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image

from bot.core.i18n import t
from bot.core.stats import Stats
from bot.core.store import Store
from cogs.stats import StatsCog, duration

GUILD = 77


class Response:
    def __init__(self, sent: list[tuple[str, dict[str, Any]]]) -> None:
        self.sent = sent

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str, *, ephemeral: bool = False, **kwargs: Any) -> None:
        self.sent.append((content, {"ephemeral": ephemeral, **kwargs}))


def interaction(user_id: int, locale: discord.Locale) -> Any:
    sent: list[tuple[str, dict[str, Any]]] = []
    return SimpleNamespace(user=SimpleNamespace(id=user_id, display_name=f"user{user_id}"), locale=locale,
                           guild_id=GUILD, channel_id=1, response=Response(sent), sent=sent, extras={})


@pytest.fixture
async def cog(tmp_path: Path):
    store = await Store.open(tmp_path / "c.sqlite3")
    stats = Stats(store)
    await stats.setup()
    yield StatsCog(SimpleNamespace(stats=stats, store=store)), store  # type: ignore[arg-type]
    await store.close()


async def rated_players(store: Store, count: int) -> None:
    async with store.transaction() as db:
        for user in range(1, count + 1):
            mu, sigma = 20.0 + user, 5.0
            await db.execute(
                "INSERT INTO stat_users (guild_id, user_id, game, name, played, won, abandoned, aborted, timed_moves,"
                " think_s, rated, mu, sigma, ordinal) VALUES (?, ?, 'pobeda', ?, 3, 1, 0, 0, 30, 900.0, 3, ?, ?, ?)",
                (GUILD, user, f"Игрок {user}", mu, sigma, mu - 3 * sigma))


async def test_a_short_leaderboard_is_text_in_the_caller_language(cog) -> None:
    stats_cog, store = cog
    await rated_players(store, 3)
    caller = interaction(2, discord.Locale.russian)
    await stats_cog.send_leaderboard(caller, GUILD, "pobeda")
    [(content, kwargs)] = caller.sent
    assert "file" not in kwargs and not kwargs["ephemeral"]
    lines = content.splitlines()
    assert lines[0] == t("stats.board.title", "ru", game=t("pobeda.name", "ru"))
    # highest ordinal first: user 3 (mu 23, sigma 5: 23 - 15 = 8.0), then 2 (7.0), then 1 (6.0)
    assert lines[1].startswith("1. **Игрок 3**: 8.0") and lines[3].startswith("3. **Игрок 1**: 6.0")
    assert "3 рейтинговые партии" in lines[1]
    assert t("stats.board.you", "ru", rank=2, rating="7.0") in content


async def test_a_long_leaderboard_is_an_image(cog) -> None:
    stats_cog, store = cog
    await rated_players(store, 12)
    caller = interaction(5, discord.Locale.american_english)
    await stats_cog.send_leaderboard(caller, GUILD, "pobeda")
    [(content, kwargs)] = caller.sent
    file = kwargs["file"]
    assert isinstance(file, discord.File) and file.filename == "leaderboard.png"
    image = Image.open(io.BytesIO(file.fp.read()))
    assert image.width == 720 and image.height > 13 * 38  # twelve rows and the header
    assert t("stats.board.you", "en", rank=8, rating="10.0") in content  # mu 25 - 3 * 5; users 6..12 above


async def test_stats_of_a_user_with_the_server_line(cog) -> None:
    stats_cog, store = cog
    await rated_players(store, 2)
    async with store.transaction() as db:
        await db.execute("INSERT INTO stat_totals VALUES (?, 'pobeda', 'finished', 4, 300, 60, 1800.0)", (GUILD,))
        await db.execute("INSERT INTO stat_totals VALUES (?, 'pobeda', 'aborted', 1, 10, 0, 0.0)", (GUILD,))
    caller = interaction(1, discord.Locale.american_english)
    await stats_cog.send_stats(caller, GUILD, 2, "Boris", None)
    [(content, _kwargs)] = caller.sent
    assert "**Pobeda (Victory)**: 3 games, 1 win, 0 abandoned; average move 30 s; rating 7.0 (#1 here)" in content
    assert "5 games ended (4 played out, 0 abandoned, 1 aborted); average move 30 s." in content
    nobody = interaction(1, discord.Locale.russian)
    await stats_cog.send_stats(nobody, GUILD, 99, "Вера", None)
    assert t("stats.none", "ru", name="Вера") in nobody.sent[0][0]


def test_durations() -> None:
    assert duration(None, "en") == "—"
    assert duration(42.4, "en") == "42 s"
    assert duration(300, "ru") == "5 мин"
    assert duration(3 * 3600 + 20 * 60, "en") == "3 h 20 min"
    assert duration(2 * 86400 + 4 * 3600 + 5, "ru") == "2 д 4 ч"
