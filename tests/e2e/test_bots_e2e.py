"""End to end (issue 11): bot players through the real bot process and the fake Discord.

- A one-human practice game of each game (Pobeda, Cold War, Godstorm, classic Risk): the host adds a
  bot in the lobby's bot panel, starts, and plays every move through the controls (``/game hand``
  and the panel shown in place); the bot answers. The issue: "a whole bot turn is one post, not ten"
  — every post's board is named by the sequence number it announces, so no post (nor edit) may
  announce a state in the middle of a run of bot moves.
- Three players, one stops answering: "the bot takes over after two missed deadlines, then the player
  reclaims the seat" (the button in the takeover notice), and plays again.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.games.ai import decide, policy_for
from bot.games.base import Game
from bot.games.registry import game_class
from tests.e2e.coldwar_play import is_button_for
from tests.e2e.helpers import (
    SharedBot,
    Table,
    assert_clean_output,
    choice_ids,
    custom_ids,
    db_query,
    game_row,
    make_table,
    shared_table,
    start_lobby,
)
from tests.fake_discord import FakeDiscord

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]
SHARED_BOT_ENV = {"TABLETOP_BOT_PAUSE": "0.05"}
"""The practice games share one bot process (``shared_bot``); the other test starts its own."""

BOARD_SEQ = re.compile(r"-(\d+)-(\d+)\.png$")


def committed(table: Table) -> tuple[dict[str, Any], Game]:
    """The committed game (as the bot stored it), seat names as the bot gives them."""
    row = game_row(table.db, table.channel.id)
    key, lobby = db_query(table.db, "SELECT game, lobby FROM games WHERE id = ?", (row["id"],))[0]
    names = {entry["user"]: entry["name"] for entry in json.loads(lobby)}
    game = game_class(key).from_json(row["state"])
    game.seat_names = [" & ".join(names.get(u, str(u)) for u in users) for users in row["seat_users"]]
    row["game"] = key
    return row, game


def seat_of(row: dict[str, Any], user: Any) -> int:
    return next(i for i, users in enumerate(row["seat_users"]) if user.id in users)


async def operate(table: Table, user: Any, panel: Any, game: Game, seat: int, action: dict[str, Any]) -> Any:
    """Press the controls leading to ``action``: its button, or the nested selects by label."""
    fake = table.fake
    path = game.panel_path(seat, action, "en") if hasattr(game, "panel_path") else game.action_path(seat, action, "en")
    current = panel
    depth = 0
    for _ in range(8):
        buttons = [c for c in custom_ids(current, "tt:a:") if is_button_for(table, c, action)]
        if buttons:
            return await fake.click(user, current, custom_id=buttons[0])
        # (the standing preferences, secondary buttons beside the choices, are no decision: issue 10)
        assert not choice_ids(current), f"{action} is not among the buttons of {current.content!r}"
        # a level with a single group is skipped by the panel (shown as its heading): match any deeper label
        options: list[tuple[str, str]] = []
        for index in range(depth, len(path)):
            label = path[index]
            options = [(c["custom_id"], o["value"]) for c in current.all_components()
                       if c.get("custom_id", "").startswith("tt:n:") for o in c["options"]
                       if o["label"] == label or (len(label) > 100 and o["label"].startswith(label[:90]))]
            if options:
                depth = index + 1
                break
        if not options:
            raise LookupError(f"no select option of {path[depth:]} for {action} on {current.content!r}")
        r = await fake.select(user, current, values=[options[0][1]], custom_id=options[0][0])
        if r.answered.startswith(("✅", "⛔")):
            return r
        current = r.message
    raise AssertionError(f"the panel did not lead to {action}")


async def open_practice(table: Table, host: str, game: str, levels: list[str], options: str | None = None) -> Any:
    """``/game new``, bots added from the lobby's bot panel, and the start button."""
    fake = table.fake
    user = table.user(host)
    r = await fake.slash(user, table.channel, "game new", {"options": options} if options else None, game=game)
    lobby = r.message
    r = await fake.click(user, lobby, custom_id=custom_ids(lobby, "ttb:l:")[0])
    assert r.ephemeral
    panel = r.message
    for level in levels:
        r = await fake.select(user, panel, values=[f"add:{level}"], custom_id=custom_ids(panel, "ttb:a:")[0])
        panel = r.message
    # the lobby (edited after the panel's answer) names its bots, never mentions them
    await fake.wait_for(lambda: fake.message(lobby.id).text.count("🤖 Bot (") == len(levels), timeout=10)
    started = await start_lobby(table, host, lobby)
    assert not started.content.startswith("⛔"), started.content
    return lobby


async def wait_my_turn(table: Table, user: Any, timeout: float = 30) -> bool:
    """Until the game is over (False) or ``user`` must act (True): with everything before announced,
    unless the last move was the user's own (a Risk turn goes on without waiting for its post)."""
    def ready() -> bool | None:
        row, game = committed(table)
        if row["status"] == "finished":
            return True
        if row["published_seq"] < row["seq"]:
            last = db_query(table.db, "SELECT user_id FROM actions WHERE game_id = ? AND seq = ?",
                            (row["id"], row["seq"]))
            if not last or last[0][0] != user.id:
                return None
        return True if seat_of(row, user) in game.actors() else None

    try:
        await table.fake.wait_for(ready, timeout=timeout)
    except TimeoutError as exc:
        raise AssertionError("the bot never handed the turn back:\n" + table.bot.output()[-3000:]) from exc
    return game_row(table.db, table.channel.id)["status"] != "finished"


def choice(game: Game, seat: int, seq: int, style: str) -> dict[str, Any]:
    """What the test's player does: the quick bot's move, or (``passive``) what the game does for an
    absent player (classic Risk has no turn limit: a passive player loses within minutes of play)."""
    if style == "passive":
        action = game.timeout_action(seat)
        if action is not None and action in game.legal_actions(seat):  # the panel offers the listed ones
            return action
    return decide(game, seat, policy_for(game.key, "quick"), 90_000 + seq)


async def play_practice(table: Table, user: Any, style: str = "quick", limit: int = 2000) -> int:
    """The human plays every decision (entered through the controls) until the game ends. Returns
    the number of human moves."""
    fake = table.fake
    panel = None
    moves = stale = 0
    for _ in range(limit):
        if not await wait_my_turn(table, user):
            return moves
        row, game = committed(table)
        seat = seat_of(row, user)
        action = choice(game, seat, row["seq"], style)
        if panel is None or not (custom_ids(panel, "tt:a:") or custom_ids(panel, "tt:n:")):  # ↩ alone is no panel
            r = await fake.slash(user, table.channel, "game hand")
            assert r.ephemeral
            panel = r.message
        try:
            r = await operate(table, user, panel, game, seat, action)
        except LookupError:
            stale += 1  # the panel in hand shows an older state (its labels carry army counts): a fresh one
            assert stale < 20, "the panels never offered the move"
            panel = None
            continue
        if r.answered.startswith("⛔"):  # a panel from before the bot's move: ask for a fresh one
            panel = None
            continue
        if not r.answered.startswith("✅"):
            out = table.bot.output()
            start = out.find("Traceback")
            raise AssertionError(f"{r.content}\n{out[max(0, start - 1500):start + 4000] if start >= 0 else out[-3000:]}")
        moves += 1
        panel = r.message
    raise AssertionError("the practice game did not end")


def bot_runs(db: Path, game_id: int) -> list[tuple[int, int]]:
    """(first seq, last seq) of every run of consecutive bot moves."""
    runs: list[tuple[int, int]] = []
    for seq, user_id in db_query(db, "SELECT seq, user_id FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)):
        if user_id is not None and user_id < 0:
            if runs and runs[-1][1] == seq - 1:
                runs[-1] = (runs[-1][0], seq)
            else:
                runs.append((seq, seq))
    return runs


def announced_seqs(table: Table, game_id: int) -> set[int]:
    """The sequence number of every board the channel ever showed (posts and edits)."""
    seqs: set[int] = set()
    for message in table.fake.channel_messages(table.channel):
        for version in message.versions:
            for attachment in version.attachments:
                m = BOARD_SEQ.search(attachment.filename)
                if m and int(m.group(1)) == game_id:
                    seqs.add(int(m.group(2)))
    return seqs


def assert_one_post_per_bot_turn(table: Table, game_id: int) -> int:
    runs = bot_runs(table.db, game_id)
    assert runs, "the bot never moved"
    shown = announced_seqs(table, game_id)
    for first, last in runs:
        inside = {s for s in shown if first <= s < last}
        if inside:
            lines = [line for line in table.bot.output().splitlines()
                     if "bot.core.bots" in line or "WARNING" in line or "bot.discord_app.delivery" in line]
            raise AssertionError(f"bot turn {first}..{last} was announced in pieces (boards at {sorted(inside)})\n"
                                 + "\n".join(lines[-80:]))
        assert any(s >= last for s in shown), f"bot turn {first}..{last} was never announced"
    return max(last - first + 1 for first, last in runs)


def assert_replays(db: Path, game_id: int) -> None:
    from bot.core.replay import replay
    from bot.core.store import ActionRow

    key, seed, seat_info, options, state, settings = db_query(
        db, "SELECT game, seed, seat_info, options, state, settings FROM games WHERE id = ?", (game_id,))[0]
    actions = [ActionRow(seq, seat, None, json.loads(a), [], 0.0)
               for seq, seat, a in db_query(db, "SELECT seq, seat, action FROM actions WHERE game_id = ?"
                                                " ORDER BY seq", (game_id,))]
    game = replay(key, json.loads(seat_info), json.loads(options), seed, actions,
                  rng=json.loads(settings).get("rng_version", 1))
    assert json.loads(json.dumps(game.to_json())) == json.loads(state)


@pytest.mark.parametrize(("game", "options"), [
    ("pobeda", None),
    ("coldwar", "goal=50"),
    ("godstorm", None),
    ("godstorm", "ruleset=classic"),
], ids=["pobeda", "coldwar", "godstorm", "risk"])
async def test_practice_game_alone_against_a_bot(shared_bot: SharedBot, game: str, options: str | None) -> None:
    table = shared_table(shared_bot, ["alice"])  # the module's bot, with SHARED_BOT_ENV
    fake = table.fake
    alice = table.user("alice")
    await open_practice(table, "alice", game, ["strong"], options)
    gid = game_row(table.db, table.channel.id)["id"]
    moves = await play_practice(table, alice, "passive" if options == "ruleset=classic" else "quick")
    assert moves > 0
    await fake.wait_for(lambda: (r := game_row(table.db, table.channel.id))["published_seq"] >= r["seq"],
                        timeout=20)
    row = game_row(table.db, table.channel.id)
    assert row["status"] == "finished"
    longest = assert_one_post_per_bot_turn(table, gid)
    if game == "godstorm":
        assert longest > 1  # a Risk turn is many moves, and it still went out as one post
    # the bot's user is never mentioned nor sent anything
    bot_ids = {u for users in row["seat_users"] for u in users if u < 0}
    for message in fake.channel_messages(table.channel):
        assert not set(message.mentions) & bot_ids
        assert "<@-" not in message.text
    assert_replays(table.db, gid)
    await table.close()
    assert_clean_output(table.output())


async def test_absent_player_is_replaced_by_a_bot_then_reclaims(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        # 5.4 s deadlines, under the 30 s floor (issue 23): lowered for this test
        table = await make_table(fake, tmp_path, ["alice", "bob", "carol"],
                                 extra_env={"TABLETOP_BOT_PAUSE": "0.05", "TABLETOP_DEADLINE_MIN_S": "1"})
        alice, bob, carol = (table.user(n) for n in ("alice", "bob", "carol"))
        r = await fake.slash(alice, table.channel, "game new", game="pobeda", deadline_hours=0.0015)
        lobby = r.message
        # the bot panel is the host's: add a bot, take it out again, and set the absent rule explicitly
        refused = await fake.click(bob, lobby, custom_id=custom_ids(lobby, "ttb:l:")[0])
        assert refused.content.startswith("⛔") and "Only the host" in refused.content
        r = await fake.click(alice, lobby, custom_id=custom_ids(lobby, "ttb:l:")[0])
        r = await fake.select(alice, r.message, values=["add:quick"], custom_id=custom_ids(r.message, "ttb:a:")[0])
        remove = [o["value"] for c in r.message.all_components() if c.get("custom_id", "").startswith("ttb:a:")
                  for o in c["options"] if o["value"].startswith("remove:")]
        assert len(remove) == 1 and int(remove[0].split(":")[1]) < 0
        await fake.wait_for(lambda: "🤖 Bot (quick)" in fake.message(lobby.id).text, timeout=10)
        r = await fake.select(alice, r.message, values=remove, custom_id=custom_ids(r.message, "ttb:a:")[0])
        r = await fake.select(alice, r.message, values=["bot:2"], custom_id=custom_ids(r.message, "ttb:o:")[0])
        assert not r.answered.startswith("⛔"), r.content
        await fake.wait_for(lambda: "🤖 Bot (" not in fake.message(lobby.id).text, timeout=10)
        assert "after 2 missed deadlines in a row a bot takes the seat" in fake.message(lobby.id).text
        for user in (bob, carol):
            await fake.click(user, lobby, custom_id=custom_ids(lobby, "tt:l:")[0])
        await start_lobby(table, "alice", lobby)
        gid = game_row(table.db, table.channel.id)["id"]

        async def others_play_until(condition: Any, timeout: float = 60) -> None:
            """Alice and Bob move whenever it is their turn; Carol never does."""
            end = time.monotonic() + timeout
            while not condition():
                assert time.monotonic() < end, "timed out:\n" + table.bot.output()[-3000:]
                row, game = committed(table)
                movers = [u for u in (alice, bob) if seat_of(row, u) in game.actors()]
                if movers and row["published_seq"] >= row["seq"]:
                    user = movers[0]
                    seat = seat_of(row, user)
                    action = decide(game, seat, policy_for("pobeda", "quick"), 90_000 + row["seq"])
                    hand = await fake.slash(user, table.channel, "game hand")
                    done = await operate(table, user, hand.message, game, seat, action)
                    assert done.answered.startswith(("✅", "⛔")), done.content
                else:
                    await asyncio.sleep(0.2)

        def takeover_notice() -> Any:
            return next((m for m in fake.channel_messages(table.channel) if custom_ids(m, "ttb:r:")), None)

        await others_play_until(lambda: takeover_notice() is not None, timeout=90)
        notice = takeover_notice()
        assert f"<@{carol.id}>" in notice.content and "2 deadlines missed in a row" in notice.content
        row = game_row(table.db, table.channel.id)
        carol_seat = seat_of(row, carol)
        assert any(u < 0 for u in row["seat_users"][carol_seat])
        timeouts = db_query(table.db, "SELECT COUNT(*) FROM actions WHERE game_id = ? AND seat = ? AND user_id IS NULL",
                            (gid, carol_seat))[0][0]
        assert timeouts == 2
        # the bot plays Carol's seat: at least one move of hers by the bot, and she is not pinged nor DMed
        dms_before = len(fake.dm_messages(carol))
        posts_before = len(fake.channel_messages(table.channel))
        await others_play_until(lambda: any(
            u is not None and u < 0 for (u,) in db_query(
                table.db, "SELECT user_id FROM actions WHERE game_id = ? AND seat = ?", (gid, carol_seat))))
        await fake.wait_for(lambda: (r := game_row(table.db, table.channel.id))["published_seq"] >= r["seq"],
                            timeout=20)
        # her private news (the card she drew) still reaches her, but never a panel to act with
        assert not [m for m in fake.dm_messages(carol)[dms_before:] if custom_ids(m, "tt:")]
        assert not [m for m in fake.channel_messages(table.channel)[posts_before:] if carol.id in m.mentions]
        # the log names the bot as the one who played
        log = await fake.slash(alice, table.channel, "game log")
        assert "🤖 Bot (strong)" in log.content and "took over the seat" in log.content
        # Carol presses the button in the notice and has her seat back
        back = await fake.click(carol, notice, custom_id=custom_ids(notice, "ttb:r:")[0])
        assert back.ephemeral and not back.content.startswith("⛔"), back.content
        row = game_row(table.db, table.channel.id)
        assert row["seat_users"][carol_seat] == [carol.id]
        assert any(f"<@{carol.id}> plays their own seat again" in m.content
                   for m in fake.channel_messages(table.channel))
        again = await fake.slash(carol, table.channel, "game reclaim")
        assert again.content.startswith("⛔") and "nothing to take back" in again.content
        # and she plays again herself when her turn comes
        await others_play_until(lambda: seat_of(committed(table)[0], carol) in committed(table)[1].actors()
                                and committed(table)[0]["published_seq"] >= committed(table)[0]["seq"])
        row, game = committed(table)
        before = row["seq"]
        action = decide(game, carol_seat, policy_for("pobeda", "quick"), 1)
        hand = await fake.slash(carol, table.channel, "game hand")
        done = await operate(table, carol, hand.message, game, carol_seat, action)
        assert done.answered.startswith("✅"), done.content
        last = db_query(table.db, "SELECT seat, user_id FROM actions WHERE game_id = ? AND seq = ?", (gid, before + 1))
        assert last == [(carol_seat, carol.id)]
        await table.bot.stop()
        assert_clean_output(table.bot.output())
