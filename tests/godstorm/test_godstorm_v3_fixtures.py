"""Stored games of state version 3 load, replay byte for byte and show what they showed (issue 24).

The fixtures ``fixtures/v3_*.json`` were written by ``fixtures/make_decisions_fixtures.py`` with the code
from before issue 24 (the game's own ``Decision`` table, the text mixin, untyped actions). Their expected
values are that code's output on purpose: issue 24 asks that stored games of the previous format still
load and that replay from the action log reproduces the stored state exactly, and that players see the
same; the reference is the previous implementation. Each fixture is a seeded game with miracle cards,
response windows, the defender's dice and standing preferences: the action log, a digest of the stored
state after every action, a digest of every view, decision fact (actors, timeouts, deadlines, secrecy),
refusal, legal action, control label and text in both languages after every action, and whole stored
states at the start, the first open battle/move-in/window/card pick/defence, the middle and the end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.games.godstorm import Godstorm
from tests.godstorm.fixtures.make_decisions_fixtures import digest, seen

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("v3_*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _seen_digest(game: Godstorm, events: list[Any]) -> str:
    return digest(json.dumps(seen(game, events), ensure_ascii=False, sort_keys=True))


def test_fixtures_cover_the_decisions() -> None:
    """Every kind of decision a version-3 game opens is in some fixture's log."""
    games = [_load(p) for p in FIXTURES]
    types = {a[1]["type"] for g in games for a in g["actions"]}
    assert {"pick_pantheon", "pick_pile", "bid", "pick_order", "defend", "no_answer", "take_card", "play_card",
            "move_in", "answer_pref", "dice_pref", "place_neutral"} <= types
    assert {k for g in games for k in g["kinds"]} >= {"defend", "move", "window", "pick"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_replay_is_byte_identical_and_shows_the_same(path: Path) -> None:
    data = _load(path)
    states = data["state_digests"].split()
    seens = data["seen_digests"].split()
    game = Godstorm.from_json(json.loads(data["stored"]["0"]))
    game.seat_names = data["names"]
    assert game.to_json_text() == data["stored"]["0"]
    assert _seen_digest(game, []) == seens[0]
    for i, (seat, action, timed) in enumerate(data["actions"], start=1):
        if timed:
            assert game.timeout_action(seat) == action, i
        events = game.apply(seat, action)
        text = game.to_json_text()
        assert digest(text) == states[i], i
        if str(i) in data["stored"]:
            assert text == data["stored"][str(i)], i
        assert _seen_digest(game, events) == seens[i], i


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_stored_states_load_unchanged_and_play_on(path: Path) -> None:
    data = _load(path)
    states = data["state_digests"].split()
    for at, text in data["stored"].items():
        game = Godstorm.from_json(json.loads(text))
        assert game.to_json_text() == text
        for i, (seat, action, _) in enumerate(data["actions"][int(at):], start=int(at) + 1):
            game.apply(seat, action)
            assert digest(game.to_json_text()) == states[i], (at, i)


def test_a_fresh_game_replays_the_log() -> None:
    """The same options and seed start the same game, and its log replays to the stored end."""
    data = _load(FIXTURES[0])
    game = Godstorm.new([{} for _ in range(data["players"])], data["options"], data["seed"])
    assert game.to_json_text() == data["stored"]["0"]
    for seat, action, _ in data["actions"]:
        game.apply(seat, action)
    assert game.to_json_text() == data["stored"][str(len(data["actions"]))]
