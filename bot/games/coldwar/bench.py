"""A deterministic crowded late-game state, for timing rendering and apply (``python -m bot.bench``)."""

from __future__ import annotations

from bot.games.base import Rng
from bot.games.coldwar.game import ColdWar


def bench_state() -> ColdWar:
    """A deterministic crowded late-game state: a struggle with many groups on the table."""
    for seed in range(1, 500):
        game = ColdWar.new([{"side": 0}, {"side": 1}], {}, seed)
        rng = Rng(seed + 7)
        steps = 0
        while game.outcome() is None and steps < 2000:
            seat = game.actors()[0]
            legal = game.legal_actions(seat)
            waits = [a for a in legal if a["type"] == "wait"]
            rec = [a for a in legal if a["type"] == "recruit"]
            # prefer recruiting so the table fills up
            action = rec[0] if rec and rng.random() < 0.6 else (waits[0] if waits and rng.random() < 0.2
                                                                 else rng.choice(legal))
            game.apply(seat, action)
            steps += 1
            s = game.s
            busy = len(s.table[0]) + len(s.table[1])
            if (s.round >= 6 and s.dec is not None and s.dec.kind == "turn" and busy >= 7
                    and sum(game.engine.score(i) for i in (0, 1)) >= 60):
                return game
    raise RuntimeError("no bench state found")
