"""Godstorm miracle cards end to end (issue 10): the real bot against the fake Discord.

A running three-player game is given a hand-built position (the bot is stopped, the stored state replaced,
the bot started again), then: the attacker declares an attack with ``/risk attack``; the defender, holding
a Sky card, gets a response window — the attacker is told it waits for an answer and ``/game status`` says
so — and plays the card from their DM panel; "no answer" from the DM panel lets the attack roll; a window
left alone times out into "no answer"; a War card played from the attacker's panel is announced in the
channel with its name and text.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from bot.games.godstorm import Godstorm
from bot.games.godstorm.miracles import CARDS
from bot.games.godstorm.scenario import put
from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    game_row,
    make_table,
    open_lobby,
    start_lobby,
    turn_posts,
)
from tests.fake_discord import FakeDiscord
from tests.godstorm.miracle_kit import game as kit_game
from tests.godstorm.miracle_kit import give

pytestmark = pytest.mark.e2e


async def started(fake: FakeDiscord, tmp_path: Path) -> Table:
    table = await make_table(fake, tmp_path, ["alice", "bob", "carol"])
    lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob", "carol"])
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    return table


def seat_user(table: Table, seat: int) -> Any:
    return table.by_id(game_row(table.db, table.channel.id)["seat_users"][seat][0])


async def inject(table: Table, g: Godstorm) -> None:
    """Replace the stored game with ``g`` while the bot is down, then start it again."""
    await table.bot.kill()
    con = sqlite3.connect(table.db)
    con.execute("UPDATE games SET state = ? WHERE channel_id = ?", (g.to_json_text(), table.channel.id))
    con.commit()
    con.close()
    await table.bot.start(timeout=60)


def stored(table: Table) -> Godstorm:
    return Godstorm.from_json(game_row(table.db, table.channel.id)["state"])


async def drive(table: Table, user: Any, message: Any, *wanted: str, max_depth: int = 6) -> Any:
    """Click down a panel: at each level the button or select option whose label holds the next of
    ``wanted`` (once they are used up, the first option), until an action is applied."""
    current = message
    todo = list(wanted)
    for _ in range(max_depth):
        buttons = [b for b in current.buttons if str(b.get("custom_id", "")).startswith("tt:a:")]
        selects = [c for c in current.selects if str(c.get("custom_id", "")).startswith("tt:n:")]
        want = todo[0] if todo else None
        hit_button = next((b for b in buttons if want and want in str(b.get("label", ""))), None)
        if hit_button is not None or (buttons and not selects):
            button = hit_button or buttons[0]
            todo = todo[1:] if hit_button is not None else todo
            return await table.fake.click(user, current, custom_id=button["custom_id"])
        assert selects, f"no controls on {current!r}: {current.content[:300]}"
        options = selects[0]["options"]
        hit = next((o for o in options if want and want in str(o.get("label", ""))), None)
        if hit is not None:
            todo = todo[1:]
        option = hit or options[0]
        r = await table.fake.select(user, current, values=[option["value"]], custom_id=selects[0]["custom_id"])
        if r.answered.startswith(("✅", "⛔")):
            return r
        current = r.message
    raise AssertionError("the panel did not reach an action")


async def dm_panel_with(table: Table, user: Any, text: str, timeout: float = 20) -> Any:
    """The newest DM to ``user`` with action controls whose components mention ``text``."""

    def find() -> Any | None:
        for m in reversed(table.fake.dm_messages(user)):
            if (custom_ids(m, "tt:a:") or custom_ids(m, "tt:n:")) and text in str(m.all_components()):
                return m
        return None

    return await table.fake.wait_for(find, timeout=timeout)


def channel_text(table: Table) -> str:
    return "\n".join(m.content for m in table.fake.channel_messages(table.channel))


def sky_position(answer_s: int) -> Godstorm:
    """Seat 0 attacks from Gaul; seat 1 defends Iberia and Alemannia, holds the Sky god and a Sky card."""
    g = kit_game(step="invade")
    put(g, "Gaul", 0, 9)
    put(g, "Iberia", 1, 3)
    put(g, "Alemannia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    give(g, 1, "men_become_warriors")
    give(g, 1, "men_become_warriors")
    assert g.s.mir is not None
    g.s.mir.answer_s = answer_s
    return g


async def test_sky_answer_from_a_dm_while_the_attacker_waits_then_no_answer(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await started(fake, tmp_path)
        await inject(table, sky_position(600))
        attacker, defender = seat_user(table, 0), seat_user(table, 1)
        r = await fake.slash(attacker, table.channel, "risk attack", options={"from": "Gaul", "to": "Iberia", "dice": 3})
        assert r.answered.startswith("✅"), r.content
        assert "may answer the attack from Gaul on Iberia" in r.content, r.content  # the attacker is told it waits
        status = await fake.slash(attacker, table.channel, "game status")
        assert "Waiting for the answer" in status.content + str(status.message.embeds), status.content
        g = stored(table)
        assert g.decision() == "answer" and g.actors() == [1]
        # the defender answers from their DM panel with the Sky card
        name = CARDS["men_become_warriors"].name["en"]
        panel = await dm_panel_with(table, defender, name)
        r = await drive(table, defender, panel, name)
        assert r.answered.startswith("✅"), r.content
        g = stored(table)
        assert g.s.terr["Iberia"].armies == 3 + 3  # «Gain 3 armies in the defending territory»
        assert g.decision() == "answer" and g.actors() == [1]  # the window stays open for more Sky cards
        await fake.wait_for(lambda: name in channel_text(table), timeout=20)
        assert CARDS["men_become_warriors"].text["en"] in channel_text(table)  # read aloud in the channel
        # the defender has no more to say: "no answer" from the DM panel, and the declared attack rolls
        no = t("godstorm.m.act.no_answer", "en")
        panel = await dm_panel_with(table, defender, no)
        seq = game_row(table.db, table.channel.id)["seq"]
        r = await drive(table, defender, panel, no)
        assert r.answered.startswith("✅"), r.content
        g = stored(table)
        assert g.decision() == "turn" and g.actors() == [0] and game_row(table.db, table.channel.id)["seq"] == seq + 1
        assert 4 <= g.s.terr["Iberia"].armies <= 5  # one roll of 3 dice against 2: at most two lost
        assert_clean_output(table.bot.output())


async def test_a_window_left_alone_times_out_and_a_war_card_is_announced(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await started(fake, tmp_path)
        await inject(table, sky_position(2))
        attacker = seat_user(table, 0)
        r = await fake.slash(attacker, table.channel, "risk attack", options={"from": "Gaul", "to": "Iberia", "dice": 3})
        assert r.answered.startswith("✅"), r.content
        assert stored(table).decision() == "answer"
        # nobody answers: after the window (2 s here) the platform plays "no answer" and the attack rolls
        await fake.wait_for(lambda: stored(table).decision() != "answer", timeout=30)
        g = stored(table)
        assert g.decision() == "turn" and g.actors() == [0]
        assert (9 - g.s.terr["Gaul"].armies) + (3 - g.s.terr["Iberia"].armies) == 2  # one roll: two armies lost

        # a War card from the attacker's panel, in the play step, announced in the channel
        g = kit_game(step="miracle")
        put(g, "Gaul", 0, 4, gods=["war"], temple=True)
        give(g, 0, "the_faithful_gather")
        await inject(table, g)
        name = CARDS["the_faithful_gather"].name["en"]
        hand = await fake.slash(attacker, table.channel, "game hand")
        assert name in str(hand.message.all_components()), hand.content
        assert hand.message.attachments, "the private panel carries the picture of the player's cards"
        # /risk play suggests only the cards playable now (the Death card in hand needs the death god)
        give(g, 0, "the_young_grow_old")
        await inject(table, g)
        hand = await fake.slash(attacker, table.channel, "game hand")
        suggested = await fake.autocomplete(attacker, table.channel, "risk play", focused="card")
        assert [c["value"] for c in suggested] == ["the_faithful_gather"], suggested
        assert await fake.autocomplete(seat_user(table, 1), table.channel, "risk play", focused="card") == []
        r = await drive(table, attacker, hand.message, t("godstorm.m.act.play", "en"), name)
        assert r.answered.startswith("✅"), r.content
        assert stored(table).s.terr["Gaul"].armies == 4 + 2  # «2 armies in each of your temples»
        await fake.wait_for(lambda: name in channel_text(table), timeout=20)
        assert CARDS["the_faithful_gather"].text["en"] in channel_text(table)
        assert_clean_output(table.bot.output())
