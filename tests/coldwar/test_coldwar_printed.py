"""The printed card values the rulebook lets us check (../shared/rules/cold-war-kgb-vs-cia.ru.txt)."""

from bot.games.coldwar.cards import GROUPS, TARGETS


def test_cuba_is_worth_10_points() -> None:
    """"Борис захватил Кубу, так что он сдвигает жетон подсчёта очков по карте подсчёта КГБ на деление
    «10»" (he started the game at 0)."""
    assert TARGETS["cuba"]["vp"] == 10


def test_cuba_priority_icons() -> None:
    """"На Кубе знаки приоритета стоят в следующем порядке: экономика, война, политика, общество"."""
    assert TARGETS["cuba"]["priority"] == ["economic", "military", "political", "media"]


def test_cuba_stability_and_limit_fit_the_worked_example() -> None:
    """"Теперь влияние обеих сторон равно 9" and the truce follows without civil unrest, so Cuba's
    stability is at least 9 ("Игрок, влияние которого равно значению стабильности цели, не считается
    превысившим параметр стабильности"); Boris ends with Newspapers, Mafia and Food companies in front of
    him, and "Игрок не имеет права завербовать группу, если из-за этого превысит предел групп", so the
    limit is at least 3. The rulebook does not print the numbers; the card list gives 9 and 5."""
    assert TARGETS["cuba"]["stability"] >= 9 and TARGETS["cuba"]["limit"] >= 3
    assert (TARGETS["cuba"]["stability"], TARGETS["cuba"]["limit"]) == (9, 5)


def test_the_five_groups_the_rulebook_names() -> None:
    """"вербует оппозицию (политическая группа с влиянием 5)"; "вербует промышленников (экономическая
    группа с влиянием 4)"; "Теперь это газеты, общественная группа с влиянием 4"; "вербует мафию
    (экономическая группа с влиянием 2)"; "Это пищевики (экономика, влияние 3)"."""
    named = {gid: (GROUPS[gid]["faction"], GROUPS[gid]["influence"])
             for gid in ("opposition", "industry", "newspapers", "mafia", "food")}
    assert named == {"opposition": ("political", 5), "industry": ("economic", 4),
                     "newspapers": ("media", 4), "mafia": ("economic", 2), "food": ("economic", 3)}


def test_space_race_text() -> None:
    """English rulebook, component page (the Russian text file lost the card pictures): "Détente: Discard
    this objective to look at the next three cards on the objective deck and then replace them in any
    order you choose." — played at détente, the top three targets reordered (engine test:
    test_coldwar_events.test_space_race_reorders_the_target_deck_at_detente)."""
    assert (TARGETS["space_race"]["phase"], TARGETS["space_race"]["ability"]) == ("detente", "space_race")


def test_nobel_text() -> None:
    """English rulebook, objective card diagram: "Cease-fire: Upon causing civil disorder, discard this
    objective to prevent your Agent X from being terminated. He goes on leave instead." (Cease-fire is
    this edition's truce; engine test: test_coldwar_events.test_nobel_prize_saves_the_agent_from_unrest)."""
    assert (TARGETS["nobel"]["phase"], TARGETS["nobel"]["ability"]) == ("truce", "nobel")


def test_live_benefit_and_nuclear_escalation_are_events() -> None:
    """The rulebook names them as event cards: "нестандартной вербовки при помощи особого свойства карты
    события (например, см. свойство события «Акция протеста»)" and "Если применение свойства приводит к
    множественным сбросам карт («Ядерная эскалация», например)"."""
    assert TARGETS["protest"]["kind"] == TARGETS["nuclear"]["kind"] == "event"
    assert TARGETS["protest"]["phase"] == TARGETS["nuclear"]["phase"] == "struggle"
