"""The balance token and the victory rule."""

from bot.games.coldwar.cards import ASSASSIN, DEPUTY
from tests.coldwar.cw_helpers import fresh, give, play_round, types

CIA, KGB = 0, 1


def test_first_round_balance_is_random() -> None:
    holders = {fresh(seed).s.balance for seed in range(12)}
    assert holders == {0, 1}


def test_holder_chooses_who_acts_first() -> None:
    g = fresh(2)
    holder = g.s.balance
    assert g.actors() == [holder]
    assert g.legal_actions(holder) == [{"type": "first", "seat": holder}, {"type": "first", "seat": 1 - holder}]
    g.apply(holder, {"type": "first", "seat": 1 - holder})
    g.apply(0, {"type": "agent", "agent": DEPUTY})
    g.apply(1, {"type": "agent", "agent": DEPUTY})
    assert g.actors() == [1 - holder]


def test_player_behind_takes_the_token() -> None:
    g, ev = play_round("cuba", [("generals", True)], [("unions", True)], (DEPUTY, DEPUTY), balance=CIA)
    assert g.s.trophies[CIA] == ["cuba"]
    assert {"type": "balance", "seat": KGB, "why": "behind"} in ev


def test_equal_points_token_goes_to_last_truce_loser() -> None:
    # CIA wins the truce but its Assassin sends the target under: 0-0, KGB lost the truce
    g, ev = play_round("cuba", [("generals", True)], [("unions", True)], (ASSASSIN, DEPUTY), balance=CIA)
    assert g.s.trophies == [[], []]
    assert {"type": "balance", "seat": KGB, "why": "loser"} in ev


def test_goal_reached_wins() -> None:
    g = fresh(4)
    give(g, CIA, ["vietnam", "korea", "afghanistan", "egypt", "turkey", "iran"])   # 20+10+15+20+15+15 = 95
    g2, ev = _round_on(g, [("generals", True)], [("unions", True)])
    assert g2.outcome() == {"winners": [CIA], "draw": False, "scores": [105, 0], "exhausted": False,
                            "reason": "goal"}
    assert g2.actors() == []


def test_both_over_goal_equal_points_play_extra_rounds_then_more_points_wins() -> None:
    g = fresh(4)
    give(g, CIA, ["vietnam", "korea", "afghanistan", "egypt", "turkey", "iran"])   # 20+10+15+20+15+15 = 95
    give(g, KGB, ["czechoslovakia", "panama", "libya", "angola", "honduras", "greece", "congo",
                  "nuclear", "space_race", "olympics"])   # 20 + 15 + 15 + 10 * 4 + 5 * 3 = 105
    g, ev = _round_on(g, [("generals", True)], [("unions", True)])
    assert "extra_round" in types(ev) and g.outcome() is None
    assert g.engine.score(CIA) == g.engine.score(KGB) == 105
    # next round KGB wins the truce: 105 vs 115
    while g.s.dec.kind == "event":
        g.apply(g.actors()[0], {"type": "skip"})
    g, ev = _round_on(g, [("unions", True)], [("generals", True)], target="chile")   # Chile: 10
    assert g.outcome()["winners"] == [KGB]


def _round_on(g, t0, t1, target: str = "cuba"):
    from tests.coldwar.cw_helpers import both_wait, rig_briefing, to_struggle
    rig_briefing(g, target, g.s.balance, tables=(t0, t1))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    ev = both_wait(g)
    while g.s.dec and g.s.dec.kind == "event":      # decline every event offer
        ev += g.apply(g.actors()[0], {"type": "skip"})
    return g, ev
