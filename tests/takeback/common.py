"""Helpers of the takeback tests (issue 27): games started through the session layer over SQLite, played
with seeded random legal moves until a position with the move a test needs."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.session import Session
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app.custom_ids import UndoId, parse
from bot.discord_app.panels import undo_tag
from bot.games.base import Action, Game, rng_version

GAMES = ("pobeda", "coldwar", "godstorm", "byallmeans")
USERS = (UserInfo(11, "anna"), UserInfo(12, "boris", "ru"))
SEED = 4242
DEADLINE = 3600


@dataclass
class Env:
    store: Store
    sessions: SessionManager
    clock: dict[str, float]

    def tick(self, seconds: float) -> None:
        self.clock["now"] += seconds


def user_of(session: Session, seat: int) -> int:
    assert session.row.seat_users is not None
    return session.row.seat_users[seat][0]


async def start(env: Env, key: str, *, mode: str | None = None, options: dict[str, Any] | None = None) -> Session:
    """A two-player game of ``key`` started with :data:`SEED` (takebacks set to ``mode`` when given)."""
    session = await env.sessions.create(guild_id=5, channel_id=700, host=USERS[0], game_key=key,
                                        options=options or {}, deadline_s=DEADLINE)
    await env.sessions.join(session.id, USERS[1])
    if mode is not None:
        await env.sessions.set_takebacks(session.id, USERS[0].id, mode, None)
    await env.sessions.start(session.id, USERS[0].id, seed=SEED)
    return session


def outcome_of(session: Session, seat: int, action: Action) -> tuple[Game, Game, list[dict[str, Any]]]:
    """The game before and after ``action`` (on copies) with its events."""
    game = session.game
    assert game is not None
    with rng_version(session.rng_version):
        before = type(game).from_json(json.loads(session.state_text or ""))
        after = type(game).from_json(json.loads(session.state_text or ""))
        events = after.apply(seat, json.loads(json.dumps(action)))
    return before, after, events


def generators(game: Game) -> list[Any]:
    from bot.core.takeback import _generators  # noqa: PLC0415

    return _generators(game)


Want = Callable[[Session, int, Action, Game, Game, list[dict[str, Any]]], bool]


def free_move(session: Session, seat: int, action: Action, before: Game, after: Game,
              events: list[dict[str, Any]]) -> bool:
    """A move that reveals nothing (the definition of issue 27: no draw, no private news, the turn stays)."""
    return (not any("to" in e for e in events) and generators(before) == generators(after)
            and set(after.actors()) <= set(before.actors()) | {seat} and seat in after.actors()
            and after.outcome() is None and set(before.actors()) == {seat})


def random_move(session: Session, seat: int, action: Action, before: Game, after: Game,
                events: list[dict[str, Any]]) -> bool:
    """A move that shows chance: it draws from the game's random generator (a roll, a shuffle) or shows a
    card drawn from a deck shuffled at the start (private news), and leaves the game running."""
    return (generators(before) != generators(after) or any("to" in e for e in events)) and after.outcome() is None


async def play_until(env: Env, session: Session, want: Want, *, limit: int = 400,
                     seat: int | None = None) -> tuple[int, Action] | None:
    """Random legal moves (a human's, through :meth:`SessionManager.act`) until an actor (``seat`` if
    given) has a legal move ``want`` accepts; that move is returned, not played."""
    rnd = random.Random(f"{session.row.game}:{SEED}")
    for _ in range(limit):
        game = session.game
        assert game is not None
        if game.outcome() is not None:
            return None
        actors = [s for s in game.actors() if seat is None or s == seat] or game.actors()
        for actor in actors:
            if seat is not None and actor != seat:
                continue
            legal = game.legal_actions(actor)
            rnd.shuffle(legal)
            for action in legal[:30]:
                before, after, events = outcome_of(session, actor, action)
                if want(session, actor, action, before, after, events):
                    return actor, action
        actor = rnd.choice(game.actors())
        action = rnd.choice(game.legal_actions(actor))
        env.tick(7)
        await env.sessions.act(session.id, user_of(session, actor), actor, action)
    return None


async def stored(env: Env, session: Session) -> tuple[str, list[tuple[int, float, float | None]], int]:
    """The stored state text, deadlines and seq of the game."""
    loaded = await env.store.load_game_text(session.id)
    assert loaded is not None
    row, text = loaded
    return text or "", [tuple(d) for d in await env.store.deadlines(session.id)], row.seq  # type: ignore[misc]


def undo_buttons(view: discord.ui.View | None) -> list[UndoId]:
    """The ↩ controls of a view, checked to carry the tag a ↩ is signed with."""
    found: list[UndoId] = []
    for item in view.children if view is not None else []:
        control = parse(str(getattr(item, "custom_id", "") or ""))
        if isinstance(control, UndoId):
            assert control.tag == undo_tag(control.game_id, control.seat, control.stamp, control.seq)
            found.append(control)
    return found
