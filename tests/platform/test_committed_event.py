"""The "game committed" event (issue 24 item 4: "a 'game committed' event replaces the callbacks through
the bots module"): the session manager tells its subscribers of every committed change with one typed
record (game id, seq, status, the seats prompted), the publisher and the bots' driver subscribe at
start-up, and the session manager and the bots no longer import each other at any level.
"""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest

from bot.core import bots
from bot.core.events import GameCommitted
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.games import registry
from tests.platform.toy import toy_manifest

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = UserInfo(1, "alice"), UserInfo(2, "bob")


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


@pytest.fixture
async def store(tmp_path: Path):
    store = await Store.open(tmp_path / "c.sqlite3")
    yield store
    await store.close()


async def started(sessions: SessionManager) -> int:
    session = await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={})
    await sessions.join(session.id, BOB)
    await sessions.start(session.id, ALICE.id, seed=1234)
    return session.id


def _imports(path: Path) -> set[str]:
    """Every module named by an import in ``path``, at any depth (functions, ``if TYPE_CHECKING:``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_the_session_manager_and_the_bots_do_not_import_each_other() -> None:
    sessions = _imports(ROOT / "bot" / "core" / "sessions.py")
    bots_ = _imports(ROOT / "bot" / "core" / "bots.py")
    assert not {m for m in sessions if m.startswith("bot.core.bots")}, sessions
    assert not {m for m in bots_ if m.startswith("bot.core.sessions")}, bots_
    # the parser sees imports inside functions and type-only blocks too
    sample = ROOT / "var" / "committed_sample.py"
    sample.parent.mkdir(exist_ok=True)
    sample.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.core.sessions import X\n"
                      "def f() -> None:\n    from bot.core import bots\n")
    try:
        assert {"bot.core.sessions", "bot.core.bots"} <= _imports(sample)
    finally:
        sample.unlink()


async def test_every_committed_change_reaches_the_subscribers_in_order(store: Store) -> None:
    heard: list[tuple[str, GameCommitted]] = []
    changed: list[int] = []
    sessions = SessionManager(store, on_change=changed.append)
    sessions.subscribe(lambda e: heard.append(("first", e)))
    sessions.subscribe(lambda e: heard.append(("second", e)))
    gid = await started(sessions)
    session = sessions.sessions[gid]
    game = session.game
    assert game is not None
    first = game.actors()[0]
    # the start: seq 0, running, the first seat asked to act
    assert heard == [("first", GameCommitted(gid, 0, "running", (first,))),
                     ("second", GameCommitted(gid, 0, "running", (first,)))]
    heard.clear()
    await sessions.act(gid, session.row.seat_users[first][0], first, {"type": "add", "n": 2})
    assert heard == [(n, GameCommitted(gid, 1, "running", (1 - first,))) for n in ("first", "second")]
    assert changed == [gid, gid]  # the hook by game id still hears of it, after the subscribers
    heard.clear()
    await sessions.abort(gid, ALICE.id)
    assert [e for _, e in heard] == [GameCommitted(gid, 1, "aborted", ())] * 2
    assert heard[0][1].ended


async def test_a_failing_subscriber_leaves_the_move_and_the_others_alone(store: Store,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    heard: list[GameCommitted] = []
    sessions = SessionManager(store)

    def broken(event: GameCommitted) -> None:
        raise RuntimeError("a listener's bug")

    sessions.subscribe(broken)
    sessions.subscribe(heard.append)
    gid = await started(sessions)
    session = sessions.sessions[gid]
    assert session.game is not None
    seat = session.game.actors()[0]
    with caplog.at_level(logging.ERROR, logger="bot.core.sessions"):
        result = await sessions.act(gid, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})
    assert result.events[0]["type"] == "added" and session.row.seq == 1
    assert [e.seq for e in heard] == [0, 1]
    assert "subscriber of the committed change failed" in caplog.text


async def test_the_bots_driver_plays_from_the_event_and_holds_the_publisher_during_its_turn(
        store: Store) -> None:
    """Wired as bot/discord_app/app.py does: the publisher hears every change unless a bot turn holds the
    game, and the driver publishes the whole turn once it is over (a bot turn is one post)."""
    sessions = SessionManager(store)
    published: list[int] = []
    driver = bots.BotDriver(sessions, publish=lambda gid: published.append(sessions.sessions[gid].row.seq
                                                                            if gid in sessions.sessions else -1),
                            pause=0)
    during: list[bool] = []

    def publisher(event: GameCommitted) -> None:
        during.append(driver.holds(event.game_id))
        if not driver.holds(event.game_id):
            published.append(event.seq)

    sessions.subscribe(publisher)
    sessions.subscribe(driver.committed)
    session = await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="toy", options={})
    await bots.add_bot(sessions, session.id, ALICE.id, "quick")
    await sessions.start(session.id, ALICE.id, seed=1234)
    await driver.idle()
    game = session.game
    assert game is not None
    human = session.seats_of(ALICE.id)[0]
    for _ in range(4):  # the human's moves, each followed by the bot's turn
        seat = game.actors()[0] if game.actors() else None
        assert seat == human or human in game.actors()
        legal = game.legal_actions(human)
        await sessions.act(session.id, ALICE.id, human, legal[0])
        await driver.idle()
        game = session.game
        assert game is not None
    by_bot = [a.seq for a in await store.actions(session.id) if a.user_id is not None and a.user_id < 0]
    assert by_bot  # the bot played
    # each bot move was committed while its turn held the game, so the publisher's subscription let it
    # pass; the driver published each turn once it was over, and every move reached a publish in order
    assert during.count(True) == len(by_bot)
    assert published == sorted(set(published)) and published[-1] == session.row.seq
