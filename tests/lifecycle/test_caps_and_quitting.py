"""Issue 23, items 3 and 10: caps on lobbies and games, lobbies that expire, one floor for every
deadline, followers capped and dropped when they can no longer see the channel; and no quitting to
protect a rating (an abort past the first round needs a vote; a pause has an allowance)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core import bots
from bot.core.config import ConfigError, Limits, load_limits
from bot.core.i18n import t
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app import lifecycle
from tests.lifecycle.common import ALICE, BOB, CAROL, running_game

DAY = 86400.0


class Publisher:
    """Records channel posts (the timer's notices) instead of sending them."""

    def __init__(self, store: Store, client: Any = None) -> None:
        self.store = store
        self.client = client
        self.posts: list[tuple[int, str, Any]] = []
        self.sent: list[Any] = []

    async def post(self, channel_id: int, text: str, **kwargs: Any) -> None:
        self.posts.append((channel_id, text, kwargs.get("allowed_mentions")))

    def _background(self, coro: Any) -> None:
        self.sent.append(coro)


async def drain(publisher: Publisher) -> None:
    for coro in publisher.sent:
        await coro
    publisher.sent.clear()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "c.sqlite3")
    yield store
    await store.close()


def manager(store: Store, **caps: Any) -> SessionManager:
    return SessionManager(store, clock=time.time, limits=Limits(**caps))


# ---- caps ------------------------------------------------------------------------------------------
def test_limits_defaults_and_environment() -> None:
    limits = load_limits({})
    assert (limits.lobbies_per_user, limits.lobbies_per_server, limits.games_per_user,
            limits.games_per_server) == (3, 25, 20, 200)
    assert limits.lobby_ttl_s == DAY and limits.pause_s == 7 * DAY and limits.deadline_min_s == 30
    custom = load_limits({"TABLETOP_MAX_LOBBIES_PER_USER": "1", "TABLETOP_LOBBY_TTL_HOURS": "2",
                          "TABLETOP_PAUSE_LIMIT_DAYS": "0.5", "TABLETOP_MAX_FOLLOWERS": "0"})
    assert (custom.lobbies_per_user, custom.lobby_ttl_s, custom.pause_s, custom.followers_per_game) == \
        (1, 7200.0, DAY / 2, 0)
    with pytest.raises(ConfigError, match="TABLETOP_MAX_GAMES_PER_SERVER"):
        load_limits({"TABLETOP_MAX_GAMES_PER_SERVER": "many"})


async def test_lobbies_per_user_and_per_server_are_capped(store: Store) -> None:
    sessions = manager(store, lobbies_per_user=2, lobbies_per_server=3)
    for channel in (1, 2):
        await sessions.create(guild_id=5, channel_id=channel, host=ALICE, game_key="toy", options={})
    with pytest.raises(SessionError) as err:
        await sessions.create(guild_id=6, channel_id=3, host=ALICE, game_key="toy", options={})
    assert err.value.key == "err.cap_lobbies_user" and err.value.params == {"n": 2}
    assert "2" in t(err.value.key, "ru", **err.value.params)
    await sessions.create(guild_id=5, channel_id=4, host=BOB, game_key="toy", options={})
    with pytest.raises(SessionError) as err:
        await sessions.create(guild_id=5, channel_id=5, host=CAROL, game_key="toy", options={})
    assert err.value.key == "err.cap_lobbies_server"
    await sessions.create(guild_id=7, channel_id=6, host=CAROL, game_key="toy", options={})  # another server
    assert len(await store.games_in_guild(5)) == 3


async def test_running_games_per_user_and_per_server_are_capped(store: Store) -> None:
    sessions = manager(store, games_per_user=1, games_per_server=2)
    await running_game(sessions, channel=1, players=(ALICE, BOB))
    with pytest.raises(SessionError) as err:  # ALICE already plays one game
        await sessions.create(guild_id=5, channel_id=2, host=ALICE, game_key="toy", options={})
    assert err.value.key == "err.cap_games_user"
    lobby = await sessions.create(guild_id=5, channel_id=3, host=CAROL, game_key="toy", options={})
    with pytest.raises(SessionError) as err:  # BOB too
        await sessions.join(lobby.id, BOB)
    assert err.value.key == "err.cap_games_user" and [p.user for p in lobby.row.lobby] == [CAROL.id]
    await sessions.join(lobby.id, UserInfo(4, "dave"))
    await sessions.start(lobby.id, CAROL.id, seed=1)
    with pytest.raises(SessionError) as err:  # two running games in server 5
        await sessions.create(guild_id=5, channel_id=9, host=UserInfo(8, "erin"), game_key="toy", options={})
    assert err.value.key == "err.cap_games_server"


async def test_one_floor_for_every_deadline(store: Store) -> None:
    sessions = manager(store)
    for seconds in (0.001 * 3600, 29, 0.2, 15 * DAY):  # /game new deadline_hours:0.001 was a 4 s deadline
        with pytest.raises(SessionError) as err:
            await sessions.create(guild_id=5, channel_id=1, host=ALICE, game_key="toy", options={},
                                  deadline_s=seconds)
        assert err.value.key == "err.bad_deadline"
    assert await store.games_in_guild(5) == []
    session = await sessions.create(guild_id=5, channel_id=1, host=ALICE, game_key="toy", options={},
                                    deadline_s=30)
    assert session.row.settings.deadline_s == 30
    with pytest.raises(SessionError) as err:  # the lobby's /game deadline goes through the same floor
        await sessions.set_option(session.id, ALICE.id, "deadline_s", 4)
    assert err.value.key == "err.bad_deadline" and session.row.settings.deadline_s == 30
    await sessions.set_option(session.id, ALICE.id, "deadline_s", 0)
    assert (await store.load_game(session.id)).settings.deadline_s == 0  # type: ignore[union-attr]


async def test_a_lobby_that_never_starts_expires_and_the_host_is_told(store: Store) -> None:
    sessions = manager(store, lobby_ttl_s=DAY)
    old = await sessions.create(guild_id=5, channel_id=1, host=CAROL, game_key="toy", options={})
    old.row.lang = "ru"
    await running_game(sessions, channel=2, players=(ALICE, BOB))
    publisher = Publisher(store)
    now = time.time()
    assert await lifecycle.expire_lobbies(sessions, publisher, now + DAY / 2) == []  # type: ignore[arg-type]
    assert await lifecycle.expire_lobbies(sessions, publisher, now + DAY + 60) == [old.id]  # type: ignore[arg-type]
    await drain(publisher)
    assert (await store.load_game(old.id)).status == "aborted"  # type: ignore[union-attr]
    assert sessions.by_channel(1) is None  # the channel is free again
    [(channel, text, allowed)] = publisher.posts
    assert channel == 1 and f"<@{CAROL.id}>" in text and "лобби" in text  # the lobby's language
    assert [u.id for u in allowed.users] == [CAROL.id]


# ---- followers ---------------------------------------------------------------------------------------
class Perms:
    def __init__(self, view: bool) -> None:
        self.view_channel = view


class Guild:
    def __init__(self, members: dict[int, bool]) -> None:
        self.members = members

    def get_member(self, user_id: int) -> Any:
        return None

    async def fetch_member(self, user_id: int) -> Any:
        if user_id not in self.members:
            raise discord.NotFound(type("R", (), {"status": 404, "reason": "Unknown Member"})(), "Unknown Member")
        return user_id


class Channel:
    def __init__(self, guild: Guild) -> None:
        self.guild = guild

    def permissions_for(self, member: int) -> Perms:
        return Perms(self.guild.members[member])


class Client:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    def get_channel(self, channel_id: int) -> Channel:
        return self.channel


async def test_followers_who_cannot_see_the_channel_are_dropped(store: Store, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    sessions = manager(store)
    game_id = await running_game(sessions, channel=1, players=(ALICE, BOB))
    session = await sessions.get(game_id)
    for user in (10, 11, 12):
        await store.set_following(game_id, user, True)
    # 10 still sees the channel, 11 lost the role, 12 left the server
    publisher = Publisher(store, Client(Channel(Guild({10: True, 11: False}))))
    sent: list[int] = []

    async def send_dm(_publisher: Any, user_id: int, content: str, **_kwargs: Any) -> bool:
        sent.append(user_id)
        return True

    monkeypatch.setattr(lifecycle, "send_dm", send_dm)
    await lifecycle.notify_followers(publisher, session, "the turn", 1)  # type: ignore[arg-type]
    await drain(publisher)
    assert sent == [10]
    assert await store.followers(game_id) == [10]


# ---- quitting to protect a rating ---------------------------------------------------------------
async def play_round(sessions: SessionManager, game_id: int) -> None:
    session = await sessions.get(game_id)
    while not all(session.row.seat_counts):
        game = session.game
        assert game is not None
        seat = game.actors()[0]
        await sessions.act(game_id, session.row.seat_users[seat][0], seat, game.legal_actions(seat)[0])


async def test_an_abort_past_the_first_round_needs_everyones_agreement(store: Store) -> None:
    sessions = manager(store)
    game_id = await running_game(sessions, channel=1, players=(ALICE, BOB))
    await play_round(sessions, game_id)
    with pytest.raises(SessionError) as err:  # the host plays and may be losing
        await sessions.abort(game_id, by=ALICE.id)
    assert err.value.key == "err.abort_needs_vote"
    assert (await store.load_game(game_id)).status == "running"  # type: ignore[union-attr]
    # everyone agreeing ends it without a result
    await lifecycle.vote(sessions, game_id, ALICE.id, "end", time.time())
    result = await lifecycle.vote(sessions, game_id, BOB.id, "end", time.time())
    assert result.passed and (await store.load_game(game_id)).status == "aborted"  # type: ignore[union-attr]


async def test_an_abort_is_free_in_the_first_round_unrated_or_by_a_moderator(store: Store) -> None:
    sessions = manager(store)
    first = await running_game(sessions, channel=1, players=(ALICE, BOB))
    await sessions.abort(first, by=ALICE.id)  # nobody has moved yet
    moderated = await running_game(sessions, channel=2, players=(ALICE, BOB))
    await play_round(sessions, moderated)
    await sessions.abort(moderated, by=99)  # a moderator who does not play
    lobby = await sessions.create(guild_id=5, channel_id=3, host=ALICE, game_key="toy", options={})
    await bots.add_bot(sessions, lobby.id, ALICE.id, "quick")
    await sessions.start(lobby.id, ALICE.id, seed=4)
    await play_round(sessions, lobby.id)  # the bot's seat moves too (played here by its user id)
    await sessions.abort(lobby.id, by=ALICE.id)  # a game with a bot is not rated
    for gid in (first, moderated, lobby.id):
        assert (await store.load_game(gid)).status == "aborted"  # type: ignore[union-attr]


async def test_a_pause_has_an_allowance(store: Store) -> None:
    sessions = manager(store, pause_s=7 * DAY)
    game_id = await running_game(sessions, channel=1, players=(ALICE, BOB), span=3600)
    publisher = Publisher(store)
    start = time.time()
    await lifecycle.pause(sessions, game_id, ALICE.id, start)
    await lifecycle.resume(sessions, game_id, start + 3 * DAY)  # 3 days used
    await lifecycle.pause(sessions, game_id, ALICE.id, start + 4 * DAY)
    assert await lifecycle.expire_pauses(sessions, publisher, start + 7 * DAY) == []  # type: ignore[arg-type]
    assert await lifecycle.expire_pauses(sessions, publisher, start + 8 * DAY + 1) == [game_id]  # type: ignore[arg-type]
    await drain(publisher)
    session = await sessions.get(game_id)
    stored = await store.load_game(game_id)
    assert stored is not None and lifecycle.paused_since(stored) is None and not lifecycle.is_paused(sessions, game_id)
    assert stored.settings.extra["paused_total"] == pytest.approx(7 * DAY + 1, abs=0.01)
    assert [c for c, _, _ in publisher.posts] == [1]
    assert session.deadlines  # the clock runs again
    with pytest.raises(SessionError) as err:  # the allowance is used up: only a vote stops the game now
        await lifecycle.pause(sessions, game_id, ALICE.id, start + 9 * DAY)
    assert err.value.key == "lifecycle.err.pause_used" and err.value.params == {"days": 7}


async def test_a_lobby_expires_after_a_restart_too(store: Store) -> None:
    sessions = manager(store, lobby_ttl_s=DAY)
    lobby = await sessions.create(guild_id=5, channel_id=1, host=CAROL, game_key="toy", options={})
    again = manager(store, lobby_ttl_s=DAY)
    await again.restore()  # the index (no states) knows when each lobby opened
    publisher = Publisher(store)
    assert await lifecycle.expire_lobbies(again, publisher, time.time() + DAY + 1) == [lobby.id]  # type: ignore[arg-type]
    await drain(publisher)


class PrivateThread(discord.Thread):
    """A private thread whose parent everyone in ``guild.members`` may view; ``joined`` are its members
    (a stand-in built without discord.py's state: only what ``lifecycle.can_see`` asks)."""

    def __new__(cls, *_args: Any, **_kwargs: Any) -> PrivateThread:
        return object.__new__(cls)

    def __init__(self, guild: Guild, joined: set[int]) -> None:  # noqa: D107
        self._stand_in = (guild, joined)

    @property
    def guild(self) -> Any:  # type: ignore[override]
        return self._stand_in[0]

    @property
    def members(self) -> list[Any]:  # type: ignore[override]
        return []  # the bot's cache knows no members without the members intent: Discord is asked

    def is_private(self) -> bool:
        return True

    def permissions_for(self, member: Any, /) -> Any:  # type: ignore[override]
        return SimpleNamespace(view_channel=self._stand_in[0].members[member], manage_threads=False)

    async def fetch_member(self, user_id: int, /) -> Any:  # type: ignore[override]
        if user_id not in self._stand_in[1]:
            raise discord.NotFound(type("R", (), {"status": 404, "reason": "Unknown Member"})(), "Unknown Member")
        return SimpleNamespace(id=user_id)


async def test_a_follower_outside_a_private_thread_is_dropped(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A private thread is seen by its members only: a follower who may view its parent but is not (or
    no longer) in the thread stops receiving its posts."""
    sessions = manager(store)
    game_id = await running_game(sessions, channel=1, players=(ALICE, BOB))
    session = await sessions.get(game_id)
    for user in (10, 11):
        await store.set_following(game_id, user, True)
    thread = PrivateThread(Guild({10: True, 11: True}), joined={10})
    publisher = Publisher(store, Client(thread))  # type: ignore[arg-type]
    sent: list[int] = []

    async def send_dm(_publisher: Any, user_id: int, content: str, **_kwargs: Any) -> bool:
        sent.append(user_id)
        return True

    monkeypatch.setattr(lifecycle, "send_dm", send_dm)
    await lifecycle.notify_followers(publisher, session, "the turn", 1)  # type: ignore[arg-type]
    await drain(publisher)
    assert sent == [10]
    assert await store.followers(game_id) == [10]
