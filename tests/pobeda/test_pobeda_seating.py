"""Teams sit alternately round the table; lopsided picks are refused with the players to move.

Rulebook, «Командная игра»: «Сядьте вокруг игрового поля через одного так, чтобы участники разных
команд чередовались.» and «Разделитесь на две или три команды. Если не получается поровну, ничего
страшного. Максимум игроков — 12 человек». Turns pass to the left round the table, so the last
seat is followed by the first: a team seated there twice would move twice in a row.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest

from bot.core.i18n import t
from bot.games.base import IllegalAction, Player, Rng
from bot.games.pobeda import Pobeda, seating
from bot.games.pobeda.text import count_text, plural_form

MAX_PLAYERS = 12


def neighbours_alike(order: list[int]) -> int:
    """Same-team neighbours round the table, counted here independently of the module."""
    return sum(order[i] == order[i - 1] for i in range(len(order))) if len(order) > 1 else 0


@cache
def _search(left: tuple[int, ...], first: int, last: int) -> int:
    if not any(left):
        return int(last == first)
    best = MAX_PLAYERS + 1
    for team, count in enumerate(left):
        if count:
            rest = left[:team] + (count - 1,) + left[team + 1:]
            best = min(best, int(team == last) + _search(rest, first, team))
    return best


def brute_fewest(sizes: tuple[int, ...]) -> int:
    """The fewest same-team neighbour pairs over every seating (exhaustive, memoised search)."""
    best = MAX_PLAYERS + 1
    for first, count in enumerate(sizes):
        if count:
            rest = sizes[:first] + (count - 1,) + sizes[first + 1:]
            best = min(best, _search(rest, first, first))
    return best


def all_sizes(teams: int) -> list[tuple[int, ...]]:
    return [sizes for sizes in itertools.product(range(1, MAX_PLAYERS + 1), repeat=teams)
            if sum(sizes) <= MAX_PLAYERS]


def test_brute_force_agrees_with_a_hand_count() -> None:
    """The reference itself: A B A C has no alike neighbours; two teams of 2 and 1 must have one."""
    assert brute_fewest((2, 1, 1)) == 0 and brute_fewest((2, 1)) == 1
    assert brute_fewest((3, 1)) == 2 and brute_fewest((3, 3)) == 0 and brute_fewest((4, 1, 1)) == 2
    assert neighbours_alike([0, 1, 0, 2]) == 0 and neighbours_alike([0, 1, 2, 0]) == 1


@pytest.mark.parametrize("teams", [2, 3])
def test_alternation_exists_exactly_when_no_team_outnumbers_the_rest(teams: int) -> None:
    """An order with no team twice in a row (cyclically) exists iff largest <= sum of the others."""
    for sizes in all_sizes(teams):
        exists = brute_fewest(sizes) == 0
        assert exists == (max(sizes) <= sum(sizes) - max(sizes)), sizes


@pytest.mark.parametrize("teams", [2, 3])
def test_seating_order_is_as_alternating_as_possible(teams: int) -> None:
    """Every team size up to 12 players: the seats hold exactly the teams' players and have the
    fewest alike neighbours the exhaustive search finds (none whenever alternation exists)."""
    for sizes in all_sizes(teams):
        order = seating.alternating_order(sizes)
        assert Counter(order) == Counter(dict(enumerate(sizes))), sizes
        assert neighbours_alike(order) == brute_fewest(sizes) == seating.fewest_clashes(sizes), sizes
        assert seating.clashes(order) == neighbours_alike(order)


def lobby(sizes: tuple[int, ...]) -> list[Player]:
    """Players 100, 101, ... picking their teams in lobby order."""
    picks = [team for team, count in enumerate(sizes) for _ in range(count)]
    return [Player(100 + i, team) for i, team in enumerate(picks)]


@pytest.mark.parametrize("teams", [2, 3])
def test_arrange_seats_alternates_or_refuses_lopsided_picks(teams: int) -> None:
    """For every pick up to 12 players: seat with the fewest alike neighbours, unless a fairer
    split of the same players would alternate better (then refuse, and following the advice
    gives a lobby that starts)."""
    for sizes in all_sizes(teams):
        n = sum(sizes)
        if n < 2:
            continue
        players = lobby(sizes)
        best_split = min(brute_fewest(split) for split in all_sizes(teams) if sum(split) == n)
        if brute_fewest(sizes) > best_split:
            with pytest.raises(IllegalAction) as err:
                Pobeda.arrange_seats(players, {"teams": teams}, Rng(1))
            assert err.value.key in ("pobeda.err.no_alternation", "pobeda.err.no_alternation_two"), sizes
            for lang in ("ru", "en"):
                assert "{" not in t(err.value.key, lang, **err.value.params), sizes
            # short words only: the platform may clip a refusal's parameters like quoted user text
            assert all(len(str(v)) <= 60 for v in err.value.params.values()), err.value.params
            fixed = list(sizes)
            for src, dst, count in seating.rebalance_moves(sizes):
                fixed[src] -= count
                fixed[dst] += count
            assert brute_fewest(tuple(fixed)) == best_split, (sizes, fixed)
            Pobeda.arrange_seats(lobby(tuple(fixed)), {"teams": teams}, Rng(1))
            continue
        arrangement = Pobeda.arrange_seats(players, {"teams": teams}, Rng(1))
        sides = [info["side"] for info in arrangement.seat_info]
        assert neighbours_alike(sides) == brute_fewest(sizes), sizes
        for team in range(teams):  # each team's players keep their lobby order
            seated = [users[0] for users, side in zip(arrangement.seat_users, sides, strict=True) if side == team]
            assert seated == [p.user_id for p in players if p.team == team]


def test_uneven_teams_from_the_issue_alternate() -> None:
    """2+1+1, 3+2+2 and 4+3+3: played round the table, no team ever moves twice running."""
    for sizes in ((2, 1, 1), (3, 2, 2), (4, 3, 3)):
        arrangement = Pobeda.arrange_seats(lobby(sizes), {"teams": 3}, Rng(5))
        game = Pobeda.new(arrangement.seat_info, {"teams": 3}, 9)
        movers = []
        for _ in range(2 * sum(sizes) + 1):  # two full rounds and one more turn
            movers.append(game.side_of(game.s.current))
            game.apply(game.s.current, {"type": "pass"})
        assert all(a != b for a, b in zip(movers, movers[1:], strict=False)), (sizes, movers)


def test_two_uneven_teams_are_allowed_as_the_rulebook_says() -> None:
    """«Если не получается поровну, ничего страшного»: five players in two teams (3+2) start;
    the one unavoidable pair of neighbours is the bigger team's last and first seat."""
    arrangement = Pobeda.arrange_seats(lobby((3, 2)), {"teams": 2}, Rng(2))
    assert [info["side"] for info in arrangement.seat_info] == [0, 1, 0, 1, 0]


def test_refusal_names_the_players_to_move_in_both_languages() -> None:
    """3+1 in two teams: Red outnumbers Blue, and moving one Red player to Blue makes 2+2."""
    with pytest.raises(IllegalAction) as err:
        Pobeda.arrange_seats(lobby((3, 1)), {"teams": 2}, Rng(1))
    ru = t(err.value.key, "ru", **err.value.params)
    en = t(err.value.key, "en", **err.value.params)
    assert "«Красные» 3 игрока" in ru and "Переведите 1 игрока из команды «Красные» в команду «Синие»." in ru
    assert "Team Red has 3 players" in en and "Move 1 player from Team Red to Team Blue." in en
    assert "{" not in ru + en
    # 6+1+1: Red must give a player to each of the other teams (4+2+2 alternates, 5+2+1 cannot)
    with pytest.raises(IllegalAction) as err:
        Pobeda.arrange_seats(lobby((6, 1, 1)), {"teams": 3}, Rng(1))
    en = t(err.value.key, "en", **err.value.params)
    ru = t(err.value.key, "ru", **err.value.params)
    assert "Move 1 player from Team Red to Team Blue and 1 player to Team Green." in en
    assert "Переведите 1 игрока из команды «Красные» в команду «Синие» и 1 игрока — в команду «Зелёные»." in ru
    # 9+1+1: two players to each (5+3+3); the plural form follows the count
    with pytest.raises(IllegalAction) as err:
        Pobeda.arrange_seats(lobby((9, 1, 1)), {"teams": 3}, Rng(1))
    assert "Переведите 2 игроков из команды «Красные» в команду «Синие» и 2 игроков — в команду «Зелёные»." in t(
        err.value.key, "ru", **err.value.params)


def test_unpicked_players_even_out_the_teams_first() -> None:
    """Two Red picks and two players without a pick: 2+2, seated alternately."""
    players = [Player(1, 0), Player(2, 0), Player(3, None), Player(4, None)]
    arrangement = Pobeda.arrange_seats(players, {"teams": 2}, Rng(4))
    sides = [info["side"] for info in arrangement.seat_info]
    assert sorted(sides) == [0, 0, 1, 1] and neighbours_alike(sides) == 0


def test_russian_and_english_plural_forms() -> None:
    """Russian: 1 игрок, 2–4 игрока, 5–20 игроков, 21 игрок, 22 игрока, 11–14 игроков."""
    expected = {1: "one", 2: "few", 4: "few", 5: "many", 11: "many", 12: "many", 14: "many",
                21: "one", 22: "few", 25: "many", 111: "many"}
    assert {n: plural_form(n, "ru") for n in expected} == expected
    assert [count_text("pobeda.players", n, "ru") for n in (1, 3, 7, 21)] == [
        "1 игрок", "3 игрока", "7 игроков", "21 игрок"]
    assert [count_text("pobeda.players", n, "en") for n in (1, 2)] == ["1 player", "2 players"]
