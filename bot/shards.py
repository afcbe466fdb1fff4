"""Which of this process's gateway shards are connected (issue 14).

One process runs either the single unsharded connection (counted as shard 0) or the shards named by
``SHARD_IDS`` (all of ``SHARD_COUNT`` without it). The bot counts as cut off from Discord while ANY
of its own shards is down: players of that shard's guilds cannot act then, so deadlines stand still
(see :class:`bot.app.Downtime`), and the process is not ready (``/readyz``).
"""

from __future__ import annotations

from collections.abc import Iterable


class ShardLinks:
    """Connected shards of this process. ``expected`` may be unknown until discord.py has the
    count (``SHARD_COUNT=auto``); the process is never "all up" before it is known."""

    def __init__(self, expected: Iterable[int] | None = None) -> None:
        self.expected: frozenset[int] | None = None if expected is None else frozenset(expected)
        self.up: set[int] = set()

    def expect(self, shards: Iterable[int]) -> None:
        self.expected = frozenset(shards)

    def lost(self, shard: int) -> None:
        self.up.discard(shard)

    def back(self, shard: int) -> bool:
        """Mark ``shard`` connected; True when every shard of this process is connected now."""
        self.up.add(shard)
        return self.all_up

    @property
    def all_up(self) -> bool:
        return bool(self.expected) and self.expected is not None and self.expected <= self.up

    def status(self) -> dict[str, bool]:
        """``{"0": True, "1": False}`` for every expected shard (for ``/readyz``)."""
        return {str(shard): shard in self.up for shard in sorted(self.expected or ())}
