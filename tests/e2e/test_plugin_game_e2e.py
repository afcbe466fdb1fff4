"""End to end: a game registered from a test package alone is playable against the fake Discord (issue 24).

The real bot starts with ``TABLETOP_GAMES_EXTRA=tests.toygame:MANIFEST`` and nothing else: no platform file
names the toy game. Two players open its lobby, start it and play it to the end through their DM panels
(each with the seat's personal board, the toy renderer's extra); the board is posted, the end post says why
it ended in the toy's own words, ``/game replay`` tells every secret number, the stored log replays to the
stored state, and the operator tools (the bench's state, the arena, also as ``python -m bot.tools.arena``) take it
from its manifest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import catalogue, t
from bot.games import registry
from tests.e2e.helpers import (
    ROOT,
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
from tests.toygame import MANIFEST
from tests.toygame.game import HiddenToe
from tests.toygame.render import CAPTION, SIZE

pytestmark = pytest.mark.e2e

EXTRA = {registry.EXTRA_ENV: "tests.toygame:MANIFEST"}
KEY = MANIFEST.key


@pytest.fixture(autouse=True)
def toy_here(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This test process knows the toy too (its strings for the expected texts, the in-process tools)."""
    monkeypatch.setitem(registry.GAMES, KEY, MANIFEST)
    catalogue.cache_clear()
    yield
    monkeypatch.undo()
    catalogue.cache_clear()


async def wait_post(table: Table, count: int) -> None:
    await table.fake.wait_for(
        lambda: len(turn_posts(table)) > count or game_row(table.db, table.channel.id)["status"] == "finished",
        timeout=30)


async def play_to_end(table: Table) -> list[Any]:
    """Each move by the pinged player from their DM panel; returns the panels used."""
    panels: list[Any] = []
    for turn in range(9):
        if game_row(table.db, table.channel.id)["status"] == "finished":
            return panels
        posts = len(turn_posts(table))
        user = table.by_id(actor_ids(table)[0])
        panel = await wait_dm_panel(table, user)
        panels.append(panel)
        r = await play_panel(table.fake, user, panel, pick=turn % 2)
        assert r.content.startswith("✅"), r.content
        assert latest_panel([r.message]) is None  # one decision per move
        await wait_post(table, posts)
    assert game_row(table.db, table.channel.id)["status"] == "finished", "nine moves fill the board"
    return panels


async def test_a_game_from_a_test_package_is_playable_end_to_end(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"alice": "ru"}, extra_env=EXTRA)
        alice, bob = table.user("alice"), table.user("bob")
        lobby = await open_lobby(table, "alice", KEY, ["alice", "bob"])
        assert t(f"{KEY}.name", "ru") in lobby.text  # the lobby names it in the host's language
        await start_lobby(table, "alice", lobby)
        await wait_post(table, 0)
        board = decode_png(turn_posts(table)[-1].attachments[0].data)
        assert board.size == (SIZE, SIZE + CAPTION)

        rules = await fake.slash(bob, table.channel, "game rules", game=KEY)
        assert t(f"{KEY}.rules", "en")[:40] in rules.text

        panels = await play_to_end(table)
        row = game_row(table.db, table.channel.id)
        assert row["status"] == "finished"
        gid = row["id"]
        outcome = row["state"]["outcome"]
        said = [v.text for p in panels for v in [*p.history, p.version]]
        for panel in panels:  # the personal board (own secret numbers) rides with every DM panel
            assert any(a.is_png for a in panel.attachments), panel.text
        # the prompt and the catch-up (its counter labelled by the toy's own strings) in the reader's words
        assert any(t(f"{KEY}.prompt", "en", mark="X") in text or t(f"{KEY}.prompt", "en", mark="O") in text
                   for text in said), said
        assert any(t(f"{KEY}.cu.marks", lang, n=1) in text for text in said for lang in ("ru", "en")), said

        # the end post says why, in the toy's words (its manifest's reason_key)
        reason = t(f"{KEY}.reason.{outcome['reason']}", "ru")
        try:
            await fake.wait_for(lambda: any(reason in m.text for m in fake.channel_messages(table.channel)), timeout=20)
        except TimeoutError:
            raise AssertionError([m.text for m in fake.channel_messages(table.channel)]) from None

        # the stored log replays to the stored state
        seed, seat_info, options = db_query(table.db, "SELECT seed, seat_info, options FROM games WHERE id = ?",
                                            (gid,))[0]
        log = [(seat, json.loads(a)) for seat, a in
               db_query(table.db, "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,))]
        game = HiddenToe.new(json.loads(seat_info), json.loads(options), seed)
        for seat, action in log:
            game.apply(seat, action)
        assert json.loads(json.dumps(game.to_json())) == row["state"]

        # /game replay: public, paged, every secret number told, then the animated board
        r = await fake.slash(bob, table.channel, "game replay")
        assert not r.ephemeral, r.content
        pages = [r.message.content]
        message = r.message
        while forward := [c for c in custom_ids(message, "ttr:") if int(c.split(":")[2]) == len(pages)]:
            message = (await fake.click(alice, message, custom_id=forward[0])).message
            pages.append(message.content)
        whole = "\n".join(pages)
        name_of = {seat: ("alice" if alice.id in users else "bob") for seat, users in enumerate(row["seat_users"])}
        for seat, action in log:  # each secret number, under its player's name, marked as revealed
            told = [t(f"{KEY}.ev.chose.named", lang, name=name_of[seat], n=action["secret"]) for lang in ("ru", "en")]
            assert any(f"🔓 {text}" in whole for text in told), (told, whole)
        anim = await fake.wait_for(lambda: next((m for m in r.followups if m.attachments), None), timeout=60)
        assert anim.attachments[0].is_gif

        await table.bot.stop()
        assert_clean_output(table.bot.output())

    # the operator tools take it from its manifest: the bench's state, the arena (and its variant)
    from bot.games.ai import policy_for
    from bot.tools import arena, bench

    state = bench.bench_state(KEY)
    assert isinstance(state, HiddenToe) and sum(c is not None for c in state.s["board"]) == 4
    assert bench.board_views(state, 3)
    assert arena.resolve(f"{KEY}-classic") == (KEY, {"secrets": "off"})
    played = arena.play(KEY, [policy_for(KEY, "strong"), policy_for(KEY, "quick")], 7)
    assert played.finished
    env = {**os.environ, **EXTRA}
    out = subprocess.run([sys.executable, "-m", "bot.tools.arena", f"{KEY}-classic", "--games", "4", "--skip-levels"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "| strong vs random | 4 |" in out.stdout, out.stdout
