"""One test (at least) per rule of the turn, combat, the Underworld and scoring."""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import Godstorm, board
from bot.games.godstorm.core import NEUTRAL
from bot.games.godstorm.scenario import ledger_ok, put, rebalance, scenario, script
from bot.games.godstorm.state import Move, Space
from bot.games.godstorm.turn import is_set, set_value


def _events(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# ---- setup ------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "armies"), [(3, 35), (4, 30), (5, 25)])
def test_setup_armies_plague_gods_temples(n: int, armies: int) -> None:
    g = Godstorm.new([{} for _ in range(n)], {"ruleset": "godstorm"}, 3)
    assert sum(v.plague for v in g.s.terr.values()) == 4
    assert all(p.faith == 3 and p.supply == armies for p in g.s.players)
    while g.s.phase != "bid":
        seat = g.actors()[0]
        g.apply(seat, g.timeout_action(seat))
    for i in range(n):
        assert g.board_armies(i) == armies
        assert g.gods_on_board(i) == {"war"} and len(g.temples_of(i)) == 1
    assert all(v.owner is not None and v.armies >= 1 for v in g.s.terr.values())


def test_two_player_neutral_pantheon() -> None:
    g = Godstorm.new([{}, {}], {"ruleset": "godstorm"}, 9)
    while g.s.phase in ("pantheon", "pile"):  # the two players then choose their piles (issue 10)
        g.apply(g.actors()[0], g.timeout_action(g.actors()[0]))
    neutral = [t for t, v in g.s.terr.items() if v.owner == NEUTRAL]
    assert len(neutral) == 14 and all(g.s.terr[t].armies == 3 for t in neutral)
    assert g.s.neutral.pantheon not in {p.pantheon for p in g.s.players}


def test_classic_two_player_neutral_gets_thirty() -> None:
    g = Godstorm.new([{}, {}], {"ruleset": "classic"}, 4)
    while g.s.phase != "turn":
        seat = g.actors()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert g.board_armies(NEUTRAL) == 30
    assert g.board_armies(0) >= 30 and g.board_armies(1) >= 30


# ---- raise, gods, temples, cards --------------------------------------------------------
def test_income_reads_reference_table_and_temples() -> None:
    g = scenario(step="end")
    for t in board.CONTINENTS["atlantis"]:
        put(g, t, 1, 2)
    put(g, "Hesperide", 1, 2, temple=True)
    g.s.turn_idx = 1
    g.s.players[1].faith = 0
    g._ev = []
    g._start_turn()
    assert g.s.current == 1
    assert g.s.pending == 3 + 3  # max(3, 4 // 3) + Atlantis
    assert g.s.players[1].faith == 3 + 3 + 1
    assert g.s.terr["Hesperide"].armies == 3  # the temple's army
    assert ledger_ok(g)


def test_summon_and_temple_costs() -> None:
    g = scenario(step="gods")
    put(g, "Gaul", 0, 3)
    put(g, "Iberia", 0, 3, plague=True)
    legal = g.legal_actions(0)
    assert {"type": "summon", "god": "sky", "territory": "Iberia"} not in legal  # gods die in plague
    g.apply(0, {"type": "summon", "god": "sky", "territory": "Gaul"})
    assert g.s.players[0].faith == 7 and g.s.terr["Gaul"].gods == ["sky"]
    g.apply(0, {"type": "build_temple", "territory": "Gaul"})
    assert g.s.players[0].faith == 2 and g.s.terr["Gaul"].temple
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "build_temple", "territory": "Iberia"})


def test_buy_cards_needs_god_and_caps_at_four() -> None:
    g = scenario(step="cards")
    put(g, "Gaul", 0, 3, gods=["war"])
    g.s.players[0].faith = 20
    assert {a["deck"] for a in g.legal_actions(0) if a["type"] == "buy_cards"} == {"war"}
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "buy_cards", "deck": "sky", "count": 1})
    g.apply(0, {"type": "buy_cards", "deck": "war", "count": 3})
    assert g.s.players[0].cards["war"] == 3 and g.s.players[0].faith == 14
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "buy_cards", "deck": "war", "count": 2})
    g.apply(0, {"type": "buy_cards", "deck": "war", "count": 1})
    assert g.s.decks["war"] == 17 - 4


# ---- plague -----------------------------------------------------------------------------
def test_plague_halves_rounding_down_and_banishes() -> None:
    g = scenario(step="gods")
    g.s.players[0].faith = 0
    put(g, "Gaul", 0, 5, gods=["war"], plague=True)
    put(g, "Iberia", 0, 3, plague=True)
    put(g, "Anglia", 0, 1, plague=True)
    g.apply(0, {"type": "end_step"})
    t = g.s.terr
    assert (t["Gaul"].armies, t["Iberia"].armies, t["Anglia"].armies) == (3, 2, 1)
    assert t["Gaul"].gods == []
    assert g.s.players[0].heaven == 3 and ledger_ok(g)


def test_plague_halves_conquering_armies_and_banishes_gods() -> None:
    g = scenario()
    put(g, "Gaul", 0, 8, gods=["war"])
    put(g, "Iberia", 2, 1, plague=True)
    script(g, [6, 6, 6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    g.apply(0, {"type": "move_in", "count": 5})
    assert g.s.terr["Iberia"].owner == 0 and g.s.terr["Iberia"].armies == 3
    assert g.s.terr["Iberia"].gods == [] and "war" not in g.gods_on_board(0)
    assert ledger_ok(g)


# ---- combat -----------------------------------------------------------------------------
def test_losses_go_to_heaven_or_reserve_with_the_death_god() -> None:
    g = scenario()
    put(g, "Gaul", 0, 5)
    put(g, "Iberia", 2, 4)
    script(g, [6, 6, 1, 2, 2])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.s.players[2].heaven == 2 and g.s.players[2].reserve == 0
    g.s.terr["Gaul"].gods = ["death"]
    script(g, [6, 6, 1, 2, 2])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 2})
    assert g.s.players[2].heaven == 2 and g.s.players[2].reserve == 2
    assert ledger_ok(g)


def test_attack_needs_more_armies_than_dice() -> None:
    g = scenario()
    put(g, "Gaul", 0, 3)
    put(g, "Iberia", 2, 2)
    assert max(a["dice"] for a in g.legal_actions(0) if a["type"] == "attack") == 2
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "attack", "from": "Gaul", "to": "Corsica", "dice": 1})  # not adjacent


def test_conquest_occupancy_gods_and_temple_capture() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war", "sky"])
    put(g, "Iberia", 2, 1, temple=True)
    script(g, [5, 4, 2, 3])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.s.move == Move("Gaul", "Iberia", 3, 5)
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "move_in", "count": 2})
    g.apply(0, {"type": "move_in", "count": 4})
    t = g.s.terr
    assert t["Iberia"].owner == 0 and t["Iberia"].armies == 4 and t["Gaul"].armies == 2
    assert sorted(t["Iberia"].gods) == ["sky", "war"] and t["Gaul"].gods == []
    assert g.temples_of(0) == ["Iberia"] and g.temples_of(2) == []


def test_attack_until_logs_every_roll_and_stops() -> None:
    g = scenario()
    put(g, "Gaul", 0, 10)
    put(g, "Iberia", 2, 20)
    script(g, [1, 1, 1, 6, 6] * 20)
    events = g.apply(0, {"type": "attack_until", "from": "Gaul", "to": "Iberia", "dice": 3, "stop_at": 4})
    rolls = _events(events, "roll")
    assert len(rolls) == 3 and g.s.terr["Gaul"].armies == 4
    assert all(r["att_loss"] == 2 for r in rolls)


def test_war_labour_three_conquests_one_card() -> None:
    g = scenario()
    put(g, "Gaul", 0, 30, gods=["war"])
    for t in ("Iberia", "Alemannia", "Anglia", "Liguria"):
        put(g, t, 2, 1)
    for t in ("Iberia", "Alemannia", "Anglia", "Liguria"):
        script(g, [6, 6, 6, 1])
        g.apply(0, {"type": "attack", "from": "Gaul", "to": t, "dice": 3})
        g.apply(0, {"type": "move_in", "count": 3})
        g.s.terr[t].gods = []  # bring the war god back home for the next attack
        g.s.terr["Gaul"].gods = ["war"]
    assert g.s.players[0].cards["war"] == 1 and g.s.turn.conquered == 4


def test_godswar_altars_sky_god_and_sky_labour() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war", "sky"])
    put(g, "Iberia", 2, 4, gods=["magic"])
    g.s.uw["uw3"] = Space(0, 2)  # an altar: +1 die
    g.s.uw["uw9"] = Space(2, 1)  # the defender's altar
    rebalance(g)
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.actors() == [0]  # two gods: choose a champion
    # attacker: 3 + sky + altar = 5 dice; defender: 3 + altar = 4 dice, magic rerolls its 1s
    script(g, [2, 2, 2, 2, 2, 1, 6, 3, 3, 4,  6, 6, 1])
    events = g.apply(0, {"type": "champion", "god": "sky"})
    war = _events(events, "godswar")[0]
    assert len(war["att_dice"]) == 5 and len(war["def_dice"]) == 4 and 1 not in war["def_dice"]
    assert war["att_total"] == 10 + 5 and war["def_total"] == 6 + 4 + 3 + 3 + 4
    assert war["banished"] == "sky" and war["loser"] == 0
    assert g.s.terr["Gaul"].gods == ["war"]
    # war god alone against the goddess: next round, the attacker may retreat or pick again
    assert {"type": "retreat"} in g.legal_actions(0)
    script(g, [6, 6, 6, 1, 1, 1, 2, 2, 2])
    events = g.apply(0, {"type": "champion", "god": "war"})
    war = _events(events, "godswar")[0]
    assert war["banished"] == "magic" and g.s.terr["Iberia"].gods == []
    assert g.s.players[0].cards["sky"] == 0  # the sky god was banished before the win
    assert _events(events, "roll"), "armies fight once the gods are gone"


def test_godswar_win_with_sky_god_on_board_earns_one_sky_card() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war"])
    put(g, "Anglia", 0, 2, gods=["sky"])
    put(g, "Iberia", 2, 2, gods=["death"])
    script(g, [6, 6, 5, 1, 1, 2, 4, 4, 3, 3])
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 2})
    assert _events(events, "godswar")[0]["banished"] == "death"
    assert g.s.players[0].cards["sky"] == 1 and g.s.turn.sky_card


def test_godswar_tie_goes_to_defender_unless_war_god_attacks() -> None:
    g = scenario()
    put(g, "Gaul", 0, 3, gods=["death"])
    put(g, "Iberia", 2, 2, gods=["sky"])
    # attacker 3 dice 4+4+4 = 12 + 2 armies = 14; defender 4 dice 3+3+3+3 = 12 + 2 = 14 (tie)
    script(g, [4, 4, 4, 3, 3, 3, 3])
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1})
    assert _events(events, "godswar")[0]["banished"] == "death"


def test_magic_triple_earns_a_magic_card() -> None:
    g = scenario()
    put(g, "Gaul", 0, 5)
    put(g, "Anglia", 0, 2, gods=["magic"])
    put(g, "Iberia", 2, 5)
    script(g, [4, 4, 4, 5, 5])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.s.players[0].cards["magic"] == 1 and g.s.decks["magic"] == 14


# ---- elimination ------------------------------------------------------------------------
def test_elimination_removes_cards_and_underworld_armies() -> None:
    g = scenario(filler=0, filler_armies=2)
    put(g, "Iberia", 1, 1)
    g.s.players[1].cards["war"] = 2
    put(g, "Thule", 2, 1)
    g.s.uw["uw5"] = Space(1, 3)
    rebalance(g)
    script(g, [6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1})
    p = g.s.players[1]
    assert p.eliminated and p.cards["war"] == 0 and p.reserve == 3
    assert g.s.uw["uw5"] == Space(None, 0)
    assert g.outcome() is None  # seat 2 still plays
    assert ledger_ok(g)


def test_last_opponent_eliminated_ends_the_game() -> None:
    g = scenario(players=2, filler=0, filler_armies=2)
    g.s.neutral = None
    put(g, "Iberia", 1, 1)
    script(g, [6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1})
    assert g.outcome() is not None and g.outcome()["winners"] == [0]
    assert g.actors() == []


# ---- fortify ----------------------------------------------------------------------------
def test_fortify_follows_connected_paths_and_gods_avoid_plague() -> None:
    g = scenario(step="fortify")
    put(g, "Gaul", 0, 5, gods=["war"])
    put(g, "Alemannia", 0, 1)
    put(g, "Galicia", 0, 1, plague=True)
    put(g, "Varangia", 0, 1)
    put(g, "Iberia", 0, 1)
    targets = {a["to"] for a in g.legal_actions(0) if a["type"] == "fortify" and a["from"] == "Gaul"}
    assert targets == {"Alemannia", "Galicia", "Varangia", "Iberia"}
    assert not any(a["type"] == "fortify" and a["to"] == "Thule" for a in g.legal_actions(0))
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "fortify", "from": "Gaul", "to": "Galicia", "count": 1, "gods": ["war"]})
    g.apply(0, {"type": "fortify", "from": "Gaul", "to": "Varangia", "count": 4, "gods": ["war"]})
    assert g.s.terr["Varangia"].armies == 5 and g.s.terr["Varangia"].gods == ["war"]
    assert g.s.step != "fortify"


def test_classic_fortify_is_adjacent_only() -> None:
    g = scenario(ruleset="classic", step="fortify")
    put(g, "Gaul", 0, 5)
    put(g, "Alemannia", 0, 1)
    put(g, "Galicia", 0, 1)
    targets = {a["to"] for a in g.legal_actions(0) if a["type"] == "fortify" and a["from"] == "Gaul"}
    assert targets == {"Alemannia"}
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "fortify", "from": "Gaul", "to": "Galicia", "count": 1, "gods": []})


# ---- Underworld -------------------------------------------------------------------------
def test_descend_through_gates_and_fight_below() -> None:
    g = scenario(step="descend")
    put(g, "Gaul", 0, 3)
    g.s.players[0].heaven = 6
    g.s.uw["uw4"] = Space(2, 2)
    rebalance(g)
    spaces = {a["space"] for a in g.legal_actions(0) if a["type"] == "descend"}
    assert spaces == {"uw1", "uw8"}  # empty gates only (uw4 is held by an enemy)
    g.apply(0, {"type": "descend", "space": "uw1", "count": 2})
    g.apply(0, {"type": "end_step"})
    assert g.s.step == "underworld"
    legal = g.legal_actions(0)
    assert {"type": "attack", "from": "heaven", "to": "uw4", "dice": 3} in legal
    assert not any(a.get("to") == "uw10" for a in legal)  # fire border between I and X
    script(g, [6, 6, 6, 1, 1])
    g.apply(0, {"type": "attack", "from": "heaven", "to": "uw4", "dice": 3})
    assert g.s.players[2].reserve == 2 and g.s.players[2].heaven == 0
    g.apply(0, {"type": "move_in", "count": 4})
    assert g.s.uw["uw4"] == Space(0, 4) and g.s.players[0].heaven == 0
    assert ledger_ok(g)


def test_crypt_resurrection_never_takes_the_last_army() -> None:
    g = scenario(step="raise")
    put(g, "Gaul", 0, 3, temple=True)
    g.s.uw["uw2"] = Space(0, 2)
    g.s.uw["uw5"] = Space(0, 1)
    rebalance(g)
    g.s.turn.plague_done = False
    legal = [a for a in g.legal_actions(0) if a["type"] == "resurrect"]
    assert legal == [{"type": "resurrect", "space": "uw2", "territory": "Gaul"}]
    g.apply(0, legal[0])
    assert g.s.uw["uw2"].armies == 1 and g.s.terr["Gaul"].armies == 4
    assert not any(a["type"] == "resurrect" for a in g.legal_actions(0))
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "resurrect", "space": "uw5", "territory": "Gaul"})


def test_death_labour_at_end_of_turn_with_a_crypt() -> None:
    g = scenario(step="underworld")
    put(g, "Gaul", 0, 3, gods=["death"])
    g.s.uw["uw2"] = Space(0, 2)
    rebalance(g)
    g.apply(0, {"type": "end_step"})
    assert g.s.players[0].cards["death"] == 1 and g.s.decks["death"] == 16
    assert g.s.current != 0


# ---- bids, turn order, timeouts ---------------------------------------------------------
def _to_bids(n: int = 3, seed: int = 2) -> Godstorm:
    g = Godstorm.new([{} for _ in range(n)], {"ruleset": "godstorm"}, seed)
    while g.s.phase != "bid":
        seat = g.actors()[0]
        g.apply(seat, g.timeout_action(seat))
    return g


def test_bids_are_secret_until_all_have_bid() -> None:
    g = _to_bids()
    assert g.is_simultaneous() and sorted(g.actors()) == [0, 1, 2]
    events = g.apply(1, {"type": "bid", "faith": 2})
    public = [e for e in events if "to" not in e]
    assert all("faith" not in e for e in public)
    assert [e for e in events if "to" in e] == [{"type": "bid_secret", "to": [1], "faith": 2}]
    view = g.view(None)
    assert view["players"][1]["has_bid"] is True and view["players"][0]["has_bid"] is False
    assert "2" not in " ".join(g.status_lines("en")).split("faith")[0][-3:]
    assert g.view(1)["me"]["bid"] == 2 and "me" not in view
    g.apply(0, {"type": "bid", "faith": 3})
    events = g.apply(2, g.timeout_action(2))
    assert _events(events, "bids_revealed")[0]["bids"] == {"0": 3, "1": 2, "2": 0}
    assert g.s.players[0].faith == 0 and g.s.phase == "pick_order" and g.actors() == [0]
    g.apply(0, {"type": "pick_order", "position": 2})
    g.apply(1, {"type": "pick_order", "position": 3})
    assert g.s.turn_order == [2, 0, 1] and g.s.current == 2


def test_timeout_ends_the_turn_after_collecting() -> None:
    g = _to_bids()
    for seat in (0, 1, 2):
        g.apply(seat, {"type": "bid", "faith": 0})
    while g.s.phase == "pick_order":
        seat = g.actors()[0]
        g.apply(seat, g.timeout_action(seat))
    seat = g.s.current
    before = g.board_armies(seat)
    pending = g.s.pending
    assert g.timeout_action(seat) == {"type": "end_turn"}
    events = g.apply(seat, g.timeout_action(seat))
    assert not _events(events, "roll") and g.s.current != seat
    assert g.board_armies(seat) >= before + pending - sum(e["lost"] for e in _events(events, "plague_loss"))


# ---- scoring ----------------------------------------------------------------------------
def _final(g: Godstorm) -> dict:
    g._ev = []
    g._finish_game()
    return g.outcome()


def test_scoring_counts_lands_continents_altars_and_crypts() -> None:
    g = scenario(filler=1)
    for t in board.CONTINENTS["hyrkania"]:
        put(g, t, 0, 1)
    g.s.uw["uw3"] = Space(0, 1)
    g.s.uw["uw2"] = Space(0, 1)
    g.s.uw["uw1"] = Space(0, 1)  # a gate scores nothing
    out = _final(g)
    assert out["details"]["0"] == {"territories": 4, "continents": 2, "underworld": 2, "relics": 0, "total": 8}


def test_tie_break_chain() -> None:
    def tied() -> Godstorm:
        g = scenario(players=2, filler=0)
        g.s.neutral = None
        for t in board.TERR_IDS[:21]:
            put(g, t, 1, 1)
        for p in g.s.players:
            p.faith = 4
        return g

    assert _final(tied())["winners"] == [0, 1] and tied().outcome() is None
    g = tied()
    g.s.players[1].faith = 5
    assert _final(g)["winners"] == [1]
    g = tied()
    put(g, board.TERR_IDS[0], 1, 1, temple=True)
    assert _final(g)["winners"] == [1]
    g = tied()
    put(g, board.TERR_IDS[30], 0, 1, gods=["war"])
    assert _final(g)["winners"] == [0]
    g = tied()
    put(g, board.TERR_IDS[30], 0, 2)
    out = _final(g)
    assert out["winners"] == [0] and not out["draw"]
    out = _final(tied())
    assert out["draw"] and out["winners"] == [0, 1]


# ---- classic cards ----------------------------------------------------------------------
def test_classic_set_values() -> None:
    assert [set_value(i) for i in range(9)] == [4, 6, 8, 10, 12, 15, 20, 25, 30]
    assert is_set(["infantry"] * 3) and is_set(["infantry", "cavalry", "artillery"])
    assert is_set(["infantry", "infantry", "wild"]) and not is_set(["infantry", "infantry", "cavalry"])


def test_classic_trade_with_matching_territory_bonus_and_forced_trade() -> None:
    g = scenario(ruleset="classic", step="raise")
    infantry = [c for c in board.CARD_SYMBOL if board.CARD_SYMBOL[c] == "infantry"][:3]
    extra = [c for c in board.CARD_SYMBOL if board.CARD_SYMBOL[c] == "cavalry"][:2]
    g.s.players[0].tcards = infantry + extra
    home = board.CARD_TERR[sorted(infantry)[0]]
    put(g, home, 0, 1)
    g.s.pending = 3
    legal = g.legal_actions(0)
    assert legal and all(a["type"] == "trade" for a in legal)  # five cards: must trade first
    g.s.sets_traded = 2
    g.apply(0, {"type": "trade", "cards": sorted(infantry)})
    assert g.s.pending == 3 + 8 and g.s.terr[home].armies == 3
    assert g.s.sets_traded == 3 and len(g.s.players[0].tcards) == 2
    assert any(a["type"] == "place" for a in g.legal_actions(0))
    assert ledger_ok(g)


def test_classic_elimination_takes_cards() -> None:
    g = scenario(ruleset="classic", filler=0, filler_armies=2)
    put(g, "Iberia", 1, 1)
    cards = [c for c in board.CARD_SYMBOL if board.CARD_SYMBOL[c] == "cavalry"][:6]
    g.s.players[1].tcards = cards
    script(g, [6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1})
    assert g.s.players[1].eliminated and sorted(g.s.players[0].tcards) == sorted(cards)
    assert g.s.turn.forced_trade
    assert all(a["type"] == "trade" for a in g.legal_actions(0))
