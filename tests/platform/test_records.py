"""Named records of the platform (issue 15, item 5): deadlines, stored messages, lobby entries and
game settings are records with named fields, while the database columns and their JSON stay
exactly what they were. The expected JSON texts below are written by hand in the format the bot
stored before the records existed (``dumps``: compact, keys in insertion order)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import (
    Deadline,
    DueSeat,
    GameSettings,
    LobbyEntry,
    SeatTimer,
    Store,
    StoredMessage,
    dumps,
)
from bot.games import registry
from tests.platform.toy import toy_manifest


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


@pytest.fixture
async def store(tmp_path: Path):
    store = await Store.open(tmp_path / "records.sqlite3")
    yield store
    await store.close()


def raw_columns(store: Store, game_id: int) -> tuple[str, str]:
    con = sqlite3.connect(store.path)
    try:
        lobby, settings = con.execute("SELECT lobby, settings FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        con.close()
    return lobby, settings


async def test_lobby_and_settings_columns_keep_their_json(store: Store) -> None:
    clock = {"now": 1000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"])
    session = await sessions.create(guild_id=1, channel_id=5, host=UserInfo(1, "host", "ru"), game_key="toy",
                                    options={}, deadline_s=3600)
    await sessions.join(session.id, UserInfo(2, "guest", "en"))
    lobby, settings = raw_columns(store, session.id)
    assert lobby == ('[{"user":1,"name":"host","lang":"ru","team":null},'
                     '{"user":2,"name":"guest","lang":"en","team":null}]')
    assert settings == '{"deadline_s":3600}'
    assert session.row.lobby == [LobbyEntry(1, "host", "ru", None), LobbyEntry(2, "guest", "en", None)]
    assert session.row.settings == GameSettings(deadline_s=3600)
    await sessions.start(session.id, 1, seed=3)
    _, settings = raw_columns(store, session.id)
    data = json.loads(settings)
    assert list(data) == ["deadline_s", "rng_version", "state_version"] and data["deadline_s"] == 3600
    loaded = await store.load_game(session.id)
    assert loaded is not None and loaded.settings == session.row.settings and loaded.lobby == session.row.lobby


def test_stored_json_round_trips_exactly() -> None:
    settings = ('{"deadline_s":0,"rng_version":2,"state_version":1,"conceded":[1],'
                '"outcome":{"winners":[0],"draw":false,"conceded":true}}')
    parsed = GameSettings.from_json(json.loads(settings))
    assert parsed.conceded == [1] and parsed.outcome == {"winners": [0], "draw": False, "conceded": True}
    assert dumps(parsed) == settings
    # a key this version does not know (written by a newer bot) survives a write
    newer = '{"deadline_s":60,"future_flag":{"x":1}}'
    assert dumps(GameSettings.from_json(json.loads(newer))) == newer
    # games stored before versioning have no rng or state version: absent, not written as null
    assert dumps(GameSettings.from_json({"deadline_s": 0})) == '{"deadline_s":0}'
    entry = '{"user":7,"name":"Оля","lang":"ru","team":1}'
    assert dumps(LobbyEntry.from_json(json.loads(entry))) == entry
    assert dumps([LobbyEntry(7, "Оля", "ru", 1)]) == "[" + entry + "]"


async def test_an_entry_stored_without_a_language_uses_the_games(store: Store) -> None:
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=6, host=UserInfo(1, "host", "ru"), game_key="toy",
                                    options={})
    con = sqlite3.connect(store.path)
    con.execute("UPDATE games SET lobby = ? WHERE id = ?", ('[{"user":1,"name":"host","team":null}]', session.id))
    con.commit()
    con.close()
    row = await store.load_game(session.id)
    assert row is not None and row.lobby == [LobbyEntry(1, "host", None, None)]
    session.row = row
    assert session.user_lang(1) == row.lang == "ru" and session.user_name(1) == "host"


async def test_deadline_rows_and_due_seats_have_names(store: Store) -> None:
    clock = {"now": 1000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"])
    session = await sessions.create(guild_id=1, channel_id=8, host=UserInfo(1, "host"), game_key="toy",
                                    options={}, deadline_s=600)
    await sessions.join(session.id, UserInfo(2, "guest"))
    await sessions.start(session.id, 1, seed=3)
    game = session.game
    assert game is not None
    rows = await store.deadlines(session.id)
    # the toy's actors must act within the lobby's 600 s, reminded at half of it
    assert rows == [Deadline(seat, 1600.0, 1300.0) for seat in sorted(game.actors())]
    assert all(isinstance(r, Deadline) and r.due_at == 1600.0 and r.remind_at == 1300.0 for r in rows)
    assert session.deadlines == {seat: SeatTimer(1600.0, 1300.0) for seat in game.actors()}
    due = await store.due_reminders(1300.0)
    assert due == [DueSeat(session.id, r.seat) for r in rows] and due[0].game_id == session.id
    assert [d.seat for d in await store.due_deadlines(1600.0)] == [r.seat for r in rows]


async def test_a_stored_message_has_names(store: Store) -> None:
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=9, host=UserInfo(1, "host"), game_key="toy", options={})
    assert await store.get_message(session.id, "turn") is None
    await store.set_message(session.id, "turn", 9, 1234, {"seq": 3})
    await store.set_message(session.id, "lobby", 9, 99)
    turn = await store.get_message(session.id, "turn")
    assert turn == StoredMessage(channel_id=9, message_id=1234, data={"seq": 3})
    assert turn is not None and turn.data["seq"] == 3
    assert await store.get_message(session.id, "lobby") == StoredMessage(9, 99, {})  # no data: an empty dict


async def test_a_row_whose_settings_are_not_an_object_is_marked_broken_not_fatal(store: Store) -> None:
    sessions = SessionManager(store)
    bad = await sessions.create(guild_id=1, channel_id=10, host=UserInfo(1, "host"), game_key="toy", options={})
    no_user = await sessions.create(guild_id=1, channel_id=11, host=UserInfo(1, "host"), game_key="toy",
                                    options={})
    con = sqlite3.connect(store.path)
    con.execute("UPDATE games SET settings = '[1, 2]' WHERE id = ?", (bad.id,))
    con.execute("UPDATE games SET lobby = '[{\"name\": \"no user\"}]' WHERE id = ?", (no_user.id,))
    con.commit()
    con.close()
    reasons: dict[int, str] = {}
    rows = await store.open_games(reasons)
    assert {r.id for r in rows} == {bad.id, no_user.id}  # both stay indexed (their channels stay busy)
    assert set(reasons) == {bad.id, no_user.id}
    assert "TypeError" in reasons[bad.id] and "KeyError" in reasons[no_user.id]
