"""One broken game harms no other: a stored game that cannot be loaded is marked broken (once),
its channel is told once, moves on it are refused, it can still be listed and aborted, and
start-up and every other game go on."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.core.i18n import t
from bot.core.sessions import Session, SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from tests.platform.toy import toy_manifest

A, B = UserInfo(1, "a"), UserInfo(2, "b")


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


async def start_toy(sessions: SessionManager, channel: int, deadline_s: int = 0) -> int:
    session = await sessions.create(guild_id=5, channel_id=channel, host=A, game_key="toy", options={},
                                    deadline_s=deadline_s)
    await sessions.join(session.id, B)
    await sessions.start(session.id, A.id, seed=3)
    return session.id


async def one_move(sessions: SessionManager, game_id: int) -> None:
    session = await sessions.get(game_id)
    game = session.game
    seat = game.actors()[0]
    await sessions.act(game_id, session.row.seat_users[seat][0], seat, game.legal_actions(seat)[0])


def restarted(store: Store, told: list[int]) -> SessionManager:
    sessions = SessionManager(store, clock=lambda: 1000.0)

    def on_broken(session: Session) -> None:
        told.append(session.id)

    sessions.on_broken = on_broken
    return sessions


@pytest.mark.parametrize("state", [
    "{not json",                                   # bad JSON
    '{"shape": "unknown"}',                        # an unknown shape: from_json fails
    '{"n": 2, "total": 0, "turn": 0, "moves": 0, "winner": null, "rng": {"seed": 1, "n": 0}}',  # fails on use
    "null",
])
async def test_a_state_that_cannot_load_breaks_only_its_game(tmp_path: Path, state: str,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "b.sqlite3"
    store = await Store.open(db)
    first = SessionManager(store, clock=lambda: 1000.0)
    bad = await start_toy(first, 100, deadline_s=600)
    good = await start_toy(first, 200, deadline_s=600)
    await one_move(first, bad)
    await store.write("UPDATE games SET state = ? WHERE id = ?", (state, bad))
    await store.close()

    store = await Store.open(db)
    told: list[int] = []
    sessions = restarted(store, told)
    await sessions.restore()  # states load lazily: nothing fails here
    with caplog.at_level(logging.ERROR, logger="bot.core.sessions"):
        session = await sessions.get(bad)
    assert session.game is None and session.broken
    assert told == [bad]
    assert any(f"game {bad}" in r.getMessage() and "broken" in r.getMessage() for r in caplog.records)
    with pytest.raises(SessionError) as err:
        await sessions.act(bad, A.id, 0, {"type": "add", "n": 1})
    assert err.value.key == "err.game_broken" and err.value.params == {"id": bad}
    assert await store.deadlines(bad) == [] and await sessions.expire(bad, 0) is None
    assert (await store.due_deadlines(10**12)) == [(good, s) for s, _, _ in await store.deadlines(good)]
    # every other game plays on
    await one_move(sessions, good)
    assert (await store.load_game(good)).seq == 1

    # a restart tries it again (an upgrade might read it), finds it still broken, and says nothing new
    store2 = await Store.open(db)
    again = restarted(store2, told)
    await again.restore()
    session = await again.get(bad)
    assert session.broken and told == [bad] and (await store2.broken_games()).keys() == {bad}
    assert {row.id for row in await store2.games_in_guild(5)} == {bad, good}
    # it can be aborted, which frees the channel for a new game
    await again.abort(bad)
    assert (await store2.load_game_text(bad))[0].status == "aborted"
    fresh = await again.create(guild_id=5, channel_id=100, host=A, game_key="toy", options={})
    assert fresh.id != bad
    await store2.close()
    await store.close()


async def test_start_up_skips_rows_that_do_not_parse_or_name_no_game(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "s.sqlite3"
    store = await Store.open(db)
    sessions = SessionManager(store)
    lobby_bad = (await sessions.create(guild_id=5, channel_id=1, host=A, game_key="toy", options={})).id
    unknown = await start_toy(sessions, 2)
    good = await start_toy(sessions, 3)
    await store.write("UPDATE games SET lobby = '[{oops' WHERE id = ?", (lobby_bad,))
    await store.write("UPDATE games SET game = 'chess' WHERE id = ?", (unknown,))
    await store.close()

    store = await Store.open(db)
    told: list[int] = []
    sessions = restarted(store, told)
    with caplog.at_level(logging.WARNING, logger="bot.core.sessions"):
        await sessions.restore()
    assert sorted(told) == [lobby_bad, unknown]
    assert sessions.sessions[lobby_bad].broken and "JSONDecodeError" in sessions.sessions[lobby_bad].broken
    assert "chess" in (sessions.sessions[unknown].broken or "")
    assert (await store.broken_games()).keys() == {lobby_bad, unknown}
    assert any("2 unfinished games cannot be indexed" in r.getMessage() for r in caplog.records)
    # the listing of the server still works, and lists them
    assert [row.id for row in await store.games_in_guild(5)] == [lobby_bad, unknown, good]
    with pytest.raises(SessionError, match="err.game_broken"):
        await sessions.join(lobby_bad, B)
    await one_move(sessions, good)
    for game_id in (lobby_bad, unknown):
        await sessions.abort(game_id)
        assert sessions.by_channel(1 if game_id == lobby_bad else 2) is None
    assert (await store.load_game(good)).seq == 1
    await store.close()


async def test_a_broken_game_that_loads_again_after_a_fix_is_no_longer_broken(tmp_path: Path) -> None:
    """Marking is not a verdict for ever: once the state loads (the rules learnt to read it, or
    the row was repaired) the game plays on, and a later fault would be announced again."""
    db = tmp_path / "f.sqlite3"
    store = await Store.open(db)
    game_id = await start_toy(SessionManager(store), 100)
    good_state = (await store.load_game_text(game_id))[1]
    await store.write("UPDATE games SET state = '[]' WHERE id = ?", (game_id,))
    told: list[int] = []
    sessions = restarted(store, told)
    await sessions.restore()
    assert (await sessions.get(game_id)).broken and told == [game_id]
    await store.write("UPDATE games SET state = ? WHERE id = ?", (good_state, game_id))
    fixed = restarted(store, told)
    await fixed.restore()
    session = await fixed.get(game_id)
    assert session.broken is None and session.game is not None
    assert await store.broken_games() == {}
    await one_move(fixed, game_id)
    assert told == [game_id]
    await store.close()


def test_the_broken_game_messages_exist_in_both_languages() -> None:
    for key in ("err.game_broken", "notice.game_broken", "err.move_failed", "err.not_legal", "games.broken"):
        ru, en = t(key, "ru", id=7, game="X"), t(key, "en", id=7, game="X")
        assert ru != key and en != key and ru != en
    assert "/game abort" in t("notice.game_broken", "en", id=7, game="X")
