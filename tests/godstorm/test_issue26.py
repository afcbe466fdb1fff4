"""Issue 26: miracle cards against their own texts (and the rulebook where it speaks).

Each test quotes the card text (``data/godstorm/miracles.json``) or the rulebook line
(``../shared/rules/risk-godstorm.ru.txt``) its expected values come from.
"""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import board, data
from bot.games.godstorm.miracles import ATLANTIS, CARDS
from tests.godstorm.miracle_kit import game, give, play, put, script

ATTACK = {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3}


def attacked(card: str, gaul_gods: tuple[str, ...], held: tuple[str, ...] = (), temple_at: str | None = None):
    """Seat 0 attacks Iberia (seat 1) from Gaul, holding ``held`` back; seat 1 holds ``card`` and a second Sky card."""
    g = game(step="invade")
    put(g, "Gaul", 0, 6, gods=list(gaul_gods))
    if temple_at:
        put(g, temple_at, 0, 2, temple=True)
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    give(g, 1, card)
    give(g, 1, "men_become_warriors")
    if held:
        g.s.turn.held = {"Gaul": list(held)}
    g.apply(0, ATTACK)
    return g


def offered(g, seat: int, card: str) -> list[dict]:
    return [a for a in g.legal_actions(seat) if a.get("card") == card]


# ---- 5. Your Idol Is False and The Mighty Turn Meek ------------------------------------------------
def test_your_idol_is_false_offers_a_held_back_god() -> None:
    """*Your Idol Is False*: "Banish a god of your choice from the attacking territory" — a god held back from
    the attack still stands in the attacking territory, so it may be chosen."""
    g = attacked("your_idol_is_false", ("war", "magic"), held=("magic",))
    assert g._att_gods("Gaul") == ["war"]
    assert sorted(a["god"] for a in offered(g, 1, "your_idol_is_false")) == ["magic", "war"]
    play(g, 1, "your_idol_is_false", god="magic")
    assert g.s.terr["Gaul"].gods == ["war"]


def test_the_mighty_turn_meek_offers_the_same_gods() -> None:
    """*The Mighty Turn Meek*: "move a god from the attacking territory to a territory with a temple the attacker
    controls" — the same gods as *Your Idol Is False*: every god in the attacking territory."""
    g = attacked("the_mighty_turn_meek", ("war", "magic"), held=("magic",), temple_at="Egypt")
    assert sorted(a["god"] for a in offered(g, 1, "the_mighty_turn_meek")) == ["magic", "war"]


# ---- 6. the maelstrom, and plague on sunken Atlantis -----------------------------------------------
def test_fire_rains_down_spares_a_territory_behind_the_maelstrom() -> None:
    """*Fire Rains Down*: "Destroy a temple of your choice, and 1 army in its territory and in each adjacent
    territory"; *The Waters Boil*: the maelstrom makes its sea link "impassable for the rest of the game" — the
    two territories are no longer adjacent, so the fire does not cross it."""
    g = game(filler_armies=3)
    put(g, "Egypt", 0, 5, gods=["death"])
    put(g, "Gaul", 1, 3, temple=True)
    g.s.mir.maelstrom = ["Anglia", "Gaul"]
    give(g, 0, "fire_rains_down")
    play(g, 0, "fire_rains_down", territory="Gaul")
    assert g.s.terr["Gaul"].armies == 2 and g.s.terr["Anglia"].armies == 3
    assert all(g.s.terr[t].armies == 2 for t in board.NEIGHBOURS["Gaul"] if t != "Anglia")


def test_lava_erupts_spares_a_territory_behind_the_maelstrom() -> None:
    """*Lava Erupts*: "For the attacking territory and each territory adjacent to it … roll 1 die and destroy
    that many armies there"; behind the maelstrom ("impassable") nothing is adjacent."""
    g = attacked("lava_erupts", ())
    for t in board.NEIGHBOURS["Gaul"]:
        if t != "Iberia":
            put(g, t, 2, 5)
    g.s.mir.maelstrom = ["Anglia", "Gaul"]
    hit = ["Gaul", *sorted(t for t in board.NEIGHBOURS["Gaul"] if t != "Anglia")]
    script(g, [1] * len(hit))
    play(g, 1, "lava_erupts")
    assert g.s.terr["Anglia"].armies == 5
    assert all(g.s.terr[t].armies == 4 for t in hit if t not in ("Gaul", "Iberia"))


def test_a_plague_marker_on_sunken_atlantis_stays_and_counts() -> None:
    """Rulebook l. 55 lists what sinking does: "уничтожьте все войска … изгоните всех богов … уничтожьте любые
    храмы … и закройте Атлантиду специальным маркером" — plague markers are not named, so one stays under the
    sunken-Atlantis marker; l. 31: "5 маркеров чумы" in all, so it still counts among the five and *The Gods
    Forsake Us* ("Place the fifth plague marker") has no marker left once four others are out."""
    g = game()
    put(g, "Gaul", 0, 5, gods=["death"])
    for t in ("Hesperide", "Thule", "Egypt", "Sheba"):
        g.s.terr[t].plague = True
    give(g, 0, "the_sea_is_your_tomb")
    play(g, 0, "the_sea_is_your_tomb")
    assert g.s.terr["Hesperide"].plague and "Hesperide" in ATLANTIS
    assert g._target_args(0, CARDS["the_gods_forsake_us"], None, True) != []  # the fifth is free
    g.s.terr["Rus"].plague = True
    assert g._target_args(0, CARDS["the_gods_forsake_us"], None, True) == []


# ---- 7. texts ------------------------------------------------------------------------------------
def test_a_card_moving_a_god_names_it_and_credits_the_cards_player() -> None:
    """*The Mighty Turn Meek* is a Sky card the defender plays ("Sky cards: only in a Sky window"): the line
    names the defender, and the god, and says nothing of armies (the card moves none)."""
    g = attacked("the_mighty_turn_meek", ("war",), temple_at="Egypt")
    events = play(g, 1, "the_mighty_turn_meek", god="war", to="Egypt")
    moved = next(e for e in events if e["type"] == "card_moved")
    assert moved["seat"] == 1 and moved["owner"] == 0
    g.s.players[0].pantheon = pid = sorted(data.PANTHEONS)[0]
    for lang in ("ru", "en"):
        text = g.event_text(moved, lang)
        assert text is not None and text.startswith(g._who(1, lang))
        assert data.PANTHEONS[pid].gods["war"][lang] in text and data.GOD_KIND_NAMES["war"][lang] in text
        assert "0" not in text.replace(g._who(1, lang), "")


def test_relic_texts_name_the_map_territories() -> None:
    """The relics' "+1 point at the end if you control <territory>" uses the map's own name in each language
    (the Russian map says Египет, Англия, Греция, Туле, Вавилон)."""
    relics = [c for c in CARDS.values() if c.deck == "magic" and getattr(c, "territory", None)]
    assert {c.territory for c in relics} == {"Egypt", "Anglia", "Graecia", "Thule", "Babylon"}
    for c in relics:
        for lang in ("ru", "en"):
            assert data.TERRITORIES[c.territory].name[lang] in c.text[lang], (c.id, lang)
    assert not any(latin in c.text["ru"] for c in CARDS.values() for latin in ("Egypt", "Anglia", "Graecia",
                                                                              "Thule", "Babylon"))


def test_stonehenge_lowers_the_buying_price_not_the_play_cost() -> None:
    """*Stonehenge*: "You buy miracle cards for 1 faith each instead of 2" — a card played still costs its own
    price."""
    assert "buy" in CARDS["stonehenge"].text["en"] and "покупаете" in CARDS["stonehenge"].text["ru"]
    g = game(step="cards")
    put(g, "Gaul", 0, 5, gods=["war", "death"])
    give(g, 0, "stonehenge")
    g.apply(0, {"type": "buy_cards", "deck": "war", "count": 2})
    assert g.s.players[0].faith == 10 - 2
    g = game()
    put(g, "Gaul", 0, 5, gods=["death"])
    put(g, "Roma", 1, 2)
    give(g, 0, "stonehenge")
    give(g, 0, "crops_wither")
    give(g, 1, "heroes_are_born")
    play(g, 0, "crops_wither", seat=1)
    assert g.s.players[0].faith == 10 - CARDS["crops_wither"].cost == 8


def test_the_dead_walk_leaves_an_army_in_the_space() -> None:
    """*The Dead Walk*: "… at least 1 army stays in the space"."""
    assert "at least 1 army stays" in CARDS["the_dead_walk"].text["en"]
    assert "хотя бы 1 армия остаётся" in CARDS["the_dead_walk"].text["ru"]
    g = game()
    put(g, "Gaul", 0, 5, gods=["death"], temple=True)
    sp = board.CRYPTS[0]
    g.s.uw[sp].owner, g.s.uw[sp].armies = 0, 4
    g.s.players[0].supply += 4
    give(g, 0, "the_dead_walk")
    with pytest.raises(IllegalAction):
        play(g, 0, "the_dead_walk", space=sp, to="Gaul", count=4)
    play(g, 0, "the_dead_walk", space=sp, to="Gaul", count=3)
    assert g.s.uw[sp].armies == 1


def test_crops_wither_aims_at_another_player_with_cards() -> None:
    """*Crops Wither*: "Choose another player with miracle cards in hand"."""
    g = game()
    put(g, "Gaul", 0, 5, gods=["death"])
    put(g, "Roma", 1, 2)
    give(g, 0, "crops_wither")
    give(g, 0, "heroes_are_born")
    give(g, 1, "storms_rage")
    assert [a["seat"] for a in offered(g, 0, "crops_wither")] == [1]


def test_the_tree_of_life_in_battle_on_ancient_earth_only() -> None:
    """*The Tree of Life*: "In a battle on Ancient Earth, each defending army you would lose costs 1 faith
    instead (automatically, while your faith lasts)" — a card's destruction is no battle."""
    text = CARDS["tree_of_life"].text
    assert "battle on Ancient Earth" in text["en"] and "битве на Древней Земле" in text["ru"]
    g = game()
    put(g, "Gaul", 0, 5, gods=["death"], temple=True)
    put(g, "Roma", 1, 3, temple=True)
    give(g, 1, "tree_of_life")
    give(g, 0, "fire_rains_down")
    play(g, 0, "fire_rains_down", territory="Roma")
    assert g.s.terr["Roma"].armies == 2 and g.s.players[1].faith == 10
    g = game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    give(g, 1, "tree_of_life")
    g.s.players[1].faith = 1
    script(g, [6, 6, 6, 1, 1])
    g.apply(0, ATTACK)
    assert g.s.terr["Iberia"].armies == 2 and g.s.players[1].faith == 0  # one army spared, while faith lasted


def test_faith_shall_deliver_two_decks_read() -> None:
    """*Faith Shall Deliver*: "Draw 2 cards from any miracle decks: both from one deck or one from each of two;
    you need not have their gods" — with only the war god on the board, both from Sky, or one Death and one Sky."""
    g = game()
    put(g, "Gaul", 0, 5, gods=["war"])
    give(g, 0, "faith_shall_deliver")
    pairs = {(a["deck"], a["deck2"]) for a in offered(g, 0, "faith_shall_deliver")}
    assert ("sky", "sky") in pairs and ("sky", "death") in pairs
    before = len(g.s.mir.piles["sky"])
    play(g, 0, "faith_shall_deliver", deck="sky", deck2="sky")
    assert len(g.s.mir.piles["sky"]) == before - 2 and g.s.players[0].cards["sky"] == 2
