"""Our retry schedule instead of discord.py's for the requests the publisher makes.

discord.py 2.7 retries a 500, 502, 504 or 524 by itself: five tries, sleeping 1, 3, 5, 7 and 9 s, so
one burst of 5xx answers holds a request for 25 s before the caller hears of it, longer than any
budget the publisher can give a post on the path of the next turn's announcement. It has no switch
for that, but it takes an ``aiohttp.TraceConfig`` (``Client(http_trace=...)``): :func:`trace_config`
returns one whose ``on_request_end`` raises :class:`discord.DiscordServerError` for such an answer
while :data:`OWN_RETRIES` is set in the calling context, which aiohttp turns into a closed response
and discord.py passes straight up (it catches only ``OSError`` around the request). The caller's
own retry (``Publisher.call``: backoff with jitter within a time budget) then decides.

Only the requests made inside ``Publisher.call`` set the flag; interaction answers and everything
else keep discord.py's behaviour.
"""

from __future__ import annotations

import contextvars
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

OWN_RETRIES: contextvars.ContextVar[bool] = contextvars.ContextVar("tabletop_own_retries", default=False)
"""Set while the caller retries 5xx answers itself (``Publisher.call``)."""

RETRIED_BY_DISCORD_PY = frozenset({500, 502, 504, 524})
"""The statuses discord.py 2.7 would sleep on and retry (a 503 it raises at once already)."""


async def _on_request_end(session: aiohttp.ClientSession, context: Any,
                          params: aiohttp.TraceRequestEndParams) -> None:
    status = params.response.status
    if status in RETRIED_BY_DISCORD_PY and OWN_RETRIES.get():
        response = SimpleNamespace(status=status, reason=params.response.reason or "server error")
        raise discord.DiscordServerError(response, {"code": 0, "message": f"{status} from Discord"})


class Postponed(Exception):
    """A request did not go through within its time budget: the caller leaves it to a later try (the
    publish is requested again, an owed DM is retried from its row) instead of holding what follows."""

    def __init__(self, what: str, cause: BaseException | None = None) -> None:
        super().__init__(f"{what}: postponed after {type(cause).__name__ if cause else 'its budget'}")
        self.what = what


def trace_config() -> aiohttp.TraceConfig:
    """The trace to pass as ``http_trace`` to the client (see the module docstring)."""
    config = aiohttp.TraceConfig()
    config.on_request_end.append(_on_request_end)
    return config
