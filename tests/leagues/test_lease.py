"""Several processes: a league's steps run only in the process holding the lease ``league:<id>``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from bot.core.cluster import Cluster
from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus
from bot.core.leagues.scheduler import lease_name
from bot.core.leagues.storage import LeagueStore
from bot.core.store import Store
from bot.discord_app.leagues import LeagueService


async def test_only_the_lease_holder_schedules_a_league(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "l.sqlite3")
    leagues = LeagueStore(store)
    league = await leagues.create(guild_id=1, channel_id=2, game="byallmeans", fmt=Format.ROUND_ROBIN, host_id=1,
                                  lang="en", config=LeagueConfig())
    for u in (1, 2, 3, 4):
        await leagues.join(league.id, u, f"p{u}", 0.0)
    await leagues.set_status(league.id, LeagueStatus.RUNNING)
    first, second = Cluster(store, owner="first"), Cluster(store, owner="second")
    assert await first.claim(lease_name(league.id))  # the first process schedules this league

    posts: list[str] = []

    async def post(channel_id: int, text: str, **_: object) -> SimpleNamespace:
        posts.append(text)
        return SimpleNamespace(id=100 + len(posts))

    bot = SimpleNamespace(store=store, publisher=SimpleNamespace(cluster=second, post=post),
                          config=SimpleNamespace(timer_interval=1.0))
    service = LeagueService(bot)  # type: ignore[arg-type]
    await service.tick(league.id)  # the second process: not its league
    again = await leagues.league(league.id)
    assert again is not None and again.round == 0 and not posts
    await first.release(lease_name(league.id))
    await service.tick(league.id)  # free now: the second takes it and pairs round 1
    again = await leagues.league(league.id)
    assert again is not None and again.round == 1
    assert (await store.lease(lease_name(league.id)) or ("", 0.0))[0] == "second"
    await store.close()
