"""Pobeda's undo window through the session layer (issue 27, docs/games/pobeda.md "Takebacks").

Expected values come from the spec of the window, not from the code: a play with the window draws nothing and
keeps the turn, so its player may take it back alone, and the undo gives back exactly what was stored before it
(the state text and the deadline rows); the window is closed by the rules themselves, so its end is the ✔ given
for the player with no ``platform.timeout``, no missed turn and no reminder; without the window (0, every game
stored before it) each play draws at once and so reveals. On a seat a team shares, a member's move is not
another member's to undo.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core import bots
from bot.core.replay import verify
from bot.core.session import Session
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.games.base import Action
from tests.takeback.common import (
    DEADLINE,
    SEED,
    USERS,
    Env,
    free_move,
    outcome_of,
    play_until,
    start,
    stored,
    user_of,
)

CONFIRM = {"type": "confirm"}
WINDOW = 30  # the default of a new game (bot/games/pobeda/lobby.py)


async def pobeda(env: Env, options: dict[str, Any] | None = None, mode: str = "own") -> Session:
    return await start(env, "pobeda", mode=mode, options=options)


def a_play(session: Session) -> tuple[int, Action]:
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    return seat, next(a for a in game.legal_actions(seat) if a["type"] == "play")


async def test_the_undo_within_the_window_restores_the_stored_state_and_deadlines(env: Env) -> None:
    session = await pobeda(env)
    assert session.game is not None and session.game.s.options.undo_window == WINDOW
    seat, play = a_play(session)
    user = user_of(session, seat)
    before_text, before_deadlines, before_seq = await stored(env, session)
    env.tick(300)  # the play sets the window's deadline; the undo gives back the turn's
    moved = await env.sessions.act(session.id, user, seat, play)
    assert not any("to" in e for e in moved.events)  # nothing private was shown: no card drawn
    text, deadlines, _ = await stored(env, session)
    assert json.loads(text)["confirm"] == "turn"
    assert deadlines == [(seat, env.clock["now"] + WINDOW, None)]  # the window's end, and no reminder
    assert await env.sessions.undo_offer(session, seat, user) == before_seq + 1  # ↩ on its panels
    env.tick(10)
    result = await env.sessions.takeback(session.id, user, seat)
    assert result.done and result.moves == [before_seq + 1]
    text, deadlines, seq = await stored(env, session)
    assert text == before_text and session.state_text == before_text
    assert deadlines == before_deadlines
    assert seq == before_seq + 2
    assert await verify(env.store, session.id)


async def test_after_the_confirmation_the_play_is_no_longer_undone_alone(env: Env) -> None:
    session = await pobeda(env)
    seat, play = a_play(session)
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, play)
    drawn = await env.sessions.act(session.id, user, seat, CONFIRM)
    assert [e["type"] for e in drawn.events if e["type"] != "platform.prompt"] == ["drew"]
    after = await stored(env, session)
    with pytest.raises(SessionError) as refused:
        await env.sessions.takeback(session.id, user, seat)
    assert refused.value.key == "takeback.err.own_turn_only"
    assert await stored(env, session) == after


async def test_a_takeback_of_the_confirmation_takes_its_play_back_with_it(env: Env) -> None:
    """The ✔ only finishes the play (docs/games/pobeda.md): asking to take it back asks for the whole move, and
    the other player's agreement gives back the position before the play, not a play waiting for its ✔."""
    session = await pobeda(env, mode="agree")
    seat, play = a_play(session)
    user = user_of(session, seat)
    before_text, _, before_seq = await stored(env, session)
    await env.sessions.act(session.id, user, seat, play)
    await env.sessions.act(session.id, user, seat, CONFIRM)
    assert await env.sessions.undo_offer(session, seat, user) == before_seq + 1  # the ↩ names the play
    asked = await env.sessions.takeback(session.id, user, seat)
    assert not asked.done and asked.request is not None and asked.moves == [before_seq + 1, before_seq + 2]
    done = await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], True)
    assert done.done and done.moves == [before_seq + 1, before_seq + 2]
    assert (await stored(env, session))[0] == before_text
    assert await verify(env.store, session.id)


async def test_with_takebacks_off_the_window_closes_at_once(env: Env) -> None:
    """Nothing can be taken back (`/game takebacks off`), so the ✔ is given with the play: the card is drawn and
    the turn passes in the same answer, as in a game without the window, and it is no missed turn."""
    session = await pobeda(env, mode="off")
    seat, play = a_play(session)
    user = user_of(session, seat)
    moved = await env.sessions.act(session.id, user, seat, play)
    assert "drew" in [e["type"] for e in moved.events]
    game = session.game
    assert game is not None and game.actors() == [1 - seat]
    actions = await env.store.actions(session.id)
    assert [a.action["type"] for a in actions[-2:]] == ["play", "confirm"] and actions[-1].user_id is None
    row = await env.store.load_game(session.id)
    assert row is not None and bots.missed(row.settings) == {}
    assert await verify(env.store, session.id)


async def test_the_window_closing_draws_without_a_missed_turn_or_a_reminder(env: Env) -> None:
    session = await pobeda(env)
    seat, play = a_play(session)
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, play)
    _, deadlines, seq = await stored(env, session)
    assert [(d[0], d[2]) for d in deadlines] == [(seat, None)]  # remind_at NULL: nobody is reminded of it
    env.tick(WINDOW - 1)
    assert await env.sessions.expire(session.id, seat) is None  # not yet
    env.tick(2)
    events = await env.sessions.expire(session.id, seat)
    assert events is not None
    assert [e["type"] for e in events if e["type"] != "platform.prompt"] == ["drew"]
    assert not any(e["type"] == "platform.timeout" for e in events)
    row = await env.store.load_game(session.id)
    assert row is not None and bots.missed(row.settings) == {}
    actions = await env.store.actions(session.id)
    assert actions[-1].seq == seq + 1 and actions[-1].action == CONFIRM and actions[-1].user_id is None
    game = session.game
    assert game is not None and game.actors() == [1 - seat]  # the turn passed
    _, deadlines, _ = await stored(env, session)
    assert [d[0] for d in deadlines] == [1 - seat] and deadlines[0][2] is not None  # a turn's: reminded
    assert await verify(env.store, session.id)


async def test_a_replacement_drawn_when_the_window_closes_prompts_the_player_again(env: Env) -> None:
    """After a dead card's exchange the turn goes on: the window's end (no click, so no panel answered in place)
    prompts the player for the rest of the turn."""
    session = await pobeda(env)
    game = session.game
    assert game is not None
    for _ in range(300):
        seat = game.actors()[0]
        legal = game.legal_actions(seat)
        replace = next((a for a in legal if a["type"] == "replace_dead"), None)
        if replace is not None:
            break
        await env.sessions.act(session.id, user_of(session, seat), seat, legal[0])
        game = session.game
        assert game is not None
    else:
        pytest.fail("no dead card to replace")
    await env.sessions.act(session.id, user_of(session, seat), seat, replace)
    env.tick(WINDOW + 1)
    events = await env.sessions.expire(session.id, seat)
    assert events is not None
    prompts = [e for e in events if e["type"] == "platform.prompt"]
    assert prompts and prompts[0]["seats"] == [seat]
    assert game.actors() == [seat] and game.s.replaced
    assert not any(e["type"] == "platform.timeout" for e in events)


async def test_without_the_window_every_play_reveals(env: Env) -> None:
    """Window 0 is the flow of every game stored before it: «play one card, then draw one; the turn passes» in
    one move, so the play shows its player a new card and is never undone alone."""
    session = await pobeda(env, {"undo_window": 0})
    game = session.game
    assert game is not None and "undo_window" not in json.loads(session.state_text or "{}")["options"]
    seat = game.actors()[0]
    for action in game.legal_actions(seat)[:40]:
        before, after, events = outcome_of(session, seat, action)
        assert after.reveals(seat, action, events, before, after)
    seat, play = a_play(session)
    await env.sessions.act(session.id, user_of(session, seat), seat, play)
    with pytest.raises(SessionError) as refused:
        await env.sessions.takeback(session.id, user_of(session, seat), seat)
    assert refused.value.key == "takeback.err.own_turn_only"


async def test_a_teammate_gets_no_undo_of_a_team_members_move(env: Env) -> None:
    """Pobeda teams: each player has a seat of the side; a teammate's ↩ and undo are for their own seat only."""
    session = await env.sessions.create(guild_id=5, channel_id=711, host=USERS[0], game_key="pobeda",
                                        options={"teams": 2}, deadline_s=DEADLINE)
    mates = [UserInfo(13, "clara"), UserInfo(14, "dima")]
    await env.sessions.join(session.id, USERS[1], team=1)
    await env.sessions.join(session.id, mates[0], team=0)
    await env.sessions.join(session.id, mates[1], team=1)
    await env.sessions.set_takebacks(session.id, USERS[0].id, "own", None)
    await env.sessions.start(session.id, USERS[0].id, seed=SEED)
    game = session.game
    assert game is not None
    seat, play = a_play(session)
    user = user_of(session, seat)
    mate = next(s for s in range(4) if s != seat and game.side_of(s) == game.side_of(seat))
    mate_user = user_of(session, mate)
    await env.sessions.act(session.id, user, seat, play)
    after = await stored(env, session)
    assert await env.sessions.undo_offer(session, mate, mate_user) is None
    assert await env.sessions.undo_offer(session, seat, mate_user) is None
    with pytest.raises(SessionError):
        await env.sessions.takeback(session.id, mate_user, seat)
    with pytest.raises(SessionError):
        await env.sessions.takeback(session.id, mate_user, mate)
    assert await stored(env, session) == after
    assert await env.sessions.undo_offer(session, seat, user) == after[2]


async def test_on_a_seat_a_team_shares_only_the_member_who_moved_may_undo(env: Env) -> None:
    """A Cold War team shares one seat: the member who made a move gets the ↩ and the free undo; the other
    member of the seat gets neither (before issue 27's fix the takeback rules looked at the seat only)."""
    session = await env.sessions.create(guild_id=5, channel_id=712, host=USERS[0], game_key="coldwar",
                                        options={}, deadline_s=DEADLINE)
    third = UserInfo(13, "clara")
    await env.sessions.join(session.id, USERS[1], team=1)
    await env.sessions.join(session.id, third, team=0)
    await env.sessions.set_takebacks(session.id, USERS[0].id, "own", None)
    await env.sessions.start(session.id, USERS[0].id, seed=SEED)
    shared = next(s for s, users in enumerate(session.row.seat_users or []) if len(users) == 2)
    found = await play_until(env, session, free_move, seat=shared)
    assert found is not None
    seat, action = found
    mover, other = session.row.seat_users[seat]  # type: ignore[index]
    before_text, _, before_seq = await stored(env, session)
    await env.sessions.act(session.id, mover, seat, action)
    after = await stored(env, session)
    assert await env.sessions.undo_offer(session, seat, other) is None
    with pytest.raises(SessionError) as refused:
        await env.sessions.takeback(session.id, other, seat)
    assert refused.value.key == "takeback.err.nothing"
    assert await stored(env, session) == after
    assert await env.sessions.undo_offer(session, seat, mover) == before_seq + 1
    assert (await env.sessions.takeback(session.id, mover, seat)).done
    assert (await stored(env, session))[0] == before_text


async def test_a_game_stored_before_the_window_loads_without_it_and_replays(env: Env) -> None:
    """A running game of state version 2 (stored before the window) loads through ``migrate_state`` /
    ``migrate_options`` with the window off: its state text is unchanged and its log replays."""
    session = await pobeda(env, {"undo_window": 0})
    seat, play = a_play(session)
    await env.sessions.act(session.id, user_of(session, seat), seat, play)
    text, _, _ = await stored(env, session)
    row = await env.store.load_game(session.id)
    assert row is not None
    row.settings.state_version = 2
    old_options = {k: v for k, v in row.options.items() if k != "undo_window"}  # as the lobby stored them then
    await env.store.write("UPDATE games SET settings = ?, options = ? WHERE id = ?",
                          (json.dumps(row.settings.to_json()), json.dumps(old_options), session.id))
    fresh = SessionManager(env.store, clock=lambda: env.clock["now"])
    loaded = await fresh.get(session.id)
    assert loaded.game is not None and loaded.game.s.options.undo_window == 0
    assert loaded.state_text == text and loaded.row.settings.state_version == 3
    assert loaded.row.options["undo_window"] == 0
    assert await verify(env.store, session.id)
