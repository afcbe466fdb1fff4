"""Store and session layer: lobby, seats, commits, refusals, concurrency, deadlines, restore, replay."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from bot.core.replay import verify
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import SCHEMA_VERSION, Store
from bot.games import registry
from tests.platform.toy import toy_manifest

ALICE, BOB, CAROL, EVE = UserInfo(1, "alice"), UserInfo(2, "bob"), UserInfo(3, "carol", "ru"), UserInfo(9, "eve")


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


@pytest.fixture
async def env(tmp_path: Path):
    store = await Store.open(tmp_path / "t.sqlite3")
    changed: list[int] = []
    clock = {"now": 1000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"], on_change=changed.append)
    yield store, sessions, changed, clock
    await store.close()


async def started(sessions: SessionManager, *users: UserInfo, channel: int = 100, deadline_s: int = 0):
    session = await sessions.create(guild_id=5, channel_id=channel, host=users[0], game_key="toy", options={},
                                    deadline_s=deadline_s)
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=1234)
    return session


def actor_user(session) -> tuple[int, int]:
    seat = session.game.actors()[0]
    return seat, session.row.seat_users[seat][0]


async def test_schema_and_migrations_are_idempotent(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "m.sqlite3")
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    store = await Store.open(tmp_path / "m.sqlite3")
    assert await store.schema_version() == SCHEMA_VERSION
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await store.close()


async def test_one_unfinished_game_per_channel(env) -> None:
    store, sessions, _, _ = env
    await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={})
    with pytest.raises(SessionError) as err:
        await sessions.create(guild_id=5, channel_id=100, host=BOB, game_key="toy", options={})
    assert err.value.key == "err.channel_busy"
    # the database enforces it too, even past the in-memory index
    with pytest.raises(sqlite3.IntegrityError):
        await store.db.execute(
            "INSERT INTO games (channel_id, game, status, host_id, lang, options, lobby, settings, created_at,"
            " updated_at) VALUES (100, 'toy', 'lobby', 2, 'en', '{}', '[]', '{}', 0, 0)")


async def test_lobby_rules(env) -> None:
    _, sessions, _, _ = env
    session = await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={})
    with pytest.raises(SessionError) as err:
        await sessions.start(session.id, ALICE.id)
    assert err.value.key == "err.player_count"
    await sessions.join(session.id, BOB)
    with pytest.raises(SessionError) as err:
        await sessions.start(session.id, BOB.id)
    assert err.value.key == "err.host_only"
    with pytest.raises(SessionError) as err:
        await sessions.leave_lobby(session.id, ALICE.id)
    assert err.value.key == "err.host_cannot_leave"
    for uid in (3, 4, 5):
        if uid < 5:
            await sessions.join(session.id, UserInfo(uid, f"u{uid}"))
    with pytest.raises(SessionError) as err:
        await sessions.join(session.id, UserInfo(5, "u5"))
    assert err.value.key == "err.lobby_full"
    await sessions.start(session.id, ALICE.id, seed=1)
    assert session.row.status == "running" and len(session.row.seat_users) == 4
    with pytest.raises(SessionError) as err:
        await sessions.join(session.id, EVE)
    assert err.value.key == "err.not_lobby"


async def test_act_commits_and_refuses(env) -> None:
    store, sessions, changed, _ = env
    session = await started(sessions, ALICE, BOB)
    seat, user = actor_user(session)
    other_user = session.row.seat_users[1 - seat][0]
    with pytest.raises(SessionError, match="err.spectator"):
        await sessions.act(session.id, EVE.id, seat, {"type": "add", "n": 1})
    with pytest.raises(SessionError, match="err.not_your_seat"):
        await sessions.act(session.id, other_user, seat, {"type": "add", "n": 1})
    with pytest.raises(SessionError, match="err.not_your_turn"):
        await sessions.act(session.id, other_user, 1 - seat, {"type": "add", "n": 1})
    before = await store.load_game(session.id)
    # an action the game does not list never reaches its rules (a slash command can build anything)
    from tests.platform.toy import Toy

    calls: list[dict] = []
    original = Toy.apply

    def spy(self, seat, action):
        calls.append(action)
        return original(self, seat, action)

    Toy.apply = spy
    try:
        for bogus in ({"type": "add", "n": 7}, {"type": "add", "n": "2"}, {"type": "add"}, ["add", 2]):
            with pytest.raises(SessionError, match="err.not_legal"):
                await sessions.act(session.id, user, seat, bogus)
    finally:
        Toy.apply = original
    assert calls == []
    after = await store.load_game(session.id)
    assert after.state == before.state and after.seq == before.seq == 0
    result = await sessions.act(session.id, user, seat, {"type": "add", "n": 2}, stamp=0)
    assert result.events[0]["total"] == 2
    stored = await store.load_game(session.id)
    assert stored.seq == 1 and stored.state["total"] == 2 and stored.seat_counts[seat] == 1
    assert changed[-1] == session.id
    # the next seat is announced as newly prompted
    # (with the open decision it now holds: the toy's default, one "move" of the seat to act)
    assert {"type": "platform.prompt", "seats": [1 - seat],
            "decisions": [{"kind": "move", "seats": [1 - seat]}]} in result.events
    # a control built before the seat's last action is stale
    with pytest.raises(SessionError, match="err.stale"):
        await sessions.act(session.id, other_user, 1 - seat, {"type": "add", "n": 1}, stamp=5)


async def test_concurrent_double_click_applies_once(env) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    seat, user = actor_user(session)
    results = await asyncio.gather(
        *[sessions.act(session.id, user, seat, {"type": "add", "n": 1}, stamp=0) for _ in range(5)],
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, SessionError)]
    assert len(ok) == 1 and len(refused) == 4
    assert all(r.key == "err.stale" for r in refused)
    assert (await store.load_game(session.id)).seq == 1
    assert len(await store.actions(session.id)) == 1


async def test_failed_commit_leaves_memory_as_committed(env, monkeypatch: pytest.MonkeyPatch) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    seat, user = actor_user(session)

    async def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "commit_action", broken)
    with pytest.raises(sqlite3.OperationalError):
        await sessions.act(session.id, user, seat, {"type": "add", "n": 2})
    assert session.game.to_json()["total"] == 0 and session.row.seq == 0
    assert session.row.seat_counts == [0, 0]
    monkeypatch.undo()
    await sessions.act(session.id, user, seat, {"type": "add", "n": 2})
    assert (await store.load_game(session.id)).state["total"] == 2


async def test_simultaneous_choice_keeps_other_controls_valid(env) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB, CAROL)
    for _ in range(3):
        seat, user = actor_user(session)
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
    assert session.game.is_simultaneous() and len(session.game.actors()) == 3
    stamps = list(session.row.seat_counts)
    first = session.row.seat_users[0][0]
    result = await sessions.act(session.id, first, 0, {"type": "pick", "n": 3}, stamp=stamps[0])
    assert result.events[0]["to"] == [0]
    # seat 1's panel was built before seat 0 acted, and is still valid
    await sessions.act(session.id, session.row.seat_users[1][0], 1, {"type": "pick", "n": 2}, stamp=stamps[1])
    result = await sessions.act(session.id, session.row.seat_users[2][0], 2, {"type": "pick", "n": 1},
                                stamp=stamps[2])
    assert any(e["type"] == "reveal" for e in result.events)
    assert await verify(store, session.id)


async def test_restart_restores_and_replay_matches(env, tmp_path: Path) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    for _ in range(2):
        seat, user = actor_user(session)
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
    await store.close()
    store2 = await Store.open(tmp_path / "t.sqlite3")
    try:
        fresh = SessionManager(store2)
        stale = await fresh.restore()
        assert stale == [session.id]  # nothing was published in this test
        again = await fresh.channel_session(100)
        assert again is not None and again.game.to_json()["total"] == 2
        seat, user = actor_user(again)
        await fresh.act(again.id, user, seat, {"type": "add", "n": 2})
        assert await verify(store2, again.id)
    finally:
        await store2.close()


async def test_deadline_expiry_and_reminder(env) -> None:
    store, sessions, _, clock = env
    session = await started(sessions, ALICE, BOB, deadline_s=3600)
    seat, _ = actor_user(session)
    deadlines = await store.deadlines(session.id)
    assert deadlines == [(seat, 1000.0 + 3600, 1000.0 + 1800)]
    assert await store.due_reminders(1000.0 + 1799) == []
    assert await store.due_reminders(1000.0 + 1800) == [(session.id, seat)]
    clock["now"] = 1000.0 + 3600
    assert await store.due_deadlines(clock["now"]) == [(session.id, seat)]
    events = await sessions.expire(session.id, seat)
    assert events[0] == {"type": "platform.timeout", "seat": seat}
    assert session.game.to_json()["total"] == 1
    # the next seat got a fresh deadline, the expired one is gone
    assert [d[0] for d in await store.deadlines(session.id)] == [1 - seat]
    assert await sessions.expire(session.id, seat) is None


async def test_concede_ends_two_player_game_and_frees_channel(env) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    await sessions.concede(session.id, BOB.id)
    stored = await store.load_game(session.id)
    assert stored.status == "finished"
    winner_seat = session.seats_of(ALICE.id)[0]
    assert stored.settings.outcome["winners"] == [winner_seat]
    assert sessions.by_channel(100) is None
    await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={})


async def test_concede_in_three_player_game_autoplays_the_seat(env) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB, CAROL)
    await sessions.concede(session.id, CAROL.id)
    carol_seat = session.seats_of(CAROL.id)[0]
    for _ in range(12):
        if session.row.status != "running":
            break
        seat, user = actor_user(session)
        assert seat != carol_seat
        for s in list(session.game.actors()):
            await sessions.act(session.id, session.row.seat_users[s][0], s, session.game.legal_actions(s)[0])
    assert await verify(store, session.id)


async def test_admin_action_logged_and_replayed(env) -> None:
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    seat, user = actor_user(session)
    await sessions.act(session.id, user, seat, {"type": "add", "n": 2})
    await sessions.act_admin(session.id, ALICE.id, {"type": "penalty"})
    assert session.game.to_json()["total"] == 1
    log = await store.actions(session.id)
    assert log[-1].seat == -1
    assert await verify(store, session.id)
    with pytest.raises(SessionError, match="err.stale"):
        await sessions.act_admin(session.id, ALICE.id, {"type": "bogus"})


async def test_restore_ten_thousand_index_is_cheap(tmp_path: Path) -> None:
    """Restore of 10,000 unfinished games reads an index, never a state (the benchmark measures
    the time): every game is indexed by channel, none is loaded, and no query reads ``state``."""
    count = 10_000
    store = await Store.open(tmp_path / "many.sqlite3")
    state = json.dumps({"big": "x" * 100})
    rows = [(5, 10_000 + i, "toy", "running" if i % 4 else "lobby", 1, "en", "{}", "[]", "{}", state, i % 3, 0, 0)
            for i in range(count)]
    async with store.transaction():  # one transaction: a bulk insert, not 10,000 commits
        await store.db.executemany(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, lang, options, lobby, settings, state,"
            " seq, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    statements: list[str] = []
    await store.db.set_trace_callback(statements.append)
    sessions = SessionManager(store)
    stale = await sessions.restore()
    await store.db.set_trace_callback(None)
    assert len(sessions.sessions) == count
    assert sessions.channels == {10_000 + i: i + 1 for i in range(count)}
    assert all(s.game is None and s.row.state is None and s.broken is None for s in sessions.sessions.values())
    # running games whose last actions were not announced yet (seq 1 or 2, published 0)
    assert sorted(stale) == [i + 1 for i in range(count) if i % 4 and i % 3]
    assert statements and not any("state" in sql.split("FROM")[0] or "*" in sql for sql in statements)
    await store.close()


async def test_many_channels_commit_concurrently_without_mixing_transactions(env) -> None:
    """One shared connection, many games acting at once: every commit lands, none interleave."""
    store, sessions, _, _ = env
    games = []
    for n in range(12):
        games.append(await started(sessions, UserInfo(100 + 2 * n, "a"), UserInfo(101 + 2 * n, "b"),
                                   channel=1000 + n))

    async def play(session) -> int:
        moves = 0
        while session.row.status == "running" and moves < 6:
            seat, user = actor_user(session)
            action = session.game.legal_actions(seat)[0]
            await sessions.act(session.id, user, seat, action)
            moves += 1
        return moves

    counts = await asyncio.gather(*[play(s) for s in games])
    for session, moves in zip(games, counts, strict=True):
        stored = await store.load_game(session.id)
        assert stored.seq == moves == len(await store.actions(session.id))
        assert await verify(store, session.id)


async def test_event_with_malformed_recipients_is_refused_and_undone(env, monkeypatch: pytest.MonkeyPatch,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """A game bug that would misroute a private event never reaches the database; the error is
    logged with the game and the (public) action."""
    from tests.platform.toy import Toy

    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    seat, user = actor_user(session)
    original = Toy.apply

    def leaky(self, seat, action):
        events = original(self, seat, action)
        return [*events, {"type": "secret", "to": "Gaul"}]

    monkeypatch.setattr(Toy, "apply", leaky)
    with pytest.raises(SessionError, match="err.move_failed") as err:
        await sessions.act(session.id, user, seat, {"type": "add", "n": 2})
    assert "malformed" in str(err.value.__cause__)
    assert f"game {session.id} (toy): seat {seat}'s move {{\"type\":\"add\",\"n\":2}} failed" in caplog.text
    assert session.game.to_json()["total"] == 0 and session.row.seq == 0
    assert (await store.load_game(session.id)).seq == 0


def test_state_text_matches_to_json_for_every_game() -> None:
    """The fast serialisation each game may provide stores exactly what ``to_json`` returns."""
    import importlib

    for key in ("pobeda", "coldwar", "godstorm"):
        game = importlib.import_module(f"bot.games.{key}").bench_state()
        assert json.loads(game.to_json_text()) == json.loads(json.dumps(game.to_json())), key


async def test_concurrent_first_access_after_restart_loads_one_game(env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second first-access must not replace the live game with a copy loaded before a commit."""
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    seat, user = actor_user(session)
    fresh = SessionManager(store)
    await fresh.restore()
    committing = asyncio.Event()
    original_load, original_commit = store.load_game, store.commit_action
    loads = 0

    async def load_game(game_id: int):
        nonlocal loads
        loads += 1
        row = await original_load(game_id)
        if loads == 2:
            await committing.wait()  # hold this (pre-commit) copy until the first caller commits
        return row

    async def commit_action(*args, **kwargs):
        committing.set()
        await asyncio.sleep(0.01)
        return await original_commit(*args, **kwargs)

    monkeypatch.setattr(store, "load_game", load_game)
    monkeypatch.setattr(store, "commit_action", commit_action)
    first = asyncio.create_task(fresh.act(session.id, user, seat, {"type": "add", "n": 1}, stamp=0))
    second = asyncio.create_task(fresh.get(session.id))
    await asyncio.wait_for(asyncio.gather(first, second), timeout=10)
    committing.set()
    live = await fresh.get(session.id)
    assert live.row.seq == 1 and live.game.to_json()["total"] == 1
    other = live.game.actors()[0]
    await fresh.act(session.id, live.row.seat_users[other][0], other, {"type": "add", "n": 1})
    assert (await original_load(session.id)).seq == 2


async def test_meta_settings_survive_reopen(tmp_path: Path) -> None:
    """Install-wide settings (schema version 2) are kept across a reopen and overwritten in place."""
    path = tmp_path / "meta.sqlite3"
    store = await Store.open(path)
    assert await store.get_meta("secret") is None
    await store.set_meta("secret", "one")
    await store.set_meta("secret", "two")
    await store.close()
    store = await Store.open(path)
    assert await store.get_meta("secret") == "two"
    await store.close()


async def test_a_game_ended_but_not_announced_before_a_restart_is_announced_after_it(env, tmp_path: Path) -> None:
    """The final move commits the game as finished; a process killed before posting it must still post it
    at the next start, although a finished game is no longer indexed (the soak's SIGKILLs found this)."""
    store, sessions, _, _ = env
    session = await started(sessions, ALICE, BOB)
    while session.game.outcome() is None:
        seat, user = actor_user(session)
        await sessions.act(session.id, user, seat, session.game.legal_actions(seat)[-1])
    await store.close()
    store2 = await Store.open(tmp_path / "t.sqlite3")
    try:
        fresh = SessionManager(store2)
        assert (await store2.load_game(session.id)).status == "finished"
        assert await fresh.restore() == [session.id] and fresh.by_channel(100) is None
        await store2.mark_published(session.id, (await store2.load_game(session.id)).seq)
        assert await SessionManager(store2).restore() == []  # once announced, nothing is left to do
    finally:
        await store2.close()
