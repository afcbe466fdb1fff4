"""Dice: rolling with rerolled ones, comparing pairs, spotting triples. Pure functions."""

from __future__ import annotations

from bot.games.base import Rng


def roll(rng: Rng, count: int, reroll_ones: bool = False) -> list[int]:
    """``count`` dice sorted high to low; with ``reroll_ones`` every 1 is rolled again until it is not."""
    dice = rng.dice(count)
    if reroll_ones:
        for i, d in enumerate(dice):
            while d == 1:
                d = rng.dice(1)[0]
            dice[i] = d
    dice.sort(reverse=True)
    return dice


def compare(att: list[int], dfn: list[int], attacker_wins_ties: bool = False) -> tuple[int, int]:
    """Losses ``(attacker, defender)`` from comparing the highest pairs (both lists sorted high to low)."""
    att_loss = def_loss = 0
    for a, d in zip(att, dfn, strict=False):
        if a > d or (a == d and attacker_wins_ties):
            def_loss += 1
        else:
            att_loss += 1
    return att_loss, def_loss


def has_triple(dice: list[int]) -> bool:
    """At least three dice showing the same number."""
    return any(dice.count(v) >= 3 for v in set(dice))
