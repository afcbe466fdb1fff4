"""Who the games' texts speak to: the seat itself (the default) or a reader of the whole game.

A private event ("You drew: …") and a seat's ``private_text`` ("Your cards (6): …") are written for
the seat they belong to. The replay (``bot.core.replay.history``) shows them to everyone once the game has
ended, so it tells them in the third person, with the seat's name ("Anna draws: …", "Anna's cards
(6): …"): it runs inside :func:`third_person`, and a text module asks :func:`key` for the catalogue
key to use (``<key>.named``, which takes the seat's name as ``{name}``). A context variable, so a
replay in a worker thread never changes the texts of live games told meanwhile on the event loop.

The ``.named`` texts avoid a gendered past tense for players (Russian "Anna берёт карту", present
tense, not "взял(а)").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from bot.core.i18n import has

NAMED = ".named"
"""Suffix of the catalogue keys that tell a seat's private text in the third person."""

_third_person: ContextVar[bool] = ContextVar("third_person", default=False)


@contextmanager
def third_person() -> Iterator[None]:
    """Texts told inside speak of each seat by its name instead of addressing it."""
    token = _third_person.set(True)
    try:
        yield
    finally:
        _third_person.reset(token)


def active() -> bool:
    """Whether texts are being told in the third person (a replay)."""
    return _third_person.get()


def key(base: str) -> str:
    """``base``, or in a replay its third-person variant (``base`` + :data:`NAMED`, which takes the
    seat's name as ``{name}``) when the catalogue has one (a text that addresses no one has none)."""
    if _third_person.get() and has(base + NAMED):
        return base + NAMED
    return base


def named(name: str) -> dict[str, str]:
    """The ``name`` parameter of a text that may be told in the third person: only in a replay, so the
    texts of a live game (and what the stored-game fixtures record of them) stay as they were."""
    return {"name": name} if _third_person.get() else {}
