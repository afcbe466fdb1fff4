"""Who sits first (the "colour") at two-player tables, by the FIDE Handbook's C.04.3 (Dutch system, 2017):
A.6 colour preferences, E colour allocation, C.3 no two players with the same absolute preference meet while
avoidable; and whole Swiss and round robin leagues where nobody plays the same seat three times in a row."""

from __future__ import annotations

import random

import pytest

from bot.core.leagues import pairing
from bot.core.leagues.colours import ABSOLUTE, FIRST, MILD, NONE, SECOND, STRONG, allocate, clash, preference
from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, Table, TableResult, TableStatus
from bot.core.leagues.scheduler import history, plan_round
from bot.core.leagues.storage import LeaguePlayer, LeagueRow

W, B = FIRST, SECOND


def test_colour_preferences_a6() -> None:
    assert preference([]).strength == NONE and preference([None]).colour is None
    # A.6 c: CD 0, a mild preference for the other colour than the last game's
    assert (preference([W, B]).strength, preference([W, B]).colour) == (MILD, W)
    # A.6 b: CD +1 or -1, a strong preference for the colour that evens it
    assert (preference([W]).strength, preference([W]).colour) == (STRONG, B)
    assert (preference([B, W, B]).strength, preference([B, W, B]).colour) == (STRONG, W)
    # A.6 a: CD beyond 1, or the same colour in the two latest games played (a bye in between is no game)
    assert (preference([W, W]).strength, preference([W, W]).colour) == (ABSOLUTE, B)
    assert (preference([B, W, W]).strength, preference([B, W, W]).colour) == (ABSOLUTE, B)
    assert (preference([B, None, B]).strength, preference([B, None, B]).colour) == (ABSOLUTE, W)
    assert (preference([B, W, B, B, W, B]).strength, preference([B, W, B, B, W, B]).colour) == (ABSOLUTE, W)  # CD -2
    assert clash([W, W], [B, W, W]) and not clash([W, W], [B, B]) and not clash([W], [W])


def test_colour_allocation_e() -> None:
    numbers = {1: 1, 2: 2, 3: 3, 4: 4}
    # E.1 both preferences granted (the lower-ranked one's too)
    assert allocate(1, 2, {1: [B], 2: [W]}, numbers) == (1, 2)
    assert allocate(1, 2, {1: [W], 2: [B]}, numbers) == (2, 1)
    # E.2 the stronger preference: 2 must not play second a third time
    assert allocate(1, 2, {1: [W, B], 2: [B, B]}, numbers) == (2, 1)
    # E.2 both absolute for the same colour: the wider colour difference is granted
    assert allocate(1, 2, {1: [B, W, B, B], 2: [B, B, W, B, B]}, numbers) == (2, 1)
    # E.3 the same preference of the same strength (both strong for the first seat): alternate to the latest
    # round in which they had different colours (round 3: 1 sat first, 2 second), against 1's preference
    assert allocate(1, 2, {1: [B, B, W], 2: [B, W, B]}, numbers) == (2, 1)
    # E.4 the higher-ranked player's preference, when E.1-E.3 leave it open
    assert allocate(1, 2, {1: [W, B], 2: [W, B]}, numbers) == (1, 2)  # both mild for W, same history
    # E.5 the first round: odd pairing numbers take the first seat, even ones give it
    assert allocate(1, 3, {}, numbers) == (1, 3) and allocate(2, 4, {}, numbers) == (4, 2)


def test_a_swiss_avoids_the_pair_that_breaks_an_absolute_preference() -> None:
    # 1 and 2 lead with two games each played first; 3 and 4 trail with two second. The Dutch order would
    # pair 1-2 (S1 meets S2 in the top group): both must play second now (C.04.3 C.3), so the pairing swaps
    h = pairing.History(scores={1: 2, 2: 2, 3: 2, 4: 2}, colours={1: [W, W], 2: [W, W], 3: [B, B], 4: [B, B]})
    found = pairing.swiss([1, 2, 3, 4], {1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0}, h)
    assert {frozenset(p) for p in found.pairs} == {frozenset((1, 3)), frozenset((2, 4))}
    # without colours, the Dutch pairing of the group: S1 (1, 2) meets S2 (3, 4) in order
    plain = pairing.swiss([1, 2, 3, 4], {1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0}, pairing.History(scores=dict.fromkeys(range(1, 5), 2)))
    assert plain.pairs == [(1, 3), (2, 4)]
    # when every pairing breaks one (all four want the same), the pairing is made anyway
    h = pairing.History(colours={u: [W, W] for u in (1, 2, 3, 4)})
    assert len(pairing.swiss([1, 2, 3, 4], {}, h).pairs) == 2


def _league(fmt: Format, rounds: int) -> LeagueRow:
    return LeagueRow(id=1, guild_id=1, channel_id=1, game="byallmeans", format=fmt, status=LeagueStatus.RUNNING,
                     host_id=1, lang="en", config=LeagueConfig(rounds=rounds), round=0, round_due=None,
                     signup_message_id=None, standings_message_id=None, created_at=0.0, updated_at=0.0)


def _play(fmt: Format, n: int, rounds: int, seed: int) -> list[Table]:
    rng = random.Random(seed)
    league = _league(fmt, rounds)
    players = [LeaguePlayer(u, f"p{u}", 100.0 - u, "active", float(u)) for u in range(1, n + 1)]
    tables: list[Table] = []
    while (plan := plan_round(league, players, tables)).tables is not None:
        for table in plan.tables:
            if table.result is None:
                a, b = table.seats
                roll = rng.random()
                table.result = TableResult(places={a: 1, b: 2} if roll < 0.45 else {a: 2, b: 1} if roll < 0.9
                                           else {a: 1, b: 1})
                table.status = TableStatus.DONE
        tables += plan.tables
        league.round += 1
    return tables


@pytest.mark.parametrize("fmt,n,rounds", [(Format.SWISS, 8, 3), (Format.SWISS, 9, 5), (Format.SWISS, 12, 6),
                                          (Format.SWISS, 30, 7), (Format.ROUND_ROBIN, 6, 0),
                                          (Format.ROUND_ROBIN, 7, 0), (Format.ROUND_ROBIN, 10, 0)])
def test_nobody_sits_the_same_seat_three_times_in_a_row(fmt: Format, n: int, rounds: int) -> None:
    for seed in range(12):
        colours = history(_play(fmt, n, rounds, seed)).colours
        assert len(colours) == n
        for user, seats in colours.items():
            played = [c for c in seats if c is not None]
            assert all(not played[i] == played[i + 1] == played[i + 2] for i in range(len(played) - 2)), (user, seats)
            difference = played.count(W) - played.count(B)
            # Swiss: the colour difference stays within two (A.6 a); round robin alternates: within one
            assert abs(difference) <= (2 if fmt is Format.SWISS else 1), (user, seats)


def test_the_first_round_alternates_down_the_tables() -> None:
    # E.5: the higher-ranked player of each pair sits first with an odd pairing number, second with an even one
    league = _league(Format.SWISS, 3)
    players = [LeaguePlayer(u, f"p{u}", 100.0 - u, "active", float(u)) for u in range(1, 9)]
    plan = plan_round(league, players, [])
    assert plan.tables is not None
    assert [t.seats for t in plan.tables] == [[1, 5], [6, 2], [3, 7], [8, 4]]
