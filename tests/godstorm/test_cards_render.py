"""The private panel's picture of a player's miracle cards (issue 10): every card in hand and every relic in
play as a face with its name, deck, cost and text; nothing for a player without cards; only the seat's own
cards (the view of another seat carries none of them)."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.godstorm.miracles import CARDS
from bot.games.godstorm.render import render_personal
from bot.games.godstorm.render_cards import cards_of
from bot.games.godstorm.scenario import scenario


def test_hand_and_relics_are_drawn_for_their_holder_only() -> None:
    g = scenario(miracles=True)
    relic = next(c for c in CARDS if CARDS[c].timing == "relic")
    war = next(c for c in CARDS if CARDS[c].deck == "war")
    g.s.mir.hands[0] = [f"{war}.1", f"{war}.2"]
    g.s.mir.relics[0] = [f"{relic}.1"]
    assert cards_of(g.view(0)) == [(war, False), (relic, True)]  # one face per distinct card, then relics
    assert cards_of(g.view(1)) == []  # another seat's view holds nothing of seat 0's hand
    for lang in ("ru", "en"):
        png = render_personal(g.view(0), lang)
        assert png is not None
        img = Image.open(io.BytesIO(png))
        assert img.size[0] == 800 and 100 < img.size[1] < 2000


def test_no_cards_no_picture() -> None:
    """No miracle cards in hand: no cards picture (the DM panel's picture is then the seat's map alone,
    issue 25: render_personal always draws the map for a seat)."""
    from bot.games.godstorm.render_cards import render_hand

    g = scenario(miracles=True)
    assert render_hand(g.view(0), "en") is None
    assert render_hand(scenario().view(0), "en") is None  # miracles off
    assert render_personal(g.view(0), "en") is not None
