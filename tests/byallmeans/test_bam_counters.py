"""The counter: reputation, influence, trust; the rulebook's two worked examples."""

from __future__ import annotations

from bot.games.byallmeans import rules
from tests.byallmeans.bam_helpers import fresh, give


def test_reputation_over_21_costs_trust() -> None:
    """«у вас 19 единиц репутации и 5 единиц доверия, вы разыгрываете цифровую комбинацию «пиар-компания» …
    она становится 24, вы превысили значение 21 на 3 единицы, в результате вы теряете 3 единицы доверия»."""
    g = fresh()
    p = g.s.players[0]
    p.rep, p.trust = 19, 5
    a, b = give(g, 0, "T03"), give(g, 0, "T01")  # numbers 5 + 4 = 9, «Пиар-компания»
    g.apply(0, {"type": "number", "sum": 9, "cards": sorted([a, b])})
    assert (p.rep, p.trust) == (24, 2)


def test_a_further_gain_above_21_costs_only_its_own_excess() -> None:
    """House rule on «каждый раз, когда вы получаете репутацию, превышающую значение 21»: at 24, gaining 2 more
    costs 2 trust (not 5)."""
    g = fresh()
    p = g.s.players[0]
    p.rep, p.trust = 24, 5
    rules.gain(g.s, 0, "rep", 2, [])
    assert (p.rep, p.trust) == (26, 3)


def test_reputation_shortfall_costs_trust() -> None:
    """«у вас 1 единица репутации и 10 единиц доверия, соперник разыгрывает карту, которая говорит, что вы
    должны потерять 3 единицы репутации, тогда ваша репутация становится равной нулю, а доверие уменьшается на
    2 единицы»."""
    g = fresh(seat=1)
    g.s.players[0].rep = 1
    plot = give(g, 1, "P02")  # a designed plot: «Соперник теряет 3 единицы репутации»
    g.apply(1, {"type": "play", "uid": plot})
    assert (g.s.players[0].rep, g.s.players[0].trust) == (0, 8)


def test_influence_shortfall_costs_trust_and_trust_stops_at_zero() -> None:
    """«Каждый раз, когда вы должны потерять репутацию или влияние, но их недостаточно для потери, вы теряете
    столько единиц доверия, сколько не хватило репутации или влияния.»"""
    g = fresh()
    p = g.s.players[1]
    p.inf, p.trust = 1, 2
    rules.lose(g.s, 1, "inf", 2, [])
    assert (p.inf, p.trust) == (0, 1)
    rules.lose(g.s, 1, "rep", p.rep + 5, [])
    assert (p.rep, p.trust) == (0, 0)


def test_prices_are_paid_in_reputation_and_never_beyond_it() -> None:
    """«Цена оплачивается вашей репутацией» (house rule: a price above your reputation cannot be paid)."""
    g = fresh()
    uid = give(g, 0, "T05")  # price 4 from the hand
    g.s.players[0].rep = 3
    assert not [a for a in g.legal_actions(0) if a.get("uid") == uid and a["type"] == "play"]
    g.s.players[0].rep = 4
    g.apply(0, {"type": "play", "uid": uid, "cell": 4})
    assert g.s.players[0].rep == 0
