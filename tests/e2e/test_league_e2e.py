"""End to end (issue 28): whole leagues through the real bot process and the fake Discord, one bot process
for both, bots in some seats to keep them short.

- A 4-player round robin of By All Means (two people, two bot entrants): sign-up by button and by
  command, Start, three rounds paired by the circle method (each pair meets once), one thread per table
  under its announcement, the people resign their games (``/game leave`` in the thread), bots play theirs
  out; the final standings agree with the results (a resignation is a loss: 0 points, the opponent 1).
- An 8-player, 3-round Swiss of Pobeda (one person, seven bots): nobody meets anyone twice, each round
  starts only once the previous one has ended, and the standings post is pinned and updated.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    db_query,
    decode_png,
    latest_panel,
    make_table,
    play_panel,
)
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


def league_row(table: Table, channel_id: int) -> dict[str, Any]:
    [(lid, status, round_no, pinned)] = db_query(
        table.db, "SELECT id, status, round, standings_message_id FROM leagues WHERE channel_id = ?", (channel_id,))
    return {"id": lid, "status": status, "round": round_no, "pinned": pinned}


def tables_of(table: Table, league_id: int) -> list[dict[str, Any]]:
    rows = db_query(table.db, "SELECT round, table_no, seats, status, thread_id, game_id, result FROM league_tables"
                              " WHERE league_id = ? ORDER BY round, table_no", (league_id,))
    return [{"round": r, "table": n, "seats": json.loads(s), "status": st, "thread": th, "game": g,
             "result": json.loads(res) if res else None} for r, n, s, st, th, g, res in rows]


async def resign_where_asked(table: Table, league_id: int, humans: dict[int, Any], done: set[int]) -> None:
    """Each person resigns the game of each of their tables that is being played."""
    fake = table.fake
    for row in tables_of(table, league_id):
        if row["status"] != "playing" or row["game"] in done:
            continue
        status = db_query(table.db, "SELECT status FROM games WHERE id = ?", (row["game"],))[0][0]
        if status != "running":
            continue
        people = [humans[u] for u in row["seats"] if u in humans]
        if not people:
            continue
        thread = fake.channels[row["thread"]]
        r = await fake.slash(people[0], thread, "game leave")
        assert r.message is not None, r.content
        confirmed = await fake.click(people[0], r.message, custom_id=custom_ids(r.message, "tt:")[0])
        assert confirmed.content.startswith("✅"), confirmed.content
        done.add(row["game"])


async def play_league(table: Table, channel: Any, league_id: int, humans: dict[int, Any], rounds: int,
                      timeout: float) -> list[dict[str, Any]]:
    done: set[int] = set()
    loop = asyncio.get_running_loop()
    ends = loop.time() + timeout
    while loop.time() < ends:
        if league_row(table, channel.id)["status"] == "finished":
            break
        await resign_where_asked(table, league_id, humans, done)
        await asyncio.sleep(0.5)
    league = league_row(table, channel.id)
    assert league["status"] == "finished", (league, tables_of(table, league_id))
    assert league["round"] == rounds
    return tables_of(table, league_id)


def points(rows: list[dict[str, Any]]) -> dict[int, float]:
    """Two-player points from the stored places: a win 1, a draw ½, a loss 0 (docs/leagues.md)."""
    out: dict[int, float] = {}
    for row in rows:
        places = {int(u): p for u, p in row["result"]["places"].items()}
        for user, place in places.items():
            others = [p for u, p in places.items() if u != user]
            got = 1.0 if not others or all(place < p for p in others) else 0.5 if place in others else 0.0
            out[user] = out.get(user, 0.0) + got
    return out


async def test_round_robin_and_swiss_leagues_run_to_their_final_standings(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["ann", "ben", "cat", "dan"], locales={"ben": "ru"},
                                 extra_env={"TABLETOP_BOT_PAUSE": "0"})
        ann, ben, cat, dan = (table.user(n) for n in ("ann", "ben", "cat", "dan"))

        # ---- a round robin of By All Means: ann and ben, and two bots --------------------------------
        r = await fake.slash(ann, table.channel, "league new", game="byallmeans", format="round_robin", pace="live")
        signup = r.message
        assert signup is not None and not r.ephemeral, r.content
        joined = await fake.click(ann, signup, custom_id=next(c for c in custom_ids(signup, "tlg:") if ":j:" in c))
        assert "1" in fake.message(signup.id).content
        assert joined is not None
        r = await fake.slash(ben, table.channel, "league join")
        assert "Вы в лиге" in r.content, r.content
        for _ in range(2):
            r = await fake.slash(ann, table.channel, "league admin", action="add_bot")
            assert "bot" in r.content.lower(), r.content
        r = await fake.slash(ann, table.channel, "league start")
        assert "4 players, 3 rounds" in r.content, r.content
        lid = league_row(table, table.channel.id)["id"]

        # ann plays her first decision of round 1 with the game's own controls (her DM panel) before resigning
        def anns_game() -> int | None:
            return next((row["game"] for row in tables_of(table, lid)
                         if row["round"] == 1 and ann.id in row["seats"] and row["status"] == "playing"), None)

        game_id = await fake.wait_for(anns_game, timeout=30)
        panel = await fake.wait_for(lambda: latest_panel(fake.dm_messages(ann)), timeout=30)
        before = db_query(table.db, "SELECT seq FROM games WHERE id = ?", (game_id,))[0][0]
        answer = await play_panel(fake, ann, panel)
        assert answer.answered.startswith("✅"), answer.answered
        assert db_query(table.db, "SELECT seq FROM games WHERE id = ?", (game_id,))[0][0] > before
        rows = await play_league(table, table.channel, lid, {ann.id: ann, ben.id: ben}, 3, timeout=240)

        # the circle method: six games, every pair once, each player once a round
        pairs = [frozenset(row["seats"]) for row in rows]
        everyone = {ann.id, ben.id, -1, -2}
        assert sorted(map(sorted, pairs)) == sorted(map(sorted, (frozenset(p) for p in
                                                                  itertools.combinations(everyone, 2))))
        for r_no in (1, 2, 3):
            assert sorted(u for row in rows if row["round"] == r_no for u in row["seats"]) == sorted(everyone)
        # one thread per table, made from the table's post in the league's channel, and one game in each
        threads = [row["thread"] for row in rows if row["thread"] is not None]
        assert len(set(threads)) == 5 and all(fake.channels[t].parent_id == table.channel.id for t in threads)
        # one game in each thread a person plays at; the bots' own table is decided without one (the platform
        # ends a game no person plays), the better seed winning (docs/leagues.md)
        played = [row["thread"] for row in rows if {ann.id, ben.id} & set(row["seats"])]
        marks = ",".join("?" * len(threads))
        games = db_query(table.db, f"SELECT id, channel_id, status FROM games WHERE channel_id IN ({marks})",
                         tuple(threads))
        assert len(games) == 5 and {g[1] for g in games} == set(played)
        assert all(status == "finished" for _, _, status in games), (games, rows)
        # each game seats the table's first listed first: the colour rules' choice (alternation), whatever the
        # game's own seating would have drawn
        for row in rows:
            if row["game"] is not None:
                [(seat_users,)] = db_query(table.db, "SELECT seat_users FROM games WHERE id = ?", (row["game"],))
                assert [users[0] for users in json.loads(seat_users)] == row["seats"], row
        [bots_only] = [row for row in rows if not {ann.id, ben.id} & set(row["seats"])]
        assert bots_only["result"] == {"places": {"-1": 1, "-2": 2}, "how": "bots"}
        # a resignation loses: every game with a person in it went to the other side
        got = points(rows)
        for row in rows:
            places = {int(u): p for u, p in row["result"]["places"].items()}
            if ann.id in places and ben.id in places:
                continue  # whoever of the two resigned first lost
            for person in (ann.id, ben.id):
                if person in places:
                    assert places[person] > min(places.values()), row
        assert got[ann.id] + got[ben.id] == 1.0  # their one game against each other; none against a bot
        assert sum(got.values()) == 6.0
        # the standings image (the pinned post and /league standings), best first
        pinned = league_row(table, table.channel.id)["pinned"]
        assert pinned is not None
        post = fake.message(pinned)
        assert any(req.method == "PUT" and str(pinned) in req.path for req in fake.requests_matching("/pins/"))
        assert any(a.is_png for a in post.attachments) and len(post.versions) >= 2  # refreshed after games
        r = await fake.slash(ben, table.channel, "league standings")
        png = next(a for a in r.message.attachments if a.is_png) if r.message else None
        assert png is not None, r.content
        image = decode_png(png.data)
        assert image.width == 720 and image.height > 200
        def final_posts() -> list[Any]:
            return [m for m in fake.channel_messages(table.channel) if "🏁" in m.content and "league" in m.content]

        await fake.wait_for(final_posts, timeout=10)
        final = final_posts()
        assert len(final) == 1
        best = max(got.values())
        assert any(f"<@{u}>" in final[0].content or u < 0 for u, v in got.items() if v == best)

        # ---- an 8-player, 3-round Swiss of Pobeda: four people and four bots, in another channel ---------
        other = fake.create_channel(table.guild, "pobeda-league")
        await asyncio.sleep(0.5)
        r = await fake.slash(ann, other, "league new", game="pobeda", format="swiss", rounds=3, pace="live")
        assert r.message is not None, r.content
        for person in (ann, ben, cat, dan):
            await fake.slash(person, other, "league join")
        for _ in range(4):
            await fake.slash(ann, other, "league admin", action="add_bot")
        r = await fake.slash(ann, other, "league start")
        assert "8 players, 3 rounds" in r.content, r.content
        lid2 = league_row(table, other.id)["id"]
        people = {u.id: u for u in (ann, ben, cat, dan)}
        rows = await play_league(table, other, lid2, people, 3, timeout=420)
        assert sum(1 for row in rows if row["game"] is not None) >= 8  # most tables were played
        assert len(rows) == 12
        met = [frozenset(row["seats"]) for row in rows]
        assert len(met) == len(set(met))  # no rematch in three rounds of eight
        for r_no in (1, 2, 3):
            assert len([u for row in rows if row["round"] == r_no for u in row["seats"]]) == 8
        # Swiss: from round 2 on, the leaders meet (pairs within a score group while one is possible)
        by_round: dict[int, dict[int, float]] = {}
        for r_no in (1, 2):
            by_round[r_no] = points([row for row in rows if row["round"] <= r_no])
        leaders = {u for u, v in by_round[1].items() if v == 1.0}
        round2 = [row["seats"] for row in rows if row["round"] == 2]
        assert all((a in leaders) == (b in leaders) for a, b in round2)
        assert sum(points(rows).values()) == 12.0
        r = await fake.slash(ann, other, "league pairings")
        assert "Round 3 of 3" in r.content, r.content
        r = await fake.slash(ben, other, "league standings")  # in Russian for ben
        assert r.message is not None and "турнирная таблица" in r.content, r.content
        png = next(a for a in r.message.attachments if a.is_png)
        decode_png(png.data).save(tmp_path / "standings.png")
        assert_clean_output(table.bot.output())
        await table.bot.stop()


async def test_sigkill_between_pairing_and_threads_resumes_without_doubles(tmp_path: Path) -> None:
    """Discord takes a table's post but its answer is lost, and makes every thread but its answer is lost too;
    the bot is killed with the round paired, the posts and the threads made and none of the threads stored; the
    restart opens each table once: one post, one thread (Discord refuses a second thread on a message, 160004,
    and the thread is the message's), one game."""
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["ann", "ben", "cat", "dan"], extra_env={"TABLETOP_BOT_PAUSE": "0"})
        people = [table.user(n) for n in ("ann", "ben", "cat", "dan")]
        await fake.slash(people[0], table.channel, "league new", game="pobeda", format="swiss", rounds=2)
        for person in people:
            await fake.slash(person, table.channel, "league join")
        lost = fake.fail_requests(route_contains=f"/channels/{table.channel.id}/messages", method="POST", count=2,
                                  lose_response=True)  # the round's post and the first table's: made, unheard
        refused = fake.fail_requests(route_contains="/threads", method="POST", count=1000,
                                     lose_response=True)  # each thread made, its answer lost
        r = await fake.slash(people[0], table.channel, "league start")
        assert "4 players, 2 rounds" in r.content, r.content
        lid = league_row(table, table.channel.id)["id"]

        def posted() -> bool:
            rows = tables_of(table, lid)
            return len(rows) == 2 and all(row["status"] == "opening" and refused.hits >= 2 for row in rows)

        await fake.wait_for(posted, timeout=30)
        assert lost.hits == 2
        await table.bot.kill()
        fake.clear_faults()
        await table.bot.start(timeout=60)

        def started() -> bool:
            return all(row["status"] == "playing" for row in tables_of(table, lid))

        await fake.wait_for(started, timeout=30)
        rows = tables_of(table, lid)
        table_posts = [m for m in fake.channel_messages(table.channel) if m.content.startswith("Round 1, table")]
        assert sorted(m.id for m in table_posts) == sorted(row_message(table, lid))
        assert len(table_posts) == 2
        threads = [c for c in fake.channels.values() if c.parent_id == table.channel.id]
        assert sorted(c.id for c in threads) == sorted(row["thread"] for row in rows)
        assert sorted(c.id for c in threads) == sorted(row_message(table, lid))  # made before the kill, kept
        assert any(err.get("code") == 160004 for _, err in fake.errors_returned)  # the restart's second try
        games = db_query(table.db, "SELECT channel_id FROM games")
        assert sorted(g[0] for g in games) == sorted(row["thread"] for row in rows)
        rounds = [m for m in fake.channel_messages(table.channel) if "Round 1 of 2" in m.content]
        assert len(rounds) == 1

        # cat leaves: her game is conceded (her opponent wins) and round 2 pairs the three others, a bye to one
        cat = table.user("cat")
        r = await fake.slash(cat, table.channel, "league leave")
        assert "You left the league" in r.content, r.content
        others = {u.id: u for u in people if u.id != cat.id}

        async def round_two() -> bool:
            await resign_where_asked(table, lid, {u: p for u, p in others.items()
                                                  if not any(cat.id in row["seats"] and u in row["seats"]
                                                             for row in tables_of(table, lid))}, set())
            return league_row(table, table.channel.id)["round"] == 2

        for _ in range(60):
            if await round_two():
                break
            await asyncio.sleep(0.5)
        rows = tables_of(table, lid)
        [hers] = [row for row in rows if row["round"] == 1 and cat.id in row["seats"]]
        places = {int(u): p for u, p in hers["result"]["places"].items()}
        assert places[cat.id] == 2 and min(places.values()) == 1
        second = [row for row in rows if row["round"] == 2]
        assert sorted(len(row["seats"]) for row in second) == [1, 2]  # a pair and a bye
        assert all(cat.id not in row["seats"] for row in second)
        assert_clean_output(table.bot.output())
        await table.bot.stop()


def row_message(table: Table, league_id: int) -> list[int]:
    return [int(r[0]) for r in db_query(table.db, "SELECT message_id FROM league_tables WHERE league_id = ?",
                                        (league_id,))]


async def test_a_league_of_teams_of_pobeda_runs_to_its_final_standings(tmp_path: Path) -> None:
    """A Swiss of four teams of two (two teams of people, two of bots), two rounds: teams sign up by name, each
    table's game is a Pobeda team game whose seats the game itself alternates by team, a team whose people
    resign loses (the other side is the last one left), a team whose members all leave is out (its game
    conceded, no more pairings), a table of two bot teams is decided without a game, and the standings image
    names the teams and their members."""
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["ann", "ben", "cat", "dan"], locales={"ben": "ru"},
                                 extra_env={"TABLETOP_BOT_PAUSE": "0"})
        ann, ben, cat, dan = (table.user(n) for n in ("ann", "ben", "cat", "dan"))
        r = await fake.slash(ann, table.channel, "league new", game="pobeda", format="swiss", rounds=2, pace="live",
                             team_size=2)
        signup = r.message
        assert signup is not None, r.content
        refused = await fake.click(ann, signup, custom_id=next(c for c in custom_ids(signup, "tlg:") if ":j:" in c))
        assert "/league join team:" in str(refused.content), refused.content  # a team is joined by name
        r = await fake.slash(ann, table.channel, "league join", team="Red  Wolves")
        assert "You made the team Red Wolves" in r.content, r.content
        r = await fake.slash(ben, table.channel, "league join", team="red wolves")
        assert "Вы вступили в команду Red Wolves" in r.content, r.content
        r = await fake.slash(cat, table.channel, "league join", team="Red Wolves")
        assert "already has 2 players" in r.content, r.content
        for person in (cat, dan):
            await fake.slash(person, table.channel, "league join", team="Blue")
        for _ in range(4):  # two teams of bots: a bot joins the smallest team not full, else makes one
            await fake.slash(ann, table.channel, "league admin", action="add_bot")
        assert "Bots 3" in fake.message(signup.id).content and "Bots 4" in fake.message(signup.id).content
        r = await fake.slash(ann, table.channel, "league start")
        assert "4 teams, 2 rounds" in r.content, r.content
        lid = league_row(table, table.channel.id)["id"]
        teams = {name: uid for uid, name in db_query(
            table.db, "SELECT user_id, name FROM league_players WHERE league_id = ? AND team IS NULL", (lid,))}
        members: dict[int, list[int]] = {}
        for user, team in db_query(table.db, "SELECT user_id, team FROM league_players WHERE league_id = ?"
                                             " AND team IS NOT NULL ORDER BY joined_at", (lid,)):
            members.setdefault(team, []).append(user)
        assert members[teams["Red Wolves"]] == [ann.id, ben.id] and members[teams["Blue"]] == [cat.id, dan.id]
        people = {u.id: u for u in (ann, ben, cat, dan)}
        blue = teams["Blue"]

        # Blue's members leave once its first game runs: dan's seat is conceded and the team plays on with cat;
        # cat, the last, takes the team out: its game is conceded and its round-2 table forfeited
        def blue_playing() -> bool:
            return any(row["status"] == "playing" and blue in row["seats"] for row in tables_of(table, lid))

        await fake.wait_for(blue_playing, timeout=30)
        for person in (dan, cat):
            r = await fake.slash(person, table.channel, "league leave")
            assert "You left the league" in r.content, r.content
            if person is dan:
                [(status,)] = db_query(table.db, "SELECT status FROM league_players WHERE user_id = ?", (blue,))
                assert status == "active"
        people = {ann.id: ann, ben.id: ben}

        async def resign_teams(done: set[int]) -> None:
            """At each game with people, the first team of people at the table resigns, both members."""
            for row in tables_of(table, lid):
                if row["status"] != "playing" or row["game"] in done:
                    continue
                if db_query(table.db, "SELECT status FROM games WHERE id = ?", (row["game"],))[0][0] != "running":
                    continue
                team = next((t for t in row["seats"] if members[t][0] in people), None)
                if team is None:
                    continue
                for user in members[team]:
                    r = await fake.slash(people[user], fake.channels[row["thread"]], "game leave")
                    assert r.message is not None, r.content
                    await fake.click(people[user], r.message, custom_id=custom_ids(r.message, "tt:")[0])
                done.add(row["game"])

        done: set[int] = set()
        loop = asyncio.get_running_loop()
        ends = loop.time() + 90
        while loop.time() < ends and league_row(table, table.channel.id)["status"] != "finished":
            await resign_teams(done)
            await asyncio.sleep(0.3)
        league = league_row(table, table.channel.id)
        rows = tables_of(table, lid)
        assert league["status"] == "finished" and league["round"] == 2, (league, rows)
        # Swiss of teams: each round every team still in once (Blue is out in round 2: a pair and a bye), no rematch
        assert len(rows) == 4 and len({frozenset(row["seats"]) for row in rows}) == 4
        assert sorted(t for row in rows if row["round"] == 1 for t in row["seats"]) == sorted(teams.values())
        second = [row["seats"] for row in rows if row["round"] == 2]
        assert sorted(len(seats) for seats in second) == [1, 2] and all(blue not in seats for seats in second)
        assert sorted(t for seats in second for t in seats) == sorted(t for t in teams.values() if t != blue)
        bots = {teams["Bots 3"], teams["Bots 4"]}
        [(status,)] = db_query(table.db, "SELECT status FROM league_players WHERE user_id = ?", (blue,))
        assert status == "left"
        for row in rows:
            places = {int(u): p for u, p in row["result"]["places"].items()}
            if set(row["seats"]) == bots:  # bot teams only: no game, the better seed wins
                assert row["game"] is None and row["result"]["how"] == "bots"
                continue
            if len(row["seats"]) == 1:  # the bye
                assert row["result"]["how"] == "bye"
                continue
            if blue in row["seats"]:  # Blue's game, conceded by its members as they left
                assert places[blue] == 2 and min(places.values()) == 1, row
                continue
            # the game seated both teams' members, alternating by team as Pobeda's rules ask ("чтобы игроки
            # разных команд чередовались"), and the team that resigned lost
            [(seat_users, seat_info, status)] = db_query(
                table.db, "SELECT seat_users, seat_info, status FROM games WHERE id = ?", (row["game"],))
            seated = [json.loads(seat_users), json.loads(seat_info)]
            assert status == "finished"
            side_of = {users[0]: info["side"] for users, info in zip(*seated, strict=True)}
            assert sorted(side_of) == sorted(m for t in row["seats"] for m in members[t])
            sides = [info["side"] for info in seated[1]]
            assert all(sides[i] != sides[i + 1] for i in range(len(sides) - 1))
            for t in row["seats"]:
                assert len({side_of[m] for m in members[t]}) == 1
            resigned = next(t for t in row["seats"] if members[t][0] in people)  # Red Wolves
            assert places[resigned] == 2 and min(places.values()) == 1
        # the standings: teams by name, members on a second line
        r = await fake.slash(cat, table.channel, "league standings")
        png = next(a for a in r.message.attachments if a.is_png) if r.message else None
        assert png is not None, r.content
        image = decode_png(png.data)
        assert image.width == 720 and image.height > 5 * 56
        image.save(tmp_path / "team_standings.png")
        final = [m for m in fake.channel_messages(table.channel) if "🏁" in m.content]
        assert len(final) == 1
        assert_clean_output(table.bot.output())
        await table.bot.stop()
