"""Texts: every key exists in both languages, paths fit Discord selects, no private data in public text."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

from bot.core.i18n import catalogue, has
from bot.games.godstorm import Godstorm
from bot.games.godstorm.playout import choose

SRC = Path(__file__).resolve().parents[2] / "bot" / "games" / "godstorm"


def test_refusal_keys_exist() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SRC.glob("*.py"))
    keys = set(re.findall(r'_refuse\("(\w+)"', text))
    assert keys and all(has("godstorm.err." + k) for k in keys), [k for k in keys if not has("godstorm.err." + k)]


def test_catalogue_has_both_languages_and_short_rules() -> None:
    ours = {k: v for k, v in catalogue().items() if k.startswith("godstorm.")}
    assert all(v.get("ru") and v.get("en") for v in ours.values())
    assert len(ours["godstorm.rules"]["ru"]) <= 1800 and len(ours["godstorm.rules"]["en"]) <= 1800
    for spec in Godstorm.option_specs():
        assert has(spec.label_key) and all(has(label) for _, label in spec.choices)
    assert has("godstorm.name")


@pytest.mark.parametrize(("ruleset", "players", "placement"),
                         [("godstorm", 3, "choose"), ("godstorm", 2, "random"), ("classic", 2, "choose")])
def test_texts_over_a_whole_game(ruleset: str, players: int, placement: str) -> None:
    g = Godstorm.new([{} for _ in range(players)], {"ruleset": ruleset, "placement": placement}, players)
    rnd = random.Random(players)
    n = 0
    while g.outcome() is None:
        n += 1
        seat = g.actors()[0]
        legal = g.legal_actions(seat)
        if n % 7 == 0 or len(legal) > 20:
            for lang in ("ru", "en"):
                kids: dict[tuple[str, ...], set[str]] = defaultdict(set)
                paths = [tuple(g.action_path(seat, a, lang)) for a in legal]
                assert len(set(paths)) == len(paths)
                for p in paths:
                    assert all(0 < len(label) <= 80 and "godstorm." not in label for label in p)
                    for i in range(len(p)):
                        kids[p[:i]].add(p[i])
                assert max(len(k) for k in kids.values()) <= 25
                assert "godstorm." not in g.prompt_text(seat, lang)
                for line in g.status_lines(lang):
                    assert "godstorm." not in line
        for e in g.apply(seat, choose(g, seat, legal, rnd)):
            for lang in ("ru", "en"):
                text = g.event_text(e, lang)
                assert text is None or "godstorm." not in text
            if e["type"] == "bids_revealed":
                pass
            elif "to" not in e:
                assert "faith" not in e or e["type"] not in ("has_bid",)
        if g.s.phase == "bid":
            view = g.view(None)
            assert "me" not in view and all("bid" not in p for p in view["players"])
    assert g.event_text({"type": "game_over", "winners": g.outcome()["winners"]}, "ru")
