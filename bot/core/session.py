"""One game's session, the platform's refusal, and the facts of its seats kept in its settings.

:class:`Session` is a game as this process holds it (its row, its lock, the live game, its deadlines,
its open decisions). The seat facts below read and write what the settings say of bot users and missed
deadlines (their format is described in :mod:`bot.core.bots`). Both the session manager
(:mod:`bot.core.sessions`) and the bots (:mod:`bot.core.bots`) build on this module, and neither imports
the other: the bots' driver hears of committed changes through :class:`bot.core.events.GameCommitted`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.core.store import GameRow, GameSettings, LobbyEntry, SeatTimer
from bot.games.base import Event, Game, OpenDecision, Outcome, as_outcome
from bot.games.registry import game_class


class SessionError(Exception):
    """A refusal by the platform (not the rules). ``key`` is an i18n key."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class UserInfo:
    id: int
    name: str
    lang: str = "en"


@dataclass(slots=True)  # 10,000 restored games: no per-instance dict
class Session:
    row: GameRow
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    game: Game | None = None
    state_text: str | None = None
    deadlines: dict[int, SeatTimer] = field(default_factory=dict)
    broken: str | None = None
    """Why the stored state cannot be loaded (None: the game is fine)."""
    decisions: list[OpenDecision] | None = None
    """The game's open decisions, computed once per committed state (:meth:`open_decisions`)."""
    decided_on: str | None = None
    """The committed state text :attr:`decisions` belong to."""

    @property
    def id(self) -> int:
        return self.row.id

    def open_decisions(self) -> list[OpenDecision]:
        """``game.open_decisions()`` of the committed state, computed once per state: after a move it is
        the list the move stored; after a load, a refresh or a restart it is asked of the loaded game.
        Only valid while the live game is the committed one (not between ``apply`` and the commit)."""
        assert self.game is not None
        if self.decisions is None or self.decided_on != self.state_text:
            self.decisions = self.game.open_decisions()
            self.decided_on = self.state_text
        return self.decisions

    def deciding(self, seat: int) -> bool:
        """Whether ``seat`` holds an open decision now (it is one of the game's actors)."""
        return any(seat in d.seats for d in self.open_decisions())

    @property
    def rng_version(self) -> int:
        """Generator the game was created with (games stored before versioning used 1)."""
        return self.row.settings.rng_version or 1

    @property
    def cls(self) -> type[Game]:
        return game_class(self.row.game)

    def seats_of(self, user_id: int) -> list[int]:
        return [i for i, users in enumerate(self.row.seat_users or []) if user_id in users]

    def check_seat(self, user_id: int, seat: int, stamp: int | None = None) -> None:
        """The one check that ``user_id`` may act for ``seat`` now, with a control built at
        ``stamp`` (the seat's action count then; None: a command, not a control). A control built
        before the seat's latest action is stale, so a double click never applies twice."""
        if self.row.status != "running" or self.game is None:
            raise SessionError("err.not_running")
        seats = self.seats_of(user_id)
        if not seats:
            raise SessionError("err.spectator")
        if seat not in seats:
            raise SessionError("err.not_your_seat")
        if stamp is not None and self.row.seat_counts[seat] != stamp:
            raise SessionError("err.stale")

    def player(self, user_id: int) -> LobbyEntry | None:
        return next((p for p in self.row.lobby if p.user == user_id), None)

    def user_name(self, user_id: int) -> str:
        p = self.player(user_id)
        return p.name if p else str(user_id)

    def user_lang(self, user_id: int) -> str:
        p = self.player(user_id)
        return (p.lang or self.row.lang) if p else self.row.lang

    def seat_name(self, seat: int) -> str:
        """The seat's players' names, escaped for a message (issue 23: a display name is user text, and
        ``[Claim prize](https://…)`` must not become a link; :func:`bot.core.parse.escape`)."""
        from bot.core.parse import escape  # noqa: PLC0415

        users = (self.row.seat_users or [])[seat] if self.row.seat_users else []
        return " & ".join(escape(self.user_name(u)) for u in users) or f"#{seat + 1}"

    def seat_names(self) -> list[str]:
        return [self.seat_name(i) for i in range(len(self.row.seat_users or []))]

    @property
    def conceded(self) -> list[int]:
        return list(self.row.settings.conceded or [])

    def outcome(self) -> Outcome | None:
        """The result: one the platform forced (a concession, a draw by vote) or the game's own."""
        forced = self.row.settings.outcome
        if forced:
            return as_outcome(forced)
        return self.game.outcome() if self.game is not None else None

    def public_view(self) -> dict[str, Any]:
        assert self.game is not None
        view = self.game.view(None)
        view["seat_names"] = self.seat_names()
        return view


@dataclass
class ActResult:
    session: Session
    events: list[Event]
    seat: int


# ---- the seats' facts in the settings (bot users, missed deadlines, takeovers) ------------------
def is_bot(user_id: int | None) -> bool:
    return user_id is not None and user_id < 0


def bot_levels(settings: GameSettings) -> dict[int, str]:
    """Bot user id -> level."""
    raw = settings.extra.get("bots") or {}
    return {int(uid): str(level) for uid, level in raw.items()}


def set_bot_levels(settings: GameSettings, levels: dict[int, str]) -> None:
    settings.extra["bots"] = {str(uid): level for uid, level in sorted(levels.items(), reverse=True)}


def bot_seats(row: GameRow) -> dict[int, int]:
    """Seat -> the bot user that plays it (the seat's first bot user)."""
    out: dict[int, int] = {}
    for seat, users in enumerate(row.seat_users or []):
        bots = [u for u in users if is_bot(u)]
        if bots:
            out[seat] = bots[0]
    return out


def controlled(row: GameRow, seat: int) -> bool:
    users = (row.seat_users or [])[seat] if 0 <= seat < len(row.seat_users or []) else []
    return any(is_bot(u) for u in users)


def humans_left(session: Session) -> bool:
    """Whether a seat still in the game has a player (a seat a bot took over counts: its player may
    come back and reclaim it)."""
    conceded = set(session.conceded)
    return any(not is_bot(u) for seat, users in enumerate(session.row.seat_users or []) if seat not in conceded
               for u in users)


def missed(settings: GameSettings) -> dict[int, int]:
    return {int(s): int(n) for s, n in (settings.extra.get("missed") or {}).items()}


def note_missed(settings: GameSettings, seat: int) -> int:
    """One more missed deadline of ``seat`` (stored with the timeout move). Returns the count."""
    counts = missed(settings)
    counts[seat] = counts.get(seat, 0) + 1
    settings.extra["missed"] = {str(s): n for s, n in sorted(counts.items())}
    return counts[seat]


def note_acted(settings: GameSettings, seat: int) -> None:
    """The seat's player moved: its run of missed deadlines is over."""
    counts = missed(settings)
    if counts.pop(seat, 0):
        settings.extra["missed"] = {str(s): n for s, n in sorted(counts.items())}


def seat_log(settings: GameSettings) -> list[dict[str, Any]]:
    return list(settings.extra.get("seat_log") or [])
