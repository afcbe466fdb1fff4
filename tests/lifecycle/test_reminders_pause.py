"""Reminders fire once each at half time and shortly before the end, survive a restart, and hold
while a game's clock is paused; resuming gives every deadline back the paused time (issue 12:
"a reminder at half time and one shortly before the end"; "A host may pause a game's clock").
Real SQLite, an injected clock, the platform's toy game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import reminders
from bot.core.sessions import SessionError, SessionManager
from bot.core.store import Store
from bot.discord_app import lifecycle
from tests.lifecycle.common import ALICE, BOB, Clock, RecordingPublisher, running_game

SPAN = 3600


async def deadline_rows(store: Store, game_id: int) -> dict[int, tuple[float, float | None]]:
    return {d.seat: (d.due_at, d.remind_at) for d in await store.deadlines(game_id)}


def test_presets_and_schedule() -> None:
    # the presets: live 2 minutes, casual 12 hours, slow 48 hours
    assert reminders.PRESETS == {"live": 120, "casual": 43200, "slow": 172800}
    # half time, then shortly before the end: 30 s before a 2-minute turn, an hour before a long one
    assert reminders.reminder_times(1120.0, 120) == [(1060.0, "half"), (1090.0, "final")]
    assert reminders.reminder_times(43200.0, 43200) == [(21600.0, "half"), (39600.0, "final")]
    assert reminders.reminder_times(172800.0, 172800) == [(86400.0, "half"), (169200.0, "final")]
    assert reminders.next_reminder(1120.0, 120, 1060.0) == 1090.0
    assert reminders.next_reminder(1120.0, 120, 1090.0) is None
    assert reminders.kind_of(1120.0, 120, 1090.0) == "final" and reminders.kind_of(1120.0, 120, 1060.0) == "half"
    assert reminders.reminder_times(100.0, 0) == []


def test_custom_durations() -> None:
    assert reminders.parse_duration("casual") == 43200
    assert reminders.parse_duration("90m") == 5400
    assert reminders.parse_duration("1h30m") == 5400
    assert reminders.parse_duration("2d") == 172800
    assert reminders.parse_duration("6") == 21600  # a bare number is hours
    assert reminders.parse_duration("12ч") == 43200
    assert reminders.parse_duration("0") == 0
    for bad in ("", "soon", "5x", "15d", "10s", "h"):
        assert reminders.parse_duration(bad) is None, bad


async def test_reminders_fire_once_each_at_the_right_times_and_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    store = await Store.open(db)
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    gid = await running_game(sessions, span=SPAN)
    ((seat, (due, remind)),) = (await deadline_rows(store, gid)).items()
    assert (due, remind) == (1000.0 + SPAN, 1000.0 + SPAN / 2)
    publisher = RecordingPublisher(store)
    expired: list[tuple[int, int]] = []

    async def expire(game_id: int, s: int) -> None:
        expired.append((game_id, s))

    for now in (1000.0, 2000.0, 2799.0):
        await lifecycle.tick(sessions, publisher, now, expire)  # type: ignore[arg-type]
    assert publisher.reminded == []
    await lifecycle.tick(sessions, publisher, 2800.0, expire)  # type: ignore[arg-type]
    await lifecycle.tick(sessions, publisher, 2810.0, expire)  # type: ignore[arg-type]
    assert publisher.reminded == [(gid, seat, "half")]  # once
    # the next reminder is stored in the row: a tenth of the one-hour turn before the end (360 s)
    assert (await deadline_rows(store, gid))[seat] == (due, due - 360.0)
    await store.close()

    # a restart: a new process reads the same rows and repeats nothing
    store = await Store.open(db)
    sessions = SessionManager(store, clock=clock)
    await sessions.restore()
    publisher = RecordingPublisher(store)
    for now in (2900.0, due - 361.0):
        await lifecycle.tick(sessions, publisher, now, expire)  # type: ignore[arg-type]
    assert publisher.reminded == []
    await lifecycle.tick(sessions, publisher, due - 360.0, expire)  # type: ignore[arg-type]
    await lifecycle.tick(sessions, publisher, due - 100.0, expire)  # type: ignore[arg-type]
    assert publisher.reminded == [(gid, seat, "final")]
    assert (await deadline_rows(store, gid))[seat] == (due, None)
    assert expired == []
    await lifecycle.tick(sessions, publisher, due, expire)  # type: ignore[arg-type]
    assert expired == [(gid, seat)]
    await store.close()


async def test_pause_holds_everything_and_resume_extends_by_the_paused_time(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "p.sqlite3")
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    gid = await running_game(sessions, span=SPAN)
    ((seat, (due, remind)),) = (await deadline_rows(store, gid)).items()
    await lifecycle.pause(sessions, gid, ALICE.id, 2000.0)
    with pytest.raises(SessionError):
        await lifecycle.pause(sessions, gid, ALICE.id, 2001.0)
    publisher = RecordingPublisher(store)
    expired: list[tuple[int, int]] = []

    async def expire(game_id: int, s: int) -> None:
        expired.append((game_id, s))

    # long past the reminder and the deadline, while paused: nothing fires
    for now in (2800.0, 4600.0, 9000.0):
        await lifecycle.tick(sessions, publisher, now, expire)  # type: ignore[arg-type]
    assert publisher.reminded == [] and expired == []
    stored = await store.load_game(gid)
    assert stored is not None and stored.settings.extra["paused_at"] == 2000.0  # survives a restart

    paused_for = await lifecycle.resume(sessions, gid, 9200.0)
    assert paused_for == 7200.0
    # every deadline and its reminder moved by exactly the paused time (7200 s)
    assert (await deadline_rows(store, gid))[seat] == (due + 7200.0, remind + 7200.0)
    assert sessions.sessions[gid].deadlines[seat] == (due + 7200.0, remind + 7200.0)
    stored = await store.load_game(gid)
    assert stored is not None and "paused_at" not in stored.settings.extra
    with pytest.raises(SessionError):
        await lifecycle.resume(sessions, gid, 9300.0)
    await store.close()


async def test_a_deadline_set_during_the_pause_starts_counting_at_resume(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "q.sqlite3")
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    gid = await running_game(sessions, span=SPAN)
    session = sessions.sessions[gid]
    await lifecycle.pause(sessions, gid, ALICE.id, 2000.0)
    clock.now = 3000.0
    (seat,) = session.game.actors()  # type: ignore[union-attr]
    user = (session.row.seat_users or [])[seat][0]
    await sessions.act(gid, user, seat, {"type": "add", "n": 1})  # moving is allowed while paused
    ((other, (due, _)),) = (await deadline_rows(store, gid)).items()
    assert other != seat and due == 3000.0 + SPAN
    await lifecycle.resume(sessions, gid, 9200.0)
    # the whole turn is still ahead: it was set during the pause
    assert (await deadline_rows(store, gid))[other] == (9200.0 + SPAN, 9200.0 + SPAN / 2)
    await store.close()


def test_resumed_arithmetic() -> None:
    timer = reminders.Timer(4600.0, None)
    assert reminders.resumed(timer, 3600, 2000.0, 2500.0) == (5100.0, None)
    # paused before it was set (a move during the pause): counted from the resume
    assert reminders.resumed(reminders.Timer(6600.0, 4800.0), 3600, 2000.0, 9200.0) == (12800.0, 11000.0)


async def test_vote_and_pause_need_a_running_game(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "n.sqlite3")
    sessions = SessionManager(store, clock=Clock(1000.0))
    lobby = await sessions.create(guild_id=5, channel_id=7, host=ALICE, game_key="toy", options={}, deadline_s=60)
    await sessions.join(lobby.id, BOB)
    with pytest.raises(SessionError):
        await lifecycle.pause(sessions, lobby.id, ALICE.id, 1000.0)
    await store.close()
