"""End to end: a Pobeda team game (two teams of three) with the moderator's penalty, to a result;
a lobby whose team picks cannot sit alternately says so and refuses to start until evened out."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.games.pobeda import Pobeda
from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    game_row,
    last_turn_post,
    make_table,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

NAMES = ["ann", "boris", "clara", "dima", "elena", "fedor"]


async def act_for_pinged(table: Table) -> bool:
    """Every user who must act, pinged by the latest turn post, acts from their DM panel; False once finished.

    Who must act is read from the game once all it committed is announced: a post that asked a seat to go on
    (a card drawn after a play) may still be the latest when that seat has already gone on from the answer
    to its click (CI once waited there for a DM panel the seat no longer needed)."""
    row = await table.fake.wait_for(
        lambda: (r := game_row(table.db, table.channel.id))["published_seq"] >= r["seq"] and r, timeout=20)
    if row["status"] == "finished":
        return False
    post = last_turn_post(table)
    posts = len(turn_posts(table))
    users = [table.by_id(uid) for seat in Pobeda.from_json(row["state"]).actors() for uid in row["seat_users"][seat]]
    assert users and {u.id for u in users} <= set(post.mentions), (post.content, post.mentions)
    panels = [await wait_dm_panel(table, user) for user in users]
    results = await asyncio.gather(*[play_panel(table.fake, u, p) for u, p in zip(users, panels, strict=True)])
    for user, r in zip(users, results, strict=True):
        assert r.content.startswith("✅"), r.content
        while custom_ids(r.message, "tt:a:") or custom_ids(r.message, "tt:n:"):  # the same seat decides on
            r = await play_panel(table.fake, user, r.message)
            assert r.content.startswith("✅"), r.content
    await table.fake.wait_for(
        lambda: len(turn_posts(table)) > posts or game_row(table.db, table.channel.id)["status"] == "finished",
        timeout=20)
    return game_row(table.db, table.channel.id)["status"] != "finished"


async def test_two_teams_of_three_with_penalty(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, NAMES, locales={"ann": "ru", "dima": "ru"})
        r = await fake.slash(table.user("ann"), table.channel, "game new", {"game": "pobeda", "options": "teams=2"})
        lobby = r.message
        team_select = f"tt:t:{custom_ids(lobby, 'tt:l:')[0].split(':')[2]}"
        for n, name in enumerate(NAMES):
            result = await fake.select(table.user(name), lobby, values=[str(n % 2)], custom_id=team_select)
            assert not result.content.startswith("⛔"), result.content
        assert lobby.embeds and "3" in json.dumps(lobby.embeds)
        await start_lobby(table, "ann", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)

        row = game_row(table.db, table.channel.id)
        game = Pobeda.from_json(row["state"])
        seat_users = row["seat_users"]
        assert len(seat_users) == 6 and all(len(users) == 1 for users in seat_users)
        sides = [game.side_of(seat) for seat in range(6)]
        assert sides in ([0, 1] * 3, [1, 0] * 3)  # seats alternate between the teams around the table
        by_team = {name: n % 2 for n, name in enumerate(NAMES)}
        for seat, users in enumerate(seat_users):
            name = next(k for k, v in table.users.items() if v.id == users[0])
            assert by_team[name] == sides[seat]

        for _ in range(4):
            assert await act_for_pinged(table)

        # a player (not the host, not a moderator in the fake) is refused; the host applies the penalty
        admin = await fake.slash(table.user("ann"), table.channel, "game admin")
        assert admin.ephemeral
        penalty_button = custom_ids(admin.message, "tt:m:")[0]
        posts = len(turn_posts(table))
        hands_before = [len(h) for h in game_row(table.db, table.channel.id)["state"]["hands"]]
        r = await fake.click(table.user("ann"), admin.message, custom_id=penalty_button)
        assert r.content.startswith("✅"), r.content
        await fake.wait_for(lambda: len(turn_posts(table)) > posts, timeout=20)
        penalised = last_turn_post(table).mentions
        assert len(penalised) == 3  # every member of the penalised team must give up a card
        assert await act_for_pinged(table)
        state = game_row(table.db, table.channel.id)["state"]
        team_seats = [s for s, users in enumerate(seat_users) if users[0] in penalised]
        for seat in team_seats:
            assert len(state["hands"][seat]) == hands_before[seat] - 1
        assert len(state["deck"]) + sum(len(h) for h in state["hands"]) + len(state["discard"]) == 151

        for _ in range(300):
            if not await act_for_pinged(table):
                break
        row = game_row(table.db, table.channel.id)
        assert row["status"] == "finished"
        await fake.wait_for(lambda: any("🏁" in m.content for m in fake.channel_messages(table.channel)), timeout=20)
        from bot.core.replay import verify
        from bot.core.store import Store

        await fake.wait_for(lambda: (r := game_row(table.db, table.channel.id))["published_seq"] == r["seq"])
        await table.bot.stop()
        store = await Store.open(table.db)
        try:
            assert await verify(store, row["id"])
        finally:
            await store.close()
        assert_clean_output(table.bot.output())


async def test_lopsided_picks_are_shown_and_refused_until_evened_out(tmp_path: Path) -> None:
    """Rulebook: «Сядьте вокруг игрового поля через одного так, чтобы участники разных команд
    чередовались». Three Red players and one Blue cannot; moving one Red player to Blue can."""
    names = NAMES[:4]
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, names)
        r = await fake.slash(table.user("ann"), table.channel, "game new", {"game": "pobeda", "options": "teams=2"})
        lobby = r.message
        team_select = f"tt:t:{custom_ids(lobby, 'tt:l:')[0].split(':')[2]}"
        for name, team in zip(names, (0, 0, 0, 1), strict=True):
            result = await fake.select(table.user(name), lobby, values=[str(team)], custom_id=team_select)
            assert not result.content.startswith("⛔"), result.content
        advice = "Move 1 player from Team Red to Team Blue."
        assert advice in (lobby.embeds[0].get("description") or "")  # said before anyone clicks Start
        r = await start_lobby(table, "ann", lobby)
        assert r.ephemeral and r.content.startswith("⛔") and advice in r.content
        assert game_row(table.db, table.channel.id)["status"] == "lobby"

        result = await fake.select(table.user("clara"), lobby, values=["1"], custom_id=team_select)
        assert not result.content.startswith("⛔"), result.content
        assert not lobby.embeds[0].get("description")
        await start_lobby(table, "ann", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        row = game_row(table.db, table.channel.id)
        assert row["status"] == "running"
        by_team = {table.user(name).id: team for name, team in zip(names, (0, 0, 1, 1), strict=True)}
        sides = [by_team[users[0]] for users in row["seat_users"]]
        assert sides == row["state"]["seat_sides"]
        assert all(sides[i] != sides[i - 1] for i in range(4))  # alternate, the last seat beside the first
        assert_clean_output(table.bot.output())
