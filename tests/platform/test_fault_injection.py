"""A move is atomic in memory too: an exception raised at any point of ``apply``, in every game,
leaves the live game exactly as the database holds it (same state JSON, same sequence number), and
the game plays on and still replays from its log.

The exception is raised by a trace function at the k-th line the game's code (``bot/games/``, the
Rng included) executes inside ``apply``, so it lands in the middle of the rules' bookkeeping: after
a card left a hand and before it reached the table, between two dice, inside a combat loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bot.games
from bot.core.replay import verify
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games.base import IllegalAction
from bot.games.registry import game_class

GAMES_DIR = str(Path(bot.games.__file__).resolve().parent)

CASES: dict[str, tuple[str, dict[str, Any], int]] = {
    "pobeda": ("pobeda", {}, 3),
    "coldwar": ("coldwar", {}, 2),
    "godstorm": ("godstorm", {"ruleset": "godstorm"}, 3),
    "classic_risk": ("godstorm", {"ruleset": "classic"}, 3),
}


class Injected(Exception):
    """The fault this test throws into the rules."""


FAULTS: list[type[Exception]] = [Injected, KeyError, ZeroDivisionError, IllegalAction]

STEPS = st.lists(
    st.tuples(
        st.integers(0, 10**6),                             # which actor and which legal action
        st.one_of(st.none(), st.integers(1, 400)),        # fail at this line of apply (None: no fault)
        st.integers(0, len(FAULTS) - 1),                   # with this exception
    ),
    min_size=1, max_size=20,
)


class Fault:
    """Raises ``exc`` at the ``at``-th line executed in ``bot/games/`` while active."""

    def __init__(self) -> None:
        self.at: int | None = None
        self.exc: type[Exception] = Injected
        self.fired = False
        self._lines = 0

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        return self._local if frame.f_code.co_filename.startswith(GAMES_DIR) else None

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self._lines += 1
            if self._lines == self.at and not self.fired:
                self.fired = True
                raise self.exc("injected") if self.exc is not IllegalAction else IllegalAction("injected")
        return self._local

    @contextmanager
    def active(self) -> Iterator[None]:
        if self.at is None:
            yield
            return
        self._lines = 0
        previous = sys.gettrace()
        sys.settrace(self._global)
        try:
            yield
        finally:
            sys.settrace(previous)


async def assert_memory_is_the_database(store: Store, sessions: SessionManager, game_id: int) -> None:
    session = sessions.sessions.get(game_id) or await sessions.get(game_id)
    loaded = await store.load_game_text(game_id)
    assert loaded is not None
    row, text = loaded
    assert row.seq == session.row.seq
    assert text == session.state_text
    if session.game is not None:
        assert json.loads(session.game.to_json_text()) == json.loads(text)


async def scenario(db: Path, case: str, steps: list[tuple[int, int | None, int]],
                   monkeypatch: pytest.MonkeyPatch) -> int:
    """Play ``steps`` with faults injected; returns how many moves a fault undid."""
    key, options, players = CASES[case]
    cls = game_class(key)
    fault = Fault()
    original = cls.apply

    def apply(self: Any, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        with fault.active():
            return original(self, seat, action)

    monkeypatch.setattr(cls, "apply", apply)
    store = await Store.open(db)
    sessions = SessionManager(store)
    users = [UserInfo(10 + i, f"u{i}") for i in range(players)]
    session = await sessions.create(guild_id=1, channel_id=1, host=users[0], game_key=key, options=options)
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=sum(s[0] for s in steps) % 1000)
    faults = 0
    for pick, at, which in steps:
        session = await sessions.get(session.id)
        game = session.game
        if session.row.status != "running" or game is None:
            break
        seat = game.actors()[pick % len(game.actors())]
        legal = game.legal_actions(seat)
        action = legal[pick % len(legal)]
        seq = session.row.seq
        fault.at, fault.exc, fault.fired = at, FAULTS[which], False
        try:
            await sessions.act(session.id, session.row.seat_users[seat][0], seat, action)
        except (SessionError, IllegalAction) as exc:
            assert fault.fired, exc  # only the injected fault may refuse a listed action
            expected = "injected" if fault.exc is IllegalAction else "err.move_failed"
            assert (exc.key, type(exc)) == (expected, IllegalAction if fault.exc is IllegalAction else SessionError)
            assert session.row.seq == seq
            faults += 1
        else:
            assert not fault.fired
        fault.at = None
        await assert_memory_is_the_database(store, sessions, session.id)
    # the game goes on after the faults: a few clean moves, then the log replays to the state
    for _ in range(3):
        session = await sessions.get(session.id)
        if session.row.status != "running" or session.game is None:
            break
        seat = session.game.actors()[0]
        await sessions.act(session.id, session.row.seat_users[seat][0], seat, session.game.legal_actions(seat)[0])
        await assert_memory_is_the_database(store, sessions, session.id)
    assert await verify(store, session.id)
    await store.close()
    return faults


@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_a_fault_anywhere_in_apply_leaves_memory_equal_to_the_database(
        case: str, steps: list[tuple[int, int | None, int]], monkeypatch: pytest.MonkeyPatch) -> None:
    with tempfile.TemporaryDirectory() as tmp, monkeypatch.context() as patch:
        asyncio.run(scenario(Path(tmp) / "f.sqlite3", case, steps, patch))


def test_the_injector_really_lands_inside_the_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Guard against a property that holds vacuously: faults at early lines fire in every game,
    each kind of exception once, and every one is undone."""
    for case in CASES:
        steps = [(n, 1 + n % 5, n % len(FAULTS)) for n in range(8)]
        with monkeypatch.context() as patch:
            faults = asyncio.run(scenario(tmp_path / f"{case}.sqlite3", case, steps, patch))
        assert faults == len(steps), case


async def reach(sessions: SessionManager, game_id: int, wanted: Any, limit: int = 400) -> None:
    """Play first legal actions until ``wanted(game)`` holds."""
    for _ in range(limit):
        session = await sessions.get(game_id)
        game = session.game
        if wanted(game):
            return
        seat = game.actors()[0]
        await sessions.act(game_id, session.row.seat_users[seat][0], seat, game.legal_actions(seat)[-1])
    raise AssertionError("decision not reached")


@pytest.mark.parametrize("case", ["coldwar", "godstorm"])
async def test_a_failed_secret_choice_is_logged_without_its_value(case: str, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Cold War agent choices and Godstorm bids are secret: when the rules fail on one, the log
    names the game, the seat and the action's type, never the chosen value, for the first and
    for the second of the simultaneous choosers."""
    key, options, players = CASES[case]
    store = await Store.open(tmp_path / "s.sqlite3")
    sessions = SessionManager(store)
    users = [UserInfo(10 + i, f"u{i}") for i in range(players)]
    session = await sessions.create(guild_id=1, channel_id=1, host=users[0], game_key=key, options=options)
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=77)
    await reach(sessions, session.id, lambda game: game.is_simultaneous())
    cls = game_class(key)
    original = cls.apply

    def broken(self: Any, seat: int, action: dict[str, Any]) -> Any:
        original(self, seat, action)  # the choice is recorded, then the rules fail
        raise RuntimeError("rules bug")

    for chooser in range(2):
        game = session.game
        seat = game.actors()[0]
        action = game.legal_actions(seat)[-1]
        monkeypatch.setattr(cls, "apply", broken)
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="bot.core.sessions"), pytest.raises(SessionError, match="move_failed"):
            await sessions.act(session.id, session.row.seat_users[seat][0], seat, action)
        monkeypatch.setattr(cls, "apply", original)
        text = "\n".join(r.getMessage() for r in caplog.records)
        shown = json.dumps({"type": action["type"]}, separators=(",", ":"))
        assert f"game {session.id} ({key}): seat {seat}'s move {shown} failed" in text, text
        assert json.dumps(action, separators=(",", ":")) not in text and len(action) > 1
        await assert_memory_is_the_database(store, sessions, session.id)
        if chooser == 0:  # the first chooser decides for real; the second one is still secret
            await sessions.act(session.id, session.row.seat_users[seat][0], seat, action)
    await store.close()
