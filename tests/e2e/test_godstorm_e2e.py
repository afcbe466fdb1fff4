"""Risk Godstorm end to end: the real bot against the fake Discord, three players, five epochs.

Bids go through DM panels (the channel only learns who has bid until the reveal), moves through
``/risk`` commands with autocomplete and ``/game hand`` panels (driven by ``godstorm_play.RiskPlayer``).
Two fast in-process tests run the cog over a real SessionManager and Store: the ``from``
autocomplete offers exactly the caller's own attacking territories (others get nothing), and
``until`` on a pair where a godswar comes first rolls single attacks one by one, each logged.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core.i18n import t
from bot.core.replay import verify
from bot.core.sessions import Session, SessionManager, UserInfo
from bot.core.store import Store, dumps
from bot.games.godstorm import Godstorm
from bot.games.godstorm import board as gboard
from bot.games.godstorm.cog import RiskCog, resolve
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import put, scenario
from bot.games.godstorm.text import tname
from tests.e2e.godstorm_play import RiskPlayer
from tests.e2e.helpers import (
    SharedBot,
    assert_clean_output,
    custom_ids,
    db_query,
    decode_png,
    game_row,
    open_lobby,
    shared_table,
    start_lobby,
    turn_posts,
)
from tests.slash import invoke

pytestmark = pytest.mark.asyncio(loop_scope="module")  # the e2e tests share one bot: the module's (shared_bot)
MAX_PNG_BYTES = 1_500_000


@pytest.mark.e2e
async def test_three_player_godstorm_with_dm_bids_played_to_a_result(shared_bot: SharedBot) -> None:
    # Measured on this machine (2 shared cores), three runs: 4.6-5.5 s for the whole game (≈ 175 actions,
    # ≈ 330 interactions incl. autocomplete), 6.5-7.3 s wall for this file; up to ~2x under parallel load.
    started = time.perf_counter()
    table = shared_table(shared_bot, ["alice", "bob", "carol", "eve"], locales={"bob": "ru"})
    fake = table.fake
    risk = fake.command("risk", table.guild.id)
    assert risk is not None
    subs = {o["name"] for o in risk["options"]}
    assert {"attack", "place", "fortify", "end", "move"} <= subs
    attack = next(o for o in risk["options"] if o["name"] == "attack")
    assert [o["name"] for o in attack["options"]] == ["from", "to", "dice", "until"]
    assert all(o.get("autocomplete") for o in attack["options"])
    assert attack.get("description_localizations", {}).get("ru")  # the translator's Russian text

    # /risk with no game here is refused politely
    r = await fake.slash(table.user("alice"), table.channel, "risk end")
    assert r.ephemeral and r.content.startswith("⛔"), r.content

    lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob", "carol"])
    started_lobby = await start_lobby(table, "alice", lobby)
    assert not custom_ids(started_lobby.message, "tt:l:")
    await fake.wait_for(lambda: turn_posts(table), timeout=30)

    player = RiskPlayer(table)
    # a spectator and a player out of turn are refused, and their autocomplete is empty
    row, game = player.game()
    actor = game.actors()[0]
    idle_users = [table.by_id(u[0]) for n, u in enumerate(row["seat_users"]) if n != actor]
    for user, key in [(table.user("eve"), "err.spectator"), *((u, "err.not_your_turn") for u in idle_users)]:
        r = await fake.slash(user, table.channel, "risk end")
        assert r.ephemeral and r.content == "⛔ " + t(key, player.lang_of(user)), r.content
        assert await fake.autocomplete(user, table.channel, "risk place", focused="territory") == []

    await player.play()
    log = player.log

    final = await fake.wait_for(lambda: [m for m in fake.channel_messages(table.channel) if "🏁" in m.content],
                                timeout=30)
    assert final
    await player.wait_published()
    row = game_row(table.db, table.channel.id)
    assert row["status"] == "finished"
    assert row["state"]["outcome"]["winners"]

    # rolls are public: the channel posts show them (a post keeps its newest 14 lines), never a DM
    final_game = Godstorm.from_json(row["state"])
    final_game.seat_names = [table.by_id(users[0]).name for users in row["seat_users"]]
    logged = [final_game.event_text(e, "en") for (events,) in db_query(
        table.db, "SELECT events FROM actions WHERE game_id = ?", (row["id"],)) for e in json.loads(events)
        if e["type"] == "roll"]
    shown = {line for m in fake.channel_messages(table.channel) for v in [*m.history, m.version]
             for line in v.content.splitlines() if "] vs [" in line}
    assert len(logged) >= log.attacks and shown and shown <= set(logged)
    assert not any("] vs [" in m.text for u in ("alice", "bob", "carol") for m in fake.dm_messages(table.user(u)))

    # what the run went through
    assert log.bid_rounds >= 1 and log.dm_bids >= 3
    epochs = row["state"]["epoch"]
    assert log.bid_rounds == epochs, (log.bid_rounds, epochs)
    assert log.attacks >= 3 and log.from_autocompletes >= 3 and log.until_attacks >= 2, log
    assert log.russian_autocompletes >= 1 and log.move_autocompletes == 1 and log.refusals, log
    assert log.fortified >= 1, log
    assert log.risk_commands.get("place", 0) >= 21 and log.risk_commands.get("end", 0) >= 3, log
    assert log.panels >= 6, log  # pantheons, war gods and temples, turn-order picks

    # the boards: decodable, at most 2048 px a side and 1.5 MB
    posts = turn_posts(table)
    for post in (posts[0], posts[len(posts) // 2], posts[-1]):
        image = decode_png(post.attachments[0].data)
        assert max(image.size) <= 2048 and post.attachments[0].size <= MAX_PNG_BYTES

    assert_clean_output(table.output())
    store = await Store.open(str(table.db))
    try:
        assert await verify(store, row["id"])
    finally:
        await store.close()
    elapsed = time.perf_counter() - started
    print(f"godstorm e2e: {elapsed:.1f} s, {row['seq']} actions, {log}")


SET_UP = ("pantheon", "pile", "claim", "setup_place", "setup_gods")


@pytest.mark.e2e
async def test_the_set_up_makes_one_channel_post_per_round_not_one_per_placement(shared_bot: SharedBot) -> None:
    """Issue 25: the set-up takes about thirty decisions; each used to make a new pinging channel post.
    Now a round of it (each player picks a pantheon, places once, or sets up a war god and a temple)
    shares one post: its first prompt posts and pings, the next players' prompts edit that post (they
    still get their DM panels), and the epoch after the set-up posts anew."""
    names = ["alice", "bob", "carol"]
    table = shared_table(shared_bot, names, locales={"bob": "ru"})
    fake = table.fake
    lobby = await open_lobby(table, "alice", "godstorm", names)
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    player = RiskPlayer(table)
    await player.wait_published()
    rounds: list[str | None] = []
    prompted: dict[int, int] = {}  # user -> prompts in the set-up
    pinged: dict[int, list[int]] = {}  # post -> the users it mentioned when it was made
    decisions = 0
    actors: list[int] = []
    while True:
        row, game = player.game()
        for post in turn_posts(table):
            pinged.setdefault(post.id, list(post.mentions))
        if game.s.phase not in SET_UP:
            break
        if game.actors() != actors:
            actors = game.actors()
            for seat in actors:
                user = row["seat_users"][seat][0]
                prompted[user] = prompted.get(user, 0) + 1
        key = game.post_group()
        assert key is not None and key.startswith("setup:")
        if not rounds or rounds[-1] != key:
            rounds.append(key)
        assert await player.step()
        decisions += 1
        await player.wait_published()
    assert game.post_group() is None and game.s.phase == "bid"
    posts = turn_posts(table)
    # pantheons, 7 rounds of placement, war gods and temples: one post each, then the first bid's
    assert decisions >= 28 and sum(prompted.values()) >= 25 and len(rounds) == 9, (decisions, prompted, rounds)
    assert len(posts) == len(rounds) + 1, ([p.content[-80:] for p in posts], rounds)
    assert not [m for m in fake.channel_messages(table.channel) if m.id > lobby.id and not m.attachments]
    # each post of the set-up pinged one player when it was made (the round's first), no more
    assert all(len(pinged[p.id]) == 1 for p in posts[:-1]), pinged
    # the later prompts of a round edited its post: it names every move of the round
    assert all(p.edited for p in posts[1:-2]), [p.content for p in posts]
    # and each prompted player was still sent a DM panel for each prompt
    for user_id, count in prompted.items():
        panels = [m for m in fake.dm_messages(table.by_id(user_id)) if m.versions[0].components]
        assert len(panels) >= count, (table.by_id(user_id).name, len(panels), count)
    assert_clean_output(table.output())


# ---- in process: the cog over a real SessionManager and Store, with stand-in interactions ----------
class Response:
    """Records what the cog answers (the part of ``discord.InteractionResponse`` it uses)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.deferred = False

    def is_done(self) -> bool:
        return self.deferred or bool(self.sent)

    async def send_message(self, content: str, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})

    async def defer(self, **kwargs: Any) -> None:
        self.deferred = True


def fake_interaction(user_id: int, channel_id: int, locale: str = "en-US", **namespace: Any) -> Any:
    response = Response()
    return SimpleNamespace(user=SimpleNamespace(id=user_id), channel_id=channel_id, locale=discord.Locale(locale),
                           namespace=SimpleNamespace(**namespace), response=response,
                           followup=SimpleNamespace(send=response.send_message))


async def three_player_session(store: Store, seed: int = 424242) -> tuple[SessionManager, Session]:
    sessions = SessionManager(store)
    users = [UserInfo(101, "ann"), UserInfo(102, "boris", "ru"), UserInfo(103, "cleo")]
    session = await sessions.create(guild_id=1, channel_id=7, host=users[0], game_key="godstorm", options={})
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=seed)
    return sessions, session


async def test_autocomplete_offers_only_the_callers_own_territories(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "ac.sqlite3"))
    try:
        sessions, session = await three_player_session(store)
        game = session.game
        assert isinstance(game, Godstorm)
        rnd = random.Random(5)
        for _ in range(400):  # through the session layer up to the first invasion step with armies placed
            s = game.s
            if s.phase == "turn" and s.step == "invade" and not s.pending and not s.battle and not s.move:
                break
            seat = game.actors()[0]
            legal = game.legal_actions(seat)
            action = next((a for a in legal if a["type"] == "end_step"), None) if s.phase == "turn" else None
            result = await sessions.act(session.id, session.row.seat_users[seat][0], seat,
                                        action or choose(game, seat, legal, rnd))
            # private events name their seats in a list (a target territory under "to" would be "private")
            assert all(isinstance(e["to"], list) and all(isinstance(x, int) for x in e["to"])
                       for e in result.events if "to" in e), result.events
        else:
            raise AssertionError("no invasion step reached")
        cog = RiskCog(SimpleNamespace(sessions=sessions))  # type: ignore[arg-type]
        seat = game.s.current
        mover = session.row.seat_users[seat][0]
        owned = game.owned(seat)
        sources = {a["from"] for a in game.legal_actions(seat) if a["type"] == "attack"}
        for locale, lang in (("en-US", "en"), ("ru", "ru")):
            choices = await cog.attack_from(fake_interaction(mover, 7, locale), "")
            values = [c.value for c in choices]
            assert values and set(values) <= owned
            assert set(values) == sources if len(sources) <= 25 else set(values) < sources
            assert all(c.name == f"{tname(c.value, lang)} ({game.s.terr[c.value].armies})" for c in choices)
            # typing narrows the list; a typed name (any language, or as suggested) resolves to the id
            first = choices[0]
            narrowed = await cog.attack_from(fake_interaction(mover, 7, locale), tname(first.value, lang)[:3].upper())
            assert first.value in [c.value for c in narrowed] and {c.value for c in narrowed} <= owned
            assert resolve(tname(first.value, "ru"), values) == first.value == resolve(first.name, values)
        # targets of that source are enemies; the other players, a stranger and another channel get nothing
        targets = await cog.attack_to(fake_interaction(mover, 7, **{"from": first.value}), "")
        assert targets and not {c.value for c in targets} & owned
        assert {c.value for c in targets} <= set(gboard.NEIGHBOURS[first.value])
        dice = await cog.attack_dice(fake_interaction(mover, 7, **{"from": first.value, "to": targets[0].value}), "")
        assert dice and {c.value for c in dice} <= {1, 2, 3}
        others = [u for u in (101, 102, 103) if u != mover]
        for other in [*others, 999]:
            assert await cog.attack_from(fake_interaction(other, 7), "") == []
        assert await cog.attack_from(fake_interaction(mover, 8), "") == []
        # a command out of turn is refused with the platform's localised words, nothing applied
        seq = session.row.seq
        inter = fake_interaction(others[0], 7, "ru")
        await invoke(RiskCog.end, cog, inter)  # answered as the bot's command tree answers it
        assert inter.response.sent[0]["content"] == "⛔ " + t("err.not_your_turn", "ru")
        assert inter.response.sent[0]["ephemeral"] and session.row.seq == seq
    finally:
        await store.close()


async def test_until_rolls_one_by_one_when_a_godswar_comes_first(tmp_path: Path) -> None:
    """Gods on both sides: the rules offer no ``attack_until`` for that pair, so ``until`` rolls single
    attacks through the session layer (the godswar first, then the armies), each one logged."""
    store = await Store.open(str(tmp_path / "loop.sqlite3"))
    try:
        sessions, session = await three_player_session(store)
        game = scenario(3)
        src = "Alemannia"
        dst = gboard.NEIGHBOURS[src][0]
        put(game, src, 0, 12, ["war"])
        put(game, dst, 1, 6, ["war"])
        session.game = game
        session.state_text = dumps(game.to_json())
        assert not [a for a in game.legal_actions(0) if a["type"] == "attack_until" and a["to"] == dst]
        user = session.row.seat_users[0][0]
        cog = RiskCog(SimpleNamespace(sessions=sessions))  # type: ignore[arg-type]
        seq = session.row.seq
        inter = fake_interaction(user, 7, "en-US")
        await cog.attack.callback(cog, inter, tname(src, "en"), tname(dst, "ru"), 3, 1)
        answer = inter.response.sent[0]["content"]
        assert inter.response.deferred and answer.startswith("✅"), answer
        rows = await (await store.db.execute(
            "SELECT action, events FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (session.id, seq))
        ).fetchall()
        logged = [json.loads(a) for a, _ in rows]
        events = [e for _, evs in rows for e in json.loads(evs)]
        assert len(logged) >= 2 and all(a == {"type": "attack", "from": src, "to": dst, "dice": a["dice"]}
                                        for a in logged), logged
        rolls = [e for e in events if e["type"] == "roll"]
        assert [e["type"] for e in events].count("godswar") == 1 and len(rolls) == len(logged)
        # the answer lists the godswar and every roll, in the caller's language
        assert answer.count("] vs [") == len(rolls) and "Godswar" in answer, answer
        s = game.s
        assert s.move is not None or s.terr[dst].owner == 0 or s.terr[src].armies <= 1, s
    finally:
        await store.close()
