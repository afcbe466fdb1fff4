"""Per-user command cooldowns: one user repeating a command cannot flood a channel or keep a core busy.

A :class:`Cooldown` remembers when each user last used each cooled command, in a bounded LRU (an
old entry dropped from it has long expired unless thousands of users are active at once, and then
the worst case is one extra allowed use). The refusal is private and says how long is left, in the
user's language with real plural forms (see :func:`wait_text`).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping

from bot.core.i18n import plural_form, t, tn  # noqa: F401  (plural_form re-exported for callers)

MAX_ENTRIES = 4096
"""(command, user) pairs remembered at once; the least recently used is forgotten first."""


class Cooldown:
    """Seconds between two uses of a command by the same user, per command."""

    def __init__(self, seconds: Mapping[str, float], *, max_entries: int = MAX_ENTRIES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be positive")
        self.seconds = dict(seconds)
        self.max_entries = max_entries
        self.clock = clock
        self._last: OrderedDict[tuple[str, int], float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._last)

    def left(self, command: str, user_id: int) -> float:
        """Seconds ``user_id`` must still wait before ``command`` (0.0 when it may run now)."""
        period = self.seconds.get(command, 0.0)
        last = self._last.get((command, user_id))
        if period <= 0 or last is None:
            return 0.0
        return max(0.0, last + period - self.clock())

    def use(self, command: str, user_id: int) -> float:
        """Charge one use and return 0.0, or return the seconds left (charging nothing) if the user
        is still cooling down. Commands without a cooldown are always allowed and not remembered."""
        if self.seconds.get(command, 0.0) <= 0:
            return 0.0
        left = self.left(command, user_id)
        if left > 0:
            return left
        key = (command, user_id)
        self._last[key] = self.clock()
        self._last.move_to_end(key)
        while len(self._last) > self.max_entries:
            self._last.popitem(last=False)
        return 0.0



def wait_text(left: float, command: str, lang: str) -> str:
    """The private answer to a user still cooling down: whole seconds left, rounded up (never 0)."""
    n = max(1, math.ceil(left))
    return "⏳ " + tn("err.cooldown", lang, n, command=command)
