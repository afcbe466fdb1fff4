"""How the contract suite (``tests/conformance/test_game_contract.py``) plays Pobeda: tables of two and three
sides and of teams, with and without the undo window, and its hidden parts (the hands and the deck) dealt again for the secrecy checks."""

from __future__ import annotations

import random

from bot.games.base import Game
from bot.games.manifest import Conformance
from bot.games.pobeda.game import Pobeda


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game | None:
    """The cards ``seat`` cannot see (the deck and the other seats' hands) dealt again, each hand keeping
    its size: what no view but their owners' may show."""
    assert isinstance(game, Pobeda)
    twin = Pobeda.from_json(game.to_json())
    s = twin.s
    others = [i for i in range(len(s.hands)) if i != seat]
    pool = list(s.deck) + [card for i in others for card in s.hands[i]]
    if len(pool) < 2:
        return None
    rng.shuffle(pool)
    s.deck, pool = pool[:len(s.deck)], pool[len(s.deck):]
    for i in others:
        s.hands[i], pool = pool[:len(s.hands[i])], pool[len(s.hands[i]):]
    return twin


CONFORMANCE = Conformance(
    setups=(
        ([{"side": 0}, {"side": 1}], {}),
        # without the undo window (the draw comes with the move); the others have the default window (issue 27):
        # a move that draws opens the mover's confirmation
        ([{"side": 0}, {"side": 1}, {"side": 2}], {"lines": 1, "layout": "shuffled", "undo_window": 0}),
        ([{"side": k} for k in (0, 1, 0, 1)], {"teams": 2, "dead": "turn"}),
    ),
    max_actions=4000,
    hidden_twin=hidden_twin,
    illegal=({"type": "play", "card": "ev999", "cell": "A1"}, {"type": "penalty_card", "card": "ev999"}),
)
