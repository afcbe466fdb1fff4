"""Play that reads well on a phone (issue 13), end to end against the fake Discord, in both languages.

* One live panel per player: whatever way a seat acts (a DM button, ``/game hand``, ``/risk``), every
  older panel loses its controls, and the seat's next decision is in its DM panel too.
* Complete confirmations: the ✅ answer to the "wait" that ends a Cold War round shows every outcome
  of it (the report, civil unrest, a captured group...), and a private choice confirmed in the
  clicked DM panel is not sent again as a new DM.
* Coalesced channel updates: within one Godstorm turn the board is uploaded far fewer times than there
  are moves, and always once the turn ends.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from bot.games.coldwar import ColdWar
from bot.games.registry import game_class
from tests.e2e.coldwar_play import ColdWarDriver, user_lang
from tests.e2e.godstorm_play import RiskPlayer
from tests.e2e.helpers import (
    SharedBot,
    Table,
    assert_clean_output,
    custom_ids,
    db_query,
    game_row,
    last_turn_post,
    latest_panel,
    make_table,
    open_lobby,
    play_panel,
    shared_table,
    start_lobby,
    turn_posts,
)
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio(loop_scope="module")  # most tests share one bot: the module's (shared_bot)

SEAT_CONTROLS = ("tt:a:", "tt:n:", "tt:b:")
SETTLE = 10.0
"""Seconds the bot may take to retire old panels (it does so in the background, after answering)."""


def live_controls(message: Any) -> list[str]:
    return [c["custom_id"] for c in message.all_components()
            if str(c.get("custom_id", "")).startswith(SEAT_CONTROLS) and not c.get("disabled")]


def seat_counts(table: Table) -> list[int]:
    (raw,), = db_query(table.db, "SELECT seat_counts FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                       (table.channel.id,))
    return list(json.loads(raw))


def panel_problems(table: Table, require_dm: bool = True) -> list[str]:
    """What breaks "one live panel per player" right now (empty when all is well):

    * a message with live controls built at an older stamp of its seat (an old panel still live);
    * more than one DM or more than one ephemeral message with live controls for one player;
    * a player who must act (and whose DMs are open) without a DM panel at the seat's current stamp.
    """
    row = game_row(table.db, table.channel.id)
    if row["status"] != "running" or row["published_seq"] < row["seq"]:
        return ["still publishing"]
    counts = seat_counts(table)
    from bot.games.godstorm import Godstorm  # the only game this check runs on

    actors = set(Godstorm.from_json(row["state"]).actors())
    problems: list[str] = []
    for seat, users in enumerate(row["seat_users"]):
        for uid in users:
            user = table.by_id(uid)
            live: dict[str, list[int]] = {"dm": [], "ephemeral": []}
            for where, messages in (("dm", table.fake.dm_messages(user)),
                                    ("ephemeral", table.fake.ephemeral_messages(user))):
                for message in messages:
                    ids = live_controls(message)
                    if not ids:
                        continue
                    live[where].append(message.id)
                    stamps = {int(i.split(":")[4]) for i in ids}
                    if stamps != {counts[seat]}:
                        problems.append(f"{user.name}: {where} {message.id} keeps controls of stamp {stamps}, "
                                        f"the seat is at {counts[seat]}")
            for where, ids in live.items():
                if len(ids) > 1:
                    problems.append(f"{user.name}: {len(ids)} {where} messages with live controls")
            if require_dm and seat in actors and not live["dm"]:
                problems.append(f"{user.name} must act but has no live DM panel")
    return problems


async def settled_panels(table: Table, require_dm: bool = True) -> None:
    deadline = time.monotonic() + SETTLE
    while True:
        problems = panel_problems(table, require_dm)
        if not problems:
            return
        if time.monotonic() > deadline:
            raise AssertionError("\n".join(problems))
        await asyncio.sleep(0.05)


@pytest.mark.e2e
@pytest.mark.parametrize("host_locale", ["en-US", "ru"])
async def test_no_old_panel_keeps_live_controls_through_a_godstorm_turn(shared_bot: SharedBot, host_locale: str) -> None:
    """Set-up and a whole first turn of Risk Godstorm through ``/risk`` and ``/game hand`` (and the DM
    bid panels): after every move, each player has at most one DM and one ephemeral message with
    controls, both at the seat's current stamp, and whoever must act has a live DM panel."""
    other = "ru" if host_locale == "en-US" else "en-US"
    table = shared_table(shared_bot, ["alice", "bob"], locales={"alice": host_locale, "bob": other})
    fake = table.fake
    lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    player = RiskPlayer(table)
    await settled_panels(table)
    first_turn: int | None = None
    moves = 0
    for _ in range(400):
        row, game = player.game()
        s = game.s
        if s.phase == "turn" and s.battle is None and first_turn is None:
            first_turn = game.actors()[0]
        elif first_turn is not None and s.phase == "turn" and game.actors() != [first_turn]:
            break  # the first turn is over
        assert await player.step()
        moves += 1
        await player.wait_published()
        await settled_panels(table)
    else:
        raise AssertionError("the first turn did not end")
    log = player.log
    assert first_turn is not None and moves > 10
    assert log.risk_commands.get("place", 0) >= 1 and log.panels >= 1 and log.bid_rounds >= 1, log
    # a player who acted by /risk has the retired DM panels to show for it: edited, controls gone
    retired = [m for name in ("alice", "bob") for m in fake.dm_messages(table.user(name))
               if m.edited and not live_controls(m) and any(live_controls_of(v) for v in m.history)]
    assert retired
    # a DM panel carries a link button back to the game's channel post
    prefix = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/"
    posts = {m.id for m in fake.channel_messages(table.channel)}
    links = [b.get("url", "") for name in ("alice", "bob") for m in fake.dm_messages(table.user(name))
             for b in m.buttons if b.get("style") == 5]
    assert links and all(u.startswith(prefix) and int(u.rsplit("/", 1)[1]) in posts for u in links), links
    await table.close()
    assert_clean_output(table.output())


def live_controls_of(version: Any) -> list[str]:
    from tests.fake_discord.models import walk_components

    return [c["custom_id"] for c in walk_components(version.components)
            if str(c.get("custom_id", "")).startswith(SEAT_CONTROLS) and not c.get("disabled")]


class ConfirmingDriver(ColdWarDriver):
    """The Cold War driver, keeping every ✅ answer with the action it answered."""

    def __init__(self, table: Table, **kwargs: Any) -> None:
        super().__init__(table, **kwargs)
        self.answers: list[tuple[Any, int, int, Any]] = []  # user, seat, seq of the action, answer

    async def operate(self, user: Any, panel: Any, game: ColdWar, seat: int, action: dict[str, Any]) -> Any:
        r = await super().operate(user, panel, game, seat, action)
        if r.content.startswith("✅"):
            self.answers.append((user, seat, self.row()["seq"], r))
        return r


def outcome_texts(table: Table, game_id: int, seq: int, seat: int, lang: str) -> tuple[list[str], list[str]]:
    """(public, private-to-``seat``) texts of the events of action ``seq``, in ``lang``."""
    (events,), = db_query(table.db, "SELECT events FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
    row = game_row(table.db, table.channel.id)
    game = ColdWar.from_json(row["state"])
    game.seat_names = [table.by_id(users[0]).name for users in row["seat_users"]]
    public, private = [], []
    for event in json.loads(events):
        if str(event.get("type", "")).startswith("platform."):
            continue
        text = game.event_text(event, lang)
        if not text:
            continue
        if "to" not in event:
            public.append(text)
        elif seat in event["to"]:
            private.append(text)
    return public, private


@pytest.mark.e2e
async def test_cold_war_confirmations_are_complete_and_private_news_comes_once(shared_bot: SharedBot) -> None:
    """The rulebook: after the second consecutive "wait" the struggle ends, then the truce (civil unrest
    for the side over its limit) and the report revealing both agents X follow. The player whose
    wait ended the round sees all of it in the ✅ answer (each event at least by its first line), not
    only the report. And the agent chosen in a DM panel ("Your agent X: ...") is confirmed in that
    panel and not sent again as a new DM."""
    table = shared_table(shared_bot, ["alice", "bob"], locales={"bob": "ru"})
    fake = table.fake
    lobby = await open_lobby(table, "alice", "coldwar", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    driver = ConfirmingDriver(table, seed=3, hand_every=3, busy=0.3)
    ends_checked: set[str] = set()
    plans_checked: set[str] = set()
    for _ in range(300):
        row = driver.row()
        if row["status"] == "finished" or (len(ends_checked) == 2 and len(plans_checked) == 2):
            break
        before = len(driver.answers)
        game = ColdWar.from_json(row["state"])
        ending = game.s.phase == "struggle" and game.s.waits == 1
        assert await driver.step()
        for user, seat, seq, answer in driver.answers[before:]:
            lang = user_lang(user)
            public, private = outcome_texts(table, row["id"], seq, seat, lang)
            (action,), = db_query(table.db, "SELECT action FROM actions WHERE game_id = ? AND seq = ?",
                                  (row["id"], seq))
            kind = json.loads(action)["type"]
            if ending and kind == "wait" and len(public) > 1:
                # every outcome of the round's end, condensed at most to its first line
                for text in public + private:
                    first = text.strip().splitlines()[0]
                    assert first[:60] in answer.content, (first, answer.content)
                ends_checked.add(lang)
            if kind == "agent" and private and answer.message.channel_id == fake.dm_channel(user).id:
                await driver.published()
                await asyncio.sleep(0.3)
                later = [m for m in fake.dm_messages(user) if m.id > answer.message.id]
                for text in private:
                    assert text in answer.content
                    assert not any(text in m.content for m in later), (text, [m.content for m in later])
                plans_checked.add(lang)
    assert ends_checked == {"en", "ru"}, ends_checked
    assert plans_checked == {"en", "ru"}, plans_checked
    await table.close()
    assert_clean_output(table.output())


def board_uploads(table: Table, since: float, until: float | None = None) -> list[tuple[float, int]]:
    """(time, bytes) of every PNG the bot uploaded to the game's channel in the window."""
    out = []
    for r in table.fake.requests_matching(f"/channels/{table.channel.id}/messages"):
        if r.at < since or (until is not None and r.at > until) or r.status >= 300:
            continue
        out += [(r.at, f.size) for f in r.files if f.is_png]
    return out


@pytest.mark.e2e
@pytest.mark.parametrize("host_locale", ["en-US", "ru"])
async def test_a_godstorm_turn_uploads_the_board_coalesced(tmp_path: Path, host_locale: str) -> None:
    """Moves of one turn a few tenths of a second apart: the channel post is edited and the board
    uploaded at most once per ``PUBLISH_INTERVAL``, and once more when the turn ends, whose post
    shows the board after the turn's last move."""
    interval = 1.5
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"alice": host_locale},
                                 extra_env={"PUBLISH_INTERVAL": str(interval)})
        lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob"])
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=30)
        player = RiskPlayer(table)
        while True:  # the set-up: players alternate, so every move is posted at once
            _row, game = player.game()
            if game.s.phase == "turn" and game.s.battle is None:
                break
            assert await player.step()
            await player.wait_published()
        first = game.actors()[0]
        start_seq = player.row()["seq"]
        started = time.monotonic()
        moves = 0
        while True:
            _row, game = player.game()
            if game.s.phase == "turn" and game.actors() != [first]:
                break
            assert await player.step()
            moves += 1
            await asyncio.sleep(0.3)  # a brisk player
        ended = time.monotonic()
        await player.wait_published()
        row = player.row()
        uploads = board_uploads(table, started, ended)
        assert moves >= 4
        # at most one upload per interval while the turn went on (plus the one that may start it)
        assert len(uploads) <= (ended - started) / interval + 2, (len(uploads), moves, ended - started)
        assert len(uploads) < moves
        # the turn's end is always published: the newest post carries the board of the last move
        post = turn_posts(table)[-1]
        assert post.attachments[0].filename.endswith(f"-{row['seq']}.png"), (post.attachments[0].filename, row["seq"])
        assert row["seq"] > start_seq
        await table.bot.stop()
        assert_clean_output(table.bot.output())


def lang_of(user: Any) -> str:
    return "ru" if str(user.locale).startswith("ru") else "en"


async def choose(fake: FakeDiscord, user: Any, message: Any, label: str) -> Any:
    """Pick the select option or press the button whose label starts with ``label``."""
    for select in message.selects:
        for option in select["options"]:
            if option["label"].startswith(label):
                return await fake.select(user, message, values=[option["value"]], custom_id=select["custom_id"])
    return await fake.click(user, message, label=label)


def single_option_selects(message: Any) -> list[Any]:
    return [s for s in message.selects if len(s.get("options") or []) == 1]


@pytest.mark.e2e
@pytest.mark.parametrize("host_locale", ["en-US", "ru"])
async def test_godstorm_set_up_in_two_decisions_and_no_select_with_one_option(shared_bot: SharedBot,
                                                                                host_locale: str) -> None:
    """The rulebook's set-up (risk-godstorm.ru.txt): "каждый игрок располагает по 3 армии на территориях
    которые он контролирует ... Продолжите расположение таким образом до тех пор, пока все войска не
    будут расположены" - round after round. The panel also offers every remaining army at once on one
    territory, or spread automatically: one player takes "automatically", the other "all remaining" on
    a territory, and the placement is over in two decisions. No panel on the way shows a select with a
    single option (when the turn's reinforcements are the only move, all under "Place", the panel starts
    at the territories)."""
    other = "ru" if host_locale == "en-US" else "en-US"
    table = shared_table(shared_bot, ["alice", "bob"], locales={"alice": host_locale, "bob": other})
    fake = table.fake
    lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    player = RiskPlayer(table)
    while player.game()[1].s.phase != "setup_place":
        assert await player.step()
    await player.wait_published()
    row, game = player.game()
    decisions_before = row["seq"]
    ways = ["auto", "all"]
    while game.s.phase == "setup_place":
        seat = game.actors()[0]
        user = player.user_of(row, seat)
        lang = lang_of(user)
        reserve = game.s.players[seat].reserve
        hand = await fake.slash(user, table.channel, "game hand")
        assert hand.ephemeral and not single_option_selects(hand.message)
        way = ways.pop(0)
        if way == "auto":
            r = await choose(fake, user, hand.message, t("godstorm.act.place_auto", lang, n=reserve))
            assert r.content.startswith("✅"), r.content
            who = game._who(seat, lang)
            assert t("godstorm.evt.placed_auto", lang, who=who, n=reserve, where="").rstrip(": .") in r.content
        else:
            current = await choose(fake, user, hand.message, t("godstorm.act.place", lang))
            for _ in range(3):  # a continent, then the territory, then the counts
                assert not single_option_selects(current.message), current.message.selects
                labels = [b.get("label", "") for b in current.message.buttons]
                everything = t("godstorm.act.place_all", lang, n=reserve)
                if everything in labels:
                    r = await fake.click(user, current.message, label=everything)
                    break
                options = current.message.selects[0]["options"]
                current = await fake.select(user, current.message, values=[options[0]["value"]],
                                            custom_id=current.message.selects[0]["custom_id"])
            else:
                raise AssertionError("no 'all remaining' choice reached")
            assert r.content.startswith("✅"), r.content
        await player.wait_published()
        row, game = player.game()
        assert game.s.players[seat].reserve == 0
    assert row["seq"] - decisions_before == 2 and not ways
    # on to the first reinforcements: every army under "Place", the panel starts at the territories
    for _ in range(60):
        row, game = player.game()
        s = game.s
        if s.phase == "turn" and s.pending > 0 and s.battle is None and s.move is None:
            break
        assert await player.step()
    else:
        raise AssertionError("no reinforcement step reached")
    seat = game.actors()[0]
    user = player.user_of(row, seat)
    lang = lang_of(user)
    game.seat_names = [table.by_id(users[0]).name for users in row["seat_users"]]
    roots = list(dict.fromkeys(game.panel_path(seat, a, lang)[0] for a in game.panel_actions(seat, lang)))
    hand = await fake.slash(user, table.channel, "game hand")
    assert hand.message.selects and not single_option_selects(hand.message)
    if roots == [t("godstorm.act.place", lang)]:  # one kind of move: its level is skipped
        assert f"**{roots[0]}**" in hand.content, hand.content
    else:
        assert [o["label"] for o in hand.message.selects[0]["options"]] == roots
    await table.close()
    assert_clean_output(table.output())


async def test_a_panel_opened_from_the_channel_button_keeps_its_controls(shared_bot: SharedBot) -> None:
    """The turn post's "My hand & move" button opens the seat's panel as the click's original response;
    a choice on it is answered in place with the seat's next decision, and that panel keeps its
    controls (the live-panel bookkeeping took it for an older panel and stripped it: "Your turn:
    recruit" with no buttons)."""
    table = shared_table(shared_bot, ["alice", "bob"])
    fake = table.fake
    lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    checked = 0
    for _ in range(16):
        row = game_row(table.db, table.channel.id)
        seat = game_class("godstorm").from_json(row["state"]).actors()[0]
        user = table.by_id(row["seat_users"][seat][0])
        seq = row["seq"]
        await fake.wait_for(lambda s=seq: s <= game_row(table.db, table.channel.id)["published_seq"], timeout=30)
        post = last_turn_post(table)
        opened = await fake.click(user, post, custom_id=custom_ids(post, "tt:p:")[0])
        panel = latest_panel([opened.message]) if opened.message is not None else None
        if panel is None:
            continue
        r = await play_panel(fake, user, panel)
        assert r.answered.startswith("✅"), r.answered
        after = game_row(table.db, table.channel.id)
        if seat in game_class("godstorm").from_json(after["state"]).actors() and r.message is not None:
            await asyncio.sleep(1.0)  # the bookkeeping runs in the background, after the answer
            assert latest_panel([fake.message(r.message.id)]) is not None, "the clicked panel lost its controls"
            checked += 1
    assert checked >= 3
    await table.close()
