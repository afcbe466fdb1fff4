"""Setup: archives, the opponent's shuffle, four cards, the lot, the exchange, the restricted first turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.base import IllegalAction
from bot.games.byallmeans import ByAllMeans, data
from tests.byallmeans.bam_helpers import acts, everywhere, started


def test_archives_of_25_and_15() -> None:
    """«В дополнительном архиве 15 карт, в основном 25.»"""
    g = ByAllMeans.new([{}, {}], {}, 5)
    for p in g.s.players:
        assert (len(p.main), len(p.extra), len(p.hand)) == (25, 15, 0)
    assert sorted(everywhere(g.s)) == sorted(g.s.cards) and len(g.s.cards) == 80


def test_counters_start_at_6_0_10() -> None:
    """«6 репутации, 0 влияния, 10 доверия»."""
    g = started()
    assert [(p.rep, p.inf, p.trust) for p in g.s.players] == [(6, 0, 10), (6, 0, 10)]


def test_deck_rules() -> None:
    """«Колода составляется из 40 карт. В колоде допускается не более двух повторений одной карты.»"""
    assert [k for k, _ in data.deck_problems(["T01"] * 39)] == ["bam.deck.size", "bam.deck.copies"]
    problems = data.deck_problems(["ZZZ"] + ["T01", "T02"] * 2 + ["T03"] * 35)
    assert ("bam.deck.unknown", {"code": "ZZZ"}) in problems
    assert ("bam.deck.copies", {"code": "T03", "n": 35, "max": 2}) in problems and len(problems) == 2
    with pytest.raises(IllegalAction) as err:
        ByAllMeans.new([{"deck": ["T01"] * 40}, {}], {}, 1)
    assert err.value.key == "bam.deck.copies"


def test_the_opponent_may_shuffle_each_archive() -> None:
    """«Соперник может перемешать каждый из архивов своего оппонента.»"""
    g = ByAllMeans.new([{}, {}], {}, 9)
    assert sorted(g.actors()) == [0, 1]
    assert len(g.legal_actions(0)) == 4
    before_main, before_extra = list(g.s.players[1].main), list(g.s.players[1].extra)
    own_main = list(g.s.players[0].main)
    g.apply(0, {"type": "shuffle", "main": True, "extra": False})
    assert sorted(g.s.players[1].main) == sorted(before_main) and g.s.players[1].main != before_main
    assert g.s.players[1].extra == before_extra and g.s.players[0].main == own_main
    assert g.actors() == [1] and g.legal_actions(0) == []


def test_four_cards_then_the_lot_chooses_the_order() -> None:
    """«Каждый игрок берет 4 карты из своего основного архива. Жребием определяем игрока, выбирающего порядок
    хода»."""
    g = ByAllMeans.new([{}, {}], {}, 11)
    for seat in (0, 1):
        g.apply(seat, {"type": "shuffle", "main": False, "extra": False})
    assert [len(p.hand) for p in g.s.players] == [4, 4]
    assert [len(p.main) for p in g.s.players] == [21, 21]
    assert g.s.phase == "order" and g.actors() == [g.s.chooser]
    g.apply(g.s.chooser, {"type": "order", "first": 1 - g.s.chooser})
    assert g.s.first == 1 - g.s.chooser and g.s.phase == "exchange"


def test_exchange_of_zero_to_four_cards() -> None:
    """«каждый игрок может замешать из рук от 0 до 4 карт в свой дополнительный архив и взять столько же карт
    из основного архива»."""
    g = ByAllMeans.new([{}, {}], {}, 4)
    for seat in (0, 1):
        g.apply(seat, {"type": "shuffle", "main": False, "extra": False})
    g.apply(g.s.chooser, {"type": "order", "first": 0})
    hand = sorted(g.s.players[0].hand)
    distinct = len(set(hand))
    assert distinct == 4
    assert len(g.legal_actions(0)) == 16  # 1 + 4 + 6 + 4 + 1 subsets
    g.apply(0, {"type": "exchange", "cards": hand[:2]})
    assert g.s.phase == "exchange" and g.actors() == [1]
    g.apply(1, {"type": "exchange", "cards": []})
    p = g.s.players[0]
    assert len(p.hand) == 4 and len(p.extra) == 17 and len(p.main) == 19
    assert set(hand[:2]) <= set(p.extra)
    assert g.s.phase == "turn" and g.s.turn.active == 0 and g.s.turn.number == 1


RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rules" / "by-all-means.ru.txt"
RULE_EXCHANGE = ("После этого каждый игрок может замешать из рук от 0 до 4 карт в свой дополнительный архив и "
                 "взять столько же карт из основного архива.")


def public(events: list[dict]) -> list[dict]:
    return [e for e in events if "to" not in e]


@pytest.mark.parametrize("first_decider", [0, 1])
def test_the_exchange_is_simultaneous(first_decider: int) -> None:
    """«каждый игрок может замешать из рук от 0 до 4 карт…» is one step taken by both players at once
    (../shared/rules/by-all-means.ru.txt, quoted in RULE_EXCHANGE), so the rival must not learn how many cards
    the first one exchanged before deciding (issue 23, item 9): nothing public tells the count, neither
    the events nor the public view nor the status lines, until both have decided; then one public event
    names both counts."""
    if RULEBOOK.exists():
        assert RULE_EXCHANGE in RULEBOOK.read_text(encoding="utf-8")
    g = ByAllMeans.new([{}, {}], {}, 4)
    g.seat_names = ["Anna", "Boris"]
    for seat in (0, 1):
        g.apply(seat, {"type": "shuffle", "main": False, "extra": False})
    g.apply(g.s.chooser, {"type": "order", "first": 0})
    second = 1 - first_decider
    view_before, status_before = g.view(None), g.status_lines("en")
    three = sorted(g.s.players[first_decider].hand)[:3]
    events = g.apply(first_decider, {"type": "exchange", "cards": three})
    shown = [g.event_text(e, "en") for e in public(events)]
    assert not any("3" in (text or "") for text in shown), shown
    after = g.view(None)
    assert after.pop("waiting") == [second] and view_before.pop("waiting") == [0, 1]  # who is still deciding
    assert after == view_before and g.status_lines("en") == status_before  # but no count to read off
    assert g.view(second) == ByAllMeans.from_json(g.to_json()).view(second)
    mine = [e for e in events if e.get("to") == [first_decider]]
    assert mine == [{"type": "bam.exchange_chosen", "to": [first_decider], "n": 3}]  # the seat is told
    assert g.actors() == [second] and g.legal_actions(first_decider) == []
    one = sorted(g.s.players[second].hand)[:1]
    events = g.apply(second, {"type": "exchange", "cards": one})
    together = [e for e in public(events) if e["type"] == "bam.exchanges"]
    counts = [0, 0]
    counts[first_decider], counts[second] = 3, 1
    assert together == [{"type": "bam.exchanges", "counts": counts}]
    text = g.event_text(together[0], "en")
    assert text == f"Cards exchanged: Anna: {counts[0]}, Boris: {counts[1]}"
    assert not [e for e in events if e["type"] == "bam.exchanged"]
    for seat, n, gone in ((first_decider, 3, three), (second, 1, one)):
        p = g.s.players[seat]
        assert len(p.hand) == 4 and len(p.extra) == 15 + n and len(p.main) == 21 - n
        assert set(gone) <= set(p.extra)
    assert g.s.phase == "turn" and g.s.exchanges == []


def test_the_simultaneous_exchange_draws_what_the_one_at_a_time_exchange_drew() -> None:
    """Carried out in the order decided, the held exchanges use the random generator as before: the
    hands after the exchange are those of a game that carried each out at once (seeded games, logs)."""
    g = ByAllMeans.new([{}, {}], {}, 11)
    for seat in (0, 1):
        g.apply(seat, {"type": "shuffle", "main": True, "extra": True})
    g.apply(g.s.chooser, {"type": "order", "first": 1})
    picks = {seat: sorted(g.s.players[seat].hand)[:2] for seat in (0, 1)}
    by_hand = ByAllMeans.from_json(g.to_json())
    for seat in (1, 0):
        g.apply(seat, {"type": "exchange", "cards": picks[seat]})
    # the same, each exchange carried out at once (what the rules did before issue 23)
    s = by_hand.s
    for seat in (1, 0):
        p = s.players[seat]
        for uid in picks[seat]:
            p.hand.remove(uid)
            p.extra.append(uid)
        s.rng.shuffle(p.extra)
        p.main, drawn = p.main[:-2], p.main[-2:]
        p.hand.extend(reversed(drawn))
    for seat in (0, 1):
        assert g.s.players[seat].hand == s.players[seat].hand
        assert g.s.players[seat].extra == s.players[seat].extra


def test_first_player_must_draw_or_skip_with_one_action() -> None:
    """«Игрок, получивший первый ход, обязан потратить одно из своих основных действий на взятие карты из
    основного архива или пропустить это действие.»"""
    g = started(3, first=0)
    assert g.s.turn.restricted
    types = {a["type"] for a in g.legal_actions(0)}
    assert {"draw_main", "skip"} <= types
    other = [a for a in g.legal_actions(0) if a["type"] in ("play", "number", "symbols")]
    assert other, "with two actions left the free one may be anything"
    g.apply(0, other[0])
    while g.s.stack:  # answer whatever the effect asks
        g.apply(g.actors()[0], g.legal_actions(g.actors()[0])[0])
    assert g.s.turn.main_left == 1
    assert not [a for a in g.legal_actions(0) if a["type"] in ("play", "number", "symbols", "neutral")]
    assert acts(g, 0, "draw_main") and acts(g, 0, "skip")


def test_drawing_first_frees_the_second_action() -> None:
    """The draw spends the reserved action; the other main action is then unrestricted."""
    g = started(3, first=0)
    g.apply(0, {"type": "draw_main"})
    assert not g.s.turn.restricted and g.s.turn.main_left == 1
    assert [a for a in g.legal_actions(0) if a["type"] in ("play", "number", "symbols")]


def test_second_player_takes_two_main_actions() -> None:
    """«Игрок, получивший второй ход, совершает два основных действия.»"""
    g = started(3, first=0)
    g.apply(0, {"type": "end_turn"})
    if g.s.turn.active == 0:  # seat 1 holds a discard/utilisation card: it passes at the end of the turn
        g.apply(1, {"type": "choose", "v": "pass"})
    assert g.s.turn.active == 1 and g.s.turn.main_left == 2 and not g.s.turn.restricted
