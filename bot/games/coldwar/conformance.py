"""How the contract suite (``tests/conformance/test_game_contract.py``) plays Cold War: the full and a short
goal, and its hidden part (a side's secret agent X) swapped for the secrecy checks."""

from __future__ import annotations

import random

from bot.games.base import Game
from bot.games.coldwar.game import ColdWar
from bot.games.coldwar.view import SEATS, public_x
from bot.games.manifest import Conformance


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game | None:
    """Each secret agent X ``seat`` cannot see swapped for another agent of its headquarters (the public
    view shows the X among them face down)."""
    assert isinstance(game, ColdWar)
    twin = ColdWar.from_json(game.to_json())
    s = twin.s
    d = s.dec
    changed = False
    for side in SEATS:
        x = s.x[side]
        if side == seat or x is None or public_x(s, side) != "hidden":
            continue
        if seat is not None and d is not None and d.kind == "plan" and d.peek == seat:
            continue  # a Double Agent let ``seat`` see it
        hq = s.agents[side].hq
        if not hq:
            continue
        i = rng.randrange(len(hq))
        hq[i], s.x[side] = x, hq[i]
        changed = True
    return twin if changed else None


CONFORMANCE = Conformance(
    setups=(
        ([{"side": 0}, {"side": 1}], {}),
        ([{"side": 0}, {"side": 1}], {"goal": 50}),
    ),
    max_actions=20000,
    hidden_twin=hidden_twin,
    illegal=({"type": "use", "group": "nothing", "target": "x"}, {"type": "agent", "agent": 99}),
)
