"""The choices the rulebook gives a player (issue 10): held-back gods, the defender's dice and its standing
preference, the classic trade stop after an elimination and the choice of the +2 territory.

Expected values come from ``../shared/rules/risk-godstorm.ru.txt`` (quoted at each test)."""

from __future__ import annotations

import json

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import Godstorm, board
from bot.games.godstorm.scenario import ledger_ok, put, scenario, script


def _events(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def _reload(g: Godstorm) -> Godstorm:
    return Godstorm.from_json(json.loads(g.to_json_text()))


# ---- gods held back -------------------------------------------------------------------------
# «Предполагается что все ваши боги будут атаковать вместе с войсками если вы не укажете что некоторые или
# все из них не участвуют в наступлении.» / «Боги, участвующие в битве так же перемещаются с вашими армиями.»

def test_gods_join_by_default_and_a_held_god_stays_behind() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war", "sky"])
    put(g, "Iberia", 2, 1)
    assert {"type": "hold_god", "territory": "Gaul", "god": "sky", "hold": True} in g.legal_actions(0)
    g.apply(0, {"type": "hold_god", "territory": "Gaul", "god": "sky", "hold": True})
    g = _reload(g)  # the choice is stored with the turn
    assert g.s.turn.held == {"Gaul": ["sky"]}
    assert {"type": "hold_god", "territory": "Gaul", "god": "sky", "hold": False} in g.legal_actions(0)
    script(g, [6, 6, 6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    g.apply(0, {"type": "move_in", "count": 3})
    t = g.s.terr
    assert t["Iberia"].gods == ["war"] and t["Gaul"].gods == ["sky"]  # the sky god did not move in
    assert ledger_ok(g)


def test_held_gods_are_not_drawn_into_godswar() -> None:
    """With every attacking god held back there is no godswar: «Когда боги представлены с обеих сторон
    атаки и защиты, должна быть разыграна битва богов»."""
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war"])
    put(g, "Iberia", 2, 3, gods=["magic"])
    g.apply(0, {"type": "hold_god", "territory": "Gaul", "god": "war", "hold": True})
    script(g, [6, 6, 6, 5, 5])
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert not _events(events, "godswar") and g.s.battle is None
    assert _events(events, "roll") and g.s.terr["Gaul"].gods == ["war"]


def test_a_held_war_god_does_not_win_ties() -> None:
    """«Только если среди нападающих есть бог войны, ничья засчитывается победой атакующим.»"""
    g = scenario()
    put(g, "Gaul", 0, 4, gods=["war"])
    put(g, "Iberia", 2, 3)
    g.apply(0, {"type": "hold_god", "territory": "Gaul", "god": "war", "hold": True})
    script(g, [4, 4])  # 4 against 4: a tie, the defender wins it
    roll = _events(g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1}), "roll")[0]
    assert roll["att_loss"] == 1 and roll["def_loss"] == 0


def test_only_the_joining_gods_may_be_champions() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war", "sky", "death"])
    put(g, "Iberia", 2, 3, gods=["magic"])
    g.apply(0, {"type": "hold_god", "territory": "Gaul", "god": "death", "hold": True})
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert sorted(a["god"] for a in g.legal_actions(0)) == ["sky", "war"]
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "champion", "god": "death"})


def test_hold_god_refuses_bad_input() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6, gods=["war"])
    before = g.to_json_text()
    for bad in ({"territory": "Gaul", "god": "sky", "hold": True}, {"territory": "Iberia", "god": "war", "hold": True},
                {"territory": "Gaul", "god": "war", "hold": "yes"}):
        with pytest.raises(IllegalAction):
            g.apply(0, {"type": "hold_god", **bad})
    assert g.to_json_text() == before


# ---- the defender's dice ------------------------------------------------------------------
# «Защитник может бросить 1 или 2 куба – 2 только если у него есть хотя бы 2 армии в защищающейся территории.»

def test_default_is_the_most_dice() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    script(g, [6, 6, 6, 1, 1])
    roll = _events(g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3}), "roll")[0]
    assert len(roll["dfn"]) == 2


def test_standing_preference_one_die() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    g.s.current = 2
    g.apply(2, {"type": "dice_pref", "pref": "one"})
    g.s.current = 0
    g = _reload(g)
    assert g.s.dice_pref == {"2": "one"}
    script(g, [6, 6, 6, 1])
    roll = _events(g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3}), "roll")[0]
    assert len(roll["dfn"]) == 1 and roll["def_loss"] == 1 and roll["att_loss"] == 0


def test_ask_me_waits_for_the_defender_and_times_out_to_two() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    g.s.dice_pref = {"2": "ask"}
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.decision() == "defend" and g.actors() == [2]
    assert g.forced_timeout() is not None  # a short window, whatever the game's deadline
    assert [a for a in g.legal_actions(2) if a["type"] == "defend"] == [
        {"type": "defend", "dice": 2}, {"type": "defend", "dice": 1}]
    g = _reload(g)
    assert g.timeout_action(2) == {"type": "defend", "dice": 2}
    script(g, [6, 6, 6, 1, 1])
    roll = _events(g.apply(2, g.timeout_action(2)), "roll")[0]
    assert len(roll["dfn"]) == 2 and g.decision() == "turn" and g.actors() == [0]


def test_ask_me_is_not_asked_with_one_army() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 1)
    g.s.dice_pref = {"2": "ask"}
    script(g, [1, 1, 1, 6])
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert _events(events, "roll") and g.decision() == "turn"


def test_ask_me_pauses_an_attack_until_before_every_roll() -> None:
    g = scenario()
    put(g, "Gaul", 0, 10)
    put(g, "Iberia", 2, 6)
    g.s.dice_pref = {"2": "ask"}
    script(g, [6, 6, 6, 1] * 6)
    g.apply(0, {"type": "attack_until", "from": "Gaul", "to": "Iberia", "dice": 3, "stop_at": 1})
    assert g.decision() == "defend"
    rolls = 0
    while g.decision() == "defend":
        events = g.apply(2, {"type": "defend", "dice": 1})
        rolls += len(_events(events, "roll"))
        assert len(_events(events, "roll")[0]["dfn"]) == 1
    assert rolls == 6 and g.s.move is not None and g.s.terr["Iberia"].armies == 0
    assert ledger_ok(g)


def test_changing_the_preference_while_asked_answers_now() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    g.s.dice_pref = {"2": "ask"}
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    script(g, [6, 6, 6, 1])
    events = g.apply(2, {"type": "dice_pref", "pref": "one"})
    assert len(_events(events, "roll")[0]["dfn"]) == 1 and g.s.dice_pref == {"2": "one"}


def test_defend_refuses_three_dice_and_other_seats() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    g.s.dice_pref = {"2": "ask"}
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    before = g.to_json_text()
    with pytest.raises(IllegalAction):
        g.apply(2, {"type": "defend", "dice": 3})
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "defend", "dice": 1})
    assert g.to_json_text() == before


def test_bots_answer_the_dice_question() -> None:
    from bot.games.godstorm.ai import GodstormBot  # noqa: PLC0415

    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    g.s.dice_pref = {"2": "ask"}
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    for level in ("quick", "strong"):
        pick = GodstormBot(level).choose(g.view(2), g.legal_actions(2), g.rng)
        assert pick == {"type": "defend", "dice": 2}


# ---- classic: trades after an elimination, the +2 territory --------------------------------

def test_forced_trades_stop_at_four_cards() -> None:
    """«Если выигрыш дает вам 6 или больше карт вы должны немедленно сыграть достаточное количество групп что
    бы у вас осталось 4 или меньше карт, но как только ваша рука уменьшена до 4, 3 или 2 карт вы обязаны
    остановиться их сторговывать»."""
    g = scenario(ruleset="classic", filler=0, filler_armies=2)
    put(g, "Iberia", 1, 1)
    cards = [c for c in board.CARD_SYMBOL if board.CARD_SYMBOL[c] == "cavalry"][:7]
    g.s.players[1].tcards = cards
    script(g, [6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 1})
    g.apply(0, {"type": "move_in", "count": 1}) if g.s.move is not None else None
    assert len(g.s.players[0].tcards) == 7 and g.s.turn.forced_trade
    trade = next(a for a in g.legal_actions(0) if a["type"] == "trade")
    g.apply(0, trade)
    assert len(g.s.players[0].tcards) == 4  # three of a kind still in hand, but trading must stop
    assert not [a for a in g.legal_actions(0) if a["type"] == "trade"]
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "trade", "cards": sorted(g.s.players[0].tcards)[:3]})


def test_the_player_picks_which_matching_territory_gets_two() -> None:
    """«В таком случае определите какая из территорий получит бонусные войска.»"""
    g = scenario(ruleset="classic", step="raise")
    infantry = sorted(c for c in board.CARD_SYMBOL if board.CARD_SYMBOL[c] == "infantry")[:3]
    g.s.players[0].tcards = list(infantry)
    first, second = board.CARD_TERR[infantry[0]], board.CARD_TERR[infantry[1]]
    put(g, first, 0, 1)
    put(g, second, 0, 1)
    trades = [a for a in g.legal_actions(0) if a["type"] == "trade"]
    assert sorted(a["bonus"] for a in trades) == sorted([first, second])
    labels = {g.action_path(0, a, "en")[-1] for a in trades}
    assert len(labels) == 2  # the panel tells the two apart
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "trade", "cards": infantry, "bonus": "Iberia"})
    g.apply(0, {"type": "trade", "cards": infantry, "bonus": second})
    assert g.s.terr[second].armies == 3 and g.s.terr[first].armies == 1
    assert ledger_ok(g)


# ---- two players choose their piles ---------------------------------------------------------
# «Перетасуйте колоду территорий и раздайте на три равные стопки. Оба вы и ваш оппонент выбирают разные
# стопки. Оставшаяся стопка – нейтральная. Расположите по 3 армии нейтрального пантеона в каждую из этих
# территорий.» (Godstorm) / «Оба вы и ваш оппонент берете разные стопки. Оставшаяся стопка – «нейтральная»»
# (classic, two players)

@pytest.mark.parametrize("ruleset,neutral_armies", [("godstorm", 3), ("classic", 1)])
def test_two_players_choose_their_piles(ruleset: str, neutral_armies: int) -> None:
    from bot.games.godstorm.core import NEUTRAL  # noqa: PLC0415

    g = Godstorm.new([{}, {}], {"ruleset": ruleset, "placement": "random"}, 7)
    while g.decision() == "pantheon":
        g.apply(g.actors()[0], g.legal_actions(g.actors()[0])[0])
    assert g.decision() == "pile"
    first, second = g.s.setup_order
    assert g.actors() == [first]
    piles = g.view(None)["piles"]
    assert [len(p) for p in piles] == [14, 14, 14] and len({t for p in piles for t in p}) == 42
    assert [a["pile"] for a in g.legal_actions(first)] == [0, 1, 2]
    assert "2" in g.prompt_text(first, "en") and g.action_path(first, {"type": "pick_pile", "pile": 2}, "ru")
    g.apply(first, {"type": "pick_pile", "pile": 2})
    g = _reload(g)
    assert g.actors() == [second] and [a["pile"] for a in g.legal_actions(second)] == [0, 1]
    with pytest.raises(IllegalAction):
        g.apply(second, {"type": "pick_pile", "pile": 2})  # different piles
    g.apply(second, {"type": "pick_pile", "pile": 0})
    terr = g.s.terr
    assert all(terr[t].owner == first and terr[t].armies == 1 for t in piles[2])
    assert all(terr[t].owner == second and terr[t].armies == 1 for t in piles[0])
    assert all(terr[t].owner == NEUTRAL and terr[t].armies == neutral_armies for t in piles[1])
    assert g.decision() in ("setup_place", "setup_neutral") and ledger_ok(g)


def test_games_from_before_keep_their_dealt_piles() -> None:
    """A two-player game started under state version 2 is rebuilt (replays) with the piles dealt in order;
    its stored state loads unchanged (version 3 only adds keys that are absent when unused)."""
    old = Godstorm.migrate_options({"ruleset": "godstorm", "placement": "random", "miracles": "on"}, 2)
    assert old["piles"] == "dealt"
    g = Godstorm.new([{}, {}], old, 7)
    while g.decision() == "pantheon":
        g.apply(g.actors()[0], g.legal_actions(g.actors()[0])[0])
    assert g.decision() == "setup_place" and "piles" not in g.to_json()
    data = g.to_json()
    assert Godstorm.migrate_state(data, 2) == data
