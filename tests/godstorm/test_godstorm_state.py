"""The typed state records and the view module: shapes, round trips, independence of the JSON."""

from __future__ import annotations

import json
from typing import Any, get_type_hints

from bot.games.godstorm import Godstorm, random_playout
from bot.games.godstorm.scenario import put, scenario
from bot.games.godstorm.state import Battle, Move, State, TurnFlags
from bot.games.godstorm.view import (
    ArrowView,
    BattleView,
    GodstormView,
    MeView,
    NeutralView,
    PlayerView,
    SpaceView,
    TerritoryView,
)


def _keys(typed: Any) -> set[str]:
    return set(get_type_hints(typed))


def test_view_matches_its_typed_dicts() -> None:
    """Renderers read the view through these TypedDicts: every key they declare is there, and no other."""
    g = random_playout(5, 2, "godstorm", max_actions=150).game  # two players: the neutral is in the view
    public, mine = g.view(None), g.view(0)
    optional = {"piles", "defend", "declared"}  # only while piles are chosen / a defender chooses dice (issue 10) / an attack waits for its roll (issue 27)
    assert set(mine) == _keys(GodstormView) - optional and set(public) == _keys(GodstormView) - {"me"} - optional
    assert set(mine["me"]) == _keys(MeView) - {"dice_pref"}
    assert all(set(p) == _keys(PlayerView) for p in public["players"])
    assert public["neutral"] is not None and set(public["neutral"]) == _keys(NeutralView)
    assert all(set(v) == _keys(TerritoryView) for v in public["territories"].values())
    assert all(set(u) == _keys(SpaceView) for u in public["underworld"].values())
    g.s.battle = Battle("Gaul", "Iberia", 3)
    battle = g.view(None)["battle"]
    assert battle is not None and set(battle) == _keys(BattleView)
    assert battle == {"from": "Gaul", "to": "Iberia", "dice": 3, "att": None, "def": None, "rounds": 0}
    assert _keys(ArrowView) == {"from", "to"}


def test_turn_flags_before_the_first_turn_round_trip_as_empty() -> None:
    """Before any turn the stored flags are ``{}``; a running turn starts with nothing done."""
    g = Godstorm.new([{} for _ in range(3)], {"ruleset": "godstorm"}, 4)
    assert g.to_json()["turn"] == {}
    assert Godstorm.from_json(g.to_json()).to_json()["turn"] == {}
    assert TurnFlags.from_json({}).to_json() == {}
    fresh = TurnFlags().to_json()
    assert fresh == {"conquered": 0, "war_card": False, "sky_card": False, "bought": 0, "fortified": False,
                     "crypts_used": [], "plague_done": False, "match_bonus": False, "forced_trade": False}
    assert TurnFlags.from_json(fresh) == TurnFlags()


def test_to_json_is_independent_of_the_live_state() -> None:
    """The JSON handed out is a copy: changing it (or the game afterwards) leaves the other alone."""
    g = scenario(step="invade")
    put(g, "Gaul", 0, 5, gods=["war"])
    g.s.move = Move("Gaul", "Iberia", 1, 4)
    data = g.to_json()
    text = json.dumps(data)
    data["terr"]["Gaul"]["gods"].append("sky")
    data["players"][0]["cards"]["war"] = 9
    data["move"]["max"] = 99
    assert g.s.terr["Gaul"].gods == ["war"] and g.s.players[0].cards["war"] == 0 and g.s.move.max == 4
    g.s.terr["Gaul"].gods.append("magic")
    assert json.loads(text)["terr"]["Gaul"]["gods"] == ["war"]
    loaded = State.from_json(json.loads(text))
    loaded.terr["Gaul"].armies = 1
    assert g.s.terr["Gaul"].armies == 5


def test_place_facts_for_the_risk_commands() -> None:
    """The /risk cog labels places with these public facts; the heavens are the current player's."""
    g = scenario(step="underworld")
    put(g, "Gaul", 0, 6, gods=["war", "sky"])
    g.s.players[0].heaven = 4
    assert g.place("Gaul") == {"owner": 0, "armies": 6, "gods": ["war", "sky"]}
    assert g.place("uw1") == {"owner": None, "armies": 0, "gods": []}
    assert g.place("heaven") == {"owner": 0, "armies": 4, "gods": []}
    assert g.place("Nowhere") is None
    g.s.current = None
    assert g.place("heaven") is None
