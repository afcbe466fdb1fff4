"""Obtaining and timing of the miracle cards, the relics, scoring and the stored state's version.

Rulebook quotes (``shared/rules/risk-godstorm.ru.txt``):
- "Иметь соответствующего бога в игре и пожертвовать 2 жетона веры."
- "Вы не можете купить больше 4 карт чудес в ход ... Карты, полученные за выполнение заданий, не учитываются.
  Как только колода чудес опустела, карты этого типа не могут быть получены. Чтение карт производится только
  после всей покупки карт в ход. Количество и типы карт чудес у игроков – открытая информация."
- "Чтобы сыграть карту чуда вы должны пожертвовать соответствующее количество веры, указанное на карте чуда и
  иметь соответствующего бога в игре."
- "Если богиня магии покидает игру, все реликвии остаются в игре."
- "Добавьте 1 очко к вашему счету за каждую реликвию с территориальным бонусом который вы имеете если вы
  контролируете эту территорию"
"""

from __future__ import annotations

import json

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import Godstorm, board
from bot.games.godstorm.epoch import score_of, tiebreak_key
from bot.games.godstorm.miracles import CARDS, card_of
from tests.godstorm.miracle_kit import game, give, play, put, script


def test_the_card_data() -> None:
    """66 cards: War 17, Magic 15 (relics), Sky 17, Death 17, each with ru and en name and text."""
    sizes: dict[str, int] = {}
    for c in CARDS.values():
        sizes[c.deck] = sizes.get(c.deck, 0) + c.copies
        assert c.name["ru"] and c.name["en"] and c.text["ru"] and c.text["en"]
        assert (c.deck == "magic") == (c.timing == "relic") == bool(c.relic)
    assert sizes == {"war": 17, "magic": 15, "sky": 17, "death": 17}
    assert {c.territory for c in CARDS.values() if c.territory} == {"Anglia", "Thule", "Babylon", "Graecia", "Egypt"}


# ---- obtaining ----------------------------------------------------------------------------
def buying(faith: int = 10):
    g = game(step="cards")
    put(g, "Gaul", 0, 3, gods=["war", "magic"])
    g.s.players[0].faith = faith
    return g


def test_buying_costs_two_and_cards_are_read_after_all_purchases() -> None:
    g = buying()
    events = g.apply(0, {"type": "buy_cards", "deck": "war", "count": 2})
    assert g.s.players[0].faith == 6 and g.s.players[0].cards["war"] == 2
    assert g.s.mir.hands[0] == [] and len(g.s.mir.unread[0]) == 2  # not read yet
    assert not any("card" in e for e in events)
    g.apply(0, {"type": "buy_cards", "deck": "magic", "count": 1})
    assert g.s.mir.relics[0] == []
    events = g.apply(0, {"type": "end_step"})
    read = next(e for e in events if e["type"] == "cards_read")
    assert read["to"] == [0] and len(read["cards"]) == 2 and len(g.s.mir.hands[0]) == 2
    assert len(g.s.mir.relics[0]) == 1 and g.s.players[0].cards == {"war": 2, "magic": 0, "sky": 0, "death": 0}


def test_at_most_four_a_turn_and_only_with_the_god() -> None:
    g = buying(20)
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "buy_cards", "deck": "sky", "count": 1})  # no sky god on the board
    g.apply(0, {"type": "buy_cards", "deck": "war", "count": 3})
    assert {a.get("count") for a in g.legal_actions(0) if a["type"] == "buy_cards"} == {1}
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "buy_cards", "deck": "war", "count": 2})
    g.apply(0, {"type": "buy_cards", "deck": "magic", "count": 1})
    assert not any(a["type"] == "buy_cards" for a in g.legal_actions(0)) and g.s.players[0].faith == 12


def test_stonehenge_costs_one() -> None:
    """Stonehenge: "You buy miracle cards for 1 faith each instead of 2.\""""
    g = buying()
    give(g, 0, "stonehenge")
    g.apply(0, {"type": "buy_cards", "deck": "war", "count": 4})
    assert g.s.players[0].faith == 6


def test_an_empty_deck_is_never_refilled() -> None:
    g = buying()
    m = g.s.mir
    m.gone.extend(m.piles["war"])
    m.piles["war"] = []
    g._sync(0)
    assert not any(a.get("deck") == "war" for a in g.legal_actions(0))
    assert not g._draw_miracle(0, "war", "labour")
    assert m.piles["war"] == []


def test_war_labour_once_a_turn() -> None:
    """"если вы захватили 3 или больше территорий ... возьмите карту войны. Вы не можете получить больше 1
    карты войны в ход таким способом.\""""
    g = game(step="invade")
    put(g, "Gaul", 0, 30, gods=["war"])
    for t in ("Iberia", "Alemannia", "Liguria", "Anglia"):
        put(g, t, 1, 1)
    for t in ("Iberia", "Alemannia", "Liguria", "Anglia"):
        script(g, [6, 6, 6, 1])
        g.apply(0, {"type": "attack", "from": "Gaul", "to": t, "dice": 3})
        if g.s.move is not None:
            g.apply(0, {"type": "move_in", "count": 3})
        g.s.terr["Gaul"].gods = ["war"]
    assert g.s.turn.conquered == 4 and len(g.s.mir.hands[0]) == 1
    assert card_of(g.s.mir.hands[0][0]).deck == "war"


def test_magic_triple_puts_a_relic_in_play() -> None:
    """"Вы получаете одну из этих карт каждый раз, когда при броске кубиков выбрасываете ... 3 одинаковых
    числа ... если ваша богиня магии в игре\" (and relics enter play at once)."""
    g = game(step="invade")
    put(g, "Gaul", 0, 5)
    put(g, "Anglia", 0, 2, gods=["magic"])
    put(g, "Iberia", 1, 5)
    script(g, [4, 4, 4, 5, 5])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert len(g.s.mir.relics[0]) == 1 and g.s.players[0].cards["magic"] == 0 and len(g.s.mir.piles["magic"]) == 14


def test_death_labour_at_the_end_of_the_turn() -> None:
    g = game(step="fortify")
    put(g, "Gaul", 0, 5, gods=["death"])
    g.s.uw[board.CRYPTS[0]].owner, g.s.uw[board.CRYPTS[0]].armies = 0, 1
    g.s.players[0].supply += 1
    g.apply(0, {"type": "end_turn"})
    assert [card_of(c).deck for c in g.s.mir.hands[0]] == ["death"]


def test_cards_are_private_and_counts_public() -> None:
    g = game()
    put(g, "Gaul", 0, 5)
    put(g, "Roma", 1, 5)
    inst = give(g, 1, "heroes_are_born")
    relic = give(g, 1, "excalibur")
    public, other, own = g.view(None), g.view(0), g.view(1)
    assert own["me"]["miracles"] == [inst]
    assert inst not in json.dumps(public) and inst not in json.dumps(other)
    assert other["players"][1]["cards"]["war"] == 1 and public["players"][1]["relics"] == [relic]
    assert g.private_text(1, "en") and inst.split(".")[0] not in "".join(g.status_lines("en"))


def test_eliminated_players_cards_leave_the_game() -> None:
    g = game(step="invade")
    put(g, "Gaul", 0, 10)
    put(g, "Iberia", 1, 1)
    cards = [give(g, 1, "heroes_are_born"), give(g, 1, "excalibur")]
    script(g, [6, 6, 6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    if g.s.move is not None:
        g.apply(0, {"type": "move_in", "count": 3})
    assert g.s.players[1].eliminated and all(c in g.s.mir.gone for c in cards)


# ---- timing -------------------------------------------------------------------------------
def test_war_cards_only_in_the_play_step_with_the_god_and_the_faith() -> None:
    g = game(step="gods")
    put(g, "Gaul", 0, 5)
    give(g, 0, "the_siren_calls")
    give(g, 0, "heroes_are_born")
    with pytest.raises(IllegalAction):
        play(g, 0, "heroes_are_born", territory="Gaul")  # not the play step
    g.s.step = "miracle"
    with pytest.raises(IllegalAction):
        play(g, 0, "heroes_are_born", territory="Gaul")  # no war god
    g.s.terr["Gaul"].gods = ["war"]
    put(g, "Roma", 1, 5)
    put(g, "Egypt", 1, 2)
    g.s.players[0].faith = 2
    with pytest.raises(IllegalAction):
        play(g, 0, "the_siren_calls", a="Egypt", b="Roma")  # costs 3
    before = g.to_json()
    assert Godstorm.from_json(before).to_json() == before


def test_several_cards_each_resolved_before_the_next() -> None:
    g = game()
    put(g, "Gaul", 0, 5, gods=["war"], temple=True)
    give(g, 0, "heroes_are_born")
    give(g, 0, "our_faith_is_our_strength")
    give(g, 0, "the_faithful_gather")
    play(g, 0, "heroes_are_born", territory="Gaul")
    assert g.s.terr["Gaul"].armies == 8 and g.s.step == "miracle"
    play(g, 0, "the_faithful_gather")
    assert g.s.terr["Gaul"].armies == 10
    play(g, 0, "our_faith_is_our_strength")
    assert g.s.players[0].faith == 12 and len(g.s.mir.gone) == 3


def test_miracles_do_not_reach_the_underworld() -> None:
    """"Карты чудес не действуют на Подземный Мир, если только карта не говорит обратного\""""
    g = game()
    put(g, "Gaul", 0, 5, gods=["war"])
    sp = board.SPACE_IDS[0]
    g.s.uw[sp].owner, g.s.uw[sp].armies = 1, 5
    give(g, 0, "storms_rage")
    assert not any(a.get("territory") == sp for a in g.legal_actions(0))
    with pytest.raises(IllegalAction):
        play(g, 0, "storms_rage", territory=sp)


# ---- relics -------------------------------------------------------------------------------
def next_turn_of_seat_1(relic: str, territories: tuple[str, ...] = ("Roma",)):
    g = game(step="fortify")
    put(g, "Gaul", 0, 3)
    for t in territories:
        put(g, t, 1, 2)
    inst = give(g, 1, relic)
    return g, inst


@pytest.mark.parametrize(("relic", "deck"), [("golden_fleece", "war"), ("arawns_cauldron", "death"),
                                             ("great_pyramids", "sky")])
def test_relics_drawing_a_card_each_turn(relic: str, deck: str) -> None:
    """"Draw a War/Death/Sky card at the start of each of your turns.\""""
    g, _ = next_turn_of_seat_1(relic)
    events = g.apply(0, {"type": "end_turn"})
    assert g.s.current == 1 and [card_of(c).deck for c in g.s.mir.hands[1]] == [deck]
    assert any(e["type"] == "card_private" and e["to"] == [1] for e in events)


def test_wine_of_eternal_life() -> None:
    """"+1 army at the start of each of your turns" (reference income for 1 territory: 3)."""
    g, _ = next_turn_of_seat_1("wine_of_eternal_life")
    g.apply(0, {"type": "end_turn"})
    assert g.s.pending == 3 + 1


def test_freyas_tears() -> None:
    """"+1 faith at the start of each of your turns.\""""
    g, _ = next_turn_of_seat_1("freyas_tears")
    g.apply(0, {"type": "end_turn"})
    assert g.s.players[1].faith == 10 + 3 + 1


def test_excalibur() -> None:
    """"+2 armies for each continent you control at the start of each of your turns" (Hyrkania: bonus 2)."""
    g, _ = next_turn_of_seat_1("excalibur", board.CONTINENTS["hyrkania"])
    g.apply(0, {"type": "end_turn"})
    assert g.s.pending == 3 + 2 + 2


def test_pandoras_box() -> None:
    """"At the start of each of your turns, draw a Death card and play it at once at no faith cost (no death
    god needed).\""""
    g, _ = next_turn_of_seat_1("pandoras_box")
    pile = g.s.mir.piles["death"]
    young = next(i for i in pile if i.startswith("the_young_grow_old"))
    pile.remove(young)
    pile.insert(0, young)
    g.apply(0, {"type": "end_turn"})
    assert g.legal_actions(1) == [{"type": "play_card", "card": "the_young_grow_old"}, {"type": "end_turn"}]
    with pytest.raises(IllegalAction):
        g.apply(1, {"type": "place", "territory": "Roma", "count": 1})
    play(g, 1, "the_young_grow_old")
    assert g.s.terr["Roma"].armies == 1 and g.s.terr["Gaul"].armies == 2 and g.s.players[1].faith == 13


def test_tablet_of_destiny() -> None:
    """"+3 to your turn-order bid.\""""
    g = game()
    put(g, "Roma", 1, 2)
    give(g, 1, "tablet_of_destiny")
    for seat, bid in ((0, 2), (1, 0), (2, 1)):
        g.s.players[seat].bid = bid
    g._reveal_bids()
    assert g.s.pick_queue[0] == 1 and g.s.players[1].faith == 10


def godswar(relic: str | None, dice: list[int]):
    g = game(step="invade")
    put(g, "Gaul", 0, 4, gods=["war"])
    put(g, "Iberia", 1, 3, gods=["magic"])
    if relic:
        give(g, 0, relic)
    script(g, dice)
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    return g, next(e for e in events if e["type"] == "godswar")


def test_gungnir() -> None:
    """"Re-roll all 1s in godswar.\""""
    _, gw = godswar("gungnir", [1, 1, 5, 3, 4, 2, 2, 2])
    assert 1 not in gw["att_dice"] and sorted(gw["att_dice"]) == [3, 4, 5]


def test_mjolnir() -> None:
    """"+3 to your godswar results.\""""
    _, gw = godswar("mjolnir", [2, 2, 3, 1, 1, 2, 2, 2])
    assert gw["att_total"] == sum(gw["att_dice"]) + 3 + 3  # dice, armies that may attack (4 - 1), Mjolnir


def test_book_of_the_dead() -> None:
    """"Each turn you may raise 2 fewer armies to gain 4 faith.\""""
    g = game(step="raise")
    put(g, "Gaul", 0, 3)
    give(g, 0, "book_of_the_dead")
    g.s.pending = 5
    assert {"type": "book_of_the_dead"} in g.legal_actions(0)
    g.apply(0, {"type": "book_of_the_dead"})
    assert g.s.pending == 3 and g.s.players[0].faith == 14
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "book_of_the_dead"})


def test_tree_of_life() -> None:
    """"Sacrifice 1 faith instead of losing a defending army.\""""
    g = game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    give(g, 1, "tree_of_life")
    script(g, [6, 6, 6, 1, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.s.terr["Iberia"].armies == 3 and g.s.players[1].faith == 8


def test_scales_of_osiris() -> None:
    """"Revive twice as many armies from crypts.\""""
    g = game(step="raise")
    put(g, "Gaul", 0, 3, temple=True)
    sp = board.CRYPTS[0]
    g.s.uw[sp].owner, g.s.uw[sp].armies = 0, 5
    g.s.players[0].supply += 5
    g.s.pending = 3
    give(g, 0, "scales_of_osiris")
    g.apply(0, {"type": "resurrect", "space": sp, "territory": "Gaul"})
    assert g.s.uw[sp].armies == 3 and g.s.terr["Gaul"].armies == 5


def test_relics_survive_the_goddess_and_score() -> None:
    g = game(step="invade")
    put(g, "Anglia", 0, 3, gods=["magic"])
    relic = give(g, 0, "stonehenge")
    g._banish_all("Anglia", "plague")
    assert g.s.mir.relics[0] == [relic]
    assert score_of(g, 0)["relics"] == 1 and score_of(g, 0)["total"] == 1 + 1
    put(g, "Roma", 1, 3)
    put(g, "Egypt", 1, 3)
    assert score_of(g, 1)["total"] == 2 == score_of(g, 0)["total"]
    g.s.players[0].faith = g.s.players[1].faith = 10
    assert tiebreak_key(g, 0)[0] == tiebreak_key(g, 1)[0]
    give(g, 1, "great_pyramids")
    assert score_of(g, 1)["relics"] == 1 and tiebreak_key(g, 1) > tiebreak_key(g, 0)


# ---- stored states ------------------------------------------------------------------------
def test_state_version_and_migration() -> None:
    assert Godstorm.STATE_VERSION == 4  # 3: the rulebook's choices (issue 10); 4: the undo window (issue 27)
    old = {"ruleset": "godstorm", "placement": "random"}
    assert Godstorm.migrate_options(old, 1)["miracles"] == "off"
    assert Godstorm.migrate_options({"miracles": "on"}, 1)["miracles"] == "on"
    g = game()
    data = g.to_json()
    assert Godstorm.migrate_state(data, 2) == data and "miracles" in data
    assert Godstorm.migrate_state(data, 3) == data  # version 4 only adds keys absent when unused
    off = Godstorm.new([{}, {}, {}], {"ruleset": "godstorm", "miracles": "off"}, 5)
    assert "miracles" not in off.to_json() and Godstorm.migrate_state(off.to_json(), 1) == off.to_json()


def test_every_card_has_its_test() -> None:
    """Each of the 57 distinct cards (66 with copies) is played or put in play by a test of its own."""
    from pathlib import Path

    here = Path(__file__).parent
    text = "".join(p.read_text(encoding="utf-8") for p in here.glob("test_miracles_*.py"))
    missing = [cid for cid in CARDS if f'"{cid}"' not in text or (f"def test_{cid}" not in text and
                                                                   f'("{cid}",' not in text)]
    assert missing == []


@pytest.mark.parametrize("bad", [
    {"card": "nope"}, {"card": 3}, {"card": "heroes_are_born"}, {"card": "heroes_are_born", "territory": ["x"]},
    {"card": "eagles_take_wing", "from": "Gaul", "to": "Egypt", "count": 1, "gods": [{"x": 1}]},
    {"card": "eagles_take_wing", "from": ["Gaul"], "to": "Egypt", "count": 1, "gods": []},
    {"card": "eagles_take_wing", "from": "Gaul", "to": "Egypt", "count": "x", "gods": []},
    {"card": "the_mighty_have_fallen", "territories": [1, "Gaul", None]},
    {"card": "faith_shall_deliver", "deck": "war"}, {"card": "the_dead_walk", "space": {}, "to": "Gaul", "count": 1},
])
def test_bad_card_actions_are_refused_and_change_nothing(bad: dict) -> None:
    g = game()
    put(g, "Gaul", 0, 5, gods=["war", "death"])
    put(g, "Egypt", 0, 1)
    for c in ("heroes_are_born", "eagles_take_wing", "the_mighty_have_fallen", "faith_shall_deliver",
              "the_dead_walk"):
        give(g, 0, c)
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "play_card", **bad})
    assert g.to_json() == before
