"""The records the web pages are made of (issue 29): a live page's parts (:class:`Live`), a finished game's
replay (:class:`Replay`), the boards' addresses, and :class:`Flights` (one build per key at a time)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.core.store import GameRow

T = TypeVar("T")


@dataclass(frozen=True)
class Live:
    """A running (or lobby, or aborted) game as one reader sees it at one version."""

    game_id: int
    version: int
    seq: int
    status: str
    title: str
    players_html: str
    status_html: str
    turn_html: str
    log_html: str
    private_html: str
    seat_users: tuple[tuple[int, ...], ...]
    personal: bool
    """The seat has a personal board (the game's renderer draws one)."""
    drawn: bool = True
    """There is a board to show (not a lobby, nor a game whose state is not loaded: aborted, broken)."""

    @property
    def ended(self) -> bool:
        return self.status in ("finished", "aborted")

    def update(self, base: str, lang: str, seat: int | None) -> dict[str, Any]:
        """The event-stream message: the page's parts to replace, and the boards' addresses."""
        return {"version": self.version, "seq": self.seq, "status": self.status, "ended": self.ended,
                "players": self.players_html, "state": self.status_html, "turn": self.turn_html,
                "log": self.log_html, "private": self.private_html,
                "board": board_url(base, self.seq, lang, self.version) if self.drawn else None,
                "mine": mine_url(base, self.seq, lang, self.version) if seat is not None and self.personal else None}


@dataclass(frozen=True)
class ReplayStep:
    seq: int
    who: str
    lines: tuple[str, ...]
    """HTML of each line."""


@dataclass(frozen=True)
class Replay:
    """A finished game told from its start with everything revealed (the text of ``/game replay``)."""

    game_id: int
    title: str
    result_html: str
    opening: tuple[str, ...]
    steps: tuple[ReplayStep, ...]
    closing: tuple[str, ...]


def board_url(base: str, seq: int, lang: str, version: int) -> str:
    return f"{base}/board/{seq}.png?lang={lang}&v={version}"


def mine_url(base: str, seq: int, lang: str, version: int) -> str:
    return f"{base}/mine/{seq}.png?lang={lang}&v={version}"


def step_url(base: str, seq: int, lang: str) -> str:
    return f"{base}/step/{seq}.png?lang={lang}"


class Flights:
    """One build per key at a time: the viewers asking meanwhile await the same task. The build runs
    in a task of its own, so a viewer that goes away (its handler cancelled) cancels nobody else's."""

    def __init__(self) -> None:
        self._running: dict[Any, asyncio.Task[Any]] = {}

    def running(self, key: Any) -> bool:
        return key in self._running

    async def once(self, key: Any, build: Callable[[], Awaitable[T]]) -> T:
        task = self._running.get(key)
        if task is None:
            task = asyncio.ensure_future(build())
            self._running[key] = task

            def done(finished: asyncio.Task[Any]) -> None:
                if self._running.get(key) is finished:
                    del self._running[key]
                if not finished.cancelled():
                    finished.exception()  # retrieved: no warning when every viewer left before the end

            task.add_done_callback(done)
        result: T = await asyncio.shield(task)
        return result


def seat_names(row: GameRow) -> list[str]:
    """The seats' names as ``Session.seat_names`` gives them (escaped for markdown; the page's
    :func:`to_html` and the renderers' ``seat_label`` read them back as typed)."""
    from bot.core.parse import escape  # noqa: PLC0415

    names = {p.user: p.name for p in row.lobby}
    return [" & ".join(escape(names.get(u, str(u))) for u in users) or f"#{seat + 1}"
            for seat, users in enumerate(row.seat_users or [])]
