"""Group powers and their limits, recruiting and waiting (struggle for influence)."""

import pytest

from bot.games.base import IllegalAction
from bot.games.coldwar.cards import DEPUTY
from tests.coldwar.cw_helpers import setup_round, tables, types

CIA, KGB = 0, 1
X = (DEPUTY, DEPUTY)


def uses(g, seat: int, group: str) -> list:
    return [a.get("target") for a in g.legal_actions(seat) if a["type"] == "use" and a["group"] == group]


def test_military_destroys_any_other_group_never_itself() -> None:
    g = setup_round("cuba", [("generals", True), ("radio", True)], [("unions", True)], X)
    assert sorted(uses(g, CIA, "generals")) == ["radio", "unions"]
    ev = g.apply(CIA, {"type": "use", "group": "generals", "target": "unions"})
    assert g.s.table[KGB] == [] and g.s.gdiscard[-1] == "unions"
    assert g.s.table[CIA][0].to_json() == ["generals", False]
    assert ev[0]["effect"] == "destroy"
    assert g.legal_actions(KGB) == [{"type": "recruit"}]


def test_inactive_group_cannot_be_used() -> None:
    g = setup_round("cuba", [("generals", False)], [("unions", True)], X)
    assert uses(g, CIA, "generals") == []
    with pytest.raises(IllegalAction):
        g.apply(CIA, {"type": "use", "group": "generals", "target": "unions"})


def test_political_steal_respects_receiver_limit_and_keeps_state() -> None:
    g = setup_round("cuba", [("opposition", True)], [("infantry", False), ("ngos", True)], X)   # KGB at 7
    assert sorted(uses(g, CIA, "opposition")) == ["infantry", "ngos"]
    g.apply(CIA, {"type": "use", "group": "opposition", "target": "infantry"})
    assert ["infantry", False] in tables(g)[CIA]
    full = setup_round("greece", [("opposition", True), ("workers", True), ("artists", True)],
                       [("generals", True)], X)
    assert uses(full, CIA, "opposition") == ["workers", "artists"]  # Greece: limit 3, CIA may only give


def test_political_may_steal_into_own_bust() -> None:
    g = setup_round("cuba", [("opposition", True), ("government", True)], [("generals", True)], X)
    assert "generals" in uses(g, CIA, "opposition")     # 5 + 6 + 6 = 17 > 9 is allowed
    g.apply(CIA, {"type": "use", "group": "opposition", "target": "generals"})
    assert g.engine.inf(CIA) == 17


def test_political_give_never_pushes_the_opponent_over() -> None:
    g = setup_round("cuba", [("opposition", True), ("generals", True), ("workers", True)],
                    [("police", True), ("ngos", True)], X)   # KGB at 6, stability 9
    targets = uses(g, CIA, "opposition")
    assert "workers" in targets and "generals" not in targets     # 6 + 1 <= 9 but 6 + 6 > 9


def test_political_unusable_when_opponent_already_over() -> None:
    g = setup_round("cuba", [("opposition", True)], [("bankers", True), ("television", True)], X)  # 12 > 9
    assert uses(g, CIA, "opposition") == []


def test_economic_flips_a_non_economic_group_without_triggering_it() -> None:
    g = setup_round("cuba", [("industry", True), ("mafia", True)], [("generals", True), ("radio", False)], X)
    assert sorted(uses(g, CIA, "industry")) == ["generals", "radio"]
    g.apply(CIA, {"type": "use", "group": "industry", "target": "generals"})
    assert g.s.table[KGB][0].to_json() == ["generals", False] and len(g.s.table[CIA]) == 2
    g.apply(KGB, {"type": "wait"})
    g.apply(CIA, {"type": "use", "group": "mafia", "target": "radio"})
    assert g.s.table[KGB][1].to_json() == ["radio", True]


@pytest.mark.parametrize("choice", ["take", "discard", "return"])
def test_media_peek_then_take_discard_or_return(choice: str) -> None:
    g = setup_round("cuba", [("radio", True)], [("unions", True)], X)
    top = g.s.gdeck[0]
    ev = g.apply(CIA, {"type": "use", "group": "radio"})
    assert [e for e in ev if "to" in e] == [{"type": "media_peek", "seat": CIA, "group": top, "to": [CIA]}]
    assert all(e.get("group") != top for e in ev if "to" not in e)
    g.apply(CIA, {"type": "media", "choice": choice})
    if choice == "take":
        assert ["radio", False] in tables(g)[CIA] and [top, True] in tables(g)[CIA]
    elif choice == "discard":
        assert g.s.gdiscard[-1] == top
    else:
        assert g.s.gdeck[0] == top
    assert g.s.dec.to_json() == {"kind": "turn", "seat": KGB}


def test_media_take_respects_the_limit() -> None:
    g = setup_round("greece", [("radio", True), ("workers", True), ("artists", True)], [("unions", True)], X)
    g.apply(CIA, {"type": "use", "group": "radio"})
    assert {"type": "media", "choice": "take"} not in g.legal_actions(CIA)


def test_recruit_never_past_the_group_limit() -> None:
    g = setup_round("greece", [("radio", True), ("workers", True), ("artists", True)], [("unions", True)], X)
    assert {"type": "recruit"} not in g.legal_actions(CIA)                      # Greece: limit 3
    with pytest.raises(IllegalAction):
        g.apply(CIA, {"type": "recruit"})
    assert {"type": "recruit"} in g.legal_actions(KGB) or g.actors() == [CIA]


def test_recruit_is_face_up_and_active() -> None:
    g = setup_round("cuba", [("radio", True)], [("unions", True)], X)
    top = g.s.gdeck[0]
    ev = g.apply(CIA, {"type": "recruit"})
    assert g.s.table[CIA][-1].to_json() == [top, True] and ev[0]["group"] == top


def test_only_two_waits_in_a_row_end_the_struggle() -> None:
    g = setup_round("cuba", [("radio", True)], [("unions", True)], X)
    g.apply(CIA, {"type": "wait"})
    g.apply(KGB, {"type": "recruit"})
    ev = g.apply(CIA, {"type": "wait"})
    assert g.s.dec.to_json() == {"kind": "turn", "seat": KGB} and "struggle_over" not in types(ev)
    ev = g.apply(KGB, {"type": "wait"})
    assert "struggle_over" in types(ev) and "truce" in types(ev)


def test_out_of_turn_is_refused_and_changes_nothing() -> None:
    g = setup_round("cuba", [("radio", True)], [("unions", True)], X)
    before = g.to_json()
    with pytest.raises(IllegalAction) as err:
        g.apply(KGB, {"type": "wait"})
    assert err.value.key == "coldwar.err.not_your_turn" and g.to_json() == before
