"""Event abilities: offered at their phase in a later round, burning their points when used."""

from bot.games.coldwar.cards import DEPUTY, SPY
from tests.coldwar.cw_helpers import both_wait, fresh, give, rig_briefing, setup_round, to_struggle, types

CIA, KGB = 0, 1


def _round_two_with(seat: int, card: str, seed: int = 5):
    """Round 1 ends quietly with ``card`` already in ``seat``'s trophies; returns the game in round 2."""
    g = fresh(seed)
    give(g, seat, [card])
    rig_briefing(g, "cuba", 0, tables=([("army", True)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    both_wait(g)
    while g.s["dec"]["kind"] == "event" and g.s["dec"]["card"] != card:
        g.apply(g.actors()[0], {"type": "skip"})
    return g


def test_event_not_usable_in_the_round_it_was_won() -> None:
    g = fresh(5)
    give(g, CIA, ["olympics"], won=1)
    assert g.engine.usable_events(CIA, "briefing") == []


def test_summit_meeting_replaces_the_target() -> None:
    g = _round_two_with(KGB, "summit")
    assert g.s["round"] == 2 and g.s["dec"] == {"kind": "event", "seat": KGB, "card": "summit"}
    old, nxt = g.s["target"], g.s["tdeck"][0]
    before = g.engine.score(KGB)
    ev = g.apply(KGB, {"type": "event", "card": "summit"})
    assert g.s["target"] == nxt and g.s["tdeck"][-1] == old
    assert g.engine.score(KGB) == before - 15 and "summit" in g.s["tdiscard"]
    assert {"type": "reveal", "target": nxt} in ev


def test_olympic_games_take_the_balance_token() -> None:
    g = _round_two_with(CIA, "olympics")   # CIA captured Cuba, so KGB is behind and holds the token
    assert g.s["balance"] == KGB
    g.apply(CIA, {"type": "event", "card": "olympics"})
    assert g.s["balance"] == CIA and g.s["dec"] == {"kind": "first", "seat": CIA}


def test_declining_an_event_keeps_it() -> None:
    g = _round_two_with(CIA, "olympics")
    g.apply(CIA, {"type": "skip"})
    assert "olympics" in g.s["trophies"][CIA] and g.s["dec"]["kind"] == "first"


def test_nobel_prize_saves_the_agent_from_unrest() -> None:
    g = fresh(6)
    give(g, CIA, ["nobel"])
    g.s["round"] = 2   # pretend the prize was won in an earlier round
    rig_briefing(g, "cuba", 0, tables=([("oil", True), ("television", True)], [("church", True)]))
    to_struggle(g, 0, (SPY, DEPUTY))
    g.apply(CIA, {"type": "wait"})
    g.apply(KGB, {"type": "wait"})
    assert g.s["dec"] == {"kind": "event", "seat": CIA, "card": "nobel"}
    ev = g.apply(CIA, {"type": "event", "card": "nobel"})
    assert {"type": "nobel_saved", "seat": CIA, "agent": SPY} in ev
    assert SPY in g.s["agents"][CIA]["leave"] and SPY not in g.s["agents"][CIA]["dead"]
    assert g.s["trophies"][KGB] == ["cuba"]
    assert not [e for e in ev if e["type"] == "ability" and e["seat"] == CIA]


def test_space_race_reorders_the_target_deck_at_detente() -> None:
    g = fresh(7)
    give(g, KGB, ["space_race"])
    g.s["round"] = 2
    rig_briefing(g, "cuba", 0, tables=([("army", True)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    both_wait(g)
    assert g.s["dec"] == {"kind": "event", "seat": KGB, "card": "space_race"}
    g.apply(KGB, {"type": "event", "card": "space_race"})
    cards = g.view(KGB)["private"]["cards"]
    assert g.s["dec"]["kind"] == "space" and cards == g.s["tdeck"][:3]
    order = list(reversed(cards))
    g.apply(KGB, {"type": "order", "order": order})
    assert g.s["round"] == 3 and g.s["target"] == order[0] and g.s["tdeck"][:2] == order[1:]


def test_nuclear_escalation_destroys_everything_in_chosen_order() -> None:
    g = fresh(8)
    give(g, CIA, ["nuclear"])
    g.s["round"] = 2
    rig_briefing(g, "cuba", 0, tables=([("army", True), ("radio", False)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    assert {"type": "event", "card": "nuclear"} in g.legal_actions(CIA)
    g.apply(CIA, {"type": "event", "card": "nuclear"})
    assert g.s["dec"]["kind"] == "discard" and len(g.legal_actions(CIA)) == 3
    g.apply(CIA, {"type": "discard", "group": "church"})
    g.apply(CIA, {"type": "discard", "group": "radio"})
    assert g.s["gdiscard"][-3:] == ["church", "radio", "army"]
    assert g.s["table"] == [[], []] and g.engine.score(CIA) == 0
    assert g.legal_actions(KGB) == [{"type": "recruit"}]


def test_live_benefit_recruits_in_addition_within_the_limit() -> None:
    g = fresh(9)
    give(g, CIA, ["protest"])
    g.s["round"] = 2
    rig_briefing(g, "cuba", 0, tables=([("army", True)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    top = g.s["gdeck"][0]
    ev = g.apply(CIA, {"type": "event", "card": "protest"})
    assert [top, True] in g.s["table"][CIA] and g.actors() == [CIA]
    assert "recruit" in types(ev)
    full = setup_round("chile", [("army", True), ("radio", True)], [("church", True)], (DEPUTY, DEPUTY))
    give(full, CIA, ["protest"])
    assert {"type": "event", "card": "protest"} not in full.legal_actions(CIA)
