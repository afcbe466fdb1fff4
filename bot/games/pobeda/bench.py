"""A deterministic crowded late-game state, for timing rendering and apply."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Action, Rng
from bot.games.pobeda.data import SIZE, cell_index
from bot.games.pobeda.game import Pobeda
from bot.games.pobeda.lines import DIRECTIONS


def _score(action: Action, owner: Sequence[int], side: int, rng: Rng) -> float:
    """Prefer placing next to a long run of one's own chips, so lines get built."""
    if action["type"] != "play" or action["card"].startswith("minus1"):
        return rng.random() * 0.5
    r0, c0 = divmod(cell_index(action["cell"]), SIZE)
    best = 0
    for dr, dc in DIRECTIONS:
        run = 0
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < SIZE and 0 <= c < SIZE and owner[r * SIZE + c] == side:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        best = max(best, run)
    return best + rng.random()


def bench_state(seed: int = 2024, moves: int = 120) -> Pobeda:
    """Three players, "Великая победа" to 3 lines, after up to ``moves`` semi-greedy legal
    actions; a move that would end the game is skipped, so the returned game is still
    running and crowded (118 chips and a finished line with the defaults). No undo window: the moves draw as
    they did when these figures were first measured."""
    game = Pobeda.new([{"side": 0}, {"side": 1}, {"side": 2}], {"lines": 3, "undo_window": 0}, seed)
    rng = Rng(seed + 1)
    for _ in range(moves):
        seat = game.actors()[0]
        side = game.side_of(seat)
        owner = game.s.owner
        action = max(game.legal_actions(seat), key=lambda a: _score(a, owner, side, rng))
        trial = Pobeda.from_json(game.to_json())
        trial.apply(seat, action)
        if trial.outcome() is None:
            game = trial
    return game
