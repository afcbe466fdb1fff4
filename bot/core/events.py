"""What the session layer tells the rest of the process after it committed a change to a game.

:class:`GameCommitted` is emitted by :class:`bot.core.sessions.SessionManager` once a change is in the
database (a move and the automatic moves after it, a timeout, a concession, an abort, a start), to the
subscribers registered at start-up (``SessionManager.subscribe``): the publisher, the bots' driver, the
web page. A subscriber is called synchronously, outside the game's lock, and must only schedule its work
(it reads what it needs back from the session or the store); one that raises is logged and the others
still hear of the change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameCommitted:
    """A change to game ``game_id`` is committed."""

    game_id: int
    seq: int
    """The game's sequence number after the change (its last stored action)."""
    status: str
    """``lobby``, ``running``, ``finished`` or ``aborted`` after the change."""
    prompted: tuple[int, ...] = ()
    """The seats the change's ``platform.prompt`` events asked to act (sorted; empty: nobody new)."""

    @property
    def ended(self) -> bool:
        return self.status in ("finished", "aborted")


Subscriber = Callable[[GameCommitted], None]
