"""The toy's bots: ``quick`` plays at random, ``strong`` completes a line or blocks one, else plays at random."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.ai import Policy, RandomPolicy
from bot.games.base import Action, Event, Rng
from tests.toygame.game import LINES


class LineBot:
    name = "toygame-strong"

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action:
        board, me = view["board"], view["seat"]
        for who in (me, 1 - me):  # win, else block
            for line in LINES:
                cells = [board[c] for c in line]
                if cells.count(who) == 2 and cells.count(None) == 1:
                    empty = line[cells.index(None)]
                    best = [a for a in legal if a["cell"] == empty]
                    if best:
                        return dict(max(best, key=lambda a: a["secret"]))
        return dict(rng.choice(list(legal)))


def policy(level: str) -> Policy:
    return LineBot() if level == "strong" else RandomPolicy()
