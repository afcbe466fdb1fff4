"""Issue 23, item 8: a player whose seat a bot took over and who moves for it takes the seat back with
that move (recorded in the seat log like ``/game reclaim``, the channel told), so the player and the
bot never both play the seat."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import bots
from bot.core.sessions import Session, SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from tests.platform.toy import toy_manifest

ALICE, BOB = UserInfo(1, "alice"), UserInfo(2, "bob")


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[SessionManager]:
    store = await Store.open(tmp_path / "m.sqlite3")
    yield SessionManager(store, clock=lambda: 1000.0)
    await store.close()


async def test_a_move_for_a_seat_the_bot_plays_reclaims_it(sessions: SessionManager) -> None:
    told: list[tuple[int, int, list[int]]] = []

    def on_reclaim(session: Session, user: int, seats: list[int]) -> None:
        told.append((session.id, user, seats))

    sessions.on_reclaim = on_reclaim
    session = await sessions.create(guild_id=5, channel_id=1, host=ALICE, game_key="toy", options={},
                                    deadline_s=600)
    await sessions.join(session.id, BOB)
    await sessions.start(session.id, ALICE.id, seed=5)
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    player = session.row.seat_users[seat][0]
    assert await bots.take_over(sessions, session, seat)
    bot_user = bots.bot_seats(session.row)[seat]
    assert seat not in session.deadlines  # the bot's seat had no deadline

    action = game.legal_actions(seat)[0]
    await sessions.act(session.id, player, seat, action)  # the player is back: no reclaim first

    assert not bots.controlled(session.row, seat)
    assert session.row.seat_users[seat] == [player]
    assert told == [(session.id, player, [seat])]
    log = bots.seat_log(session.row.settings)
    assert [e["type"] for e in log] == ["platform.takeover", "platform.reclaim"]
    assert log[-1]["seat"] == seat and log[-1]["users"] == [player] and log[-1]["seq"] == 0
    stored = await sessions.store.load_game(session.id)
    assert stored is not None and stored.seq == 1 and stored.seat_users == session.row.seat_users
    assert bots.seat_log(stored.settings) == log
    # the bot no longer plays the seat: its move (decided before) is refused, never applied twice
    with pytest.raises(SessionError) as err:
        await sessions.act(session.id, bot_user, seat, action, expect_seq=1)
    assert err.value.key == "err.spectator"  # the bot holds no seat any more
    assert (await sessions.store.load_game(session.id)).seq == 1  # type: ignore[union-attr]


async def test_a_refused_move_does_not_reclaim(sessions: SessionManager) -> None:
    session = await sessions.create(guild_id=5, channel_id=2, host=ALICE, game_key="toy", options={})
    await sessions.join(session.id, BOB)
    await sessions.start(session.id, ALICE.id, seed=5)
    game = session.game
    assert game is not None
    idle = next(s for s in range(2) if s not in game.actors())
    assert await bots.take_over(sessions, session, idle)
    with pytest.raises(SessionError) as err:  # not this seat's turn: nothing changes
        await sessions.act(session.id, session.row.seat_users[idle][0], idle, {"type": "add", "n": 1})
    assert err.value.key == "err.not_your_turn"
    assert bots.controlled(session.row, idle)
