"""A league with a start time starts by itself when it comes (``/league new start_in_hours:``); with too few
players it says so once and waits for the Start button."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from bot.core.i18n import t
from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus
from bot.core.leagues.storage import LeagueStore
from bot.core.store import Store
from bot.discord_app.leagues import LeagueService


async def test_leagues_start_at_their_time(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "l.sqlite3")
    leagues = LeagueStore(store)
    ready = await leagues.create(guild_id=1, channel_id=2, game="byallmeans", fmt=Format.SWISS, host_id=1, lang="en",
                                 config=LeagueConfig(rounds=2, start_at=1000.0))
    short = await leagues.create(guild_id=1, channel_id=3, game="byallmeans", fmt=Format.ROUND_ROBIN, host_id=1,
                                 lang="ru", config=LeagueConfig(start_at=1000.0))
    for u in (1, 2, 3, 4):
        await leagues.join(ready.id, u, f"p{u}", 0.0)
    await leagues.join(short.id, 1, "p1", 0.0)
    posts: list[tuple[int, str]] = []

    async def post(channel_id: int, text: str, **_: object) -> None:
        posts.append((channel_id, text))

    async def user_stats(guild_id: int, user_id: int, game: str) -> list[object]:
        return [SimpleNamespace(ordinal=float(user_id))] if user_id == 3 else []

    bot = SimpleNamespace(store=store, publisher=SimpleNamespace(cluster=None, post=post),
                          stats=SimpleNamespace(user_stats=user_stats), config=SimpleNamespace(timer_interval=1.0))
    service = LeagueService(bot)  # type: ignore[arg-type]
    await service.start_due(999.0)  # not yet
    assert not posts and (await leagues.league(ready.id)).status is LeagueStatus.SIGNUP  # type: ignore[union-attr]
    await service.start_due(1000.0)
    assert (await leagues.league(ready.id)).status is LeagueStatus.RUNNING  # type: ignore[union-attr]
    assert {p.user_id: p.rating for p in await leagues.players(ready.id)} == {1: 0.0, 2: 0.0, 3: 3.0, 4: 0.0}
    assert (2, t("league.started", "en", n=4, rounds=2)) in posts
    # round robin needs three: told once, in the league's language, and left open for the Start button
    assert (3, t("league.err.players", "ru", format=t("league.format.round_robin", "ru"), min=3, n=1)) in posts
    again = await leagues.league(short.id)
    assert again is not None and again.status is LeagueStatus.SIGNUP and again.config.start_at is None
    await service.start_due(5000.0)
    assert len(posts) == 2
    await store.close()
