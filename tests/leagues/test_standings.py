"""Points and tie-breaks as defined in bot/core/leagues/standings.py's docstring (FIDE C.07: Buchholz is
the sum of the opponents' scores; direct encounter among the tied players)."""

from __future__ import annotations

from fractions import Fraction

from bot.core.leagues.model import Format, Table, TableResult, TableStatus
from bot.core.leagues.standings import points_text, standings, table_points


def done(round_no: int, number: int, places: dict[int, int], how: str = "played") -> Table:
    return Table(round=round_no, number=number, seats=list(places), status=TableStatus.DONE,
                 result=TableResult(places=places, how=how))


def test_table_points() -> None:
    assert table_points({1: 1, 2: 2}) == {1: 1, 2: 0}  # win 1, loss 0
    assert table_points({1: 1, 2: 1}) == {1: Fraction(1, 2), 2: Fraction(1, 2)}  # draw: ½ each
    assert table_points({1: 1, 2: 2, 3: 3}) == {1: 1, 2: Fraction(1, 2), 3: 0}
    # two share second of four: they split the points of places 2 and 3, (2/3 + 1/3) / 2
    assert table_points({1: 1, 2: 2, 3: 2, 4: 4}) == {1: 1, 2: Fraction(1, 2), 3: Fraction(1, 2), 4: 0}
    assert table_points({7: 1}) == {7: 1}  # a bye scores as a win (C.04.1 c)


def test_buchholz_breaks_a_tie_in_swiss() -> None:
    # round 1: 1 beats 2, 3 beats 4; round 2: 1 beats 3, 4 beats 2... 2 and 3 and 4
    tables = [done(1, 1, {1: 1, 2: 2}), done(1, 2, {3: 1, 4: 2}),
              done(2, 1, {1: 1, 3: 2}), done(2, 2, {4: 1, 2: 2})]
    rows = standings(Format.SWISS, [1, 2, 3, 4], tables, {})
    by = {r.user_id: r for r in rows}
    assert [by[u].points for u in (1, 2, 3, 4)] == [2, 0, 1, 1]
    # Buchholz: 3 met 4 (1) and 1 (2) = 3; 4 met 3 (1) and 2 (0) = 1
    assert by[3].buchholz == 3 and by[4].buchholz == 1
    assert [r.user_id for r in rows] == [1, 3, 4, 2]
    assert [r.place for r in rows] == [1, 2, 3, 4]


def test_head_to_head_breaks_a_tie_in_round_robin() -> None:
    # three players, each beats one: all on 1 point; then 4 (a fourth) loses to all. 1 beat 2, 2 beat 3, 3 beat 1
    tables = [done(1, 1, {1: 1, 2: 2}), done(1, 2, {3: 1, 4: 2}), done(2, 1, {2: 1, 3: 2}),
              done(2, 2, {1: 1, 4: 2}), done(3, 1, {3: 1, 1: 2}), done(3, 2, {2: 1, 4: 2})]
    rows = standings(Format.ROUND_ROBIN, [1, 2, 3, 4], tables, {1: 10.0, 2: 20.0, 3: 30.0})
    by = {r.user_id: r for r in rows}
    assert by[1].points == by[2].points == 2 and by[3].points == 2 and by[4].points == 0
    assert by[1].head_to_head == by[2].head_to_head == by[3].head_to_head == 1  # a cycle: level again
    # then wins (2 each), then the seeding rating: 3 (30) before 2 (20) before 1 (10)
    assert [r.user_id for r in rows] == [3, 2, 1, 4]
    two = [done(1, 1, {1: 1, 2: 2}), done(1, 2, {3: 1, 4: 2}), done(2, 1, {3: 1, 1: 2}), done(2, 2, {2: 1, 4: 2})]
    rows = standings(Format.ROUND_ROBIN, [1, 2, 3, 4], two, {2: 99.0})
    # 1 and 2 both on 1 point... 3 on 2: 3 first; between 1 and 2, 1 won their game
    assert [r.user_id for r in rows][:3] == [3, 1, 2]


def test_equal_rows_share_a_place() -> None:
    rows = standings(Format.SWISS, [1, 2], [done(1, 1, {1: 1, 2: 1})], {})
    assert [r.place for r in rows] == [1, 1]


def test_elimination_ranks_by_round_reached() -> None:
    tables = [done(1, 1, {1: 1, 4: 2}), done(1, 2, {2: 1, 3: 2}), done(2, 1, {2: 1, 1: 2})]
    rows = standings(Format.ELIMINATION, [1, 2, 3, 4], tables, {1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0})
    assert [r.user_id for r in rows] == [2, 1, 3, 4]


def test_points_text() -> None:
    assert [points_text(Fraction(x, 2)) for x in (0, 1, 4, 5)] == ["0", "½", "2", "2½"]
    assert points_text(Fraction(4, 3)) == "1.33"
