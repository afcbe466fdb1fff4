"""Signed, expiring, revocable links to a game's web page (issue 29).

A link is ``/w/<token>``; the token names everything the page needs and carries an HMAC-SHA256 over
it with the store's secret (the ``control_key`` of :mod:`bot.discord_app.panels`, created at first start), the
same scheme as the controls' tags, so a link cannot be forged or bent to another game or seat::

    <game>.<seat>.<user>.<epoch>.<expires>.<mac>

- ``seat`` is ``p`` for the public (spectator) view, else the seat whose private view it opens; a
  seat's link also names the ``user`` it was given to (0 for a public link), and is honoured only
  while that user still holds the seat.
- ``epoch`` is the game's link generation (``meta`` key ``web_epoch:<game>``, 0 until the host
  first revokes): revoking increments it, and every link of an older generation stops working, on
  every process sharing the store.
- ``expires`` is a Unix time (by default a week after the link was made, :data:`LINK_TTL_S`).

The MAC is over ``web|`` and the fields, so a web token is never a valid control tag or the other
way round (those start ``a|`` and ``p|``). Numbers are ASCII digits within SQLite's 64 bits
(:func:`bot.core.parse.db_id`); anything else is refused before the MAC is even computed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from bot.core.parse import db_id, id_field
from bot.core.store import Store

CONTROL_KEY_META = "control_key"
"""The ``meta`` key of the per-install secret (the same one :mod:`bot.discord_app.panels` uses for controls)."""
EPOCH_META = "web_epoch:{}"
LINK_TTL_S = 7 * 24 * 3600
"""How long a link works unless revoked first."""
MAC_HEX = 32
"""Hex digits of the MAC (128 bits of HMAC-SHA256)."""
PUBLIC = "p"
MAX_TOKEN = 160


class LinkError(Exception):
    """A link that opens nothing. ``kind``: ``forged`` (malformed or a bad MAC: answered like a
    missing page), ``expired``, ``revoked``, ``seat`` (the user no longer holds that seat)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(frozen=True)
class Link:
    game_id: int
    seat: int | None
    """None: the public view; else the seat whose private view this opens."""
    user_id: int
    """Who the seat's link was given to (0 for a public link)."""
    epoch: int
    expires: int

    @property
    def private(self) -> bool:
        return self.seat is not None

    def fields(self) -> str:
        seat = PUBLIC if self.seat is None else str(self.seat)
        return f"{self.game_id}.{seat}.{self.user_id}.{self.epoch}.{self.expires}"


class Signer:
    """Makes and checks tokens with one secret (the store's control key)."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("web link key too short")
        self._key = key

    def mac(self, link: Link) -> str:
        return hmac.new(self._key, f"web|{link.fields()}".encode(), hashlib.sha256).hexdigest()[:MAC_HEX]

    def token(self, link: Link) -> str:
        return f"{link.fields()}.{self.mac(link)}"

    def make(self, game_id: int, *, now: float, epoch: int = 0, seat: int | None = None, user_id: int = 0,
             ttl_s: int = LINK_TTL_S) -> str:
        """A token for ``game_id``'s public view, or (``seat``) the private view of ``seat`` for ``user_id``."""
        link = Link(game_id, seat, user_id if seat is not None else 0, epoch, int(now) + ttl_s)
        return self.token(link)

    def parse(self, token: str) -> Link:
        """The link ``token`` stands for, its MAC checked (not yet its expiry or epoch: :meth:`check`).
        Raises :class:`LinkError` ``forged`` for anything malformed or signed with another key."""
        if len(token) > MAX_TOKEN:
            raise LinkError("forged")
        parts = token.split(".")
        if len(parts) != 6:
            raise LinkError("forged")
        game, seat_text, user, epoch, expires, mac = parts
        numbers = [id_field(game), id_field(user), id_field(epoch), id_field(expires)]
        seat = None if seat_text == PUBLIC else id_field(seat_text)
        if any(n is None for n in numbers) or (seat_text != PUBLIC and seat is None):
            raise LinkError("forged")
        game_id, user_id, gen, until = (int(n) for n in numbers)  # type: ignore[arg-type]
        if seat is None and user_id != 0:
            raise LinkError("forged")
        link = Link(game_id, seat, user_id, gen, until)
        if link.fields() != ".".join(parts[:5]) or not hmac.compare_digest(self.mac(link), mac):
            raise LinkError("forged")  # the canonical form only: "007" is not "7"
        return link

    @staticmethod
    def check(link: Link, *, now: float, epoch: int) -> None:
        """Raise :class:`LinkError` when ``link`` expired or was revoked (its generation is not ``epoch``)."""
        if link.epoch != epoch:
            raise LinkError("revoked")
        if now >= link.expires:
            raise LinkError("expired")


async def store_key(store: Store) -> bytes:
    """The per-install secret, created if this is the first start (the same atomic insert-if-absent as
    the controls' cog, so every process on one database agrees on it)."""
    stored = await store.meta_setdefault(CONTROL_KEY_META, secrets.token_hex(32))
    return bytes.fromhex(stored)


async def epoch_of(store: Store, game_id: int) -> int:
    """The game's current link generation (0 when never revoked)."""
    raw = await store.get_meta(EPOCH_META.format(game_id))
    value = db_id(raw) if raw is not None else None
    return int(value) if value is not None else 0


async def revoke(store: Store, game_id: int) -> int:
    """Revoke every link of the game made so far; returns the new generation."""
    new = await epoch_of(store, game_id) + 1
    await store.set_meta(EPOCH_META.format(game_id), str(new))
    return new
