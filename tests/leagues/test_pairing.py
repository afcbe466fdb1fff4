"""Pairing against the published rules: FIDE Handbook C.04.1 (basic rules for Swiss systems), C.04.3
(the Dutch system: S1 against S2 within a score bracket, transpositions, downfloaters), the circle method
for round robin, and the standard seeded bracket."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.leagues import pairing
from bot.core.leagues.pairing import History

RATED = {u: 100.0 - u for u in range(1, 41)}  # player 1 is the highest rated, so pairing number = id


def test_round_one_pairs_upper_half_against_lower_half() -> None:
    # C.04.3 A.6: in a homogeneous bracket S1 = the upper half, S2 = the lower half, S1[i] meets S2[i]
    got = pairing.swiss(list(range(1, 9)), RATED, History())
    assert got.pairs == [(1, 5), (2, 6), (3, 7), (4, 8)] and got.bye is None and got.rematches == 0


def test_odd_field_gives_the_bye_to_the_lowest() -> None:
    # C.04.1 c: the player who cannot be paired gets the bye; it falls in the lowest bracket, to its last player
    got = pairing.swiss(list(range(1, 8)), RATED, History())
    assert got.bye == 7
    assert got.pairs == [(1, 4), (2, 5), (3, 6)]


def test_no_second_bye_while_another_can_take_it() -> None:
    # C.04.1 d: a player who already had a pairing-allocated bye shall not get another
    h = History(scores={u: 0.0 for u in range(1, 6)}, byes={5: 1})
    h.scores[5] = 1.0  # the bye scored a win: player 5 now leads
    got = pairing.swiss(list(range(1, 6)), RATED, h)
    assert got.bye == 4


def test_transposition_avoids_a_rematch() -> None:
    # S1 = [1, 2], S2 = [3, 4]; 1 met 3 already, so S2 is transposed to [4, 3] (C.04.3: transpositions of S2)
    h = History()
    h.meet([1, 3])
    got = pairing.swiss([1, 2, 3, 4], RATED, h)
    assert got.pairs == [(1, 4), (2, 3)] and got.rematches == 0


def test_downfloater_meets_the_top_of_the_next_bracket() -> None:
    # bracket {1} (score 1) has nobody to play: 1 moves down and meets the highest resident (S2's first)
    h = History(scores={1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0})
    assert pairing.swiss([1, 2, 3, 4], RATED, h).pairs == [(1, 2), (3, 4)]
    h.meet([1, 2])
    assert pairing.swiss([1, 2, 3, 4], RATED, h).pairs == [(1, 3), (2, 4)]


def test_score_brackets_stay_together() -> None:
    # C.04.1 e: players are paired with others of the same score when the brackets allow it
    scores = {u: (2.0 if u <= 4 else 1.0 if u <= 10 else 0.0) for u in range(1, 17)}
    got = pairing.swiss(list(range(1, 17)), RATED, History(scores=scores))
    assert all(scores[a] == scores[b] for a, b in got.pairs)
    assert got.pairs[:2] == [(1, 3), (2, 4)]


def test_unavoidable_rematch_is_allowed_and_counted() -> None:
    # three rounds of a four-player field exhaust every opponent: the fourth round must repeat
    h = History()
    for a, b in [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]:
        h.meet([a, b])
    got = pairing.swiss([1, 2, 3, 4], RATED, h)
    assert got.rematches == 2 and sorted(u for p in got.pairs for u in p) == [1, 2, 3, 4]


def _pairable(players: list[int], met: History, byes: dict[int, int]) -> bool:
    """Brute force: is there a pairing without a rematch, the bye (odd field) to a player without one?"""
    def match(rest: list[int]) -> bool:
        if not rest:
            return True
        a = rest[0]
        return any(not met.has_met(a, b) and match([x for x in rest[1:] if x != b]) for b in rest[1:])
    if len(players) % 2 == 0:
        return match(players)
    fresh = [u for u in players if not byes.get(u)] or players
    return any(match([x for x in players if x != u]) for u in fresh)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 10_000), rounds=st.integers(0, 5))
def test_no_rematch_while_avoidable(n: int, seed: int, rounds: int) -> None:
    import random

    rng = random.Random(seed)
    players = list(range(1, n + 1))
    h = History()
    for _ in range(rounds):  # a random history of meetings, scores and byes
        order = players[:]
        rng.shuffle(order)
        for a, b in itertools.zip_longest(order[::2], order[1::2]):
            if b is None:
                h.byes[a] = h.byes.get(a, 0) + 1
                h.scores[a] = h.scores.get(a, 0.0) + 1
            else:
                h.meet([a, b])
                winner = rng.choice([a, b])
                h.scores[winner] = h.scores.get(winner, 0.0) + 1
    got = pairing.swiss(players, RATED, h)
    seated = sorted([u for p in got.pairs for u in p] + ([got.bye] if got.bye is not None else []))
    assert seated == players  # everyone exactly once
    if _pairable(players, h, h.byes):
        assert got.rematches == 0
        assert all(not h.has_met(a, b) for a, b in got.pairs)
        if got.bye is not None and any(not h.byes.get(u) for u in players):
            assert not h.byes.get(got.bye)


def test_round_robin_circle_method_covers_each_pair_once() -> None:
    for n in range(2, 13):
        players = list(range(1, n + 1))
        rounds = pairing.round_robin(players)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        seen: list[frozenset[int]] = []
        for pairs in rounds:
            in_round = [u for a, b in pairs for u in (a, b) if u is not None]
            assert sorted(in_round) == players  # each player once a round (or the bye)
            seen += [frozenset((a, b)) for a, b in pairs if b is not None]
        assert len(seen) == len(set(seen)) == n * (n - 1) // 2


def test_bracket_order_is_the_standard_seeding() -> None:
    assert pairing.bracket_order(2) == [1, 2]
    assert pairing.bracket_order(4) == [1, 4, 2, 3]
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order16 = pairing.bracket_order(16)
    assert order16[:2] == [1, 16] and 2 in order16[8:]  # 1 and 2 in opposite halves: they can meet in the final only
    assert all(a + b == 17 for a, b in zip(order16[::2], order16[1::2], strict=True))


def test_top_seeds_get_the_byes() -> None:
    seeds = [10, 20, 30, 40, 50, 60]  # listed best first
    pairs = pairing.slot_pairs(pairing.elimination_slots(seeds))
    byes = [a for a, b in pairs if b is None]
    assert sorted(byes) == [10, 20]
    assert (30, 60) in pairs and (40, 50) in pairs


def test_table_sizes_three_to_five() -> None:
    assert pairing.table_sizes(8, 4, 3, 5) == [4, 4]
    assert pairing.table_sizes(7, 4, 3, 5) == [4, 3]
    assert pairing.table_sizes(11, 4, 3, 5) == [4, 4, 3]
    assert pairing.table_sizes(5, 3, 3, 5) == [5]
    for n in range(3, 60):
        sizes = pairing.table_sizes(n, 4, 3, 5)
        assert sum(sizes) == n and 3 <= min(sizes) and max(sizes) <= 5 and max(sizes) - min(sizes) <= 1


def test_tables_are_cut_by_rank_and_avoid_repeats() -> None:
    order = list(range(1, 9))
    assert pairing.tables(order, 4, 3, 5) == [[1, 2, 3, 4], [5, 6, 7, 8]]
    h = History()
    h.meet([1, 2, 3, 4])
    h.meet([5, 6, 7, 8])
    again = pairing.tables(order, 4, 3, 5, h)
    repeats = sum(1 for t in again for a, b in itertools.combinations(t, 2) if h.has_met(a, b))
    assert repeats < 12 and sorted(u for t in again for u in t) == order
