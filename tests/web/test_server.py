"""The game pages over HTTP (issue 29): what each link shows, the security answers, live updates."""

from __future__ import annotations

import asyncio
import html
import io
import json
import re

import aiohttp
import pytest
from PIL import Image

from bot.core.i18n import t
from bot.discord_app import lifecycle
from bot.web.server import CSP, RateLimits, WebServer
from bot.web.views import GameViews
from tests.toygame.game import cell_name
from tests.toygame.render import CAPTION, SIZE
from tests.web.conftest import ALICE, BOB, Site


def token_of(url: str) -> str:
    return url.rsplit("/w/", 1)[1]


def text_of(body: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", body))


async def test_public_page_shows_the_board_the_log_and_nothing_hidden(site: Site) -> None:
    session = await site.game()
    await site.move(session, 4, secret=3)
    url, _ = await site.server.link(session.id)
    r = await site.get(f"/w/{token_of(url)}?lang=en")
    assert r.status == 200 and r.content_type == "text/html"
    body = await r.text()
    # the public event (who marked which cell) in the reader's language; the secret number is not shown
    assert t("toygame.ev.marked", "en", who="", mark="", cell=cell_name(4)).split(" on ")[-1] in text_of(body)
    assert t("toygame.ev.chose", "en", n=3) not in text_of(body)
    assert "(sum" not in text_of(body)
    assert 'id="board"' in body and f"/board/{session.row.seq}.png" in body
    # the board is the renderer's PNG
    board = re.search(r'id="board" src="([^"]+)"', body)
    assert board is not None
    png = await site.get("/w/" + html.unescape(board.group(1)))
    assert png.status == 200 and png.content_type == "image/png"
    assert Image.open(io.BytesIO(await png.read())).size == (SIZE, SIZE + CAPTION)


async def test_every_answer_is_locked_down(site: Site) -> None:
    session = await site.game()
    url, _ = await site.server.link(session.id)
    for path in (f"/w/{token_of(url)}", "/w/1.p.0.0.1.00", "/static/web.js", "/nothing"):
        r = await site.get(path)
        assert r.headers["Content-Security-Policy"] == CSP, path
        assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP and "default-src 'none'" in CSP
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in r.headers
    page = await (await site.get(f"/w/{token_of(url)}")).text()
    assert "<script>" not in page and "style=" not in page and "onclick" not in page  # nothing inline


async def test_nothing_can_change_a_game(site: Site) -> None:
    session = await site.game()
    url, _ = await site.server.link(session.id)
    seq = session.row.seq
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = await site.http.request(method, url, data=b"{}")
        assert r.status == 405, method
    assert session.row.seq == seq


async def test_a_players_name_is_never_markup(site: Site) -> None:
    session = await site.game()
    await site.move(session, 0)
    await site.move(session, 1)
    url, _ = await site.server.link(session.id)
    body = await (await site.get(f"/w/{token_of(url)}")).text()
    assert "<img src=x" not in body
    assert "&lt;img src=x onerror=alert(1)&gt;" in body


async def test_a_seats_link_shows_that_seats_hand_only(site: Site) -> None:
    session = await site.game()
    await site.move(session, 4, secret=3)
    await site.move(session, 0, secret=1)
    alice = site.seat_of(session, ALICE)
    assert session.game is not None
    url, _ = await site.server.link(session.id, seat=alice, user_id=ALICE.id)
    body = text_of(await (await site.get(f"/w/{token_of(url)}?lang=en")).text())
    mine = session.game.private_text(alice, "en")
    theirs = session.game.private_text(1 - alice, "en")
    assert mine and mine in body
    assert theirs not in body
    own = t("toygame.ev.chose", "en", n=session.game.to_json()["secrets"][alice][0])
    assert own in body  # the event sent to this seat (as its DM got it)
    # the personal board (the seat's own numbers), as the DM panel carries
    page = await (await site.get(f"/w/{token_of(url)}")).text()
    mine_png = re.search(r'id="mine" src="([^"]+)"', page)
    assert mine_png is not None and (await site.get("/w/" + html.unescape(mine_png.group(1)))).status == 200
    public, _ = await site.server.link(session.id)
    assert (await site.get(f"/w/{token_of(public)}/mine/{session.row.seq}.png")).status == 404


async def test_forged_wrong_game_and_another_seat_open_nothing(site: Site) -> None:
    one = await site.game(7)
    two = await site.game(8)
    alice = site.seat_of(one, ALICE)
    url, _ = await site.server.link(one.id, seat=alice, user_id=ALICE.id)
    token = token_of(url)
    parts = token.split(".")

    def changed(index: int, value: str) -> str:
        return ".".join(parts[:index] + [value] + parts[index + 1:])

    cases = {"forged mac": changed(5, "f" * 32), "wrong game": changed(0, str(two.id)),
             "another seat": changed(1, str(1 - alice)), "made public": changed(1, "p"),
             "garbage": "hello", "another user": changed(2, str(BOB.id))}
    for why, bad in cases.items():
        r = await site.get(f"/w/{bad}")
        assert r.status == 404, why
        assert t("web.error.forged", "en") in html.unescape(await r.text()), why
        assert (await site.get(f"/w/{bad}/board/1.png")).status == 404, why
        assert (await site.get(f"/w/{bad}/events")).status == 404, why
    # a correctly signed link of a seat the user does not hold (made for the other seat)
    other, _ = await site.server.link(one.id, seat=1 - alice, user_id=ALICE.id)
    r = await site.get(f"/w/{token_of(other)}")
    assert r.status == 403 and t("web.error.seat", "en") in html.unescape(await r.text())
    assert (await site.get(f"/w/{token_of(other)}/mine/1.png")).status == 403
    assert (await site.get(f"/w/{token}")).status == 200


async def test_expired_after_a_week(site: Site) -> None:
    session = await site.game()
    url, expires = await site.server.link(session.id)
    assert expires == int(site.clock["now"]) + 7 * 24 * 3600
    site.clock["now"] = expires - 1
    assert (await site.get(f"/w/{token_of(url)}")).status == 200
    site.clock["now"] = expires
    r = await site.get(f"/w/{token_of(url)}?lang=ru")
    assert r.status == 410 and t("web.error.expired", "ru") in html.unescape(await r.text())


async def test_revoked_by_the_host_closes_links_and_streams(site: Site) -> None:
    session = await site.game()
    url, _ = await site.server.link(session.id)
    stream = await site.http.get(f"{url}/events?lang=en")
    assert stream.status == 200
    await site.server.revoke(session.id)
    seen = await asyncio.wait_for(stream.content.read(), 5)  # the stream ends
    assert b"event: gone" in seen and b'"revoked"' in seen
    r = await site.get(f"/w/{token_of(url)}")
    assert r.status == 410 and t("web.error.revoked", "en") in html.unescape(await r.text())
    fresh, _ = await site.server.link(session.id)
    assert (await site.get(f"/w/{token_of(fresh)}")).status == 200


async def test_a_revocation_by_another_process_counts_within_seconds(site: Site) -> None:
    from bot.web import links

    session = await site.game()
    url, _ = await site.server.link(session.id)
    assert (await site.get(f"/w/{token_of(url)}")).status == 200
    await links.revoke(site.store, session.id)  # written to the shared store, not through this server
    site.clock["now"] += 2.5
    assert (await site.get(f"/w/{token_of(url)}")).status == 410


async def test_rate_limit_per_address(site: Site) -> None:
    session = await site.game()
    tight = WebServer(GameViews(site.sessions), site.store, port=0, rate=RateLimits(rate=0.5, burst=5, streams=1))
    await tight.start()
    try:
        url, _ = await tight.link(session.id)
        statuses = [(await site.http.get(url)).status for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3
        r = await site.http.get(url)
        assert int(r.headers["Retry-After"]) >= 1 and r.headers["Content-Security-Policy"] == CSP
        # behind a reverse proxy on this host, each forwarded client has its own bucket
        other = await site.http.get(url, headers={"X-Forwarded-For": "203.0.113.9"})
        assert other.status == 200
    finally:
        await tight.close()


async def test_live_update_within_two_seconds(site: Site) -> None:
    session = await site.game()
    url, _ = await site.server.link(session.id)
    page = await (await site.get(f"/w/{token_of(url)}?lang=en")).text()
    version = re.search(r'data-version="(\d+)"', page)
    assert version is not None
    async with site.http.get(f"{url}/events?lang=en&v={version.group(1)}") as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        await asyncio.sleep(0.1)
        started = asyncio.get_running_loop().time()
        await site.move(session, 4)
        data = b""
        while b"event: state" not in data:
            data += await asyncio.wait_for(stream.content.readany(), 2)
        assert asyncio.get_running_loop().time() - started < 2
        message = json.loads(data.split(b"event: state\ndata: ", 1)[1].split(b"\n", 1)[0])
        assert message["seq"] == session.row.seq
        assert cell_name(4) in text_of(message["log"])
        assert f"/board/{session.row.seq}.png" in message["board"]


async def test_a_pause_and_a_resume_reach_the_page_without_a_move(site: Site) -> None:
    """Left alone in issue 29's first version: the page learned of a pause only at the next move."""
    session = await site.game()
    url, _ = await site.server.link(session.id)
    page = await (await site.get(f"/w/{token_of(url)}?lang=en")).text()
    version = re.search(r'data-version="(\d+)"', page)
    assert version is not None and "paused" not in text_of(page).lower()
    async with site.http.get(f"{url}/events?lang=en&v={version.group(1)}") as stream:
        await asyncio.sleep(0.1)
        await lifecycle.pause(site.sessions, session.id, ALICE.id, site.clock["now"])
        data = b""
        while b"event: state" not in data:
            data += await asyncio.wait_for(stream.content.readany(), 2)
        message = json.loads(data.split(b"event: state\ndata: ", 1)[1].split(b"\n", 1)[0])
        assert message["seq"] == session.row.seq  # no move was made
        assert "paused" in text_of(message["turn"]).lower()
        data = b""
        await lifecycle.resume(site.sessions, session.id, site.clock["now"] + 60)
        while b"event: state" not in data:
            data += await asyncio.wait_for(stream.content.readany(), 2)
        message = json.loads(data.split(b"event: state\ndata: ", 1)[1].split(b"\n", 1)[0])
        assert "paused" not in text_of(message["turn"]).lower()


async def test_a_finished_game_is_its_replay_with_everything_revealed(site: Site) -> None:
    session = await site.game()
    cells = [0, 3, 1, 4, 2]  # the first mover completes the top row
    for cell in cells:
        await site.move(session, cell, secret=1 + cell % 3)
    assert session.row.status == "finished"
    url, _ = await site.server.link(session.id)
    r = await site.get(f"/w/{token_of(url)}?lang=en")
    body = await r.text()
    assert 'data-replay="1"' in body and 'id="slider"' in body
    steps = re.findall(r'<li class="step" data-seq="(\d+)"', body)
    assert steps == [str(n) for n in range(len(cells) + 1)]  # the start, then every move
    told = text_of(body)
    names = {ALICE.id: ALICE.name, BOB.id: BOB.name}
    for seat, users in enumerate(session.row.seat_users or []):  # each secret number, under its player's name
        assert t("toygame.ev.chose.named", "en", name=names[users[0]], n=1) in told or \
            t("toygame.ev.chose.named", "en", name=names[users[0]], n=2) in told, seat
    assert t("toygame.reason.line", "en") in told
    for seq in (0, len(cells)):
        png = await site.get(f"/w/{token_of(url)}/step/{seq}.png?lang=en")
        assert png.status == 200 and png.content_type == "image/png"
    assert (await site.get(f"/w/{token_of(url)}/step/{len(cells) + 1}.png")).status == 404
    assert b"event: end" in await (await site.http.get(f"{url}/events")).read()


async def test_a_running_games_past_boards_are_not_served(site: Site) -> None:
    session = await site.game()
    await site.move(session, 4)
    url, _ = await site.server.link(session.id)
    assert (await site.get(f"/w/{token_of(url)}/step/0.png")).status == 404


async def test_language_from_the_query_or_the_browser(site: Site) -> None:
    session = await site.game()
    url, _ = await site.server.link(session.id)
    ru = await (await site.get(f"/w/{token_of(url)}", headers={"Accept-Language": "ru-RU,ru;q=0.9"})).text()
    assert t("web.log.title", "ru") in ru and 'lang="ru"' in ru
    en = await (await site.get(f"/w/{token_of(url)}?lang=en", headers={"Accept-Language": "ru"})).text()
    assert t("web.log.title", "en") in en and 'lang="en"' in en
    odd = await (await site.get(f"/w/{token_of(url)}?lang=<script>")).text()
    assert "<script>" not in odd


async def test_viewers_share_one_build_per_change(site: Site) -> None:
    session = await site.game()
    url, _ = await site.server.link(session.id)
    views = site.server.views
    before = views.builds
    async with aiohttp.ClientSession() as http:
        answers = await asyncio.gather(*(http.get(f"{url}?lang=en") for _ in range(30)))
    assert all(a.status == 200 for a in answers)
    assert views.builds - before == 1


async def test_open_streams_per_address_are_capped(site: Site) -> None:
    session = await site.game()
    capped = WebServer(GameViews(site.sessions), site.store, port=0, rate=RateLimits(rate=100, burst=100, streams=2))
    await capped.start()
    try:
        url, _ = await capped.link(session.id)
        first = await site.http.get(f"{url}/events")
        second = await site.http.get(f"{url}/events")
        third = await site.http.get(f"{url}/events")
        assert (first.status, second.status, third.status) == (200, 200, 429)
        first.close()
        await asyncio.sleep(0.2)
        fourth = await site.http.get(f"{url}/events")
        assert fourth.status == 200  # a closed stream frees its place
        second.close()
        fourth.close()
    finally:
        await capped.close()


async def test_a_lobby_and_an_aborted_game(site: Site) -> None:
    lobby = await site.sessions.create(guild_id=1, channel_id=99, host=ALICE, game_key="toygame", options={},
                                       deadline_s=3600)
    await site.sessions.join(lobby.id, ALICE)
    url, _ = await site.server.link(lobby.id)
    body = await (await site.get(f"/w/{token_of(url)}?lang=en")).text()
    assert t("web.lobby", "en") in html.unescape(body) and "alice" in body and 'id="board"' not in body
    assert "data-events=" in body  # it follows the lobby until the game starts
    session = await site.game()
    await site.move(session, 4)
    await site.sessions.abort(session.id, ALICE.id)
    url, _ = await site.server.link(session.id)
    body = await (await site.get(f"/w/{token_of(url)}?lang=en")).text()
    assert t("end.no_result", "en") in html.unescape(body)
    assert "data-events=" not in body  # nothing more to follow (the page would reload for ever)
    assert 'data-replay' not in body  # an aborted game is not replayed, as /game replay
    assert 'id="board"' not in body  # its state is not loaded: no picture that would not load


async def test_an_open_stream_ends_when_its_link_expires(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.web import server as server_module

    monkeypatch.setattr(server_module, "KEEPALIVE_S", 0.2)
    session = await site.game()
    url, expires = await site.server.link(session.id)
    async with site.http.get(f"{url}/events") as stream:
        await asyncio.sleep(0.3)
        site.clock["now"] = expires + 1
        seen = await asyncio.wait_for(stream.content.read(), 5)
    assert b"event: gone" in seen and b'"expired"' in seen


async def test_a_public_page_does_not_wait_for_a_build_a_seats_page_does(site: Site,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    session = await site.game()
    public, _ = await site.server.link(session.id)
    alice = site.seat_of(session, ALICE)
    mine, _ = await site.server.link(session.id, seat=alice, user_id=ALICE.id)
    version = re.compile(r'data-version="(\d+)"')

    async def version_of(url: str) -> str:
        found = version.search(await (await site.http.get(f"{url}?lang=en")).text())
        assert found is not None
        return found.group(1)

    before = await version_of(public)
    await version_of(mine)
    views = site.server.views
    gate = asyncio.Event()
    build = views._build_live

    async def held(*args: object) -> object:
        await gate.wait()
        return await build(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "_build_live", held)
    await site.move(session, 4)  # the change starts the builds of both pages (held)
    await asyncio.sleep(0.05)
    assert await asyncio.wait_for(version_of(public), 2) == before  # answered at once, one version behind
    waiting = asyncio.create_task(version_of(mine))
    await asyncio.sleep(0.2)
    assert not waiting.done()  # a seat's page is never one move behind
    gate.set()
    assert await asyncio.wait_for(waiting, 2) != before
    for _ in range(40):  # the public page's own build finishes too (it may end a moment after the seat's)
        if await version_of(public) != before:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the public page stayed one version behind")


async def test_a_step_board_after_a_takeback_is_the_game_without_the_move(site: Site) -> None:
    """Issue 27: a finished game's board after a takeback entry is drawn from the effective log (the move
    taken back never happened), as the replay's text tells it."""
    takeback = pytest.importorskip("bot.core.takeback")
    from bot.core.replay import LoggedAction

    session = await site.game()
    assert session.game is not None and session.row.seed is not None
    first = session.game.actors()[0]
    moves = [(first, {"type": "mark", "cell": 4, "secret": 1})]
    back = takeback.entry(first, [1], [1 - first], free=False)
    log = [LoggedAction(1, first, None, json.dumps(moves[0][1]), "[]", 0.0),
           LoggedAction(2, takeback.TAKEBACK_SEAT, None, json.dumps(back), "[]", 0.0),
           LoggedAction(3, first, None, json.dumps({"type": "mark", "cell": 0, "secret": 2}), "[]", 0.0)]
    views = site.server.views
    assert views._view_at(session.id, session.row, log, 1)["board"][4] == first
    after = views._view_at(session.id, session.row, log, 3)
    assert after["board"][4] is None and after["board"][0] == first  # the mark on B2 was taken back
    assert views._view_at(session.id, session.row, log, 1)["board"][4] == first  # and stepping back again
