"""Every malformed action is refused with ``IllegalAction`` and changes nothing (issue 24).

A malformed action is one whose fields do not have the shape of its type (``bot.games.godstorm.actions``):
a field missing or of the wrong JSON kind. Slash commands and stale clients can send any dict; the
platform refuses what is not listed, but ``apply`` must refuse it too (a replay or a test calls it
directly). The positions are every tenth position of the stored games in ``fixtures/v3_*.json`` and a
few built by hand for the rarer decisions (a godswar, an Aegis window, a card to take, the two-player
set-up), and one legal action of every type offered there is garbled field by field.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import Godstorm
from bot.games.godstorm.actions import SHAPES, well_formed
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import put, scenario
from tests.godstorm.miracle_kit import game as miracle_game
from tests.godstorm.miracle_kit import give, play

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("v3_*.json"))
GARBAGE: list[Any] = [None, "", "x", "²", 7, -1, 2 ** 70, 1.5, True, [], ["x"], [1], {}, {"a": 1}]
"""Values of every JSON kind (and a few a slash command may type) put in place of a field."""


def _positions(path: Path, every: int = 10) -> list[Godstorm]:
    data = json.loads(path.read_text())
    game = Godstorm.from_json(json.loads(data["stored"]["0"]))
    out = []
    for i, (seat, action, _) in enumerate(data["actions"]):
        if i % every == 0:
            out.append(Godstorm.from_json(json.loads(game.to_json_text())))
        game.apply(seat, action)
    return out


def _garbled(action: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for key in action:
        if key == "type":
            continue
        out.append({k: v for k, v in action.items() if k != key})
        out += [{**action, key: junk} for junk in GARBAGE]
    return out


def _one_of_each_type(game: Godstorm) -> list[tuple[int, dict[str, Any]]]:
    seen: dict[str, tuple[int, dict[str, Any]]] = {}
    for seat in range(len(game.s.players)):
        for a in game.legal_actions(seat) + game.standing_actions(seat):
            seen.setdefault(a["type"], (seat, a))
    return list(seen.values())


def _rare_positions() -> list[Godstorm]:
    out = []
    war = scenario()  # a godswar: the attacker's champion, then (after a round) a retreat
    put(war, "Gaul", 0, 8, gods=["war", "sky"])
    put(war, "Iberia", 2, 3, gods=["magic", "death"])
    war.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    out.append(war)
    later = Godstorm.from_json(json.loads(war.to_json_text()))
    assert later.s.battle is not None
    later.s.battle.rounds = 1
    out.append(later)
    aegis = miracle_game()  # a card played against an Aegis holder: cancel it or not
    put(aegis, "Gaul", 0, 5, gods=["war"])
    give(aegis, 1, "aegis")
    give(aegis, 0, "heroes_are_born")
    play(aegis, 0, "heroes_are_born", territory="Gaul")
    out.append(aegis)
    visions = miracle_game()  # a card to take from another hand
    put(visions, "Gaul", 0, 5, gods=["war"])
    put(visions, "Roma", 1, 2)
    give(visions, 0, "visions_become_real")
    give(visions, 1, "heroes_are_born")
    play(visions, 0, "visions_become_real", seat=1)
    out.append(visions)
    declared = scenario()  # an attack declared with an undo window, waiting for its roll (issue 27)
    declared.s.undo_s = 20
    put(declared, "Gaul", 0, 8)
    put(declared, "Iberia", 2, 3)
    declared.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert declared.decision() == "roll"
    out.append(declared)
    two = Godstorm.new([{}, {}], {"ruleset": "godstorm", "placement": "random"}, 5)  # the piles to choose
    rnd = random.Random(5)
    wanted = {"pile"}
    while wanted and two.actors():
        if two.decision() in wanted:
            wanted.discard(str(two.decision()))
            out.append(Godstorm.from_json(json.loads(two.to_json_text())))
        seat = two.actors()[0]
        two.apply(seat, choose(two, seat, two.legal_actions(seat), rnd))
    return out


def _check(game: Godstorm) -> tuple[int, set[str]]:
    """Garble one legal action of each type of ``game``; returns the number tried and the types."""
    tried, types = 0, set()
    before = game.to_json_text()
    for seat, legal in _one_of_each_type(game):
        types.add(legal["type"])
        for action in _garbled(legal):
            copy = Godstorm.from_json(json.loads(before))
            try:
                copy.apply(seat, action)
            except IllegalAction:
                assert copy.to_json_text() == before, (seat, action)
            else:  # only a well-formed action may pass (a count in range, a flag left out...)
                assert well_formed(action), (seat, action)
            tried += 1
    return tried, types


def test_every_action_type_garbled_is_refused_and_changes_nothing() -> None:
    """Each position that offers a type not garbled yet is garbled whole, until every type has been."""
    types: set[str] = set()
    for g in _rare_positions() + [g for path in FIXTURES for g in _positions(path, every=1)]:
        if {a["type"] for _, a in _one_of_each_type(g)} - types:
            types |= _check(g)[1]
    assert types == set(SHAPES)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_garbled_fields_are_refused_and_change_nothing(path: Path) -> None:
    tried = 0
    for g in _positions(path):
        tried += _check(g)[0]
    assert tried > 500


def test_not_a_dict_or_without_a_type_is_a_bad_action() -> None:
    game = _positions(FIXTURES[0], every=1000)[0]
    before = game.to_json_text()
    seat = game.actors()[0]
    for action in (None, "place", 3, [], {}, {"type": 5}, {"type": None}, {"kind": "place"}):
        with pytest.raises(IllegalAction) as refused:
            game.apply(seat, action)  # type: ignore[arg-type]
        assert refused.value.key == "godstorm.err.bad_action"
    assert game.to_json_text() == before


def test_shapes_of_the_legal_actions_are_well_formed() -> None:
    """The check refuses nothing the game offers."""
    for path in FIXTURES:
        for game in _positions(path, every=25):
            for seat in range(len(game.s.players)):
                for a in game.legal_actions(seat) + game.standing_actions(seat):
                    assert well_formed(a), a
