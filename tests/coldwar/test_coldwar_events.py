"""Event abilities of the printed cards: offered at their phase in a later round, burning their points.

The rulebook: "Для применения свойства события владелец карты объявляет о его применении в указанной фазе
и выполняет инструкции карты" and "После применения свойства события победные очки карты сгорают. Игрок,
применивший свойство, отправляет карту в сброс целей и отодвигает свой жетон подсчёта на количество
утраченных очков". The powers themselves are the card list transcription's (see docs/games/coldwar.md)
except Space Race and Nobel, whose texts the rulebook prints.
"""

from bot.games.coldwar.cards import ANALYST, ASSASSIN, DEPUTY, DIRECTOR, SPY, TARGETS, vp
from tests.coldwar.cw_helpers import both_wait, fresh, give, rig_briefing, tables, to_struggle, types

CIA, KGB = 0, 1


def _later_round(seat: int, card: str, seed: int, tables, first: int = CIA, x=(DEPUTY, DEPUTY)):
    """``card`` won by ``seat`` in an earlier round; the struggle of this round has begun."""
    g = fresh(seed)
    give(g, seat, [card])
    g.s.round = 2
    rig_briefing(g, "cuba", 0, tables=tables)
    to_struggle(g, first, x)
    return g


def test_event_not_usable_in_the_round_it_was_won() -> None:
    """"Выигранная карта события даёт игроку возможность в одном из следующих туров применить особое
    свойство"."""
    g = fresh(5)
    give(g, CIA, ["olympics"], won=1)
    g.s.agents[CIA].dead.append(g.s.agents[CIA].hq.pop())
    assert g.engine.usable_events(CIA, "detente") == []


def test_summit_meeting_reveals_the_opponents_agent_publicly_without_using_the_action() -> None:
    """Card: discard it to make the opponent reveal their agent X (struggle)."""
    g = _later_round(KGB, "summit", 5, ([("generals", True)], []), first=KGB, x=(ASSASSIN, DEPUTY))
    assert g.view(None)["sides"][CIA]["x"] == "hidden"
    # a seat without groups must recruit; the Summit is no action, so it may come first
    assert g.legal_actions(KGB) == [{"type": "recruit"}, {"type": "event", "card": "summit"}]
    before = g.engine.score(KGB)
    ev = g.apply(KGB, {"type": "event", "card": "summit"})
    reveal = [e for e in ev if e["type"] == "x_revealed"]
    assert reveal == [{"type": "x_revealed", "seat": CIA, "agent": ASSASSIN, "by": KGB}]   # no "to": public
    assert "Assassin" in g.event_text(reveal[0], "en") and "киллер" in g.event_text(reveal[0], "ru").lower()
    assert g.view(None)["sides"][CIA]["x"] == ASSASSIN and g.view(None)["sides"][KGB]["x"] == "hidden"
    assert g.engine.score(KGB) == before - vp("summit") and "summit" in g.s.tdiscard
    # the KGB still has its action, and it is still the recruit it owes
    assert g.actors() == [KGB] and g.legal_actions(KGB) == [{"type": "recruit"}]
    g.apply(KGB, {"type": "recruit"})
    assert g.actors() == [CIA]


def test_summit_meeting_not_offered_twice_nor_before_the_struggle() -> None:
    g = fresh(6)
    give(g, CIA, ["summit"])
    g.s.round = 2
    rig_briefing(g, "cuba", 0, tables=([("generals", True)], [("unions", True)]))
    assert g.s.dec.kind == "first"           # no briefing offer: the card names the struggle
    to_struggle(g, CIA, (DEPUTY, SPY))
    assert {"type": "event", "card": "summit"} in g.legal_actions(CIA)
    g.apply(CIA, {"type": "event", "card": "summit"})
    assert all(a["type"] != "event" for a in g.legal_actions(CIA))


def test_olympic_games_bring_back_a_chosen_eliminated_agent_on_leave() -> None:
    """Card: at détente, discard it to bring one of your eliminated agents back into the game, on leave."""
    g = fresh(7)
    give(g, CIA, ["olympics"])
    g.s.round = 2
    ag = g.s.agents[CIA]
    for dead in (SPY, DIRECTOR):
        ag.hq.remove(dead)
        ag.dead.append(dead)
    rig_briefing(g, "cuba", 0, tables=([("generals", True)], [("unions", True)]))
    to_struggle(g, CIA, (DEPUTY, DEPUTY))
    both_wait(g)
    assert g.s.phase == "detente" and g.s.dec.to_json() == {"kind": "event", "seat": CIA, "card": "olympics"}
    legal = g.legal_actions(CIA)
    assert legal == [{"type": "event", "card": "olympics", "agent": SPY},
                     {"type": "event", "card": "olympics", "agent": DIRECTOR}, {"type": "skip"}]
    assert g.action_path(CIA, legal[1], "en") == ["Event: Olympic Games", "Bring back: Director"]
    before = g.engine.score(CIA)
    ev = g.apply(CIA, legal[1])
    assert {"type": "agent_returned", "seat": CIA, "agent": DIRECTOR} in ev
    assert g.engine.score(CIA) == before - vp("olympics")
    assert ag.dead == [SPY]
    # on leave: not choosable in the next planning, back in headquarters afterwards
    g.apply(g.s.balance, {"type": "first", "seat": CIA})
    assert DIRECTOR not in {a["agent"] for a in g.legal_actions(CIA)}
    g.apply(CIA, {"type": "agent", "agent": ANALYST})
    g.apply(KGB, {"type": "agent", "agent": ANALYST})
    assert DIRECTOR in ag.hq


def test_olympic_games_not_offered_without_an_eliminated_agent() -> None:
    g = fresh(7)
    give(g, CIA, ["olympics"])
    g.s.round = 2
    rig_briefing(g, "cuba", 0, tables=([("generals", True)], [("unions", True)]))
    to_struggle(g, CIA, (DEPUTY, DEPUTY))
    both_wait(g)
    assert g.s.round == 3 and "olympics" in g.s.trophies[CIA]


def test_nuclear_escalation_discards_only_the_military_groups_in_chosen_order() -> None:
    """Card: as your action, discard every military group in play. Rulebook: "Если применение свойства
    приводит к множественным сбросам карт («Ядерная эскалация», например), игрок, применивший свойство,
    может выложить их в сброс в любом порядке"."""
    g = _later_round(CIA, "nuclear", 8, ([("generals", True), ("radio", False)],
                                         [("militia", True), ("unions", True)]))
    assert {"type": "event", "card": "nuclear"} in g.legal_actions(CIA)
    g.apply(CIA, {"type": "event", "card": "nuclear"})
    assert g.s.dec.kind == "discard"
    assert g.legal_actions(CIA) == [{"type": "discard", "group": "generals"},
                                    {"type": "discard", "group": "militia"}]
    g.apply(CIA, {"type": "discard", "group": "militia"})
    assert g.s.gdiscard[-2:] == ["militia", "generals"]
    assert tables(g) == [[["radio", False]], [["unions", True]]]
    assert g.engine.score(CIA) == 0 and g.actors() == [KGB]      # it was the CIA's action


def test_nuclear_escalation_needs_a_military_group_in_play() -> None:
    g = _later_round(CIA, "nuclear", 8, ([("radio", True)], [("unions", True)]))
    assert {"type": "event", "card": "nuclear"} not in g.legal_actions(CIA)
    h = _later_round(CIA, "nuclear", 8, ([("radio", True)], [("police", True)]))
    h.apply(CIA, {"type": "event", "card": "nuclear"})       # a single card needs no order
    assert tables(h) == [[["radio", True]], []] and h.actors() == [KGB]
    assert h.legal_actions(KGB) == [{"type": "recruit"}]


def test_live_benefit_recruits_the_top_of_the_group_discard_as_the_action() -> None:
    """Card: instead of your action, recruit the top card of the group discard pile. Rulebook: "Игрок не
    имеет права завербовать группу, если из-за этого превысит предел групп ... Это верно даже для случаев
    нестандартной вербовки при помощи особого свойства карты события (например, см. свойство события
    «Акция протеста»)"."""
    g = _later_round(CIA, "protest", 9, ([("generals", True)], [("unions", True), ("radio", True)]))
    assert {"type": "event", "card": "protest"} not in g.legal_actions(CIA)     # the discard is empty
    g.apply(CIA, {"type": "use", "group": "generals", "target": "radio"})
    g.apply(KGB, {"type": "wait"})
    deck = list(g.s.gdeck)
    ev = g.apply(CIA, {"type": "event", "card": "protest"})
    assert ["radio", True] in tables(g)[CIA] and "radio" not in g.s.gdiscard
    assert g.s.gdeck == deck and g.actors() == [KGB]
    assert "recruit" in types(ev) and "from the group discard pile" in g.event_text(
        [e for e in ev if e["type"] == "recruit"][0], "en")


def test_live_benefit_respects_the_group_limit() -> None:
    g = fresh(9)
    give(g, CIA, ["protest"])
    g.s.round = 2
    rig_briefing(g, "greece", 0, tables=([("generals", True), ("radio", True), ("workers", True)],
                                         [("unions", True)]))
    g.s.gdiscard.append(g.s.gdeck.pop(0))
    to_struggle(g, CIA, (DEPUTY, DEPUTY))
    assert TARGETS["greece"]["limit"] == 3
    assert {"type": "event", "card": "protest"} not in g.legal_actions(CIA)


def test_nobel_prize_saves_the_agent_from_unrest() -> None:
    """Rulebook (English edition, Nobel Peace Prize card): "Cease-fire: Upon causing civil disorder,
    discard this objective to prevent your Agent X from being terminated. He goes on leave instead."."""
    g = _later_round(CIA, "nobel", 6, ([("bankers", True), ("television", True)], [("unions", True)]),
                     x=(SPY, DEPUTY))
    g.apply(CIA, {"type": "wait"})
    g.apply(KGB, {"type": "wait"})
    assert g.s.dec.to_json() == {"kind": "event", "seat": CIA, "card": "nobel"}
    ev = g.apply(CIA, {"type": "event", "card": "nobel"})
    assert {"type": "nobel_saved", "seat": CIA, "agent": SPY} in ev
    assert SPY in g.s.agents[CIA].leave and SPY not in g.s.agents[CIA].dead
    assert g.s.trophies[KGB] == ["cuba"]
    assert not [e for e in ev if e["type"] == "ability" and e["seat"] == CIA]


def test_space_race_reorders_the_target_deck_at_detente() -> None:
    """Rulebook (English edition, Space Race card): "Détente: Discard this objective to look at the next
    three cards on the objective deck and then replace them in any order you choose."."""
    g = _later_round(KGB, "space_race", 7, ([("generals", True)], [("unions", True)]))
    both_wait(g)
    assert g.s.dec.to_json() == {"kind": "event", "seat": KGB, "card": "space_race"}
    g.apply(KGB, {"type": "event", "card": "space_race"})
    cards = g.view(KGB)["private"]["cards"]
    assert g.s.dec.kind == "space" and cards == g.s.tdeck[:3]
    order = list(reversed(cards))
    g.apply(KGB, {"type": "order", "order": order})
    assert g.s.round == 3 and g.s.target == order[0] and g.s.tdeck[:2] == order[1:]


def test_private_text_explains_the_owners_events() -> None:
    """Struggle events are only a button label ("Event: Nuclear Escalation"): the owner's /game hand
    says when and what each captured event can be played for."""
    g = fresh(4)
    give(g, CIA, ["nuclear", "cuba"])
    text = g.private_text(CIA, "en")
    assert "Nuclear Escalation (struggle for influence)" in text and "every military group" in text
    assert "Cuba" not in text and "Nuclear" not in g.private_text(KGB, "en")
    assert "Ядерная эскалация" in g.private_text(CIA, "ru")
