"""Number and symbol combinations, the neutral combination, the buffer and the neutral zone."""

from __future__ import annotations

from bot.games.byallmeans import data
from bot.games.byallmeans.state import BufferSlot
from tests.byallmeans.bam_helpers import acts, choose, fresh, give, put, uid_of


def _pair(g, x: str, y: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """The legal symbol action with sources ``x`` and ``y`` (in whichever order the list holds them)."""
    found = [a for a in acts(g, g.s.turn.active, "symbols") if {a["a"], a["b"]} == {x, y}]
    assert found, (x, y)
    return found[0]


def _pair_spec(x: str, y: str) -> dict:  # type: ignore[type-arg]
    """The symbol action for sources ``x`` and ``y`` in the list's order (sources are sorted by zone, uid)."""
    return {"type": "symbols", "a": min(x, y, key=_order), "b": max(x, y, key=_order)}


def _order(src: str) -> tuple[int, str, str]:
    zone, uid, sym = src.split(":")
    return ("hbf".index(zone), uid, sym)


def _route(g, value: str) -> None:  # type: ignore[no-untyped-def]
    assert g.s.stack and g.s.stack[-1].ops[0]["op"] == "route"
    choose(g, value)


# ---- numbers ----------------------------------------------------------------------------------
def test_five_needs_two_cards() -> None:
    """«Вы можете составлять необходимую комбинацию из 2-х и более карт, но не можете сыграть «5» Махинации
    одной картой.»"""
    g = fresh()
    five = give(g, 0, "T03")  # number 5
    assert not acts(g, 0, "number")
    three, two = give(g, 0, "T02"), give(g, 0, "T04")
    sums = {(a["sum"], tuple(a["cards"])) for a in acts(g, 0, "number")}
    assert (5, tuple(sorted([three, two]))) in sums and all(a["cards"] != [five] for a in acts(g, 0, "number"))


def test_a_single_card_may_make_seven() -> None:
    """Only «5» is barred to one card; a card numbered 7 plays «7» alone."""
    g = fresh()
    seven = give(g, 0, "P04")
    assert {"type": "number", "sum": 7, "cards": [seven]} in acts(g, 0, "number")


def test_seven_is_the_opponents_choice() -> None:
    """«7» Ненадежный пиар – «вы получаете три очка репутации или соперник теряет три очка репутации на ВЫБОР
    СОПЕРНИКА»."""
    g = fresh()
    g.apply(0, {"type": "number", "sum": 7, "cards": [give(g, 0, "P04")]})
    assert g.actors() == [1] and [a["v"] for a in g.legal_actions(1)] == [0, 1]
    choose(g, 1)
    assert g.s.players[1].rep == 6 - 3 and g.s.players[0].rep == 6


def test_eleven_and_thirteen() -> None:
    """«11» +7 единиц репутации; «13» +4 единицы репутации +1 единица доверия."""
    g = fresh()
    g.apply(0, {"type": "number", "sum": 11, "cards": sorted([give(g, 0, "T03"), give(g, 0, "T05")])})
    assert g.s.players[0].rep == 13
    _route(g, "utility")
    _route(g, "utility")
    g.apply(0, {"type": "number", "sum": 13, "cards": sorted([give(g, 0, "P04"), give(g, 0, "P03")])})
    assert (g.s.players[0].rep, g.s.players[0].trust) == (17, 11)


def test_five_machinations_take_one_reputation() -> None:
    """«5» Махинации – «забрать одну единицу репутации у вашего соперника»."""
    g = fresh()
    g.apply(0, {"type": "number", "sum": 5, "cards": sorted([give(g, 0, "T02"), give(g, 0, "T04")])})
    # nothing on the field, so moving a symbol cannot be chosen and the other option is taken at once
    assert (g.s.players[0].rep, g.s.players[1].rep) == (7, 5)


def test_five_machinations_move_a_symbol() -> None:
    """«можете переложить один из символов, находящийся на поле, на любой объект, находящийся на поле»."""
    g = fresh()
    lane = put(g, 0, "T02", 4)
    rival = put(g, 1, "T04", 7)
    g.apply(0, {"type": "number", "sum": 5, "cards": sorted([give(g, 0, "T02"), give(g, 0, "T04")])})
    choose(g, 1)
    choose(g, f"{rival.uid}:mask:{lane.uid}")
    assert lane.symbols == ["coin", "mask"] and rival.symbols == ["coin"]


def test_cards_after_a_number_combination() -> None:
    """«если карта играется из буфера в цифровой комбинации, то после срабатывания эффекта цифровой комбинации
    такая карта отправляется в утиль»; from the hand «может быть перемещена в утиль или буфер, на выбор
    игрока». «При попадании в буфер на карту кладутся все неиспользованные символы»."""
    g = fresh()
    p = g.s.players[0]
    buffered = uid_of(g.s, 0, "T05")  # number 6
    p.buffer.append(BufferSlot(buffered, ["eye"]))
    hand = give(g, 0, "T03")  # number 5, symbols blade and key
    g.apply(0, {"type": "number", "sum": 11, "cards": sorted([buffered, hand])})
    assert buffered in p.utility and [b.uid for b in p.buffer] == []
    assert [a["v"] for a in g.legal_actions(0)] == ["utility", "buffer"]
    _route(g, "buffer")
    assert [(b.uid, b.symbols) for b in p.buffer] == [(hand, ["blade", "key"])]


def test_no_number_combination_with_field_cards() -> None:
    """«Карты на поле в цифровой комбинации играть нельзя.»"""
    g = fresh()
    put(g, 0, "T02", 4)  # number 3
    give(g, 0, "T04")  # number 2
    assert not acts(g, 0, "number")


# ---- symbols -----------------------------------------------------------------------------------
def test_the_pair_table_covers_every_unordered_pair() -> None:
    """«В игре 6 различных символов, которые в комбинации дают один из 15 эффектов»: one effect for each
    unordered pair of the five active symbols, doubles included."""
    act = data.active_symbols()
    pairs = {tuple(sorted((a, b))) for a in act for b in act}
    assert len(act) == 5 and set(data.pair_effects()) == pairs and len(pairs) == 15
    assert len({e.id for e in data.pair_effects().values()}) == 15


def test_two_hand_cards_make_a_pair() -> None:
    """«Две карты из руки с различными или одинаковыми символами.» Разоблачить: «Соперник теряет 2 единицы
    репутации» (mask + eye in this project's table)."""
    g = fresh()
    market, obs = give(g, 0, "T04"), give(g, 0, "T01")
    g.apply(0, _pair(g, f"h:{market}:mask", f"h:{obs}:eye"))
    assert g.s.players[1].rep == 4
    _route(g, "buffer")
    _route(g, "buffer")
    # Old Market's unused coin becomes active; the Observatory has nothing left unused
    assert {b.uid: b.symbols for b in g.s.players[0].buffer} == {market: ["coin"], obs: []}


def test_never_two_symbols_of_one_card() -> None:
    """«Играть комбинацию символов, находящуюся на одной карте или объекте, нельзя!!!»"""
    g = fresh()
    give(g, 0, "A03")  # mask, mask
    give(g, 0, "T03")  # blade, key
    pairs = acts(g, 0, "symbols")
    assert pairs and all(a["a"].split(":")[1] != a["b"].split(":")[1] for a in pairs)
    assert not [a for a in pairs if a["a"].endswith("mask") and a["b"].endswith("mask")]


def test_buffer_cards_need_active_symbols() -> None:
    """«Одна карта из руки, другая из буфера, в таком случае на объекте в буфере должен быть активный символ.»
    A symbol used from the buffer leaves the game and the card keeps its slot."""
    g = fresh()
    p = g.s.players[0]
    bare, active = uid_of(g.s, 0, "T01"), uid_of(g.s, 0, "T02")
    p.buffer += [BufferSlot(bare, []), BufferSlot(active, ["mask"])]
    hand = give(g, 0, "P02")  # mask
    sources = {x for a in acts(g, 0, "symbols") for x in (a["a"], a["b"])}
    assert sources == {f"h:{hand}:mask", f"b:{active}:mask"}
    g.apply(0, {"type": "symbols", "a": f"h:{hand}:mask", "b": f"b:{active}:mask"})  # Оклеветать
    assert p.buffer[1].uid == active and p.buffer[1].symbols == []


def test_field_symbols_pair_only_on_two_own_objects() -> None:
    """«Символы, находящиеся на поле на двух разных объектах под вашим контролем.»"""
    g = fresh()
    mine = put(g, 0, "T04", 4)  # coin, mask
    graffiti = put(g, 0, "G01", 4)  # eye
    put(g, 1, "T01", 7)  # eye, the rival's
    give(g, 0, "P02")  # mask in the hand
    pairs = {(a["a"], a["b"]) for a in acts(g, 0, "symbols")}
    field = {p for p in pairs if p[0][0] == "f" or p[1][0] == "f"}
    assert all(p[0][0] == p[1][0] == "f" for p in field)
    assert {tuple(sorted(x.split(":")[1] for x in p)) for p in field} == {tuple(sorted([mine.uid, graffiti.uid]))}


def test_no_repeat_of_a_combination_with_the_same_cards() -> None:
    """«Карты, находящиеся в буфере, можно использовать в комбинациях. Исключение составляет повтор одной
    комбинации два раза за ход одними и теми же картами.»"""
    g = fresh()
    p = g.s.players[0]
    a, b = uid_of(g.s, 0, "T04"), uid_of(g.s, 0, "A03")
    p.buffer += [BufferSlot(a, ["mask", "mask"]), BufferSlot(b, ["mask", "mask"])]
    play = _pair_spec(f"b:{a}:mask", f"b:{b}:mask")
    assert play in g.legal_actions(0)
    g.apply(0, play)
    choose(g, 0)  # the rival takes the reputation loss
    assert p.buffer[0].symbols == ["mask"] and play not in g.legal_actions(0)


def test_neutral_combination_buffers_the_lilac_card_as_any_symbol() -> None:
    """«Нейтральная комбинация может быть разыграна, если в вашей руке есть карта с СИРЕНЕВЫМ символом … второй
    символ не будет израсходован … буферизируя карту с сиреневым символом, вы вместо него кладете любой другой
    символ.»"""
    g = fresh()
    lilac, partner = give(g, 0, "T05"), give(g, 0, "T02")
    assert acts(g, 0, "neutral") == [{"type": "neutral", "uid": lilac}]
    rep = g.s.players[1].rep
    g.apply(0, {"type": "neutral", "uid": lilac})
    assert sorted(a["v"] for a in g.legal_actions(0)) == sorted(
        ["utility"] + [f"buffer:{s}" for s in data.active_symbols()])
    choose(g, "buffer:blade")
    p = g.s.players[0]
    assert [(b.uid, b.symbols) for b in p.buffer] == [(lilac, ["blade"])]
    assert partner in p.hand and g.s.players[1].rep == rep and g.s.turn.main_left == 1


def test_lilac_is_not_an_active_symbol() -> None:
    """«Сиреневый символ разыгрывается в нейтральной комбинации»: never in a pair of the table."""
    g = fresh()
    give(g, 0, "T05")
    give(g, 0, "P04")
    assert not acts(g, 0, "symbols")


# ---- legality ---------------------------------------------------------------------------------
def test_sabotage_needs_two_rival_cards() -> None:
    """Вредительство – «легальна в том случае, если у соперника в руке не менее двух карт». «Соперник
    сбрасывает 2 карты» — of their choice."""
    g = fresh()
    blade, key = give(g, 0, "A02"), give(g, 0, "A04")
    play = _pair_spec(f"h:{blade}:blade", f"h:{key}:key")
    give(g, 1, "T01")
    assert play not in g.legal_actions(0)
    kept, lost = give(g, 1, "T02"), give(g, 1, "T04")
    g.apply(0, play)
    assert g.actors() == [1]
    choose(g, lost)
    choose(g, kept)
    assert len(g.s.players[1].hand) == 1 and {lost, kept} <= set(g.s.players[1].utility)


def test_remove_agent_costs_two_or_four() -> None:
    """Убрать Агента – «Если Агент раскрыт, то игрок, разыгравший «Убрать Агента», теряет 2 единицы
    репутации, если Агент не раскрыт, то 4 единицы репутации.»"""
    for on_territory, cost in ((False, 2), (True, 4)):
        g = fresh()
        if on_territory:
            put(g, 1, "T02", 7)
        target = put(g, 1, "A01", 7)
        a, b = give(g, 0, "A02"), give(g, 0, "P01")
        g.s.players[0].rep = 10
        g.apply(0, _pair_spec(f"h:{a}:blade", f"h:{b}:blade"))
        assert target.uid in g.s.players[1].utility and g.s.players[0].rep == 10 - cost


def test_inspire_and_intimidate_need_a_territory_each() -> None:
    """Воодушевить, Запугать – «легальна в том случае, если на поле есть хотя бы одна территория соперника и
    хотя бы одна ваша территория». Запугать: «Верность территории соперника уменьшается на 3, верность вашей
    территории уменьшается на 1»."""
    g = fresh()
    blade, coin = give(g, 0, "A02"), give(g, 0, "T02")
    play = _pair_spec(f"h:{blade}:blade", f"h:{coin}:coin")
    mine = put(g, 0, "T04", 4)
    assert play not in g.legal_actions(0)
    theirs = put(g, 1, "T01", 7)
    g.apply(0, play)
    assert (theirs.loyalty, mine.loyalty) == (0, 3)


def test_mutual_strike_is_illegal_at_zero_trust() -> None:
    """Обоюдный удар – «нелегальна только в том случае, если доверие одного или обоих игроков равно нулю»."""
    g = fresh()
    blade, mask = give(g, 0, "A02"), give(g, 0, "P02")
    play = _pair_spec(f"h:{blade}:blade", f"h:{mask}:mask")
    assert play in g.legal_actions(0)
    g.s.players[1].trust = 0
    assert play not in g.legal_actions(0)


def test_boost_needs_two_cards_in_the_main_archive() -> None:
    """Усиление потенциала – «нелегальна, если в вашем основном архиве менее двух карт»."""
    g = fresh()
    coin, key = give(g, 0, "T02"), give(g, 0, "A04")
    play = _pair_spec(f"h:{key}:key", f"h:{coin}:coin")
    p = g.s.players[0]
    p.extra[:0] = p.main[1:]
    del p.main[1:]
    assert play not in g.legal_actions(0)


def test_restore_takes_a_card_from_the_utility_without_symbols() -> None:
    """Восстановление – «нелегальна, если в вашем утиле нет карт, карты из утиля перемещаются в буфер без
    активных символов»."""
    g = fresh()
    key, mask = give(g, 0, "A04"), give(g, 0, "P02")
    play = _pair_spec(f"h:{key}:key", f"h:{mask}:mask")
    assert play not in g.legal_actions(0)
    old = uid_of(g.s, 0, "T03")
    g.s.players[0].utility.append(old)
    g.apply(0, play)
    assert [(b.uid, b.symbols) for b in g.s.players[0].buffer] == [(old, [])]


def test_foil_plans_removes_a_buffer_card() -> None:
    """Уничтожение планов – «легальна в том случае, если хотя бы в одном буфере есть хотя бы одна карта.
    Целью может быть как ваш буфер, так и буфер соперника.»"""
    g = fresh()
    blade, eye = give(g, 0, "A02"), give(g, 0, "T01")
    play = _pair_spec(f"h:{blade}:blade", f"h:{eye}:eye")
    assert play not in g.legal_actions(0)
    planned = uid_of(g.s, 1, "T05")
    g.s.players[1].buffer.append(BufferSlot(planned, ["coin"]))
    g.apply(0, play)
    assert planned in g.s.players[1].utility and not g.s.players[1].buffer
