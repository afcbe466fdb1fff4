"""Texts of the miracle cards: every event, prompt, status line and action path in both languages."""

from __future__ import annotations

import random

from bot.games.godstorm import Godstorm
from bot.games.godstorm.miracle_text import MIRACLE_EVENTS, card_name, card_text
from bot.games.godstorm.miracles import CARDS
from bot.games.godstorm.playout import choose
from tests.godstorm.miracle_kit import game, give, put


def test_every_card_named_in_both_languages() -> None:
    for cid in CARDS:
        for lang in ("ru", "en"):
            assert card_name(cid, lang) and card_text(cid, lang)
            assert card_name(cid + ".1", lang) == card_name(cid, lang)
    assert card_name("heroes_are_born", "ru") != card_name("heroes_are_born", "en")


def test_texts_over_games_with_cards() -> None:
    kinds: set[str] = set()
    for seed in range(4):
        g = Godstorm.new([{} for _ in range(3 + seed % 3)], {"ruleset": "godstorm"}, 100 + seed)
        rnd = random.Random(seed)
        while g.outcome() is None:
            seat = g.actors()[0]
            legal = g.legal_actions(seat)
            for lang in ("ru", "en"):
                assert "godstorm." not in g.prompt_text(seat, lang)
                if g.decision() in ("answer", "pick_card") or g.s.step == "miracle":
                    for line in g.status_lines(lang):
                        assert "godstorm." not in line
                    for a in legal:
                        assert all(0 < len(x) <= 100 and "godstorm." not in x for x in g.action_path(seat, a, lang))
            for e in g.apply(seat, choose(g, seat, legal, rnd)):
                if e["type"] in MIRACLE_EVENTS:
                    kinds.add(e["type"])
                for lang in ("ru", "en"):
                    text = g.event_text(e, lang)
                    assert text is None or "godstorm." not in text, (e, text)
    assert {"card_played", "window_open", "card_private", "relic_in_play"} <= kinds


def test_window_texts() -> None:
    g = game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    give(g, 1, "men_become_warriors")
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert "Gaul" in g.prompt_text(1, "en") and g.prompt_text(0, "en") == ""
    assert any("Ждём ответа" in line for line in g.status_lines("ru"))
    paths = {tuple(g.action_path(1, a, "en")) for a in g.legal_actions(1)}
    assert ("No answer",) in paths and ("No answer, never ask again",) in paths
    assert any(p[:2] == ("Play a card", "Men Become Warriors (1)") for p in paths)
