"""Games stored before issue 24 (the decision table, the typed actions and events, the text module) load and
replay byte for byte, and read the same to the players: ``fixtures/stored_games.json`` was written by
``fixtures/record.py`` with the code of the time, and these tests compare today's code with it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.core import jsontext
from bot.games.base import rng_version
from bot.games.byallmeans import ByAllMeans

FIXTURE = Path(__file__).parent / "fixtures" / "stored_games.json"


@cache
def _games() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return games


def _names() -> list[str]:
    return [g["name"] for g in _games()]


def _game(name: str) -> dict[str, Any]:
    return next(g for g in _games() if g["name"] == name)


@pytest.mark.parametrize("name", _names())
def test_stored_states_load_unchanged(name: str) -> None:
    """Every stored state (a shuffle half done, an exchange half done, an effect waiting, the end) reads
    back and writes out as the same text."""
    for moment, text in _game(name)["states"].items():
        assert ByAllMeans.from_json(json.loads(text)).to_json_text() == text, moment


@pytest.mark.parametrize("name", _names())
def test_stored_log_replays_to_the_stored_states(name: str) -> None:
    """The action log applied from the seed gives each action's stored events and, at each stored moment
    and at the end, the stored state text."""
    g = _game(name)
    with rng_version(g["rng"]):
        game = ByAllMeans.new(g["seat_info"], g["options"], g["seed"])
        for (seat, action), step in zip(g["log"], g["steps"], strict=True):
            assert seat in game.actors()
            events = game.apply(seat, action)
            assert jsontext.compact(events) == step["events"]
            assert game.actors() == step["actors"]
            if "moment" in step:
                assert game.to_json_text() == g["states"][step["moment"]], step["moment"]
    assert game.to_json_text() == g["states"]["last"]


@pytest.mark.parametrize("name", _names())
def test_stored_games_read_the_same(name: str) -> None:
    """What the players read at every step: the path of the action taken, its event texts, status lines,
    hands, prompts and the first panel paths, in both languages; and the timeout answers."""
    g = _game(name)
    last: dict[tuple[str, str], Any] = {}
    with rng_version(g["rng"]):
        game = ByAllMeans.new(g["seat_info"], g["options"], g["seed"])
        game.seat_names = g["names"]
        for i, ((seat, action), step) in enumerate(zip(g["log"], g["steps"], strict=True)):
            for lang in ("ru", "en"):
                assert game.action_path(seat, action, lang) == step["path_before"][lang], (i, lang)
            events = game.apply(seat, action)
            assert {str(s): game.timeout_action(s) for s in (0, 1)} == step["timeouts"], i
            assert game.is_simultaneous() == step["simultaneous"], i
            for lang, want in step["texts"].items():
                assert game.action_path(seat, action, lang) == want["path"], (i, lang)
                assert [game.event_text(e, lang) for e in events] == want["events"], (i, lang)
                for key, now in (("status", game.status_lines(lang)),
                                 ("private", [game.private_text(s, lang) for s in (0, 1)])):
                    if want[key] is not None:
                        last[lang, key] = want[key]
                    assert now == last[lang, key], (i, lang, key)
                assert {str(s): game.prompt_text(s, lang) for s in game.actors()} == want["prompts"], (i, lang)
                panels = {str(s): [game.panel_path(s, a, lang) for a in game.panel_actions(s, lang)[:8]]
                          for s in game.actors()}
                assert panels == want["panel"], (i, lang)
