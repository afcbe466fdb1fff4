"""End to end (issue 29): the real bot with ``WEB_PORT`` against the fake Discord, its page in a real
headless Chromium. ``/game web`` answers a link privately; the page of the running game shows the board
(screenshots at 400 and 1280 px compared with the renderer's PNG) and the log, follows a move played
through the fake Discord within 2 s, a seat's link shows that seat's hand, and once the game is over the
page turns into the replay, which steps back and forward to the end. One bot process and one browser."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from PIL import Image, ImageChops, ImageStat

from bot.core.i18n import catalogue, t
from bot.games import registry
from tests.e2e.helpers import (
    Table,
    actor_ids,
    assert_clean_output,
    game_row,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.fake_discord import MEMBER_PERMISSIONS, FakeDiscord
from tests.toygame import MANIFEST
from tests.toygame.game import cell_name
from tests.web.browser import MISSING, Browser, board_shown, browser, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

KEY = MANIFEST.key
LINK = re.compile(r"http://127\.0\.0\.1:\d+/w/[0-9a-z.]+")
SAME = 12.0
"""Mean difference per channel (0-255) under which a screenshot's region shows the board (scaling blurs
the lines a little); the page's dark background is over 150 away from the toy's pale board."""


@pytest.fixture(autouse=True)
def toy_here(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry.GAMES, KEY, MANIFEST)
    catalogue.cache_clear()
    yield
    monkeypatch.undo()
    catalogue.cache_clear()


async def fetch(url: str) -> bytes:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        assert r.status == 200, url
        return await r.read()


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status


async def board_png(page: Browser, element: str = "board") -> bytes:
    src = await page.js(f"return document.getElementById('{element}').src")
    return await fetch(src)


async def check_board(page: Browser, element: str = "board") -> None:
    await page.wait(f"const i = document.getElementById('{element}'); return i.complete && i.naturalWidth > 0", 10)
    png = await board_png(page, element)
    assert await board_shown(page, png, element) < SAME
    blank = Image.new("RGB", Image.open(io.BytesIO(png)).size, (32, 35, 43))  # the page's background
    out = io.BytesIO()
    blank.save(out, format="PNG")
    assert await board_shown(page, out.getvalue(), element) > 4 * SAME  # the comparison can fail


async def move(table: Table, turn: int) -> None:
    user = table.by_id(actor_ids(table)[0])
    panel = await wait_dm_panel(table, user)
    r = await play_panel(table.fake, user, panel, pick=turn % 2)
    assert r.content.startswith("✅"), r.content


async def test_the_page_follows_the_game_and_replays_it(tmp_path: Path) -> None:
    port = free_port()
    env = {registry.EXTRA_ENV: "tests.toygame:MANIFEST", "WEB_PORT": str(port)}
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob", "carol"], locales={"alice": "ru"}, extra_env=env)
        alice, carol = table.user("alice"), table.user("carol")
        lobby = await open_lobby(table, "alice", KEY, ["alice", "bob"])
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: len(turn_posts(table)) > 0, timeout=30)

        r = await fake.slash(carol, table.channel, "game web")  # a spectator
        assert r.ephemeral
        found = LINK.search(r.content)
        assert found, r.content
        public = found.group(0)
        assert f":{port}/w/" in public
        spectator = await fake.slash(carol, table.channel, "game web", link="private")
        assert spectator.ephemeral and not LINK.search(spectator.content)  # no seat, no private view
        mine = await fake.slash(alice, table.channel, "game web", link="private")
        found = LINK.search(mine.content)
        assert found and found.group(0) != public, mine.content
        private = found.group(0)

        async with browser() as page:
            await page.size(400, 900)
            await page.go(public + "?lang=en")
            await page.wait("return document.getElementById('live').className === 'live on'", 10)
            await check_board(page)
            log = await page.js("return document.getElementById('log').innerText")
            assert t("web.log.empty", "en") in log  # no move yet
            seq = int(await page.js("return document.body.dataset.seq"))

            # a move through the fake Discord reaches the open page within 2 s of its answer
            await move(table, 0)
            answered = asyncio.get_running_loop().time()
            await page.wait("return Number(document.body.dataset.seq) > arguments[0]", 2.0, seq)
            lag = asyncio.get_running_loop().time() - answered
            assert lag < 2.0
            log = await page.js("return document.getElementById('log').innerText")
            row = game_row(table.db, table.channel.id)
            cell = next(i for i, owner in enumerate(row["state"]["board"]) if owner is not None)
            seat = row["state"]["board"][cell]
            name = "alice" if alice.id in row["seat_users"][seat] else "bob"
            assert t("toygame.ev.marked", "en", who=name, mark="XO"[seat], cell=cell_name(cell)) in log
            await page.wait("return document.getElementById('board').src.includes('/board/' + "
                            "document.body.dataset.seq + '.png')", 5)
            await check_board(page)

            await page.size(1280, 900)
            await page.go(public + "?lang=ru")
            await check_board(page)
            assert t("web.log.title", "ru") in await page.js("return document.body.innerText")

            # the seat's own link: its personal board and its hand, nothing of the other seat's
            await page.go(private + "?lang=en")
            await check_board(page, "mine")
            hand = await page.js("return document.getElementById('private').innerText")
            row = game_row(table.db, table.channel.id)
            seat = next(s for s, users in enumerate(row["seat_users"]) if alice.id in users)
            numbers = row["state"]["secrets"][seat]
            if numbers:
                assert ", ".join(map(str, numbers)) in hand

            # play on to the end: the open page turns into the replay by itself
            await page.go(public + "?lang=en")
            await page.wait("return document.getElementById('live').className === 'live on'", 10)
            for turn in range(1, 9):
                if game_row(table.db, table.channel.id)["status"] == "finished":
                    break
                posts = len(turn_posts(table))
                await move(table, turn)
                await fake.wait_for(lambda posts=posts: len(turn_posts(table)) > posts  # type: ignore[misc]
                                    or game_row(table.db, table.channel.id)["status"] == "finished", timeout=30)
            assert game_row(table.db, table.channel.id)["status"] == "finished"
            await page.wait("return document.body.dataset.replay === '1'", 10)
            total = int(await page.js("return document.getElementById('slider').max"))
            moves = int(game_row(table.db, table.channel.id)["seq"])
            assert total == moves
            await page.wait("return document.body.dataset.step === arguments[0]", 5, str(total))
            await check_board(page)
            final = await board_png(page)
            await page.js("document.getElementById('prev').click()")
            await page.wait("return document.body.dataset.step === arguments[0]", 5, str(total - 1))
            await page.wait("return document.getElementById('board').src.includes('/step/' + arguments[0])", 5,
                            str(total - 1))
            earlier = await board_png(page)
            assert sum(ImageStat.Stat(ImageChops.difference(
                Image.open(io.BytesIO(final)).convert("RGB"), Image.open(io.BytesIO(earlier)).convert("RGB"))).mean) > 0
            await page.js("document.getElementById('slider').value = 0;"
                          "document.getElementById('slider').dispatchEvent(new Event('input'))")
            await page.wait("return document.body.dataset.step === '0'", 5)
            for _ in range(total):
                await page.js("document.getElementById('next').click()")
            await page.wait("return document.body.dataset.step === arguments[0]", 5, str(total))
            where = await page.js("return document.getElementById('where').textContent")
            assert where == t("web.replay.step", "en", n=total, total=total)
            text = await page.js("return document.getElementById('steps').innerText")
            assert "🔓" in text  # the secret numbers revealed
            await page.wait("return document.getElementById('board').src.includes('/step/' + arguments[0])", 5,
                            str(total))
            await check_board(page)

        # the host ends every link; a spectator cannot (in a server of ordinary members)
        table.guild.everyone_permissions = MEMBER_PERMISSIONS
        refused = await fake.slash(carol, table.channel, "game web", link="revoke")
        assert refused.ephemeral and t("web.link.host_only", "en") in refused.content
        assert (await status_of(public)) == 200
        revoked = await fake.slash(alice, table.channel, "game web", link="revoke")
        assert revoked.ephemeral and t("web.link.revoked", "ru", id=row["id"]) in revoked.content
        assert (await status_of(public)) == 410 and (await status_of(private)) == 410
        again = LINK.search((await fake.slash(carol, table.channel, "game web")).content)
        assert again and (await status_of(again.group(0))) == 200  # a new link works

        await table.bot.stop()
        assert_clean_output(table.bot.output())
