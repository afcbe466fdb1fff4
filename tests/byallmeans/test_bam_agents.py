"""Agents: the additional action, the three default abilities, exposure, recklessness and operativeness."""

from __future__ import annotations

from bot.games.byallmeans import rules
from tests.byallmeans.bam_helpers import acts, fresh, give, put


def test_additional_action_only_with_an_agent() -> None:
    """«Одно дополнительное действие, если под контролем игрока (на поле) есть Агент.»"""
    g = fresh()
    g.apply(0, {"type": "draw_main"})
    g.apply(0, {"type": "draw_main"})
    assert g.s.turn.active == 1, "no agent: two main actions end the turn"
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 0, "A01", 4)
    g.apply(0, {"type": "draw_main"})
    g.apply(0, {"type": "draw_main"})
    assert g.s.turn.active == 0 and g.s.turn.main_left == 0 and acts(g, 0, "agent")


def test_agent_actions_use_the_additional_action_first_and_then_main_ones() -> None:
    """«использовать основные вместо дополнительных МОЖНО»; «Если под вашим контролем более одного Агента, вы
    все равно имеете только одно дополнительное действие.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 0, "T04", 7)
    put(g, 0, "A01", 4)
    put(g, 0, "A02", 7)
    g.apply(0, {"type": "agent", "uid": g.s.field[4].agent.uid, "do": "attack"})
    assert g.s.turn.extra_used and g.s.turn.main_left == 2
    g.apply(0, {"type": "agent", "uid": g.s.field[7].agent.uid, "do": "attack"})
    assert g.s.turn.main_left == 1


def test_attack_costs_the_rival_reputation_equal_to_efficiency() -> None:
    """«Повернуться и атаковать соперника … соперник теряет количество единиц репутации равное эффективности
    атаковавшего Агента.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    agent = put(g, 0, "A02", 4)
    mine, theirs = g.s.players[0].rep, g.s.players[1].rep
    g.apply(0, {"type": "agent", "uid": agent.uid, "do": "attack"})
    assert agent.tapped and g.s.players[1].rep == theirs - 3 and g.s.players[0].rep == mine


def test_recklessness_on_the_turn_of_entry_and_on_an_empty_cell() -> None:
    """«Когда Агент выходит на поле, в течение этого хода он получает безбашенность … контролирующий Агента с
    безбашенностью игрок теряет столько единиц репутации, какова эффективность этого Агента.» «Если Агент
    размещен не на территории (на свободной клетке), то он постоянно имеет безбашенность.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    new = put(g, 0, "A03", 4, entered=5)  # entered this turn (turn 5), not operative
    rep = g.s.players[0].rep
    g.apply(0, {"type": "agent", "uid": new.uid, "do": "attack"})
    assert g.s.players[0].rep == rep - 2
    g = fresh()
    loose = put(g, 0, "A03", 0, entered=1)  # an old agent, but on a cell without a territory
    rep = g.s.players[0].rep
    g.apply(0, {"type": "agent", "uid": loose.uid, "do": "attack"})
    assert g.s.players[0].rep == rep - 2


def test_operativeness() -> None:
    """«Если на карте Агента указано, что он имеет оперативность, это означает, что он может атаковать с
    первого хода, не нанося вреда вашей репутации. НО! Если Агент с оперативностью находится на свободной
    клетке, то он все равно имеет безашенность.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    fast = put(g, 0, "A02", 4, entered=5)
    rep = g.s.players[0].rep
    g.apply(0, {"type": "agent", "uid": fast.uid, "do": "attack"})
    assert g.s.players[0].rep == rep
    g = fresh()
    fast = put(g, 0, "A02", 0, entered=5)
    rep = g.s.players[0].rep
    g.apply(0, {"type": "agent", "uid": fast.uid, "do": "attack"})
    assert g.s.players[0].rep == rep - 3


def test_only_exposed_rival_agents_can_be_attacked() -> None:
    """«Агент является раскрытым, когда повернут и/или когда находится на клетке поля без вашей территории.»
    «Если атакован раскрытый Агент соперника, то он отправится в утиль, если эффективность атакующего - больше
    или равна стойкости атакуемого.»"""
    g = fresh()
    put(g, 0, "T02", 4)
    hunter = put(g, 0, "A02", 4)  # efficiency 3
    put(g, 1, "T04", 7)
    hidden = put(g, 1, "A01", 7)
    exposed = put(g, 1, "A04", 1)  # on a cell without its territory; resilience 2
    targets = {a["target"] for a in acts(g, 0, "agent") if a["do"] == "hunt"}
    assert targets == {exposed.uid}
    hidden.tapped = True
    assert {a["target"] for a in acts(g, 0, "agent") if a["do"] == "hunt"} == {exposed.uid, hidden.uid}
    g.apply(0, {"type": "agent", "uid": hunter.uid, "do": "hunt", "target": exposed.uid})
    assert exposed.uid in g.s.players[1].utility


def test_a_weaker_attacker_does_not_remove() -> None:
    """«… если эффективность атакующего - больше или равна стойкости атакуемого» — otherwise nothing."""
    g = fresh()
    put(g, 0, "T02", 4)
    weak = put(g, 0, "A01", 4)  # efficiency 1
    tough = put(g, 1, "A04", 1)  # resilience 2
    g.apply(0, {"type": "agent", "uid": weak.uid, "do": "hunt", "target": tough.uid})
    assert g.s.field[1].agent is tough


def test_gather_information_from_the_extra_archive() -> None:
    """«Повернуться и взять карту из дополнительного архива.» «Когда заканчивается ваш дополнительный архив,
    единственным неудобством является невозможность брать карты Агентом»."""
    g = fresh()
    put(g, 0, "T02", 4)
    agent = put(g, 0, "A01", 4)
    top = g.s.players[0].extra[-1]
    g.apply(0, {"type": "agent", "uid": agent.uid, "do": "inform"})
    assert top in g.s.players[0].hand
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 0, "A01", 4)
    g.s.players[0].main.extend(g.s.players[0].extra)
    g.s.players[0].extra.clear()
    assert not [a for a in acts(g, 0, "agent") if a["do"] == "inform"]


def test_tapped_agents_do_nothing_and_no_action_twice() -> None:
    """«Агент не может совершать действий, если он повернут.» «Агент не может повторять одно действие два раза
    за ход»."""
    g = fresh()
    put(g, 0, "T02", 4)
    agent = put(g, 0, "A01", 4, tapped=True)
    assert not acts(g, 0, "agent")
    agent.tapped = False
    g.apply(0, {"type": "agent", "uid": agent.uid, "do": "attack"})
    agent.tapped = False  # as if a territory stood it up again
    assert {a["do"] for a in acts(g, 0, "agent")} == {"inform", "ability"}


def test_activated_ability_taps_the_agent() -> None:
    """«Использовать Активируемую способность неповернутого Агента под вашим контролем, при этом Агент
    поворачивается.» (Informant, designed: +2 reputation.)"""
    g = fresh()
    put(g, 0, "T02", 4)
    agent = put(g, 0, "A01", 4)
    rep = g.s.players[0].rep
    g.apply(0, {"type": "agent", "uid": agent.uid, "do": "ability"})
    assert agent.tapped and g.s.players[0].rep == rep + 2


def test_agents_stand_up_at_their_controllers_turn() -> None:
    """House rule (the rulebook is silent): tapped agents untap at the start of their controller's turn."""
    g = fresh()
    put(g, 0, "T02", 4)
    agent = put(g, 0, "A01", 4)
    g.apply(0, {"type": "agent", "uid": agent.uid, "do": "attack"})
    g.apply(0, {"type": "end_turn"})
    assert agent.tapped and rules.exposed(g.s, 4, agent)
    g.apply(1, {"type": "end_turn"})
    assert not agent.tapped and not agent.used


def test_leave_ability_fires_when_an_agent_goes_to_the_utility() -> None:
    """The skull icon: «Эффект, срабатывающий в момент, когда карта с поля попадает в утиль.» (Turncoat,
    designed: draw a card.)"""
    g = fresh()
    turncoat = put(g, 1, "A03", 0)
    hand = len(g.s.players[1].hand)
    put(g, 0, "T02", 4)
    hunter = put(g, 0, "A02", 4)
    g.apply(0, {"type": "agent", "uid": hunter.uid, "do": "hunt", "target": turncoat.uid})
    assert turncoat.uid in g.s.players[1].utility and len(g.s.players[1].hand) == hand + 1


def test_the_rulebook_example_of_an_agent_standing_up() -> None:
    """«Агент находится на свободной клетке, он атакует соперника (поворачивается), после этого вы
    устанавливаете территорию на клетку с Агентом, Агент разворачивается. И если у вас еще осталось действие
    (см. Действия), то Агент может либо взять карту из дополнительного архива, либо активировать свою
    индивидуальную активируемую способность.»"""
    g = fresh()
    put(g, 0, "T04", 7)
    agent = put(g, 0, "A01", 4, entered=1)
    rep = g.s.players[0].rep
    g.apply(0, {"type": "agent", "uid": agent.uid, "do": "attack"})
    assert agent.tapped and g.s.players[0].rep == rep - 1  # reckless on a free cell
    g.apply(0, {"type": "play", "uid": give(g, 0, "T02"), "cell": 4})
    assert not agent.tapped and g.s.turn.main_left == 1
    assert {a["do"] for a in acts(g, 0, "agent")} == {"inform", "ability"}


def test_graffigent_bonuses() -> None:
    """«Если на поле под вашим контролем есть граффити, то Агент-Граффигент имеет на одну единицу стойкости
    больше. Если под вашим контролем на поле есть любой другой Агент или Агент-Граффигент, то
    Агент-Граффигент имеет на одну единицу эффективности больше.»"""
    g = fresh()
    artist = put(g, 0, "A05", 0)  # designed: efficiency 1, resilience 1
    assert (rules.efficiency(g.s, artist), rules.resilience(g.s, artist)) == (1, 1)
    put(g, 1, "A01", 1)
    put(g, 1, "T02", 4)
    put(g, 1, "G01", 4)
    assert (rules.efficiency(g.s, artist), rules.resilience(g.s, artist)) == (1, 1), "the rival's do not count"
    put(g, 0, "A02", 2)
    put(g, 0, "T04", 7)
    put(g, 0, "G02", 7)
    assert (rules.efficiency(g.s, artist), rules.resilience(g.s, artist)) == (2, 2)


def test_graffigent_face_down_is_a_graffiti() -> None:
    """«Агента-Граффигента можно вывести на поле рубашкой вверх (только на территорию, притом любую). При этом
    он будет являться граффити (теряя тип Агента-Граффигента), верность территории с этой граффити будет
    повышена на одну единицу.»"""
    g = fresh()
    rival = put(g, 1, "T04", 7)
    put(g, 0, "A01", 0)
    put(g, 0, "A02", 1)
    uid = give(g, 0, "A05")
    plays = [a for a in acts(g, 0, "play") if a["uid"] == uid]
    assert {"type": "play", "uid": uid, "cell": 7, "face_down": True} in plays
    events = g.apply(0, {"type": "play", "uid": uid, "cell": 7, "face_down": True})
    assert rival.loyalty == 5 and len(rules.agents(g.s, 0)) == 2
    assert g.s.field[7].graffiti is not None and g.s.field[7].graffiti.symbols == []
    public = [e for e in events if "to" not in e]
    assert all(e.get("code") != "A05" for e in public), "the rival does not learn the card"
    assert g.view(1)["field"][7]["graffiti"]["code"] == "" and g.view(0)["field"][7]["graffiti"]["code"] == "A05"


def test_face_down_graffigent_turns_up_on_an_empty_cell() -> None:
    """«Если такая граффити оказывается на свободной клетке (например, территории, к которой он был прикреплен,
    отправляется в утиль), то она переворачивается и становится Агентом-Граффигентом, со всеми его
    свойствами.»"""
    g = fresh()
    terr = put(g, 1, "T04", 7)
    g.apply(0, {"type": "play", "uid": give(g, 0, "A05"), "cell": 7, "face_down": True})
    rules.to_utility(g.s, terr.uid, [])
    agent = g.s.field[7].agent
    assert agent is not None and agent.owner == 0 and g.s.field[7].graffiti is None
    assert rules.exposed(g.s, 7, agent) and agent.symbols == ["mask", "blade"]


def test_a_second_copy_becomes_a_shadow() -> None:
    """«Если под вашим контролем оказалось два одинаковых Агента, то тот Агент, который попал под ваш контроль
    позже(2), становится тенью Агента(1). … Когда Агент с тенью должен отправиться в утиль, вместо этого в утиль
    отправляется карта, ставшая тенью. … Символы тени переносятся на Агента, получившего тень. Параметры Агента
    с тенью не меняются.»"""
    g = fresh()
    first = put(g, 0, "A01", 0)
    copy = give(g, 0, "A01")
    plays = [a for a in acts(g, 0, "play") if a["uid"] == copy]
    assert plays == [{"type": "play", "uid": copy, "shadow": first.uid}]
    g.apply(0, plays[0])
    assert first.shadows == [copy] and first.symbols == ["eye", "key", "eye", "key"]
    assert len(rules.agents(g.s, 0)) == 1 and rules.efficiency(g.s, first) == 1
    rules.to_utility(g.s, first.uid, [])
    assert g.s.field[0].agent is first and first.shadows == [] and copy in g.s.players[0].utility
    assert first.symbols == ["eye", "key"]
    rules.to_utility(g.s, first.uid, [])
    assert g.s.field[0].agent is None


def test_double_agents_share_symbols_and_leave_together() -> None:
    """«Если под контролем соперника есть такой же Агент, как и под вашим контролем, такой Агент считается
    двойным. Активные символы на этих Агентах считаются общими и могут быть использованы обоими игроками. Когда
    один из этих Агентов с поля отправляется в утиль, второй также отправляется в утиль.»"""
    g = fresh()
    mine = put(g, 0, "A03", 0)  # mask, mask
    theirs = put(g, 1, "A03", 11)
    pairs = [a for a in acts(g, 0, "symbols")]
    assert {"type": "symbols", "a": f"f:{mine.uid}:mask", "b": f"f:{theirs.uid}:mask"} in pairs
    rules.to_utility(g.s, mine.uid, [])
    assert g.s.field[11].agent is None and theirs.uid in g.s.players[1].utility
