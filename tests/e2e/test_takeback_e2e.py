"""End to end (issue 27): takebacks through the real bot process and the fake Discord.

* Godstorm: a misclick that revealed nothing (a move of the player's own turn after which the same player
  still decides; an advance into an empty territory rolls no die) is taken back with the ↩ button under the
  move's confirmation: the stored state is the one before the move, and the old panel is refused.
* Pobeda: a card played on the wrong cell. Its draw is carried out in the same move (the rulebook's turn is
  "play, then draw"), so ↩ asks the other player; they accept in the channel, and the stored state is the
  one before the play, the drawn card back in the deck.
* Godstorm again: the same kind of misclick made through ``/game hand`` and taken back with the ↩ of the DM
  panel, which the publisher brought up to date after the move.
* Cold War: a move taken back at one player's request and accepted by the other.
In each game the replay of the log (with its takeback entry) equals the stored state, and the channel says
who took back how many moves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.core.store import GameSettings
from bot.games.registry import game_class
from tests.e2e.helpers import (
    Table,
    custom_ids,
    db_query,
    game_row,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
)
from tests.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


def state_text(table: Table) -> tuple[int, str]:
    row = db_query(table.db, "SELECT seq, state FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                   (table.channel.id,))[0]
    return int(row[0]), str(row[1])


def actor(table: Table, key: str) -> tuple[int, Any]:
    """The first seat that must act now (from the committed state) and its user."""
    row = game_row(table.db, table.channel.id)
    game = game_class(key).from_json(row["state"])
    seat = game.actors()[0]
    return seat, table.by_id(row["seat_users"][seat][0])


def revealed(key: str, before: str, after: str, seat: int, action: dict[str, Any], events: list[Any]) -> bool:
    cls = game_class(key)
    return cls.from_json(json.loads(after)).reveals(seat, action, events, cls.from_json(json.loads(before)),
                                                   cls.from_json(json.loads(after)))


def last_action(table: Table) -> tuple[int, int, dict[str, Any], list[Any]]:
    seq, seat, action, events = db_query(table.db, "SELECT seq, seat, action, events FROM actions ORDER BY seq DESC"
                                                   " LIMIT 1")[0]
    return int(seq), int(seat), json.loads(action), json.loads(events)


async def settled(table: Table, user: Any) -> None:
    """Everything committed is announced, and a DM panel sent to ``user`` is recorded as their live one:
    its bookkeeping retires the ephemeral panels shown before it, so a ``/game hand`` opened while that
    still runs could lose its controls (the click's ↩ among them) once answered."""
    def done() -> bool:
        row = game_row(table.db, table.channel.id)
        if row["published_seq"] < row["seq"]:
            return False
        if not any(custom_ids(m, "tt:") for m in table.fake.dm_messages(user)):
            return True
        return bool(db_query(table.db, "SELECT 1 FROM messages WHERE game_id = ? AND purpose = ?",
                             (row["id"], f"panel:{user.id}")))

    await table.fake.wait_for(done, timeout=20)


async def move(table: Table, key: str, pick: int = 0) -> tuple[Any, Any, str, int]:
    """The acting player opens ``/game hand`` and plays; returns the click's answer, the user, the state
    stored before the move and the seat."""
    seat, user = actor(table, key)
    await settled(table, user)
    _, before = state_text(table)
    hand = await table.fake.slash(user, table.channel, "game hand")
    assert hand.ephemeral and hand.message is not None, hand.content
    r = await play_panel(table.fake, user, hand.message, pick=pick)
    assert r.answered.startswith("✅"), r.answered
    return r, user, before, seat


def takeback_posts(table: Table) -> list[Any]:
    return [m for m in table.fake.channel_messages(table.channel) if "↩" in (m.content or "")]


def verify(table: Table) -> None:
    from bot.core.replay import replay  # noqa: PLC0415
    from bot.core.store import ActionRow  # noqa: PLC0415

    gid, game, seed, info, options, settings, state = db_query(
        table.db, "SELECT id, game, seed, seat_info, options, settings, state FROM games WHERE channel_id = ?"
        " ORDER BY id DESC LIMIT 1", (table.channel.id,))[0]
    rows = [ActionRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5]) for r in db_query(
        table.db, "SELECT seq, seat, user_id, action, events, created_at FROM actions WHERE game_id = ? ORDER BY seq",
        (gid,))]
    assert any(r.action.get("type") == "platform.takeback" for r in rows)
    rng = GameSettings.from_json(json.loads(settings)).rng_version or 1
    rebuilt = replay(game, json.loads(info), json.loads(options), seed, rows, rng=rng)
    assert json.loads(json.dumps(rebuilt.to_json())) == json.loads(state)


async def test_godstorm_misclick_taken_back_with_the_button(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"bob": "ru"})
        lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob"])
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: game_row(table.db, table.channel.id)["seq"] >= 0, timeout=20)
        for _ in range(150):
            r, user, before, seat = await move(table, "godstorm")
            _, acted_seat, action, events = last_action(table)
            if acted_seat != seat or revealed("godstorm", before, state_text(table)[1], seat, action, events):
                continue
            undo = custom_ids(r.message, "tt:u:")
            assert undo, "no ↩ under the confirmation of a move that revealed nothing"
            back = await fake.click(user, r.message, custom_id=undo[0])
            assert back.answered.startswith("↩"), back.answered
            assert state_text(table)[1] == before  # the position before the misclick, byte for byte
            assert undo[0] not in custom_ids(back.message, "tt:u:")  # the panel in place: the old ↩ is gone
            break
        else:
            raise AssertionError("no Godstorm move that revealed nothing came up")
        await fake.wait_for(lambda: takeback_posts(table), timeout=20)
        verify(table)
        assert "Traceback" not in table.bot.output()


def seat_stamp(table: Table, seat: int) -> tuple[int, int]:
    """The game's id and ``seat``'s stamp (its count of actions) as stored."""
    gid, counts = db_query(table.db, "SELECT id, seat_counts FROM games WHERE channel_id = ? ORDER BY id DESC"
                                     " LIMIT 1", (table.channel.id,))[0]
    return int(gid), int(json.loads(counts)[seat])


async def test_godstorm_misclick_taken_back_from_the_dm_panel(tmp_path: Path) -> None:
    """A move made elsewhere (``/game hand``) brings the player's DM panel up to date, with the ↩ of that
    move (signed at the seat's new stamp); the ↩ used there takes the move back, and the panel, edited in
    place, no longer offers it."""
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"alice": "ru"})
        lobby = await open_lobby(table, "alice", "godstorm", ["alice", "bob"])
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: game_row(table.db, table.channel.id)["seq"] >= 0, timeout=20)
        for _ in range(150):
            _, user, before, seat = await move(table, "godstorm")
            _, acted_seat, action, events = last_action(table)
            if acted_seat != seat or revealed("godstorm", before, state_text(table)[1], seat, action, events):
                continue
            if not any(custom_ids(m, "tt:") for m in fake.dm_messages(user)):
                continue  # no DM panel of this player yet (it comes with their first prompt)
            gid, stamp = seat_stamp(table, seat)
            mine = f"tt:u:{gid}:{seat}:{stamp}:"

            def dm_undo(user: Any = user, mine: str = mine) -> tuple[Any, str] | None:
                for message in reversed(fake.dm_messages(user)):
                    found = [c for c in custom_ids(message, "tt:u:") if c.startswith(mine)]
                    if found:
                        return message, found[0]
                return None

            panel, undo = await fake.wait_for(dm_undo, timeout=20)
            back = await fake.click(user, panel, custom_id=undo)
            assert back.answered.startswith("↩"), back.answered
            assert state_text(table)[1] == before  # the position before the misclick, byte for byte
            assert undo not in custom_ids(fake.message(panel.id), "tt:u:")  # the panel in place: ↩ gone
            break
        else:
            raise AssertionError("no Godstorm move that revealed nothing came up after a DM panel")
        await fake.wait_for(lambda: takeback_posts(table), timeout=20)
        verify(table)
        assert "Traceback" not in table.bot.output()


async def test_pobeda_wrong_cell_taken_back_with_the_other_players_agreement(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"alice": "ru"})
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"])
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: game_row(table.db, table.channel.id)["seq"] >= 0, timeout=20)
        r, user, before, _ = await move(table, "pobeda")
        seq, _, action, _ = last_action(table)
        assert action["type"] == "play"
        undo = custom_ids(r.message, "tt:u:")
        assert undo
        asked = await fake.click(user, r.message, custom_id=undo[0])
        assert asked.answered.startswith("↩"), asked.answered  # the others are asked: the draw was shown
        assert state_text(table)[1] != before
        request = await fake.wait_for(lambda: next((m for m in fake.channel_messages(table.channel)
                                                    if custom_ids(m, "tt:k:")), None), timeout=20)
        other = next(u for u in table.users.values() if u.id != user.id)
        assert f"<@{other.id}>" in request.content
        accept = next(c for c in custom_ids(request, "tt:k:") if ":y:" in c)
        refused = await fake.click(user, request, custom_id=accept)  # the asker cannot answer for the others
        assert refused.content.startswith("⛔") or refused.answered.startswith("⛔")
        done = await fake.click(other, request, custom_id=accept)
        assert done.answered.startswith("✅"), done.answered
        assert state_text(table)[1] == before and state_text(table)[0] == seq + 1
        await fake.wait_for(lambda: any("↩" in (m.content or "") and "tt:k:" not in str(m.components)
                                        for m in fake.channel_messages(table.channel)), timeout=20)
        verify(table)
        assert "Traceback" not in table.bot.output()


async def test_coldwar_request_accepted_by_the_other_player(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], locales={"bob": "ru"})
        lobby = await open_lobby(table, "alice", "coldwar", ["alice", "bob"])
        setting = await fake.slash(table.user("bob"), table.channel, "game takebacks", mode="agree", limit=2)
        assert setting.ephemeral and setting.content.startswith("⛔"), setting.content  # the host's choice
        setting = await fake.slash(table.user("alice"), table.channel, "game takebacks", mode="agree", limit=2)
        assert setting.content.startswith("↩") and "2" in setting.content, setting.content
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: game_row(table.db, table.channel.id)["seq"] >= 0, timeout=20)
        for _ in range(3):
            await move(table, "coldwar")
        _, user, before, _ = await move(table, "coldwar")
        undo = await fake.slash(user, table.channel, "game undo")
        assert undo.ephemeral and undo.content.startswith("↩"), undo.content
        request = await fake.wait_for(lambda: next((m for m in fake.channel_messages(table.channel)
                                                    if custom_ids(m, "tt:k:")), None), timeout=20)
        other = next(u for u in table.users.values() if u.id != user.id)
        done = await fake.click(other, request, custom_id=next(c for c in custom_ids(request, "tt:k:") if ":y:" in c))
        assert done.answered.startswith("✅"), done.answered
        assert state_text(table)[1] == before
        log = await fake.slash(user, table.channel, "game log")  # the log names the takeback where it happened
        assert "↩" in log.content, log.content
        verify(table)
        assert "Traceback" not in table.bot.output()
