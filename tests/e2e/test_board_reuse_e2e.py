"""End to end: a hundred ``/game board post:True`` calls on an unchanged game draw the board once, and
the per-user cooldown of posting answers privately, in each user's language, with the time left."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import (
    NO_WINDOW,
    assert_clean_output,
    last_turn_post,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
)
from tests.fake_discord import FakeDiscord

"""Pobeda's undo window (issue 27) off: these tests are about the platform, and a turn here is one play."""


pytestmark = pytest.mark.e2e

BOARD_COOLDOWN = 5.0  # cogs/game.py COOLDOWNS["board"]: "a few seconds for board posts"
RENDER_LINE = re.compile(r"DEBUG render\.common: rendered a pobeda board")
RU_WAIT = re.compile(r"Подождите ещё (\d+) (секунду|секунды|секунд), прежде чем снова использовать /game board")
EN_WAIT = re.compile(r"Please wait (\d+) more (second|seconds) before using /game board again")


def renders(output: str) -> int:
    return len(RENDER_LINE.findall(output))


def ru_word(n: int) -> str:
    """Russian: 1 секунду, 2-4 секунды, 5-20 секунд (the numbers here are 1..5)."""
    return "секунду" if n == 1 else "секунды" if n in (2, 3, 4) else "секунд"


async def test_hundred_board_calls_render_once_and_cool_down_per_user(tmp_path: Path) -> None:
    names = ["alice", "bob", "carol", "dave", "eve"]
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, names, locales={"alice": "ru", "dave": "ru"},
                                 extra_env={"LOG_LEVEL": "DEBUG"})
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], options=NO_WINDOW)
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        first_post = last_turn_post(table)
        channel_png = first_post.attachments[0].data
        await fake.wait_for(lambda: renders(table.bot.output()) >= 1, timeout=10)
        assert renders(table.bot.output()) == 1  # the channel post drew the board

        calls = 0
        passed: dict[str, tuple[float, float]] = {}  # user -> (sent, answered) of their last post
        refusals = 0
        boards_posted = 0
        for round_ in range(20):
            for name in names:
                user = table.user(name)
                sent = time.monotonic()
                r = await fake.slash(user, table.channel, "game board", post=True)
                answered = time.monotonic()
                calls += 1
                if r.ephemeral:
                    pattern = RU_WAIT if name in ("alice", "dave") else EN_WAIT
                    match = pattern.search(r.content)
                    assert match, r.content
                    n = int(match.group(1))
                    assert 1 <= n <= BOARD_COOLDOWN
                    if name in ("alice", "dave"):
                        assert match.group(2) == ru_word(n)
                    else:
                        assert match.group(2) == ("second" if n == 1 else "seconds")
                    # the bot charged the last post between its sending and its answer: a refusal
                    # can only come within the cooldown of it
                    assert name in passed and sent - passed[name][0] < BOARD_COOLDOWN
                    refusals += 1
                else:
                    assert r.attachments and r.attachments[0].data == channel_png  # the same bytes
                    if name in passed:  # a second post comes only after the cooldown
                        assert answered - passed[name][1] >= BOARD_COOLDOWN - 0.5
                    else:
                        assert round_ == 0  # everyone's first call posts
                    passed[name] = (sent, answered)
                    boards_posted += 1
                if round_ == 1 and name in passed:
                    # straight after everyone's first post: well within the cooldown, refused
                    assert r.ephemeral or sent - passed[name][1] >= BOARD_COOLDOWN
        assert calls == 100
        assert boards_posted >= len(names) and refusals >= len(names)
        assert renders(table.bot.output()) == 1  # a hundred calls, one drawing

        # after the cooldown the same user posts again, still without drawing
        await fake.wait_for(lambda: time.monotonic() - max(p[1] for p in passed.values()) > BOARD_COOLDOWN,
                            timeout=BOARD_COOLDOWN + 2, interval=0.1)
        again = await fake.slash(table.user("alice"), table.channel, "game board", post=True)
        assert not again.ephemeral and again.attachments[0].data == channel_png
        assert renders(table.bot.output()) == 1

        # a move changes the game: the new state is drawn once, for the channel post and /game board
        actor = table.by_id(first_post.mentions[0])
        hand = await fake.slash(actor, table.channel, "game hand")  # private, no cooldown
        assert hand.ephemeral
        panel = hand.message
        r = await play_panel(fake, actor, panel)
        assert r.answered.startswith("✅"), r.content
        post = await fake.wait_for(lambda: next((m for m in turn_posts(table) if m.mentions and m.id > first_post.id),
                                                None), timeout=20)
        new_png = post.attachments[0].data
        assert new_png != channel_png
        board = await fake.slash(table.user("eve"), table.channel, "game board", post=True)
        assert not board.ephemeral and board.attachments[0].data == new_png
        assert renders(table.bot.output()) == 2

        await table.bot.stop()
        assert_clean_output(table.bot.output())
