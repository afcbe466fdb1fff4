"""Points, tie-breaks and the order of the standings.

Points per game: a table of ``n`` scores ``(n - place) / (n - 1)`` for each place, so the winner
gets 1 and the last 0 (two players: win 1, loss 0); players sharing places share the points of
those places equally (a two-player draw: ½ each). A bye scores as a win (FIDE C.04.1 c: "as many
points as are rewarded for a win").

Tie-breaks (FIDE Handbook C.07, "Tie-break regulations"):

* **Buchholz** (Swiss): the sum of the final points of every opponent met (at a table of more
  than two: every other player of the table). A bye has no opponent and adds nothing.
* **Head-to-head** (round robin, "direct encounter"): among the players level on points, the
  points each scored in the games between them.
* then games won, then the seeding rating; players equal on all of these share the place.

Single elimination ranks by the round a player reached (the winner first), then as above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.core.leagues.model import Format, Table

BYE_POINTS = Fraction(1)
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)


def table_points(places: Mapping[int, int]) -> dict[int, Fraction]:
    """Each seated player's points at one finished table (see the module's docstring)."""
    n = len(places)
    if n == 1:
        return {u: BYE_POINTS for u in places}
    if n == 2:  # the common case, without the general sum
        (a, pa), (b, pb) = places.items()
        if pa == pb:
            return {a: HALF, b: HALF}
        return {a: ONE, b: ZERO} if pa < pb else {a: ZERO, b: ONE}
    by_place: dict[int, list[int]] = {}
    for user, place in places.items():
        by_place.setdefault(place, []).append(user)
    out: dict[int, Fraction] = {}
    position = 1
    for place in sorted(by_place):
        users = by_place[place]
        share = sum((Fraction(n - pos, n - 1) for pos in range(position, position + len(users))), Fraction(0))
        for user in users:
            out[user] = share / len(users)
        position += len(users)
    return out


@dataclass
class Row:
    """One line of the standings."""

    user_id: int
    points: Fraction = Fraction(0)
    played: int = 0
    wins: int = 0
    byes: int = 0
    buchholz: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    reached: int = 0
    """Elimination: the last round played in."""
    out: bool = False
    """Elimination: knocked out."""
    rating: float = 0.0
    place: int = 0
    dropped: bool = False
    opponents: list[int] = field(default_factory=list)


def standings(fmt: Format, players: Sequence[int], tables: Sequence[Table], ratings: Mapping[int, float],
              dropped: Sequence[int] = ()) -> list[Row]:
    """The standings after the finished tables (unfinished ones count for nothing yet)."""
    rows = {u: Row(user_id=u, rating=ratings.get(u, 0.0), dropped=u in dropped) for u in players}
    games: list[dict[int, Fraction]] = []
    for table in tables:
        if table.result is None:
            continue
        pts = table_points(table.result.places)
        games.append(pts)
        best = min(table.result.places.values())
        for user, got in pts.items():
            row = rows.get(user)
            if row is None:
                continue
            row.points += got
            row.reached = max(row.reached, table.round)
            if table.is_bye:
                row.byes += 1
                continue
            row.played += 1
            won = table.result.places[user] == best and sum(1 for p in table.result.places.values() if p == best) == 1
            row.wins += int(won)
            if fmt is Format.ELIMINATION and not won:
                row.out = True
            row.opponents.extend(v for v in table.seats if v != user)
    for row in rows.values():
        row.buchholz = sum((rows[v].points for v in row.opponents if v in rows), Fraction(0))
    if fmt is Format.ROUND_ROBIN:
        _head_to_head(rows, games)
    ordered = sorted(rows.values(), key=lambda r: _key(fmt, r) + (r.user_id,))
    place = 0
    for i, row in enumerate(ordered):
        if i == 0 or _key(fmt, row) != _key(fmt, ordered[i - 1]):
            place = i + 1
        row.place = place
    return ordered


def _head_to_head(rows: dict[int, Row], games: list[dict[int, Fraction]]) -> None:
    level: dict[Fraction, set[int]] = {}
    for row in rows.values():
        level.setdefault(row.points, set()).add(row.user_id)
    for tied in level.values():
        if len(tied) < 2:
            continue
        for pts in games:
            if len(pts) > 1 and len(tied & pts.keys()) == len(pts):  # a game between tied players only
                for user, got in pts.items():
                    rows[user].head_to_head += got


def _key(fmt: Format, row: Row) -> tuple[float | Fraction | int | bool, ...]:
    if fmt is Format.ELIMINATION:
        return (row.dropped, row.out, -row.reached, -row.points, -row.rating)
    second = row.buchholz if fmt is Format.SWISS else row.head_to_head
    return (row.dropped, -row.points, -second, -row.wins, -row.rating)


def points_text(value: Fraction) -> str:
    """Points as people write them: 2, 2½, 1.33."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        whole = value.numerator // 2
        return f"{whole}½" if whole else "½"
    return f"{float(value):.2f}"
