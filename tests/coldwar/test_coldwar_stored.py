"""Games stored before the typed state (``fixtures/stored_games_v2.json``, written by the rules that read
their state by string keys) load, write back and replay byte for byte.

A stored state is JSON text in the database: loading it and writing it back must give the same text, and
replaying its action log from the seed must give the stored state (and the same events) at every point."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from bot.core import jsontext
from bot.games.base import rng_version, state_text
from bot.games.coldwar import ColdWar

GAMES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "fixtures" / "stored_games_v2.json")
                                         .read_text(encoding="utf-8"))


def _ids() -> list[str]:
    return [f"seed{g['seed']}-rng{g['rng_version']}" for g in GAMES]


def test_the_fixture_holds_every_kind_of_decision_and_the_round_only_records() -> None:
    seen: set[str] = set()
    for game in GAMES:
        for snap in game["snapshots"]:
            state = json.loads(snap["text"])["state"]
            seen |= {k for k in ("shown", "unrest_x") if k in state}
            if state["dec"] is not None:
                seen.add(state["dec"]["kind"])
    assert seen >= {"plan", "first", "event", "analyst", "space", "double", "turn", "media", "discard",
                    "shown", "unrest_x"}


@pytest.mark.parametrize("game", GAMES, ids=_ids())
def test_stored_states_load_and_write_back_the_same_text(game: dict[str, Any]) -> None:
    for text in [s["text"] for s in game["snapshots"]] + [game["final"]]:
        loaded = ColdWar.from_json(json.loads(text))
        assert loaded.to_json_text() == text
        assert state_text(loaded.to_json()) == text


@pytest.mark.parametrize("game", GAMES, ids=_ids())
def test_the_action_log_replays_to_the_stored_states_and_events(game: dict[str, Any]) -> None:
    want = {s["after"]: s["text"] for s in game["snapshots"]}
    digest = hashlib.sha256()
    with rng_version(game["rng_version"]):
        g = ColdWar.new([{"side": 0}, {"side": 1}], game["options"], game["seed"])
        for n, (seat, action) in enumerate(game["actions"], 1):
            digest.update(jsontext.compact(g.apply(seat, action)).encode())
            if n in want:
                assert g.to_json_text() == want[n], n
                # a game loaded from that point plays on the same way
                g = ColdWar.from_json(json.loads(want[n]))
    assert g.to_json_text() == game["final"]
    assert digest.hexdigest() == game["events_sha256"]


def test_a_migrated_version_1_state_keeps_its_card_set_last() -> None:
    """``migrate_state`` appends ``cards`` to a version-1 state; written back, it stays where it was."""
    text = next(s["text"] for g in GAMES if g["options"].get("cards") == 1 for s in g["snapshots"])
    data = json.loads(text)
    del data["state"]["cards"]
    assert ColdWar.from_json(copy.deepcopy(data)).to_json_text() == state_text(data)   # no "cards": set 1
    migrated = ColdWar.migrate_state(data, 1)
    assert list(migrated["state"])[-1] == "cards"
    assert ColdWar.from_json(migrated).to_json_text() == state_text(migrated)
