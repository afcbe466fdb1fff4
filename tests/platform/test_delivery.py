"""Delivery without Discord: a stub client whose channel refuses posts (for good or for a while) and
whose DMs are closed or failing."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core.i18n import t
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import SeatTimer, Store
from bot.discord_app.delivery import Publisher
from bot.games import registry
from tests.platform.toy import toy_manifest


def forbidden(code: int) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code, "message": "no"})


def unavailable() -> discord.DiscordServerError:
    response = SimpleNamespace(status=503, reason="Service Unavailable")
    return discord.DiscordServerError(response, {"code": 0, "message": "Service Unavailable"})


class StubChannel:
    """``error`` is raised by every send while set (and ``failures`` more times if given)."""

    def __init__(self, error: Exception | None = None, failures: int | None = None) -> None:
        self.error = error
        self.failures = failures
        self.attempts = 0
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.attempts += 1
        if self.error is not None and (self.failures is None or self.failures > 0):
            if self.failures is not None:
                self.failures -= 1
            raise self.error
        nonce = kwargs.get("nonce")
        seen = [i for i, m in enumerate(self.sent) if nonce is not None and m.get("nonce") == nonce]
        if seen:  # Discord: the same nonce again returns the message it made, no new one
            return SimpleNamespace(id=seen[0] + 1)
        self.sent.append({"content": content, **kwargs})
        if self.crash_after_send:
            self.crash_after_send = False
            raise RuntimeError("killed after Discord took the post")
        return SimpleNamespace(id=len(self.sent))

    crash_after_send = False

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits.append((message_id, kwargs))

        return Partial()

    @property
    def edits(self) -> list[tuple[int, dict[str, Any]]]:
        return self.__dict__.setdefault("_edits", [])


class StubClient:
    def __init__(self, channel: StubChannel, dm: StubChannel, others: dict[int, StubChannel] | None = None) -> None:
        self.channel = channel
        self.dm = dm
        self.others = others or {}

    def get_channel(self, channel_id: int) -> StubChannel:
        return self.others.get(channel_id, self.channel)

    async def create_dm(self, user: Any) -> StubChannel:
        return self.dm


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


def fast(publisher: Publisher) -> Publisher:
    publisher.retry_base, publisher.retry_cap = 0.01, 0.05
    return publisher


async def new_toy(sessions: SessionManager, channel_id: int = 7, first_user: int = 1):
    session = await sessions.create(guild_id=1, channel_id=channel_id, host=UserInfo(first_user, "a"),
                                    game_key="toy", options={})
    await sessions.join(session.id, UserInfo(first_user + 1, "b"))
    await sessions.start(session.id, first_user, seed=5)
    return session


async def setup(tmp_path: Path, channel: StubChannel, dm: StubChannel, others: dict[int, StubChannel] | None = None):
    store = await Store.open(tmp_path / "d.sqlite3")
    sessions = SessionManager(store)
    publisher = fast(Publisher(StubClient(channel, dm, others), sessions, store))  # type: ignore[arg-type]
    session = await new_toy(sessions)
    return store, sessions, publisher, session


async def published_seq(store: Store, game_id: int) -> int:
    row = await store.load_game(game_id)
    assert row is not None
    return row.published_seq


async def test_missing_permission_gets_its_fallback_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A 403 is final: tried once (not retried), logged, the DMs still go out, and the game goes on."""
    channel, dm = StubChannel(forbidden(50013)), StubChannel()
    store, _, publisher, session = await setup(tmp_path, channel, dm)
    with caplog.at_level(logging.WARNING):
        await publisher.publish(session.id)
    assert channel.attempts == 1 and channel.sent == []
    assert [r.message for r in caplog.records if "missing permission" in r.message]
    assert dm.sent  # the player to act still got their panel by DM
    assert await published_seq(store, session.id) == 0  # the start (seq 0) is done with, not pending forever
    await store.close()


async def test_a_refused_post_is_not_published_until_discord_takes_it(tmp_path: Path) -> None:
    """A 503 (which discord.py does not retry) is retried until the post goes through; the action
    counts as published only then, and the post and the DM are each delivered exactly once."""
    channel, dm = StubChannel(unavailable()), StubChannel(unavailable(), failures=3)
    store, _, publisher, session = await setup(tmp_path, channel, dm)
    task = asyncio.create_task(publisher.publish(session.id))
    while channel.attempts < 5:
        await asyncio.sleep(0.01)
    assert not task.done() and channel.sent == []
    assert await published_seq(store, session.id) == -1  # nothing announced yet: not published
    channel.error = None  # Discord is back
    await asyncio.wait_for(task, 5)
    assert len(channel.sent) == 1 and "file" in channel.sent[0]
    assert len(dm.sent) == 1 and dm.attempts == 4  # the DM failed three times, then went through once
    assert await published_seq(store, session.id) == 0
    await store.close()


async def test_a_retrying_game_does_not_hold_up_another(tmp_path: Path) -> None:
    stuck, free = StubChannel(unavailable()), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, stuck, StubChannel(), {8: free})
    other = await new_toy(sessions, channel_id=8, first_user=3)
    publisher.request(session.id)
    publisher.request(other.id)
    for _ in range(200):
        if await published_seq(store, other.id) == 0:
            break
        await asyncio.sleep(0.01)
    assert len(free.sent) == 1 and await published_seq(store, other.id) == 0
    assert stuck.sent == [] and await published_seq(store, session.id) == -1
    stuck.error = None
    await asyncio.wait_for(publisher.idle(), 5)
    assert len(stuck.sent) == 1 and await published_seq(store, session.id) == 0
    await store.close()


async def test_a_reminder_never_overtakes_a_retrying_post(tmp_path: Path) -> None:
    channel = StubChannel(unavailable())
    store, sessions, publisher, session = await setup(tmp_path, channel, StubChannel())
    publisher.request(session.id)
    while channel.attempts < 2:
        await asyncio.sleep(0.01)
    seat = session.game.actors()[0]
    session.deadlines[seat] = SeatTimer(2_000_000_000.0, None)
    await publisher.remind(session.id, seat)  # returns at once: the timer loop is not held up
    await asyncio.sleep(0.05)
    assert channel.sent == []
    channel.error = None
    await asyncio.wait_for(publisher.idle(), 5)
    assert [("file" in m) for m in channel.sent] == [True, False]  # the turn post, then the reminder
    await store.close()


async def test_a_failing_render_posts_text_and_the_next_post_tries_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    fault = tmp_path / "render-faults"
    fault.write_text("1")
    monkeypatch.setenv("TABLETOP_TEST_RENDER_FAULTS", str(fault))
    with caplog.at_level(logging.ERROR):
        await publisher.publish(session.id)
    (post,) = channel.sent
    first = session.row.seat_users[session.game.actors()[0]][0]
    assert "file" not in post and f"<@{first}>" in post["content"]  # the news, as text
    assert [r for r in caplog.records if f"game {session.id}" in r.getMessage() and r.exc_info]
    assert await published_seq(store, session.id) == 0 and dm.sent
    seat = session.game.actors()[0]
    await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})
    await publisher.publish(session.id)
    assert "file" in channel.sent[-1] and fault.read_text() == "0"
    await store.close()


async def test_a_restart_resumes_a_half_done_publish_without_repeating_the_post(tmp_path: Path) -> None:
    """The process dies after the channel post and before the DM: the next start sends the DM and
    does not post the move again."""
    channel, dm = StubChannel(), StubChannel(RuntimeError("process killed here"))
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    with pytest.raises(RuntimeError):
        await publisher.publish(session.id)
    assert len(channel.sent) == 1 and await published_seq(store, session.id) == -1
    dm.error = None
    restarted = fast(Publisher(StubClient(channel, dm), SessionManager(store), store))  # type: ignore[arg-type]
    await restarted.publish(session.id)
    assert len(channel.sent) == 1 and len(dm.sent) == 1
    assert await published_seq(store, session.id) == 0
    await store.close()


async def test_closed_dms_notice_once_without_content(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel(forbidden(50007))
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    actor = session.game.actors()[0]
    user = session.row.seat_users[actor][0]
    notices = [m for m in channel.sent if "/game hand" in m["content"]]
    assert len(notices) == 1 and f"<@{user}>" in notices[0]["content"]
    assert user in publisher.dm_closed and user in await store.dm_closed_users()
    # later prompts neither retry the DM nor repeat the notice
    await sessions.act(session.id, user, actor, {"type": "add", "n": 1})
    await publisher.publish(session.id)
    other = session.game.actors()[0]
    await sessions.act(session.id, session.row.seat_users[other][0], other, {"type": "add", "n": 1})
    await publisher.publish(session.id)
    for seat in (actor, other):
        uid = session.row.seat_users[seat][0]
        assert len([m for m in channel.sent if "/game hand" in m["content"] and f"<@{uid}>" in m["content"]]) == 1
    # the notices carry no private content: only the mention and the instruction
    assert all("picked" not in m["content"] for m in channel.sent)
    await store.close()


async def test_mentions_only_the_players_to_act(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, _, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    post = next(m for m in channel.sent if "file" in m)
    actor_users = [session.row.seat_users[s][0] for s in session.game.actors()]
    assert [u.id for u in post["allowed_mentions"].users] == actor_users
    assert post["allowed_mentions"].everyone is False and post["allowed_mentions"].roles is False
    await store.close()


async def test_a_new_dm_panel_retires_the_previous_one(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    first_seat = session.game.actors()[0]
    first_user = session.row.seat_users[first_seat][0]
    first_panel = len(dm.sent)  # the id the stub gave the first panel
    for _ in range(2):  # both players move: the first player is prompted again
        seat = session.game.actors()[0]
        await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})
        await publisher.publish(session.id)
    assert session.game.actors() == [first_seat]
    await publisher.idle()  # the panels' bookkeeping runs beside the announcements
    assert (first_panel, {"view": None}) in dm.edits  # its old panel lost its controls
    stored = await store.get_message(session.id, f"panel:{first_user}")
    assert stored is not None and stored[1] == len(dm.sent)
    await store.close()


async def test_news_longer_than_a_post_is_split_not_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves that coalesce into more lines than one turn post shows: the older lines go out first in
    posts of their own, so every line is in the channel exactly once (nothing clipped away)."""
    from bot.discord_app import delivery

    monkeypatch.setattr(delivery, "MAX_LOG_LINES", 2)
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    expected = []
    for _ in range(3):  # three turns' worth of news, published at once
        seat = session.game.actors()[0]
        await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 1})
        expected.append(f"seat {seat + 1} adds 1 -> {session.game.s['total']}")
    await publisher.publish(session.id)
    later = channel.sent[1:]
    assert [("file" in m) for m in later] == [False, True]  # the overflow, then the turn post with the board
    text = "\n".join(m["content"] for m in later)
    assert [text.count(line) for line in expected] == [1, 1, 1]
    assert later[0]["content"] == expected[0] and later[0]["allowed_mentions"].users == []
    await store.close()


def test_split_tail_and_chunks_respect_the_limits() -> None:
    from bot.discord_app.delivery import MAX_LOG_LINES, chunk_lines, split_tail

    lines = [f"line {i} " + "x" * 150 for i in range(30)]
    older, newest = split_tail(lines, "status")
    assert older + newest == lines and 0 < len(newest) <= MAX_LOG_LINES
    assert len("\n".join([*newest, "", "status"])) <= 1900 < len("\n".join([older[-1], *newest, "", "status"]))
    chunks = chunk_lines(older, 1000)
    assert "\n".join(chunks).split("\n") == older and all(len(c) <= 1000 for c in chunks)
    assert chunk_lines(["y" * 5000], 1000)[0].startswith("y") and len(chunk_lines(["y" * 5000], 1000)[0]) <= 1000


async def test_a_post_discord_took_just_before_a_crash_is_not_made_twice(tmp_path: Path) -> None:
    """Killed after Discord accepted the turn post but before it was recorded, while the next move
    commits: the restart finishes the same announcement (same nonce, so Discord returns the message
    it made), then announces the new move; each line is in the channel once."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    await publisher.publish(session.id)
    seat = session.game.actors()[0]
    await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 2})
    channel.crash_after_send = True
    with pytest.raises(RuntimeError):
        await publisher.publish(session.id)
    seat = session.game.actors()[0]
    await sessions.act(session.id, session.row.seat_users[seat][0], seat, {"type": "add", "n": 2})
    restarted = fast(Publisher(StubClient(channel, dm), SessionManager(store), store))  # type: ignore[arg-type]
    restarted.request(session.id)
    await asyncio.wait_for(restarted.idle(), 5)
    assert await published_seq(store, session.id) == 2
    text = "\n".join(m["content"] for m in channel.sent)
    assert text.count("adds 2 -> 2") == 1 and text.count("adds 2 -> 4") == 1
    await store.close()


async def test_long_private_news_is_split_into_dms_not_shortened(tmp_path: Path) -> None:
    """Private news longer than one message is never cut: Discord refuses content over 2000 characters,
    so it must arrive whole, in several DMs, before the seat's panel."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, session = await setup(tmp_path, channel, dm)
    seat = session.game.actors()[0]
    user = session.row.seat_users[seat][0]
    picks = {str(i): 1000 + i for i in range(400)}  # "picks revealed: 0=1000, 1=1001, ..." ~3,900 characters
    expected = session.game.event_text({"type": "reveal", "picks": picks}, "en")
    assert len(expected) > 3500
    await publisher.send_private(session, {seat}, {seat: [{"type": "reveal", "picks": picks, "to": [seat]}]})
    sent = [m["content"] for m in dm.sent]
    assert all(len(text) <= 2000 for text in sent), [len(text) for text in sent]
    assert len(sent) >= 3  # at least two chunks of news, then the panel
    assert "view" in dm.sent[-1] and dm.sent[-1]["view"] is not None  # the panel comes last, with controls
    # every number of the news arrives, in order, across the DMs before the panel
    news = " ".join(sent[:-1])
    for i in range(400):
        assert f"{i}={1000 + i}" in news, i
    assert user in session.row.seat_users[seat]
    await store.close()


# ---- the end of a game (issue 25) ------------------------------------------------------------------
async def play_toy_to_end(sessions: SessionManager, session: Any) -> None:
    while session.game.outcome() is None:
        seat = session.game.actors()[0]
        action = session.game.legal_actions(seat)[-1]
        await sessions.act(session.id, session.row.seat_users[seat][0], seat, action)


async def ended_table(tmp_path: Path, channel: StubChannel, dm: StubChannel):
    """A toy table with the stats recorder wired as the bot wires it (bot/discord_app/app.py)."""
    from bot.core.stats import Stats  # noqa: PLC0415

    store = await Store.open(tmp_path / "d.sqlite3")
    sessions = SessionManager(store)
    publisher = fast(Publisher(StubClient(channel, dm), sessions, store))  # type: ignore[arg-type]
    stats = Stats(store)
    await stats.setup()
    sessions.on_change = publisher.request
    sessions.on_end = lambda s: stats.schedule(s.id)
    stats.on_recorded = lambda record: publisher.game_ended(record.game_id)
    publisher.ratings = stats.player_rows
    session = await sessions.create(guild_id=1, channel_id=7, host=UserInfo(1, "anna", "ru"), game_key="toy",
                                    options={})
    await sessions.join(session.id, UserInfo(2, "bob"))
    await sessions.start(session.id, 1, seed=5)
    return store, sessions, publisher, stats, session


async def settle(publisher: Publisher, stats: Any) -> None:
    for _ in range(3):
        await asyncio.wait_for(publisher.idle(), 10)
        await asyncio.wait_for(stats.idle(), 10)


async def test_the_final_post_mentions_every_player_and_says_why(tmp_path: Path) -> None:
    """The last move's post names the winner, why the game ended and where the replay is, and
    mentions every player (not only the one who must act, as a turn post does); no second post."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, stats, session = await ended_table(tmp_path, channel, dm)
    await play_toy_to_end(sessions, session)
    await settle(publisher, stats)
    final = channel.sent[-1]
    assert {u.id for u in final["allowed_mentions"].users} == {1, 2}
    assert "<@1>" in final["content"] and "<@2>" in final["content"]
    why = t("end.why", "ru", reason=t("end.reason.rules", "ru"))
    assert why in final["content"]  # the host's language
    assert f"/game replay id:{session.id}" in final["content"]
    assert sum("🏁" in m["content"] for m in channel.sent) == 1  # the final turn post is the end post
    await store.close()


async def test_the_result_dm_has_the_reason_rating_change_and_replay_once(tmp_path: Path) -> None:
    """A resignation ends the game: the channel gets a final post mentioning both players, and each
    player one DM in their own language with the result, why, their rating before → after and the
    replay; announcing the end again (a re-publish, a restart) sends no DM a second time."""
    from bot.core.stats import MODEL, ORDINAL_Z  # noqa: PLC0415

    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, stats, session = await ended_table(tmp_path, channel, dm)
    await publisher.publish(session.id)
    await sessions.concede(session.id, 2)  # bob resigns: anna wins
    await settle(publisher, stats)
    end = channel.sent[-1]
    assert {u.id for u in end["allowed_mentions"].users} == {1, 2}
    assert t("end.reason.conceded", "ru", names="bob") in end["content"]
    rows = {r["user_id"]: r for r in await stats.player_rows(session.id)}
    results = [m["content"] for m in dm.sent if f"№{session.id}" in m["content"] or f"#{session.id}" in m["content"]]
    assert len(results) == 2, results
    anna = next(r for r in results if "Ваш рейтинг" in r)
    bob = next(r for r in results if "Your rating" in r)
    for text, user, lang in ((anna, 1, "ru"), (bob, 2, "en")):
        row = rows[user]
        before = row["mu_before"] - ORDINAL_Z * row["sigma_before"]
        after = row["mu_after"] - ORDINAL_Z * row["sigma_after"]
        assert abs(before - (MODEL.mu - ORDINAL_Z * MODEL.sigma)) < 1e-9  # newcomers
        assert f"{before:.1f} → {after:.1f}" in text, text
        assert t("end.reason.conceded", lang, names="bob") in text
        assert f"/game replay id:{session.id}" in text
        assert "https://discord.com/channels/1/7/" in text  # the final post
    assert "+" in anna and "\u2212" in bob  # the winner rises, the one who resigned falls
    count = len(dm.sent)
    publisher.game_ended(session.id)  # announced again: nothing new
    await publisher.publish(session.id)
    await settle(publisher, stats)
    await store.set_message(session.id, "enddue", 0, 0, {})  # as if a restart found it unfinished
    restarted = fast(Publisher(StubClient(channel, dm), SessionManager(store), store))  # type: ignore[arg-type]
    restarted.ratings = stats.player_rows
    restarted.resume_housekeeping()
    await settle(restarted, stats)
    assert len(dm.sent) == count
    assert sum("🏁" in m["content"] for m in channel.sent) == 1
    await store.close()


async def owed_result_dms(tmp_path: Path, channel: StubChannel, dm: StubChannel):
    """An ended table (anna resigns) whose result DMs Discord refused past the announcement budget:
    they are owed (``owed:`` rows) when this returns, and ``dm.error`` still refuses."""
    store, sessions, publisher, stats, session = await ended_table(tmp_path, channel, dm)
    publisher.announce_budget = 0.2
    await publisher.publish(session.id)
    dm.error = unavailable()
    await sessions.concede(session.id, 1)  # anna resigns
    await asyncio.wait_for(stats.idle(), 10)
    for _ in range(200):
        if await store.messages_with_prefix("owed:"):
            break
        await asyncio.sleep(0.02)
    assert await store.messages_with_prefix("owed:")
    return store, sessions, publisher, stats, session


async def test_a_result_dm_discord_refuses_is_owed_not_lost(tmp_path: Path) -> None:
    """A result DM refused past the announcement budget is owed and goes once Discord is back."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, stats, session = await owed_result_dms(tmp_path, channel, dm)
    dm.error = None
    publisher.wake()
    for _ in range(250):  # the owed DMs have their own retrier (not waited for by idle())
        if not await store.messages_with_prefix("owed:"):
            break
        await asyncio.sleep(0.02)
    await settle(publisher, stats)
    results = [m["content"] for m in dm.sent if t("end.reason.conceded", "en", names="anna") in m["content"]
               or t("end.reason.conceded", "ru", names="anna") in m["content"]]
    assert len(results) == 2 and not await store.messages_with_prefix("owed:")
    await store.close()


async def test_a_result_dm_to_closed_dms_asks_nobody_to_use_game_hand(tmp_path: Path) -> None:
    """Issue 25: a result DM that cannot be delivered (DMs closed, Discord's 50007) brings no "use /game
    hand" notice to the channel: the game is over, and the channel's end post already tells the result.
    Nor does one owed first (Discord failing) and then found closed."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, stats, session = await ended_table(tmp_path, channel, dm)
    await publisher.publish(session.id)
    dm.error = forbidden(50007)  # both players close their DMs during the game
    await sessions.concede(session.id, 2)  # bob resigns: anna wins
    await settle(publisher, stats)
    ends = [m for m in channel.sent if t("end.reason.conceded", "ru", names="bob") in m["content"]]
    assert len(ends) == 1 and {u.id for u in ends[0]["allowed_mentions"].users} == {1, 2}
    assert {1, 2} <= publisher.dm_closed  # the result DMs were tried
    assert not [m for m in channel.sent if "/game hand" in m["content"]], [m["content"] for m in channel.sent]
    await store.close()


async def test_no_game_hand_notice_once_the_game_is_over(tmp_path: Path) -> None:
    """Issue 25: after the end (the final move's private news found DMs closed, say) there is no hand
    to open: the "/game hand" notice is for a running game only; while it runs it still comes."""
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, stats, session = await ended_table(tmp_path, channel, dm)
    await publisher.dm_closed_notice(session, 2)
    assert [m for m in channel.sent if "/game hand" in m["content"]]  # running: told once
    await sessions.concede(session.id, 2)
    await settle(publisher, stats)
    before = len(channel.sent)
    await publisher.dm_closed_notice(await sessions.get(session.id), 1)
    assert not [m for m in channel.sent[before:] if "/game hand" in m["content"]]
    await store.close()


async def test_an_owed_result_dm_found_closed_asks_nobody_to_use_game_hand(tmp_path: Path) -> None:
    channel, dm = StubChannel(), StubChannel()
    store, sessions, publisher, stats, session = await owed_result_dms(tmp_path, channel, dm)
    dm.error = forbidden(50007)  # Discord is back, and the DMs turn out closed
    publisher.wake()
    for _ in range(250):
        if not await store.messages_with_prefix("owed:"):
            break
        await asyncio.sleep(0.02)
    await settle(publisher, stats)
    assert not await store.messages_with_prefix("owed:") and {1, 2} <= publisher.dm_closed
    assert not [m for m in channel.sent if "/game hand" in m["content"]], [m["content"] for m in channel.sent]
    assert sum("🏁" in m["content"] for m in channel.sent) == 1
    await store.close()


async def test_a_rules_ending_names_the_games_own_reason(tmp_path: Path) -> None:
    """Cold War's outcome now says why it ended, and the result line words it."""
    from bot.discord_app.delivery import end_reason  # noqa: PLC0415
    from bot.games.coldwar.game import ColdWar  # noqa: PLC0415
    from bot.games.coldwar.state import Over  # noqa: PLC0415

    game = ColdWar.new([{}, {}], {}, 3)
    game.s.over = Over(winners=[0], draw=False, scores=[100, 20], exhausted=True)
    assert game.outcome() is not None and game.outcome()["reason"] == "exhausted"
    session = SimpleNamespace(row=SimpleNamespace(settings=SimpleNamespace(extra={}), status="finished",
                                                  game="coldwar"), outcome=game.outcome)
    assert end_reason(session, "en") == t("end.reason.coldwar.exhausted", "en")  # type: ignore[arg-type]
    session.outcome = lambda: {"winners": [1], "draw": False, "reasons": ["influence", "trust"]}
    session.row.game = "byallmeans"
    assert end_reason(session, "ru") == t("bam.reason.influence", "ru") + "; " + t("bam.reason.trust", "ru")  # type: ignore[arg-type]


def test_a_call_dropped_while_it_waits_to_retry_closes_cleanly_from_another_context() -> None:
    """A ``Publisher.call`` still waiting to retry when its loop is closed (the end of a test, a shutdown) is
    closed later, by the garbage collector, from whatever context is current then. It must not try to restore
    its context variable there: that raised ValueError in the collector, and when the collection interrupted
    CPython 3.11's AST compiler in another test, a SystemError there (seen in CI)."""
    import contextvars
    import gc
    import sys

    caught: list[BaseException | None] = []
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: caught.append(unraisable.exc_value)
    try:
        loop = asyncio.new_event_loop()
        publisher = Publisher(SimpleNamespace(), SimpleNamespace(), SimpleNamespace())  # type: ignore[arg-type]
        publisher.retry_base = publisher.retry_cap = 30.0

        async def refused() -> None:
            raise unavailable()

        task = loop.create_task(publisher.call("a DM", refused))
        loop.run_until_complete(asyncio.sleep(0.05))  # the first attempt failed: the call waits to retry
        assert not task.done()
        loop.close()  # dropped with its loop
        del task, loop, publisher  # (the publisher keeps its waiting calls, to wake them)
        contextvars.Context().run(gc.collect)
    finally:
        sys.unraisablehook = hook
    assert not [e for e in caught if isinstance(e, ValueError)], caught
