"""States stored by an earlier release still load and replay: every game's state carries a version
(in the game's settings, beside the state), a game may migrate an older state, and the random
generator a game was created with is the one its replay uses.

``fixtures/states_v1/*.json`` were written by the rules of commit 7da5600 (state version 1, Rng
version 1): a game of each kind played by random legal moves, with its action log and final state.
``byallmeans.json`` came later, with its first registered release (state version 1, generated the
same way under ``rng_version(1)``, seed 4105, the lobby's ``deck: random``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.replay import replay, stored_options, stored_state, verify
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store, dumps
from bot.games import registry
from bot.games.base import RNG_VERSION, Game, Rng
from tests.platform.toy import Toy, toy_manifest

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "states_v1"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def test_every_game_has_a_stored_fixture() -> None:
    assert NAMES == ["byallmeans", "classic_risk", "coldwar", "godstorm", "pobeda"]
    assert {fixture(n)["game"] for n in NAMES} == set(registry.GAMES)
    assert fixture("classic_risk")["options"]["ruleset"] == "classic"


@pytest.mark.parametrize("name", NAMES)
def test_state_of_the_previous_release_loads_and_its_log_replays(name: str) -> None:
    data = fixture(name)
    cls = registry.game_class(data["game"])
    state = stored_state(data["game"], data["state"], {"state_version": data["state_version"]})
    game = cls.from_json(json.loads(json.dumps(state)))
    game.actors(), game.outcome(), game.view(None)
    settings = {"state_version": data["state_version"]}
    options = stored_options(data["game"], data["options"], settings)
    replayed = replay(data["game"], data["seat_info"], options, data["seed"],
                      [(seat, action) for seat, action in data["actions"]], rng=data["rng_version"])
    assert json.loads(json.dumps(replayed.to_json())) == state
    assert json.loads(game.to_json_text()) == state


async def insert_stored(store: Store, data: dict[str, Any], channel: int) -> int:
    """A game row and its action log as the previous release stored them (no versions in the
    settings: games stored before versioning)."""
    seats = len(data["seat_info"])
    seat_users = [[1000 + channel * 10 + i] for i in range(seats)]
    lobby = [{"user": u[0], "name": f"p{i}", "lang": "en", "team": None} for i, u in enumerate(seat_users)]
    counts = [0] * seats
    for seat, _ in data["actions"]:
        if seat >= 0:
            counts[seat] += 1
    async with store.transaction():
        cur = await store.db.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, lang, options, lobby, settings, seat_users,"
            " seat_info, seed, state, seat_counts, seq, published_seq, created_at, updated_at)"
            " VALUES (1, ?, ?, 'running', ?, 'en', ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, 0, 0)",
            (channel, data["game"], seat_users[0][0], dumps(data["options"]), dumps(lobby), dumps(seat_users),
             dumps(data["seat_info"]), data["seed"], dumps(data["state"]), dumps(counts), len(data["actions"]),
             len(data["actions"])))
        game_id = int(cur.lastrowid or 0)
        await store.db.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at) VALUES (?,?,?,?,?,'[]',0)",
            [(game_id, n + 1, seat, None, dumps(action)) for n, (seat, action) in enumerate(data["actions"])])
    return game_id


async def test_stored_games_of_the_previous_release_go_on_after_an_upgrade(tmp_path: Path) -> None:
    """Every fixture loads through the platform (not broken), the log replays to the stored state
    with the generator it was made with (version 1), and an unfinished one plays on, still
    replaying, without its generator changing."""
    store = await Store.open(tmp_path / "old.sqlite3")
    ids = {name: await insert_stored(store, fixture(name), channel) for channel, name in enumerate(NAMES, 1)}
    sessions = SessionManager(store)
    await sessions.restore()
    running = 0
    for name, game_id in ids.items():
        session = await sessions.get(game_id)
        assert session.broken is None and session.game is not None, name
        assert session.rng_version == 1
        assert await verify(store, game_id), name
        if session.game.outcome() is not None:
            continue
        running += 1
        for _ in range(20):
            game = session.game
            if game.outcome() is not None:
                break
            seat = game.actors()[0]
            await sessions.act(game_id, session.row.seat_users[seat][0], seat, game.legal_actions(seat)[0])
        assert await verify(store, game_id), name
        rng = json.loads(session.state_text)["rng"]
        assert "v" not in rng  # still the generator the game started with
    assert running >= 1  # the classic Risk game was stored in the middle of play
    await store.close()


async def test_new_games_record_their_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
    store = await Store.open(tmp_path / "new.sqlite3")
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=1, host=UserInfo(1, "a"), game_key="toy", options={})
    await sessions.join(session.id, UserInfo(2, "b"))
    await sessions.start(session.id, 1, seed=5)
    stored = await store.load_game(session.id)
    assert stored.settings.rng_version == RNG_VERSION and stored.settings.state_version == Toy.STATE_VERSION
    assert stored.state["rng"] == {"v": RNG_VERSION, "seed": 5, "n": 1}  # Toy draws who starts
    await store.close()


class ToyV2(Toy):
    """The toy game after a rule change: its state gained a ``label``; older states are migrated."""

    STATE_VERSION = 2

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Toy:
        game = super().new(seat_info, options, seed)
        game.s["label"] = "v2"
        return game

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Toy:
        if "label" not in data:
            raise KeyError("label")  # what a version-1 state would do to these rules without migration
        return cls(data)

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        if from_version == 1:
            return {**data, "label": "v2"}
        return super().migrate_state(data, from_version)


async def started_toy(sessions: SessionManager) -> int:
    session = await sessions.create(guild_id=1, channel_id=7, host=UserInfo(1, "a"), game_key="toy", options={})
    await sessions.join(session.id, UserInfo(2, "b"))
    await sessions.start(session.id, 1, seed=11)
    for _ in range(2):
        game = session.game
        seat = game.actors()[0]
        await sessions.act(session.id, session.row.seat_users[seat][0], seat, game.legal_actions(seat)[0])
    return session.id


async def test_an_older_state_is_migrated_once_and_the_game_goes_on(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
    db = tmp_path / "m.sqlite3"
    store = await Store.open(db)
    game_id = await started_toy(SessionManager(store))
    await store.close()
    # the upgrade: the same key now names the version-2 rules
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest("tests.platform.test_state_versions:ToyV2"))
    store = await Store.open(db)
    sessions = SessionManager(store)
    await sessions.restore()
    session = await sessions.get(game_id)
    assert session.broken is None and session.game.to_json()["label"] == "v2"
    stored = await store.load_game(game_id)
    assert stored.state["label"] == "v2" and stored.settings.state_version == 2  # written back at once
    assert stored.seq == 2
    game = session.game
    seat = game.actors()[0]
    await sessions.act(game_id, session.row.seat_users[seat][0], seat, game.legal_actions(seat)[0])
    assert await verify(store, game_id)
    await store.close()


async def test_a_state_newer_than_the_rules_marks_the_game_broken(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A downgrade (state version 2, rules of version 1) must not guess: the game is broken."""
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest("tests.platform.test_state_versions:ToyV2"))
    db = tmp_path / "d.sqlite3"
    store = await Store.open(db)
    game_id = await started_toy(SessionManager(store))
    await store.close()
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())
    store = await Store.open(db)
    sessions = SessionManager(store)
    await sessions.restore()
    session = await sessions.get(game_id)
    assert session.game is None and "newer" in (session.broken or "")
    with pytest.raises(SessionError, match="err.game_broken"):
        await sessions.act(game_id, 1, 0, {"type": "add", "n": 1})
    assert (await store.broken_games()).keys() == {game_id}
    await store.close()


def test_base_migration_refuses_unknown_versions() -> None:
    assert Game.migrate_state.__func__(Toy, {"a": 1}, 1) == {"a": 1}  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        Toy.migrate_state({"a": 1}, 0)
    assert Rng.from_json(fixture("godstorm")["state"]["rng"]).version == 1
