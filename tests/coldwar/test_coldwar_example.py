"""The rulebook's worked example: Cuba, 9 against 9, the economy icon, the Spy and the Assassin."""

from bot.games.coldwar.cards import ASSASSIN, SPY
from tests.coldwar.cw_helpers import fresh, rig_briefing, tables, types

CIA, KGB = 0, 1


def test_cuba_worked_example() -> None:
    """The rulebook's example round, played on the printed Cuba (stability 9, limit 5, 10 points):
    "Теперь влияние обеих сторон равно 9", "Джордж выигрывает спор", "Куба переходит в трофеи СССР",
    "шпион Бориса погибает", "вторая часть свойства киллера ... не применяется", "на деление «10»"."""
    g = fresh(seed=3)
    # George (CIA) holds the balance token; the group deck is stacked as in the rulebook
    rig_briefing(g, "cuba", balance=CIA,
                 top_groups=["opposition", "industry", "newspapers", "mafia", "food"])
    assert g.view(None)["target"] | {"priority": None} == {
        "id": "cuba", "kind": "country", "stability": 9, "limit": 5, "priority": None, "vp": 10, "phase": None}
    g.apply(CIA, {"type": "first", "seat": CIA})
    assert g.is_simultaneous() and sorted(g.actors()) == [CIA, KGB]
    ev = g.apply(CIA, {"type": "agent", "agent": ASSASSIN})
    assert [e for e in ev if "to" not in e and "agent" in e] == []
    g.apply(KGB, {"type": "agent", "agent": SPY})
    assert g.view(None)["sides"][0]["x"] == "hidden"

    g.apply(CIA, {"type": "recruit"})                                            # Opposition 5
    g.apply(KGB, {"type": "recruit"})                                            # Industry 4
    g.apply(CIA, {"type": "use", "group": "opposition", "target": "industry"})   # lure Industry
    assert tables(g)[CIA] == [["opposition", False], ["industry", True]]
    assert g.engine.inf(CIA) == 9
    assert g.legal_actions(KGB) == [{"type": "recruit"}]                        # no groups: must recruit
    g.apply(KGB, {"type": "recruit"})                                            # Newspapers 4
    g.apply(CIA, {"type": "use", "group": "industry", "target": "newspapers"})   # Newspapers inactive
    g.apply(KGB, {"type": "recruit"})                                            # Mafia 2
    g.apply(CIA, {"type": "wait"})
    g.apply(KGB, {"type": "use", "group": "mafia", "target": "newspapers"})      # Newspapers active
    g.apply(CIA, {"type": "wait"})
    ev = g.apply(KGB, {"type": "use", "group": "newspapers"})
    peek = [e for e in ev if e["type"] == "media_peek"]
    assert peek == [{"type": "media_peek", "seat": KGB, "group": "food", "to": [KGB]}]
    assert g.view(KGB)["private"]["media_top"] == "food"
    assert "media_top" not in g.view(None)
    g.apply(KGB, {"type": "media", "choice": "take"})                            # Food Companies 3
    assert (g.engine.inf(CIA), g.engine.inf(KGB)) == (9, 9)                    # = stability: no unrest

    g.apply(CIA, {"type": "wait"})
    ev = g.apply(KGB, {"type": "wait"})
    tok = [e for e in ev if e["type"] == "token"]
    assert tok == [{"type": "token", "seat": CIA, "why": "economic"}]           # Industry 4 > Food 3
    order = types(ev)
    assert order.index("report") < order.index("ability")
    spy = [e for e in ev if e["type"] == "capture"]
    assert spy[0]["seat"] == KGB and spy[0]["how"] == "spy" and spy[0]["target"] == "cuba"
    kills = [e for e in ev if e["type"] == "eliminated"]
    assert kills == [{"type": "eliminated", "seat": KGB, "agent": SPY, "reason": "assassin"}]
    assert "to_bottom" not in order                                              # Cuba already taken
    assert g.s.trophies == [[], ["cuba"]]
    assert g.engine.score(KGB) == 10 and g.engine.score(CIA) == 0
    assert g.s.agents[CIA].leave == [ASSASSIN]                             # Assassin on leave
    assert SPY in g.s.agents[KGB].dead
    # round 2: KGB is behind? no, CIA is behind and takes the balance token
    assert g.s.round == 2 and g.s.balance == CIA
