"""Issue 26: which ending wins, the activated-ability limit, a replaced Agent's shadow, and the readings the
engine used to take silently (trust without a cap, discards from the hand, a freed buffer slot).

Every expected value comes from the rulebook line quoted in the test (``../shared/rules/by-all-means.ru.txt``).
"""

from __future__ import annotations

from bot.games.byallmeans import ByAllMeans, effects, rules
from bot.games.byallmeans.state import RULES, BufferSlot
from tests.byallmeans.bam_helpers import acts, fresh, give, put


def full_field(g: ByAllMeans, loyalty: int = 3) -> None:
    """Twelve territories, six a seat, all of one loyalty: equal totals."""
    for cell in range(12):
        put(g, cell % 2, "T13", cell, loyalty=loyalty)


# ---- 1. which ending wins --------------------------------------------------------------------------
def test_influence_wins_over_a_full_field_of_equal_loyalty() -> None:
    """l. 383: «Если в момент проверки статуса игры у одного из игроков 10 или более единиц влияния, то он
    выигрывает партию.» l. 397 gives the full field to the player «у которого совокупное значение верности
    территорий выше» — with equal totals nobody meets it, so the influence win stands."""
    g = fresh()
    full_field(g)
    g.s.players[0].inf = 10
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [0], "draw": False, "reasons": ["influence"]}


def test_the_rivals_zero_trust_wins_over_a_full_field_of_equal_loyalty() -> None:
    """l. 385: «Если на момент проверки статуса игры доверие игрока равно нулю, он проигрывает партию»; l. 396:
    «Соперник должен иметь 0 (ноль) единиц доверия.»"""
    g = fresh()
    full_field(g)
    g.s.players[0].trust = 0
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [1], "draw": False, "reasons": ["trust"]}


def test_a_full_field_of_equal_loyalty_alone_is_a_draw() -> None:
    """l. 397: «На игровом поле суммарно присутствуют 12 территорий, побеждает тот игрок, у которого совокупное
    значение верности территорий выше, чем у соперника» — equal totals: no winner (house rule 22: a draw)."""
    g = fresh()
    full_field(g)
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [], "draw": True, "reasons": ["loyalty_tie"]}


def test_both_players_winning_is_still_a_draw_with_a_full_field() -> None:
    """House rule 22 is unchanged: one player at 10 influence (l. 383) while the other's loyalty total is
    higher (l. 397) is a draw."""
    g = fresh()
    full_field(g)
    g.s.field[1].territory.loyalty = 4  # seat 1's total is higher
    g.s.players[0].inf = 10
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [], "draw": True, "reasons": ["influence", "loyalty"]}


def test_a_game_stored_under_rules_version_1_keeps_its_ending() -> None:
    """Replays stay exact: a game started before issue 26 still ends in ``loyalty_tie`` there."""
    g = fresh()
    assert g.s.rules == RULES == 2
    g.s.rules = 1
    full_field(g)
    g.s.players[0].inf = 10
    g.apply(0, {"type": "end_turn"})
    assert g.outcome() == {"winners": [], "draw": True, "reasons": ["loyalty_tie"]}


# ---- 2. house rule 26: activated abilities ---------------------------------------------------------
def test_a_territorys_ability_may_be_used_with_each_main_action() -> None:
    """l. 47: «Использовать Активируемую способность объекта под вашим контролем» is a main action with no
    limit per turn (the limit of l. 308 is for Agents). The Casino (designed: «Активируемая: +3 репутации»)
    used with both main actions gives 6."""
    g = fresh()
    casino = put(g, 0, "T10", 4)
    rep = g.s.players[0].rep
    g.apply(0, {"type": "activate", "uid": casino.uid})
    assert {"type": "activate", "uid": casino.uid} in acts(g, 0, "activate")
    g.apply(0, {"type": "activate", "uid": casino.uid})
    assert g.s.players[0].rep == rep + 6


def test_an_agents_free_ability_still_once_a_turn() -> None:
    """l. 308: «Агент не может повторять одно действие два раза за ход.» The Bomber's free ability
    («на которую не тратится действия»): once."""
    g = fresh()
    put(g, 0, "T02", 4)
    bomber = put(g, 0, "A20", 4)
    g.apply(0, {"type": "activate", "uid": bomber.uid})
    assert {"type": "activate", "uid": bomber.uid} not in acts(g, 0, "activate")


def test_a_free_ability_of_another_object_stops_with_the_main_archive() -> None:
    """No limit per turn for the Secret Mark's free ability either (l. 47, l. 172: «Активируемая способность
    объекта, на которую не тратится действия»); it draws a card («Взять карту из основного архива»), so it
    is offered only while the main archive holds one and cannot loop."""
    g = fresh()
    put(g, 0, "T02", 4)
    mark = put(g, 0, "G09", 4)
    g.s.players[0].main[:] = g.s.players[0].main[:2]
    g.apply(0, {"type": "activate", "uid": mark.uid})
    g.apply(0, {"type": "activate", "uid": mark.uid})
    assert not g.s.players[0].main and len(g.s.players[0].hand) == 2
    assert {"type": "activate", "uid": mark.uid} not in acts(g, 0, "activate")
    assert g.s.turn.main_left == 2


# ---- 3. house rule 33: the shadow of a replaced Agent ----------------------------------------------
def test_the_shadow_goes_in_place_of_a_replaced_agent() -> None:
    """l. 338: «Если вы выводите третьего Агента, то вы обязаны отправить с поля в утиль одного из двух Агентов»;
    l. 289: «Когда Агент с тенью должен отправиться в утиль, вместо этого в утиль отправляется карта, ставшая
    тенью.» The shadow goes; the Agent stays, without the shadow's symbols (l. 291 brought them)."""
    g = fresh()
    first = put(g, 0, "A01", 0)
    put(g, 0, "A02", 1)
    shadow = give(g, 0, "A01")
    g.apply(0, {"type": "play", "uid": shadow, "shadow": first.uid})
    g.apply(0, {"type": "play", "uid": give(g, 0, "A03"), "cell": 2, "replace": first.uid})
    assert g.s.field[0].agent is first and first.shadows == [] and first.symbols == ["eye", "key"]
    assert shadow in g.s.players[0].utility and len(rules.agents(g.s, 0)) == 3


def test_an_agent_without_a_shadow_is_replaced_itself() -> None:
    """l. 338 without a shadow: the chosen Agent goes to the utility."""
    g = fresh()
    first = put(g, 0, "A01", 0)
    put(g, 0, "A02", 1)
    g.apply(0, {"type": "play", "uid": give(g, 0, "A03"), "cell": 2, "replace": first.uid})
    assert g.s.field[0].agent is None and first.uid in g.s.players[0].utility
    assert len(rules.agents(g.s, 0)) == 2


def test_a_fourth_agent_replaces_one_of_those_controlled() -> None:
    """After a shadow went in its Agent's place, a further Agent still obliges its player to send one to the
    utility (l. 338), so the count grows only by a shadow spent."""
    g = fresh()
    first = put(g, 0, "A01", 0)
    put(g, 0, "A02", 1)
    put(g, 0, "A03", 2)
    newcomer = give(g, 0, "A06")
    plays = [a for a in acts(g, 0, "play") if a["uid"] == newcomer and a.get("cell") == 3]
    assert plays and all("replace" in a for a in plays)
    g.apply(0, {"type": "play", "uid": newcomer, "cell": 3, "replace": first.uid})
    assert len(rules.agents(g.s, 0)) == 3


def test_rules_version_1_sends_the_agent_with_its_shadow() -> None:
    """Games stored before issue 26 replay as they were played: there the Agent left with its shadow."""
    g = fresh()
    g.s.rules = 1
    first = put(g, 0, "A01", 0)
    put(g, 0, "A02", 1)
    g.apply(0, {"type": "play", "uid": give(g, 0, "A01"), "shadow": first.uid})
    g.apply(0, {"type": "play", "uid": give(g, 0, "A03"), "cell": 2, "replace": first.uid})
    assert len(rules.agents(g.s, 0)) == 2 and g.s.field[0].agent is None


# ---- 4. the silent readings --------------------------------------------------------------------------
def test_trust_has_no_cap() -> None:
    """l. 385: «в начале игры ваше доверие равно 10» — a starting value, not a maximum (the reputation rule of
    l. 379 is the only cap the counter has). The Gala Reception (designed: «+3 репутации и +1 доверие») at
    10 trust leaves 11."""
    g = fresh()
    assert g.s.players[0].trust == 10
    g.apply(0, {"type": "play", "uid": give(g, 0, "P14")})
    assert g.s.players[0].trust == 11


def test_a_discard_comes_from_the_hand() -> None:
    """l. 453: «Вредительство – легальна в том случае, если у соперника в руке не менее двух карт»: a discard is
    from the hand (l. 69: «сбросить эту карту из руки»). The Pickpocket's «соперник сбрасывает карту» offers
    the rival's hand cards, never a buffer card."""
    g = fresh()
    put(g, 0, "T02", 4)
    pickpocket = put(g, 0, "A06", 4)
    in_hand = [give(g, 1, "T01"), give(g, 1, "T04")]
    planned = give(g, 1, "T03")
    g.s.players[1].hand.remove(planned)
    g.s.players[1].buffer.append(BufferSlot(planned, ["blade"]))
    g.apply(0, {"type": "agent", "uid": pickpocket.uid, "do": "ability"})
    waiting = effects.pending(g.s)
    assert waiting is not None and waiting[0] == 1 and sorted(waiting[1]) == sorted(in_hand)


def test_a_freed_buffer_slot_stays_empty_until_a_card_is_buffered() -> None:
    """l. 131: «Буфер имеет всего два слота, т.е. более двух карт одновременно в буфере находиться не может»;
    l. 139: cards stay there «пока не будут перемещены в утиль … или не будут разыграны за цену розыгрыша из
    буфера». Nothing refills a freed slot: the other card keeps its place, no card is drawn."""
    g = fresh()
    p = g.s.players[0]
    a, b = give(g, 0, "T02"), give(g, 0, "T04")
    p.hand.remove(a)
    p.hand.remove(b)
    p.buffer[:] = [BufferSlot(a, ["coin"]), BufferSlot(b, ["coin", "mask"])]
    main, hand = list(p.main), list(p.hand)
    g.apply(0, {"type": "play", "uid": a, "cell": 4})  # played for its buffer price
    assert [slot.uid for slot in p.buffer] == [b] and p.main == main and p.hand == hand
