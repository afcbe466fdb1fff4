"""Dice: the rulebook's examples, exact odds by enumeration, war god ties, rerolled ones."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from bot.games.base import Rng
from bot.games.godstorm.dice import compare, has_triple, roll
from bot.games.godstorm.scenario import put, scenario, script


@pytest.mark.parametrize(
    ("att", "dfn", "war", "expected"),
    [
        ([6, 1, 1], [3], False, (0, 1)),  # 6 > 3: the defender loses one
        ([6, 2, 1], [3, 2], False, (1, 1)),  # 6 > 3, 2 = 2: one each
        ([6, 2, 1], [3, 2], True, (0, 2)),  # ... unless the war god attacks
        ([3, 3], [4, 3], False, (2, 0)),  # 4 > 3, 3 = 3: the attacker loses two
        ([6], [5, 4], False, (0, 1)),  # 6 > 5: the defender loses one
    ],
)
def test_rulebook_examples(att: list[int], dfn: list[int], war: bool, expected: tuple[int, int]) -> None:
    assert compare(att, dfn, war) == expected


def _enumerate(a: int, d: int, war: bool = False) -> dict[tuple[int, int], Fraction]:
    counts: dict[tuple[int, int], int] = {}
    for dice in product(range(1, 7), repeat=a + d):
        att = sorted(dice[:a], reverse=True)
        dfn = sorted(dice[a:], reverse=True)
        key = compare(att, dfn, war)
        counts[key] = counts.get(key, 0) + 1
    total = 6 ** (a + d)
    return {k: Fraction(v, total) for k, v in counts.items()}


def _one_pair_defender_loses(a: int, d: int) -> Fraction:
    """Analytic P(attacker's best > defender's best) for cases with one comparison."""
    p = Fraction(0)
    for x in range(1, 7):  # the attacker's best equals x
        p_att_best = Fraction(x**a - (x - 1) ** a, 6**a)
        p_def_below = Fraction((x - 1) ** d, 6**d)
        p += p_att_best * p_def_below
    return p


@pytest.mark.parametrize(("a", "d"), [(3, 1), (2, 1), (1, 2), (1, 1)])
def test_single_comparison_odds(a: int, d: int) -> None:
    odds = _enumerate(a, d)
    win = _one_pair_defender_loses(a, d)
    assert odds[(0, 1)] == win
    assert odds[(1, 0)] == 1 - win


def test_known_single_comparison_values() -> None:
    assert _enumerate(3, 1)[(0, 1)] == Fraction(855, 1296)
    assert _enumerate(2, 1)[(0, 1)] == Fraction(125, 216)
    assert _enumerate(1, 2)[(0, 1)] == Fraction(55, 216)
    assert _enumerate(1, 1)[(0, 1)] == Fraction(15, 36)


@pytest.mark.parametrize(
    ("a", "expected"),
    [
        (3, {(0, 2): Fraction(2890, 7776), (2, 0): Fraction(2275, 7776), (1, 1): Fraction(2611, 7776)}),
        (2, {(0, 2): Fraction(295, 1296), (2, 0): Fraction(581, 1296), (1, 1): Fraction(420, 1296)}),
    ],
)
def test_two_comparison_odds(a: int, expected: dict[tuple[int, int], Fraction]) -> None:
    assert _enumerate(a, 2) == expected


def test_war_god_turns_ties() -> None:
    plain, war = _enumerate(1, 1), _enumerate(1, 1, war=True)
    assert war[(0, 1)] == plain[(0, 1)] + Fraction(6, 36)
    assert compare([3], [3], False) == (1, 0)
    assert compare([3], [3], True) == (0, 1)


def test_reroll_ones_never_leaves_a_one() -> None:
    rng = Rng(5)
    seen = set()
    for _ in range(400):
        dice = roll(rng, 3, reroll_ones=True)
        assert 1 not in dice and dice == sorted(dice, reverse=True)
        seen.update(dice)
    assert seen == {2, 3, 4, 5, 6}


def test_reroll_uses_the_rerolled_value() -> None:
    g = scenario()
    script(g, [1, 1, 4])
    assert roll(g.rng, 1, reroll_ones=True) == [4]
    script(g, [1, 2])
    assert roll(g.rng, 2, reroll_ones=False) == [2, 1]


def test_triples() -> None:
    assert has_triple([4, 4, 4])
    assert has_triple([5, 4, 4, 2, 4])
    assert not has_triple([6, 6, 5])


def test_magic_goddess_rerolls_attack_ones() -> None:
    g = scenario()
    put(g, "Gaul", 0, 5, gods=["magic"])
    put(g, "Iberia", 2, 3)
    # attacker rolls 1 4 1; the first 1 is rerolled to 1 then 5, the second to 6; the defender rolls 3 3
    script(g, [1, 4, 1, 1, 5, 6, 3, 3])
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3})
    roll_ev = next(e for e in events if e["type"] == "roll")
    assert roll_ev["att"] == [6, 5, 4] and roll_ev["dfn"] == [3, 3]
    assert g.s.terr["Iberia"].armies == 1 and g.s.terr["Gaul"].armies == 5


def test_defending_temple_rerolls_defence_ones() -> None:
    g = scenario()
    put(g, "Gaul", 0, 4)
    put(g, "Iberia", 2, 2, temple=True)
    script(g, [5, 5, 1, 1, 6, 6])  # attacker 5 5; defender 1 1 -> rerolled to 6 6
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 2})
    roll_ev = next(e for e in events if e["type"] == "roll")
    assert roll_ev["dfn"] == [6, 6]
    assert (roll_ev["att_loss"], roll_ev["def_loss"]) == (2, 0)


def test_war_god_in_attack_wins_ties() -> None:
    g = scenario()
    put(g, "Gaul", 0, 4, gods=["war"])
    put(g, "Iberia", 2, 3)
    script(g, [4, 3, 4, 3])
    events = g.apply(0, {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 2})
    roll_ev = next(e for e in events if e["type"] == "roll")
    assert (roll_ev["att_loss"], roll_ev["def_loss"]) == (0, 2)
