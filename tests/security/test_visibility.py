"""``bot/discord_app/visibility.py``'s rules (issue 23), on real discord.py objects built from the payloads the
fake Discord sends: who may view a channel or thread, who may see a game whose channel is gone, and
where a replay may be posted publicly."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core.store import GameRow, GameSettings, LobbyEntry
from bot.discord_app import visibility
from tests.fake_discord import MEMBER_PERMISSIONS, FakeDiscord
from tests.fake_discord.models import MANAGE_GUILD, MANAGE_THREADS, VIEW_CHANNEL, Channel, Guild, User


class World:
    """A guild as discord.py caches it from the fake's GUILD_CREATE, with members built from the
    fake's interaction member payloads (roles included, as an interaction brings them)."""

    def __init__(self) -> None:
        self.fake = FakeDiscord()  # never started: only its world-building and payloads are used
        fake = self.fake
        self.g: Guild = fake.create_guild("Club", everyone_permissions=MEMBER_PERMISSIONS)
        self.names = ["ann", "ben", "cat", "mod", "thr"]
        self.users: dict[str, User] = {n: fake.create_user(n) for n in self.names}
        u = self.users
        self.insiders = fake.create_role(self.g, "insiders", MEMBER_PERMISSIONS)
        fake.add_member(self.g, u["ann"])
        fake.add_member(self.g, u["ben"], roles=[self.insiders])
        fake.add_member(self.g, u["cat"])
        fake.add_member(self.g, u["mod"], roles=[fake.create_role(self.g, "mods", MANAGE_GUILD)])
        fake.add_member(self.g, u["thr"], roles=[fake.create_role(self.g, "thread mods", MANAGE_THREADS)])
        self.public = fake.create_channel(self.g, "public")
        self.lounge = fake.create_channel(self.g, "lounge")
        self.secret = fake.create_private_channel(self.g, "secret", members=[u["ann"]], roles=[self.insiders])
        self.public_thread = fake.create_thread(self.public, "open thread", owner=u["cat"])
        self.secret_thread = fake.create_thread(self.secret, "secret thread", owner=u["ann"])
        self.private_thread = fake.create_thread(self.public, "private", owner=u["ann"], private=True)
        self.thread_calls: list[tuple[int, int]] = []
        self.thread_fails = False
        self.fetched: list[int] = []

        self.client = discord.Client(intents=discord.Intents.default())
        state = self.client._connection
        self.guild = discord.Guild(data=self.g.to_payload(fake.bot_user), state=state)  # type: ignore[arg-type]
        state._add_guild(self.guild)
        state.http.get_thread_member = self._get_thread_member  # type: ignore[method-assign]
        self.client.fetch_channel = self._fetch_channel  # type: ignore[method-assign]

    async def _get_thread_member(self, thread_id: int, user_id: int) -> dict[str, Any]:
        self.thread_calls.append((thread_id, user_id))
        if self.thread_fails:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="boom"), "boom")  # type: ignore[arg-type]
        if user_id not in self.fake.channels[thread_id].thread_members:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),  # type: ignore[arg-type]
                                   {"code": 10007, "message": "Unknown Member"})
        return {"id": str(thread_id), "user_id": str(user_id), "join_timestamp": "2024-01-01T00:00:00+00:00",
                "flags": 0}

    async def _fetch_channel(self, channel_id: int) -> Any:
        self.fetched.append(channel_id)
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),  # type: ignore[arg-type]
                               {"code": 10003, "message": "Unknown Channel"})

    def member(self, name: str) -> discord.Member:
        user = self.users[name]
        return discord.Member(data=self.g.member_payload(user), guild=self.guild,  # type: ignore[arg-type]
                              state=self.client._connection)

    def place(self, channel: Channel) -> visibility.Place:
        found = self.guild.get_channel_or_thread(channel.id)
        assert found is not None
        return found

    def row(self, channel_id: int, players: list[str], *, host: str = "ann") -> GameRow:
        return GameRow(id=7, guild_id=self.g.id, channel_id=channel_id, game="pobeda", status="finished",
                       host_id=self.users[host].id, lang="en", options={},
                       lobby=[LobbyEntry(self.users[n].id, n) for n in players], settings=GameSettings(),
                       seat_users=[[self.users[n].id] for n in players])


@pytest.fixture
def world() -> Iterator[World]:
    yield World()


async def test_a_private_channel_is_seen_only_by_whom_its_overwrites_allow(world: World) -> None:
    secret = world.place(world.secret)
    assert await visibility.can_view(world.member("ann"), secret)  # a member overwrite
    assert await visibility.can_view(world.member("ben"), secret)  # through a role's overwrite
    for name in ("cat", "mod", "thr"):  # Manage Server or Manage Threads do not open a channel
        assert not await visibility.can_view(world.member(name), secret), name
    for name in world.names:
        assert await visibility.can_view(world.member(name), world.place(world.public)), name
    # the fake's own resolution agrees with discord.py's on every pair
    for name in world.names:
        for ch in (world.public, world.secret, world.public_thread, world.secret_thread):
            expected = world.fake.can_view(world.users[name], ch)
            assert await visibility.can_view(world.member(name), world.place(ch)) == expected, (name, ch.name)
    assert world.fake.permissions(world.users["cat"], world.secret) & VIEW_CHANNEL == 0


async def test_a_thread_has_its_parents_audience_and_a_private_one_its_members(world: World) -> None:
    secret_thread = world.place(world.secret_thread)
    assert await visibility.can_view(world.member("ben"), secret_thread)
    assert not await visibility.can_view(world.member("cat"), secret_thread)
    assert await visibility.can_view(world.member("cat"), world.place(world.public_thread))

    private = world.place(world.private_thread)
    assert await visibility.can_view(world.member("ann"), private)  # its owner, a member
    assert not await visibility.can_view(world.member("cat"), private)  # sees the parent, not a member
    assert not await visibility.can_view(world.member("mod"), private)
    assert await visibility.can_view(world.member("thr"), private)  # Manage Threads
    asked = {user for _, user in world.thread_calls}
    assert world.users["cat"].id in asked and world.users["thr"].id not in asked

    world.fake.add_thread_member(world.private_thread, world.users["cat"])
    assert await visibility.can_view(world.member("cat"), private)
    world.thread_fails = True  # Discord failing: unknown means unseen
    world.fake.add_thread_member(world.private_thread, world.users["ben"])
    assert not await visibility.can_view(world.member("ben"), private)


async def test_a_user_without_membership_sees_no_guild_channel(world: World) -> None:
    stranger = discord.User(data=world.users["ann"].to_payload(), state=world.client._connection)  # type: ignore[arg-type]
    assert not await visibility.can_view(stranger, world.place(world.public))
    assert not await visibility.may_see_game(world.client, stranger, world.row(world.public.id, ["ann"]))


async def test_a_game_whose_channel_is_gone_is_seen_by_its_players_and_moderators(world: World) -> None:
    gone = world.row(123456789, ["ann", "ben"])
    assert await visibility.may_see_game(world.client, world.member("ann"), gone)
    assert await visibility.may_see_game(world.client, world.member("ben"), gone)
    assert await visibility.may_see_game(world.client, world.member("mod"), gone)  # Manage Server
    assert not await visibility.may_see_game(world.client, world.member("cat"), gone)
    assert not await visibility.may_see_game(world.client, world.member("thr"), gone)
    assert world.fetched and set(world.fetched) == {123456789}  # asked of Discord, not only the cache


async def test_a_game_is_seen_by_whoever_sees_its_channel_players_or_not(world: World) -> None:
    in_secret = world.row(world.secret.id, ["cat"], host="cat")  # a player who lost sight of the channel
    assert not await visibility.may_see_game(world.client, world.member("cat"), in_secret)
    assert await visibility.may_see_game(world.client, world.member("ben"), in_secret)
    other_guild = world.row(world.public.id, ["ann"])
    other_guild.guild_id = world.g.id + 1
    assert not await visibility.may_see_game(world.client, world.member("ann"), other_guild)

    rows = [world.row(world.public.id, ["cat"]), in_secret, world.row(world.private_thread.id, ["ann"]),
            world.row(world.secret_thread.id, ["ann"]), world.row(987654321, ["cat"])]
    seen = await visibility.visible_rows(world.client, world.member("cat"), rows)
    assert [r.channel_id for r in seen] == [world.public.id, 987654321]
    seen = await visibility.visible_rows(world.client, world.member("ben"), rows)
    assert [r.channel_id for r in seen] == [world.public.id, world.secret.id, world.secret_thread.id]


async def test_a_replay_is_public_only_where_the_same_people_see_it(world: World) -> None:
    p = world.place
    public, lounge, secret = p(world.public), p(world.lounge), p(world.secret)
    assert visibility.same_audience(secret, secret)
    assert visibility.same_audience(public, public)
    assert visibility.same_audience(p(world.public_thread), public)  # a public thread and its parent
    assert visibility.same_audience(public, p(world.public_thread))
    assert visibility.same_audience(p(world.secret_thread), secret)
    assert visibility.same_audience(lounge, public)  # both seen by every member
    assert not visibility.same_audience(public, secret)
    assert not visibility.same_audience(p(world.secret_thread), public)
    assert not visibility.same_audience(public, p(world.private_thread))  # a private thread: its members
    assert not visibility.same_audience(p(world.private_thread), public)
    assert visibility.same_audience(p(world.private_thread), p(world.private_thread))
    assert not visibility.same_audience(None, public) and not visibility.same_audience(public, None)

    # one member denied the lounge: it is no longer seen by everyone who sees the public channel
    world.fake.set_overwrite(world.lounge, world.users["cat"], deny=VIEW_CHANNEL)
    lounge_now = discord.TextChannel(state=world.client._connection, guild=world.guild,
                                     data=world.lounge.to_payload())  # type: ignore[arg-type]
    assert not visibility.is_open(lounge_now)
    assert not visibility.same_audience(lounge_now, public)
    assert visibility.is_open(public) and not visibility.is_open(secret)
