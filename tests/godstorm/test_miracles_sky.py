"""Sky cards and the response windows (Sky answers to an attack, the Aegis against any card played).

Rulebook: "Карты неба играют при объявлении вторжения после того как атакующий объявит сколько армий и
богов будут участвовать во вторжении. Эти чудеса происходят, как только карты была сыграна." and "После
объявления наступления вы должны провести атаку хотя бы единожды прежде чем отозвать наступающих".
Seat 0 attacks Iberia (seat 1, 3 armies) from Gaul (6 armies); seat 1's sky god stands in Atlas.
"""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.godstorm import board
from tests.godstorm.miracle_kit import game, give, play, put, script

ATTACK = {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3}


def attacked(*cards: str, keep_open: bool = True, gaul_gods: tuple[str, ...] = ()):
    g = game(step="invade")
    put(g, "Gaul", 0, 6, gods=list(gaul_gods))
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    for c in cards:
        give(g, 1, c)
    if keep_open:
        give(g, 1, "men_become_warriors")  # a second Sky card keeps the window open after the first
    g.apply(0, ATTACK)
    return g


def test_window_opens_for_the_defender_before_any_roll() -> None:
    g = attacked("enemies_convert")
    assert g.decision() == "answer" and g.actors() == [1]
    assert g.s.terr["Gaul"].armies == 6 and g.s.terr["Iberia"].armies == 3  # nothing rolled yet
    assert g.view(0)["miracles"]["window"]["kind"] == "sky" and g.view(0)["miracles"]["window"]["seat"] == 1
    assert g.timeout_action(1) == {"type": "no_answer"}
    assert g.forced_timeout() == g.s.mir.answer_s == 180
    legal = g.legal_actions(1)
    assert {"type": "no_answer"} in legal and {"type": "no_answer", "never": True} in legal
    assert all(a["type"] in ("play_card", "no_answer") for a in legal)


def test_no_answer_lets_the_attack_roll_at_once() -> None:
    g = attacked("enemies_convert")
    script(g, [6, 6, 6, 1, 1])
    events = g.apply(1, {"type": "no_answer"})
    assert [e["type"] for e in events].count("roll") == 1
    assert g.s.terr["Iberia"].armies == 1 and g.decision() == "turn"
    # the same invasion's next roll opens no new window
    script(g, [6, 6, 6, 1])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    assert g.decision() == "move_in" and g.s.terr["Iberia"].armies == 0


def test_no_window_without_sky_card_or_with_the_never_preference() -> None:
    g = game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    script(g, [1, 1, 1, 6, 6])
    g.apply(0, ATTACK)  # seat 1 holds no Sky card: the roll happens at once
    assert g.decision() == "turn" and g.s.terr["Gaul"].armies == 4
    g2 = game(step="invade")
    put(g2, "Gaul", 0, 6)
    put(g2, "Iberia", 1, 3)
    put(g2, "Atlas", 1, 5, gods=["sky"])
    give(g2, 1, "men_become_warriors")
    g2.s.mir.never[1] = True
    script(g2, [1, 1, 1, 6, 6])
    g2.apply(0, ATTACK)
    assert g2.decision() == "turn" and g2.s.terr["Gaul"].armies == 4


def test_never_answer_from_the_window_is_remembered() -> None:
    g = attacked("enemies_convert")
    events = g.apply(1, {"type": "no_answer", "never": True})
    assert g.s.mir.never[1] and any(e["type"] == "answer_pref" and e["to"] == [1] for e in events)
    assert g.view(1)["me"]["never_answer"] is True and g.view(0)["me"]["never_answer"] is False


def test_answer_pref_action_in_own_turn() -> None:
    g = game(step="cards")
    put(g, "Gaul", 0, 3, gods=["war"])
    # a standing preference (issue 10): offered any time, beside the turn's choices rather than among them
    assert {"type": "answer_pref", "never": True} in g.standing_actions(0)
    assert not any(a["type"] == "answer_pref" for a in g.legal_actions(0))
    g.apply(0, {"type": "answer_pref", "never": True})
    assert g.s.mir.never[0]


def test_sky_cards_are_not_played_in_own_turn() -> None:
    g = game()
    put(g, "Gaul", 0, 3, gods=["sky"])
    give(g, 0, "men_become_warriors")
    with pytest.raises(IllegalAction):
        play(g, 0, "men_become_warriors")


def test_enemies_convert() -> None:
    """"Destroy 2 armies in the attacking territory (they do not go to the Underworld) and gain 2 armies in
    the defending territory.\""""
    g = attacked("enemies_convert")
    play(g, 1, "enemies_convert")
    assert g.s.terr["Gaul"].armies == 4 and g.s.terr["Iberia"].armies == 5
    assert g.s.players[0].heaven == 0 and g.s.players[0].reserve == 2
    assert g.s.players[1].faith == 10 - 2


def test_your_idol_is_false() -> None:
    """"Banish a god of your choice from the attacking territory (any god there, one held back from the attack
    too).\""""
    g = attacked("your_idol_is_false", gaul_gods=("war", "magic"))
    play(g, 1, "your_idol_is_false", god="war")
    assert g.s.terr["Gaul"].gods == ["magic"]


def test_the_fog_lifts() -> None:
    """"Move up to 4 of your armies from one of your territories into the defending territory.\""""
    g = attacked("the_fog_lifts")
    with pytest.raises(IllegalAction):
        play(g, 1, "the_fog_lifts", **{"from": "Atlas", "count": 5})
    play(g, 1, "the_fog_lifts", **{"from": "Atlas", "count": 4})
    assert g.s.terr["Atlas"].armies == 1 and g.s.terr["Iberia"].armies == 7


def test_the_mighty_turn_meek() -> None:
    """"Only if the attacker controls a temple: move a god from the attacking territory to a territory with a
    temple the attacker controls.\""""
    g = attacked("the_mighty_turn_meek", gaul_gods=("war",))
    assert not any(a.get("card") == "the_mighty_turn_meek" for a in g.legal_actions(1))  # no temple yet
    g2 = game(step="invade")
    put(g2, "Gaul", 0, 6, gods=["war"])
    put(g2, "Egypt", 0, 2, temple=True)
    put(g2, "Iberia", 1, 3)
    put(g2, "Atlas", 1, 5, gods=["sky"])
    give(g2, 1, "the_mighty_turn_meek")
    give(g2, 1, "men_become_warriors")
    g2.apply(0, ATTACK)
    play(g2, 1, "the_mighty_turn_meek", god="war", to="Egypt")
    assert g2.s.terr["Gaul"].gods == [] and g2.s.terr["Egypt"].gods == ["war"]


def test_fire_sears_the_sky() -> None:
    """"+4 to your godswar results until the end of this turn.\""""
    g = attacked("fire_sears_the_sky")
    play(g, 1, "fire_sears_the_sky")
    assert g._godswar_bonus(1) == 4 and g._godswar_bonus(0) == 0
    g.apply(1, {"type": "no_answer"})
    g.apply(0, {"type": "end_turn"})
    assert g._godswar_bonus(1) == 0  # the next turn has begun


def test_fire_sears_the_sky_counts_in_the_godswar_total() -> None:
    g = attacked("fire_sears_the_sky", gaul_gods=("war",))
    g.s.terr["Iberia"].gods = ["magic"]
    play(g, 1, "fire_sears_the_sky")
    script(g, [3, 3, 3, 2, 2, 2, 6, 6, 6, 1, 1])
    events = g.apply(1, {"type": "no_answer"})
    gw = next(e for e in events if e["type"] == "godswar")
    assert gw["def_total"] == sum(gw["def_dice"]) + 3 + 4


def test_swords_become_plowshares() -> None:
    """"Roll 1 die; destroy that many armies in the attacking territory (they do not go to the Underworld).\""""
    g = attacked("swords_become_plowshares")
    script(g, [4])
    play(g, 1, "swords_become_plowshares")
    assert g.s.terr["Gaul"].armies == 2 and g.s.players[0].reserve == 4 and g.s.players[0].heaven == 0


def test_thousand_workers_amass() -> None:
    """"Place a temple in the defending territory.\""""
    g = attacked("thousand_workers_amass")
    play(g, 1, "thousand_workers_amass")
    assert g.s.terr["Iberia"].temple


def test_men_become_warriors() -> None:
    """"Gain 3 armies in the defending territory.\""""
    g = attacked("men_become_warriors")
    play(g, 1, "men_become_warriors")
    assert g.s.terr["Iberia"].armies == 6


def test_lava_erupts() -> None:
    """"For the attacking territory and each territory adjacent to it (the defending one too), roll 1 die and
    destroy that many armies there.\""""
    g = attacked("lava_erupts")
    for t in board.NEIGHBOURS["Gaul"]:
        if t != "Iberia":
            put(g, t, 2, 5)
    script(g, [1, 2, 2, 2, 2])  # Gaul first, then its neighbours in name order
    play(g, 1, "lava_erupts")
    assert g.s.terr["Gaul"].armies == 5
    for t in board.NEIGHBOURS["Gaul"]:
        assert g.s.terr[t].armies == (1 if t == "Iberia" else 3), t


def test_this_ground_is_sacred() -> None:
    """"Stop this invasion; the defending territory cannot be attacked again this turn.\""""
    g = attacked("this_ground_is_sacred")
    events = play(g, 1, "this_ground_is_sacred")
    assert not any(e["type"] == "roll" for e in events)
    assert g.decision() == "turn" and g.s.terr["Gaul"].armies == 6 and g.s.terr["Iberia"].armies == 3
    assert not any(a.get("to") == "Iberia" for a in g.legal_actions(0))
    with pytest.raises(IllegalAction):
        g.apply(0, ATTACK)


def test_several_sky_cards_then_the_attack_rolls_once() -> None:
    g = attacked("men_become_warriors", keep_open=False)
    give(g, 1, "fire_sears_the_sky")
    play(g, 1, "men_become_warriors")
    assert g.decision() == "answer"  # one more Sky card may follow
    script(g, [6, 6, 6, 1, 1])
    events = play(g, 1, "fire_sears_the_sky")
    assert [e["type"] for e in events].count("roll") == 1  # no card left: the window closes, the attack rolls
    assert g.s.terr["Iberia"].armies == 6 - 2


def test_attack_called_off_when_the_attackers_cannot_roll() -> None:
    g = attacked("swords_become_plowshares", keep_open=False)
    script(g, [5])
    events = play(g, 1, "swords_become_plowshares")
    assert any(e["type"] == "attack_called_off" for e in events) and g.s.terr["Gaul"].armies == 1


def test_attack_until_waits_and_then_runs() -> None:
    g = game(step="invade")
    put(g, "Gaul", 0, 10)
    put(g, "Iberia", 1, 2)
    put(g, "Atlas", 1, 5, gods=["sky"])
    give(g, 1, "men_become_warriors")
    g.apply(0, {"type": "attack_until", "from": "Gaul", "to": "Iberia", "dice": 3, "stop_at": 1})
    assert g.decision() == "answer"
    events = play(g, 1, "men_become_warriors")
    assert [e["type"] for e in events].count("roll") >= 1
    assert g.decision() == "move_in" or g.s.terr["Gaul"].armies == 1


# ---- Aegis --------------------------------------------------------------------------------
def aegis_game():
    g = game()
    put(g, "Gaul", 0, 5, gods=["war"])
    put(g, "Roma", 1, 2)
    give(g, 1, "aegis")
    give(g, 0, "heroes_are_born")
    give(g, 0, "storms_rage")
    play(g, 0, "heroes_are_born", territory="Gaul")
    return g


def test_aegis_window_opens_on_any_card_played() -> None:
    """Aegis: "Discard it to cancel a miracle card just played. Relics cannot be cancelled.\""""
    g = aegis_game()
    assert g.decision() == "answer" and g.actors() == [1]
    assert g.legal_actions(1)[0] == {"type": "cancel_card"}
    assert g.s.terr["Gaul"].armies == 5  # waiting
    assert g.timeout_action(1) == {"type": "no_answer"}


def test_aegis_cancels() -> None:
    g = aegis_game()
    g.apply(1, {"type": "cancel_card"})
    assert g.s.terr["Gaul"].armies == 5 and g.s.mir.relics[1] == []
    assert any(c.startswith("heroes_are_born") for c in g.s.mir.gone) and any(c.startswith("aegis") for c in g.s.mir.gone)
    assert g.decision() == "turn"


def test_aegis_not_used() -> None:
    g = aegis_game()
    g.apply(1, {"type": "no_answer"})
    assert g.s.terr["Gaul"].armies == 8 and len(g.s.mir.relics[1]) == 1


def test_aegis_against_a_sky_card() -> None:
    g = attacked("men_become_warriors")
    give(g, 0, "aegis")
    play(g, 1, "men_become_warriors")
    assert g.actors() == [0] and g.view(None)["miracles"]["window"]["kind"] == "aegis"
    g.apply(0, {"type": "cancel_card"})
    assert g.s.terr["Iberia"].armies == 3 and g.actors() == [1]  # back to the defender's Sky window
