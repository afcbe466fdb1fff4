"""Random legal games: they end as the rules say, armies are conserved, the board stays held, bids stay secret.

What every game must do (replay, JSON, listed actions apply and others are refused, timeouts, secrecy) is
checked for Godstorm by ``tests/conformance/test_game_contract.py``."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.godstorm import Godstorm
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import ledger_ok


def _check_board(g: Godstorm, awaiting: set[str]) -> None:
    """``awaiting``: territories whose gods a moved plague reached; they are banished at their owner's plague
    step, not at once (rulebook, turn step 5: «Если у вас есть какие-либо боги в зараженных землях, изгоните их
    сейчас»; only gods that *enter* a plagued land are banished at once: «Боги которые входят в зараженную
    территорию автоматически изгоняются»)."""
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
            assert v.owner is not None and v.owner >= 0
            assert not v.plague or tid in awaiting, tid
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
    steps = 0
    awaiting: set[str] = set()
    while g.outcome() is None:
        steps += 1
        assert steps < 60_000, "the game must end"
        actors = g.actors()
        assert actors
        seat = actors[0]
        legal = g.legal_actions(seat)
        assert legal
        action = choose(g, seat, legal, rnd)
        events = g.apply(seat, action)
        for e in events:
            if "to" not in e:
                assert e["type"] != "bid_secret" and "tcard_private" != e["type"]
        assert ledger_ok(g)
        for e in events:
            if e["type"] == "plague_moved" and g.s.terr[e["dst"]].gods:
                awaiting.add(e["dst"])
        awaiting = {t for t in awaiting if g.s.terr[t].plague and g.s.terr[t].gods}
        if g.outcome() is None:
            _check_board(g, awaiting)
    assert g.actors() == []
    if ruleset == "godstorm":
        assert g.s.epoch == 5 or len(g.active_seats()) == 1
    else:
        assert len(g.active_seats()) == 1
