"""discord.py's gateway reconnect backoff, capped.

After a dropped gateway connection discord.py waits ``uniform(0, 2**n)`` seconds before the n-th
attempt, with n growing to 10 (up to 17 minutes) and reset only after 34 minutes without a failure.
A Discord outage of a minute thus leaves the bot deaf for many minutes after Discord is back, and a
few short drops in one afternoon add up the same way (an e2e run waited over 40 s for a reconnect
after a 10 s outage). Here the exponent stops at :data:`MAX_EXPONENT` (at most 16 s between
attempts, still with jitter so many shards do not reconnect in step) and starts again from the
first step once :data:`RESET_AFTER` seconds pass without a failure.

discord.py creates its backoff inside ``Client.connect`` and per shard, with no option to pass one:
:func:`install` replaces the class those two modules use.
"""

from __future__ import annotations

import discord.client
import discord.shard
from discord.backoff import ExponentialBackoff

MAX_EXPONENT = 4  # 2**4 = 16 s at most between two reconnect attempts
RESET_AFTER = 60  # seconds without a failure after which the delays start small again


class CappedBackoff(ExponentialBackoff[bool]):
    def __init__(self, base: int = 1, *, integral: bool = False) -> None:
        super().__init__(base, integral=integral)
        self._max = MAX_EXPONENT
        self._reset_time = RESET_AFTER * base


def install() -> None:
    """Make discord.py's gateway reconnects (unsharded and per shard) use :class:`CappedBackoff`."""
    discord.client.ExponentialBackoff = CappedBackoff  # type: ignore[assignment, misc]
    discord.shard.ExponentialBackoff = CappedBackoff  # type: ignore[assignment, misc]
