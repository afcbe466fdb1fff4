"""Stored Pobeda games of the format before the typed state still load and replay byte for byte.

``fixtures/*.json`` were written by the rules as they were before the state became typed records
(``bot/games/pobeda/state.py``): a seeded game's seats, options and seed, every action with the events it
made, the state text stored after the last action, and states stored in the middle of a line choice and of
a team penalty (``snapshots``). The stored text is the oracle: nothing here is computed by the code under test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.jsontext import compact
from bot.games.pobeda import Pobeda

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))
V1 = Path(__file__).parents[1] / "platform" / "fixtures" / "states_v1" / "pobeda.json"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_the_fixtures_cover_every_stored_shape() -> None:
    """Two and three sides, teams, both dead-card readings, a game won by lines and one ended by the cards,
    and states stored while a line choice and a penalty were open."""
    games = [load(name) for name in NAMES]
    states = [json.loads(g["state_text"]) for g in games]
    assert {s["options"]["dead"] for s in states} == {"replace", "turn"}
    assert any(s["options"]["teams"] for s in states) and {s["n_sides"] for s in states} == {2, 3}
    assert {s["outcome"]["reason"] for s in states} == {"lines", "cards"}
    assert {kind for g in games for kind in g["snapshots"]} == {"pending", "penalty"}


@pytest.mark.parametrize("name", NAMES)
def test_a_stored_game_replays_to_the_same_events_and_state_text(name: str) -> None:
    """Rebuilt as the platform replays a stored game (``bot.core.replay.stored_options``): the options it was
    started with brought up to the rules' version (a game of version 2 has no undo window)."""
    stored = load(name)
    options = Pobeda.migrate_options(dict(stored["options"]), stored["state_version"])
    game = Pobeda.new(stored["seat_info"], options, stored["seed"])
    for n, row in enumerate(stored["log"]):
        events = game.apply(row["seat"], row["action"])
        assert compact(events) == compact(row["events"]), f"action {n}"
    assert game.to_json_text() == stored["state_text"]


@pytest.mark.parametrize("name", NAMES)
def test_a_stored_state_loads_and_is_stored_again_unchanged(name: str) -> None:
    stored = load(name)
    for text in [stored["state_text"], *stored["snapshots"].values()]:
        game = Pobeda.from_json(json.loads(text))
        assert game.to_json_text() == text
        assert compact(game.to_json()) == text


def test_stored_open_decisions_go_on_after_loading() -> None:
    """A state stored during a line choice asks the same seat to choose; one stored during a penalty asks the
    seats still to give a card (``penalty.waiting`` minus ``penalty.chosen`` of the stored JSON)."""
    for name in NAMES:
        for kind, text in load(name)["snapshots"].items():
            raw = json.loads(text)
            game = Pobeda.from_json(raw)
            if kind == "pending":
                assert game.actors() == [raw["pending"]["seat"]]
                assert len(game.legal_actions(raw["pending"]["seat"])) == len(raw["pending"]["queue"][0])
            else:
                waiting = [s for s in raw["penalty"]["waiting"] if str(s) not in raw["penalty"]["chosen"]]
                assert waiting and game.actors() == waiting
                events = game.apply(waiting[0], game.legal_actions(waiting[0])[0])
                assert events[0] == {"type": "penalty_card", "seat": waiting[0]}
                assert game.actors() == waiting[1:] or events[2]["type"] == "penalty_done"


def test_a_version_1_state_migrates_and_loads() -> None:
    """The stored game from before versioning (``tests/platform/fixtures/states_v1``) loads through
    ``migrate_state`` into the typed state and is stored as the same JSON (options keep their stored order)."""
    stored = json.loads(V1.read_text(encoding="utf-8"))
    raw = stored["state"] if isinstance(stored["state"], dict) else json.loads(stored["state"])
    migrated = Pobeda.migrate_state(raw, 1)
    game = Pobeda.from_json(migrated)
    assert json.loads(game.to_json_text()) == migrated
    assert list(game.to_json()["options"]) == list(migrated["options"])
    assert game.s.options.dead == "turn" and game.s.replaced is False
