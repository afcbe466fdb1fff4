"""Takebacks (issue 27): which of a seat's recent moves may be undone, and the game rebuilt without them.

Pure Python (no storage, no Discord). The rules:

* **An undo** takes back the caller's own most recent moves, as long as none of them (from the first
  taken back to the last) revealed anything (:meth:`bot.games.base.Game.reveals`: a die rolled, a card
  drawn, a private event, another seat's decision resolved, the turn passed). Nobody is asked.
* **A takeback with agreement** takes back the caller's most recent move (or a later one of theirs)
  and everything played after it, whoever played it; every other human player must agree, and a bot
  agrees only when nothing random or hidden was revealed by those moves (:func:`safe_for_bots`).
* Either way the game is rebuilt from its seed and log without the taken-back moves (with the same
  seed: a die already rolled comes out the same when rolled again), and the log gets one more entry, a
  takeback (seat :data:`TAKEBACK_SEAT`, its action names the moves and who agreed). Replaying a log
  skips the takeback entries and the moves they name (:func:`effective`); since a takeback always
  removes everything after its first move, the effective log replays to the stored state.
* The per-game setting (:data:`MODES`) and a limit of requests per player (:data:`DEFAULT_LIMIT`) live
  in :class:`bot.core.store.GameSettings`; never after the game ended.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.games.base import ADMIN, Action, Event, Game, rng_version

TAKEBACK_SEAT = -2
"""The seat of a takeback entry in the action log (not a seat; :data:`bot.games.base.ADMIN` is -1)."""
KIND = "platform.takeback"
"""The type of a takeback entry's action and of its event."""
MODES = ("off", "own", "agree")
"""Per-game setting: no takebacks; undo within one's own turn only; and, past that, with agreement."""
DEFAULT_MODE = "agree"
DEFAULT_LIMIT = 3
"""Takeback requests (with agreement) each player may make per game; undos within a turn are not counted."""
MAX_LIMIT = 20
MAX_MOVES = 200
"""The most moves one takeback may name (a request further back is refused)."""
REQUEST_TTL_S = 24 * 3600.0
"""A request not answered within this time lapses (a move lapses it at once)."""


class Entry(Protocol):
    """What :func:`effective` reads of a log entry (``ActionRow``, ``LoggedAction``, :class:`Move`)."""

    @property
    def seq(self) -> int: ...

    @property
    def seat(self) -> int: ...

    @property
    def action(self) -> Any: ...


E = TypeVar("E", bound=Entry)


@dataclass(frozen=True)
class Move:
    """One logged move: its sequence number, seat, user (None: a timeout or an automatic move) and action."""

    seq: int
    seat: int
    user_id: int | None
    action: Action


def _decoded(action: Any) -> Any:
    if isinstance(action, str):
        return json.loads(action) if KIND in action else None  # only a takeback needs decoding here
    return action


def is_takeback(seat: int, action: Any) -> bool:
    """Whether a log entry is a takeback (its action may still be the stored JSON text)."""
    if seat != TAKEBACK_SEAT:
        return False
    data = _decoded(action)
    return isinstance(data, dict) and data.get("type") == KIND


def undone(entries: Iterable[Entry]) -> set[int]:
    """The sequence numbers every takeback entry in ``entries`` names."""
    out: set[int] = set()
    for entry in entries:
        if is_takeback(entry.seat, entry.action):
            out.update(int(s) for s in _decoded(entry.action).get("moves", []))
    return out


def effective(entries: Sequence[E]) -> list[E]:
    """The log as it counts: without the takeback entries and the moves they took back (in order)."""
    if not any(e.seat == TAKEBACK_SEAT for e in entries):
        return list(entries)
    gone = undone(entries)
    return [e for e in entries if e.seq not in gone and not is_takeback(e.seat, e.action)]


def entry(seat: int, moves: Sequence[int], agreed: Sequence[int], *, free: bool) -> Action:
    """The action of a takeback entry: who asked (``seat``), which moves, who agreed, and whether it was
    an undo within the turn (``free``: nobody was asked)."""
    return {"type": KIND, "seat": seat, "moves": sorted(moves), "agreed": sorted(agreed), "free": free}


def event(seat: int, moves: Sequence[int], agreed: Sequence[int], *, free: bool) -> Event:
    """The public event of a takeback (the channel says who took back how many moves, with whose agreement)."""
    return {"type": KIND, "seat": seat, "count": len(moves), "first": min(moves), "agreed": sorted(agreed),
            "free": free}


def is_own(move: Move, seat: int, user_id: int | None = None) -> bool:
    """Whether ``move`` is one ``seat``'s player made (not a timeout's, an automatic or a moderator's move); with
    ``user_id``, that user's (a seat a team shares: a member's moves are theirs, not a teammate's)."""
    return (move.seat == seat and move.seat != ADMIN and move.user_id is not None
            and (user_id is None or move.user_id == user_id))


def own_moves(moves: Sequence[Move], seat: int, user_id: int | None = None) -> list[Move]:
    """The moves of ``seat`` its player made (:func:`is_own`)."""
    return [m for m in moves if is_own(m, seat, user_id)]


def move_start(moves: Sequence[Move], last: Move, continues: Callable[[Action], bool]) -> Move:
    """The first action of the move ``last`` ends: a ✔ that closed an undo window (``continues``) belongs
    to the play just before it, by the same seat and user, so taking it back takes the play back too."""
    index = next(i for i, m in enumerate(moves) if m.seq == last.seq)
    start = last
    while index > 0 and continues(start.action):
        before = moves[index - 1]
        if before.seat != start.seat or before.user_id != start.user_id:
            break
        index, start = index - 1, before
    return start


def own_run(moves: Sequence[Move], seat: int, user_id: int | None = None) -> list[Move]:
    """The caller's own most recent moves: the effective log's tail played by ``seat`` itself (a move
    by anyone else, a moderator, a timeout or an automatic move ends it; with ``user_id``, a teammate's
    move on the shared seat too)."""
    run: list[Move] = []
    for move in reversed(moves):
        if not is_own(move, seat, user_id):
            break
        run.append(move)
    run.reverse()
    return run


def free_moves(before: Game, run: Sequence[Move], seat: int, rng: int) -> list[Move]:
    """The moves of ``run`` (``seat``'s own, starting from the state ``before``, which is changed) that
    may be undone without agreement: those after the last revealing one (:meth:`Game.reveals`)."""
    game = before
    free: list[Move] = []
    with rng_version(rng):
        for move in run:
            prior = type(game).from_json(json.loads(game.to_json_text()))
            events = game.apply(move.seat, json.loads(json.dumps(move.action)))
            if game.reveals(seat, move.action, events, prior, game):
                free = []
            else:
                free.append(move)
    return free


def safe_for_bots(before: Game, moves: Sequence[Move], rng: int) -> bool:
    """Whether the moves reveal nothing random or hidden (a bot's condition for agreeing): the random
    generator did not advance and no private event went to anyone. ``before`` is changed."""
    game = before
    with rng_version(rng):
        for move in moves:
            prior = type(game).from_json(json.loads(game.to_json_text()))
            events = game.apply(move.seat, json.loads(json.dumps(move.action)))
            if any("to" in e for e in events) or _generators(prior) != _generators(game):
                return False
    return True


def _generators(game: Game) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    stack: list[Any] = [game.to_json()]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "seed" in item and "n" in item and set(item) <= {"seed", "n", "v"}:
                found.append((item.get("v"), item["seed"], item["n"]))
            else:
                stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return sorted(found, key=repr)


def rebuild(cls: type[Game], seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int,
            moves: Iterable[Move], *, rng: int) -> Game:
    """The game from its seed with ``moves`` (the effective log up to the first taken-back move) applied:
    the same seed, so every draw already seen comes out the same again."""
    with rng_version(rng):
        game = cls.new([dict(s) for s in seat_info], dict(options), seed)
        for move in moves:
            game.apply(move.seat, json.loads(json.dumps(move.action)))
    return game


def mode_of(extra_mode: str | None) -> str:
    return extra_mode if extra_mode in MODES else DEFAULT_MODE


def limit_of(value: int | None) -> int:
    return value if isinstance(value, int) and 0 <= value <= MAX_LIMIT else DEFAULT_LIMIT


def used(extra: dict[str, Any], user_id: int) -> int:
    """How many takeback requests ``user_id`` made in this game."""
    counts = extra.get("takeback_used")
    return int(counts.get(str(user_id), 0)) if isinstance(counts, dict) else 0


def count_request(extra: dict[str, Any], user_id: int) -> None:
    counts = extra.get("takeback_used")
    counts = dict(counts) if isinstance(counts, dict) else {}
    counts[str(user_id)] = int(counts.get(str(user_id), 0)) + 1
    extra["takeback_used"] = counts


def live_request(extra: dict[str, Any], seq: int, now: float) -> dict[str, Any] | None:
    """The takeback request waiting for answers, or None (none, lapsed by a move, or too old)."""
    request = extra.get("takeback_request")
    if not isinstance(request, dict) or request.get("seq") != seq or float(request.get("at", 0)) + REQUEST_TTL_S <= now:
        return None
    return request
