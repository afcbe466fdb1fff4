"""The typed Pobeda view (bot.games.pobeda.view): its shape, and that a seat sees only its own hand."""

from __future__ import annotations

import json
from typing import NotRequired, get_origin, get_type_hints

from bot.games.base import ADMIN
from bot.games.pobeda.view import PobedaView
from tests.pobeda.pobeda_helpers import make, play_event, put


def required_keys() -> set[str]:
    hints = get_type_hints(PobedaView, include_extras=True)
    return {k for k, v in hints.items() if get_origin(v) is not NotRequired}


def test_every_view_has_exactly_the_declared_keys() -> None:
    """The TypedDict is the contract bot/games/pobeda/render.py reads: no undeclared key, no missing one."""
    game = make(3)
    declared = set(get_type_hints(PobedaView))
    for seat in (None, 0, 1, 2, 99):
        view = game.view(seat)
        assert required_keys() <= set(view) <= declared, seat
        json.dumps(view)  # plain JSON: the render cache hashes it


def test_a_seat_sees_its_own_hand_and_nobody_elses() -> None:
    """Rulebook: «Каждый игрок получает по 6 карт» — hands are private; others see only counts."""
    game = make(3)
    public = game.view(None)
    assert "hand" not in public and "seat" not in public
    assert public["hand_counts"] == [6, 6, 6]
    text = json.dumps(public)
    for seat in range(3):
        mine = game.view(seat)
        assert mine["seat"] == seat and sorted(mine["hand"]) == sorted(game.s.hands[seat])
        others = [c for k in range(3) if k != seat for c in game.s.hands[k]]
        assert not set(others) & set(mine["hand"])
    # no card of any hand is named in the public view, except as a board cell's event
    layout = set(public["layout"])
    assert not any(f'"{c}"' in text for h in game.s.hands for c in h if c not in layout)
    assert game.view(99).keys() == public.keys()  # a number that is no seat sees the public view


def test_board_counts_follow_the_position() -> None:
    """48 chips per side (rulebook: «фишки трёх цветов по 48 штук»); a chip placed leaves the supply."""
    game = make(2)
    put(game, 1, "B2", "C3")
    play_event(game, 0, "E5")
    view = game.view(None)
    assert {(c["cell"], c["side"]) for c in view["chips"]} == {("B2", 1), ("C3", 1), ("E5", 0)}
    assert [s["supply"] for s in view["sides"]] == [47, 46]
    assert view["last_move"] == ["E5"] and view["current"] == 1
    assert [s["colour"] for s in view["sides"]] == ["red", "blue"]


def test_penalty_view_names_seats_that_chose_never_the_cards() -> None:
    """Team penalty: the cards go back into the deck unseen, so the view lists who chose, not what."""
    game = make(4, teams=2)
    game.apply(ADMIN, {"type": "penalty", "side": 1})
    card = game.s.hands[1][0]
    game.apply(1, {"type": "penalty_card", "card": card})
    penalty = game.view(None)["penalty"]
    assert penalty == {"side": 1, "waiting": [1, 3], "chosen": [1]}
    assert card not in json.dumps(game.view(None)["penalty"])
