"""Static abilities, placement conditions written on cards, lasting plots, the controller's order of
simultaneous triggers, and activated abilities that cost no action (the card values are ours, the rules
the rulebook's)."""

from __future__ import annotations

from bot.games.byallmeans import data, rules
from tests.byallmeans.bam_helpers import acts, choose, fresh, give, put


def test_static_abilities_modify_while_on_the_field() -> None:
    """«Статический эффект объекта, находящегося на поле»: Clock Tower (designed) gives your Agents +1
    resilience while it stands, and Target Mark +1 efficiency; they stop when the card leaves."""
    g = fresh()
    agent = put(g, 0, "A02", 3)  # Bouncer: efficiency 3, resilience 2
    assert (rules.efficiency(g.s, agent), rules.resilience(g.s, agent)) == (3, 2)
    tower = put(g, 0, "T14", 4)
    mark = put(g, 0, "G10", 4)
    assert (rules.efficiency(g.s, agent), rules.resilience(g.s, agent)) == (4, 3)
    rules.to_utility(g.s, tower.uid, [])  # its graffiti goes with it (house rule 25)
    assert (rules.efficiency(g.s, agent), rules.resilience(g.s, agent)) == (3, 2)
    assert mark.uid in g.s.players[0].utility


def test_a_static_price_change() -> None:
    """«Цена оплачивается вашей репутацией»: Guild Sign (designed) makes your territories 1 cheaper, so City
    Park (2/1) can be placed from the hand with 1 reputation."""
    g = fresh()
    put(g, 0, "T02", 4)
    park = give(g, 0, "T15")
    g.s.players[0].rep = 1
    assert not [a for a in acts(g, 0, "play") if a["uid"] == park]
    put(g, 0, "G08", 4)
    assert [a for a in acts(g, 0, "play") if a["uid"] == park]
    g.apply(0, {"type": "play", "uid": park, "cell": 1})
    assert g.s.players[0].rep == 0


def test_placement_conditions_on_the_card() -> None:
    """«Вывести Агента на поле … соблюдая условия его вывода, указанные на карте»; graffiti go anywhere «если
    это не противоречит написанному на карте»."""
    g = fresh()
    hall = give(g, 0, "T07")  # needs a territory of yours already
    assert not [a for a in acts(g, 0, "play") if a["uid"] == hall]
    put(g, 1, "T02", 4)
    assert not [a for a in acts(g, 0, "play") if a["uid"] == hall]  # the rival's does not count
    put(g, 0, "T01", 1)
    assert [a for a in acts(g, 0, "play") if a["uid"] == hall]
    tag = give(g, 0, "G03")  # only on a rival territory
    assert {a["cell"] for a in acts(g, 0, "play") if a["uid"] == tag} == {4}
    double = give(g, 0, "A13")  # only onto your own territory
    assert {a["cell"] for a in acts(g, 0, "play") if a["uid"] == double} == {1}
    recruit = give(g, 0, "P21")  # only while you control an Agent
    assert not [a for a in acts(g, 0, "play") if a["uid"] == recruit]
    put(g, 0, "A02", 1)
    assert [a for a in acts(g, 0, "play") if a["uid"] == recruit]


def test_a_lasting_plot_stays_attached_to_its_territory() -> None:
    """«Есть исключения (например, слизень-камнеед остается на поле прикрепленный к территории).» Our Slug
    attaches to a rival territory and takes 1 loyalty at the start of each of your turns; it leaves with it."""
    g = fresh()
    slug = give(g, 0, "P10")
    assert not [a for a in acts(g, 0, "play") if a["uid"] == slug]  # no rival territory: cannot be played
    rival = put(g, 1, "T04", 7)  # loyalty 4
    g.apply(0, {"type": "play", "uid": slug, "cell": 7})
    assert g.s.field[7].plot is not None and g.s.field[7].plot.uid == slug and slug not in g.s.players[0].utility
    g.apply(0, {"type": "end_turn"})
    g.apply(1, {"type": "end_turn"})
    assert rival.loyalty == 3
    rules.to_utility(g.s, rival.uid, [])
    assert g.s.field[7].plot is None and slug in g.s.players[0].utility


def test_the_controller_orders_simultaneous_triggers() -> None:
    """«Если под контролем одного игрока срабатывает несколько эффектов одновременно, то порядок срабатывания
    этих эффектов определяет контролирующий эффекты игрок.» Two end-of-turn cards: seat 0 picks the order."""
    g = fresh()
    quay = put(g, 0, "T09", 4)  # end of your turn: +1 reputation
    sign = put(g, 0, "G06", 4)  # the same
    g.apply(0, {"type": "end_turn"})
    assert g.actors() == [0]
    assert sorted(a["v"] for a in g.legal_actions(0)) == sorted([quay.uid, sign.uid])
    choose(g, sign.uid)  # the chosen one runs whole, then the last one has no choice left and runs by itself
    assert g.s.players[0].rep == 8 and g.s.turn.active == 1


def test_an_activated_ability_that_costs_no_action() -> None:
    """«Активируемая способность объекта, на которую не тратится действия.» Bomber (designed): no action and no
    tap, once a turn (house rule 26)."""
    g = fresh()
    put(g, 0, "T02", 4)
    bomber = put(g, 0, "A20", 4)
    g.apply(0, {"type": "activate", "uid": bomber.uid})
    assert g.s.players[0].rep == 5 and g.s.players[1].rep == 4
    assert not bomber.tapped and g.s.turn.main_left == 2 and not g.s.turn.extra_used
    assert not acts(g, 0, "activate")
    g.apply(0, {"type": "agent", "uid": bomber.uid, "do": "attack"})  # its default abilities are still there
    assert bomber.tapped


def test_gain_per_counted_thing() -> None:
    """Popular Support (designed): +1 reputation for each of your territories."""
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 0, "T01", 1)
    support = give(g, 0, "P19")
    g.apply(0, {"type": "play", "uid": support})
    assert g.s.players[0].rep == 6 - 3 + 2


def test_pool_size_and_types() -> None:
    """The issue: at least 60 distinct cards over every type."""
    pool = data.cards()
    assert len(pool) >= 60
    assert {c.type for c in pool.values()} == set(data.CARD_TYPES)
    assert all(any(c.type == kind for c in pool.values()) for kind in data.CARD_TYPES)


def test_conditional_triggers() -> None:
    """«↗ Тригер - эффект, срабатывающий при определенных условиях.» Surveyor (designed): another territory
    of yours enters, +1 reputation, after the territory's own entry steps. Censorship (designed): the rival
    plays a plot and loses 2 reputation once it has resolved."""
    g = fresh()
    put(g, 0, "T02", 4)
    put(g, 0, "A21", 4)
    put(g, 1, "G12", 4)
    lane = give(g, 0, "T04")  # price 2, its # text: +1 reputation
    g.apply(0, {"type": "play", "uid": lane, "cell": 1})
    assert g.s.players[0].rep == 6 - 2 + 1  # the Surveyor may first move onto the new territory
    choose(g, "stay")
    assert g.s.players[0].rep == 6 - 2 + 1 + 1
    hoax = give(g, 0, "P02")  # rival −3 reputation, price 1
    g.apply(0, {"type": "play", "uid": hoax})
    assert g.s.players[1].rep == 6 - 3 and g.s.players[0].rep == 6 - 1 - 2
