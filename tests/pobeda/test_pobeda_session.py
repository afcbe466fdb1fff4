"""Pobeda through the session layer on real SQLite: a dead card replaced mid-turn, the timeout
after it, and the replay of the stored log; lopsided team picks refused at the start.

House rule (docs/games/pobeda.md): «once per turn, before playing, the player may discard one dead
card, announced in the channel, and draw a replacement, then takes the turn as usual» and, for an
absent player, «the turn is passed: no card played, no card drawn».
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.replay import verify
from bot.core.sessions import Session, SessionManager, UserInfo
from bot.core.store import Store
from bot.games.base import Action, IllegalAction

ANN, BORIS, CLARA, DIMA = UserInfo(1, "ann"), UserInfo(2, "boris"), UserInfo(3, "clara", "ru"), UserInfo(4, "dima")


@pytest.fixture
async def env(tmp_path: Path):
    store = await Store.open(tmp_path / "p.sqlite3")
    clock = {"now": 1000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"], on_change=lambda _: None)
    yield store, sessions, clock
    await store.close()


async def game_with_a_dead_card(sessions: SessionManager, channel: int) -> tuple[Session, int, Action]:
    """A two-player game (deadlines on) played with the first listed action of each turn until
    the player to move may replace a dead card; that seat and action."""
    for seed in range(channel, channel + 20):
        session = await sessions.create(guild_id=5, channel_id=channel, host=ANN, game_key="pobeda",
                                        options={"undo_window": 0}, deadline_s=600)
        await sessions.join(session.id, BORIS)
        await sessions.start(session.id, ANN.id, seed=seed)
        assert session.game is not None and session.game.s.options.dead == "replace"  # the default
        while session.game.outcome() is None:
            seat = session.game.actors()[0]
            legal = session.game.legal_actions(seat)
            replace = next((a for a in legal if a["type"] == "replace_dead"), None)
            if replace is not None:
                return session, seat, replace
            await sessions.act(session.id, session.row.seat_users[seat][0], seat, legal[0])
        channel += 1
    pytest.fail("no dead card in 20 games")


async def test_replace_dead_card_then_timeout_replays(env) -> None:
    store, sessions, clock = env
    session, seat, replace = await game_with_a_dead_card(sessions, 100)
    game = session.game
    assert game is not None
    user = session.row.seat_users[seat][0]
    turn = game.s.turn
    result = await sessions.act(session.id, user, seat, replace, stamp=session.row.seat_counts[seat])
    public = [e for e in result.events if e["type"] == "replaced"]
    assert public == [{"type": "replaced", "seat": seat, "card": replace["card"]}]
    assert game.actors() == [seat] and game.s.turn == turn  # the same turn goes on
    assert seat in session.deadlines
    # the player is absent: the deadline passes and the turn is passed
    clock["now"] += 601
    events = await sessions.expire(session.id, seat)
    assert events is not None and {"type": "passed", "seat": seat} in events
    assert game.actors() == [1 - seat] and not game.s.replaced
    assert await verify(store, session.id)


async def test_lopsided_teams_cannot_start(env) -> None:
    """Rulebook: «Сядьте вокруг игрового поля через одного так, чтобы участники разных команд
    чередовались»: three Red players and one Blue cannot, two and two can."""
    _, sessions, _ = env
    session = await sessions.create(guild_id=5, channel_id=900, host=ANN, game_key="pobeda",
                                    options={"teams": 2})
    for user, team in ((ANN, 0), (BORIS, 0), (CLARA, 0), (DIMA, 1)):
        await sessions.join(session.id, user, team=team)
    with pytest.raises(IllegalAction) as err:
        await sessions.start(session.id, ANN.id, seed=3)
    assert err.value.key == "pobeda.err.no_alternation"
    assert session.row.status == "lobby" and session.game is None
    await sessions.join(session.id, CLARA, team=1)  # one Red player moves to Blue, as advised
    await sessions.start(session.id, ANN.id, seed=3)
    assert session.row.status == "running"
    assert [info["side"] for info in session.row.seat_info] == [0, 1, 0, 1]
