"""End to end (issue 27): takebacks through the real bot process and the fake Discord.

* Godstorm: a misclick that revealed nothing (a move of the player's own turn after which the same player
  still decides; an advance into an empty territory rolls no die) is taken back with the ↩ button under the
  move's confirmation: the stored state is the one before the move, and the old panel is refused.
* Pobeda: a card played on the wrong cell from the DM panel, taken back with the ↩ under the move's
  confirmation within the undo window, before the draw (the rulebook's turn "play, then draw" draws on the
  player's ✔): the stored state is the one before the play and no DM named the card that would have been
  drawn; then the right one played and ✔ pressed, and the DM shows the new card.
* Pobeda past the draw: once ✔ showed the new card, ↩ asks the other player; they accept in the channel, the
  stored state is the one before the ✔, and the play itself is then undone alone (``/game undo``).
* Godstorm again: the same kind of misclick made through ``/game hand`` and taken back with the ↩ of the DM
  panel, which the publisher brought up to date after the move.
* Godstorm's attack order before the roll (a new game's undo window): ``/risk attack`` on the wrong territory
  taken back with the ↩ of its answer before the dice are thrown (no post shows them), then the right attack
  declared and rolled with 🎲.
* Cold War: a move taken back at one player's request and accepted by the other.
In each game the replay of the log (with its takeback entry) equals the stored state, and the channel says
who took back how many moves. The tests share one bot process (``shared_bot``), each at a table of its own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core.store import GameSettings
from bot.games.registry import game_class
from tests.e2e.helpers import (
    SharedBot,
    Table,
    choice_ids,
    custom_ids,
    db_query,
    game_row,
    latest_panel,
    open_lobby,
    play_panel,
    shared_table,
    start_lobby,
)
from tests.fake_discord import FakeDiscord

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]  # one bot: the module's (shared_bot)


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
    seq, seat, action, events = db_query(
        table.db, "SELECT seq, seat, action, events FROM actions WHERE game_id = (SELECT id FROM games"
        " WHERE channel_id = ? ORDER BY id DESC LIMIT 1) ORDER BY seq DESC LIMIT 1", (table.channel.id,))[0]
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


async def started(shared_bot: SharedBot, game: str, russian: str) -> Table:
    """Alice and Bob at a table of their own (``russian``: which of them reads Russian), Alice's ``game`` started
    and its first state stored."""
    table = shared_table(shared_bot, ["alice", "bob"], locales={russian: "ru"})
    lobby = await open_lobby(table, "alice", game, ["alice", "bob"])
    await start_lobby(table, "alice", lobby)
    await table.fake.wait_for(lambda: game_row(table.db, table.channel.id)["seq"] >= 0, timeout=20)
    return table


async def test_godstorm_misclick_taken_back_with_the_button(shared_bot: SharedBot) -> None:
    table = await started(shared_bot, "godstorm", russian="bob")
    fake = table.fake
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
    assert "Traceback" not in table.output()


def seat_stamp(table: Table, seat: int) -> tuple[int, int]:
    """The game's id and ``seat``'s stamp (its count of actions) as stored."""
    gid, counts = db_query(table.db, "SELECT id, seat_counts FROM games WHERE channel_id = ? ORDER BY id DESC"
                                     " LIMIT 1", (table.channel.id,))[0]
    return int(gid), int(json.loads(counts)[seat])


async def test_godstorm_misclick_taken_back_from_the_dm_panel(shared_bot: SharedBot) -> None:
    """A move made elsewhere (``/game hand``) brings the player's DM panel up to date, with the ↩ of that
    move (signed at the seat's new stamp); the ↩ used there takes the move back, and the panel, edited in
    place, no longer offers it."""
    table = await started(shared_bot, "godstorm", russian="alice")
    fake = table.fake
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
    assert "Traceback" not in table.output()


def dice_posts(table: Table) -> set[str]:
    """The lines that showed thrown dice anywhere (the channel and every DM, each version of each message). A
    set of lines: an edit of a post that repeats dice shown before (an earlier attack of the turn) shows none."""
    marks = ("] vs [", "] против [")
    texts = [v.text for m in table.fake.channel_messages(table.channel) for v in m.versions]
    texts += [v.text for u in table.users.values() for m in table.fake.dm_messages(u) for v in m.versions]
    return {line for x in texts for line in x.splitlines() if any(mark in line for mark in marks)}


def two_attacks(game: Any, seat: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Two attacks of ``seat`` on different held territories without gods on both sides (no godswar): the
    misclick and the one meant."""
    s = game.s
    seen: dict[str, dict[str, Any]] = {}
    for a in game.legal_actions(seat):
        if a["type"] != "attack" or a["to"] not in s.terr or s.terr[a["to"]].owner is None:
            continue
        if s.terr[a["from"]].gods and s.terr[a["to"]].gods:
            continue
        if a["dice"] == min(3, s.terr[a["from"]].armies - 1):
            seen.setdefault(a["to"], a)
    if len(seen) < 2:
        return None
    right, wrong = sorted(seen.values(), key=lambda a: (s.terr[a["to"]].armies, a["to"]))[:2]
    return wrong, right


async def test_godstorm_attack_on_the_wrong_territory_taken_back_before_the_roll(shared_bot: SharedBot) -> None:
    """A new game's undo window (20 s): ``/risk attack`` on the wrong territory only declares the attack; its
    answer offers 🎲 and ↩; the ↩ puts the stored state back as it was before the declaration and no post
    or DM ever showed dice of it; the right attack is then declared and 🎲 throws its dice."""
    from tests.e2e.godstorm_play import RiskPlayer  # noqa: PLC0415

    table = await started(shared_bot, "godstorm", russian="bob")
    fake = table.fake
    player = RiskPlayer(table)
    options = db_query(table.db, "SELECT options FROM games WHERE channel_id = ?", (table.channel.id,))[0][0]
    assert json.loads(options)["undo_window"] == 20  # a new game's default
    pair = None
    for _ in range(400):
        row, game = player.game()
        s = game.s
        if row["status"] != "running":
            break
        if (s.phase == "turn" and s.step == "invade" and s.pending == 0 and s.move is None and s.battle is None
                and s.declared is None and s.defend is None and game.actors() == [s.current]):
            pair = two_attacks(game, s.current)
            if pair is not None:
                break
        await player.step()
    assert pair is not None, "no turn with two attacks came up"
    wrong, right = pair
    seat = game.s.current
    user = player.user_of(row, seat)
    await settled(table, user)
    seq, before = state_text(table)
    shown = dice_posts(table)
    r = await fake.slash(user, table.channel, "risk attack",
                         options={"from": wrong["from"], "to": wrong["to"], "dice": wrong["dice"]})
    assert r.ephemeral and r.answered.startswith("✅"), r.content
    declared_seq, declared = state_text(table)
    assert declared_seq == seq + 1 and json.loads(declared)["declared"]["to"] == wrong["to"]
    assert json.loads(declared)["rng"] == json.loads(before)["rng"]  # no die thrown
    assert any("🎲" in str(c.get("label", "")) for c in r.message.buttons), r.content  # 🎲 Roll / Бросить
    undo = custom_ids(r.message, "tt:u:")
    assert undo, "no ↩ under the confirmation of a declared attack"
    back = await fake.click(user, r.message, custom_id=undo[0])
    assert back.answered.startswith("↩"), back.answered
    assert state_text(table)[1] == before  # the position before the misclick, byte for byte
    await fake.wait_for(lambda: takeback_posts(table), timeout=20)
    await settled(table, user)
    assert dice_posts(table) == shown  # the wrong attack's dice were never thrown, so never shown
    r = await fake.slash(user, table.channel, "risk attack",
                         options={"from": right["from"], "to": right["to"], "dice": right["dice"]})
    assert r.answered.startswith("✅"), r.content
    assert json.loads(state_text(table)[1])["declared"]["to"] == right["to"]
    dice = [c["custom_id"] for c in r.message.buttons if "🎲" in str(c.get("label", ""))]
    rolled = await fake.click(user, r.message, custom_id=dice[0])
    assert rolled.answered.startswith("✅"), rolled.content
    after = json.loads(state_text(table)[1])
    assert "declared" not in after and after["rng"] != json.loads(before)["rng"]  # the dice were thrown
    _, acted_seat, action, events = last_action(table)
    assert (acted_seat, action["type"]) == (seat, "roll")
    assert any(e.get("type") == "roll" for e in events)
    await fake.wait_for(lambda: dice_posts(table) > shown, timeout=20)  # and shown
    verify(table)
    assert "Traceback" not in table.output()


def button_label(message: Any, custom_id: str) -> str:
    return next(str(c.get("label", "")) for c in message.all_components() if c.get("custom_id") == custom_id)


def shown_in_dms(fake: FakeDiscord, user: Any, words: list[str]) -> bool:
    """Whether any DM to ``user``, in any of its versions (edits included), ever showed one of ``words``."""
    return any(word in version.text for m in fake.dm_messages(user) for version in m.versions for word in words)


async def test_pobeda_wrong_cell_taken_back_before_the_draw_then_the_right_one_confirmed(shared_bot: SharedBot) -> None:
    from bot.core.i18n import t  # noqa: PLC0415
    from bot.games.pobeda.text import card_label  # noqa: PLC0415

    table = await started(shared_bot, "pobeda", russian="alice")
    fake = table.fake
    seat, user = actor(table, "pobeda")
    panel = await fake.wait_for(lambda: latest_panel(fake.dm_messages(user)), timeout=20)
    await settled(table, user)
    seq, before = state_text(table)
    top = json.loads(before)["deck"][-1]  # the card the play's draw would show
    lang = "ru" if user.id == table.user("alice").id else "en"
    drew = t("pobeda.evt.drew", lang, card=card_label(top, lang))  # "You drew: <card>."
    # what would tell the new card: the draw's line, and the card's own name when it is an event card (a
    # special card's name, "+1", may be in the hand already)
    new_card = [drew.split(card_label(top, lang))[0]] + ([card_label(top, lang)] if top.startswith("ev") else [])
    wrong = await play_panel(fake, user, panel, pick=0)
    assert wrong.answered.startswith("✅"), wrong.answered
    _, acted, action, events = last_action(table)
    assert acted == seat and action["type"] == "play" and not any("to" in e for e in events)
    assert json.loads(state_text(table)[1])["deck"] == json.loads(before)["deck"]  # nothing drawn yet
    ok = "✔ Взять карту" if lang == "ru" else "✔ Draw now"  # the ✔, in the player's language
    assert [button_label(wrong.message, c) for c in choice_ids(wrong.message)] == [ok]
    undo = custom_ids(wrong.message, "tt:u:")
    assert undo, "no ↩ under the confirmation of a play within the undo window"
    back = await fake.click(user, wrong.message, custom_id=undo[0])
    assert back.answered.startswith("↩"), back.answered  # undone at once: nobody was asked
    assert state_text(table) == (seq + 2, before)  # the position before the misclick, byte for byte
    assert not any(custom_ids(m, "tt:k:") for m in fake.channel_messages(table.channel))
    await fake.wait_for(lambda: takeback_posts(table), timeout=20)
    await settled(table, user)
    assert not shown_in_dms(fake, user, new_card)  # no DM showed the card the draw would have shown
    right = await play_panel(fake, user, latest_panel(fake.dm_messages(user)), pick=1)
    assert right.answered.startswith("✅"), right.answered
    draw = choice_ids(right.message)
    assert len(draw) == 1
    drawn = await fake.click(user, right.message, custom_id=draw[0])
    assert drawn.answered.startswith("✅"), drawn.answered
    assert drew in drawn.answered, drawn.answered  # the new card, in the DM
    assert shown_in_dms(fake, user, [drew]) and drawn.message.guild_id is None
    state = json.loads(state_text(table)[1])
    assert top in state["hands"][seat] and state["current"] != seat  # drawn, and the turn passed
    verify(table)
    assert "Traceback" not in table.output()


async def test_pobeda_wrong_cell_taken_back_with_the_other_players_agreement(shared_bot: SharedBot) -> None:
    table = await started(shared_bot, "pobeda", russian="alice")
    fake = table.fake
    played, user, before_play, _ = await move(table, "pobeda")
    assert last_action(table)[2]["type"] == "play"
    _, before = state_text(table)  # the play within its undo window
    r = await fake.click(user, played.message, custom_id=choice_ids(played.message)[0])  # ✔: the card drawn
    assert r.answered.startswith("✅"), r.answered
    seq, _, action, _ = last_action(table)
    assert action["type"] == "confirm"
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
    # the ✔ only finished the play: the whole move is taken back, as it was before the play
    assert state_text(table)[1] == before_play and state_text(table)[0] == seq + 1
    await fake.wait_for(lambda: any("↩" in (m.content or "") and "tt:k:" not in str(m.components)
                                    for m in fake.channel_messages(table.channel)), timeout=20)
    verify(table)
    assert "Traceback" not in table.output()


async def test_coldwar_request_accepted_by_the_other_player(shared_bot: SharedBot) -> None:
    table = shared_table(shared_bot, ["alice", "bob"], locales={"bob": "ru"})
    fake = table.fake
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
    assert "Traceback" not in table.output()
