"""The field: 3 wide and 4 high, the first territory in the centre, adjacency, impacts, influence, loyalty."""

from __future__ import annotations

from bot.games.byallmeans import board, rules
from tests.byallmeans.bam_helpers import acts, choose, fresh, give, put


def _cells(g, uid: str) -> set[int]:  # type: ignore[no-untyped-def]
    return {a["cell"] for a in acts(g, g.s.turn.active, "play") if a["uid"] == uid}


def test_first_territory_on_a_central_cell_then_adjacent() -> None:
    """«Первая территория выставляется на одну из двух центральных клеток поля, после территории
    устанавливаются рядом с любой территорией (не по диагонали).»"""
    g = fresh()
    uid = give(g, 0, "T02")
    assert _cells(g, uid) == {4, 7}
    put(g, 1, "T04", 7)
    assert _cells(g, uid) == {4, 6, 8, 10}  # 7's orthogonal neighbours without a territory
    assert board.neighbours(0) == [3, 1] and len(board.neighbours(4)) == 4


def test_the_rulebook_loyalty_example() -> None:
    """«допустим, Обсерватория уже находится на поле, верность этой территории 3. Вы перемещаете на поле
    Центральный переулок. … верность Обсерватории становится 4, а верность Центрального переулка 1.»"""
    g = fresh()
    obs, lane = give(g, 0, "T01"), give(g, 0, "T02")
    g.s.players[0].rep = 10
    g.apply(0, {"type": "play", "uid": obs, "cell": 4})
    assert g.s.field[4].territory.loyalty == 3
    g.apply(0, {"type": "play", "uid": lane, "cell": 5})
    assert (g.s.field[4].territory.loyalty, g.s.field[5].territory.loyalty) == (4, 1)


def test_arrows_are_turned_for_the_seat_opposite() -> None:
    """«Ваши карты на поле размещаются лицом к себе, т.е. соперник видит их «вверх ногами».» A printed north
    arrow of seat 1 points towards seat 0."""
    assert board.arrow_targets(4, "N", 0) == [7]
    assert board.arrow_targets(4, "N", 1) == [1]
    assert board.arrow_targets(4, "E", 1) == [3]


def test_red_impact_hits_the_opponents_territories() -> None:
    """«Красный - делает то же самое с территориями соперника.» The Docks (red −2, arrows N/S) next to a rival
    territory to its north."""
    g = fresh()
    rival = put(g, 1, "T04", 7)
    docks = give(g, 0, "T03")
    g.apply(0, {"type": "play", "uid": docks, "cell": 4})
    assert rival.loyalty == 4 - 2


def test_influence_on_entry_and_back_on_leaving() -> None:
    """«Если знак влияния зеленый, то вы получаете … если поле красное, то соперник теряет»; «Если вы теряете
    контроль над объектом, происходит обратное действие.»"""
    g = fresh()
    g.s.players[1].inf = 3
    g.apply(0, {"type": "play", "uid": give(g, 0, "T02"), "cell": 4})  # green 1
    g.apply(0, {"type": "play", "uid": give(g, 0, "T03"), "cell": 7})  # red 1
    assert (g.s.players[0].inf, g.s.players[1].inf) == (1, 2)
    rules.to_utility(g.s, g.s.field[7].territory.uid, [])
    rules.to_utility(g.s, g.s.field[4].territory.uid, [])
    assert (g.s.players[0].inf, g.s.players[1].inf) == (0, 3)


def test_negative_loyalty_costs_reputation_at_once() -> None:
    """«Если верность территории получает минусовое значение, то контролирующий ее игрок СРАЗУ после этого
    теряет количество единиц репутации равное минусовому значению.»"""
    g = fresh()
    terr = put(g, 1, "T02", 4, loyalty=1)
    rep = g.s.players[1].rep
    rules.change_loyalty(g.s, terr, -3, [])
    assert terr.loyalty == -2 and g.s.players[1].rep == rep - 2


def test_overpopulation_and_disloyal_territories_at_the_end_of_the_turn() -> None:
    """«если верность семь, то две и т.д.»; «Отправка в утиль территорий, имеющих нулевое или минусовое
    значение верности» (steps 9 and 11)."""
    g = fresh()
    put(g, 0, "T02", 4, loyalty=7)
    gone = put(g, 1, "T04", 7, loyalty=0)
    rep = g.s.players[0].rep
    g.apply(0, {"type": "end_turn"})
    assert g.s.players[0].rep == rep - 2
    assert g.s.field[7].territory is None and gone.uid in g.s.players[1].utility


def test_one_territory_graffiti_and_agent_per_cell() -> None:
    """«На каждой клетке может находиться не более одной территории, граффити или Агента.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 0, "G02", 4)
    put(g, 0, "A01", 4)
    g.s.players[0].rep = 10
    graffiti, agent = give(g, 0, "G01"), give(g, 0, "A02")
    assert 4 not in _cells(g, graffiti) and 4 not in _cells(g, agent)


def test_graffiti_only_on_territories_of_either_player() -> None:
    """«Размещается только на территории, если ограничений нет, то можно разместить как на своей территории,
    так и на территории соперника.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 1, "T04", 7)
    uid = give(g, 0, "G01")
    assert _cells(g, uid) == {4, 7}
    g.apply(0, {"type": "play", "uid": uid, "cell": 7})
    assert g.s.field[7].territory.loyalty == 4 - 1  # its # ability: −1 to the territory it stands on


def test_agents_go_on_own_territory_or_an_empty_cell() -> None:
    """«Агенты могут быть размещены как на Вашей территории, так и на любой пустой клетке поля.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 1, "T04", 7)
    uid = give(g, 0, "A01")
    assert _cells(g, uid) == set(range(12)) - {7}


def test_agent_adds_loyalty_while_on_its_territory() -> None:
    """«Пока Агент находится на клетке с вашей территорией, эта территория имеет дополнительную единицу
    верности, когда Агент покидает эту клетку, территория теряет одну единицу верности.»"""
    g = fresh()
    terr = put(g, 0, "T02", 4)
    g.apply(0, {"type": "play", "uid": give(g, 0, "A01"), "cell": 4})
    assert terr.loyalty == 3
    rules.to_utility(g.s, g.s.field[4].agent.uid, [])
    assert terr.loyalty == 2


def test_territory_onto_an_agent() -> None:
    """«Если на клетку с Агентом устанавливается ваша территория, то Агент разворачивается. Если на клетку с
    вашим Агентом устанавливается территория соперника, то ваш Агент отправляется в утиль.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    mine = put(g, 0, "A01", 5, tapped=True)
    theirs = put(g, 1, "A02", 3)
    g.s.players[0].rep = 10
    g.apply(0, {"type": "play", "uid": give(g, 0, "T04"), "cell": 5})
    # Old Market: printed 4, +1 for the agent, +1 from Central Lane's green impact (its E arrow points at 5)
    assert not mine.tapped and g.s.field[5].territory.loyalty == 4 + 1 + 1
    g.apply(0, {"type": "play", "uid": give(g, 0, "T04"), "cell": 3})
    assert g.s.field[3].agent is None and theirs.uid in g.s.players[1].utility


def test_agent_moves_onto_a_new_territory_and_stands_up() -> None:
    """«В момент выхода на поле вашей территории, если ваш Агент находится на другой вашей территории, то он
    может переместиться … на новую территорию, при этом, если Агент был повернут, то он разворачивается.»"""
    g = fresh()
    old = put(g, 0, "T04", 4, loyalty=5)
    agent = put(g, 0, "A01", 4, tapped=True)
    g.apply(0, {"type": "play", "uid": give(g, 0, "T02"), "cell": 7})
    assert g.actors() == [0] and sorted(map(str, [a["v"] for a in g.legal_actions(0)])) == sorted(["stay", agent.uid])
    choose(g, agent.uid)
    new = g.s.field[7].territory
    assert g.s.field[7].agent is agent and not agent.tapped and g.s.field[4].agent is None
    # Old Market: 5, +1 from Central Lane's green impact (its S arrow points at it), −1 as the agent leaves.
    # Central Lane: printed 2, +0 from Old Market's green impact (its N arrow points at it), +1 for the agent.
    assert (old.loyalty, new.loyalty) == (5, 3)


def test_third_agent_replaces_one_of_two() -> None:
    """«КАЖДЫЙ ИГРОК МОЖЕТ КОНТРОЛИРОВАТЬ НЕ БОЛЕЕ ДВУХ АГЕНТОВ … вы обязаны отправить с поля в утиль одного из
    двух Агентов»."""
    g = fresh()
    a, b = put(g, 0, "A01", 0), put(g, 0, "A02", 1)
    uid = give(g, 0, "A03")
    plays = [x for x in acts(g, 0, "play") if x["uid"] == uid]
    assert plays and all(x["replace"] in (a.uid, b.uid) for x in plays)
    g.apply(0, {"type": "play", "uid": uid, "cell": 2, "replace": a.uid})
    assert len(rules.agents(g.s, 0)) == 2 and a.uid in g.s.players[0].utility
