"""The undo window before an attack's roll (issue 27; docs/games/godstorm.md, "Takebacks").

The rulebook (../shared/rules/risk-godstorm.ru.txt, "Объявление атаки"): «Первым делом объявите территории в
которую и из которой производится атака» — an attack is first declared (from where, to where), and only then
are the dice thrown («...вы можете атаковать броском кубиков...»); «После объявления наступления вы должны
провести атаку хотя бы единожды прежде чем отозвать наступающих» — once declared, it is rolled at least once.
The house rule of issue 27 keeps that order and lets the roll wait: with ``undo_window`` > 0 an ``attack`` or
``attack_until`` only records the declaration and opens the decision ``roll`` (🎲, or the window's end); the
declaration draws nothing, so the attacker may take it back freely. Window 0 is the old flow, byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.replay import stored_options
from bot.games.base import Action, IllegalAction, OpenDecision
from bot.games.godstorm import Godstorm
from bot.games.godstorm.ai import policy
from bot.games.godstorm.combat import DEFAULT_UNDO_S, UNDO_WINDOWS
from bot.games.godstorm.scenario import put, scenario
from tests.godstorm.fixtures.make_decisions_fixtures import digest

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("v3p_*.json"))
"""Games of state version 3 as the lobby stored them (every option of then), written before the window
existed (``fixtures/make_v3_platform_fixtures.py``)."""


def _declared_game(window: int) -> Godstorm:
    """Player 0 (Gaul, 8 armies) may attack Iberia (player 2, 3 armies), on a board with no gods in play."""
    game = scenario()
    game.s.undo_s = window
    put(game, "Gaul", 0, 8)
    put(game, "Iberia", 2, 3)
    return game


ATTACK: Action = {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3}
UNTIL: Action = {"type": "attack_until", "from": "Gaul", "to": "Iberia", "dice": 3, "stop_at": 1}


# ---- the option -----------------------------------------------------------------------------------------
def test_new_games_get_the_window_and_games_stored_before_keep_none() -> None:
    assert UNDO_WINDOWS == (0, 10, 20, 60) and DEFAULT_UNDO_S == 20
    assert Godstorm.default_options()["undo_window"] == 20  # what the lobby stores for a new game
    for version in (1, 2, 3):
        assert Godstorm.migrate_options({"ruleset": "godstorm"}, version)["undo_window"] == 0
    assert stored_options("godstorm", {"ruleset": "godstorm"}, {"state_version": 3})["undo_window"] == 0
    assert Godstorm.migrate_options({"undo_window": 20}, 4) == {"undo_window": 20}
    game = Godstorm.new([{}, {}, {}], {**Godstorm.default_options()}, 3)
    assert game.to_json()["undo_window"] == 20
    off = Godstorm.new([{}, {}, {}], {**Godstorm.default_options(), "undo_window": 0}, 3)
    assert "undo_window" not in off.to_json()  # window 0 is stored exactly as before the option existed
    with pytest.raises(IllegalAction):
        Godstorm.new([{}, {}, {}], {**Godstorm.default_options(), "undo_window": 7}, 3)


# ---- declaring --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("action", [ATTACK, UNTIL], ids=["attack", "attack_until"])
def test_a_declaration_changes_no_army_no_die_and_nobody_else(action: Action) -> None:
    game = _declared_game(20)
    before = game.to_json()
    events = game.apply(0, dict(action))
    after = game.to_json()
    assert after["rng"] == before["rng"]  # no die thrown
    assert after["terr"] == before["terr"] and after["players"] == before["players"]  # armies untouched
    assert after["declared"] == {"from": "Gaul", "to": "Iberia", "dice": 3,
                                 "until": action.get("stop_at")}
    assert not any("to" in e for e in events)  # nothing private
    assert [e["type"] for e in events] == ["attack_declared"]
    assert game.open_decisions() == [OpenDecision("roll", (0,), f"Gaul>Iberia:3:{action.get('stop_at')}",
                                                  deadline_s=20, auto=True)]
    assert game.legal_actions(0) == [{"type": "roll"}]  # declared, it is rolled (no calling it off unrolled)
    assert game.legal_actions(2) == []  # the defender is asked nothing yet
    assert game.timeout_action(0) == {"type": "roll"}  # the window closes: the dice are thrown
    assert not game.reveals(0, dict(action), events, Godstorm.from_json(before), game)


def test_a_roll_before_its_declaration_or_by_another_seat_is_refused() -> None:
    game = _declared_game(20)
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "roll"})
    game.apply(0, dict(ATTACK))
    text = game.to_json_text()
    with pytest.raises(IllegalAction):
        game.apply(2, {"type": "roll"})
    assert game.to_json_text() == text


@pytest.mark.parametrize("action", [ATTACK, UNTIL], ids=["attack", "attack_until"])
def test_the_roll_throws_the_dice_the_attack_threw_without_the_window(action: Action) -> None:
    """Same seed, same dice: the window only moves the moment of the roll."""
    old = _declared_game(0)
    old_events = old.apply(0, dict(action))
    new = _declared_game(20)
    before = Godstorm.from_json(new.to_json())
    new.apply(0, dict(action))
    declared = Godstorm.from_json(new.to_json())
    events = new.apply(0, {"type": "roll"})
    assert events == old_events and any(e["type"] == "roll" for e in events)
    assert {k: v for k, v in new.to_json().items() if k != "undo_window"} == old.to_json()
    assert new.reveals(0, {"type": "roll"}, events, declared, new)  # the dice were seen
    assert before.to_json()["rng"] != new.to_json()["rng"]


def test_an_advance_into_an_empty_territory_has_no_window() -> None:
    """No defender, no dice, nothing to wait for: the armies advance at once."""
    game = _declared_game(20)
    put(game, "Iberia", None, 0)  # type: ignore[arg-type]
    events = game.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1})
    assert [e["type"] for e in events][:1] == ["advance"]
    assert game.s.declared is None and game.decision() != "roll"


@pytest.mark.parametrize("window", [0, 20])
def test_window_zero_is_the_old_flow_and_a_window_only_adds_the_rolls(window: int) -> None:
    """A whole seeded game: with window 0 the states are those of a game without the option (the key is not
    even stored); with 20 every declared attack is followed by its roll and the game is the same otherwise."""
    plain = Godstorm.new([{}, {}, {}], {"ruleset": "godstorm", "placement": "random"}, 77)
    game = Godstorm.new([{}, {}, {}], {"ruleset": "godstorm", "placement": "random", "undo_window": window}, 77)
    bots = policy("normal")
    rolls = 0
    for _ in range(900):
        if plain.outcome() is not None:
            break
        seat = plain.actors()[0]
        action = bots.choose(plain.view(seat), plain.legal_actions(seat), plain.rng)
        plain_events = plain.apply(seat, dict(action))
        rng_before = game.to_json()["rng"]
        events = game.apply(seat, dict(action))
        if game.s.declared is not None:  # only with a window: the declaration threw nothing
            assert window and game.to_json()["rng"] == rng_before and events[-1]["type"] == "attack_declared"
            assert bots.choose(game.view(seat), game.legal_actions(seat), game.rng) == {"type": "roll"}
            events = events[:-1] + game.apply(seat, {"type": "roll"})
            rolls += 1
        assert events == plain_events
        mine = game.to_json()
        assert mine.pop("undo_window", 0) == window
        assert json.dumps(mine) == json.dumps(plain.to_json())
    assert (rolls > 0) == (window > 0)
    assert plain.s.turn_idx or plain.s.epoch  # the game got into its turns


# ---- stored games of version 3 ------------------------------------------------------------------------------
def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_the_fixtures_hold_attacks() -> None:
    types = {a[1]["type"] for path in FIXTURES for a in _load(path)["actions"]}
    assert {"attack", "attack_until", "move_in", "defend"} <= types
    assert all("undo_window" not in _load(path)["options"] for path in FIXTURES)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_version_3_game_loads_and_replays_exactly(path: Path) -> None:
    """Stored states load unchanged (``migrate_state`` 3 → 4 keeps them), and the game started again from its
    stored options brought up to version 4 (``migrate_options``: window 0) replays its log to the same states."""
    data = _load(path)
    assert data["state_version"] == 3
    states = data["state_digests"].split()
    for text in data["stored"].values():
        assert Godstorm.from_json(Godstorm.migrate_state(json.loads(text), 3)).to_json_text() == text
    options = stored_options("godstorm", data["options"], {"state_version": 3})
    game = Godstorm.new([{} for _ in range(data["players"])], options, data["seed"])
    assert game.to_json_text() == data["stored"]["0"]
    for i, (seat, action, timed) in enumerate(data["actions"], start=1):
        if timed:
            assert game.timeout_action(seat) == action, i
        game.apply(seat, action)
        text = game.to_json_text()
        assert digest(text) == states[i], i
        if str(i) in data["stored"]:
            assert text == data["stored"][str(i)], i


def test_without_the_migration_the_same_log_would_not_replay() -> None:
    """The check above has teeth: the options a version-4 lobby stores (window 20) start a game whose first
    attack waits for a roll the version-3 log does not have."""
    data = _load(FIXTURES[0])
    game = Godstorm.new([{} for _ in range(data["players"])], {**data["options"], "undo_window": 20}, data["seed"])
    with pytest.raises(IllegalAction):
        for seat, action, _ in data["actions"]:
            game.apply(seat, action)


# ---- what the players read ------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "roll"), [("en", "🎲 Roll"), ("ru", "🎲 Бросить")])
def test_the_declared_attack_is_told_with_its_roll_button_and_the_window(lang: str, roll: str) -> None:
    """The spec: the answer shows the declared attack with 🎲 "Roll" / "Бросить"; the panel says the dice are
    rolled on 🎲 or when the window closes, with its seconds; a move tried meanwhile says the roll comes first."""
    game = _declared_game(20)
    events = game.apply(0, dict(ATTACK))
    assert game.action_path(0, {"type": "roll"}, lang) == [roll]
    prompt = game.prompt_text(0, lang)
    assert "🎲" in prompt and "20" in prompt and game.place("Iberia") is not None
    iberia = {"en": "Iberia", "ru": "Иберия"}[lang]
    assert iberia in prompt
    told = game.event_text(events[0], lang)
    assert told is not None and iberia in told and "3" in told
    assert any("🎲" in line for line in game.status_lines(lang))
    assert game.why_not(0, dict(UNTIL)) == ("godstorm.why.roll_first", {})
    assert game.view(None)["declared"] == {"from": "Gaul", "to": "Iberia", "dice": 3, "until": None, "window": 20}
    assert game.view(None)["last"] == {"from": "Gaul", "to": "Iberia"}  # the board's arrow for the order
