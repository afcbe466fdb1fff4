"""Random legal games with the miracle cards played: they end, armies are conserved, every card is in
exactly one place (a pile, a hand, unread, in play as a relic, or out of the game). Replay, JSON, refusals,
timeouts and secrecy with the cards on: ``tests/conformance/test_game_contract.py``."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.godstorm import Godstorm
from bot.games.godstorm.miracles import all_instances
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import ledger_ok
from tests.godstorm.miracle_kit import places

ALL = Counter(all_instances())


def _cards_ok(g: Godstorm) -> None:
    assert Counter(places(g)) == ALL
    m = g.s.mir
    assert m is not None
    for k, pile in m.piles.items():
        assert g.s.decks[k] == len(pile)
    for seat, p in enumerate(g.s.players):
        held = Counter(i.rsplit(".", 1)[0] for i in m.hands[seat] + m.unread[seat])
        assert sum(p.cards.values()) == sum(held.values())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_random_games_with_miracles(players: int, seed: int) -> None:
    options = {"ruleset": "godstorm", "miracles": "on"}
    g = Godstorm.new([{} for _ in range(players)], options, seed)
    rnd = random.Random(seed)
    steps = 0
    kinds: Counter[str] = Counter()
    while g.outcome() is None:
        steps += 1
        assert steps < 60_000, "the game must end"
        seat = g.actors()[0]
        legal = g.legal_actions(seat)
        assert legal
        action = choose(g, seat, legal, rnd)
        kinds[action["type"]] += 1
        events = g.apply(seat, action)
        for e in events:
            if e["type"] in ("card_private", "cards_read", "hand_shown"):
                assert "to" in e
        assert ledger_ok(g)
        _cards_ok(g)
    assert g.actors() == []


def test_cards_are_played_in_random_games() -> None:
    """Over a few seeds the random games play cards, open windows and answer them."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        g = Godstorm.new([{} for _ in range(4)], {"ruleset": "godstorm"}, seed)
        rnd = random.Random(seed)
        while g.outcome() is None:
            seat = g.actors()[0]
            if g.decision() == "answer":
                seen["window"] += 1
            action = choose(g, seat, g.legal_actions(seat), rnd)
            seen[action["type"]] += 1
            g.apply(seat, action)
    assert seen["play_card"] > 0 and seen["window"] > 0 and seen["no_answer"] > 0
