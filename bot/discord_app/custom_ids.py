"""Every kind of component id the bot builds, with one build and one parse per kind.

A button or select carries all its router needs in its custom id (see :mod:`bot.discord_app.panels` for why
the action and path tags are keyed hashes), so controls on messages from days ago keep working
after a restart. The format on the wire is fixed: messages already posted carry these ids, so a
change here would break every old button. Each id is ``tt:<kind>:<game>`` followed by the kind's
own fields, all under Discord's 100-character limit (:data:`bot.discord_app.limits.CUSTOM_ID`):

  ``tt:a:<game>:<seat>:<stamp>:<tag>``      apply the legal action with that tag
  ``tt:n:<game>:<seat>:<stamp>:<ptag>:<k>`` k-th select of the next path level under a prefix
  ``tt:b:<game>:<seat>:<stamp>:<ptag>``     show the tagged path prefix (back, or the ⚙️ settings level)
  ``tt:p:<game>``                           open my panel (ephemeral), under channel posts
  ``tt:l:<game>:<verb>``                    lobby button (join, leave, start, cancel)
  ``tt:t:<game>``                           lobby select: my team
  ``tt:o:<game>:<option>``                  lobby select: one game option (host)
  ``tt:c:<game>``                           confirm conceding
  ``tt:x:<game>``                           confirm aborting
  ``tt:m:<game>:<tag>``                     a moderator action with that tag
  ``tt:d:<game>``                           "my DMs are open again": retry the DM panel

:func:`parse` returns None for an id that is not ours (no ``tt:`` prefix) and raises
:class:`MalformedId` for one that is ours but does not fit its kind (forged, or cut short, or with
a number that is not ASCII digits within SQLite's 64 bits: :mod:`bot.core.parse`). A tag
is opaque here: one from before the keyed tags parses, and simply matches nothing later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.core.parse import db_id
from bot.discord_app import limits

PREFIX = "tt"
LOBBY_VERBS = ("join", "leave", "start", "cancel")


class MalformedId(ValueError):
    """A ``tt:`` custom id that does not fit its kind (the router answers "bad control")."""


def _int(text: str, what: str) -> int:
    # ASCII digits only, within SQLite's 64-bit integers (a 20-digit game id raised OverflowError)
    value = db_id(text) if text == text.strip() else None
    if value is None:
        raise MalformedId(f"{what} is not a number: {text[:20]!r}")
    return value


def _token(text: str, what: str) -> str:
    if ":" in text:
        raise MalformedId(f"{what} contains ':'")
    return text


def _build(kind: str, *fields: object) -> str:
    text = ":".join((PREFIX, kind, *(str(f) for f in fields)))
    return limits.custom_id(text)


@dataclass(frozen=True)
class ControlId:
    """Fields every id has: its kind letter (a class constant) and the game it belongs to."""

    KIND: ClassVar[str] = ""
    OPENS_MESSAGE: ClassVar[bool] = False
    """True when the click answers with a new (ephemeral) message rather than an update."""
    FIELDS: ClassVar[int] = 0
    """Fields after ``tt:<kind>:<game>``."""

    game_id: int

    def build(self) -> str:
        return _build(self.KIND, self.game_id)

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> ControlId:
        return cls(game_id)


@dataclass(frozen=True)
class SeatControlId(ControlId):
    """A control of one seat's panel: valid for that seat at that stamp (its action count)."""

    seat: int
    stamp: int


@dataclass(frozen=True)
class ActionId(SeatControlId):
    KIND: ClassVar[str] = "a"
    FIELDS: ClassVar[int] = 3
    tag: str

    def build(self) -> str:
        return _build(self.KIND, self.game_id, self.seat, self.stamp, _token(self.tag, "tag"))

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> ActionId:
        return cls(game_id, _int(rest[0], "seat"), _int(rest[1], "stamp"), rest[2])


@dataclass(frozen=True)
class PathSelectId(SeatControlId):
    KIND: ClassVar[str] = "n"
    FIELDS: ClassVar[int] = 4
    prefix_tag: str
    index: int
    """Which of the (up to four) selects of the level: its options are numbered across them."""

    def build(self) -> str:
        return _build(self.KIND, self.game_id, self.seat, self.stamp, _token(self.prefix_tag, "prefix tag"),
                      self.index)

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> PathSelectId:
        return cls(game_id, _int(rest[0], "seat"), _int(rest[1], "stamp"), rest[2], _int(rest[3], "select"))


@dataclass(frozen=True)
class BackId(SeatControlId):
    KIND: ClassVar[str] = "b"
    FIELDS: ClassVar[int] = 3
    prefix_tag: str

    def build(self) -> str:
        return _build(self.KIND, self.game_id, self.seat, self.stamp, _token(self.prefix_tag, "prefix tag"))

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> BackId:
        return cls(game_id, _int(rest[0], "seat"), _int(rest[1], "stamp"), rest[2])


@dataclass(frozen=True)
class PanelId(ControlId):
    KIND: ClassVar[str] = "p"
    OPENS_MESSAGE: ClassVar[bool] = True


@dataclass(frozen=True)
class LobbyId(ControlId):
    KIND: ClassVar[str] = "l"
    FIELDS: ClassVar[int] = 1
    verb: str

    def __post_init__(self) -> None:
        if self.verb not in LOBBY_VERBS:
            raise MalformedId(f"unknown lobby verb {self.verb[:20]!r}")

    def build(self) -> str:
        return _build(self.KIND, self.game_id, self.verb)

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> LobbyId:
        return cls(game_id, rest[0])


@dataclass(frozen=True)
class TeamId(ControlId):
    KIND: ClassVar[str] = "t"


@dataclass(frozen=True)
class OptionId(ControlId):
    KIND: ClassVar[str] = "o"
    FIELDS: ClassVar[int] = 1
    name: str

    def build(self) -> str:
        return _build(self.KIND, self.game_id, _token(self.name, "option name"))

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> OptionId:
        return cls(game_id, rest[0])


@dataclass(frozen=True)
class ConcedeId(ControlId):
    KIND: ClassVar[str] = "c"


@dataclass(frozen=True)
class AbortId(ControlId):
    KIND: ClassVar[str] = "x"


@dataclass(frozen=True)
class AdminId(ControlId):
    KIND: ClassVar[str] = "m"
    FIELDS: ClassVar[int] = 1
    tag: str

    def build(self) -> str:
        return _build(self.KIND, self.game_id, _token(self.tag, "tag"))

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> AdminId:
        return cls(game_id, rest[0])


@dataclass(frozen=True)
class DmRetryId(ControlId):
    KIND: ClassVar[str] = "d"
    OPENS_MESSAGE: ClassVar[bool] = True


@dataclass(frozen=True)
class UndoId(SeatControlId):
    """The ↩ button on the confirmation of a player's own move (issue 27): take back the seat's moves
    from ``seq`` on; refused once the seat's stamp moved on (another move, or the takeback itself)."""

    KIND: ClassVar[str] = "u"
    FIELDS: ClassVar[int] = 4
    seq: int
    tag: str

    def build(self) -> str:
        return _build(self.KIND, self.game_id, self.seat, self.stamp, self.seq, _token(self.tag, "tag"))

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> UndoId:
        return cls(game_id, _int(rest[0], "seat"), _int(rest[1], "stamp"), _int(rest[2], "seq"), rest[3])


@dataclass(frozen=True)
class TakebackAnswerId(ControlId):
    """Accept (``y``) or Decline (``n``) under a takeback request (issue 27); ``request`` is the
    request's random id, ``tag`` signs the three."""

    KIND: ClassVar[str] = "k"
    FIELDS: ClassVar[int] = 3
    request: str
    verb: str
    tag: str

    def build(self) -> str:
        return _build(self.KIND, self.game_id, _token(self.request, "request"), _token(self.verb, "verb"),
                      _token(self.tag, "tag"))

    @classmethod
    def _from(cls, game_id: int, rest: list[str]) -> TakebackAnswerId:
        if rest[1] not in ("y", "n"):
            raise MalformedId("a takeback answer is y or n")
        return cls(game_id, rest[0], rest[1], rest[2])


KINDS: dict[str, type[ControlId]] = {
    cls.KIND: cls
    for cls in (ActionId, PathSelectId, BackId, PanelId, LobbyId, TeamId, OptionId, ConcedeId, AbortId,
                AdminId, DmRetryId, UndoId, TakebackAnswerId)
}


def parse(custom_id: str) -> ControlId | None:
    """The control a custom id names; None when the id is not one of ours.

    Raises :class:`MalformedId` (a ``ValueError``) for a ``tt:`` id of an unknown kind, with the
    wrong number of fields, or with a number field that is not a plain number.
    """
    if not custom_id.startswith(PREFIX + ":"):
        return None
    if len(custom_id) > limits.CUSTOM_ID:
        raise MalformedId(f"custom id over {limits.CUSTOM_ID} characters")
    parts = custom_id.split(":")
    if len(parts) < 3:
        raise MalformedId("custom id without a game")
    cls = KINDS.get(parts[1])
    if cls is None:
        raise MalformedId(f"unknown control kind {parts[1][:10]!r}")
    rest = parts[3:]
    if len(rest) != cls.FIELDS:
        raise MalformedId(f"control {cls.KIND!r} has {len(rest)} fields after the game, not {cls.FIELDS}")
    return cls._from(_int(parts[2], "game id"), rest)


def game_of(custom_id: str) -> int | None:
    """The game id of a ``tt:`` custom id, best effort (for logging a malformed one)."""
    parts = custom_id.split(":")
    return db_id(parts[2]) if len(parts) > 2 else None
