"""Godstorm's turn structure as the platform reads it (issue 24): ``open_decisions()`` names the seats and
the kind of decision the rulebook gives the floor to, and a decision's key changes exactly when a seat
that is still deciding faces a new decision of the same kind (so the platform prompts it again).

Expected values come from ``../shared/rules/risk-godstorm.ru.txt`` (quoted at each test)."""

from __future__ import annotations

import json

from bot.games.decision import OpenDecision, newly_open
from bot.games.godstorm import Godstorm
from bot.games.godstorm.choices import DEFEND_WINDOW_S
from bot.games.godstorm.scenario import put, scenario, script
from tests.godstorm.miracle_kit import game, give


def _kinds(g: Godstorm) -> list[tuple[str, tuple[int, ...]]]:
    return [(d.kind, d.seats) for d in g.open_decisions()]


def _bidding(players: int = 3) -> Godstorm:
    """The first epoch's bids: a scenario turn turned into the bidding that comes before the turns."""
    g = scenario(players=players)
    s = g.s
    s.phase, s.step, s.current, s.turn_order, s.pick_queue = "bid", "bid", None, [], []
    for p in s.players:
        p.bid = None
    return g


# «Тайно выберите сколько вы хотите показать ... Игроки одновременно показывают свои жертвы на порядок хода.»
def test_the_bid_is_one_secret_simultaneous_decision_of_every_seat() -> None:
    g = _bidding(3)
    [bid] = g.open_decisions()
    assert (bid.kind, bid.seats, bid.simultaneous, bid.secret) == ("bid", (0, 1, 2), True, True)
    before = g.open_decisions()
    g.apply(1, {"type": "bid", "faith": 3})
    after = g.open_decisions()
    assert _kinds(g) == [("bid", (0, 2))]  # a seat that has bid waits for the others
    assert newly_open(before, after) == set()  # nobody faces a new decision
    assert g.is_secret(1, {"type": "bid", "faith": 4})  # its bid stays hidden until all are shown


# «Игрок кто пожертвовал большее количество веры выбирает себе жетон порядка хода, затем тоже самое делает
# следующий игрок, и так далее.»
def test_after_the_bids_the_highest_bidder_alone_picks_a_place() -> None:
    g = _bidding(3)
    for seat, faith in ((0, 1), (1, 5), (2, 3)):
        g.apply(seat, {"type": "bid", "faith": faith})
    [pick] = g.open_decisions()
    assert (pick.kind, pick.seats, pick.simultaneous, pick.secret) == ("pick_order", (1,), False, False)
    g.apply(1, {"type": "pick_order", "position": 1})
    assert _kinds(g) == [("pick_order", (2,))]


# «Первым вы (нападающий) и затем ваш оппонент (защитник), заявляют сколько кубов будет брошено.»
def test_the_defender_who_asked_declares_dice_after_the_attacker_in_a_short_window() -> None:
    g = scenario()
    put(g, "Gaul", 0, 10)
    put(g, "Iberia", 2, 6)
    g.s.dice_pref = {"2": "ask"}
    assert _kinds(g) == [("turn", (0,))]
    script(g, [6, 6, 6, 1] * 6)
    before = g.open_decisions()
    g.apply(0, {"type": "attack_until", "from": "Gaul", "to": "Iberia", "dice": 3, "stop_at": 1})
    [ask] = g.open_decisions()
    assert (ask.kind, ask.seats, ask.deadline_s) == ("defend", (2,), DEFEND_WINDOW_S)
    assert newly_open(before, [ask]) == {2}
    # a standing preference of a third seat leaves the decision as it is
    g.apply(1, {"type": "dice_pref", "pref": "one"})
    assert g.open_decisions() == [ask]
    # the defender answers; the attack goes on and asks again before the next roll: a new decision
    g.apply(2, {"type": "defend", "dice": 1})
    [again] = g.open_decisions()
    assert (again.kind, again.seats) == ("defend", (2,)) and again.key != ask.key
    assert newly_open([ask], [again]) == {2}


# «Карты неба ... играют в ответ на атаку другого игрока. Когда игрок объявляет атаку ... вы можете сыграть 1
# или больше карт неба»
def test_a_sky_answer_is_the_defenders_window_with_the_games_answer_time() -> None:
    g = game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    give(g, 1, "enemies_convert")
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    [window] = g.open_decisions()
    assert (window.kind, window.seats, window.secret) == ("answer", (1,), False)
    assert window.deadline_s == g.s.mir.answer_s == 180
    assert g.timeout_action(1) == {"type": "no_answer"}


# «Перед всеми атаками солдат, каждый оппонент выбирает бога, вовлеченного в битву, начиная с атакующего
# игрока.»
def test_a_godswar_asks_the_attacker_then_the_defender_for_a_champion() -> None:
    g = scenario()
    put(g, "Gaul", 0, 8, gods=["war", "sky"])
    put(g, "Iberia", 2, 3, gods=["magic", "death"])
    g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    [att] = g.open_decisions()
    assert (att.kind, att.seats) == ("battle", (0,))
    g.apply(0, {"type": "champion", "god": "war"})
    [dfd] = g.open_decisions()
    assert (dfd.kind, dfd.seats) == ("battle", (2,)) and dfd.key != att.key
    assert newly_open([att], [dfd]) == {2}


def test_open_decisions_survive_the_store() -> None:
    """The record the platform stores reads back the same, and a reloaded game opens the same decisions."""
    g = _bidding(3)
    stored = [d.to_json() for d in g.open_decisions()]
    assert [OpenDecision.from_json(json.loads(json.dumps(d))) for d in stored] == g.open_decisions()
    again = Godstorm.from_json(json.loads(g.to_json_text()))
    assert again.open_decisions() == g.open_decisions()


def test_no_decision_once_the_game_is_over() -> None:
    g = scenario()
    g.s.phase, g.s.outcome = "over", {"winners": [0], "draw": False}
    assert g.open_decisions() == [] and g.actors() == []
