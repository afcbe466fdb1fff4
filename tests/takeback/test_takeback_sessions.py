"""Takebacks through the session layer (issue 27), for each of the four games.

The expected values are definitions, not the code's output: an undo gives back exactly the state stored
before the move (the text in the database) and the deadlines stored then; a move that drew from the game's
random generator, sent private news or passed the turn "revealed" something (the issue's list), so it is not
undone without agreement; a takeback with agreement rebuilds the game with the same seed, so the same move
played again shows the same dice or cards; replaying the log from the seed gives the stored state."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bot.core import takeback
from bot.core.replay import history, read_log, verify
from bot.core.session import Session
from bot.core.sessions import SessionError, SessionManager
from bot.core.store import TAKEBACK_ENTRY_SEAT, Store
from bot.games.base import Action
from tests.takeback.common import (
    GAMES,
    Env,
    free_move,
    outcome_of,
    play_until,
    random_move,
    start,
    stored,
    user_of,
)

FREE_UNDO = {"pobeda": True, "coldwar": True, "godstorm": True, "byallmeans": True}
"""Whether the game has moves that reveal nothing. Pobeda's play does since its undo window (default 30 s, issue
27): the rulebook's turn "play one card, then draw one; the turn passes" draws on the player's confirmation, so
the play itself shows nothing new (without the window every play reveals: tests/takeback/test_takeback_pobeda.py)."""


def test_the_entry_seat_is_one_constant() -> None:
    assert takeback.TAKEBACK_SEAT == TAKEBACK_ENTRY_SEAT


@pytest.mark.parametrize("key", GAMES)
async def test_undo_within_the_turn_restores_the_stored_state_and_deadlines(env: Env, key: str) -> None:
    session = await start(env, key, mode="own")
    found = await play_until(env, session, free_move)
    if not FREE_UNDO[key]:  # a game with no move that can be undone alone
        assert found is None
        return
    assert found is not None, f"{key}: no move that reveals nothing was found"
    seat, action = found
    before_text, before_deadlines, before_seq = await stored(env, session)
    env.tick(300)  # the move restarts the seat's clock; the undo must give back the one before
    await env.sessions.act(session.id, user_of(session, seat), seat, action)
    assert (await stored(env, session))[1] != before_deadlines
    env.tick(60)
    result = await env.sessions.takeback(session.id, user_of(session, seat), seat)
    assert result.done and result.moves == [before_seq + 1]
    text, deadlines, seq = await stored(env, session)
    assert text == before_text and session.state_text == before_text
    assert deadlines == before_deadlines
    assert seq == before_seq + 2  # the move and the takeback entry: the log only grows
    assert await verify(env.store, session.id)


async def test_pobeda_play_waits_and_its_confirmation_reveals(env: Env) -> None:
    """With the undo window no play reveals (nothing drawn, the turn stays); the confirmation that draws does."""
    session = await start(env, "pobeda", mode="own")
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    plays = game.legal_actions(seat)[:40]
    for action in plays:
        before, after, events = outcome_of(session, seat, action)
        assert not after.reveals(seat, action, events, before, after)
    await env.sessions.act(session.id, user_of(session, seat), seat, plays[0])
    confirm = {"type": "confirm"}
    before, after, events = outcome_of(session, seat, confirm)
    assert after.reveals(seat, confirm, events, before, after)


@pytest.mark.parametrize("key", GAMES)
async def test_undo_is_refused_after_a_revealing_move(env: Env, key: str) -> None:
    session = await start(env, key, mode="own")
    found = await play_until(env, session, random_move)
    assert found is not None, f"{key}: no move drawing from the generator was found"
    seat, action = found
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, action)
    after = await stored(env, session)
    with pytest.raises(SessionError) as refused:
        await env.sessions.takeback(session.id, user, seat)
    assert refused.value.key == "takeback.err.own_turn_only"
    assert await stored(env, session) == after


async def opening_of(env: Env, session: Session, seat: int, user: int, action: Action) -> list[Action]:
    """When ``action`` only finishes the move before it (a ✔ closing an undo window, ``Game.continues``), a
    takeback of it takes that move back too: that move is undone here (within its window, alone) and returned,
    so the test plays the whole move from the position before it."""
    if not session.cls.continues(action):
        return []
    moves, _ = await env.sessions.takeback_log(session)
    assert moves[-1].seat == seat and moves[-1].user_id == user
    assert (await env.sessions.takeback(session.id, user, seat)).done
    return [moves[-1].action]


@pytest.mark.parametrize("key", GAMES)
async def test_takeback_with_agreement_keeps_the_randomness_already_seen(env: Env, key: str) -> None:
    session = await start(env, key)
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    opening = await opening_of(env, session, seat, user, action)
    before_text, _, _ = await stored(env, session)
    for move in opening:
        await env.sessions.act(session.id, user, seat, move)
    first = await env.sessions.act(session.id, user, seat, action)
    seen = [e for e in first.events if e.get("type") != "platform.prompt"]
    asked = await env.sessions.takeback(session.id, user, seat)
    assert not asked.done and asked.request is not None
    other = asked.request["asked"][0]
    done = await env.sessions.answer_takeback(session.id, other, asked.request["id"], True)
    assert done.done
    assert (await stored(env, session))[0] == before_text
    for move in opening:
        await env.sessions.act(session.id, user, seat, move)
    again = await env.sessions.act(session.id, user, seat, action)  # the same move once more
    assert [e for e in again.events if e.get("type") != "platform.prompt"] == seen
    assert await verify(env.store, session.id)


@pytest.mark.parametrize("key", GAMES)
async def test_a_declined_request_changes_nothing(env: Env, key: str) -> None:
    session = await start(env, key)
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, action)
    text, deadlines, seq = await stored(env, session)
    asked = await env.sessions.takeback(session.id, user, seat)
    assert asked.request is not None
    declined = await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], False)
    assert declined.declined and not declined.done
    assert await stored(env, session) == (text, deadlines, seq)
    assert env.sessions.takeback_request(session) is None
    with pytest.raises(SessionError) as gone:  # an answer to the closed request is refused
        await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], True)
    assert gone.value.key == "takeback.err.no_request"
    assert takeback.used(session.row.settings.extra, user) == 1


@pytest.mark.parametrize("key", GAMES)
async def test_replay_of_a_log_with_takebacks_equals_the_stored_state(env: Env, key: str) -> None:
    session = await start(env, key)
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, action)
    asked = await env.sessions.takeback(session.id, user, seat)
    assert asked.request is not None
    await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], True)
    if FREE_UNDO[key]:
        found = await play_until(env, session, free_move)
        assert found is not None
        seat, action = found
        await env.sessions.act(session.id, user_of(session, seat), seat, action)
        assert (await env.sessions.takeback(session.id, user_of(session, seat), seat)).done
    await play_until(env, session, lambda *_: False, limit=25)  # more moves after the takebacks
    assert await verify(env.store, session.id)
    log = await read_log(env.store, session.id)
    entries = [r for r in log if r.seat == takeback.TAKEBACK_SEAT]
    assert len(entries) == (2 if FREE_UNDO[key] else 1)
    row = await env.store.load_game(session.id)
    assert row is not None and row.seed is not None
    story = history(key, row.seat_info or [], row.options, row.seed, log, names=["A", "B"], lang="en",
                    rng=row.settings.rng_version or 1)
    assert sum(1 for step in story.steps if step.lines and step.lines[0].startswith("↩")) == len(entries)


async def test_the_limit_and_the_off_setting(env: Env) -> None:
    session = await start(env, "coldwar")
    await env.sessions.set_takebacks(session.id, 11, "agree", 1)
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    await env.sessions.act(session.id, user, seat, action)
    asked = await env.sessions.takeback(session.id, user, seat)
    assert asked.request is not None
    await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], False)
    with pytest.raises(SessionError) as limited:
        await env.sessions.takeback(session.id, user, seat)
    assert limited.value.key == "takeback.err.limit"
    await env.sessions.set_takebacks(session.id, 11, "off", None)
    with pytest.raises(SessionError) as off:
        await env.sessions.takeback(session.id, user, seat)
    assert off.value.key == "takeback.err.off"
    with pytest.raises(SessionError):
        await env.sessions.set_takebacks(session.id, 12, "agree", None)  # only the host


async def test_an_older_panel_is_refused_after_a_takeback(env: Env) -> None:
    session = await start(env, "godstorm")
    found = await play_until(env, session, free_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    result = await env.sessions.act(session.id, user, seat, action)
    stamp = result.session.row.seat_counts[seat]
    assert (await env.sessions.takeback(session.id, user, seat, stamp=stamp)).done
    with pytest.raises(SessionError) as stale:  # the same ↩ clicked twice: applied once
        await env.sessions.takeback(session.id, user, seat, stamp=stamp)
    assert stale.value.key == "takeback.err.stale"
    with pytest.raises(SessionError):  # the move's own panel, built at the old stamp
        await env.sessions.act(session.id, user, seat, action, stamp - 1)
    assert json.loads(session.state_text or "{}")


@pytest.mark.parametrize("key", GAMES)
async def test_a_takeback_is_applied_once_across_sigkill_and_restart(tmp_path: Path, key: str) -> None:
    path = tmp_path / "k.sqlite3"
    store = await Store.open(path)
    clock = {"now": time.time()}  # the killed process reads the real clock (a request lapses after a day)
    env = Env(store, SessionManager(store, clock=lambda: clock["now"]), clock)
    session = await start(env, key)
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    opening = await opening_of(env, session, seat, user, action)
    before_text, _, _ = await stored(env, session)
    for move in [*opening, action]:
        await env.sessions.act(session.id, user, seat, move)
    moved = await stored(env, session)
    asked = await env.sessions.takeback(session.id, user, seat)
    assert asked.request is not None
    other, request = asked.request["asked"][0], asked.request["id"]
    await store.close()

    def child(when: str) -> int:
        import subprocess  # noqa: PLC0415
        import sys  # noqa: PLC0415

        done = subprocess.run([sys.executable, "-m", "tests.takeback.crash_child", str(path), str(session.id),
                               str(other), request, when], cwd=Path(__file__).resolve().parents[2], timeout=60,
                              capture_output=True, text=True)
        return done.returncode

    assert child("inside") == -9  # killed inside the transaction: nothing of it is stored
    store = await Store.open(path)
    env = Env(store, SessionManager(store), clock)
    assert (await stored(env, session))[0] == moved[0]
    await store.close()
    assert child("after") == -9  # killed right after the commit: it stands, once
    store = await Store.open(path)
    try:
        env = Env(store, SessionManager(store), clock)
        await env.sessions.restore()
        text, _, seq = await stored(env, session)
        assert text == before_text and seq == moved[2] + 1
        entries = [a for a in await store.actions(session.id) if a.seat == takeback.TAKEBACK_SEAT][len(opening):]
        assert len(entries) == 1 and entries[0].action["agreed"] == [other]  # after the opening's own undo
        with pytest.raises(SessionError) as again:  # the same Accept after the restart
            await env.sessions.answer_takeback(session.id, other, request, True)
        assert again.value.key == "takeback.err.no_request"
        assert await verify(store, session.id)
    finally:
        await store.close()


async def test_an_undo_without_a_takeback_point_rebuilds_from_the_log(env: Env) -> None:
    """A move stored before takeback points existed (schema 5 and older) has none: the undo rebuilds the game
    from the seed and the log, to the same stored state."""
    session = await start(env, "byallmeans", mode="own")
    found = await play_until(env, session, free_move)
    assert found is not None
    seat, action = found
    before_text, _, _ = await stored(env, session)
    await env.sessions.act(session.id, user_of(session, seat), seat, action)
    await env.store.write("DELETE FROM takeback_points WHERE game_id = ?", (session.id,))
    assert (await env.sessions.takeback(session.id, user_of(session, seat), seat)).done
    assert (await stored(env, session))[0] == before_text
    assert await verify(env.store, session.id)


async def test_settings_stored_before_takebacks_load_with_the_defaults() -> None:
    from bot.core.store import GameSettings  # noqa: PLC0415

    old = GameSettings.from_json({"deadline_s": 3600, "rng_version": 2, "state_version": 1, "bots": {}})
    assert old.takeback is None and old.takeback_limit is None
    assert takeback.mode_of(old.takeback) == "agree" and takeback.limit_of(old.takeback_limit) == 3
    assert "takeback" not in old.to_json()  # written back unchanged


async def test_a_takeback_further_back_than_the_tail_reads_the_whole_log(env: Env,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan reads the log's last few entries first; a move of the caller older than those is found in
    the whole log (here the tail is one entry, so every request goes further back)."""
    monkeypatch.setattr("bot.core.sessions.TAKEBACK_TAIL", 1)
    session = await start(env, "coldwar")
    found = await play_until(env, session, random_move)
    assert found is not None
    seat, action = found
    user = user_of(session, seat)
    before_text, _, _ = await stored(env, session)
    await env.sessions.act(session.id, user, seat, action)
    other_seat = next(s for s in session.game.actors() if s != seat) if session.game else None
    if other_seat is not None:  # the other player moves too: the caller's move is no longer the last entry
        legal = session.game.legal_actions(other_seat) if session.game else []
        await env.sessions.act(session.id, user_of(session, other_seat), other_seat, legal[0])
    asked = await env.sessions.takeback(session.id, user, seat)
    assert asked.request is not None and asked.request["moves"][0] == asked.moves[0]
    assert (await env.sessions.answer_takeback(session.id, asked.request["asked"][0], asked.request["id"], True)).done
    assert (await stored(env, session))[0] == before_text
    assert await verify(env.store, session.id)
