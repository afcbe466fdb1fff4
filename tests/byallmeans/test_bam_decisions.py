"""Issue 24, item 1: By All Means declares its decisions (``phases.DECISIONS``) and names the open ones
(``open_decisions``): the seats and kinds the rulebook (``../shared/rules/by-all-means.ru.txt``) says, the
facts the platform needs (simultaneous, secret), and a key that changes exactly when a seat that is still
deciding is asked something new."""

from __future__ import annotations

import random

import pytest

from bot.games.byallmeans import ByAllMeans
from bot.games.byallmeans.phases import DECISIONS
from bot.games.decision import OpenDecision, newly_open
from tests.byallmeans.bam_helpers import fresh, give

KEEP = {"type": "shuffle", "main": False, "extra": False}


def kinds(g: ByAllMeans) -> list[tuple[str, tuple[int, ...]]]:
    return [(d.kind, d.seats) for d in g.open_decisions()]


def test_the_opening_is_decided_as_the_rulebook_orders_it() -> None:
    g = ByAllMeans.new([{}, {}], {}, 3)
    # l. 12 «Соперник может перемешать каждый из архивов своего оппонента»: each seat, for the other's
    # archives, both at once; neither may see the other's answer first
    assert g.open_decisions() == [OpenDecision("shuffle", (0, 1), simultaneous=True, secret=True)]
    assert g.is_simultaneous() and g.forced_timeout() is None
    before = g.open_decisions()
    g.apply(1, KEEP)
    # seat 0 is still deciding the same thing: nothing new to ask it
    assert kinds(g) == [("shuffle", (0,))]
    assert newly_open(before, g.open_decisions()) == set()
    g.apply(0, KEEP)
    # l. 14 «Жребием определяем игрока, выбирающего порядок хода»: one seat, the lot's
    chooser = g.s.chooser
    assert g.open_decisions() == [OpenDecision("order", (chooser,))]
    assert not g.is_simultaneous()
    g.apply(chooser, {"type": "order", "first": 1 - chooser})
    # l. 15 «После этого каждый игрок может замешать из рук от 0 до 4 карт в свой дополнительный архив»
    assert g.open_decisions() == [OpenDecision("exchange", (0, 1), simultaneous=True, secret=True)]
    before = g.open_decisions()
    g.apply(chooser, {"type": "exchange", "cards": []})
    assert kinds(g) == [("exchange", (1 - chooser,))]
    assert newly_open(before, g.open_decisions()) == set()
    g.apply(1 - chooser, {"type": "exchange", "cards": []})
    # l. 16 «Игрок, получивший первый ход, обязан потратить одно из своих основных действий...»: the turn is
    # the first player's, alone
    assert g.open_decisions() == [OpenDecision("turn", (1 - chooser,), key="1")]


def test_the_rivals_window_is_the_rivals_decision() -> None:
    """l. 65: «вы можете получить эффект от сброса этой карты, в конце хода соперника. Таких действий может
    быть не более двух.» At the end of seat 0's turn seat 1 decides, and each use asks it anew."""
    g = fresh(seat=0)
    give(g, 1, "P02")  # «Сбросьте эту карту»
    give(g, 1, "P18")
    g.apply(0, {"type": "draw_main"})
    assert kinds(g) == [("turn", (0,))]
    same_turn = g.open_decisions()
    g.apply(0, {"type": "end_turn"})
    window = g.open_decisions()
    assert [(d.kind, d.seats) for d in window] == [("effect", (1,))]
    assert not window[0].simultaneous
    first = next(a for a in g.legal_actions(1) if str(a["v"]).startswith("discard:"))
    g.apply(1, first)
    again = g.open_decisions()
    assert [(d.kind, d.seats) for d in again] == [("effect", (1,))]
    assert again[0].key != window[0].key, "the second use is a new question"
    g.apply(1, {"type": "choose", "v": "pass"})
    # then the rival's own turn (l. 27 «Каждый игрок в свой ход может совершить два основных действия»)
    assert g.open_decisions() == [OpenDecision("turn", (1,), key="6")]
    assert same_turn[0].key == "5"


def test_a_turn_stays_one_decision_until_it_ends() -> None:
    g = fresh(seat=0)
    before = g.open_decisions()
    g.apply(0, {"type": "draw_main"})
    assert g.open_decisions() == before


def test_the_table_declares_the_platforms_facts() -> None:
    """Simultaneous and secret: the opening's shuffle and exchange only; no deadline of the rules' own."""
    assert {k for k, row in DECISIONS.items() if row.simultaneous} == {"shuffle", "exchange"}
    assert {k for k, row in DECISIONS.items() if row.secret} == {"shuffle", "exchange"}
    assert all(row.deadline_s is None and row.timeout is not None for row in DECISIONS.values())


@pytest.mark.parametrize("seed", range(6))
def test_open_decisions_follow_every_move(seed: int) -> None:
    """In random games: the open decisions' seats are the actors; a seat that did not move keeps what it was
    deciding (nothing another seat does replaces it in this game); a seat answering a question of the
    effect stack that is asked again is asked under a new key; a turn keeps its key while it lasts."""
    g = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, seed)
    r = random.Random(seed)
    met: set[str] = set()
    for _ in range(1500):
        if g.outcome() is not None:
            break
        before = g.open_decisions()
        assert sorted({s for d in before for s in d.seats}) == sorted(g.actors())
        assert all(d.kind in DECISIONS for d in before)
        seat = r.choice(g.actors())
        legal = g.legal_actions(seat)
        busy = [a for a in legal if a["type"] != "end_turn"]
        g.apply(seat, r.choice(busy if busy and r.random() < 0.9 else legal))
        after = g.open_decisions()
        held = {s: {d.ident() for d in after if s in d.seats} for s in (0, 1)}
        was = {s: {d.ident() for d in before if s in d.seats} for s in (0, 1)}
        other = 1 - seat
        if was[other] and held[other]:
            assert held[other] == was[other]
        mine = {k for k, _ in was[seat]} & {k for k, _ in held[seat]}
        if "effect" in mine:
            assert held[seat] != was[seat]
            met.add("effect")
        if "turn" in mine:  # its turn goes on (a turn that ends passes to the other seat)
            assert held[seat] == was[seat]
    if g.outcome() is not None:
        assert g.open_decisions() == []
    assert "effect" in met
