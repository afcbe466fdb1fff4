"""Plots, utilisation and discards; the turn sequence and the three victory conditions."""

from __future__ import annotations

from bot.games.byallmeans import rules
from bot.games.byallmeans.state import BufferSlot
from tests.byallmeans.bam_helpers import acts, choose, fresh, give, put, uid_of


def test_a_plot_that_cannot_resolve_fully_cannot_be_played() -> None:
    """«карта сюжета говорит, что соперник перемещает три карты своего основного архива в утиль, но в архиве
    соперника менее трех карт, в этом случае данный сюжет не может быть сыгран. Но ничто не мешает этой карте
    играть в комбинациях.»"""
    g = fresh()
    fire = give(g, 0, "P01")  # designed after the example: the rival's top 3 main-archive cards to the utility
    rival = g.s.players[1]
    rival.extra[:0] = rival.main[2:]
    del rival.main[2:]
    assert not [a for a in acts(g, 0, "play") if a["uid"] == fire]
    give(g, 0, "T04")  # number 2: 5 + 2 = 7
    assert [a for a in acts(g, 0, "number") if fire in a["cards"]]
    rival.main.append(rival.extra.pop())
    assert [a for a in acts(g, 0, "play") if a["uid"] == fire]
    g.apply(0, {"type": "play", "uid": fire})
    assert rival.main == [] and fire in g.s.players[0].utility


def test_plot_price_from_hand_or_buffer_then_utility() -> None:
    """«эти карты играют из руки за их полную стоимость или из буфера за уменьшенную стоимость. Карты сюжетов
    после розыгрыша попадают в нейтральную зону, а после выполнения их действия отправляются в утиль.»"""
    g = fresh()
    p = g.s.players[0]
    planned = uid_of(g.s, 0, "P02")  # price 1 / 0
    p.buffer.append(BufferSlot(planned, ["mask"]))
    g.apply(0, {"type": "play", "uid": planned})
    assert p.rep == 6 and planned in p.utility and not p.buffer and not g.s.neutral
    g.apply(0, {"type": "play", "uid": give(g, 0, "P02")})
    assert p.rep == 5


def test_utilisation_is_free() -> None:
    """«Если на карте есть слово «Утилизация», можете сбросить эту карту из руки в утиль и взять карту из
    основного архива, утилизация не является действием.»"""
    g = fresh()
    ball = give(g, 0, "P03")
    top = g.s.players[0].main[-1]
    g.apply(0, {"type": "utilise", "uid": ball})
    assert ball in g.s.players[0].utility and top in g.s.players[0].hand and g.s.turn.main_left == 2


def test_discard_this_card_is_free() -> None:
    """«Если на карте есть словосочетание «Сбросьте эту карту», то ее сброс не является действием в ваш ход.
    Сброс не требует оплаты цены.»"""
    g = fresh()
    hoax = give(g, 0, "P02")
    g.apply(0, {"type": "discard", "uid": hoax})
    assert g.s.players[1].rep == 5 and g.s.players[0].rep == 6 and g.s.turn.main_left == 2


def test_slander_can_cost_an_action_next_turn() -> None:
    """Оклеветать – «Соперник теряет 3 единицы репутации или теряет 1 действие в следующем ходу на его выбор»;
    «не забываем, что терять можно и дополнительное действие»."""
    g = fresh()
    a, b = give(g, 0, "P02"), give(g, 0, "A03")
    pair = [x for x in acts(g, 0, "symbols") if {x["a"].split(":")[1], x["b"].split(":")[1]} == {a, b}][0]
    g.apply(0, pair)
    choose(g, 1)
    assert g.s.players[1].lost_actions == 1
    choose(g, "utility")
    choose(g, "utility")
    put(g, 1, "A01", 0)
    g.apply(0, {"type": "end_turn"})
    assert g.actors() == [1] and sorted(x["v"] for x in g.legal_actions(1)) == ["extra", "main"]
    choose(g, "extra")
    assert g.s.turn.extra_used and g.s.turn.main_left == 2 and g.s.players[1].lost_actions == 0


def test_empty_hand_draws_two_at_the_start_of_the_turn() -> None:
    """«Если в вашей руке на начало вашего хода нет карт, то вы берете две карты из вашего основного архива
    (это не является действием).»"""
    g = fresh()
    g.apply(0, {"type": "end_turn"})
    assert len(g.s.players[1].hand) == 2 and g.s.turn.main_left == 2


def test_empty_main_archive_costs_three_each_turn() -> None:
    """«Если заканчивается основной архив, то в конце каждого вашего хода вы будете терять три единицы
    репутации.»"""
    g = fresh()
    p = g.s.players[0]
    p.extra[:0] = p.main
    p.main.clear()
    g.apply(0, {"type": "end_turn"})
    assert p.rep == 3


def test_end_of_turn_triggers() -> None:
    """«Эффекты, срабатывающие в конце вашего хода (ваши карты)» — the Courier (designed: +1 reputation at the
    end of its controller's turn)."""
    g = fresh()
    put(g, 0, "A04", 0)
    g.apply(0, {"type": "end_turn"})
    assert g.s.players[0].rep == 7
    g.apply(1, {"type": "end_turn"})
    assert g.s.players[0].rep == 7


def test_victory_by_influence_is_checked_at_the_end_of_the_turn() -> None:
    """«Если в момент проверки статуса игры у одного из игроков 10 или более единиц влияния, то он выигрывает
    партию»; the check is step 12 of «Порядок срабатывания эффектов»."""
    g = fresh()
    g.s.players[0].inf = 9
    g.apply(0, {"type": "play", "uid": give(g, 0, "T02"), "cell": 4})
    assert g.s.players[0].inf == 10 and g.outcome() is None
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [0], "draw": False, "reasons": ["influence"]}
    assert g.actors() == [] and g.legal_actions(0) == []


def test_removal_comes_before_the_status_check() -> None:
    """Step 11 («Отправка в утиль территорий, имеющих нулевое или минусовое значение верности») precedes step 12:
    influence a disloyal territory gave is gone before the check."""
    g = fresh()
    g.s.players[0].inf = 9
    g.apply(0, {"type": "play", "uid": give(g, 0, "T02"), "cell": 4})
    g.s.field[4].territory.loyalty = 0
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() is None and g.s.players[0].inf == 9


def test_victory_when_the_rival_has_no_trust() -> None:
    """«Соперник должен иметь 0 (ноль) единиц доверия.»"""
    g = fresh()
    g.s.players[1].trust = 1
    rules.lose(g.s, 1, "trust", 1, [])
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [0], "draw": False, "reasons": ["trust"]}


def test_both_at_once_is_a_draw() -> None:
    """House rule: both seats meeting a condition at the same check is a draw."""
    g = fresh()
    g.s.players[0].inf = 10
    g.s.players[0].trust = 0
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() is not None and g.outcome()["draw"] and g.outcome()["winners"] == []


def test_full_field_higher_total_loyalty_wins() -> None:
    """«На игровом поле суммарно присутствуют 12 территорий, побеждает тот игрок, у которого совокупное значение
    верности территорий выше, чем у соперника.»"""
    g = fresh()
    for cell in range(12):
        put(g, cell % 2, ("T01", "T02", "T03", "T04", "T05")[cell % 5], cell, loyalty=2 + (cell % 2))
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [1], "draw": False, "reasons": ["loyalty"]}


def test_illegal_zones_send_cards_to_their_owners_utility() -> None:
    """«Если ваша карта должна попасть в руку или утиль соперника, вместо этого она отправляется в ваш утиль.»"""
    g = fresh()
    theirs = put(g, 1, "A01", 0)
    put(g, 0, "T02", 4)
    hunter = put(g, 0, "A02", 4)
    g.apply(0, {"type": "agent", "uid": hunter.uid, "do": "hunt", "target": theirs.uid})
    assert theirs.uid in g.s.players[1].utility and theirs.uid not in g.s.players[0].utility


def test_discards_and_utilisation_at_the_end_of_the_rivals_turn() -> None:
    """«Если на карте есть словосочетание «Сбросьте эту карту» или слово «Утилизация», вы можете получить эффект
    от сброса этой карты, в конце хода соперника. Таких действий может быть не более двух.»"""
    g = fresh()
    hoaxes = [give(g, 1, "P02") for _ in range(2)]
    ball = give(g, 1, "P03")
    rep0 = g.s.players[0].rep
    g.apply(0, {"type": "end_turn"})
    assert g.actors() == [1]
    assert sorted(a["v"] for a in g.legal_actions(1)) == sorted(
        ["pass", *(f"discard:{u}" for u in hoaxes), f"utilise:{ball}"])
    choose(g, f"discard:{hoaxes[0]}")
    choose(g, f"utilise:{ball}")
    assert g.s.players[0].rep == rep0 - 1 and ball in g.s.players[1].utility
    assert g.s.turn.active == 1 and hoaxes[1] in g.s.players[1].hand, "no third one"


def test_no_window_without_such_cards() -> None:
    g = fresh()
    g.apply(0, {"type": "end_turn"})
    assert g.s.turn.active == 1 and g.actors() == [1] and {"type": "end_turn"} in g.legal_actions(1)


def test_expose_an_agent() -> None:
    """«Если на крате написано “раскройте Агента” это означает, что вы можете повернуть Агента или переместить
    его на клетку поля без территории.» (Surveillance, designed: expose a rival Agent.)"""
    for answer in ("tap", 0):
        g = fresh()
        terr = put(g, 1, "T02", 7)
        agent = put(g, 1, "A01", 7)
        terr.loyalty = 3
        g.apply(0, {"type": "play", "uid": give(g, 0, "P05")})
        assert g.actors() == [0] and "tap" in [a["v"] for a in g.legal_actions(0)]
        choose(g, answer)
        cell = 7 if answer == "tap" else 0
        assert g.s.field[cell].agent is agent and rules.exposed(g.s, cell, agent)
        assert terr.loyalty == (3 if answer == "tap" else 2)
        give(g, 0, "P05")
        assert not [a for a in acts(g, 0, "play") if g.s.cards[a["uid"]] == "P05"], "no hidden Agent left"


def test_a_dead_position_ends_in_a_draw() -> None:
    """House rule 40. «Если заканчивается основной архив, то в конце каждого вашего хода вы будете терять три
    единицы репутации» is the rulebook's clock for an exhausted game; three end-of-turn +1 cards cancel it
    exactly, so with nothing else to do the table would repeat for ever. Twenty such turns end the game."""
    from bot.games.byallmeans import engine

    g = fresh()
    for seat in (0, 1):
        p = g.s.players[seat]
        p.utility += p.main
        p.main.clear()
        base = 1 if seat == 0 else 10
        put(g, seat, "T02", base)
        for cell in (base - 1, base + 1, base + (3 if seat == 0 else -3)):
            put(g, seat, "T09", cell)  # end of your turn: +1 reputation
    turns = 0
    while g.outcome() is None and turns < 200:
        seat = g.actors()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[0] if legal[0]["type"] == "choose" else {"type": "end_turn"})
        turns += 1
    assert g.outcome() == {"winners": [], "draw": True, "reasons": ["stalemate"]}
    assert [p.rep for p in g.s.players] == [6, 6]
    assert engine.STALL_TURNS <= g.s.turn.number - 5 <= engine.STALL_TURNS + 2  # fresh() starts at turn 5
