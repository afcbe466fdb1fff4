"""Rating updates, places and move times (bot.core.stats), checked against OpenSkill's own published data.

The expected numbers below are the openskill.py project's published test data for its Plackett-Luce
model: ``tests/models/data/plackettluce.json`` in github.com/vivekjoshy/openskill.py (commit
061f71f61e20313435b02c14abce215bcfc054ae), used by its ``tests/models/weng_lin/test_plackett_luce.py``
``test_rate``: a model with ``mu = 31.321989232514305`` and ``sigma = 11.379964801443018``, a team of
one against a team of two, rated without ranks ("normal": the first team wins), and three teams of
one, two and three players with ranks ``[1, 2, 1]`` ("ties").
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.core.stats import MODEL, Rating, competition_places, move_times, rate, side_places

PUBLISHED_MODEL = PlackettLuce(31.321989232514305, 11.379964801443018)
# "normal": {"team_1": [{"mu": 36.48967347401391, "sigma": 11.237778601372977}],
#            "team_2": [{"mu": 26.154304991014694, "sigma": 11.17822477763209}, (same)]}
NORMAL = [[(36.48967347401391, 11.237778601372977)],
          [(26.154304991014694, 11.17822477763209), (26.154304991014694, 11.17822477763209)]]
# "ties": {"team_1": [{"mu": 33.21874815457553, "sigma": 11.354896725884002}],
#          "team_2": [{"mu": 30.27713112192334, "sigma": 11.291328826858104}, (same)],
#          "team_3": [{"mu": 30.470088421044046, "sigma": 11.249240904583088}, (same), (same)]}
TIES = [[(33.21874815457553, 11.354896725884002)],
        [(30.27713112192334, 11.291328826858104)] * 2,
        [(30.470088421044046, 11.249240904583088)] * 3]


def fresh(model: PlackettLuce, *sizes: int) -> list[list[Rating]]:
    return [[Rating(model.mu, model.sigma) for _ in range(n)] for n in sizes]


def assert_ratings(got: list[list[Rating]], expected: list[list[tuple[float, float]]]) -> None:
    assert [len(team) for team in got] == [len(team) for team in expected]
    for team, want in zip(got, expected, strict=True):
        for rating, (mu, sigma) in zip(team, want, strict=True):
            assert rating.mu == pytest.approx(mu, rel=1e-4)
            assert rating.sigma == pytest.approx(sigma, rel=1e-4)


def test_one_against_two_matches_the_published_normal_case() -> None:
    assert_ratings(rate(fresh(PUBLISHED_MODEL, 1, 2), [1, 2], PUBLISHED_MODEL), NORMAL)


def test_three_teams_with_a_tie_match_the_published_ties_case() -> None:
    assert_ratings(rate(fresh(PUBLISHED_MODEL, 1, 2, 3), [1, 2, 1], PUBLISHED_MODEL), TIES)


def test_starting_rating_shows_as_zero() -> None:
    # mu 25, sigma 25/3: mu - 3 sigma = 0 (the documented start)
    assert Rating(MODEL.mu, MODEL.sigma).ordinal == pytest.approx(0.0)
    assert (MODEL.mu, MODEL.sigma) == (25.0, 25.0 / 3.0)


def test_a_tie_of_equals_moves_no_mean() -> None:
    [[a], [b]] = rate(fresh(MODEL, 1, 1), [1, 1])
    assert a.mu == pytest.approx(25.0) and b.mu == pytest.approx(25.0)
    assert a.sigma < 25.0 / 3.0  # but both are known better


def test_teammates_move_together_and_winners_gain() -> None:
    [[a1, a2], [b1, b2]] = rate(fresh(MODEL, 2, 2), [1, 2])
    assert a1 == a2 and b1 == b2
    assert a1.mu > 25.0 > b1.mu


def test_five_players_in_order_of_place() -> None:
    teams = rate(fresh(MODEL, 1, 1, 1, 1, 1), [1, 2, 3, 4, 5])
    mus = [team[0].mu for team in teams]
    assert mus == sorted(mus, reverse=True)


def test_competition_places() -> None:
    assert competition_places([10, 7, 10, None, 3]) == [1, 3, 1, 5, 4]


def test_side_places_from_outcomes() -> None:
    # Godstorm: winners first, the others by their reported scores (by seat), eliminated seats last
    godstorm = {"winners": [2], "draw": False, "scores": {"0": 14, "1": 20, "2": 31, "3": 14}}
    assert side_places(godstorm, [0, 1, 2, 3, 4]) == {2: 1, 1: 2, 0: 3, 3: 3, 4: 5}
    # a shared victory (tie on the tiebreak): both first
    assert side_places({"winners": [0, 3], "draw": True, "scores": {"0": 9, "1": 5, "3": 9}}, [0, 1, 3]) == \
        {0: 1, 3: 1, 1: 3}
    # Pobeda: lines by side; Cold War: scores by side; a draw without winners ties everyone
    assert side_places({"winners": [1], "draw": False, "lines": [0, 1]}, [0, 1]) == {1: 1, 0: 2}
    assert side_places({"winners": [], "draw": True, "scores": [50, 50]}, [0, 1]) == {0: 1, 1: 1}


def test_move_times_start_at_the_prompt_or_the_seat_own_move() -> None:
    prompt = {"type": "platform.prompt", "seats": [1]}
    log = [
        (0, 10, [prompt], 100.0),       # seat 0's first move: no known start, not timed; seat 1 asked at 100
        (1, 20, [{"type": "x"}], 130.0),  # seat 1: 30 s after its prompt
        (1, 20, [], 135.0),             # seat 1 again: 5 s after its own move
        (0, None, [], 200.0),           # an automatic move (timeout): not timed
        (0, 10, [], 260.0),             # seat 0: 60 s after its previous (automatic) move
    ]
    assert move_times(log) == {20: [30.0, 5.0], 10: [60.0]}
