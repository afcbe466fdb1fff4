"""Only actions the game lists reach its rules: ``Game.is_listed`` and the session layer's check.

Godstorm lists a menu of counts (1, half, all) while its rules take any count in range, so a count
is a *free key* there: ``/risk place count:7`` must still reach the rules, and the rules check 7.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bot.games.base import Action, IllegalAction
from bot.games.godstorm import Godstorm
from tests.platform.toy import Toy


def toy() -> Toy:
    game = Toy.new([{}, {}], {}, 1)
    return game


def test_listed_means_equal_to_a_legal_action() -> None:
    game = toy()
    seat = game.actors()[0]
    assert game.is_listed(seat, {"type": "add", "n": 2})
    assert not game.is_listed(seat, {"type": "add", "n": 3})
    assert not game.is_listed(seat, {"type": "add", "n": True})   # equal to 1 in Python, not in JSON
    assert not game.is_listed(seat, {"type": "add", "n": 2.0})
    assert not game.is_listed(seat, {"type": "add", "n": 2, "extra": 1})
    assert not game.is_listed(seat, {"type": "add"})
    assert not game.is_listed(seat, "add 2")
    assert not game.is_listed(1 - seat, {"type": "add", "n": 2})  # not its turn: nothing is listed


class FreeToy(Toy):
    free_keys = frozenset({"n"})


def test_a_free_key_takes_any_integer_and_nothing_else() -> None:
    game = FreeToy.new([{}, {}], {}, 1)
    seat = game.actors()[0]
    assert game.is_listed(seat, {"type": "add", "n": 7})      # the rules decide whether 7 is allowed
    assert not game.is_listed(seat, {"type": "add", "n": "7"})
    assert not game.is_listed(seat, {"type": "add", "n": True})
    assert not game.is_listed(seat, {"type": "pick", "n": 1})  # the other keys must match a listed action
    assert not game.is_listed(seat, {"type": "add"})


def counted(game: Godstorm, seat: int) -> list[Action]:
    return [a for a in game.legal_actions(seat) if "count" in a]


def test_godstorm_counts_outside_the_menu_are_listed_and_checked_by_the_rules() -> None:
    """Find a Godstorm decision whose menu skips a count the rules accept (placing 2 of 5 armies,
    say): it is listed and applies, while another type or a non-integer count is not listed."""
    rnd = random.Random(5)
    game = Godstorm.new([{}, {}, {}], {"ruleset": "godstorm"}, 5)
    found: dict[str, Any] | None = None
    for _ in range(3000):
        seat = game.actors()[0]
        menu = counted(game, seat)
        for action in menu:
            same = sorted(a["count"] for a in menu if {**a, "count": 0} == {**action, "count": 0})
            for gap in (n for n in range(1, max(same)) if n not in same):
                trial = Godstorm.from_json(json.loads(game.to_json_text()))
                assert trial.is_listed(seat, {**action, "count": gap})
                try:
                    trial.apply(seat, {**action, "count": gap})
                except IllegalAction:
                    continue  # listed, so it reached the rules, which refused it cleanly
                found = {**action, "count": gap}
                break
            if found:
                break
        if found:
            break
        game.apply(seat, rnd.choice(game.legal_actions(seat)))
    assert found is not None, "no decision with an accepted count outside its menu"
    seat = game.actors()[0]
    assert found not in game.legal_actions(seat) and game.is_listed(seat, found)
    assert not game.is_listed(seat, {**found, "count": str(found["count"])})
    assert not game.is_listed(seat, {**found, "count": float(found["count"])})
    assert not game.is_listed(seat, {**found, "type": "summon"})
    if "territory" in found:
        assert not game.is_listed(seat, {**found, "territory": "nowhere"})
    game.apply(seat, found)
