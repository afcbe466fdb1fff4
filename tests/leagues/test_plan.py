"""The round planner over each format: what the next round's tables are, from the league and its results."""

from __future__ import annotations

from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, Table, TableResult, TableStatus
from bot.core.leagues.scheduler import plan_round, total_rounds, winners
from bot.core.leagues.standings import standings
from bot.core.leagues.storage import LeaguePlayer, LeagueRow
from bot.core.leagues.texts import plain_name, standings_doc


def league(fmt: Format, round_no: int = 0, **config: int) -> LeagueRow:
    return LeagueRow(id=7, guild_id=1, channel_id=2, game="pobeda", format=fmt, status=LeagueStatus.RUNNING,
                     host_id=1, lang="en", config=LeagueConfig(**config), round=round_no, round_due=None,  # type: ignore[arg-type]
                     signup_message_id=None, standings_message_id=None, created_at=0.0, updated_at=0.0)


def players(n: int, gone: tuple[int, ...] = ()) -> list[LeaguePlayer]:
    return [LeaguePlayer(user_id=u, name=f"p{u}", rating=100.0 - u, status="left" if u in gone else "active",
                         joined_at=float(u)) for u in range(1, n + 1)]


def won(tables: list[Table], winner_of: dict[int, int]) -> list[Table]:
    for t in tables:
        if t.result is None:
            w = winner_of.get(t.number, t.seats[0])
            t.result = TableResult(places={u: 1 if u == w else 2 for u in t.seats})
            t.status = TableStatus.DONE
    return tables


def test_total_rounds() -> None:
    assert total_rounds(Format.ROUND_ROBIN, 4, 0) == 3 and total_rounds(Format.ROUND_ROBIN, 5, 0) == 5
    assert total_rounds(Format.ELIMINATION, 8, 0) == 3 and total_rounds(Format.ELIMINATION, 6, 0) == 3
    assert total_rounds(Format.SWISS, 8, 0) == 3 and total_rounds(Format.SWISS, 8, 5) == 5


def test_elimination_runs_seeded_to_a_single_winner() -> None:
    field = players(6)  # seeds 1..6 by rating: 1 and 2 get byes in a bracket of 8
    r1 = plan_round(league(Format.ELIMINATION), field, []).tables
    assert r1 is not None
    byes = [t.seats[0] for t in r1 if t.is_bye]
    assert sorted(byes) == [1, 2] and all(t.result is not None for t in r1 if t.is_bye)
    assert sorted(sorted(t.seats) for t in r1 if not t.is_bye) == [[3, 6], [4, 5]]
    done = won(r1, {})  # the first listed wins: the better seed
    r2 = plan_round(league(Format.ELIMINATION, 1), field, done).tables
    assert r2 is not None and [t.seats for t in r2] == [[1, 4], [2, 3]]
    done += won(r2, {1: 4})  # an upset
    r3 = plan_round(league(Format.ELIMINATION, 2), field, done).tables
    assert r3 is not None and [t.seats for t in r3] == [[4, 2]]
    done += won(r3, {})
    assert winners([t for t in done if t.round == 3]) == [4]
    assert plan_round(league(Format.ELIMINATION, 3), field, done).tables is None
    order = [r.user_id for r in standings(Format.ELIMINATION, [p.user_id for p in field], done,
                                          {p.user_id: p.rating for p in field})]
    assert order[:2] == [4, 2]


def test_multi_player_swiss_seats_tables_of_three_to_five() -> None:
    field = players(11)
    r1 = plan_round(league(Format.SWISS, players_per_game=4), field, [], 3, 5).tables
    assert r1 is not None and [len(t.seats) for t in r1] == [4, 4, 3]
    assert r1[0].seats == [1, 2, 3, 4]  # by rating


def test_a_player_who_left_concedes_the_round() -> None:
    field = players(4, gone=(2,))
    r1 = plan_round(league(Format.ROUND_ROBIN), field, []).tables
    assert r1 is not None
    mine = next(t for t in r1 if 2 in t.seats)
    assert mine.status is TableStatus.DONE and mine.result is not None and mine.result.how == "forfeit"
    assert mine.result.places[2] == 2 and min(mine.result.places.values()) == 1


def test_bot_entrants_alone_are_decided_without_a_game() -> None:
    field = [*players(2), LeaguePlayer(-1, "b1", 0.0, "active", 3.0), LeaguePlayer(-2, "b2", 0.0, "active", 4.0)]
    rounds = [plan_round(league(Format.ROUND_ROBIN, r), field, []).tables for r in range(3)]
    bots_only = [t for ts in rounds for t in ts or [] if set(t.seats) == {-1, -2}]
    assert len(bots_only) == 1 and bots_only[0].result is not None and bots_only[0].result.how == "bots"
    assert all(t.status is TableStatus.PAIRED for ts in rounds for t in ts or [] if t not in bots_only)


def test_standings_doc_in_both_languages() -> None:
    field = players(2)
    rows = standings(Format.SWISS, [1, 2], won([Table(1, 1, [1, 2])], {}), {})
    doc = standings_doc(league(Format.SWISS, 1), field, rows, {1: 2.25, 2: -1.0}, "ru")
    assert doc["headers"][3] == "Бухгольц" and doc["rows"][0][-1] == "+2.2" and doc["rows"][1][-1] == "−1.0"
    assert "тур 1 из 1" in doc["subtitle"]
    doc = standings_doc(league(Format.ROUND_ROBIN, 1), field, rows, {}, "en")
    assert doc["headers"][3] == "H2H" and doc["rows"][0][-1] == "—"
    assert plain_name("🤖 Bot (quick) 1\n") == "Bot (quick) 1"
