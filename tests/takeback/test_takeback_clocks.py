"""An undo keeps the time a pause or the bot's downtime gave back (issue 27).

Between a move and its undo the game's clock may stand still: a ``/game pause`` (its resume gives every
running deadline back the time it was paused, ``bot.core.reminders.resumed``) or the bot being away
(``Downtime.extend`` pushes every deadline by the time away). The undo puts back the deadlines of before
the move; by definition those are the deadlines as they would stand had the move never been made, so they
carry the same shift: the stored deadlines before the move, each moved by the pause's length or by the
time away (a deadline set before the pause gets all of it back)."""

from __future__ import annotations

import pytest

from bot.core.replay import verify
from bot.core.store import Shards
from bot.discord_app import lifecycle
from bot.discord_app.app import Downtime
from tests.takeback.common import USERS, Env, free_move, play_until, start, stored, user_of

GAMES_WITH_FREE_MOVES = ("coldwar", "godstorm", "byallmeans")
PAUSE_S = 5000.0
AWAY_S = 700.0

Clocks = list[tuple[int, float, float | None]]


def later(clocks: Clocks, seconds: float) -> Clocks:
    """Every deadline and reminder ``seconds`` later."""
    return [(seat, due + seconds, None if remind is None else remind + seconds) for seat, due, remind in clocks]


async def before_a_free_move(env: Env, key: str) -> tuple[int, int, dict[str, object], Clocks, str]:
    """A game (takebacks within one's turn) at a move that reveals nothing: its seat, the user, the move, and
    the deadlines and state stored before it."""
    session = await start(env, key, mode="own")
    found = await play_until(env, session, free_move)
    assert found is not None, f"{key}: no move that reveals nothing was found"
    seat, action = found
    text, deadlines, _ = await stored(env, session)
    assert deadlines, f"{key}: the game has a deadline (3600 s), so the seat to move has one"
    return session.id, seat, action, deadlines, text


@pytest.mark.parametrize("when", ["after_the_move", "during_the_pause", "undo_while_paused"])
@pytest.mark.parametrize("key", GAMES_WITH_FREE_MOVES)
async def test_an_undo_keeps_the_time_a_pause_gave_back(env: Env, key: str, when: str) -> None:
    game_id, seat, action, deadlines, text = await before_a_free_move(env, key)
    session = env.sessions.sessions[game_id]
    user = user_of(session, seat)
    env.tick(120)
    if when == "after_the_move":  # move, pause, resume, undo
        await env.sessions.act(game_id, user, seat, action)
        env.tick(60)
        paused_at = env.clock["now"]
        await lifecycle.pause(env.sessions, game_id, USERS[0].id, paused_at)
        env.tick(PAUSE_S)
        await lifecycle.resume(env.sessions, game_id, env.clock["now"])
        env.tick(30)
        assert (await env.sessions.takeback(game_id, user, seat)).done
    elif when == "during_the_pause":  # pause, move, resume, undo
        await lifecycle.pause(env.sessions, game_id, USERS[0].id, env.clock["now"])
        env.tick(PAUSE_S / 2)
        await env.sessions.act(game_id, user, seat, action)
        env.tick(PAUSE_S / 2)
        await lifecycle.resume(env.sessions, game_id, env.clock["now"])
        env.tick(30)
        assert (await env.sessions.takeback(game_id, user, seat)).done
    else:  # move, pause, undo (the clock still stands), resume
        await env.sessions.act(game_id, user, seat, action)
        await lifecycle.pause(env.sessions, game_id, USERS[0].id, env.clock["now"])
        env.tick(PAUSE_S / 2)
        assert (await env.sessions.takeback(game_id, user, seat)).done
        assert (await stored(env, session))[1] == deadlines  # nothing was given back yet
        env.tick(PAUSE_S / 2)
        await lifecycle.resume(env.sessions, game_id, env.clock["now"])
    now_text, now_deadlines, _ = await stored(env, session)
    assert now_text == text
    assert now_deadlines == later(deadlines, PAUSE_S)
    assert sorted((s, t.due_at, t.remind_at) for s, t in session.deadlines.items()) == now_deadlines
    assert await verify(env.store, game_id)


@pytest.mark.parametrize("key", GAMES_WITH_FREE_MOVES)
async def test_an_undo_keeps_the_time_the_bot_was_away(env: Env, key: str) -> None:
    game_id, seat, action, deadlines, text = await before_a_free_move(env, key)
    session = env.sessions.sessions[game_id]
    user = user_of(session, seat)
    env.tick(120)
    await env.sessions.act(game_id, user, seat, action)
    await Downtime(env.store, env.sessions).extend(AWAY_S)  # the bot was away (a restart, a lost gateway)
    env.tick(AWAY_S + 10)
    assert (await env.sessions.takeback(game_id, user, seat)).done
    assert await stored(env, session) == (text, later(deadlines, AWAY_S), session.row.seq)
    assert await verify(env.store, game_id)


async def test_only_the_points_of_the_shard_that_was_away_move(env: Env) -> None:
    """Sharded, a shard's time away extends its own games only: their deadlines and their takeback points."""
    game_id, seat, action, deadlines, _ = await before_a_free_move(env, "godstorm")
    session = env.sessions.sessions[game_id]
    user = user_of(session, seat)
    shard = ((session.row.guild_id or 0) >> 22) % 2
    await env.sessions.act(game_id, user, seat, action)
    assert await env.store.shift_deadlines(AWAY_S, Shards((1 - shard,), 2)) == 0  # another shard was away
    assert (await env.sessions.takeback(game_id, user, seat)).done
    assert (await stored(env, session))[1] == deadlines
    await env.sessions.act(game_id, user, seat, action)
    assert await env.store.shift_deadlines(AWAY_S, Shards((shard,), 2)) > 0  # this game's shard
    assert (await env.sessions.takeback(game_id, user, seat)).done
    assert (await stored(env, session))[1] == later(deadlines, AWAY_S)
