"""Truce: who places the token, ties by priority, civil unrest for one and for both players."""

from bot.games.coldwar.cards import ANALYST, DEPUTY, DIRECTOR, SPY
from tests.coldwar.cw_helpers import play_round, types

CIA, KGB = 0, 1


def test_equal_to_stability_is_not_over() -> None:
    g, ev = play_round("cuba", [("generals", True), ("mercenaries", True)], [("unions", True)],
                       (DEPUTY, DEPUTY))   # 6 + 3 = 9 = Cuba's stability
    assert {"type": "token", "seat": CIA, "why": "influence"} in ev
    assert "unrest" not in types(ev) and g.s.trophies[CIA] == ["cuba"]


def test_tie_goes_down_the_priority_icons() -> None:
    # Cuba: economic > military > political > media; nobody holds economic, military decides
    # 4 + 2 against 2 + 4: Police (military 4) beats Militia (military 2)
    g, ev = play_round("cuba", [("police", True), ("ngos", True)], [("militia", True), ("newspapers", True)],
                       (DEPUTY, DEPUTY))
    assert {"type": "token", "seat": CIA, "why": "military"} in ev


def test_tie_single_strongest_group_not_the_sum() -> None:
    # 5 against 5; KGB's economic groups sum to 5 but CIA's single Industry (4) beats Food (3)
    g, ev = play_round("cuba", [("industry", True), ("artists", True)], [("food", True), ("mafia", True)],
                       (DEPUTY, DEPUTY))
    assert {"type": "token", "seat": CIA, "why": "economic"} in ev


def test_civil_unrest_for_one_player() -> None:
    g, ev = play_round("cuba", [("bankers", True), ("television", True)], [("unions", True)], (SPY, ANALYST))
    unrest = [e for e in ev if e["type"] == "unrest"]
    assert unrest == [{"type": "unrest", "seat": CIA, "agent": SPY}]        # revealed at once
    assert {"type": "eliminated", "seat": CIA, "agent": SPY, "reason": "unrest"} in ev
    t = types(ev)
    assert t.index("capture") < t.index("report")                          # taken at once
    assert g.s.trophies[KGB] == ["cuba"] and g.s.last_loser == CIA
    assert SPY in g.s.agents[CIA].dead
    assert SPY not in g.s.agents[CIA].hq and SPY not in g.s.agents[CIA].leave


def test_civil_unrest_for_both_players() -> None:
    g, ev = play_round("cuba", [("bankers", True), ("television", True)], [("generals", True), ("government", True)],
                       (DIRECTOR, DEPUTY), balance=KGB)
    assert "double_unrest" in types(ev)
    assert g.s.trophies == [[], []] and g.s.tdeck[-1] == "cuba"
    assert DIRECTOR in g.s.agents[CIA].dead
    assert DEPUTY in g.s.agents[KGB].hq and DEPUTY not in g.s.agents[KGB].dead
    assert not [e for e in ev if e["type"] == "ability"]
    # balance token stays with its holder after a double unrest (scores tied)
    assert g.s.balance == KGB
