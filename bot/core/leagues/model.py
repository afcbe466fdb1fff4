"""The records of a league: its players, its tables and the results the pairing and standings read.

Pure data, no storage and no Discord: :mod:`bot.core.leagues.storage` writes these to the database,
:mod:`bot.core.leagues.pairing` and :mod:`bot.core.leagues.standings` read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Format(StrEnum):
    """How the players meet (``/league new format:``)."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    ELIMINATION = "elimination"


class LeagueStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TableStatus(StrEnum):
    """The life of one table, each step written before the next one is attempted (see
    :mod:`bot.core.leagues.scheduler`)."""

    PAIRED = "paired"
    """Written with the round's pairing, in the same transaction."""
    OPENING = "opening"
    """The thread is being made (a crash here resumes by the table's key, never a second thread)."""
    OPENED = "opened"
    """The thread exists (``thread_id``); the game is not started yet."""
    PLAYING = "playing"
    """The game runs (``game_id``)."""
    DONE = "done"
    """The result is in (``result``): played out, adjudicated, or a bye."""


OPEN_STATUSES = (LeagueStatus.SIGNUP, LeagueStatus.RUNNING, LeagueStatus.PAUSED)


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them: their id and the rating they were seeded with."""

    user_id: int
    rating: float = 0.0


@dataclass
class TableResult:
    """The places at one finished table (1 = first; equal places share), and how it ended.

    ``how``: ``played`` (the game's own result), ``adjudicated`` (the round's deadline or a
    moderator), ``bye`` (no opponent), ``forfeit`` (a player left or was dropped)."""

    places: dict[int, int]
    how: str = "played"

    def to_json(self) -> dict[str, Any]:
        return {"places": {str(u): p for u, p in self.places.items()}, "how": self.how}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableResult:
        return cls(places={int(u): int(p) for u, p in data.get("places", {}).items()}, how=str(data.get("how", "played")))


@dataclass
class Table:
    """One game of one round: who sits there and, once known, the result."""

    round: int
    number: int
    seats: list[int]
    status: TableStatus = TableStatus.PAIRED
    result: TableResult | None = None
    thread_id: int | None = None
    message_id: int | None = None
    game_id: int | None = None

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    def key(self, league_id: int) -> str:
        """The idempotency key of this table: one thread and one game per key, ever."""
        return table_key(league_id, self.round, self.number)


def table_key(league_id: int, round_no: int, number: int) -> str:
    return f"league:{league_id}:r{round_no}:t{number}"


TEAM_BASE = -(1 << 40)
"""A team entrant's id is ``TEAM_BASE - n`` (n = 0, 1, ...): below every bot entrant (-1, -2, ...) and
every Discord user (positive), so one integer names any entrant of any league."""


def team_id(n: int) -> int:
    return TEAM_BASE - n


def is_team(entrant: int) -> bool:
    return entrant <= TEAM_BASE


def is_bot(entrant: int) -> bool:
    """A league's bot entrant (``/league admin action:add_bot``): a negative id, as the games' bots."""
    return TEAM_BASE < entrant < 0


@dataclass
class LeagueConfig:
    """What ``/league new`` chose. ``rounds`` 0: as many as the format needs."""

    rounds: int = 0
    players_per_game: int = 2
    pace: str = "casual"
    round_hours: float = 0.0
    """Hours a round may last before its unfinished games are adjudicated; 0: no limit."""
    start_at: float | None = None
    options: dict[str, Any] = field(default_factory=dict)
    team_size: int = 0
    """0: each entrant is one user. 2-6: a league of teams of up to this many members, and
    ``players_per_game`` counts the teams at a table (docs/leagues.md, "Leagues of teams")."""

    @property
    def teams(self) -> bool:
        return self.team_size > 0

    def to_json(self) -> dict[str, Any]:
        data = {"rounds": self.rounds, "players_per_game": self.players_per_game, "pace": self.pace,
                "round_hours": self.round_hours, "start_at": self.start_at, "options": self.options}
        if self.team_size:  # a league of players is stored as before
            data["team_size"] = self.team_size
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeagueConfig:
        start = data.get("start_at")
        return cls(rounds=int(data.get("rounds", 0)), players_per_game=int(data.get("players_per_game", 2)),
                   pace=str(data.get("pace", "casual")), round_hours=float(data.get("round_hours", 0.0)),
                   start_at=None if start is None else float(start), options=dict(data.get("options") or {}),
                   team_size=int(data.get("team_size", 0)))
