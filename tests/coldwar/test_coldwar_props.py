"""Property tests over random legal games (cards conserved, secrets kept), the lobby and the goals.

What every game must do (replay, JSON, listed actions apply and others are refused, timeouts, secrecy of
the agent X in the views) is checked for Cold War by ``tests/conformance/test_game_contract.py``."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalAction, Player, Rng
from bot.games.coldwar import ColdWar, bench_state
from bot.games.coldwar.cards import GROUP_IDS, TARGET_IDS, vp
from bot.games.coldwar.engine import Engine


def _conserved(g: ColdWar) -> None:
    s = g.s
    groups = s.gdeck + s.gdiscard + [g.gid for side in s.table for g in side]
    assert sorted(groups) == sorted(GROUP_IDS)
    targets = s.tdeck + s.tdiscard + s.trophies[0] + s.trophies[1]
    if s.target is not None and s.target not in targets:
        targets.append(s.target)
    assert sorted(targets) == sorted(TARGET_IDS)
    for seat in (0, 1):
        assert g.engine.score(seat) == sum(vp(t) for t in s.trophies[seat])
        assert g.view(None)["sides"][seat]["score"] == sum(vp(t) for t in s.trophies[seat])
        agents = s.agents[seat]
        pool = agents.hq + agents.leave + agents.dead + ([s.x[seat]] if s.x[seat] else [])
        assert sorted(pool) == [1, 2, 3, 4, 5, 6]


def _public_has_no_secret(g: ColdWar, events: list[dict]) -> None:
    s = g.s
    if s.phase in ("planning", "struggle"):
        for seat in (0, 1):
            if s.x[seat] is not None:
                # hidden unless a Summit Meeting revealed it this round (and then to everyone)
                want = s.x[seat] if g.engine.shown(seat) else "hidden"
                assert g.view(None)["sides"][seat]["x"] == want
                text = " ".join(g.status_lines("en"))
                assert "Spy" not in text and "Assassin" not in text and "Analyst" not in text
    for e in events:
        if "to" not in e and e["type"] in ("chosen", "wait", "recruit", "use", "media_use"):
            assert "agent" not in e
        if "to" not in e and e["type"] == "media_use":
            assert set(e) == {"type", "seat", "group"}


def play_random(seed: int, pick: int, max_steps: int = 20000,
                goal: int = 100) -> tuple[ColdWar, list[tuple[int, dict]]]:
    g = ColdWar.new([{"side": 0}, {"side": 1}], {"goal": goal}, seed)
    rng = Rng(pick)
    log: list[tuple[int, dict]] = []
    while g.outcome() is None:
        seat = rng.choice(g.actors())
        legal = g.legal_actions(seat)
        assert legal
        action = rng.choice(legal)
        events = g.apply(seat, action)
        json.dumps(events)
        log.append((seat, action))
        _conserved(g)
        _public_has_no_secret(g, events)
        assert len(log) < max_steps
    return g, log


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), pick=st.integers(0, 10**9))
def test_random_games_end_and_conserve_cards(seed: int, pick: int) -> None:
    g, log = play_random(seed, pick)
    out = g.outcome()
    assert out is not None and (out["draw"] or out["winners"] in ([0], [1]))
    if not out["exhausted"]:
        assert max(out["scores"]) >= 100 and out["scores"][0] != out["scores"][1]
    assert len(log) > 0


@pytest.mark.parametrize("goal", [75, 50])
def test_shorter_goals_end_with_the_printed_cards(goal: int) -> None:
    """The house variants: the first side at the goal at détente with strictly more points wins."""
    for seed in range(4):
        g, _ = play_random(seed, seed + 100, goal=goal)
        out = g.outcome()
        assert out is not None
        if not out["exhausted"]:
            assert max(out["scores"]) >= goal and out["winners"] == [out["scores"].index(max(out["scores"]))]


def test_an_absent_seat_waits_or_recruits_in_its_turn() -> None:
    """The timeout of a struggle turn is a wait or a recruitment (that it is legal and draws nothing is the
    contract suite's check)."""
    rng = Rng(3)
    for seed in range(20):
        g = ColdWar.new([{}, {}], {}, seed)
        steps = 0
        while g.outcome() is None and steps < 400:
            seat = rng.choice(g.actors())
            act = g.timeout_action(seat)
            assert act is not None
            if g.s.dec.kind == "turn":
                assert act["type"] in ("wait", "recruit")
            g.apply(seat, act if rng.random() < 0.5 else rng.choice(g.legal_actions(seat)))
            steps += 1


def test_planning_is_simultaneous_and_public_shows_only_chosen() -> None:
    g = ColdWar.new([{}, {}], {}, 11)
    g.apply(g.actors()[0], {"type": "first", "seat": 0})
    while g.s.dec.kind != "plan":
        seat = g.actors()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert g.is_simultaneous() and sorted(g.actors()) == [0, 1]
    ev = g.apply(1, {"type": "agent", "agent": 5})
    public = [e for e in ev if "to" not in e]
    assert public == [{"type": "chosen", "seat": 1}]
    assert g.view(None)["sides"][1]["chosen"] and not g.view(None)["sides"][0]["chosen"]
    assert 5 in g.view(None)["sides"][1]["hq"]            # HQ shown face down: X not deducible
    assert g.view(1)["private"]["x"] == 5 and g.view(0)["private"]["x"] is None
    # still the simultaneous choice: seat 0 chooses without seeing seat 1's agent, and is not asked anew
    assert g.actors() == [0] and g.is_simultaneous()
    assert [(d.kind, d.seats) for d in g.open_decisions()] == [("plan", (0,))]
    assert "Assassin" not in " ".join(g.status_lines("en"))
    assert "Assassin" in g.private_text(1, "en")
    assert g.timeout_action(0) in g.legal_actions(0)


def test_arrange_seats_teams() -> None:
    rng = Rng(1)
    arr = ColdWar.arrange_seats([Player(1, 0), Player(2, 1), Player(3, None), Player(4, 0), Player(5)], {}, rng)
    assert sorted(u for seat in arr.seat_users for u in seat) == [1, 2, 3, 4, 5]
    assert {1, 4} <= set(arr.seat_users[0]) and 2 in arr.seat_users[1]
    assert abs(len(arr.seat_users[0]) - len(arr.seat_users[1])) <= 1
    with pytest.raises(IllegalAction):
        ColdWar.arrange_seats([Player(1, 0), Player(2, 0)], {}, rng)
    with pytest.raises(IllegalAction):
        ColdWar.arrange_seats([Player(1)], {}, rng)
    assert ColdWar.player_range({}) == (2, 20) and ColdWar.team_count({}, 4) == 2
    two = ColdWar.arrange_seats([Player(1), Player(2)], {}, rng)
    assert [len(s) for s in two.seat_users] == [1, 1]


def test_shorter_goal_option() -> None:
    g = ColdWar.new([{}, {}], {"goal": 50}, 1)
    assert g.view(None)["goal"] == 50
    with pytest.raises(IllegalAction):
        ColdWar.new([{}, {}], {"goal": 33}, 1)
    assert [c[0] for c in ColdWar.option_specs()[0].choices] == [100, 75, 50]


def test_bench_state_is_crowded_and_deterministic() -> None:
    a, b = bench_state(), bench_state()
    assert a.to_json() == b.to_json()
    assert a.s.dec.kind == "turn" and sum(len(t) for t in a.s.table) >= 7
    assert isinstance(a.engine, Engine)
