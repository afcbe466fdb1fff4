"""Issue 25, items 2 and 10: every By All Means decision says what is decided and why, every answer names
the card, cell or player in words, seats by their players' names, and counts as real plurals."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bot.core.i18n import t
from bot.discord_app import panels
from bot.games.byallmeans import ByAllMeans, effects
from tests.byallmeans.bam_helpers import started

NAMES = ["alice", "Борис"]
RAW = re.compile(r"\b(discard|utilise):|\d+\.\d+|\b\d\.(main|extra)\b")


def decisions(seeds: range, steps: int = 400) -> list[tuple[ByAllMeans, int]]:
    """Positions of random legal games where a seat owes an effect decision."""
    out: list[tuple[ByAllMeans, int]] = []
    for seed in seeds:
        g = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, seed)
        g.seat_names = NAMES
        rng = random.Random(seed)
        for _ in range(steps):
            if g.outcome() is not None or not g.actors():
                break
            seat = g.actors()[0]
            waiting = effects.pending(g.s)
            if waiting is not None and waiting[0] == seat:
                copy = ByAllMeans.from_json(g.to_json())
                copy.seat_names = NAMES
                out.append((copy, seat))
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    return out


@pytest.fixture(scope="module")
def positions() -> list[tuple[ByAllMeans, int]]:
    return decisions(range(1, 9))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_decision_prompt_names_the_decision(positions: list[tuple[ByAllMeans, int]], lang: str) -> None:
    generic = t("bam.prompt.choose", lang)
    kinds = set()
    for g, seat in positions:
        prompt = g.prompt_text(seat, lang)
        kinds.add(g.s.stack[-1].ops[0]["op"])
        assert prompt and prompt != generic, (g.s.stack[-1].ops[0], prompt)
        assert "{" not in prompt
    assert {"route", "rival_window"} <= kinds  # the common engine decisions were met


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_decision_answers_are_words_not_ids(positions: list[tuple[ByAllMeans, int]], lang: str) -> None:
    for g, seat in positions:
        for action in g.panel_actions(seat, lang):
            path = g.panel_path(seat, action, lang)
            label = panels.SEP.join(path)
            assert not RAW.search(label), (action, label)
            if action["type"] == "choose":
                assert not path[-1].startswith(str(action["v"])), (action, label)  # "pass", "main", "buffer"...
            assert not re.search(r"\b(Игрок|Player) \d", label), label


def test_rival_window_offers_named_cards() -> None:
    g = started(1)
    g.seat_names = NAMES
    s = g.s
    uid = next(u for u in s.cards if s.cards[u] and u.startswith("1."))
    from bot.games.byallmeans.game import card_name, choice_label

    assert choice_label(s, "pass", "en") == "Use nothing"
    assert choice_label(s, f"discard:{uid}", "en") == f"Discard {card_name(s.cards[uid], 'en')} for its effect"
    assert choice_label(s, f"utilise:{uid}", "ru") == f"Утилизировать {card_name(s.cards[uid], 'ru')}"
    assert choice_label(s, "1.main", "ru", g.who) == "Основной архив: Борис"


def test_order_and_seats_use_player_names() -> None:
    g = ByAllMeans.new([{}, {}], {}, 3)
    g.seat_names = NAMES
    assert g.event_text({"type": "bam.order", "first": 1}, "ru") == "Первым ходит Борис"
    assert g.event_text({"type": "bam.order", "first": 0}, "en") == "alice goes first"


def test_counts_are_plural_phrases_and_no_signed_zero() -> None:
    g = ByAllMeans.new([{}, {}], {}, 3)
    g.seat_names = NAMES
    ev = {"type": "bam.draw", "seat": 0, "archive": "main", "n": 4}
    assert g.event_text(ev, "ru") == "alice берёт 4 карты (основной архив)"
    assert g.event_text({**ev, "n": 1}, "en") == "alice draws 1 card from the main archive"
    assert g.event_text({"type": "bam.exchanged", "seat": 1, "n": 5}, "ru") == "Борис обменивает 5 карт"
    assert g.event_text({"type": "bam.lose", "seat": 0, "res": "rep", "n": 0}, "ru") is None


def test_opening_exchange_is_a_select_of_how_many() -> None:
    g = ByAllMeans.new([{}, {}], {}, 1)
    for seat in (0, 1):
        g.apply(seat, {"type": "shuffle", "main": False, "extra": False})
    g.apply(g.s.chooser, {"type": "order", "first": 0})
    assert g.s.phase == "exchange"
    seat = g.actors()[0]
    choices, _ = panels.choices_under(g, seat, "ru", [])
    assert len(choices) == 16
    assert panels.as_select(g, seat, choices, 0)
    assert panels.level_labels(choices, 0) == ["Оставить руку", "Обменять 1 карту", "Обменять 2 карты",
                                               "Обменять 3 карты", "Обменять 4 карты"]
    under, chosen = panels.choices_under(g, seat, "ru", [2])
    assert chosen == ["Обменять 2 карты"] and len(under) == 6


I18N = Path(__file__).resolve().parents[2] / "data" / "i18n"
OWNED = ("byallmeans.json", "coldwar.json", "pobeda.json", "core.json")


@pytest.mark.parametrize("name", OWNED)
def test_no_gender_hacks_or_signed_zero(name: str) -> None:
    data = json.loads((I18N / name).read_text(encoding="utf-8"))
    for key, langs in data.items():
        assert "(а)" not in langs["ru"], key
        for text in langs.values():
            assert "−0" not in text and "-0 " not in text, key
