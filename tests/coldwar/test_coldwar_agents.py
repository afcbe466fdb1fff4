"""One test per agent ability and its exceptions (report phase)."""

import pytest

from bot.games.coldwar.cards import ANALYST, ASSASSIN, DEPUTY, DIRECTOR, DOUBLE, SPY
from tests.coldwar.cw_helpers import play_round, setup_round, types

CIA, KGB = 0, 1
WIN = [("generals", True), ("ngos", True)]        # 6 + 2 = 8 on Cuba (stability 9)
LOSE = [("unions", True)]                          # 2
BUST = [("bankers", True), ("television", True)]   # 6 + 6 = 12 > 9


def captures(ev: list[dict]) -> list[tuple[int, str, str]]:
    return [(e["seat"], e["target"], e["how"]) for e in ev if e["type"] == "capture"]


def test_spy_turns_the_target_over() -> None:
    g, ev = play_round("cuba", WIN, LOSE, (DEPUTY, SPY))
    assert captures(ev) == [(KGB, "cuba", "spy")]


def test_spy_of_the_placer_gives_the_target_away() -> None:
    g, ev = play_round("cuba", WIN, LOSE, (SPY, DEPUTY))
    assert captures(ev) == [(KGB, "cuba", "spy")]


def test_spy_does_nothing_after_civil_unrest() -> None:
    g, ev = play_round("cuba", BUST, LOSE, (DEPUTY, SPY))
    assert captures(ev) == [(KGB, "cuba", "unrest")]
    assert {"type": "ability", "seat": KGB, "agent": SPY, "effect": "none"} in ev


def test_spy_exposed_by_unrest_never_acts() -> None:
    g, ev = play_round("cuba", WIN, BUST, (DEPUTY, SPY))
    assert captures(ev) == [(CIA, "cuba", "unrest")]
    assert not [e for e in ev if e["type"] == "ability" and e["agent"] == SPY]
    assert SPY in g.s.agents[KGB].dead


def test_deputy_survives_unrest_and_never_goes_on_leave() -> None:
    g, ev = play_round("cuba", BUST, LOSE, (DEPUTY, ANALYST))
    assert "deputy_survives" in types(ev)
    assert DEPUTY in g.s.agents[CIA].hq and DEPUTY not in g.s.agents[CIA].dead
    assert g.s.agents[CIA].leave == []
    assert g.s.agents[KGB].leave == [ANALYST]


def test_deputy_survives_the_assassin_but_the_target_still_goes_under() -> None:
    g, ev = play_round("cuba", LOSE, WIN, (DEPUTY, ASSASSIN))
    assert DEPUTY in g.s.agents[CIA].hq
    assert g.s.tdeck[-1] == "cuba" and captures(ev) == []


def test_double_agent_sends_an_agent_on_leave_never_the_deputy() -> None:
    g = setup_round("cuba", WIN, LOSE, (DOUBLE, DIRECTOR))
    g.apply(CIA, {"type": "wait"})
    g.apply(KGB, {"type": "wait"})
    assert g.s.dec.to_json() == {"kind": "double", "seat": CIA}
    legal = g.legal_actions(CIA)
    assert {"type": "double", "mode": "peek"} in legal
    victims = {a["agent"] for a in legal if a["mode"] == "leave"}
    assert victims == {SPY, DOUBLE, ANALYST, ASSASSIN}          # not the Deputy, not agent X
    ev = g.apply(CIA, {"type": "double", "mode": "leave", "agent": ASSASSIN})
    assert captures(ev) == [(CIA, "cuba", "token")]
    assert sorted(g.s.agents[KGB].leave) == [ASSASSIN, DIRECTOR]
    # next round: both unavailable in planning, back afterwards
    g.apply(g.s.balance, {"type": "first", "seat": CIA})
    assert {a["agent"] for a in g.legal_actions(KGB)} == {SPY, DEPUTY, DOUBLE, ANALYST}
    g.apply(KGB, {"type": "agent", "agent": SPY})
    g.apply(CIA, {"type": "agent", "agent": SPY})
    assert ASSASSIN in g.s.agents[KGB].hq and DIRECTOR in g.s.agents[KGB].hq


def _double_peek_round(x: tuple[int, int], seat: int):
    g = setup_round("cuba", WIN if seat == CIA else LOSE, LOSE if seat == CIA else WIN, x)
    g.apply(g.s.dec.seat, {"type": "wait"})
    g.apply(g.s.dec.seat, {"type": "wait"})
    return g


def test_double_agent_peek_orders_the_next_planning() -> None:
    g = _double_peek_round((DOUBLE, DEPUTY), CIA)
    ev = g.apply(CIA, {"type": "double", "mode": "peek"})
    assert captures(ev) == [(CIA, "cuba", "token")]
    g.apply(g.s.balance, {"type": "first", "seat": KGB})
    assert g.actors() == [KGB] and not g.is_simultaneous()
    assert g.legal_actions(CIA) == []
    ev = g.apply(KGB, {"type": "agent", "agent": DIRECTOR})
    assert {"type": "peek_x", "seat": CIA, "agent": DIRECTOR, "to": [CIA]} in ev
    public = [e for e in ev if "to" not in e]
    assert all("agent" not in e for e in public)
    assert g.view(CIA)["private"]["opponent_x"] == DIRECTOR
    assert "opponent_x" not in g.view(KGB)["private"] and g.view(None)["sides"][1]["x"] == "hidden"
    assert g.actors() == [CIA]


def test_double_agent_peek_survives_the_assassin() -> None:
    g = _double_peek_round((DOUBLE, ASSASSIN), KGB)      # KGB wins and its Assassin strikes later
    assert g.s.dec.to_json() == {"kind": "double", "seat": CIA}
    ev = g.apply(CIA, {"type": "double", "mode": "peek"})
    assert {"type": "eliminated", "seat": CIA, "agent": DOUBLE, "reason": "assassin"} in ev
    g.apply(g.s.balance, {"type": "first", "seat": KGB})
    assert g.actors() == [KGB]


def test_two_double_agents_only_the_placer_acts() -> None:
    g = _double_peek_round((DOUBLE, DOUBLE), KGB)
    assert g.s.dec.to_json() == {"kind": "double", "seat": KGB}
    g.apply(KGB, {"type": "double", "mode": "peek"})
    assert g.s.peek == KGB


def test_analyst_reorders_the_top_three_groups_next_briefing() -> None:
    g, ev = play_round("cuba", WIN, LOSE, (ANALYST, DEPUTY))
    assert {"type": "ability", "seat": CIA, "agent": ANALYST, "effect": "analyst"} in ev
    g.apply(g.s.balance, {"type": "first", "seat": CIA})
    d = g.s.dec
    assert d is not None and d.kind == "analyst" and d.seat == CIA and g.actors() == [CIA]
    cards = g.view(CIA)["private"]["cards"]
    assert cards == g.s.gdeck[:3] and "private" not in g.view(None)
    assert len(g.legal_actions(CIA)) == 6
    new = [cards[2], cards[0], cards[1]]
    ev = g.apply(CIA, {"type": "order", "order": new})
    assert g.s.gdeck[:3] == new
    assert all("order" not in e for e in ev)


def test_two_analysts_only_the_non_placer_acts() -> None:
    """"Если два аналитика встречаются на одной арене, применяется свойство аналитика того игрока, чей
    жетон превосходства не лежит на карте цели": the CIA places its token, so only the KGB looks."""
    g, ev = play_round("cuba", WIN, LOSE, (ANALYST, ANALYST))
    assert [e["seat"] for e in ev if e["type"] == "ability"] == [KGB]
    g.apply(g.s.balance, {"type": "first", "seat": CIA})
    assert g.s.dec.to_json() == {"kind": "analyst", "seat": KGB, "cards": g.s.gdeck[:3]}


@pytest.mark.parametrize("bust", [CIA, KGB])
def test_two_analysts_non_placer_lost_to_unrest_nobody_looks(bust: int) -> None:
    """Same line: only the Analyst of the player whose token is *not* on the target may act. The side in
    civil unrest places no token, so that is its Analyst; it is eliminated ("свойства агентов, погибших
    из-за гражданских беспорядков, не применяются"), and the placer's Analyst does not act in its place."""
    tables = (BUST, LOSE) if bust == CIA else (LOSE, BUST)
    g, ev = play_round("cuba", *tables, (ANALYST, ANALYST))
    assert [(e["seat"], e["agent"]) for e in ev if e["type"] == "unrest"] == [(bust, ANALYST)]
    assert captures(ev) == [(1 - bust, "cuba", "unrest")]
    assert not [e for e in ev if e["type"] == "ability"]
    assert g.s.analyst is None
    g.apply(g.s.balance, {"type": "first", "seat": CIA})
    assert g.s.dec.kind == "plan"                      # no Analyst look at this briefing


def test_one_analyst_still_acts_when_the_opponent_is_in_unrest() -> None:
    """Only two Analysts meeting are restricted: "Если один из игроков вызвал гражданские беспорядки и
    потерял агента, его соперник всё равно применяет свойство своего агента, если это возможно"."""
    g, ev = play_round("cuba", LOSE, BUST, (ANALYST, SPY))
    assert {"type": "ability", "seat": CIA, "agent": ANALYST, "effect": "analyst"} in ev


def test_assassin_kills_and_sends_the_target_under() -> None:
    g, ev = play_round("cuba", WIN, LOSE, (ASSASSIN, DIRECTOR))
    assert {"type": "eliminated", "seat": KGB, "agent": DIRECTOR, "reason": "assassin"} in ev
    assert captures(ev) == [] and g.s.tdeck[-1] == "cuba"
    assert g.s.trophies == [[], []]


def test_assassin_of_the_loser_does_nothing() -> None:
    g, ev = play_round("cuba", LOSE, WIN, (ASSASSIN, ANALYST))
    assert {"type": "ability", "seat": CIA, "agent": ASSASSIN, "effect": "none"} in ev
    assert captures(ev) == [(KGB, "cuba", "token")]


def test_assassin_after_opponent_unrest_does_nothing() -> None:
    g, ev = play_round("cuba", WIN, BUST, (ASSASSIN, DEPUTY))
    assert {"type": "ability", "seat": CIA, "agent": ASSASSIN, "effect": "none"} in ev
    assert captures(ev) == [(CIA, "cuba", "unrest")]
    assert "to_bottom" not in types(ev)


def test_director_takes_the_bottom_target() -> None:
    g = setup_round("cuba", WIN, LOSE, (DIRECTOR, DEPUTY))
    bottom = g.s.tdeck[-1]
    g.apply(CIA, {"type": "wait"})
    ev = g.apply(KGB, {"type": "wait"})
    assert captures(ev) == [(CIA, bottom, "director"), (CIA, "cuba", "token")]


def test_director_of_the_loser_does_nothing() -> None:
    g, ev = play_round("cuba", LOSE, WIN, (DIRECTOR, DEPUTY))
    assert captures(ev) == [(KGB, "cuba", "token")]


def test_director_after_opponent_unrest_takes_two() -> None:
    g = setup_round("cuba", WIN, BUST, (DIRECTOR, SPY))
    bottom = g.s.tdeck[-1]
    g.apply(CIA, {"type": "wait"})
    ev = g.apply(KGB, {"type": "wait"})
    assert captures(ev) == [(CIA, "cuba", "unrest"), (CIA, bottom, "director")]


def test_agents_revealed_only_at_report() -> None:
    g = setup_round("cuba", WIN, LOSE, (DIRECTOR, SPY))
    for side in g.view(None)["sides"]:
        assert side["x"] == "hidden" and side["chosen"]
    g.apply(CIA, {"type": "wait"})
    ev = g.apply(KGB, {"type": "wait"})
    rep = [e for e in ev if e["type"] == "report"][0]
    assert rep["agents"] == [DIRECTOR, SPY]
