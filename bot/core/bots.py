"""Bot players on the platform: bot seats in the lobby, the driver that plays them, absent players.

The rules-layer bots (:mod:`bot.games.ai`) choose a move from a seat's view; this module seats them
and plays them through the normal path (``SessionManager.act``: one transaction per move, then the
publisher), with no Discord in it. The Discord side (``cogs/bots.py``) adds the lobby controls, the
reclaim button and ``/game reclaim``.

What is stored (all in the game's ``settings`` JSON, beside the platform's own keys):

``bots``
    ``{"<user id>": level}`` for every synthetic bot user the game ever had (a reclaimed seat's bot
    stays listed: the log names it, and the game counts as one with a bot player). Bot users have negative ids (-1, -2, ...)
    and a lobby entry named like "🤖 Bot (strong)" in the game's language, so a bot seat is an
    ordinary seat whose user list holds a negative id. A seat holds a bot either from the lobby
    (practice) or because the bot took it over from an absent player (then the player stays in the
    seat's list beside the bot, and gets the seat back with ``reclaim``).
``absent`` / ``absent_after``
    What happens when a seat misses ``absent_after`` deadlines in a row (default 2): ``bot`` (a
    strong bot takes the seat over) or ``drop`` (the seat concedes: the game's own rule for a
    conceded seat plays it from then on).
``missed``
    ``{"<seat>": n}`` consecutive missed deadlines, counted in the same transaction as the timeout
    move, reset by the seat's next own move.
``seat_log``
    Takeovers and reclaims, with the ``seq`` they happened at (shown by ``/game log``).

A seat a bot plays never gets a deadline, a ping, a DM or a panel. The driver (:class:`BotDriver`)
is told of every committed change; when a bot seat must act it waits for the post of the move
before, pauses (``TABLETOP_BOT_PAUSE`` seconds, default 2), then plays every move its bots owe in a
row, holding the publisher back meanwhile, so the whole bot turn reaches the channel as one post.
Each move is ``decide(game, seat, policy, step=seq)``: its random source comes from the stored Rng
and the log position, so the move is a function of the logged game (``tests/bots`` re-decides every
logged bot move from a replay). Decisions run in a worker thread on a copy of the committed state.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.core import parse
from bot.core.events import GameCommitted
from bot.core.i18n import t
from bot.core.session import (  # the seat facts live beside the session; callers keep reading them here
    ActResult,
    Session,
    SessionError,
    bot_levels,
    bot_seats,
    controlled,
    humans_left,
    is_bot,
    missed,
    note_acted,
    note_missed,
    seat_log,
    set_bot_levels,
)
from bot.core.store import GameRow, GameSettings, LobbyEntry, Store
from bot.games.ai import LEVELS, Policy, decide, policy_for, visible_events
from bot.games.base import Action, Event, Game, rng_version

__all__ = [
    "ABSENT_AFTER_CHOICES", "ABSENT_MODES", "ID_PREFIX", "BotDriver", "Manager", "absent_after", "absent_mode",
    "absent_text", "add_bot", "bot_levels", "bot_name", "bot_seats", "control_id", "controlled", "decide_from_text",
    "humans_left", "is_bot", "lobby_id", "mention", "missed", "next_bot_id", "note_acted", "note_missed",
    "parse_id", "pause_seconds", "played_by", "policy", "reclaim", "reclaim_seats", "remove_bot", "seat_log",
    "seat_log_lines", "set_absent", "split_options", "take_over",
]


class Manager(Protocol):
    """What the bots use of the session manager (:class:`bot.core.sessions.SessionManager`), which
    this module does not import: the manager knows nothing of bots either, and the driver hears of
    its commits through :meth:`SessionManager.subscribe`."""

    @property
    def store(self) -> Store: ...

    @property
    def sessions(self) -> Mapping[int, Session]: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    async def get(self, game_id: int, *, refresh: bool = True) -> Session: ...

    async def act(self, game_id: int, user_id: int, seat: int, action: Action, stamp: int | None = None, *,
                  expect_seq: int | None = None) -> ActResult: ...

    async def abort(self, game_id: int, by: int | None = None) -> Session: ...

    async def concede(self, game_id: int, user_id: int, *, how: str = "conceded") -> Session: ...

    def changing(self, session: Session) -> AbstractAsyncContextManager[Session]: ...

    async def save_seats(self, session: Session) -> None: ...

    async def reclaim_seats(self, session: Session, user_id: int, seats: list[int]) -> None: ...

log = logging.getLogger(__name__)

PAUSE_ENV = "TABLETOP_BOT_PAUSE"
DEFAULT_PAUSE = 2.0
"""Seconds before a bot turn, so people can follow the move before it."""
ABSENT_MODES = ("bot", "drop")
DEFAULT_ABSENT = "bot"
DEFAULT_ABSENT_AFTER = 2
ABSENT_AFTER_CHOICES = (1, 2, 3, 4, 5)
TAKEOVER_LEVEL = "strong"
MAX_TURN_MOVES = 400
"""Moves in one held bot turn before the post goes out anyway (a long classic Risk turn)."""
MAX_FAILURES = 3
HISTORY_ACTIONS = 30
"""How many logged actions back the events a bot is shown reach (no policy reads further)."""


# ---- what the settings say -----------------------------------------------------------------
def absent_mode(settings: GameSettings) -> str:
    mode = settings.extra.get("absent")
    return mode if mode in ABSENT_MODES else DEFAULT_ABSENT


def absent_after(settings: GameSettings) -> int:
    value = settings.extra.get("absent_after")
    return value if isinstance(value, int) and value >= 1 else DEFAULT_ABSENT_AFTER


def bot_name(level: str, lang: str) -> str:
    return t("bots.name", lang, level=t(f"bots.level.{level}", lang))


def next_bot_id(row: GameRow) -> int:
    used = {p.user for p in row.lobby} | {u for users in row.seat_users or [] for u in users}
    used |= set(bot_levels(row.settings))
    return min([u for u in used if is_bot(u)], default=0) - 1


def mention(session: Session, user_id: int) -> str:
    """How a post names a user: a mention for a person, the name for a bot."""
    return session.user_name(user_id) if is_bot(user_id) else f"<@{user_id}>"


def split_options(text: str) -> tuple[str, dict[str, Any]]:
    """``/game new options:`` text without the platform's ``absent=`` and ``absent_after=`` pairs,
    and those pairs' values. Raises ValueError (with the pair) for a bad value."""
    rest: list[str] = []
    found: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        name, _, raw = part.partition("=")
        if name == "absent":
            if raw not in ABSENT_MODES:
                raise ValueError(part)
            found["absent"] = raw
        elif name == "absent_after":
            after = parse.small_int(raw, 0, max(ABSENT_AFTER_CHOICES))
            if after is None or after not in ABSENT_AFTER_CHOICES:
                raise ValueError(part)
            found["absent_after"] = after
        else:
            rest.append(part)
    return " ".join(rest), found


def absent_text(settings: GameSettings, lang: str) -> str:
    """The lobby's line for the absent-player rule."""
    n = absent_after(settings)
    return t(f"bots.absent.{absent_mode(settings)}", lang, n=n)


def played_by(session: Session, user_id: int | None, lang: str) -> str:
    """A ``/game log`` suffix naming the bot that made a move ("" for a player's own move)."""
    if not is_bot(user_id):
        return ""
    assert user_id is not None
    level = bot_levels(session.row.settings).get(user_id, TAKEOVER_LEVEL)
    return " — " + bot_name(level, lang)


def seat_log_lines(session: Session, lang: str) -> list[tuple[int, str]]:
    """(seq, line) of every takeover and reclaim, for ``/game log``."""
    out: list[tuple[int, str]] = []
    for entry in seat_log(session.row.settings):
        kind = "takeover" if entry.get("type") == "platform.takeover" else "reclaim"
        # a display name is user text: escaped for the message (issue 23)
        name = " & ".join(parse.escape(session.user_name(u)) for u in entry.get("users", [])) \
            or f"#{entry.get('seat', 0) + 1}"
        out.append((int(entry.get("seq", 0)), t(f"bots.log.{kind}", lang, name=name)))
    return out


# ---- custom ids of the bot controls (routed by cogs/bots.py, not by the ``tt:`` router) -------
ID_PREFIX = "ttb"
ID_KINDS = ("l", "a", "o", "r")
"""``l`` the lobby's bot button, ``a`` add/remove select, ``o`` absent-rule select, ``r`` reclaim."""


def lobby_id(game_id: int) -> str:
    return f"{ID_PREFIX}:l:{game_id}"


def control_id(kind: str, game_id: int) -> str:
    return f"{ID_PREFIX}:{kind}:{game_id}"


def parse_id(custom_id: str) -> tuple[str, int] | None:
    """(kind, game id) of a bot control; None when the id is not one (the game id read by
    :func:`bot.core.parse.id_field`: ASCII digits within SQLite's integers)."""
    parts = parse.fields(custom_id, ID_PREFIX, 2)
    if parts is None or parts[0] not in ID_KINDS:
        return None
    game_id = parse.id_field(parts[1])
    return None if game_id is None else (parts[0], game_id)


# ---- lobby ---------------------------------------------------------------------------------
def _session_error(key: str, **params: Any) -> Exception:
    return SessionError(key, **params)


async def _host_lobby(manager: Manager, game_id: int, user_id: int) -> Session:
    session = await manager.get(game_id)
    if session.broken is not None:
        raise _session_error("err.game_broken", id=session.id)
    if session.row.status != "lobby":
        raise _session_error("err.not_lobby")
    if user_id != session.row.host_id:
        raise _session_error("err.host_only")
    return session


async def add_bot(manager: Manager, game_id: int, user_id: int, level: str) -> Session:
    """The host seats a bot of ``level`` in the lobby."""
    if level not in LEVELS:
        raise _session_error("bots.err.level")
    session = await _host_lobby(manager, game_id, user_id)
    async with session.lock, manager.changing(session):
        row = session.row
        _, high = session.cls.player_range(row.options)
        if len(row.lobby) >= high:
            raise _session_error("err.lobby_full", max=high)
        uid = next_bot_id(row)
        row.lobby.append(LobbyEntry(user=uid, name=bot_name(level, row.lang), lang=None, team=None))
        levels = bot_levels(row.settings)
        levels[uid] = level
        set_bot_levels(row.settings, levels)
        await manager.store.update_lobby(row)
    return session


async def remove_bot(manager: Manager, game_id: int, user_id: int, bot_id: int | None = None) -> Session:
    """The host takes a bot (the last added, or ``bot_id``) out of the lobby."""
    session = await _host_lobby(manager, game_id, user_id)
    async with session.lock, manager.changing(session):
        row = session.row
        seated = [p.user for p in row.lobby if is_bot(p.user)]
        if not seated or (bot_id is not None and bot_id not in seated):
            raise _session_error("bots.err.no_bot")
        gone = bot_id if bot_id is not None else seated[-1]
        row.lobby = [p for p in row.lobby if p.user != gone]
        levels = bot_levels(row.settings)
        levels.pop(gone, None)
        set_bot_levels(row.settings, levels)
        await manager.store.update_lobby(row)
    return session


async def set_absent(manager: Manager, game_id: int, user_id: int, *, mode: str | None = None,
                     after: int | None = None) -> Session:
    """The host chooses what happens to a player who misses deadlines (before the start)."""
    if mode is not None and mode not in ABSENT_MODES:
        raise _session_error("err.bad_option", name="absent", value=mode)
    if after is not None and after not in ABSENT_AFTER_CHOICES:
        raise _session_error("err.bad_option", name="absent_after", value=after)
    session = await _host_lobby(manager, game_id, user_id)
    async with session.lock, manager.changing(session):
        if mode is not None:
            session.row.settings.extra["absent"] = mode
        if after is not None:
            session.row.settings.extra["absent_after"] = after
        await manager.store.update_lobby(session.row)
    return session


# ---- seats of a running game ---------------------------------------------------------------
async def take_over(manager: Manager, session: Session, seat: int, level: str = TAKEOVER_LEVEL) -> bool:
    """A bot plays ``seat`` from now on (its players stay seated and may reclaim it). Returns
    whether anything changed."""
    async with session.lock, manager.changing(session):
        row = session.row
        if row.status != "running" or session.game is None or controlled(row, seat) or seat in session.conceded:
            return False
        humans = list((row.seat_users or [])[seat])
        uid = next_bot_id(row)
        row.lobby.append(LobbyEntry(user=uid, name=bot_name(level, row.lang), lang=None, team=None))
        assert row.seat_users is not None
        row.seat_users[seat].append(uid)
        levels = bot_levels(row.settings)
        levels[uid] = level
        set_bot_levels(row.settings, levels)
        row.settings.extra["seat_log"] = [*seat_log(row.settings), {"type": "platform.takeover", "seat": seat,
                                                                     "seq": row.seq, "users": humans, "bot": uid}]
        session.deadlines.pop(seat, None)
        await manager.save_seats(session)
    log.info("game %s: a bot (%s) takes over seat %s after missed deadlines", row.id, level, seat)
    return True


async def reclaim(manager: Manager, game_id: int, user_id: int) -> tuple[Session, list[int]]:
    """``user_id`` takes back every seat of theirs that a bot was playing."""
    session = await manager.get(game_id)
    if session.broken is not None:
        raise _session_error("err.game_broken", id=session.id)
    if session.row.status != "running" or session.game is None:
        raise _session_error("err.not_running")
    async with session.lock:
        seats = [s for s in session.seats_of(user_id) if controlled(session.row, s)]
        if not seats:
            raise _session_error("bots.err.nothing_to_reclaim")
        await reclaim_seats(manager, session, user_id, seats)
    return session, seats


async def reclaim_seats(manager: Manager, session: Session, user_id: int, seats: list[int]) -> None:
    """``user_id`` takes ``seats`` back from their bot (caller holds the lock):
    :meth:`bot.core.sessions.SessionManager.reclaim_seats`."""
    await manager.reclaim_seats(session, user_id, seats)


# ---- deciding ------------------------------------------------------------------------------
def policy(game_key: str, level: str) -> Policy:
    """A fresh policy per decision: decisions of several games run in worker threads at once, and a
    policy may keep the view it is reading on itself (Godstorm's does), so none is shared."""
    return policy_for(game_key, level)


def decide_from_text(cls: type[Game], text: str, version: int, game_key: str, seat: int, level: str,
                     step: int, history: list[Event]) -> Action:
    """The bot's move on a copy of the committed state (runs in a worker thread). A policy that
    fails or answers something unlisted is logged, and the game's own rule for an absent seat is
    played instead, so a game never stalls on a bot."""
    with rng_version(version):
        game = cls.from_json(json.loads(text))
        try:
            return decide(game, seat, policy(game_key, level), step, history)
        except Exception:
            log.exception("bot %s/%s failed at step %s of seat %s; playing the timeout move", game_key, level,
                          step, seat)
            action = game.timeout_action(seat)
            return action if action is not None else game.legal_actions(seat)[0]


def pause_seconds() -> float:
    raw = os.environ.get(PAUSE_ENV)
    try:
        return max(0.0, float(raw)) if raw is not None else DEFAULT_PAUSE
    except ValueError:
        return DEFAULT_PAUSE


Notice = Callable[["Session", str, int], Awaitable[None]]


class BotDriver:
    """Plays the bot seats of every game after each committed change, and applies the absent rule.

    Subscribe :meth:`committed` to the session manager (``SessionManager.subscribe``): it looks for
    work after every committed change. While a bot turn is being played the game's publishing is held
    (:meth:`holds`: the publisher's subscription skips it) and ``publish`` is called once the turn is
    over, so the whole turn is one post."""

    def __init__(self, sessions: Manager, *, publish: Callable[[int], None],
                 settled: Callable[[int], Awaitable[None]] | None = None, pause: float | None = None) -> None:
        self.sessions = sessions
        self.publish = publish
        self.settled = settled
        self.pause = pause_seconds() if pause is None else pause
        self.on_notice: Notice | None = None
        """Awaited after a takeover or a drop (``kind`` "takeover" / "drop"), to tell the channel."""
        self._held: set[int] = set()
        self._again: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def holds(self, game_id: int) -> bool:
        """Whether a bot turn of ``game_id`` is being played (it is published once the turn is over)."""
        return game_id in self._held

    def committed(self, event: GameCommitted) -> None:
        """A change is committed: a bot may have to move, or a seat may have missed too many deadlines
        (a change made by the bot turn being played is looked at when the turn is over)."""
        if not self.holds(event.game_id):
            self.poke(event.game_id)

    def on_change(self, game_id: int) -> None:
        """The driver as a change hook taking a game id (a test wiring the manager without the publisher's
        subscription): forwards to ``publish`` unless a bot turn holds the game, then looks for work."""
        if self.holds(game_id):
            return  # published once the bot's turn is over
        log.debug("game %s: change forwarded to the publisher", game_id)
        self.publish(game_id)
        self.poke(game_id)

    def poke(self, game_id: int) -> None:
        """Look at ``game_id`` soon: a bot may have to move, or a seat may have missed too many deadlines."""
        self._again.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    def resume(self) -> int:
        """After a restart: look at every running game with a bot seated (the index has no seats, the
        settings name the bots; states load on first use). Returns how many."""
        ids = [s.id for s in self.sessions.sessions.values()
               if s.row.status == "running" and s.broken is None and bot_levels(s.row.settings)]
        for game_id in ids:
            self.poke(game_id)
        return len(ids)

    async def idle(self) -> None:
        """Wait until no game has bot work in progress (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
            self._tasks = {k: v for k, v in self._tasks.items() if not v.done()}

    async def _run(self, game_id: int) -> None:
        try:
            while game_id in self._again:
                self._again.discard(game_id)
                try:
                    await self.step(game_id)
                except Exception:
                    log.exception("bot driver: game %s failed", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def step(self, game_id: int) -> None:
        try:
            session = await self.sessions.get(game_id)
        except SessionError:
            return
        if session.row.status != "running" or session.game is None:
            return
        await self._absences(session)
        if session.row.status != "running":
            return
        if not humans_left(session):
            # every player conceded or dropped: bots alone would only post to an empty table
            await self.sessions.abort(game_id)
            # no notice of its own: the end post says why (end.reason.platform), and only it (issue 25)
            log.info("game %s: only bots are left; the game is ended", game_id)
            return
        if self._next(session) is None:
            return
        if self.pause:
            await asyncio.sleep(self.pause)
        if self.settled is not None:
            # everything before the bot's turn is posted first (a player's move made during the pause
            # included): from here to the hold there is no await, so no publish can start in between
            await self.settled(game_id)
        self._held.add(game_id)
        played = 0
        log.debug("game %s: bot turn from seq %s", game_id, session.row.seq)
        try:
            played = await self._turn(game_id)
        finally:
            self._held.discard(game_id)
        log.debug("game %s: bot turn over at seq %s (%s moves)", game_id, session.row.seq, played)
        self.publish(game_id)  # the whole turn, and any player's move made meanwhile, in one post
        if played:
            self.poke(game_id)  # a capped turn goes on; a seat freed meanwhile is looked at

    def _next(self, session: Session) -> tuple[int, int] | None:
        """(seat, bot user) of the first bot seat that must act now."""
        game = session.game
        row = session.row
        if game is None or row.status != "running" or session.outcome() is not None:
            return None
        seats = bot_seats(row)
        for seat in game.actors():
            if seat in seats and seat not in session.conceded:
                return seat, seats[seat]
        return None

    async def _turn(self, game_id: int) -> int:
        played = failures = 0
        while played < MAX_TURN_MOVES and failures < MAX_FAILURES:
            session = self.sessions.sessions.get(game_id)
            if session is None or session.state_text is None:
                break
            pick = self._next(session)
            if pick is None:
                break
            seat, uid = pick
            row = session.row
            step = row.seq
            level = bot_levels(row.settings).get(uid, TAKEOVER_LEVEL)
            history = await self._history(session, seat, step)
            action = await asyncio.to_thread(decide_from_text, session.cls, session.state_text,
                                             session.rng_version, row.game, seat, level, step, history)
            try:
                await self.sessions.act(game_id, uid, seat, action, expect_seq=step)
            except SessionError as exc:
                failures += 1  # the game moved meanwhile (or the seat was reclaimed): look again
                log.info("game %s: bot move of seat %s at step %s not applied (%s)", game_id, seat, step, exc.key)
                continue
            played += 1
            failures = 0
        if failures >= MAX_FAILURES:
            log.warning("game %s: the bot could not move; it tries again after the next change", game_id)
        return played

    async def _history(self, session: Session, seat: int, step: int) -> list[Event]:
        records = await self.sessions.store.actions(session.id, max(0, step - HISTORY_ACTIONS))
        return visible_events((e for r in records if r.seq <= step for e in r.events), seat)

    async def _absences(self, session: Session) -> None:
        """Seats that missed ``absent_after`` deadlines in a row: a bot takes them, or they drop."""
        row = session.row
        limit = absent_after(row.settings)
        due = [seat for seat, n in missed(row.settings).items()
               if n >= limit and not controlled(row, seat) and seat not in session.conceded]
        for seat in due:
            if self.settled is not None:
                await self.settled(session.id)  # the missed move's post goes first
            if absent_mode(row.settings) == "bot":
                changed = await take_over(self.sessions, session, seat)
                kind = "takeover"
            else:
                users = [u for u in (row.seat_users or [])[seat] if not is_bot(u)]
                for uid in users:
                    await self.sessions.concede(session.id, uid, how="dropped")
                changed, kind = bool(users), "drop"
                log.info("game %s: seat %s dropped after %s missed deadlines", session.id, seat, limit)
            if changed:
                await self._notice(session, kind, seat)

    async def _notice(self, session: Session, kind: str, seat: int) -> None:
        if self.on_notice is None:
            return
        try:
            await self.on_notice(session, kind, seat)
        except Exception:
            log.exception("game %s: announcing the %s of seat %s failed", session.id, kind, seat)
