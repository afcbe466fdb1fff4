"""Godstorm's undo window before an attack's roll through the session layer (issue 27, docs/games/godstorm.md
"Takebacks").

Expected values come from the spec of the window, not from the code: a declared attack throws no die and
keeps the turn, so its player may take it back alone, and the undo gives back exactly what was stored before
it (the state text and the deadline rows); the window is closed by the rules themselves, so its end is the roll
given for the player with no ``platform.timeout``, no missed turn and no reminder; with window 0 (every game
stored before it) an attack rolls at once and so reveals.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core import bots
from bot.core.replay import verify
from bot.core.session import Session
from bot.core.sessions import SessionError
from bot.games.base import Action, Game
from tests.takeback.common import Env, play_until, start, stored, user_of

ROLL: Action = {"type": "roll"}
WINDOW = 20  # the default of a new game (bot/games/godstorm/combat.py DEFAULT_UNDO_S)


async def godstorm(env: Env, options: dict[str, Any] | None = None, mode: str = "own") -> Session:
    return await start(env, "godstorm", mode=mode, options=options)


def an_attack(s: Session, seat: int, action: Action, before: Game, after: Game, events: list[Any]) -> bool:
    """An attack on a held place (one with dice), the seat alone acting."""
    if action["type"] not in ("attack", "attack_until") or before.actors() != [seat]:
        return False
    place = before.place(str(action["to"]))  # type: ignore[attr-defined]
    return place is not None and place["owner"] is not None and after.outcome() is None


async def declared(env: Env, session: Session) -> tuple[int, Action]:
    found = await play_until(env, session, an_attack, limit=600)
    assert found is not None, "no attack came up"
    return found


async def test_the_undo_within_the_window_restores_the_stored_state_and_deadlines(env: Env) -> None:
    session = await godstorm(env)
    assert session.row.options["undo_window"] == WINDOW
    seat, attack = await declared(env, session)
    user = user_of(session, seat)
    before_text, before_deadlines, before_seq = await stored(env, session)
    env.tick(300)  # the declaration sets the window's deadline; the undo gives back the turn's
    moved = await env.sessions.act(session.id, user, seat, attack)
    assert not any("to" in e for e in moved.events)  # nothing private was shown
    assert not any(e["type"] == "roll" for e in moved.events)  # no die thrown
    text, deadlines, _ = await stored(env, session)
    assert json.loads(text)["rng"] == json.loads(before_text)["rng"]
    assert json.loads(text)["declared"]["to"] == attack["to"]
    assert deadlines == [(seat, env.clock["now"] + WINDOW, None)]  # the window's end, and no reminder
    assert await env.sessions.undo_offer(session, seat, user) == before_seq + 1  # ↩ on its panels
    env.tick(5)
    result = await env.sessions.takeback(session.id, user, seat)
    assert result.done and result.moves == [before_seq + 1]
    text, deadlines, seq = await stored(env, session)
    assert text == before_text and session.state_text == before_text
    assert deadlines == before_deadlines
    assert seq == before_seq + 2
    assert await verify(env.store, session.id)


async def test_after_the_roll_the_attack_is_no_longer_undone_alone(env: Env) -> None:
    session = await godstorm(env)
    seat, attack = await declared(env, session)
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, attack)
    rolled = await env.sessions.act(session.id, user, seat, ROLL)
    after = await stored(env, session)
    if not any(e["type"] == "roll" for e in rolled.events):
        pytest.skip("the roll waits for another seat here (a Sky window or the defender's dice)")
    with pytest.raises(SessionError) as refused:
        await env.sessions.takeback(session.id, user, seat)
    assert refused.value.key == "takeback.err.own_turn_only"
    assert await stored(env, session) == after


async def test_the_window_closing_rolls_without_a_missed_turn_or_a_reminder(env: Env) -> None:
    session = await godstorm(env)
    seat, attack = await declared(env, session)
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, attack)
    text, deadlines, seq = await stored(env, session)
    assert [(d[0], d[2]) for d in deadlines] == [(seat, None)]  # remind_at NULL: nobody is reminded of it
    env.tick(WINDOW - 1)
    assert await env.sessions.expire(session.id, seat) is None  # not yet
    env.tick(2)
    events = await env.sessions.expire(session.id, seat)
    assert events is not None
    assert not any(e["type"] == "platform.timeout" for e in events)
    row = await env.store.load_game(session.id)
    assert row is not None and bots.missed(row.settings) == {}
    actions = await env.store.actions(session.id)
    assert actions[-1].seq == seq + 1 and actions[-1].action == ROLL and actions[-1].user_id is None
    after, _, _ = await stored(env, session)
    assert "declared" not in json.loads(after)
    assert json.loads(after)["rng"] != json.loads(text)["rng"] or not any(e["type"] == "roll" for e in events)
    assert await verify(env.store, session.id)


async def test_without_the_window_an_attack_rolls_at_once_and_reveals(env: Env) -> None:
    session = await godstorm(env, {"undo_window": 0})
    seat, attack = await declared(env, session)
    user = user_of(session, seat)
    before_text, _, _ = await stored(env, session)
    moved = await env.sessions.act(session.id, user, seat, attack)
    text, _, _ = await stored(env, session)
    assert "declared" not in json.loads(text) and "undo_window" not in json.loads(text)
    if any(e["type"] == "roll" for e in moved.events):
        assert json.loads(text)["rng"] != json.loads(before_text)["rng"]
        with pytest.raises(SessionError):
            await env.sessions.takeback(session.id, user, seat)
