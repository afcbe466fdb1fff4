"""Godstorm standing preferences end to end (issue 10): the real bot against the fake Discord.

A running three-player game is given a hand-built position (seat 0 to attack Iberia, held by seat 1 with
3 armies, from Gaul). The defender, while it is NOT their turn, sets a preference:

* "ask me" from their private panel (``/game hand`` shows "not your turn" and the preferences section,
  whose ⚙️ button opens them in place: issue 25);
  then they are attacked, asked for 1 or 2 dice in a DM panel, and answer 1;
* "always one" by ``/risk prefs`` (Russian players: the answer is in Russian and shows the setting); then
  the attack rolls at once with one defending die and nobody is asked.

Neither change is announced in the channel, and each is a logged action of the defender's seat.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from bot.games.godstorm import Godstorm
from bot.games.godstorm.scenario import put
from tests.e2e.helpers import (
    Table,
    assert_clean_output,
    custom_ids,
    db_query,
    game_row,
    make_table,
    open_lobby,
    start_lobby,
    turn_posts,
)
from tests.e2e.test_godstorm_miracles_e2e import channel_text, drive, inject, seat_user, stored
from tests.fake_discord import FakeDiscord
from tests.godstorm.miracle_kit import game as kit_game

pytestmark = pytest.mark.e2e

NAMES = ["alice", "bob", "carol"]


async def started(fake: FakeDiscord, tmp_path: Path, lang: str) -> Table:
    locale = "ru" if lang == "ru" else "en-US"
    table = await make_table(fake, tmp_path, NAMES, locales={n: locale for n in NAMES})
    lobby = await open_lobby(table, "alice", "godstorm", NAMES)
    await start_lobby(table, "alice", lobby)
    await fake.wait_for(lambda: turn_posts(table), timeout=30)
    return table


def attack_position() -> Godstorm:
    """Seat 0's invasion step: Gaul (9) borders Iberia (seat 1, 3 armies); seat 1 holds no Sky card."""
    g = kit_game(step="invade")
    put(g, "Gaul", 0, 9)
    put(g, "Iberia", 1, 3)
    return g


def last_action(table: Table) -> tuple[int, int, dict[str, Any], list[dict[str, Any]]]:
    gid = game_row(table.db, table.channel.id)["id"]
    seq, seat, action, events = db_query(
        table.db, "SELECT seq, seat, action, events FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
        (gid,))[0]
    return seq, seat, json.loads(action), json.loads(events)


async def attack(fake: FakeDiscord, table: Table) -> None:
    r = await fake.slash(seat_user(table, 0), table.channel, "risk attack",
                         options={"from": "Gaul", "to": "Iberia", "dice": 3})
    assert r.ephemeral and r.content.startswith("✅"), r.content


async def test_ask_me_from_the_panel_off_turn_then_asked_for_one_or_two_dice(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await started(fake, tmp_path, "en")
        await inject(table, attack_position())
        defender = seat_user(table, 1)
        seq = game_row(table.db, table.channel.id)["seq"]
        # not their turn: the panel says so, and still offers the standing preferences
        hand = await fake.slash(defender, table.channel, "game hand")
        assert hand.ephemeral and hand.message is not None
        assert t("panel.waiting", "en") in hand.content, hand.content
        now = t("prefs.now.both", "en", dice=t("godstorm.ui.pref_most", "en"), answer=t("prefs.answer.ask", "en"))
        assert now in hand.content, hand.content
        ask = t("godstorm.ui.pref_ask", "en")
        # behind one ⚙️ button (issue 25), not a button each: it opens them in place, in the same message
        labels = [str(b.get("label")) for b in hand.message.buttons]
        assert labels == [t("prefs.button", "en")], labels
        settings = await fake.click(defender, hand.message, label=t("prefs.button", "en"))
        assert settings.message is not None and settings.message.id == hand.message.id
        assert t("prefs.menu", "en") in settings.content and now in settings.content, settings.content
        labels = [str(b.get("label")) for b in settings.message.buttons]
        assert any(ask in x for x in labels) and any(t("godstorm.m.act.pref_never", "en") in x for x in labels), labels
        # back leads to the first level, and ⚙️ again to the settings
        back = await fake.click(defender, settings.message, label=t("panel.back", "en"))
        assert t("panel.waiting", "en") in back.content and back.message is not None
        assert [str(b.get("label")) for b in back.message.buttons] == [t("prefs.button", "en")]
        settings = await fake.click(defender, back.message, label=t("prefs.button", "en"))
        assert settings.message is not None
        r = await drive(table, defender, settings.message, ask)
        assert r.content.startswith("✅"), r.content
        assert t("godstorm.ui.evt.dice_pref", "en", pref=ask) in r.content, r.content
        assert t("prefs.now.both", "en", dice=ask, answer=t("prefs.answer.ask", "en")) in r.content, r.content
        # the answer is the panel's first level again, with the new setting in words and its ⚙️ button
        assert r.message is not None and r.message.id == hand.message.id and t("panel.waiting", "en") in r.content
        assert [str(b.get("label")) for b in r.message.buttons] == [t("prefs.button", "en")]
        # logged with a seq as the defender's action; the attacker still to act
        g = stored(table)
        assert g.s.dice_pref == {"1": "ask"} and g.actors() == [0] and g.decision() == "turn"
        logged_seq, logged_seat, action, events = last_action(table)
        assert (logged_seq, logged_seat, action) == (seq + 1, 1, {"type": "dice_pref", "pref": "ask"})
        assert all(e.get("to") == [1] for e in events), events  # private, no prompt for anyone
        # the attack: the defender is asked in a DM panel for 1 or 2 dice, and answers 1
        await attack(fake, table)
        g = stored(table)
        assert g.decision() == "defend" and g.actors() == [1]
        one, two = t("godstorm.ui.act.defend", "en", n=1), t("godstorm.ui.act.defend", "en", n=2)
        panel = await _dm_panel(fake, table, defender, one)
        assert two in str(panel.all_components()), panel.all_components()
        r = await drive(table, defender, panel, one)
        assert r.content.startswith("✅"), r.content
        g = stored(table)
        assert g.decision() in ("turn", "move_in") and g.actors() == [0]
        _, seat, action, events = last_action(table)
        rolls = [e for e in events if e.get("type") == "roll"]
        assert (seat, action) == (1, {"type": "defend", "dice": 1}) and len(rolls[0]["dfn"]) == 1, events
        await fake.wait_for(lambda: game_row(table.db, table.channel.id)["published_seq"]
                            >= game_row(table.db, table.channel.id)["seq"], timeout=30)
        assert t("godstorm.ui.evt.dice_pref", "en", pref=ask) not in channel_text(table)
        assert_clean_output(table.bot.output())


async def _dm_panel(fake: FakeDiscord, table: Table, user: Any, text: str) -> Any:
    def find() -> Any | None:
        for m in reversed(fake.dm_messages(user)):
            if custom_ids(m, "tt:a:") and text in str(m.all_components()):
                return m
        return None

    return await fake.wait_for(find, timeout=30)


async def test_standing_always_one_set_by_command_is_applied_without_a_question(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await started(fake, tmp_path, "ru")
        await inject(table, attack_position())
        defender = seat_user(table, 1)
        seq = game_row(table.db, table.channel.id)["seq"]
        one = t("godstorm.ui.pref_one", "ru")
        r = await fake.slash(defender, table.channel, "risk prefs", options={"dice": "one", "answer": "never"})
        assert r.ephemeral and r.content.startswith("✅"), r.content
        assert t("prefs.now.both", "ru", dice=one, answer=t("prefs.answer.never", "ru")) in r.content, r.content
        g = stored(table)
        assert g.s.dice_pref == {"1": "one"} and g.s.mir is not None and g.s.mir.never[1]
        assert g.actors() == [0] and game_row(table.db, table.channel.id)["seq"] == seq + 2
        # asked again with nothing to change: the setting, and no new action
        r = await fake.slash(defender, table.channel, "risk prefs")
        assert r.ephemeral and t("prefs.cmd.unchanged", "ru") in r.content and one in r.content, r.content
        assert game_row(table.db, table.channel.id)["seq"] == seq + 2
        # the setting it already has: nothing is logged
        r = await fake.slash(defender, table.channel, "risk prefs", options={"dice": "one"})
        assert t("prefs.cmd.unchanged", "ru") in r.content and game_row(table.db, table.channel.id)["seq"] == seq + 2
        # the attack rolls at once: one defending die with 3 armies, and the defender is not asked
        dms_before = len(fake.dm_messages(defender))
        await attack(fake, table)
        g = stored(table)
        assert g.decision() in ("turn", "move_in") and g.actors() == [0]
        _, seat, action, events = last_action(table)
        rolls = [e for e in events if e.get("type") == "roll"]
        assert seat == 0 and action["type"] == "attack" and len(rolls) == 1 and len(rolls[0]["dfn"]) == 1, events
        assert not any(e.get("type") == "defence_asked" for e in events)
        await fake.wait_for(lambda: game_row(table.db, table.channel.id)["published_seq"]
                            >= game_row(table.db, table.channel.id)["seq"], timeout=30)
        asked = t("godstorm.ui.act.defend", "ru", n=1)
        assert not any(asked in str(m.all_components()) for m in fake.dm_messages(defender)[dms_before:])
        text = channel_text(table)
        assert t("godstorm.ui.evt.dice_pref", "ru", pref=one) not in text
        assert t("godstorm.m.evt.answer_pref.never", "ru") not in text
        assert_clean_output(table.bot.output())
