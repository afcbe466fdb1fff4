"""The ↩ wherever a player sees their own latest move (issue 27): the DM panels the publisher sends or
refreshes, ``/risk``'s answers, and when it is gone.

The rules, from the issue and the architecture's "Takebacks": a ↩ is offered while the seat's own move is
the latest of the game (on a panel) or under that move's confirmation, when the move can be undone at once
(it revealed nothing) or, in mode ``agree``, asked for (the caller still has requests left); never with
takebacks off or in mode ``own`` past a reveal. A ↩ is signed at the seat's stamp: once the seat acts again
or anything is taken back, the old one is refused ("no longer available").

The toy game here is ``Streak`` (tests/panels/games.py): a seat adds three times, and its third addition
hands the turn on, which reveals (the other seat is now asked to act); the first two reveal nothing."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core.session import Session
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app.delivery import Publisher
from bot.games import registry
from tests.platform.toy import toy_manifest
from tests.takeback.common import undo_buttons

ADD = {"type": "add", "n": 1}
ALICE, BOB = UserInfo(1, "alice"), UserInfo(2, "bob", lang="ru")


# ---- stand-ins for Discord (as in tests/panels/test_panels.py) ------------------------------------
class Channel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.sent: list[dict[str, Any]] = []
        self.edits: list[tuple[int, dict[str, Any]]] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=self.id * 1000 + len(self.sent))

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits.append((message_id, kwargs))

        return Partial()


class Client:
    def __init__(self) -> None:
        self.channels: dict[int, Channel] = {}

    def get_channel(self, channel_id: int) -> Channel:
        return self.channels.setdefault(channel_id, Channel(channel_id))

    async def create_dm(self, user: Any) -> Channel:
        return self.get_channel(-user.id)


class Ephemeral:
    """An ephemeral answer's interaction (``/game hand``, a ``/risk`` command), as the live panels use it."""

    def __init__(self, user_id: int, interaction_id: int) -> None:
        self.id = interaction_id
        self.user = SimpleNamespace(id=user_id)
        self.guild_id = 1
        self.message = None

        self.stripped: list[dict[str, Any]] = []

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.stripped.append(kwargs)


@dataclass
class Table:
    store: Store
    sessions: SessionManager
    session: Session
    client: Client
    publisher: Publisher

    def user(self, seat: int) -> int:
        assert self.session.row.seat_users is not None
        return self.session.row.seat_users[seat][0]

    def dm(self, seat: int) -> Channel:
        return self.client.get_channel(-self.user(seat))


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest("tests.panels.games:Streak"))
    store = await Store.open(tmp_path / "p.sqlite3")
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=7, host=ALICE, game_key="toy", options={})
    await sessions.join(session.id, BOB)
    await sessions.set_takebacks(session.id, ALICE.id, "own", None)
    await sessions.start(session.id, ALICE.id, seed=5)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    try:
        yield Table(store, sessions, session, client, publisher)
    finally:
        await publisher.idle()
        await store.close()


def last_view(channel: Channel) -> discord.ui.View | None:
    """The view of the channel's latest panel: its last edit, else its last message."""
    if channel.edits:
        return channel.edits[-1][1].get("view")
    return channel.sent[-1].get("view") if channel.sent else None


async def moved_elsewhere(table: Table, seat: int) -> None:
    """``seat`` adds 1 through an ephemeral answer (``/game hand``, ``/risk``): its DM panel follows."""
    await table.sessions.act(table.session.id, table.user(seat), seat, ADD)
    interaction = Ephemeral(table.user(seat), 500 + table.session.row.seq)
    table.publisher.panels.answered(interaction, table.session, seat, None)  # type: ignore[arg-type]
    await table.publisher.idle()


# ---- what is offered -------------------------------------------------------------------------------
async def test_the_offer_follows_the_mode_and_the_log(table: Table) -> None:
    sessions, session = table.sessions, table.session
    assert session.game is not None
    seat = session.game.actors()[0]
    other = 1 - seat
    me, them = table.user(seat), table.user(other)
    assert await sessions.undo_offer(session, seat, me) is None  # no move of its own yet
    await sessions.act(session.id, me, seat, ADD)
    first = session.row.seq
    assert await sessions.undo_offer(session, seat, me) == first  # revealed nothing: undone at once
    assert await sessions.undo_offer(session, other, them) is None  # not their move
    assert await sessions.undo_offer(session, seat, them) is None  # not their seat
    await sessions.act(session.id, me, seat, ADD)
    second = session.row.seq
    assert await sessions.undo_offer(session, seat, me) == second
    assert (await sessions.takeback(session.id, me, seat)).done
    # the move before it is now the seat's latest: its ↩ comes back
    assert await sessions.undo_offer(session, seat, me) == first
    await sessions.act(session.id, me, seat, ADD)
    await sessions.act(session.id, me, seat, ADD)  # the third: the turn passes, which reveals
    third = session.row.seq
    assert session.game.actors() == [other]
    assert await sessions.undo_offer(session, seat, me) is None  # mode "own": past a reveal, nothing
    await sessions.set_takebacks(session.id, ALICE.id, "agree", None)
    assert await sessions.undo_offer(session, seat, me) == third  # mode "agree": it can be asked for
    await sessions.set_takebacks(session.id, ALICE.id, "agree", 0)
    assert await sessions.undo_offer(session, seat, me) is None  # no requests left
    await sessions.set_takebacks(session.id, ALICE.id, "agree", 3)
    await sessions.act(session.id, them, other, ADD)
    assert await sessions.undo_offer(session, seat, me) is None  # a panel no longer right after it
    assert await sessions.undo_offer(session, seat, me, latest=False) == third  # its confirmation: ask
    assert await sessions.undo_offer(session, other, them) == session.row.seq
    await sessions.set_takebacks(session.id, ALICE.id, "off", None)
    assert await sessions.undo_offer(session, other, them) is None


# ---- the DM panel --------------------------------------------------------------------------------
async def test_the_dm_panel_after_a_move_elsewhere_offers_undo_and_a_stale_one_is_refused(table: Table) -> None:
    sessions, session = table.sessions, table.session
    await table.publisher.publish(session.id)
    await table.publisher.idle()
    assert session.game is not None
    seat = session.game.actors()[0]
    me = table.user(seat)
    dm = table.dm(seat)
    assert len(dm.sent) == 1 and undo_buttons(dm.sent[0]["view"]) == []  # no move of its own yet
    await moved_elsewhere(table, seat)
    old, = undo_buttons(last_view(dm))
    assert (old.seat, old.stamp, old.seq) == (seat, session.row.seat_counts[seat], session.row.seq)
    await moved_elsewhere(table, seat)
    new, = undo_buttons(last_view(dm))
    assert (new.stamp, new.seq) == (old.stamp + 1, old.seq + 1)
    assert len(dm.sent) == 1  # refreshed in place, not sent again
    seq = session.row.seq
    with pytest.raises(SessionError) as stale:  # the ↩ of the panel before: the seat has moved since
        await sessions.takeback(session.id, me, old.seat, from_seq=old.seq, stamp=old.stamp)
    assert stale.value.key == "takeback.err.stale" and session.row.seq == seq
    done = await sessions.takeback(session.id, me, new.seat, from_seq=new.seq, stamp=new.stamp)
    assert done.done and done.moves == [new.seq]
    with pytest.raises(SessionError) as twice:  # the same ↩ clicked again: applied once
        await sessions.takeback(session.id, me, new.seat, from_seq=new.seq, stamp=new.stamp)
    assert twice.value.key == "takeback.err.stale"


async def test_the_dm_panel_loses_undo_once_the_move_revealed(table: Table) -> None:
    session = table.session
    await table.publisher.publish(session.id)
    await table.publisher.idle()
    assert session.game is not None
    seat = session.game.actors()[0]
    for _ in range(2):
        await moved_elsewhere(table, seat)
    assert len(undo_buttons(last_view(table.dm(seat)))) == 1
    await moved_elsewhere(table, seat)  # the third addition hands the turn on (mode "own": no ↩ past a reveal)
    assert session.game.actors() == [1 - seat]
    assert table.dm(seat).edits and undo_buttons(last_view(table.dm(seat))) == []


async def test_the_dm_panel_sent_after_an_agreed_takeback_offers_undo(table: Table) -> None:
    """The publisher's own DM (a seat prompted again by a takeback) carries the ↩ of the seat's latest move."""
    sessions, session = table.sessions, table.session
    await sessions.set_takebacks(session.id, ALICE.id, "agree", None)
    assert session.game is not None
    seat = session.game.actors()[0]
    me, them = table.user(seat), table.user(1 - seat)
    for _ in range(3):
        await sessions.act(session.id, me, seat, ADD)
    third = session.row.seq
    await table.publisher.publish(session.id)
    await table.publisher.idle()
    assert undo_buttons(last_view(table.dm(1 - seat))) == []  # the other seat's panel: not its move
    asked = await sessions.takeback(session.id, me, seat)
    assert asked.request is not None and asked.moves == [third]
    assert (await sessions.answer_takeback(session.id, them, asked.request["id"], True)).done
    await table.publisher.publish(session.id)
    await table.publisher.idle()
    panel = table.dm(seat).sent[-1]
    offer, = undo_buttons(panel["view"])
    assert (offer.seq, offer.stamp) == (third - 1, session.row.seat_counts[seat])  # its second addition


async def test_an_ephemeral_shown_after_a_dm_panel_keeps_its_undo(table: Table) -> None:
    """A DM panel's bookkeeping (in the background) retires the ephemeral panels shown before it, not one
    the player opened after it (``/game hand`` right after the DM came): that one keeps its controls, its ↩
    among them. One shown before the DM panel is retired as ever."""
    session = table.session
    assert session.game is not None
    seat = session.game.actors()[0]
    me = table.user(seat)
    await table.sessions.act(session.id, me, seat, ADD)
    dm_sent = time.monotonic()
    hand = Ephemeral(me, 601)
    table.publisher.panels.answered(hand, session, seat, None)  # type: ignore[arg-type]
    await table.publisher.idle()
    channel = table.dm(seat)
    await table.publisher.panels.dm_shown(session, me, seat, channel, 9001, session.row.seat_counts[seat],
                                          shown_at=dm_sent)
    assert hand.stripped == []
    await table.publisher.panels.dm_shown(session, me, seat, channel, 9002, session.row.seat_counts[seat],
                                          shown_at=time.monotonic())
    assert hand.stripped == [{"view": None}]


async def test_admin_actions_stay_the_moderators_beside_the_players_undo(table: Table) -> None:
    """The ↩ is every player's (a DM click, outside the game's channel: tests/e2e/test_takeback_e2e.py), and
    the moderators' actions keep their check: a player who is not the host is refused in the channel."""
    from bot.discord_app.custom_ids import AdminId  # noqa: PLC0415
    from cogs.controls import HANDLERS, ControlsCog  # noqa: PLC0415

    cog = ControlsCog(SimpleNamespace(sessions=table.sessions))  # type: ignore[arg-type]
    player = SimpleNamespace(channel_id=table.session.row.channel_id, guild_id=1, user=SimpleNamespace(id=BOB.id),
                             permissions=None)
    with pytest.raises(SessionError) as refused:
        await HANDLERS[AdminId](cog, player, table.session, AdminId(table.session.id, "0" * 16))
    assert refused.value.key == "err.moderator_only"
