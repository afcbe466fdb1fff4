"""Random legal games: they end, armies are conserved, the board stays held, replay is exact."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalAction
from bot.games.godstorm import Godstorm, random_playout
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import ledger_ok


def _check_board(g: Godstorm) -> None:
    s = g.s
    move_to = s.move.dst if s.move else None
    dealt = s.phase not in ("setup", "pantheon", "pile", "claim")
    for tid, v in s.terr.items():
        if tid != move_to and dealt:
            # a miracle may destroy every army of a territory (rulebook: "Возможно, что карта чуда может
            # уничтожить все войска на территории"); it is then held by nobody
            emptied = s.mir is not None and v.owner is None and v.armies == 0 and not v.gods
            assert emptied or (v.owner is not None and v.armies >= 1), tid
        if v.gods:
            assert v.owner is not None and v.owner >= 0 and not v.plague
    for sp, u in s.uw.items():
        if sp != move_to:
            assert (u.owner is None) == (u.armies == 0), sp
    assert sum(v.temple for v in s.terr.values()) <= 12


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    ruleset=st.sampled_from(["godstorm", "classic"]),
    placement=st.sampled_from(["random", "choose"]),
    seed=st.integers(0, 10**6),
)
def test_random_games(players: int, ruleset: str, placement: str, seed: int) -> None:
    g = Godstorm.new([{} for _ in range(players)], {"ruleset": ruleset, "placement": placement}, seed)
    rnd = random.Random(seed)
    log = []
    steps = 0
    while g.outcome() is None:
        steps += 1
        assert steps < 60_000, "the game must end"
        actors = g.actors()
        assert actors
        seat = actors[0]
        legal = g.legal_actions(seat)
        assert legal
        if steps % 97 == 0:  # every listed action is accepted
            snapshot = g.to_json()
            for a in legal[:40]:
                Godstorm.from_json(snapshot).apply(seat, a)
        action = choose(g, seat, legal, rnd)
        events = g.apply(seat, action)
        for e in events:
            if "to" not in e:
                assert e["type"] != "bid_secret" and "tcard_private" != e["type"]
        log.append((seat, action))
        assert ledger_ok(g)
        if g.outcome() is None:
            _check_board(g)
    assert g.actors() == []
    if ruleset == "godstorm":
        assert g.s.epoch == 5 or len(g.active_seats()) == 1
    else:
        assert len(g.active_seats()) == 1
    replay = Godstorm.new([{} for _ in range(players)], {"ruleset": ruleset, "placement": placement}, seed)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_json() == g.to_json()
    assert Godstorm.from_json(g.to_json()).to_json() == g.to_json()


def test_illegal_actions_change_nothing() -> None:
    g = random_playout(3, 3, "godstorm", max_actions=120).game
    before = g.to_json()
    seat = g.actors()[0]
    for bad in ({"type": "attack", "from": "Gaul", "to": "Rus", "dice": 3}, {"type": "nope"},
                {"type": "place", "territory": "Atlantis", "count": 99}, {"type": "bid", "faith": -1}):
        try:
            g.apply(seat, bad)
        except IllegalAction as exc:
            assert exc.key.startswith("godstorm.err.")
        assert g.to_json() == before
    other = next(i for i in range(3) if i not in g.actors())
    try:
        g.apply(other, g.legal_actions(seat)[0])
        raise AssertionError("an action out of turn was accepted")
    except IllegalAction:
        pass
