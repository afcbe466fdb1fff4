"""Several processes on one PostgreSQL (issue 14): two SessionManagers, Stores and Publishers in one
test stand for two bot processes sharing the throwaway server of tests/pg_server.py.

What issue 14 asks of them: a game is loaded again when another process moved it; a commit that lost
the optimistic ``seq`` check is checked again and retried once, never applied twice; each move is
announced once whoever is asked to publish it; a deadline fires once with two timers; a lease whose
owner stops renewing is taken over; NOTIFY wakes the other process; two processes start at once and
migrate once; a bot older than the schema refuses to start. Skipped only without PostgreSQL binaries.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core import cluster as cluster_mod
from bot.core.cluster import Cluster, publish_lease
from bot.core.config import Config
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import SCHEMA_VERSION, Conflict, Deadline, GameSettings, SchemaTooNew, Store
from bot.discord_app.app import TabletopBot
from bot.discord_app.delivery import Publisher
from bot.games import registry
from tests.pg_server import PgServer, new_pg_url
from tests.platform.toy import toy_manifest

ALICE, BOB = UserInfo(1, "alice"), UserInfo(2, "bob")
SPAN = 60


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Node:
    """One "process": its own connection, session cache and clock."""

    store: Store
    sessions: SessionManager


@pytest.fixture
async def pair(pg_server: PgServer | None) -> AsyncIterator[tuple[Node, Node, Clock]]:
    url = await new_pg_url(pg_server, "cl")
    clock = Clock(time.time())
    a, b = await Store.open(url), await Store.open(url)
    try:
        yield Node(a, SessionManager(a, clock=clock)), Node(b, SessionManager(b, clock=clock)), clock
    finally:
        await a.close()
        await b.close()


async def toy_game(node: Node, channel: int = 500, deadline_s: int = 0) -> int:
    session = await node.sessions.create(guild_id=5, channel_id=channel, host=ALICE, game_key="toy", options={},
                                         deadline_s=deadline_s)
    await node.sessions.join(session.id, BOB)
    await node.sessions.start(session.id, ALICE.id, seed=7)
    return session.id


def user_of(seat: int) -> int:
    return (ALICE, BOB)[seat].id  # the toy seats players in lobby order


async def stored(store: Store, game_id: int) -> tuple[int, dict[str, Any], list[int]]:
    row = await store.load_game(game_id)
    assert row is not None and row.state is not None
    return row.seq, row.state, [a.seq for a in await store.actions(game_id)]


async def test_moves_applied_alternately_through_two_processes_stay_consistent(pair: tuple[Node, Node, Clock]
                                                                               ) -> None:
    a, b, _ = pair
    game_id = await toy_game(a)
    await b.sessions.restore()  # B indexed the game while it was a lobby: its cache is behind
    played = 0
    while True:
        node = (a, b)[played % 2]
        session = await node.sessions.get(game_id)
        if session.row.status != "running" or session.game is None:
            break
        seat = session.game.actors()[0]
        action = session.game.legal_actions(seat)[0]
        await node.sessions.act(game_id, user_of(seat), seat, action)
        played += 1
    seq, state, seqs = await stored(a.store, game_id)
    assert played >= 5 and seq == played  # every move landed once: no gap, no double
    assert seqs == list(range(1, played + 1))
    assert state["winner"] is not None
    # both caches ended on what is stored (the finished game left both indexes)
    assert game_id not in a.sessions.sessions and game_id not in b.sessions.sessions


async def test_a_cached_game_is_reloaded_only_when_another_process_moved_it(pair: tuple[Node, Node, Clock]
                                                                           ) -> None:
    a, b, _ = pair
    game_id = await toy_game(a)
    session_b = await b.sessions.get(game_id)
    game_b = session_b.game
    again = await b.sessions.get(game_id)
    assert again.game is game_b  # nothing changed: the cached game is kept, not reloaded
    seat = game_b.actors()[0] if game_b else 0
    await a.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 2})
    fresh = await b.sessions.get(game_id)
    assert fresh.game is not game_b and fresh.row.seq == 1
    assert fresh.game is not None and fresh.game.view(None)["total"] == 2
    assert fresh.row.seat_counts[seat] == 1
    # A's own commit is recognised as its own: A keeps its game object
    own = a.sessions.sessions[game_id].game
    assert (await a.sessions.get(game_id)).game is own


async def test_a_settings_change_elsewhere_is_not_overwritten_by_the_next_move(pair: tuple[Node, Node, Clock]) -> None:
    a, b, _ = pair
    game_id = await toy_game(a, channel=501)
    session = await a.sessions.get(game_id)
    assert session.game is not None
    await b.sessions.get(game_id)  # B caches the game before A's change
    # a settings change without a move (a pause, a vote, a concession) moves updated_at, not seq
    session.row.settings.extra["note"] = "set in A"
    await a.store.save_settings(game_id, session.row.settings)
    seat = session.game.actors()[0]
    await b.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1})
    row = await a.store.load_game(game_id)
    assert row is not None and row.seq == 1 and row.settings.extra.get("note") == "set in A"


async def test_concurrent_moves_on_one_seq_the_loser_is_checked_again_and_retried(pair: tuple[Node, Node, Clock]
                                                                                  ) -> None:
    """Both processes read the game at the same seq; B's commit is held until A's lands, so it loses
    the optimistic check for real. Different seats of a simultaneous choice: B's pick is retried on
    A's state and lands too. The same click twice: the retry refuses it (stale), applied once."""
    a, b, _ = pair
    game_id = await toy_game(a, channel=502)
    session = await a.sessions.get(game_id)
    while session.game is not None and not session.game.is_simultaneous():
        seat = session.game.actors()[0]
        await a.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1})
    assert session.game is not None and session.game.actors() == [0, 1]  # the secret round is open
    base = session.row.seq
    await b.sessions.get(game_id)
    commits = []
    a_done = asyncio.Event()
    real_commit = b.store.commit_action

    async def after_a(game: int, **kw: Any) -> None:
        commits.append(kw["old_seq"])
        await a_done.wait()
        await real_commit(game, **kw)

    b.store.commit_action = after_a  # type: ignore[method-assign,assignment]

    async def in_a() -> None:
        await asyncio.sleep(0.05)  # B has read the game and waits in its commit
        await a.sessions.act(game_id, user_of(0), 0, {"type": "pick", "n": 2})
        a_done.set()

    await asyncio.gather(in_a(), b.sessions.act(game_id, user_of(1), 1, {"type": "pick", "n": 3}))
    assert commits == [base, base + 1]  # B lost once (at base), reloaded, and committed after A
    seq, _state, seqs = await stored(a.store, game_id)
    assert seq == base + 2 and seqs == list(range(1, base + 3))
    picks = [a2.action for a2 in await a.store.actions(game_id, after_seq=base)]
    assert picks == [{"type": "pick", "n": 2}, {"type": "pick", "n": 3}]

    # the same seat's control clicked in both processes at once: exactly one applies
    commits.clear()
    a_done.clear()
    live = await a.sessions.get(game_id)
    assert live.game is not None
    seat = live.game.actors()[0]
    stamp = live.row.seat_counts[seat]
    await b.sessions.get(game_id)
    results = await asyncio.gather(
        in_a_click(a, game_id, seat, stamp, a_done),
        b.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1}, stamp),
        return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], SessionError) and errors[0].key == "err.stale"
    assert commits == [base + 2]  # B tried once, lost, and its check refused the retry
    seq, _state, seqs = await stored(a.store, game_id)
    assert seq == base + 3 and seqs == list(range(1, base + 4))


async def in_a_click(a: Node, game_id: int, seat: int, stamp: int, done: asyncio.Event) -> None:
    await asyncio.sleep(0.05)
    await a.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1}, stamp)
    done.set()


async def test_a_move_refused_by_a_stale_copy_is_checked_on_the_stored_game(pair: tuple[Node, Node, Clock]) -> None:
    """B's copy still says it is seat X's turn; A has moved since. B is asked for the next seat's move:
    its stale refusal (not your turn) is checked against the stored game, which allows it, so the move
    lands once. On a copy nobody changed, a move costs no extra read of the game."""
    a, b, _ = pair
    game_id = await toy_game(a, channel=511)
    stale = await b.sessions.get(game_id)
    assert stale.game is not None
    first = stale.game.actors()[0]
    await a.sessions.act(game_id, user_of(first), first, {"type": "add", "n": 1})
    second = 1 - first
    reads = 0
    real_version = b.store.game_version

    async def counted(gid: int) -> tuple[int, float, str] | None:
        nonlocal reads
        reads += 1
        return await real_version(gid)

    b.store.game_version = counted  # type: ignore[method-assign,assignment]
    await b.sessions.act(game_id, user_of(second), second, {"type": "add", "n": 2})
    assert reads == 1  # the refusal looked once at the stored game
    assert [(x.seat, x.action["n"]) for x in await a.store.actions(game_id)] == [(first, 1), (second, 2)]
    reads = 0
    game = b.sessions.sessions[game_id].game
    assert game is not None
    third = game.actors()[0]
    await b.sessions.act(game_id, user_of(third), third, {"type": "add", "n": 1})
    assert reads == 0  # B's own copy is current: acted on without reading the game first
    row = await a.store.load_game(game_id)
    assert row is not None and row.seq == 3


async def test_sqlite_reads_nothing_extra_per_move(tmp_path: Path) -> None:
    """One process owns a SQLite file: the freshness check is skipped entirely."""
    store = await Store.open(tmp_path / "one.sqlite3")
    node = Node(store, SessionManager(store))

    async def refused(game_id: int) -> None:
        raise AssertionError("a single SQLite process must not check freshness")

    store.game_version = refused  # type: ignore[method-assign]
    try:
        assert not store.shared
        game_id = await toy_game(node)
        session = await node.sessions.get(game_id)
        assert session.game is not None
        seat = session.game.actors()[0]
        await node.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1})
        assert (await node.sessions.get(game_id)).row.seq == 1
    finally:
        await store.close()


# ---- publishing: one publisher per game ----------------------------------------------------------
class Discord:
    """One channel both "processes" post to; every post and edit is kept (no nonce dedup, so a
    duplicate announcement would show)."""

    def __init__(self) -> None:
        self.final: dict[int, str] = {}
        self.posts = 0

    async def send(self, content: str, **kwargs: Any) -> Any:
        await asyncio.sleep(0.01)  # posting takes time: the other publisher may try meanwhile
        self.posts += 1
        self.final[self.posts] = content
        return SimpleNamespace(id=self.posts)

    def get_partial_message(self, message_id: int) -> Any:
        discord = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                await asyncio.sleep(0.01)
                if "content" in kwargs:
                    discord.final[message_id] = kwargs["content"]

        return Partial()


class Client:
    def __init__(self, channel: Discord) -> None:
        self.channel = channel

    def get_channel(self, channel_id: int) -> Discord:
        return self.channel

    async def create_dm(self, user: Any) -> Discord:
        return Discord()  # DMs are not counted here


async def test_two_publishers_announce_each_move_once(pair: tuple[Node, Node, Clock]) -> None:
    a, b, _ = pair
    channel = Discord()
    publishers = []
    for node in (a, b):
        publisher = Publisher(Client(channel), node.sessions, node.store)  # type: ignore[arg-type]
        publisher.publish_interval = 0
        publisher.cluster = Cluster(node.store, poll_s=60)  # claims only: both are asked for every move
        publishers.append(publisher)
    game_id = await toy_game(a, channel=503)
    moves = 0
    while True:
        node = (a, b)[moves % 2]
        session = await node.sessions.get(game_id)
        if session.game is None or session.row.status != "running":
            break
        seat = session.game.actors()[0]
        await node.sessions.act(game_id, user_of(seat), seat, session.game.legal_actions(seat)[-1])
        moves += 1
        for publisher in publishers:  # the committing process and the notified one both ask at once
            publisher.request(game_id)
        await asyncio.gather(*(p.idle() for p in publishers))
    lines = [line for text in channel.final.values() for line in text.splitlines() if " adds " in line]
    adds = [a2 for a2 in await a.store.actions(game_id) if a2.action["type"] == "add"]
    assert len(adds) >= 3
    assert sorted(lines) == sorted({line for line in lines})  # no move announced twice
    assert len(lines) == len(adds)  # and none left out
    row = await a.store.load_game(game_id)
    assert row is not None and row.published_seq == row.seq
    assert await a.store.lease(publish_lease(game_id)) is None  # released once idle


async def test_the_poll_takes_over_a_game_whose_publisher_died(pair: tuple[Node, Node, Clock]) -> None:
    a, b, clock = pair
    channel = Discord()
    game_id = await toy_game(a, channel=504)
    dead = Cluster(a.store, owner="dead", clock=clock)
    assert await dead.claim(publish_lease(game_id))  # A claimed the game, then died before publishing
    publisher = Publisher(Client(channel), b.sessions, b.store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    publisher.cluster = Cluster(b.store, owner="alive", clock=clock)
    await publisher.poll_unpublished()
    await publisher.idle()
    assert channel.posts == 0  # the lease is still A's
    clock.now += cluster_mod.LEASE_S + 1
    publisher._polled.clear()  # (the poll's own spacing is not what is tested here)
    await publisher.poll_unpublished()
    await publisher.idle()
    assert channel.posts == 1
    row = await b.store.load_game(game_id)
    assert row is not None and row.published_seq == 0


# ---- leases ----------------------------------------------------------------------------------------
async def test_a_lease_is_taken_over_only_when_its_owner_stops_renewing(pair: tuple[Node, Node, Clock]) -> None:
    a, b, clock = pair
    one = Cluster(a.store, owner="one", lease_s=10, clock=clock)
    two = Cluster(b.store, owner="two", lease_s=10, clock=clock)
    assert await one.claim("job") and not await two.claim("job")
    for _ in range(3):  # renewed every few seconds: never free, though 15 s pass in all
        clock.now += 5
        await one.renew()
        assert not await two.claim("job")
    clock.now += 11  # one stops renewing (killed)
    assert await two.claim("job")
    assert not await one.claim("job")  # the old owner, back, does not take it back
    await one.renew()
    owner, _until = await a.store.lease("job") or ("?", 0.0)
    assert owner == "two"
    await two.release("job")
    assert await one.claim("job")


async def test_the_timer_lease_lives_only_while_its_holder_ticks(pair: tuple[Node, Node, Clock]) -> None:
    """A process whose gateway is away stops ticking but its cluster loop still renews its publishing
    leases: the timer must pass to a process that ticks, not stay with it."""
    a, b, clock = pair
    one = Cluster(a.store, owner="one", clock=clock)
    two = Cluster(b.store, owner="two", clock=clock)
    span = cluster_mod.timer_lease_s(20.0)
    assert span == 60.0
    assert await one.claim(cluster_mod.TIMER, span) and await one.claim(publish_lease(1))
    clock.now += span - 1
    await one.renew()
    assert not await two.claim(cluster_mod.TIMER, span)
    clock.now += 2
    await one.renew()  # renews the publishing lease only
    assert await two.claim(cluster_mod.TIMER, span)
    assert not await two.claim(publish_lease(1))


async def test_concurrent_claims_have_one_winner(pair: tuple[Node, Node, Clock]) -> None:
    a, b, clock = pair
    clusters = [Cluster(node.store, owner=f"p{i}", clock=clock) for i, node in enumerate((a, b, a, b))]
    for round_ in range(5):
        results = await asyncio.gather(*(c.claim(f"race{round_}") for c in clusters))
        assert sum(results) == 1


# ---- deadlines --------------------------------------------------------------------------------------
class Recorder:
    def __init__(self, store: Store, clock: Clock | None = None) -> None:
        self.cluster = Cluster(store, clock=clock or time.time)
        self.reminded: list[tuple[int, int, str | None]] = []

    async def remind(self, game_id: int, seat: int, kind: str | None = None) -> None:
        self.reminded.append((game_id, seat, kind))

    def request(self, game_id: int) -> None:
        pass


def ticker(node: Node, tmp_path: Path, clock: Clock | None = None) -> TabletopBot:
    bot = TabletopBot(Config(token="x", database_path=tmp_path / "unused.sqlite3"))
    bot.store, bot.sessions = node.store, node.sessions
    bot.publisher = Recorder(node.store, clock)  # type: ignore[assignment]
    return bot


def reminded(bot: TabletopBot) -> list[tuple[int, int, str | None]]:
    recorder = bot.publisher
    assert isinstance(recorder, Recorder)
    return recorder.reminded


async def timeouts(store: Store, game_id: int) -> list[int]:
    return [a.seq for a in await store.actions(game_id)
            if any(e.get("type") == "platform.timeout" for e in a.events)]


async def test_a_deadline_fires_once_with_two_timers(pair: tuple[Node, Node, Clock], tmp_path: Path) -> None:
    a, b, clock = pair
    game_id = await toy_game(a, channel=505, deadline_s=SPAN)
    await b.sessions.restore()
    bots = [ticker(a, tmp_path), ticker(b, tmp_path)]
    clock.now += SPAN + 1
    for _ in range(3):
        await asyncio.gather(*(bot.tick(clock.now) for bot in bots))
    assert len(await timeouts(a.store, game_id)) == 1  # one seat's deadline passed: one timeout
    owners = {bot.publisher.cluster.owner for bot in bots if bot.publisher.cluster is not None}
    holder = await a.store.lease(cluster_mod.TIMER)
    assert holder is not None and holder[0] in owners  # one process holds the timer
    sent = [r for bot in bots for r in reminded(bot)]
    assert len(sent) == len(set(sent))


async def test_a_timer_taking_over_sends_neither_a_reminder_again_nor_a_paused_deadline(
        pair: tuple[Node, Node, Clock], tmp_path: Path) -> None:
    """A fires the half-time reminder, then stops renewing the timer lease; B, which had the game
    cached from before, takes the timer over: it sends the final reminder only (not the half-time one
    again). A pauses the game's clock; B's timer does not let its deadline pass."""
    a, b, clock = pair
    span = 600  # reminders at 300 s and 60 s before the end (bot/core/reminders.py)
    game_id = await toy_game(a, channel=508, deadline_s=span)
    await b.sessions.get(game_id)  # B's copy: the reminder still at half time
    first, second = ticker(a, tmp_path, clock), ticker(b, tmp_path, clock)
    clock.now += span / 2 + 1
    await first.tick(clock.now)
    assert [k for _, _, k in reminded(first)] == ["half"]
    await first.publisher.cluster.renew()  # type: ignore[union-attr]  # (the timer is not renewed so)
    clock.now += cluster_mod.timer_lease_s(first.config.timer_interval) + 1  # A stops ticking: B's turn
    await second.tick(clock.now)
    assert reminded(second) == []  # the final reminder is not due yet; the half one was sent
    clock.now = (await a.store.deadlines(game_id))[0].due_at - 1  # the final reminder is due
    await second.tick(clock.now)
    assert [k for _, _, k in reminded(second)] == ["final"]
    from bot.discord_app import lifecycle

    await lifecycle.pause(a.sessions, game_id, ALICE.id, clock.now)  # in A; B's copy is not paused
    clock.now += span
    await second.tick(clock.now)
    assert await timeouts(a.store, game_id) == []
    assert [x.seq for x in await a.store.actions(game_id)] == []


@pytest.mark.parametrize("deadlines", [None, [Deadline(0, 5.0, None)]], ids=["same-deadlines", "new-deadlines"])
async def test_a_commit_expecting_an_older_change_stamp_is_refused(pair: tuple[Node, Node, Clock],
                                                                   deadlines: list[Deadline] | None) -> None:
    """Both forms of the commit (one statement when the deadlines stay, a transaction otherwise)."""
    a, _, _ = pair
    game_id = await toy_game(a, channel=510)
    version = await a.store.game_version(game_id)
    assert version is not None

    async def commit(expect: float) -> None:
        await a.store.commit_action(game_id, old_seq=0, new_seq=1, status="running", seat_counts=[1, 0],
                                    settings=GameSettings(), seat=0, user_id=ALICE.id, action={"type": "add", "n": 1},
                                    events=[], state_text="{}", deadlines=deadlines, expect_updated=expect)

    with pytest.raises(Conflict):
        await commit(version[1] - 0.5)
    assert await a.store.actions(game_id) == []
    await commit(version[1])
    assert [x.seq for x in await a.store.actions(game_id)] == [1]


async def test_a_concession_racing_a_move_elsewhere_is_kept(pair: tuple[Node, Node, Clock]) -> None:
    """B reads the game, then A records a concession (no move: seq stays) before B commits: B's
    commit is refused (the game changed since B read it), B reloads, applies its move once on top,
    and the concession stands."""
    a, b, _ = pair
    carol = UserInfo(3, "carol")
    session = await a.sessions.create(guild_id=5, channel_id=509, host=ALICE, game_key="toy", options={})
    await a.sessions.join(session.id, BOB)
    await a.sessions.join(session.id, carol)
    await a.sessions.start(session.id, ALICE.id, seed=7)
    game_id = session.id
    assert session.game is not None
    seat = session.game.actors()[0]
    other = next(s for s in range(3) if s != seat)
    other_user = (session.row.seat_users or [])[other][0]
    mover = (session.row.seat_users or [])[seat][0]
    await b.sessions.get(game_id)
    real_commit = b.store.commit_action
    attempts: list[int] = []

    async def concession_first(gid: int, **kw: Any) -> None:
        attempts.append(kw["old_seq"])
        if len(attempts) == 1:
            await a.sessions.concede(gid, other_user)  # lands between B's look at the game and its commit
        await real_commit(gid, **kw)

    b.store.commit_action = concession_first  # type: ignore[method-assign,assignment]
    await b.sessions.act(game_id, mover, seat, {"type": "add", "n": 1})
    row = await a.store.load_game(game_id)
    assert row is not None and row.seq == 1 and row.settings.conceded == [other]
    assert attempts == [0, 0]  # refused once (the game had changed), applied once on the stored game
    assert [x.seq for x in await a.store.actions(game_id)] == [1]


async def test_without_the_timer_lease_the_seq_check_still_fires_a_deadline_once(pair: tuple[Node, Node, Clock]
                                                                                  ) -> None:
    """Defence in depth: both processes expire the same seat at the same moment; one commit wins, the
    other loses the optimistic check, reloads and finds the deadline gone."""
    a, b, clock = pair
    game_id = await toy_game(a, channel=506, deadline_s=SPAN)
    await b.sessions.get(game_id)
    session = await a.sessions.get(game_id)
    assert session.game is not None
    (seat,) = session.game.actors()
    clock.now += SPAN + 1
    results = await asyncio.gather(a.sessions.expire(game_id, seat), b.sessions.expire(game_id, seat))
    assert sum(r is not None for r in results) == 1
    assert len(await timeouts(a.store, game_id)) == 1
    assert [x.seq for x in await a.store.actions(game_id)] == [1]


# ---- notifications ------------------------------------------------------------------------------------
async def test_notify_wakes_the_other_process_and_the_listener_reconnects(pair: tuple[Node, Node, Clock]) -> None:
    a, b, _ = pair
    heard: list[int] = []
    listener = Cluster(b.store, poll_s=0.1)
    listener.on_changed = heard.append
    await listener.start()
    try:
        game_id = await toy_game(a, channel=507)  # the start notifies too
        session = await a.sessions.get(game_id)
        assert session.game is not None
        seat = session.game.actors()[0]
        await a.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1})
        await wait_for(lambda: heard.count(game_id) >= 2)
        # the listening connection is cut by the server: the loop connects again and hears on
        async with a.store.db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
        ) as cur:
            assert len(list(await cur.fetchall())) >= 1
        await wait_for(lambda: not listener.listening)
        await wait_for(lambda: listener.listening)
        heard.clear()
        seat = session.game.actors()[0]
        await a.sessions.act(game_id, user_of(seat), seat, {"type": "add", "n": 1})
        await wait_for(lambda: heard == [game_id])
    finally:
        await listener.stop()


async def wait_for(check: Any, timeout: float = 5.0) -> None:
    ends = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < ends, "timed out"
        await asyncio.sleep(0.02)


# ---- migrations ---------------------------------------------------------------------------------------
async def test_two_processes_starting_at_once_migrate_once(pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server, "mig")
    stores = await asyncio.gather(*(Store.open(url) for _ in range(3)))
    try:
        for store in stores:
            assert await store.schema_version() == SCHEMA_VERSION
        async with stores[0].db.execute("SELECT count(*) FROM schema_version") as cur:
            assert (await cur.fetchone() or [0])[0] == 1
        from bot.core.stats import Stats

        await asyncio.gather(*(Stats(s).setup() for s in stores))  # the stats' tables likewise
    finally:
        for store in stores:
            await store.close()


async def test_a_bot_older_than_the_schema_refuses_to_start(pg_server: PgServer | None,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    url = await new_pg_url(pg_server, "old")
    store = await Store.open(url)
    await store.write("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    await store.close()
    with pytest.raises(SchemaTooNew) as refused:
        await Store.open(url)
    assert f"schema version {SCHEMA_VERSION + 1} is newer" in str(refused.value)
    assert any(r.levelname == "CRITICAL" and "upgrade" in r.getMessage() for r in caplog.records)
