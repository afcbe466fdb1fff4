"""Which of this process's gateway shards are connected (issue 14).

One process runs either the single unsharded connection (counted as shard 0) or the shards named by
``SHARD_IDS`` (all of ``SHARD_COUNT`` without it). The bot counts as cut off from Discord while ANY
of its own shards is down: players of that shard's guilds cannot act then, so deadlines stand still
(see :class:`bot.discord_app.app.Downtime`), and the process is not ready (``/readyz``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.config import Config


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


def store_warning(config: Config) -> str | None:
    """A line for the operator when this process runs only some shards on the SQLite file: the other
    shards' processes must open the very same file, so all of them on this machine; processes on
    several machines share PostgreSQL (``DATABASE_URL``)."""
    ids, count = config.shard_ids, config.shard_count
    if ids is None or count is None or len(ids) == count or config.database_url is not None:
        return None
    return (f"SHARD_IDS={','.join(map(str, ids))} runs {len(ids)} of {count} shards on the SQLite file "
            f"{config.database_path}: the processes of the other shards must use this same file on this "
            "machine; for processes on several machines set DATABASE_URL (PostgreSQL)")
