"""Helpers of the lifecycle tests: the platform's toy game, a fake clock, a recording publisher."""

from __future__ import annotations

from typing import Any

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store

ALICE, BOB, CAROL = UserInfo(1, "alice"), UserInfo(2, "bob"), UserInfo(3, "carol")


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def running_game(sessions: SessionManager, *, channel: int = 100, span: int = 3600, guild: int = 5,
                       players: tuple[UserInfo, ...] = (ALICE, BOB), seed: int = 99) -> int:
    session = await sessions.create(guild_id=guild, channel_id=channel, host=players[0], game_key="toy",
                                    options={}, deadline_s=span)
    for user in players[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, players[0].id, seed=seed)
    return session.id


class RecordingPublisher:
    """Records reminders (with their kind) instead of posting them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reminded: list[tuple[int, int, str | None]] = []

    async def remind(self, game_id: int, seat: int, kind: str | None = None) -> None:
        self.reminded.append((game_id, seat, kind))

    def request(self, game_id: int) -> None:
        pass

    def _background(self, coro: Any) -> None:
        coro.close()
