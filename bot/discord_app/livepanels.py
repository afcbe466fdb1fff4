"""One live panel per player: older panels lose their controls, the DM panel stays current.

A player's panel for one game can be on screen in two places: a DM (sent by the publisher when a
decision is theirs) and an ephemeral reply in the channel (``/game hand``, "open my panel", a
``/risk`` command's answer). Whatever way the seat acts, the answer shows the fresh panel in
place, and then:

* every older copy loses its controls (its view is removed): the previous DM panel, the previous
  ephemeral panel;
* the DM panel, when the player acted somewhere else, is edited in place to the current panel
  (no new message, no ping; a second later, once for moves made in a row: ``REFRESH_DELAY``), so
  the next decision always reaches the DM too: the player who
  clicked through ``/risk`` sees an epoch bid in their DMs as well, not only in a reply that a
  phone may have dismissed.

So at any moment a player has at most two messages with controls for a game, both built at the
seat's current stamp: the DM panel and the newest ephemeral reply.

The DM panel is remembered in the ``messages`` table (purpose ``panel:<user>``, with the seat and
stamp it was built at), so it is retired or refreshed after a restart as well. Before a new DM panel
is sent, the stored one is listed in that row's ``stale`` list (:meth:`LivePanels.replacing`), and it
leaves the list only once its controls are gone: a crash at any point between the send and the strip
leaves it listed, and start-up strips it (:meth:`LivePanels.strip_stale`), so a player never keeps two
live DM panels. All of this is housekeeping: it runs in the background, beside the announcements
(``bot/discord_app/delivery.py``), never on their path, and each request has ``HOUSEKEEPING_BUDGET``. An ephemeral reply
can only be edited through the token of the interaction that made it (valid 15 minutes, and a
credential), so it is held in memory only: after a restart, or after 15 minutes, an old ephemeral
keeps its buttons, which answer "no longer available" since the seat's stamp has moved on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.discord_app import limits
from bot.discord_app.discordhttp import Postponed

if TYPE_CHECKING:
    from bot.core.sessions import Session
    from bot.discord_app.delivery import Publisher

log = logging.getLogger(__name__)

EPHEMERAL_TTL = 14 * 60.0
"""Seconds an interaction token may still edit its ephemeral reply (Discord allows 15 minutes)."""
RETIRE_ATTEMPTS = 3
REFRESH_DELAY = 1.0
"""Seconds a DM panel's refresh waits, so the moves a player makes in a row are one refresh (housekeeping:
the player is looking at the panel they clicked, not at their DMs)."""


def purpose(user_id: int) -> str:
    return f"panel:{user_id}"


@dataclass
class Ephemeral:
    """An ephemeral reply carrying a panel, editable through its interaction for a while."""

    interaction: discord.Interaction
    message_id: int | None  # None: the interaction's original response
    stamp: int
    at: float
    shown: int | None = None
    """The id of the message on screen, when known: a click answered in place edits the message of an
    earlier ephemeral (``/game hand``'s), which is then the same panel, not an older one to retire."""

    def key(self) -> tuple[int, int | None]:
        return self.interaction.id, self.message_id

    async def strip(self) -> None:
        if self.message_id is None:
            await self.interaction.edit_original_response(view=None)
        else:
            await self.interaction.followup.edit_message(self.message_id, view=None)


class Superseded(Exception):
    """A refresh of a DM panel gives way to a click on that panel, answered in place with a newer one."""


class LivePanels:
    """Keeps each player's panels in step (see the module docstring)."""

    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher
        self._locks: limits.Lru[tuple[int, int], asyncio.Lock] = limits.Lru(limits.NOTICES)
        # (game, user) -> the newest ephemeral panel, oldest first; entries past EPHEMERAL_TTL can no longer be
        # edited and are dropped (each holds its interaction, with the message it came from)
        self._ephemeral: OrderedDict[tuple[int, int], Ephemeral] = OrderedDict()
        # (game, user) -> the session and seat of a DM panel refresh waiting for REFRESH_DELAY (_refresh_soon)
        self._refreshing: dict[tuple[int, int], tuple[Session, int]] = {}
        # (game, user) -> when their latest click on a DM panel came, answered in place (touching): a refresh
        # built before it must not land after its answer (_refresh_dm); (game, message) -> when a DM panel's
        # controls were last removed: a click's answer stripped after it came is given its controls back
        self._clicked_at: limits.Lru[tuple[int, int], float] = limits.Lru(limits.NOTICES)
        self._stripped_at: limits.Lru[tuple[int, int], float] = limits.Lru(limits.NOTICES)
        # (game, user) whose DM panel may show an older stamp than its row says: a refresh's edit was on its
        # way as a click on that panel was answered, and which of the two Discord kept last is unknown
        self._unsure: set[tuple[int, int]] = set()
        self.refresh_delay = REFRESH_DELAY

    def lock(self, game_id: int, user_id: int) -> asyncio.Lock:
        lock = self._locks.get((game_id, user_id))
        if lock is None:
            lock = asyncio.Lock()
            self._locks[(game_id, user_id)] = lock
        return lock

    # ---- a panel was shown -------------------------------------------------------------
    def touching(self, game_id: int, user_id: int) -> None:
        """A click on the user's DM panel is about to be answered in place (called before its move is
        made): a refresh of that panel not yet sent is dropped, the click's answer being newer."""
        self._clicked_at[(game_id, user_id)] = time.monotonic()

    def answered(self, interaction: discord.Interaction, session: Session, seat: int,
                 message_id: int | None = None, *, in_place: bool = False, shown: int | None = None) -> None:
        """An interaction was answered with ``seat``'s panel: in place on a DM panel (``in_place``
        and a DM), else in an ephemeral reply (``message_id``: a follow-up's id, None: the original
        response; ``shown``: the id of the message on screen when known, so a later click answered
        in place on it is recognised as the same panel). The bookkeeping runs in the background: the
        answer has already gone out."""
        user_id = interaction.user.id
        message = interaction.message
        if in_place and interaction.guild_id is None and message is not None:
            stamp = session.row.seat_counts[seat] if 0 <= seat < len(session.row.seat_counts) else 0
            channel = interaction.channel if getattr(interaction.channel, "id", None) else \
                SimpleNamespace(id=interaction.channel_id or 0)  # stored by id; fetched again to retire it
            self.publisher._background(self.dm_shown(session, user_id, seat, channel, message.id, stamp,
                                                     shown_at=time.monotonic()))
        else:
            if shown is None:
                shown = message.id if in_place and message is not None else message_id
            self.ephemeral_shown(session, user_id, seat, interaction, message_id, shown=shown)

    async def dm_shown(self, session: Session, user_id: int, seat: int, channel: Any, message_id: int,
                       stamp: int | None = None, *, shown_at: float | None = None) -> None:
        """A DM panel was sent (or edited in place by a click on it): it is the live one. ``stamp``: the
        seat's count of actions when the panel was built; the game may have moved on while it was sent
        (the player acting from an ephemeral meanwhile), and then it is brought up to date at once.
        ``shown_at`` (``time.monotonic()``): when it was; an ephemeral panel shown after that, before this
        bookkeeping ran, is the newer one and keeps its controls (its ↩ among them)."""
        async with self.lock(session.id, user_id):
            await self._set_dm(session, user_id, seat, channel, message_id, stamp)
            await self._retire_ephemeral(session.id, user_id, keep=None, before=shown_at)
            stripped = self._stripped_at.get((session.id, message_id))
            clicked = self._clicked_at.get((session.id, user_id))
            if stripped is not None and clicked is not None and stripped >= clicked:
                # a click answered in place on this panel while a new DM panel was on its way: the new one's
                # bookkeeping, run first, took this one's controls away after the click (CI's Cold War e2e).
                # This one, the newer on screen, stays the live panel and is given its controls back
                self._unsure.add((session.id, user_id))
        self._refresh_soon(session, user_id, seat)

    def ephemeral_shown(self, session: Session, user_id: int, seat: int,
                        interaction: discord.Interaction, message_id: int | None, *, shown: int | None = None) -> None:
        """A panel was shown in an ephemeral reply: older ephemerals lose their controls and the DM
        panel is brought up to date (in the background: the answer has already gone out). ``shown``:
        the id of the message on screen, when known (see :attr:`Ephemeral.shown`)."""
        stamp = session.row.seat_counts[seat] if 0 <= seat < len(session.row.seat_counts) else 0
        entry = Ephemeral(interaction, message_id, stamp, time.monotonic(), shown)
        self.publisher._background(self._after_ephemeral(session, user_id, seat, entry))

    async def _after_ephemeral(self, session: Session, user_id: int, seat: int, entry: Ephemeral) -> None:
        async with self.lock(session.id, user_id):
            await self._retire_ephemeral(session.id, user_id, keep=entry)
            self._remember(session.id, user_id, entry)
        self._refresh_soon(session, user_id, seat)

    # ---- the DM panel ------------------------------------------------------------------
    async def replacing(self, game_id: int, user_id: int) -> None:
        """A new DM panel is about to be sent: list the stored one as stale first (see the module
        docstring), so it is stripped even if the process dies right after the send."""
        store = self.publisher.store
        stored = await store.get_message(game_id, purpose(user_id))
        if stored is None or not stored.message_id:
            return
        stale = [list(entry) for entry in stored.data.get("stale", [])]
        if [stored.channel_id, stored.message_id] in stale:
            return
        await store.set_message(game_id, purpose(user_id), stored.channel_id, stored.message_id,
                                {**stored.data, "stale": [*stale, [stored.channel_id, stored.message_id]]})

    async def _set_dm(self, session: Session, user_id: int, seat: int, channel: Any, message_id: int,
                      stamp: int | None = None) -> None:
        """Record ``message_id`` as the live DM panel; every older one (the previous panel, any left
        stale) stays listed until its controls are removed."""
        if stamp is None:
            stamp = session.row.seat_counts[seat] if 0 <= seat < len(session.row.seat_counts) else 0
        store = self.publisher.store
        previous = await store.get_message(session.id, purpose(user_id))
        stale = [list(entry) for entry in previous.data.get("stale", [])] if previous is not None else []
        if previous is not None and previous.message_id and [previous.channel_id, previous.message_id] not in stale:
            stale.append([previous.channel_id, previous.message_id])
        stale = [entry for entry in stale if entry[1] != message_id]
        await store.set_message(session.id, purpose(user_id), getattr(channel, "id", 0), message_id,
                                {"seat": seat, "stamp": stamp, "stale": stale})
        await self._strip_listed(session.id, user_id, channel)

    async def _strip_listed(self, game_id: int, user_id: int, channel: Any = None) -> None:
        """Strip every panel listed as stale in the user's row, taking each off the list once done (a
        panel that cannot be edited any more, deleted or in a closed DM, is taken off too)."""
        store = self.publisher.store
        stored = await store.get_message(game_id, purpose(user_id))
        for channel_id, message_id in [tuple(entry) for entry in (stored.data.get("stale", []) if stored else [])]:
            if not await self._strip_dm(game_id, channel_id, message_id, channel):
                continue
            stored = await store.get_message(game_id, purpose(user_id))
            if stored is None:
                return
            left = [entry for entry in stored.data.get("stale", []) if list(entry) != [channel_id, message_id]]
            await store.set_message(game_id, purpose(user_id), stored.channel_id, stored.message_id,
                                    {**stored.data, "stale": left})

    async def strip_stale(self) -> None:
        """Start-up: strip the DM panels a crash left listed as stale (see the module docstring)."""
        for game_id, name, stored in await self.publisher.store.messages_with_prefix("panel:"):
            if stored.data.get("stale"):
                user_id = int(name.split(":", 1)[1])
                async with self.lock(game_id, user_id):
                    await self._strip_listed(game_id, user_id)

    async def _strip_dm(self, game_id: int, channel_id: int, message_id: int, channel: Any = None) -> bool:
        """Remove the controls of an old DM panel (cosmetic: tried a few times only). True when it has
        none left (done, or the message is gone or out of reach for good)."""
        publisher = self.publisher
        budget = publisher.housekeeping_budget
        try:
            if getattr(channel, "id", 0) != channel_id or not hasattr(channel, "get_partial_message"):
                channel = await publisher.channel(channel_id, budget=budget)
            if channel is None:
                return True
            partial = channel.get_partial_message(message_id)
            await publisher.call(f"retiring a panel of game {game_id}", lambda: partial.edit(view=None),
                                 attempts=RETIRE_ATTEMPTS, budget=budget)
            self._stripped_at[(game_id, message_id)] = time.monotonic()
            return True
        except (discord.NotFound, discord.Forbidden) as exc:
            log.info("an old panel of game %s is out of reach: %s", game_id, exc)
            return True
        except (discord.HTTPException, aiohttp.ClientError, OSError, Postponed) as exc:
            log.info("could not retire an old panel of game %s: %s", game_id, exc)
            return False

    def _refresh_soon(self, session: Session, user_id: int, seat: int) -> None:
        """Bring the DM panel up to date after ``refresh_delay`` seconds, once for all the moves made
        meanwhile: a play and its ✔, or a DM panel that arrived as the player acted in the channel, are one
        refresh, and one personal board drawn (each refresh draws one: a soak drew about two per move)."""
        key = (session.id, user_id)
        pending = key in self._refreshing
        self._refreshing[key] = (session, seat)  # the newest wins
        if not pending:
            self.publisher._background(self._refresh_later(key))

    async def _refresh_later(self, key: tuple[int, int]) -> None:
        await asyncio.sleep(self.refresh_delay)
        async with self.lock(*key):
            session, seat = self._refreshing.pop(key)
            await self._refresh_dm(session, key[1], seat)

    async def _refresh_dm(self, session: Session, user_id: int, seat: int) -> None:
        """Edit the stored DM panel to the seat's current panel (when its stamp is behind)."""
        from bot.discord_app.panels import (  # it imports the session layer, as this module's users do
            build_panel,
            offer_undo,
        )

        publisher = self.publisher
        stored = await publisher.store.get_message(session.id, purpose(user_id))
        if stored is None or not stored.message_id or user_id in publisher.dm_closed:
            return
        key = (session.id, user_id)
        clicked = self._clicked_at.get(key)  # the latest click so far: a newer one makes this refresh give way
        stamp = session.row.seat_counts[seat] if 0 <= seat < len(session.row.seat_counts) else 0
        unsure = key in self._unsure
        self._unsure.discard(key)
        if stored.data.get("seat") == seat and stored.data.get("stamp") == stamp and not unsure:
            return  # built at this stamp: its controls are current
        if [stored.channel_id, stored.message_id] in [list(e) for e in stored.data.get("stale", [])]:
            return  # a newer panel is on its way: this one is to be stripped, not refreshed
        if session.game is None:
            return
        content, built = build_panel(session, seat, session.user_lang(user_id),
                                     link=await publisher.turn_link(session))
        # issue 27: the player acted elsewhere (/game hand, a /risk command): their DM panel right after
        # the move offers ↩ too, signed at the new stamp
        await offer_undo(publisher.sessions, built, session, seat, user_id, session.user_lang(user_id))
        view = limits.fit_view(built) if built.children else None
        if view is not None:
            view.stop()
        try:
            channel = await publisher.channel(stored.channel_id, budget=publisher.housekeeping_budget)
            if channel is None:
                return
            partial = channel.get_partial_message(stored.message_id)  # type: ignore[attr-defined]
            # the panel's personal board is redrawn with it (Pobeda; issue 13, see bot/discord_app/boards.py)
            from bot.discord_app import boards

            board = await boards.personal_board(session, seat, session.user_lang(user_id))

            def refresh() -> Awaitable[Any]:
                if self._clicked_at.get(key) != clicked:
                    raise Superseded  # before each attempt: a retry must not land after the click's answer either
                return partial.edit(content=limits.content(content), view=view,
                                    **({"attachments": [boards.as_file(board)]} if board else {}))

            await publisher.call(f"refreshing a panel of game {session.id}", refresh,
                                 attempts=RETIRE_ATTEMPTS, budget=publisher.housekeeping_budget)
        except Superseded:
            return  # a click on this panel is being answered in place, with a newer panel (CI's Cold War e2e)
        except (discord.HTTPException, aiohttp.ClientError, OSError, Postponed) as exc:
            log.info("could not refresh the DM panel of game %s: %s", session.id, exc)
            return
        await publisher.store.set_message(session.id, purpose(user_id), stored.channel_id, stored.message_id,
                                          {**stored.data, "seat": seat, "stamp": stamp})
        if self._clicked_at.get(key) != clicked and session.row.seat_counts[seat] != stamp:
            # the player clicked this panel and moved while this edit was on its way: if Discord kept this
            # older panel last, its buttons would answer "no longer available", so it is edited once more, at
            # the newest stamp, whatever its row says by then. (A click that only opened a level of the panel
            # moved nothing: this panel's buttons are still good, and a second edit would close that level.)
            self._unsure.add(key)
            self._refresh_soon(session, user_id, seat)

    # ---- ephemerals --------------------------------------------------------------------
    def _remember(self, game_id: int, user_id: int, entry: Ephemeral) -> None:
        """Keep ``entry`` as the user's live ephemeral panel; forget the ones too old to edit (a user who
        never opens that game's panel again would otherwise keep the last one for good)."""
        self._ephemeral.pop((game_id, user_id), None)
        self._ephemeral[(game_id, user_id)] = entry
        now = time.monotonic()
        while self._ephemeral:
            key, oldest = next(iter(self._ephemeral.items()))
            if now - oldest.at <= EPHEMERAL_TTL and len(self._ephemeral) <= limits.NOTICES:
                break
            del self._ephemeral[key]

    async def _retire_ephemeral(self, game_id: int, user_id: int, keep: Ephemeral | None,
                                before: float | None = None) -> None:
        old = self._ephemeral.get((game_id, user_id))
        if old is None or (keep is not None and (old.key() == keep.key()
                                                 or (old.shown is not None and old.shown == keep.shown))):
            return  # nothing older, or the same message (a click on it answered in place)
        if before is not None and old.at >= before:
            return  # shown after the DM panel that retires it: it is the newer panel
        self._ephemeral.pop((game_id, user_id), None)
        if time.monotonic() - old.at > EPHEMERAL_TTL:
            return  # its token no longer edits it
        try:
            await self.publisher.call(f"retiring an ephemeral panel of game {game_id}", old.strip,
                                      attempts=RETIRE_ATTEMPTS, budget=self.publisher.housekeeping_budget)
        except (discord.HTTPException, aiohttp.ClientError, OSError, Postponed) as exc:
            log.info("could not retire an ephemeral panel of game %s: %s", game_id, exc)
