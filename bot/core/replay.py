"""Rebuild a game from its seed and action log, to check the stored state (and debug games).

``python -m bot.core.replay DATABASE GAME_ID`` prints whether the log reproduces the stored state.

A game replays with the random generator it was created with (``rng_version`` in its settings;
games stored before generators were versioned used version 1), and a state stored by an older
version of the rules is migrated before the comparison.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from bot.core import takeback
from bot.core.store import ActionRow, Store
from bot.games import narration
from bot.games.base import RNG_VERSION, Game, rng_version
from bot.games.registry import GAMES, game_class


def replay(game_key: str, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int,
           actions: list[ActionRow] | list[tuple[int, dict[str, Any]]], *, rng: int = RNG_VERSION) -> Game:
    """A fresh game from ``seed`` (random generator version ``rng``) with every logged action
    applied in order."""
    rows: Sequence[ActionRow | tuple[int, dict[str, Any]]] = actions
    if any(isinstance(entry, ActionRow) and entry.seat == takeback.TAKEBACK_SEAT for entry in actions):
        rows = takeback.effective([e for e in actions if isinstance(e, ActionRow)])  # issue 27
    with rng_version(rng):
        game = game_class(game_key).new(seat_info, options, seed)
        for entry in rows:
            seat, action = (entry.seat, entry.action) if isinstance(entry, ActionRow) else entry
            game.apply(seat, action)
    return game


def takeback_line(action: dict[str, Any], names: list[str], lang: str) -> str:
    """A takeback entry of the log told in words (issue 27): who took back how many moves, with whose
    agreement."""
    from bot.core.i18n import t  # noqa: PLC0415 (only the text needs the catalogue)

    seat = int(action.get("seat", -1))
    who = names[seat] if 0 <= seat < len(names) else "—"
    moves = action.get("moves", [])
    if action.get("free"):
        return "↩ " + t("takeback.log.undo", lang, who=who, n=len(moves), first=min(moves, default=0))
    return "↩ " + t("takeback.log.agreed", lang, who=who, n=len(moves), first=min(moves, default=0))


LOG_CHUNK = 2000
"""Actions read (and decoded) at a time by :func:`read_log`."""
WORKERS = 2
"""Threads for the heavy work of replays and stats (:func:`off_loop`)."""
_worker = ThreadPoolExecutor(WORKERS, thread_name_prefix="replay")
T = TypeVar("T")


async def off_loop(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)`` in one of a few worker threads kept for replays and stats (in the caller's
    context, like ``asyncio.to_thread``). Not the default executor: every busy Python thread takes
    turns with the event loop for the interpreter lock, so a long replay's work is kept to
    :data:`WORKERS` threads however many users ask at once (with three busy threads the loop
    already waits 100 ms at times)."""
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(_worker, functools.partial(context.run, func, *args))


class LoggedAction(NamedTuple):
    """One stored action with its action and events left as the stored JSON text. A long game's log
    is kept like this while it is replayed or counted: tuples of strings and numbers are not
    followed by the garbage collector, whereas 25,000 decoded actions are enough live objects to
    make full collections (each one stops every thread, the event loop's too) frequent and long."""

    seq: int
    seat: int
    user_id: int | None
    action: str
    events: str
    created_at: float


async def read_log(store: Store, game_id: int) -> list[LoggedAction]:
    """The game's whole log in order, undecoded, read in chunks of :data:`LOG_CHUNK` (each a short
    query; ``Store.actions`` decodes every action and event on the event loop)."""
    out: list[LoggedAction] = []
    while True:
        async with store.db.execute(
            "SELECT seq, seat, user_id, action, events, created_at FROM actions"
            " WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, out[-1].seq if out else 0, LOG_CHUNK),
        ) as cur:
            rows = list(await cur.fetchall())
        out += [LoggedAction(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]
        if len(rows) < LOG_CHUNK:
            return out


def _action_of(row: ActionRow | LoggedAction) -> dict[str, Any]:
    return json.loads(row.action) if isinstance(row.action, str) else row.action


MOMENTS = frozenset({"game_over", "turn_end"})
"""Event types that make a moment of the animated history even when the turn does not pass (besides
the game's own, ``moments`` of its manifest: a line, a round, an epoch...)."""


def moments_of(game_key: str) -> frozenset[str]:
    """The event types that make a moment of ``game_key``'s animated history."""
    manifest = GAMES.get(game_key)
    return MOMENTS | manifest.moments if manifest is not None else MOMENTS
SECRET_MARK = "🔓"


class Step(NamedTuple):
    """One logged action as the replay tells it: everything that happened, hidden parts included.
    A tuple of strings and numbers, which the garbage collector stops following (see
    :class:`LoggedAction`): a long game has tens of thousands of steps."""

    seq: int
    seat: int
    lines: tuple[str, ...]
    moment: int
    """Worth a frame of the animated history: 2 for an event in :data:`MOMENTS` (a turn's end, an
    epoch, a line, the end), 1 when the actors changed, 0 otherwise."""


@dataclass
class History:
    """A finished game told from its start with nothing hidden (only for games that have ended)."""

    opening: list[str]
    """Each seat's private information at the start (hands dealt, secret roles)."""
    steps: list[Step]
    closing: list[str]
    """Each seat's private information at the end (cards never played)."""
    frames: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(seq, public view) at the start and at the moments, at most the frame cap (see :func:`pick_moments`)."""


def _private_lines(game: Game, names: list[str], lang: str) -> list[str]:
    out = []
    for seat, name in enumerate(names):
        text = game.private_text(seat, lang).strip()
        if text:
            out.append(f"{SECRET_MARK} **{name}**\n{text}")
    return out


def thin(indices: list[int], cap: int) -> list[int]:
    """At most ``cap`` of ``indices``, evenly spread, always keeping the first and the last."""
    if cap <= 0:
        return []
    if len(indices) <= cap:
        return list(indices)
    if cap == 1:
        return [indices[-1]]
    step = (len(indices) - 1) / (cap - 1)
    return sorted({indices[round(i * step)] for i in range(cap)})


def pick_moments(levels: list[int], cap: int) -> list[int]:
    """Indices of at most ``cap`` steps to draw: the last step always, then the major moments
    (level 2; thinned evenly if too many), then minor ones (level 1) spread evenly in the room left."""
    if cap <= 0 or not levels:
        return []
    last = len(levels) - 1
    major = [i for i, m in enumerate(levels) if m >= 2 and i != last]
    minor = [i for i, m in enumerate(levels) if m == 1 and i != last]
    chosen = set(thin(major, cap - 1))
    room = cap - 1 - len(chosen)
    chosen |= set(thin(minor, room)) if room > 0 else set()
    return sorted(chosen | {last})


def history(game_key: str, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int,
            actions: Sequence[ActionRow | LoggedAction], *, names: list[str], lang: str, rng: int = RNG_VERSION,
            frames: int = 0) -> History:
    """Replay a game from its seed and tell every action with the hidden information revealed:
    private events (cards drawn, bids, agents chosen, miracle cards) under the seat they went to, the
    secret choices themselves (``Game.is_secret``), and each seat's private information at the start
    and the end. With ``frames`` > 0 the public view is kept at the start and at up to ``frames``-1
    moments (thinned evenly), for the animated history. Only for games that have ended: this tells
    everything.

    Everything is told in the third person (:func:`bot.games.narration.third_person`): the texts a
    seat was given about itself ("You drew…", "Your cards…") name it instead ("Anna draws…"); a
    private line that names all the seats it went to is only marked as revealed, others also say whom
    it went to."""

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "—"

    views: list[tuple[int, dict[str, Any]]] = []
    moments = moments_of(game_key)
    with rng_version(rng), narration.third_person():
        game = game_class(game_key).new(seat_info, options, seed)
        game.seat_names = names
        opening = _private_lines(game, names, lang)
        steps: list[Step] = []
        done: list[ActionRow | LoggedAction] = []
        for row in actions:
            action = _action_of(row)
            if takeback.is_takeback(row.seat, action):  # issue 27: the game as if those moves never were
                done.append(row)
                before = game.actors()
                game = _rebuilt(game_key, seat_info, options, seed, done, names)
                steps.append(Step(row.seq, row.seat, (takeback_line(action, names, lang),),
                                  int(game.actors() != before)))
                continue
            done.append(row)
            before = game.actors()
            secret = row.seat >= 0 and game.is_secret(row.seat, action)
            path = " · ".join(game.action_path(row.seat, action, lang)) if secret else ""
            events = game.apply(row.seat, action)
            lines: list[str] = []
            told = any(row.seat in (e.get("to") or []) for e in events)  # a private event says it already
            if secret and path and not told:
                lines.append(f"{SECRET_MARK} {who(row.seat)}: {path}")
            for event in events:
                if str(event.get("type", "")).startswith("platform."):
                    continue
                text = game.event_text(event, lang)
                if not text:
                    continue
                to = event.get("to")
                if to is not None:
                    named = all(who(s) in text for s in to)
                    text = f"{SECRET_MARK} {text}" if named else f"{SECRET_MARK} {', '.join(who(s) for s in to)}: {text}"
                lines.append(text)
            moment = 2 if any(e.get("type") in moments for e in events) else int(game.actors() != before)
            steps.append(Step(row.seq, row.seat, tuple(lines), moment))
        closing = _private_lines(game, names, lang)
        if frames:  # a second pass keeps the views of the chosen moments only
            wanted = {steps[i].seq for i in pick_moments([st.moment for st in steps], frames - 1)}
            game = game_class(game_key).new(seat_info, options, seed)
            game.seat_names = names
            views.append((0, game.view(None)))
            done = []
            for row in actions:
                done.append(row)
                if takeback.is_takeback(row.seat, row.action):
                    game = _rebuilt(game_key, seat_info, options, seed, done, names)
                else:
                    game.apply(row.seat, _action_of(row))
                if row.seq in wanted:
                    views.append((row.seq, game.view(None)))
    return History(opening, steps, closing, views)


def _rebuilt(game_key: str, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int,
             rows: Sequence[ActionRow | LoggedAction], names: list[str]) -> Game:
    """The game after ``rows`` with their takebacks carried out (the caller's generator version)."""
    game = game_class(game_key).new(seat_info, options, seed)
    game.seat_names = names
    for row in takeback.effective(list(rows)):
        game.apply(row.seat, _action_of(row))
    return game


def history_text(story: History, lang: str) -> str:
    """The whole replay as text: the hidden start, every action numbered, the hidden end."""
    from bot.core.i18n import t  # noqa: PLC0415 (only the text needs the catalogue)

    parts: list[str] = []
    if story.opening:
        parts += [t("replay.start", lang), *story.opening, ""]
    for step in story.steps:
        parts += [f"`{step.seq:>3}` {line}" for line in step.lines]
    if story.closing:
        parts += ["", t("replay.end", lang), *story.closing]
    return "\n".join(parts)


def stored_state(game_key: str, state: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The stored state brought up to the rules' current state version."""
    cls = game_class(game_key)
    version = int(settings.get("state_version", 1))
    return state if version == cls.STATE_VERSION else cls.migrate_state(state, version)


def stored_options(game_key: str, options: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The stored options brought up to the rules' current state version (see ``migrate_options``)."""
    cls = game_class(game_key)
    version = int(settings.get("state_version", 1))
    return options if version == cls.STATE_VERSION else cls.migrate_options(dict(options), version)


async def verify(store: Store, game_id: int) -> bool:
    row = await store.load_game(game_id)
    if row is None or row.state is None or row.seed is None:
        return False
    settings = row.settings.to_json()
    options = stored_options(row.game, row.options, settings)
    game = replay(row.game, row.seat_info or [], options, row.seed, await store.actions(game_id),
                  rng=row.settings.rng_version or 1)
    return json.loads(json.dumps(game.to_json())) == stored_state(row.game, row.state, settings)


async def _main(path: str, game_id: int) -> int:
    store = await Store.open(path)
    try:
        ok = await verify(store, game_id)
    finally:
        await store.close()
    print("ok: the log reproduces the stored state" if ok else "MISMATCH: the log does not reproduce the state")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python -m bot.core.replay DATABASE GAME_ID", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(asyncio.run(_main(sys.argv[1], int(sys.argv[2]))))
