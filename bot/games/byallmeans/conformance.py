"""How the contract suite (``tests/conformance/test_game_contract.py``) plays By All Means: random and preset
decks, and its hidden parts (which card lies where in the hands and archives) dealt again for
the secrecy checks."""

from __future__ import annotations

import random

from bot.games.base import Game
from bot.games.byallmeans.game import ByAllMeans
from bot.games.manifest import Conformance


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game | None:
    """The cards ``seat`` cannot see dealt again: which card each uid of another seat's hand and archives
    is, and the order of ``seat``'s own archives (never shown, even to their owner)."""
    assert isinstance(game, ByAllMeans)
    twin = ByAllMeans.from_json(game.to_json())
    s = twin.s
    groups: list[list[str]] = []
    for i, p in enumerate(s.players):
        if i == seat:
            groups += [list(p.main), list(p.extra)]
        else:
            groups.append(p.hand + p.main + p.extra)
    changed = False
    for uids in groups:
        codes = [s.cards[u] for u in uids]
        rng.shuffle(codes)
        for uid, code in zip(uids, codes, strict=True):
            changed |= s.cards[uid] != code
            s.cards[uid] = code
    return twin if changed else None


CONFORMANCE = Conformance(
    setups=(
        ([{}, {}], {}),
        ([{}, {}], {"decks": ["press", "underground"]}),
    ),
    max_actions=4000,
    hidden_twin=hidden_twin,
    illegal=({"type": "play", "uid": "9.9", "cell": 99}, {"type": "end_turn", "now": True}),
)
