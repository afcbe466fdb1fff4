"""League figures (issue 28) for ``python -m bot.bench``:

- ``league_pairing_ms_p99``: the Swiss pairing of a 1,000-player round (:func:`bot.core.leagues.pairing.swiss`,
  with its colour criterion, and the colour allocation of its pairs, :func:`bot.core.leagues.colours.allocate`)
  after 1 to 8 played rounds of random results (every round a fresh field), the 99th percentile of the
  rounds timed (aim <= 200 ms); ``league_pairing_rematches`` the rematches those pairings made (0 while
  avoidable);
- ``league_standings_render_ms_p50``: the standings image of a 64-player league
  (:func:`render.league.render_standings`, the figures of standings that change between two draws as
  after each game, names kept), the median in this process, warm (aim <= 80 ms); ``_cold`` the first
  draw; ``league_standings_kb`` its size.

``python -m bot.tools.bench_league`` prints them alone.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from fractions import Fraction
from typing import Any, cast

from bot.core.leagues import colours, pairing
from bot.core.leagues.model import Format, LeagueConfig, LeagueStatus, Table, TableResult, TableStatus
from bot.core.leagues.standings import standings
from bot.core.leagues.storage import LeaguePlayer, LeagueRow
from bot.tools.benchplay import platform_game


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_pairing(players: int = 1000, rounds: int = 8, fields: int = 3, seed: int = 28) -> dict[str, Any]:
    rng = random.Random(seed)
    times: list[float] = []
    rematches = 0
    for _ in range(fields):
        ids = list(range(1, players + 1))
        ratings = {u: rng.gauss(20.0, 8.0) for u in ids}
        history = pairing.History()
        numbers = {u: i + 1 for i, u in enumerate(pairing.ranked(ids, ratings, {}))}
        for round_no in range(rounds):
            started = time.perf_counter()
            got = pairing.swiss(ids, ratings, history)
            seats = [colours.allocate(a, b, history.colours, numbers) for a, b in got.pairs]
            times.append((time.perf_counter() - started) * 1000)
            rematches += got.rematches
            for first, second in seats:  # who sat first, as the league stores it
                history.colours.setdefault(first, [None] * round_no).append(colours.FIRST)
                history.colours.setdefault(second, [None] * round_no).append(colours.SECOND)
            if got.bye is not None:
                history.colours.setdefault(got.bye, [None] * round_no).append(None)
            for a, b in got.pairs:  # the higher rated wins more often; a draw now and then
                edge = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 20))
                roll = rng.random()
                if roll < 0.1:
                    history.scores[a] = history.scores.get(a, 0.0) + 0.5
                    history.scores[b] = history.scores.get(b, 0.0) + 0.5
                else:
                    winner = a if roll < 0.1 + 0.9 * edge else b
                    history.scores[winner] = history.scores.get(winner, 0.0) + 1
                history.meet([a, b])
            if got.bye is not None:
                history.byes[got.bye] = history.byes.get(got.bye, 0) + 1
                history.scores[got.bye] = history.scores.get(got.bye, 0.0) + 1
    return {"league_pairing_ms_p99": round(_p(times, 0.99), 2), "league_pairing_ms_p50": round(_p(times, 0.5), 2),
            "league_pairing_rematches": rematches}


def _league(n: int) -> tuple[LeagueRow, list[LeaguePlayer], list[Table]]:
    rng = random.Random(64)
    first = ["Алексей", "Мария", "Bob", "Жанна", "Li", "Ольга", "Zed", "Светлана", "Kim", "Дмитрий"]
    last = ["Смирнов", "Ng", "Кузнецова", "O'Hara", "Петров", "Müller", "Иванова", "Castillo"]
    players = [LeaguePlayer(user_id=u, name=f"{rng.choice(first)} {rng.choice(last)}", rating=rng.gauss(20, 8),
                            status="active", joined_at=float(u)) for u in range(1, n + 1)]
    league = LeagueRow(id=1, guild_id=1, channel_id=1, game=platform_game(), format=Format.SWISS,
                       status=LeagueStatus.RUNNING, host_id=1, lang="ru", config=LeagueConfig(rounds=6), round=6,
                       round_due=None, signup_message_id=None, standings_message_id=None, created_at=0.0,
                       updated_at=0.0)
    history = pairing.History()
    ratings = {p.user_id: p.rating for p in players}
    tables: list[Table] = []
    for r in range(1, 6):
        got = pairing.swiss([p.user_id for p in players], ratings, history)
        for i, (a, b) in enumerate(got.pairs):
            places = {a: 1, b: 2} if rng.random() < 0.5 else {a: 2, b: 1}
            tables.append(Table(round=r, number=i + 1, seats=[a, b], status=TableStatus.DONE,
                                result=TableResult(places=places)))
            winner = min(places, key=lambda u: places[u])
            history.scores[winner] = history.scores.get(winner, 0.0) + 1
            history.meet([a, b])
    return league, players, tables


def bench_standings_render(n: int = 64, draws: int = 15) -> dict[str, Any]:
    from bot.core.leagues.texts import standings_doc  # the cells as the bot makes them (translated)
    from render.league import StandingsDoc, render_standings

    league, players, tables = _league(n)
    ratings = {p.user_id: p.rating for p in players}
    rng = random.Random(7)
    times: list[float] = []
    cold = 0.0
    size = 0
    for i in range(draws + 1):
        # a game's result moves the points between two draws, as the pinned post's refresh sees it
        changed = list(tables)
        table = changed[i % len(changed)]
        changed[i % len(changed)] = Table(round=table.round, number=table.number, seats=table.seats,
                                          status=table.status,
                                          result=TableResult(places={u: p % 2 + 1 for u, p in
                                                                     (table.result.places if table.result else
                                                                      {}).items()}))
        rows = standings(Format.SWISS, [p.user_id for p in players], changed, ratings)
        changes = {p.user_id: rng.uniform(-3, 3) for p in players}
        doc = standings_doc(league, players, rows, changes, "ru")
        started = time.perf_counter()
        png = render_standings(cast(StandingsDoc, doc))
        elapsed = (time.perf_counter() - started) * 1000
        if i == 0:
            cold = elapsed
        else:
            times.append(elapsed)
        size = len(png)
        assert rows[0].points >= Fraction(0)
    return {"league_standings_render_ms_p50": round(statistics.median(times), 2),
            "league_standings_render_ms_cold": round(cold, 2), "league_standings_kb": round(size / 1024, 1)}


def bench_league(quick: bool = False) -> dict[str, Any]:
    result = bench_pairing(rounds=4 if quick else 8, fields=1 if quick else 3)
    result.update(bench_standings_render(draws=5 if quick else 15))
    return result


if __name__ == "__main__":
    print(json.dumps(bench_league(), indent=1))
