"""A bot's choice does not change when only hidden parts of the state change.

Each test builds pairs of full states that differ only in what the deciding seat may not see (the
opponents' hands, the deck order, the opponent's secret agent X, the other players' secret bids and
territory cards), checks that the seat's views are equal and that the states really differ, and
then asks both levels through ``bot.games.ai.decide`` (the path the platform uses: it hands the
policy ``game.view(seat)`` and the legal list, never the state) for the same decision.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

from bot.games.ai import decide, policy_for
from bot.games.base import Game
from bot.games.registry import game_class

Variant = Callable[[dict[str, Any], int, random.Random], dict[str, Any] | None]


def _positions(key: str, n: int, options: dict[str, Any], seed: int, every: int,
               seat_info: list[dict[str, Any]] | None = None) -> Iterator[tuple[Game, int, int]]:
    """Positions of a game of random moves: (game, the seat to decide, actions so far)."""
    cls = game_class(key)
    game = cls.new(seat_info or [{"side": i} for i in range(n)], options, seed)
    rnd = random.Random(seed)
    step = 0
    while game.outcome() is None and step < 3000:
        seat = game.actors()[0]
        if step % every == 0:
            yield game, seat, step
        game.apply(seat, rnd.choice(game.legal_actions(seat)))
        step += 1


def _check(key: str, game: Game, seat: int, step: int, variant: Variant, rnd: random.Random) -> bool:
    """True when a variant was built and compared (False: nothing hidden to change here)."""
    data = game.to_json()
    changed = variant(copy.deepcopy(data), seat, rnd)
    if changed is None:
        return False
    assert changed != data, "the variant must change the hidden state"
    other = type(game).from_json(changed)
    assert other.view(seat) == game.view(seat), "the variant changed what the seat sees"
    assert other.legal_actions(seat) == game.legal_actions(seat)
    for level in ("strong", "quick"):
        policy = policy_for(key, level)
        assert decide(other, seat, policy, step) == decide(game, seat, policy, step), (level, step)
    return True


def _run(key: str, n: int, options: dict[str, Any], variant: Variant, seeds: range, every: int,
         seat_info: list[dict[str, Any]] | None = None) -> int:
    rnd = random.Random(99)
    checked = 0
    for seed in seeds:
        for game, seat, step in _positions(key, n, options, seed, every, seat_info):
            checked += _check(key, game, seat, step, variant, rnd)
    return checked


# ---- Pobeda: the other hands and the deck ---------------------------------------------------
def _pobeda_swap(data: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any] | None:
    """Every other seat's hand traded for cards from the deck, and the deck reshuffled."""
    hands, deck = data["hands"], data["deck"]
    others = [s for s in range(len(hands)) if s != seat and hands[s]]
    if not others or len(deck) < 6:
        return None
    for s in others:
        k = min(len(hands[s]), len(deck))
        new, deck[:k] = deck[:k], hands[s][:k]
        hands[s][:k] = new
    rnd.shuffle(deck)
    return data


def test_pobeda_choice_ignores_other_hands_and_the_deck() -> None:
    assert _run("pobeda", 2, {}, _pobeda_swap, range(3), every=5) >= 20
    assert _run("pobeda", 3, {}, _pobeda_swap, range(2), every=7) >= 10


# ---- Cold War: the opponent's agent X and the decks ------------------------------------------
def _coldwar_swap(data: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any] | None:
    """The opponent's secret agent X traded for another of its headquarters (while it is hidden
    from this seat), and the group and target decks reshuffled."""
    s = data["state"]
    opp = 1 - seat
    d = s["dec"]
    learnt = d is not None and d["kind"] == "plan" and d.get("peek") == seat  # the Double Agent's peek
    hidden_x = (s["x"][opp] is not None and s["phase"] not in ("report", "detente") and not learnt
                and not s["exposed"][opp] and not s.get("shown", [False, False])[opp])
    swapped = False
    if hidden_x and s["agents"][opp]["hq"]:
        other = rnd.choice(s["agents"][opp]["hq"])
        hq = s["agents"][opp]["hq"]
        hq.remove(other)
        hq.append(s["x"][opp])
        hq.sort()
        s["x"][opp] = other
        swapped = True
    peeking = d is not None and d.get("seat") == seat and d["kind"] in ("media", "analyst", "space")
    if not peeking:  # a seat looking at the top cards sees their order
        rnd.shuffle(s["gdeck"])
        rnd.shuffle(s["tdeck"])
    return data if swapped or not peeking else None


def test_coldwar_choice_ignores_the_opponents_agent_and_the_decks() -> None:
    assert _run("coldwar", 2, {}, _coldwar_swap, range(3), every=3) >= 30


def test_coldwar_planning_with_the_opponents_agent_chosen() -> None:
    """The very situation of the brief: the opponent has sent agent X, this seat chooses now."""
    checked = 0
    rnd = random.Random(5)
    for seed in range(6):
        cls = game_class("coldwar")
        game = cls.new([{"side": 0}, {"side": 1}], {}, seed)
        step = 0
        while game.outcome() is None and step < 400:
            actors = game.actors()
            d = game.s.dec
            if d is not None and d.kind == "plan" and len(actors) == 1 and game.s.x[1 - actors[0]] is not None \
                    and d.peek != actors[0]:
                checked += _check("coldwar", game, actors[0], step, _coldwar_swap, rnd)
            seat = actors[0]
            game.apply(seat, rnd.choice(game.legal_actions(seat)))
            step += 1
    assert checked >= 20


# ---- Godstorm and classic Risk: the secret bids and the territory cards ----------------------
def _godstorm_swap(data: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any] | None:
    """Other players' secret bids changed (during the bid), other hands of territory cards traded
    with the deck (classic), and the territory deck reshuffled."""
    changed = False
    for i, p in enumerate(data["players"]):
        if i == seat:
            continue
        if data["phase"] == "bid" and p["bid"] is not None and p["faith"] > 0:
            p["bid"] = (p["bid"] + 1) % (p["faith"] + 1)
            changed = True
        if p["tcards"] and len(data["tdeck"]) >= len(p["tcards"]):
            k = len(p["tcards"])
            p["tcards"], data["tdeck"][:k] = data["tdeck"][:k], p["tcards"]
            changed = True
    if len(data["tdeck"]) > 1:
        before = list(data["tdeck"])
        rnd.shuffle(data["tdeck"])
        changed = changed or before != data["tdeck"]
    return data if changed else None


def test_godstorm_bid_ignores_the_other_bids() -> None:
    """Three players bid in turn; the last one decides with the two others' bids changed."""
    checked = 0
    rnd = random.Random(3)
    for seed in range(8):
        game = game_class("godstorm").new([{}, {}, {}], {}, seed)
        step = 0
        while game.outcome() is None and step < 2000:
            actors = game.actors()
            if game.s.phase == "bid" and len(actors) == 1:
                checked += _check("godstorm", game, actors[0], step, _godstorm_swap, rnd)
            game.apply(actors[0], rnd.choice(game.legal_actions(actors[0])))
            step += 1
    assert checked >= 20


def test_classic_choice_ignores_other_territory_cards_and_the_deck() -> None:
    checked = _run("godstorm", 3, {"ruleset": "classic"}, _godstorm_swap, range(2), every=9,
                   seat_info=[{}, {}, {}])
    assert checked >= 20
