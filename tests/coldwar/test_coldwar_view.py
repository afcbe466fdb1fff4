"""The typed Cold War view (bot.games.coldwar.view) and the declared turn structure (engine.DECISIONS)."""

from __future__ import annotations

import json
from typing import NotRequired, get_origin, get_type_hints

from bot.games.base import Rng
from bot.games.coldwar.engine import DECISIONS, ROUND_STEPS, STEPS
from bot.games.coldwar.view import ColdWarView
from tests.coldwar.cw_helpers import fresh

CIA, KGB = 0, 1


def keys(hints_of: type) -> tuple[set[str], set[str]]:
    hints = get_type_hints(hints_of, include_extras=True)
    return {k for k, v in hints.items() if get_origin(v) is not NotRequired}, set(hints)


def test_views_have_exactly_the_declared_keys_through_a_whole_game() -> None:
    """bot/games/coldwar/render.py reads the TypedDict: every view of a played game has its keys and no other."""
    required, declared = keys(ColdWarView)
    game = fresh(seed=3, goal=50)
    rng = Rng(5)
    seen: set[str] = set()
    for _ in range(3000):
        for seat in (None, CIA, KGB):
            view = game.view(seat)
            assert required <= set(view) <= declared, (seat, set(view) ^ declared)
            json.dumps(view)
        if game.outcome() is not None:
            break
        seat = game.actors()[0]
        seen.add(game.s.dec.kind)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.outcome() is not None
    assert {"plan", "first", "turn"} <= seen


def test_agent_x_is_hidden_from_the_public_until_the_report() -> None:
    """Rulebook: agents X are chosen face down and revealed in the report phase; until then the public
    view says only that one was chosen, and the seat's own view names it."""
    game = fresh(seed=1)
    game.apply(game.s.balance, {"type": "first", "seat": CIA})
    game.apply(CIA, {"type": "agent", "agent": 5})
    public = game.view(None)
    assert public["sides"][CIA]["x"] == "hidden" and public["sides"][CIA]["chosen"]
    assert 5 in public["sides"][CIA]["hq"]  # hidden among the agents at headquarters
    assert public["sides"][KGB]["x"] is None and not public["sides"][KGB]["chosen"]
    assert "private" not in public and "seat" not in public
    assert game.view(CIA)["private"] == {"x": 5}
    assert game.view(KGB)["private"] == {"x": None}


def test_every_decision_the_rules_open_is_declared() -> None:
    """The tables name every step of the round and every kind of decision a played game opens."""
    assert set(ROUND_STEPS) <= set(STEPS) and {"round", "ab", "capture"} <= set(STEPS)
    kinds: set[str] = set()
    for seed in range(1, 6):
        game = fresh(seed=seed, goal=50)
        rng = Rng(seed)
        for _ in range(3000):
            if game.outcome() is not None:
                break
            kinds.add(game.s.dec.kind)
            seat = game.actors()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert game.outcome() is not None
    assert kinds <= set(DECISIONS) and len(kinds) >= 4
