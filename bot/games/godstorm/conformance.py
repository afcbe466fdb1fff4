"""How the contract suite (``tests/conformance/test_game_contract.py``) plays Godstorm: the Godstorm rules
with and without the miracle cards, classic Risk, and the Godstorm rules with an undo window before every
attack's roll (the ``roll`` decision), games biased to attack (``playout.choose``) so they
end soon, and its hidden parts (bids, miracle hands, territory cards) changed for the secrecy checks."""

from __future__ import annotations

import random

from bot.games.base import Action, Game
from bot.games.godstorm.game import Godstorm
from bot.games.godstorm.miracles import card_of
from bot.games.godstorm.playout import choose as playout_choice
from bot.games.manifest import Conformance


def choose(game: Game, seat: int, legal: list[Action], rnd: random.Random) -> Action:
    assert isinstance(game, Godstorm)
    return playout_choice(game, seat, legal, rnd)


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game | None:
    """What ``seat`` cannot see changed: the other seats' secret bids (another amount they could bid), their
    miracle cards in hand swapped with cards of the same kind from the piles, and their territory cards
    swapped with the deck's."""
    assert isinstance(game, Godstorm)
    twin = Godstorm.from_json(game.to_json())
    s = twin.s
    changed = False
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        if s.phase == "bid" and p.bid is not None and p.faith > 0:
            p.bid = (p.bid + 1 + rng.randrange(p.faith)) % (p.faith + 1)
            changed = True
        if s.tdeck and p.tcards:
            k = rng.randrange(len(p.tcards))
            j = rng.randrange(len(s.tdeck))
            p.tcards[k], s.tdeck[j] = s.tdeck[j], p.tcards[k]
            changed = True
        m = s.mir
        if m is None:
            continue
        for hand in (m.hands[i], m.unread[i]):
            for k, card in enumerate(hand):
                pile = m.piles.get(card_of(card).deck) or []
                if pile:
                    j = rng.randrange(len(pile))
                    hand[k], pile[j] = pile[j], hand[k]
                    changed = True
    return twin if changed else None


CONFORMANCE = Conformance(
    setups=(
        ([{}, {}, {}], {"ruleset": "godstorm", "miracles": "off"}),
        ([{}, {}], {"ruleset": "godstorm", "placement": "choose"}),
        ([{}, {}, {}], {"ruleset": "classic"}),
        ([{}, {}, {}], {"ruleset": "godstorm", "undo_window": 20}),  # every attack waits for its roll (issue 27)
    ),
    max_actions=60_000,
    choose=choose,
    hidden_twin=hidden_twin,
    illegal=({"type": "attack", "from": "Gaul", "to": "Rus", "dice": 3}, {"type": "nope"},
             {"type": "place", "territory": "Atlantis", "count": 99}, {"type": "bid", "faith": -1}),
)
