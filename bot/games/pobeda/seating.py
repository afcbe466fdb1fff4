"""Seating teams round the table so that no team moves twice in a row.

Turn order is cyclic (the last seat passes to the first), so the last and the first seat are
neighbours too. With ``n`` players and a largest team of ``m``, the fewest same-team neighbour
pairs round the table is ``max(0, 2m - n)``: the other ``n - m`` players split the largest team
into at most ``n - m`` runs, and filling the even positions first, team by team from the
largest, reaches that bound (the other teams never meet themselves).
"""

from __future__ import annotations

from collections.abc import Sequence


def clashes(order: Sequence[int]) -> int:
    """Same-team neighbour pairs round the table (the last seat is followed by the first)."""
    n = len(order)
    if n < 2:
        return 0
    return sum(1 for i in range(n) if order[i] == order[(i + 1) % n])


def fewest_clashes(sizes: Sequence[int]) -> int:
    """The fewest same-team neighbour pairs any seating of teams of ``sizes`` can have."""
    n = sum(sizes)
    return max(0, 2 * max(sizes) - n) if n >= 2 else 0


def balanced_clashes(n: int, teams: int) -> int:
    """The fewest clashes ``n`` players in ``teams`` teams can have with the fairest split."""
    return fewest_clashes([n // teams + (1 if k < n % teams else 0) for k in range(teams)])


def alternating_order(sizes: Sequence[int]) -> list[int]:
    """Team index of each seat, with :func:`fewest_clashes` same-team neighbours.

    Teams are taken largest first (ties: lower index first) and poured into seats 0, 2, 4, ...
    and then 1, 3, 5, ...
    """
    n = sum(sizes)
    ranked = sorted(range(len(sizes)), key=lambda k: (-sizes[k], k))
    stream = [k for k in ranked for _ in range(sizes[k])]
    positions = list(range(0, n, 2)) + list(range(1, n, 2))
    order = [0] * n
    for pos, team in zip(positions, stream, strict=True):
        order[pos] = team
    return order


def rebalance_moves(sizes: Sequence[int]) -> list[tuple[int, int, int]]:
    """``(from_team, to_team, players)`` moves that bring the seating down to the fewest clashes
    the player count allows: one player at a time from the largest team to the smallest."""
    current = list(sizes)
    n = sum(current)
    target = balanced_clashes(n, len(current))
    moved: dict[tuple[int, int], int] = {}
    while fewest_clashes(current) > target:
        big = min(range(len(current)), key=lambda k: (-current[k], k))
        small = min(range(len(current)), key=lambda k: (current[k], k))
        current[big] -= 1
        current[small] += 1
        moved[(big, small)] = moved.get((big, small), 0) + 1
    return [(a, b, count) for (a, b), count in moved.items()]
