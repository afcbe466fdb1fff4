"""The step-by-step panel over By All Means games: only legal choices, every legal move reachable (itself
or its twin using another copy of the same hand card), no two buttons alike, no empty level."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.discord_app import panels
from bot.games.ai import bot_rng, game_rng, policy_for
from bot.games.byallmeans import ByAllMeans
from bot.games.byallmeans.panel import _canon


def walk(game: ByAllMeans, seat: int, lang: str) -> tuple[list[dict[str, Any]], list[str]]:
    """What the panel lets the player reach from its root, and the problems met on the way."""
    reached: list[dict[str, Any]] = []
    problems: list[str] = []

    def down(prefix: list[int]) -> None:
        choices, chosen = panels.choices_under(game, seat, lang, prefix)
        prefix, choices, chosen = panels.skip_single_levels(prefix, choices, chosen)
        if not choices:
            problems.append(f"empty level under {chosen}")
            return
        depth = len(prefix)
        if len(choices) <= panels.MAX_BUTTONS:
            labels = Counter(" · ".join(c.path[depth:]) or c.path[-1] for c in choices)
            problems.extend(f"two buttons {label!r} under {chosen}" for label, n in labels.items() if n > 1)
            reached.extend(c.action for c in choices)
            return
        for i, _ in enumerate(panels.level_labels(choices, depth)):
            down(prefix + [i])

    down([])
    return reached, problems


def test_panels_over_ai_games() -> None:
    bot = policy_for("byallmeans", "strong")
    checked = 0
    for seed in (1, 2, 3):
        game = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, seed)
        n = 0
        while game.outcome() is None and n < 250:
            seat = game.actors()[0]
            legal = game.legal_actions(seat)
            hand = {u: game.s.cards[u] for u in game.s.players[seat].hand}
            for lang in ("ru", "en"):
                reached, problems = walk(game, seat, lang)
                assert not problems, (seed, n, lang, problems[:3])
                assert all(a in legal for a in reached)  # only legal choices
                keys = {repr(_canon(a, hand)) for a in reached}
                assert all(repr(_canon(a, hand)) in keys for a in legal), (seed, n, lang)
                checked += 1
            action = bot.choose(dict(game.view(seat)), legal, bot_rng(game_rng(game), seat, n))
            game.apply(seat, action)
            n += 1
    assert checked > 300
