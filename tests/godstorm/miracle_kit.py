"""Helpers for the miracle-card tests: a running turn with the cards played, and cards put in hands."""

from __future__ import annotations

from typing import Any

from bot.games.base import Event
from bot.games.godstorm import Godstorm
from bot.games.godstorm.miracles import CARDS, card_of
from bot.games.godstorm.scenario import put, rebalance, scenario, script


def game(step: str = "miracle", players: int = 3, filler_armies: int = 1) -> Godstorm:
    """Seat 0's turn at ``step``; every territory held by the last seat with ``filler_armies``; 10 faith each."""
    return scenario(players=players, step=step, filler_armies=filler_armies, miracles=True)


def give(g: Godstorm, seat: int, card: str) -> str:
    """Move a copy of ``card`` from its pile into ``seat``'s hand (a relic: into play); returns the instance."""
    m = g.s.mir
    assert m is not None
    pile = m.piles[CARDS[card].deck]
    inst = next(i for i in pile if card_of(i).id == card)
    pile.remove(inst)
    (m.relics if CARDS[card].deck == "magic" else m.hands)[seat].append(inst)
    g._sync(seat)
    return inst


def play(g: Godstorm, by: int, card: str, /, **args: Any) -> list[Event]:
    return g.apply(by, {"type": "play_card", "card": card, **args})


def places(g: Godstorm) -> list[str]:
    """Every card instance where it is (pile, hand, unread, relic, out of the game, or being played: held by
    an Aegis window until it resolves or is cancelled), flattened."""
    m = g.s.mir
    assert m is not None
    out = [i for p in m.piles.values() for i in p] + m.gone + [w.card for w in m.windows if w.card is not None]
    for seat in range(len(m.hands)):
        out += m.hands[seat] + m.unread[seat] + m.relics[seat]
    return out


__all__ = ["game", "give", "play", "places", "put", "rebalance", "script"]
