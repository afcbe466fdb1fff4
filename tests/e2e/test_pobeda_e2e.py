"""End to end: the real bot process against the fake Discord, playing Pobeda as users would."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.games.pobeda import Pobeda
from tests.e2e.helpers import (
    NO_WINDOW,
    Table,
    actor_ids,
    assert_clean_output,
    custom_ids,
    db_query,
    decode_png,
    game_row,
    latest_panel,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.fake_discord import FakeDiscord

"""Pobeda's undo window (issue 27) off: these tests are about the platform, and a turn here is one play."""


pytestmark = pytest.mark.e2e


async def wait_turn_post(table: Table, count: int) -> None:
    try:
        await table.fake.wait_for(
            lambda: len(turn_posts(table)) > count or game_row(table.db, table.channel.id)["status"] == "finished",
            timeout=20,
        )
    except TimeoutError as exc:
        problems = [line for line in table.bot.output().splitlines() if "WARNING" in line or "ERROR" in line
                    or "Error" in line or "Traceback" in line or line.startswith(" ")]
        raise AssertionError("no new board post; bot problems:\n" + "\n".join(problems[-60:])) from exc


async def play_turn(table: Table, via_hand: bool = False) -> bool:
    """The user pinged by the latest turn post makes one move from their DM panel (or /game hand).

    Returns False when the game is over.
    """
    fake = table.fake
    row = game_row(table.db, table.channel.id)
    if row["status"] == "finished":
        return False
    posts_before = len(turn_posts(table))
    user = table.by_id(actor_ids(table)[0])
    if via_hand:
        r = await fake.slash(user, table.channel, "game hand")
        assert r.ephemeral
        panel = r.message
    else:
        panel = await wait_dm_panel(table, user)
    r = await play_panel(fake, user, panel)
    # what the click answered: ``content`` is the live message, which the publisher may already have brought up
    # to date (a seat that must play again has its DM panel edited to its next decision, without the ✅)
    assert r.answered.startswith("✅"), r.answered
    while latest_panel([r.message]) is not None:  # a follow-up decision of the same seat (which line, a turn again)
        r = await play_panel(fake, user, r.message)
        assert r.answered.startswith("✅"), r.answered
    await wait_turn_post(table, posts_before)
    return game_row(table.db, table.channel.id)["status"] != "finished"


async def play_to_end(table: Table, limit: int = 400) -> None:
    for _ in range(limit):
        if not await play_turn(table):
            return
    raise AssertionError("the game did not end")


def assert_replays(db: Path, channel_id: int) -> None:
    from bot.core.replay import replay
    from bot.core.store import ActionRow

    gid, seed, seat_info, options, state = db_query(
        db, "SELECT id, seed, seat_info, options, state FROM games WHERE channel_id = ?", (channel_id,))[0]
    actions = [ActionRow(seq, seat, None, json.loads(a), [], 0.0)
               for seq, seat, a in db_query(db, "SELECT seq, seat, action FROM actions WHERE game_id = ?"
                                                " ORDER BY seq", (gid,))]
    game = replay("pobeda", json.loads(seat_info), json.loads(options), seed, actions)
    assert json.loads(json.dumps(game.to_json())) == json.loads(state)


def hand_titles(state: dict, lang_titles: dict[str, list[str]]) -> set[str]:
    titles: set[str] = set()
    for hand in state["hands"]:
        for card in hand:
            titles |= set(lang_titles.get(card, []))
    return titles


def card_titles() -> dict[str, list[str]]:
    from bot.games.pobeda.data import events

    return {cid: [e["title"]["ru"], e["title"]["en"]] for cid, e in events().items()}


def assert_no_private_content(fake: FakeDiscord, state: dict) -> None:
    """Cards still in hands were never played: their titles must not appear in any guild message."""
    secret = hand_titles(state, card_titles())
    assert secret
    for message in fake.all_guild_messages():
        for version in [*message.history, message.version]:
            text = version.text
            leaked = [title for title in secret if title in text]
            assert not leaked, f"private card {leaked} in channel message {message.id}"


async def test_three_player_game_survives_sigkill_and_ends(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob", "carol", "eve"], locales={"alice": "ru"})
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob", "carol"], options=NO_WINDOW)
        # the lobby refuses a second game in the same channel, naming the running one
        again = await fake.slash(table.user("bob"), table.channel, "game new", game="pobeda", options=NO_WINDOW)
        assert again.ephemeral and "/game abort" in again.content
        started = await start_lobby(table, "alice", lobby)
        assert not custom_ids(started.message, "tt:l:")  # the lobby lost its buttons
        await wait_turn_post(table, 0)
        first = turn_posts(table)[0]
        png = decode_png(first.attachments[0].data)
        assert max(png.size) <= 2048 and first.attachments[0].size <= 800_000
        assert len(first.mentions) == 1  # exactly the player to act is pinged

        for n in range(5):
            assert await play_turn(table, via_hand=(n == 2))
        row = game_row(table.db, table.channel.id)
        assert row["seq"] >= 5 and row["status"] == "running"
        assert_no_private_content(fake, row["state"])
        # wait for the DM of the player to act, then remember each player's latest DM panel:
        # the current one must still work after the restart
        post_id = turn_posts(table)[-1].id
        actor = table.by_id(actor_ids(table)[0])
        await fake.wait_for(lambda: latest_panel([m for m in fake.dm_messages(actor) if m.id > post_id]))
        # (killing before the publish is marked done would re-announce the move after the restart:
        # correct, but it would race this test's bookkeeping of posts)
        await fake.wait_for(lambda: (r := game_row(table.db, table.channel.id))["published_seq"] == r["seq"])
        old_panels = {name: latest_panel(fake.dm_messages(table.user(name))) for name in ("alice", "bob", "carol")}

        await table.bot.kill()
        assert game_row(table.db, table.channel.id)["seq"] == row["seq"]  # nothing lost
        await table.bot.start(timeout=60)

        assert table.by_id(actor_ids(table)[0]) is actor
        name = next(k for k, v in table.users.items() if v is actor)
        posts = len(turn_posts(table))
        table.used_panels |= {p.id for p in old_panels.values() if p is not None}
        r = await play_panel(fake, actor, old_panels[name])
        assert r.content.startswith("✅"), r.content
        while latest_panel([r.message]) is not None:
            r = await play_panel(fake, actor, r.message)
        await wait_turn_post(table, posts)

        await play_to_end(table)
        final = await fake.wait_for(lambda: any("🏁" in m.content for m in fake.channel_messages(table.channel)),
                                    timeout=20)
        assert final
        await fake.wait_for(lambda: (r := game_row(table.db, table.channel.id))["published_seq"] == r["seq"])
        row = game_row(table.db, table.channel.id)
        assert row["status"] == "finished"
        assert_replays(table.db, table.channel.id)
        if any(row["state"]["hands"]):
            assert_no_private_content(fake, row["state"])
        # the channel is free again
        r = await fake.slash(table.user("bob"), table.channel, "game new", game="pobeda", options=NO_WINDOW)
        assert not r.ephemeral
        await fake.wait_for(lambda: db_query(table.db, "SELECT 1 FROM messages m JOIN games g ON g.id = m.game_id"
                                                       " WHERE g.status = 'lobby' AND m.purpose = 'lobby'"))
        await table.bot.stop()
        assert_clean_output(table.bot.output())


async def test_closed_dms_spectator_double_click_and_stale_buttons(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob", "eve"], locales={"bob": "ru"})
        fake.close_dms(table.user("bob"))
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], options=NO_WINDOW)
        await start_lobby(table, "alice", lobby)
        await wait_turn_post(table, 0)

        # a spectator can look but not act
        r = await fake.click(table.user("eve"), turn_posts(table)[-1],
                             custom_id=custom_ids(turn_posts(table)[-1], "tt:p:")[0])
        assert r.ephemeral and r.content.startswith("⛔")
        status = await fake.slash(table.user("eve"), table.channel, "game status")
        assert status.ephemeral and "Pobeda" in status.content or "Победа" in status.content

        bob_played = False
        stale_checked = double_checked = False
        own_turns = 0
        for _ in range(8):
            actor = table.by_id(actor_ids(table)[0])
            if actor is table.user("bob"):
                # bob's DMs are closed: the channel is told, without content, to use /game hand
                notice = await fake.wait_for(
                    lambda: [m for m in fake.channel_messages(table.channel) if "/game hand" in m.content],
                    timeout=20)
                assert len(notice) == 1 and f"<@{table.user('bob').id}>" in notice[0].content
                assert notice[0].mentions == [table.user("bob").id]
                assert not fake.dm_messages(table.user("bob"))
                assert await play_turn(table, via_hand=True)
                bob_played = True
                continue
            panel = await wait_dm_panel(table, actor)
            posts = len(turn_posts(table))
            seq_before = game_row(table.db, table.channel.id)["seq"]
            own_turns += 1
            if own_turns % 2:
                # play through /game hand: the DM panel of this turn left behind loses its controls
                # (one live panel per player, issue 13), so it cannot be pressed any more
                assert await play_turn(table, via_hand=True)
                seq_after = game_row(table.db, table.channel.id)["seq"]
                assert seq_after > seq_before

                def retired(panel_id: int = panel.id) -> bool:
                    left = fake.message(panel_id)
                    return not (custom_ids(left, "tt:a:") or custom_ids(left, "tt:n:"))

                await fake.wait_for(retired, timeout=10)
                assert game_row(table.db, table.channel.id)["seq"] == seq_after
                stale_checked = True
                continue
            # operate every level of the panel twice at once (a double click): exactly one action applies
            current = panel
            for _depth in range(5):
                buttons = custom_ids(current, "tt:a:")
                if buttons:
                    calls = [fake.click(actor, current, custom_id=buttons[0]) for _ in range(2)]
                else:
                    select = next(c for c in current.all_components()
                                  if c.get("custom_id", "").startswith("tt:n:"))
                    calls = [fake.select(actor, current, values=[select["options"][0]["value"]],
                                         custom_id=select["custom_id"]) for _ in range(2)]
                results = await asyncio.gather(*calls)
                applied = [r for r in results if r.content.startswith("✅")]
                if applied or buttons:
                    assert len(applied) == 1, [r.content for r in results]
                    other = next(r for r in results if r is not applied[0])
                    assert other.content.startswith("⛔") and other.ephemeral, other.content
                    double_checked = True
                    break
                current = results[0].message
            await wait_turn_post(table, posts)
            assert game_row(table.db, table.channel.id)["seq"] == seq_before + 1
        assert bob_played and stale_checked and double_checked

        # bob's /game hand offers to retry DMs: refused while closed, then his panel arrives by DM
        bob = table.user("bob")
        hand = await fake.slash(bob, table.channel, "game hand")
        retry = custom_ids(hand.message, "tt:d:")
        assert retry
        r = await fake.click(bob, hand.message, custom_id=retry[0])
        assert r.content.startswith("⛔") and not fake.dm_messages(bob)
        fake.open_dms(bob)
        hand = await fake.slash(bob, table.channel, "game hand")
        r = await fake.click(bob, hand.message, custom_id=custom_ids(hand.message, "tt:d:")[0])
        assert r.content.startswith("✅"), r.content
        assert fake.dm_messages(bob) and db_query(table.db, "SELECT COUNT(*) FROM dm_closed")[0][0] == 0
        # the notice is not repeated on bob's later turns
        assert len([m for m in fake.channel_messages(table.channel) if "/game hand" in m.content]) == 1
        await table.bot.stop()
        assert_clean_output(table.bot.output())


async def test_startup_without_token_exits_2_with_one_line(tmp_path: Path) -> None:
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["DATABASE_PATH"] = str(tmp_path / "x.sqlite3")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=str(Path(__file__).resolve().parents[2]), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 2
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "Traceback" not in err.decode()
    assert not out.strip()


async def test_rejected_token_exits_2_with_one_line(tmp_path: Path) -> None:
    import os
    import sys

    async with FakeDiscord() as fake:
        fake.reject_tokens = True
        env = {**os.environ, "DISCORD_TOKEN": "not-a-valid-token", "DISCORD_API_BASE": fake.api_base,
               "DATABASE_PATH": str(tmp_path / "x.sqlite3"), "LOG_LEVEL": "WARNING"}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=str(Path(__file__).resolve().parents[2]), env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode == 2
    errors = [line for line in err.decode().splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "DISCORD_TOKEN" in errors[0] and "rejected" in errors[0]
    assert "Traceback" not in err.decode()


def test_pobeda_is_the_registered_game() -> None:
    assert Pobeda.key == "pobeda"
