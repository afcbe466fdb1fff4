"""One test per War and Death card: the card changes the state as its text says.

Card texts are quoted from ``data/godstorm/miracles.json`` (research [B]'s card texts with the official
erratum for Heroes Are Born); general rules from ``shared/rules/risk-godstorm.ru.txt``. Seat 0 plays in the
"play miracle cards" step of its turn; every other territory is held by seat 2 with 1 army; 10 faith each.
"""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import board
from bot.games.godstorm.miracles import ATLANTIS, CARDS
from tests.godstorm.miracle_kit import game, give, play, put, script


def war_player(g, where: str = "Gaul", armies: int = 5, gods: tuple[str, ...] = ("war",), temple: bool = False):
    put(g, where, 0, armies, gods=list(gods), temple=temple)


def death_player(g, where: str = "Gaul", armies: int = 5, temple: bool = False):
    put(g, where, 0, armies, gods=["death"], temple=temple)


# ---- War ----------------------------------------------------------------------------------
def test_visions_become_real() -> None:
    """"Look at another player's miracle cards and take one of them.\""""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 2)
    give(g, 0, "visions_become_real")
    give(g, 1, "heroes_are_born")
    events = play(g, 0, "visions_become_real", seat=1)
    shown = [e for e in events if e["type"] == "hand_shown"]
    assert shown and shown[0]["to"] == [0]  # only the player sees the hand
    assert g.decision() == "pick_card" and g.actors() == [0]
    assert g.legal_actions(0) == [{"type": "take_card", "card": "heroes_are_born"}]
    g.apply(0, {"type": "take_card", "card": "heroes_are_born"})
    assert [c.split(".")[0] for c in g.s.mir.hands[0]] == ["heroes_are_born"]
    assert g.s.mir.hands[1] == [] and g.s.players[1].cards["war"] == 0


def test_eagles_take_wing() -> None:
    """"Move any number of armies and gods from one territory you control to another" (leave 1 army)."""
    g = game()
    war_player(g, "Gaul", 5, ("war",))
    put(g, "Egypt", 0, 1)
    give(g, 0, "eagles_take_wing")
    with pytest.raises(IllegalAction):
        play(g, 0, "eagles_take_wing", **{"from": "Gaul", "to": "Egypt", "count": 5, "gods": []})
    play(g, 0, "eagles_take_wing", **{"from": "Gaul", "to": "Egypt", "count": 4, "gods": ["war"]})
    assert g.s.terr["Gaul"].armies == 1 and g.s.terr["Egypt"].armies == 5
    assert g.s.terr["Egypt"].gods == ["war"] and g.s.players[0].faith == 10 - CARDS["eagles_take_wing"].cost


def test_faith_shall_deliver() -> None:
    """"Draw 2 cards from any miracle decks: both from one deck or one from each of two; you need not have their
    gods.\""""
    g = game()
    war_player(g)
    give(g, 0, "faith_shall_deliver")
    before = {k: len(v) for k, v in g.s.mir.piles.items()}
    play(g, 0, "faith_shall_deliver", deck="sky", deck2="war")
    assert len(g.s.mir.piles["sky"]) == before["sky"] - 1 and len(g.s.mir.piles["war"]) == before["war"] - 1
    assert g.s.players[0].cards["sky"] == 1 and g.s.players[0].cards["war"] == 1


def test_the_siren_calls() -> None:
    """"Swap all armies and gods between two territories that one other player controls.\""""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 5, gods=["sky"])
    put(g, "Egypt", 1, 2)
    give(g, 0, "the_siren_calls")
    play(g, 0, "the_siren_calls", a="Egypt", b="Roma")
    assert (g.s.terr["Roma"].armies, g.s.terr["Roma"].gods) == (2, [])
    assert (g.s.terr["Egypt"].armies, g.s.terr["Egypt"].gods) == (5, ["sky"])
    assert g.s.players[0].faith == 10 - 3


def test_prayers_are_answered() -> None:
    """"Choose a territory with a temple you control; roll 1 die and gain that many armies there.\""""
    g = game()
    war_player(g, temple=True)
    give(g, 0, "prayers_are_answered")
    script(g, [4])
    play(g, 0, "prayers_are_answered", territory="Gaul")
    assert g.s.terr["Gaul"].armies == 5 + 4


def test_the_faithful_gather() -> None:
    """"Gain 2 armies in each territory where you control a temple.\""""
    g = game()
    war_player(g, temple=True)
    put(g, "Egypt", 0, 1, temple=True)
    put(g, "Roma", 0, 1)
    give(g, 0, "the_faithful_gather")
    play(g, 0, "the_faithful_gather")
    assert [g.s.terr[t].armies for t in ("Gaul", "Egypt", "Roma")] == [7, 3, 1]


def test_an_empire_is_born() -> None:
    """"Place a temple in any territory you control.\""""
    g = game()
    war_player(g)
    give(g, 0, "an_empire_is_born")
    play(g, 0, "an_empire_is_born", territory="Gaul")
    assert g.s.terr["Gaul"].temple


def test_heroes_are_born() -> None:
    """Erratum: "Gain 3 armies in any one territory you control.\""""
    g = game()
    war_player(g)
    give(g, 0, "heroes_are_born")
    with pytest.raises(IllegalAction):
        play(g, 0, "heroes_are_born", territory="Roma")  # not ours
    play(g, 0, "heroes_are_born", territory="Gaul")
    assert g.s.terr["Gaul"].armies == 8


def test_our_faith_is_our_strength() -> None:
    """"Gain 2 faith for each temple you control.\""""
    g = game()
    war_player(g, temple=True)
    put(g, "Egypt", 0, 1, temple=True)
    give(g, 0, "our_faith_is_our_strength")
    play(g, 0, "our_faith_is_our_strength")
    assert g.s.players[0].faith == 10 + 4


def test_the_sun_grows_cold() -> None:
    """"In every territory containing gods, destroy 1 army for each god there.\""""
    g = game()
    war_player(g, "Gaul", 3, ("war", "magic"))
    put(g, "Roma", 1, 1, gods=["war"])
    give(g, 0, "the_sun_grows_cold")
    play(g, 0, "the_sun_grows_cold")
    assert g.s.terr["Gaul"].armies == 1
    # rulebook: a territory whose armies are all destroyed is held by nobody and its gods are banished
    assert (g.s.terr["Roma"].owner, g.s.terr["Roma"].armies, g.s.terr["Roma"].gods) == (None, 0, [])
    assert g.s.players[1].eliminated  # its last territory on the Ancient Earth


def test_storms_rage() -> None:
    """"Choose a territory; roll 1 die and destroy that many armies there" (the dead go to their heaven)."""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 5)
    give(g, 0, "storms_rage")
    script(g, [3])
    play(g, 0, "storms_rage", territory="Roma")
    assert g.s.terr["Roma"].armies == 2 and g.s.players[1].heaven == 3


def test_champions_arise() -> None:
    """"Gain 1 army for every 2 faith you have (you keep the faith), in one territory you control.\""""
    g = game()
    war_player(g)
    g.s.players[0].faith = 9
    give(g, 0, "champions_arise")
    play(g, 0, "champions_arise", territory="Gaul")
    assert g.s.terr["Gaul"].armies == 5 + 4 and g.s.players[0].faith == 9


def test_time_stands_still() -> None:
    """"Move the epoch marker back one space" (not before the second epoch: there is no space behind)."""
    g = game()
    war_player(g)
    give(g, 0, "time_stands_still")
    assert not any(a.get("card") == "time_stands_still" for a in g.legal_actions(0))
    g.s.epoch = 3
    play(g, 0, "time_stands_still")
    assert g.s.epoch == 2 and g.s.players[0].faith == 10 - 4


def test_the_land_is_purged() -> None:
    """"Choose a plague territory: remove its plague marker and destroy all armies in it.\""""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 4, plague=True)
    put(g, "Egypt", 1, 1)
    give(g, 0, "the_land_is_purged")
    play(g, 0, "the_land_is_purged", territory="Roma")
    v = g.s.terr["Roma"]
    assert (v.plague, v.armies, v.owner) == (False, 0, None) and g.s.players[1].heaven == 4


def test_the_temple_falls() -> None:
    """"Move a temple that any player controls to a different territory that same player controls.\""""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 2, temple=True)
    put(g, "Egypt", 1, 2)
    give(g, 0, "the_temple_falls")
    with pytest.raises(IllegalAction):
        play(g, 0, "the_temple_falls", **{"from": "Roma", "to": "Gaul"})  # another player's territory
    play(g, 0, "the_temple_falls", **{"from": "Roma", "to": "Egypt"})
    assert not g.s.terr["Roma"].temple and g.s.terr["Egypt"].temple


def test_a_shrine_is_plundered() -> None:
    """"Steal a relic from another player.\""""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 2)
    relic = give(g, 1, "excalibur")
    give(g, 0, "a_shrine_is_plundered")
    play(g, 0, "a_shrine_is_plundered", relic="excalibur", seat=1)
    assert g.s.mir.relics[0] == [relic] and g.s.mir.relics[1] == []


def test_only_ash_remains() -> None:
    """"Destroy a relic of your choice.\""""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 2)
    relic = give(g, 1, "excalibur")
    give(g, 0, "only_ash_remains")
    play(g, 0, "only_ash_remains", relic="excalibur", seat=1)
    assert g.s.mir.relics[1] == [] and relic in g.s.mir.gone


# ---- Death --------------------------------------------------------------------------------
def test_crops_wither() -> None:
    """"Choose another player with miracle cards in hand: they discard them all (relics stay in play).\""""
    g = game()
    death_player(g)
    put(g, "Roma", 1, 2)
    hand = [give(g, 1, "heroes_are_born"), give(g, 1, "storms_rage")]
    relic = give(g, 1, "excalibur")
    give(g, 0, "crops_wither")
    play(g, 0, "crops_wither", seat=1)
    assert g.s.mir.hands[1] == [] and g.s.mir.relics[1] == [relic]
    assert all(c in g.s.mir.gone for c in hand) and g.s.players[1].cards == {k: 0 for k in board.GOD_KINDS}
    assert g.s.players[0].faith == 10 - 2


def test_the_dead_walk() -> None:
    """"Move up to 6 of your armies from one Underworld space you hold to a territory with a temple you control;
    at least 1 army stays in the space.\""""
    g = game()
    death_player(g, temple=True)
    sp = board.CRYPTS[0]
    g.s.uw[sp].owner, g.s.uw[sp].armies = 0, 8
    g.s.players[0].supply += 8
    give(g, 0, "the_dead_walk")
    with pytest.raises(IllegalAction):
        play(g, 0, "the_dead_walk", space=sp, to="Gaul", count=7)  # "up to 6"
    play(g, 0, "the_dead_walk", space=sp, to="Gaul", count=6)
    assert g.s.uw[sp].armies == 2 and g.s.terr["Gaul"].armies == 11


def test_ragnarok_cometh() -> None:
    """"Banish all war gods and all sky gods, every player's.\""""
    g = game()
    put(g, "Gaul", 0, 5, gods=["death", "war", "sky"])
    put(g, "Roma", 1, 3, gods=["war", "magic"])
    give(g, 0, "ragnarok_cometh")
    play(g, 0, "ragnarok_cometh")
    assert g.s.terr["Gaul"].gods == ["death"] and g.s.terr["Roma"].gods == ["magic"]


def test_the_young_grow_old() -> None:
    """"Destroy 1 army in every territory that has more than 1 army.\""""
    g = game()
    death_player(g, armies=5)
    put(g, "Roma", 1, 2)
    give(g, 0, "the_young_grow_old")
    play(g, 0, "the_young_grow_old")
    assert g.s.terr["Gaul"].armies == 4 and g.s.terr["Roma"].armies == 1 and g.s.terr["Egypt"].armies == 1


def test_deaths_door_closes() -> None:
    """"Halve the armies in every crypt and altar of the Underworld" (losses round down: 5 → 3)."""
    g = game()
    death_player(g)
    crypt, altar = board.CRYPTS[0], board.ALTARS[0]
    plain = next(sp for sp in board.SPACE_IDS if board.SPACE_KIND[sp] == "plain")
    for sp, n in ((crypt, 5), (altar, 4), (plain, 6)):
        g.s.uw[sp].owner, g.s.uw[sp].armies = 1, n
    g.s.players[1].supply += 15
    give(g, 0, "deaths_door_closes")
    play(g, 0, "deaths_door_closes")
    assert [g.s.uw[sp].armies for sp in (crypt, altar, plain)] == [3, 2, 6]
    assert g.s.players[1].reserve == 2 + 2  # Underworld losses return to the reserve


def _drawn(events: list) -> str:
    return next(e["continent"] for e in events if e["type"] == "continent_drawn")


def test_blood_coats_the_land() -> None:
    """"Pick a continent at random; destroy 1 army in each of its territories.\""""
    g = game(filler_armies=3)
    death_player(g, armies=3)
    give(g, 0, "blood_coats_the_land")
    cont = _drawn(play(g, 0, "blood_coats_the_land"))
    for t in board.TERR_IDS:
        assert g.s.terr[t].armies == (2 if board.CONTINENT_OF[t] == cont else 3), t


def test_the_ground_shakes() -> None:
    """"Pick a continent at random; halve the armies in each of its territories (round losses down).\""""
    g = game(filler_armies=5)
    death_player(g, armies=5)
    give(g, 0, "the_ground_shakes")
    cont = _drawn(play(g, 0, "the_ground_shakes"))
    for t in board.TERR_IDS:
        assert g.s.terr[t].armies == (3 if board.CONTINENT_OF[t] == cont else 5), t


def test_the_sea_is_your_tomb() -> None:
    """Rulebook, Atlantis: "уничтожьте все войска, находящиеся в Атлантиде и отправьте их в соответствующие
    небеса, изгоните всех богов из Атлантиды, уничтожьте любые храмы в Атлантиде, и закройте Атлантиду ...
    маркером затопленная Атлантида, которые разрывает все связи с ней\""""
    g = game()
    death_player(g, "Hibernia")
    put(g, "Hesperide", 1, 3, gods=["war"], temple=True)
    for t in ("Tritonis", "Poseidonis", "Oricalcos"):
        put(g, t, 1, 2)
    put(g, "Roma", 1, 1)
    give(g, 0, "the_sea_is_your_tomb")
    play(g, 0, "the_sea_is_your_tomb")
    assert g.s.mir.sunk and g.view(None)["miracles"]["sunk"]
    for t in ATLANTIS:
        v = g.s.terr[t]
        assert (v.owner, v.armies, v.gods, v.temple) == (None, 0, [], False), t
    assert g.s.players[1].heaven == 3 + 3 * 2
    assert "Hesperide" not in g.neighbours("Hibernia") and "Oricalcos" not in g.neighbours("Iberia")
    everyone = g.owned(0) | g.owned(1) | g.owned(2)
    assert "atlantis" not in board.continents_held(everyone)  # "the continent and its bonus gone"
    g.s.step = "invade"
    assert not any(a.get("to") in ATLANTIS for a in g.legal_actions(0))
    assert not any(a.get("card") == "the_sea_is_your_tomb" for a in g.legal_actions(0))


def test_the_mighty_have_fallen() -> None:
    """"Halve the 3 largest armies on the Ancient Earth (you choose among ties; round losses down).\""""
    g = game()
    death_player(g, "Gaul", 10)
    put(g, "Roma", 1, 8)
    put(g, "Egypt", 1, 6)
    put(g, "Thule", 1, 6)
    give(g, 0, "the_mighty_have_fallen")
    with pytest.raises(IllegalAction):
        play(g, 0, "the_mighty_have_fallen", territories=["Gaul", "Egypt", "Thule"])  # Roma (8) is larger
    plays = [a for a in g.legal_actions(0) if a.get("card") == "the_mighty_have_fallen"]
    assert sorted(map(lambda a: tuple(a["territories"]), plays)) == [("Egypt", "Gaul", "Roma"),
                                                                       ("Gaul", "Roma", "Thule")]
    play(g, 0, "the_mighty_have_fallen", territories=["Thule", "Gaul", "Roma"])
    assert [g.s.terr[t].armies for t in ("Gaul", "Roma", "Thule", "Egypt")] == [5, 4, 3, 6]


def test_diamonds_turn_to_rust() -> None:
    """"Destroy all relics in play.\""""
    g = game()
    death_player(g)
    put(g, "Roma", 1, 2)
    relics = [give(g, 0, "excalibur"), give(g, 1, "mjolnir"), give(g, 1, "stonehenge")]
    give(g, 0, "diamonds_turn_to_rust")
    play(g, 0, "diamonds_turn_to_rust")
    assert g.s.mir.relics == [[], [], []] and all(r in g.s.mir.gone for r in relics)


def test_fire_rains_down() -> None:
    """"Destroy a temple of your choice, and 1 army in its territory and in each adjacent territory.\""""
    g = game(filler_armies=3)
    death_player(g, "Egypt")
    put(g, "Roma", 1, 3, temple=True)
    give(g, 0, "fire_rains_down")
    play(g, 0, "fire_rains_down", territory="Roma")
    assert not g.s.terr["Roma"].temple and g.s.terr["Roma"].armies == 2
    for t in board.NEIGHBOURS["Roma"]:
        assert g.s.terr[t].armies == 2, t
    assert g.s.terr["Thule"].armies == 3


def test_the_gods_forsake_us() -> None:
    """"Place the fifth plague marker in a territory with no temple and no plague; at once halve its armies
    and banish its gods" (5 markers in the box, 4 placed at setup)."""
    g = game()
    death_player(g)
    for t in ("Thule", "Egypt", "Sheba", "Rus"):
        g.s.terr[t].plague = True
    put(g, "Roma", 1, 5, gods=["war"])
    give(g, 0, "the_gods_forsake_us")
    play(g, 0, "the_gods_forsake_us", territory="Roma")
    v = g.s.terr["Roma"]
    assert (v.plague, v.armies, v.gods) == (True, 3, [])
    assert sum(x.plague for x in g.s.terr.values()) == 5
    assert g._target_args(0, CARDS["the_gods_forsake_us"], None, True) == []  # no sixth marker


def test_paradise_is_lost() -> None:
    """"Move a plague marker to the territory on the top card of the territory deck.\""""
    g = game()
    death_player(g)
    put(g, "Roma", 1, 4, plague=True)
    give(g, 0, "paradise_is_lost")
    events = play(g, 0, "paradise_is_lost", territory="Roma")
    moved = next(e for e in events if e["type"] == "plague_moved")
    assert not g.s.terr["Roma"].plague and g.s.terr[moved["dst"]].plague and moved["dst"] != "Roma"
    assert sum(x.plague for x in g.s.terr.values()) == 1


def test_the_trojan_horse_is_revealed() -> None:
    """"Choose another player's territory holding exactly 1 army: destroy it, roll 1 die and gain that many
    of your armies there.\""""
    g = game()
    death_player(g)
    put(g, "Roma", 1, 1, gods=["war"])
    put(g, "Egypt", 1, 2)
    give(g, 0, "the_trojan_horse_is_revealed")
    with pytest.raises(IllegalAction):
        play(g, 0, "the_trojan_horse_is_revealed", territory="Egypt")  # 2 armies
    script(g, [5])
    play(g, 0, "the_trojan_horse_is_revealed", territory="Roma")
    v = g.s.terr["Roma"]
    assert (v.owner, v.armies, v.gods) == (0, 5, []) and g.s.players[1].heaven == 1


def test_the_waters_boil() -> None:
    """"Place the maelstrom on a sea link: it is impassable for the rest of the game.\""""
    g = game()
    death_player(g, "Gaul", 5)
    put(g, "Anglia", 0, 1)
    put(g, "Alemannia", 1, 1)
    give(g, 0, "the_waters_boil")
    with pytest.raises(IllegalAction):
        play(g, 0, "the_waters_boil", a="Gaul", b="Iberia")  # a land link
    play(g, 0, "the_waters_boil", a="Anglia", b="Gaul")
    assert g.s.mir.maelstrom == ["Anglia", "Gaul"] and g.view(None)["miracles"]["maelstrom"] == ["Anglia", "Gaul"]
    assert "Anglia" not in g.neighbours("Gaul") and "Gaul" not in g.neighbours("Anglia")
    assert "Anglia" not in g.connected("Gaul", {"Gaul", "Anglia"})


def test_visions_pick_holds_the_turn() -> None:
    """The last card of the step: the turn does not move on before the card is taken."""
    g = game()
    war_player(g)
    put(g, "Roma", 1, 2)
    give(g, 0, "visions_become_real")
    give(g, 1, "storms_rage")
    play(g, 0, "visions_become_real", seat=1)
    assert g.s.step == "miracle" and g.decision() == "pick_card"
    g.apply(0, {"type": "take_card", "card": "storms_rage"})
    assert g.s.current == 0 and len(g.s.mir.hands[0]) == 1
