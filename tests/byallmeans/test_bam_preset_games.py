"""Random legal games and AI games between random preset decks: they end; every card is in exactly one
place after every action; no turn starts while a victory condition holds (the status check is never
skipped); a replay of the log reproduces the state; the AI reads nothing hidden."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games.ai import bot_rng, game_rng, policy_for
from bot.games.byallmeans import ByAllMeans, effects, engine, rules
from bot.games.byallmeans.state import Frame, State
from tests.byallmeans.bam_helpers import everywhere

ACTION_CAP = 6000


@pytest.fixture
def guarded_turns() -> Iterator[list[int]]:
    """Wrap the engine's ``next_turn`` step: «ПРОВЕРКА СТАТУСА ИГРЫ» comes right before it, so a victory
    condition must never hold when a new turn begins."""
    spec = effects.OPS["next_turn"]
    started: list[int] = []

    def guarded(s: State, f: Frame, op: dict[str, Any], ev: list[Any]) -> None:
        assert rules.status(s) is None, "a turn began while a player had won"
        started.append(s.turn.number)
        assert spec.run is not None
        spec.run(s, f, op, ev)

    effects.OPS["next_turn"] = effects.OpSpec(run=guarded, data=False)
    yield started
    effects.OPS["next_turn"] = spec


def _random_game(seed: int) -> tuple[ByAllMeans, list[tuple[int, dict[str, Any]]]]:
    g = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, seed)
    r = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    while g.outcome() is None and len(log) < ACTION_CAP:
        seat = r.choice(g.actors())
        legal = g.legal_actions(seat)
        busy = [a for a in legal if a["type"] != "end_turn"]
        action = r.choice(busy if busy and r.random() < 0.9 else legal)
        g.apply(seat, action)
        log.append((seat, action))
        assert sorted(everywhere(g.s)) == sorted(g.s.cards), (seed, len(log), action)
        for p in g.s.players:
            assert p.rep >= 0 and p.inf >= 0 and p.trust >= 0 and len(p.buffer) <= 2
    return g, log


@pytest.mark.parametrize("seed", range(16))
def test_random_preset_games(seed: int, guarded_turns: list[int]) -> None:
    g, log = _random_game(seed)
    assert g.outcome() is not None, "random games between presets end well inside the cap"
    assert guarded_turns, "turns passed through the guarded step"
    text = json.dumps(g.to_json(), sort_keys=True)
    replay = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, seed)
    for seat, action in log:
        replay.apply(seat, action)
    assert json.dumps(replay.to_json(), sort_keys=True) == text


@pytest.mark.parametrize("seed", range(6))
def test_ai_games_end_and_replay(seed: int, guarded_turns: list[int]) -> None:
    bot = policy_for("byallmeans", "strong")
    g = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, 100 + seed)
    log: list[tuple[int, dict[str, Any]]] = []
    while g.outcome() is None and g.s.turn.number <= 120:
        seat = g.actors()[0]
        legal = g.legal_actions(seat)
        action = bot.choose(g.view(seat), legal, bot_rng(game_rng(g), seat, len(log)))
        assert action in legal
        g.apply(seat, action)
        log.append((seat, action))
        assert sorted(everywhere(g.s)) == sorted(g.s.cards)
    assert g.outcome() is not None
    replay = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, 100 + seed)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_json() == g.to_json()


def _hide_differently(g: ByAllMeans, seat: int, r: random.Random) -> ByAllMeans:
    """The same game with the rival's hand swapped for other cards of its archives and every archive
    reordered: everything ``seat`` cannot see is different, everything it can see is the same."""
    h = ByAllMeans.from_json(json.loads(json.dumps(g.to_json())))
    rival = h.s.players[1 - seat]
    pool = rival.hand + rival.main + rival.extra
    r.shuffle(pool)
    n, m = len(rival.hand), len(rival.main)
    rival.hand, rival.main, rival.extra = pool[:n], pool[n:n + m], pool[n + m:]
    r.shuffle(h.s.players[seat].main)
    r.shuffle(h.s.players[seat].extra)
    return h


@pytest.mark.parametrize("seed", range(4))
def test_ai_ignores_what_it_cannot_see(seed: int) -> None:
    bot = policy_for("byallmeans", "strong")
    g = ByAllMeans.new([{}, {}], {"decks": ["random", "random"]}, 300 + seed)
    r = random.Random(seed)
    compared = 0
    for step in range(400):
        if g.outcome() is not None:
            break
        seat = g.actors()[0]
        legal = g.legal_actions(seat)
        action = bot.choose(g.view(seat), legal, bot_rng(game_rng(g), seat, step))
        if g.s.phase == "turn":
            other = _hide_differently(g, seat, r)
            assert other.view(seat) == g.view(seat)
            assert other.legal_actions(seat) == legal
            again = bot.choose(other.view(seat), other.legal_actions(seat), bot_rng(game_rng(other), seat, step))
            assert again == action
            compared += 1
        g.apply(seat, action)
    assert compared > 15
    assert engine.TURN_ACTIONS  # the engine's table is what was exercised
