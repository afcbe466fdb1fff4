"""Random legal play: games end or stop cleanly, every card is in exactly one place after every action, the
views hide hands, and two passing seats end in a stalemate. Replay, JSON, refusals, timeouts and secrecy are
checked for By All Means by ``tests/conformance/test_game_contract.py``."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.byallmeans import ByAllMeans
from tests.byallmeans.bam_helpers import everywhere

ACTION_CAP = 4000


def _play(seed: int) -> tuple[ByAllMeans, list[tuple[int, dict]]]:  # type: ignore[type-arg]
    g = ByAllMeans.new([{}, {}], {}, seed)
    r = random.Random(seed)
    log: list[tuple[int, dict]] = []  # type: ignore[type-arg]
    while g.outcome() is None and len(log) < ACTION_CAP:
        actors = g.actors()
        assert actors, "a running game always has someone to act"
        seat = r.choice(actors)
        legal = g.legal_actions(seat)
        assert legal, "an actor always has a legal action"
        # ending the turn at once makes dull games: prefer anything else most of the time
        busy = [a for a in legal if a["type"] != "end_turn"]
        action = r.choice(busy if busy and r.random() < 0.9 else legal)
        g.apply(seat, action)
        log.append((seat, action))
        assert sorted(everywhere(g.s)) == sorted(g.s.cards), (seed, len(log), action)
        for p in g.s.players:
            assert p.rep >= 0 and p.inf >= 0 and p.trust >= 0 and len(p.buffer) <= 2
    return g, log


@pytest.mark.parametrize("seed", range(40))
def test_random_games(seed: int) -> None:
    g, log = _play(seed)
    assert g.outcome() is not None, "random games end well inside the cap"
    result = g.outcome()
    assert result["draw"] or len(result["winners"]) == 1
    assert log


def test_views_hide_hands_and_archive_order() -> None:
    """Hands are private; the public view carries only counts."""
    g, _ = _play(5)
    public = json.dumps(g.view(None))
    mine = g.view(0)
    assert "me" not in g.view(None) and mine["me"]["seat"] == 0
    for uid in g.s.players[1].hand:
        assert uid not in json.dumps(mine)
    for p in g.s.players:
        for uid in p.hand + p.main + p.extra:
            assert f'"{uid}"' not in public


def test_absent_seats_end_in_a_stalemate() -> None:
    g = ByAllMeans.new([{}, {}], {}, 8)
    for _ in range(300):
        if g.outcome() is not None:
            break
        seat = g.actors()[0]
        action = g.timeout_action(seat)
        assert action is not None
        g.apply(seat, action)
    # two seats that only pass leave the table as it was: house rule 40 ends the game after ten such rounds
    assert g.outcome() == {"winners": [], "draw": True, "reasons": ["stalemate"]}
    assert g.s.turn.number <= 25
