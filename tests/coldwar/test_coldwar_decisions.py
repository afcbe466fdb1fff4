"""The open decisions (``ColdWar.open_decisions``): who must decide what, as the rulebook orders the round.

Each test quotes the rule it checks. A seat is prompted when it holds a decision it did not hold before the
last move (``decision.newly_open``): a new kind, or the same kind with a new key (the next event offered at
a window, a turn kept after an event that is no action, the next group of a nuclear event); a seat still
deciding the same decision is not asked again."""

from __future__ import annotations

import json
from pathlib import Path

from bot.games.coldwar.cards import ASSASSIN, DEPUTY, DIRECTOR, DOUBLE, SPY
from bot.games.coldwar.game import ColdWar
from bot.games.decision import OpenDecision, newly_open
from tests.coldwar.cw_helpers import both_wait, fresh, give, rig_briefing, setup_round, to_struggle

CIA, KGB = 0, 1


def kinds(game: ColdWar) -> list[tuple[str, tuple[int, ...]]]:
    return [(d.kind, d.seats) for d in game.open_decisions()]


def test_the_balance_holder_decides_who_acts_first() -> None:
    """«Игрок с жетоном баланса выбирает, кто будет ходить первым в фазе борьбы за влияние.»"""
    for seed in (1, 2, 3):
        game = fresh(seed)
        holder = game.view(None)["balance"]
        assert game.open_decisions() == [OpenDecision("first", (holder,))]


def test_planning_is_one_secret_simultaneous_decision_of_both_seats() -> None:
    """«В фазе планирования каждый игрок втайне от соперника выбирает одного из своих агентов для
    секретной работы.» The one who has not chosen yet keeps the same decision (not asked again)."""
    game = fresh(4)
    game.apply(game.view(None)["balance"], {"type": "first", "seat": CIA})
    before = game.open_decisions()
    assert before == [OpenDecision("plan", (CIA, KGB), simultaneous=True, secret=True)]
    assert game.is_simultaneous() and game.is_secret(KGB, {"type": "agent", "agent": SPY})
    game.apply(CIA, {"type": "agent", "agent": SPY})
    after = game.open_decisions()
    assert after == [OpenDecision("plan", (KGB,), simultaneous=True, secret=True)]
    assert newly_open(before, after) == set()
    # «Когда оба агента Х на текущий тур выбраны...» the struggle begins, the CIA first as chosen
    game.apply(KGB, {"type": "agent", "agent": DEPUTY})
    assert kinds(game) == [("turn", (CIA,))]


def test_after_a_double_agent_peek_the_other_seat_chooses_first() -> None:
    """The Double Agent «позволить игроку в фазе планирования следующего тура выяснить личность агента Х
    до назначения своего агента»: planning is then two decisions in a row, not simultaneous."""
    game = setup_round("cuba", [("generals", True), ("ngos", True)], [("unions", True)], (DOUBLE, DEPUTY))
    both_wait(game)
    assert kinds(game) == [("double", (CIA,))]
    game.apply(CIA, {"type": "double", "mode": "peek"})
    game.apply(game.view(None)["balance"], {"type": "first", "seat": KGB})
    before = game.open_decisions()
    assert before == [OpenDecision("plan_peek", (KGB,), secret=True)]
    assert not game.is_simultaneous() and game.legal_actions(CIA) == []
    game.apply(KGB, {"type": "agent", "agent": DIRECTOR})
    after = game.open_decisions()
    assert after == [OpenDecision("plan_peek", (CIA,), secret=True)]
    assert newly_open(before, after) == {CIA}


def test_struggle_turns_alternate_until_both_wait() -> None:
    """«Каждый раз, когда игрок получает право хода, он должен выбрать одно из трёх возможных действий»;
    «Если оба игрока выбирают выжидание один за другим, фаза борьбы за влияние завершается.»"""
    game = fresh(5)
    rig_briefing(game, "cuba", 0, tables=([("generals", True)], [("unions", True)]))
    to_struggle(game, KGB, (DEPUTY, SPY))
    before = game.open_decisions()
    assert before == [OpenDecision("turn", (KGB,), key=before[0].key)]
    game.apply(KGB, {"type": "wait"})
    after = game.open_decisions()
    assert kinds(game) == [("turn", (CIA,))] and newly_open(before, after) == {CIA}
    game.apply(CIA, {"type": "wait"})
    assert all(kind != "turn" for kind, _ in kinds(game))


def test_summit_meeting_keeps_the_turn_as_a_new_decision() -> None:
    """Summit Meeting is «not an action»: the seat's turn continues (docs/games/coldwar.md), and it is a new
    decision for that seat (its teammates are told)."""
    game = fresh(5)
    give(game, KGB, ["summit"])
    game.s.round = 2
    rig_briefing(game, "cuba", 0, tables=([("generals", True)], []))
    to_struggle(game, KGB, (ASSASSIN, DEPUTY))
    before = game.open_decisions()
    game.apply(KGB, {"type": "event", "card": "summit"})
    after = game.open_decisions()
    assert kinds(game) == [("turn", (KGB,))] and newly_open(before, after) == {KGB}


def test_each_event_of_a_window_is_its_own_decision() -> None:
    """«Для применения свойства события владелец карты объявляет о его применении в указанной фазе»: two
    détente events of one seat are offered one after the other, each a decision of its own."""
    game = fresh(7)
    give(game, CIA, ["space_race", "olympics"])
    game.s.round = 2
    agents = game.s.agents[CIA]
    agents.hq.remove(SPY)
    agents.dead.append(SPY)
    rig_briefing(game, "cuba", 0, tables=([("generals", True)], [("unions", True)]))
    to_struggle(game, CIA, (DEPUTY, DEPUTY))
    both_wait(game)
    first = game.open_decisions()
    assert first == [OpenDecision("event", (CIA,), key="space_race")]
    game.apply(CIA, {"type": "skip"})
    second = game.open_decisions()
    assert second == [OpenDecision("event", (CIA,), key="olympics")]
    assert newly_open(first, second) == {CIA}


def test_nuclear_escalation_discards_are_decisions_one_after_the_other() -> None:
    """«игрок, применивший свойство, может выложить их в сброс в любом порядке»: one group at a time while
    more than one is left."""
    game = fresh(8)
    give(game, CIA, ["nuclear"])
    game.s.round = 2
    rig_briefing(game, "cuba", 0, tables=([("generals", True), ("infantry", True)], [("militia", True)]))
    to_struggle(game, CIA, (DEPUTY, DEPUTY))
    game.apply(CIA, {"type": "event", "card": "nuclear"})
    first = game.open_decisions()
    assert kinds(game) == [("discard", (CIA,))] and len(game.legal_actions(CIA)) == 3
    game.apply(CIA, {"type": "discard", "group": "militia"})
    second = game.open_decisions()
    assert kinds(game) == [("discard", (CIA,))] and newly_open(first, second) == {CIA}
    game.apply(CIA, {"type": "discard", "group": "generals"})
    assert kinds(game) == [("turn", (KGB,))]


def test_nobody_decides_once_the_game_is_won() -> None:
    """«Побеждает тот, кто первым наберёт 100 очков.» (a finished stored game)"""
    games = json.loads((Path(__file__).parent / "fixtures" / "stored_games_v2.json").read_text(encoding="utf-8"))
    game = ColdWar.from_json(json.loads(games[0]["final"]))
    assert game.outcome() is not None
    assert game.open_decisions() == [] and game.actors() == []
