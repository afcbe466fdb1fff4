"""Bot players: the interface every game's policy implements, and the pieces they share.

A policy sees exactly what a human in its seat would: ``game.view(seat)`` and the events that seat
was shown (public events and those addressed to it), never the game's state. It answers with one
of ``game.legal_actions(seat)``. Its randomness comes from :func:`bot_rng`, derived from the game's
stored :class:`Rng` (seed and counter) and the number of actions already logged, so a replay of the
log reproduces every bot move without advancing the game's own random source.

How the platform plugs a bot in (see :func:`decide`): build the seat's view and legal actions, call
``policy.choose``, and apply the answer through the same path as a human's click. Policies are
looked up by game key and level with :func:`policy_for` (the module named by the game's manifest, ``ai``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from bot.games.base import Action, Event, Game, Rng
from bot.games.registry import manifest

LEVELS = ("quick", "strong")
"""Bot levels: ``quick`` is a cheap heuristic, ``strong`` looks ahead or samples hidden information."""


@runtime_checkable
class Policy(Protocol):
    """A bot for one game at one level. ``choose`` must return one of ``legal`` (an equal dict) and
    must depend only on its arguments: the same view, legal list, history and random source give
    the same answer."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action: ...


class RandomPolicy:
    """A uniformly random legal player (the arena's baseline)."""

    name = "random"

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action:
        return dict(rng.choice(list(legal)))


def policy_for(game_key: str, level: str = "strong") -> Policy:
    """The policy of ``game_key`` at ``level`` (``random`` gives :class:`RandomPolicy`)."""
    if level == "random":
        return RandomPolicy()
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    module = manifest(game_key).policies()
    if module is None:
        raise LookupError(f"{game_key} has no bots")
    policy: Policy = module.policy(level)
    return policy


def game_rng(game: Game) -> Rng:
    """A copy of the game's random source (never advanced): its live ``rng`` (Cold War: its engine's)
    when it has one, else the one its JSON stores."""
    for holder in (game, getattr(game, "engine", None)):
        live = getattr(holder, "rng", None)
        if isinstance(live, Rng):
            return Rng.from_json(live.to_json())
    data = game.to_json()
    rng = data.get("rng")
    if rng is None and isinstance(data.get("state"), dict):  # Cold War nests its state
        rng = data["state"].get("rng")
    if rng is None:
        raise ValueError(f"{game.key}: no stored Rng in the state")
    return Rng.from_json(rng)


def bot_rng(stored: Rng, seat: int, step: int) -> Rng:
    """The bot's random source for its decision at log position ``step``: a fresh version-2 Rng
    whose seed hashes the stored generator's seed and counter with the seat and the step. The
    game's own Rng is untouched, so a game with bots replays exactly as one without them."""
    digest = hashlib.blake2b(f"bot:{stored.version}:{stored.seed}:{stored.n}:{seat}:{step}".encode(),
                             digest_size=8).digest()
    return Rng(int.from_bytes(digest, "big"), 0, version=2)


def visible_events(events: Iterable[Event], seat: int) -> list[Event]:
    """The events ``seat`` was shown: public ones and those addressed to it."""
    return [e for e in events if "to" not in e or seat in e["to"]]


def decide(game: Game, seat: int, policy: Policy, step: int, history: Sequence[Event] = ()) -> Action:
    """The bot's action for ``seat`` now: what the platform calls when a bot holds a seat.

    ``step`` is the number of actions logged so far; ``history`` the events the seat was shown
    (filter a log with :func:`visible_events`). Raises ValueError if the policy answers with an
    action that is not listed (a bug in the policy, never applied)."""
    legal = game.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision")
    action = policy.choose(game.view(seat), legal, bot_rng(game_rng(game), seat, step), history)
    if not game.is_listed(seat, action):
        raise ValueError(f"{policy.name} chose an unlisted action {action!r}")
    return action


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% for ``z`` = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
