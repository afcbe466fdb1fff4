"""The contract every game implements, and the shared pieces (seeded RNG, refusals, options).

A game is pure Python: no discord, no rendering, no storage, no clock. The platform
(`bot/core/sessions.py`) owns users, lobbies, deadlines and persistence; a game only knows *seats*.

Seats, sides, users
    A *seat* takes turns and may hold private information. Seats are numbered ``0..n-1``.
    A *side* wins or loses; several seats may share a side (Pobeda teams), and several users
    may share a seat (a Cold War team plays one seat). The game decides the mapping from the
    lobby's players to seats in :meth:`Game.arrange_seats`.

Decisions
    At any moment the game has open decisions: :meth:`Game.actors` lists the seats that may
    act now (several at once for simultaneous secret choices). :meth:`Game.legal_actions`
    enumerates every legal answer of one seat as plain dicts with a ``"type"``; applying any
    of them must succeed, applying anything else raises :class:`IllegalAction`. The platform
    builds Discord controls from :meth:`Game.action_path` (labels from coarse to fine, so
    large choice sets become nested selects) and refuses a control whose action is no
    longer legal, which is how stale buttons are detected.

Events
    :meth:`Game.apply` returns events (dicts with a ``"type"``). An event with a ``"to"`` key
    (a list of seats) is private to those seats; any other event is public. The platform
    turns events into text with :meth:`Game.event_text`.

Moderation
    Actions by the host or a moderator (not a seat) use ``seat = ADMIN``; they are logged
    like any other action and enumerated by :meth:`Game.admin_actions`.

Replay
    ``cls.new(seat_info, options, seed)`` followed by ``apply(seat, action)`` for every logged
    action must reproduce ``to_json()`` exactly. All randomness goes through :class:`Rng`,
    whose state is part of the game state.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypedDict, cast

from bot.core import jsontext

ADMIN = -1
"""Pseudo-seat of the host or a moderator acting on the game (e.g. Pobeda's team penalty)."""

Action = dict[str, Any]
Event = dict[str, Any]


class _Result(TypedDict):
    """The keys every :class:`Outcome` has."""

    winners: list[int]
    """The winning *sides* (:meth:`Game.side_of`): several on a shared win, none on a draw without one."""
    draw: bool


class Outcome(_Result, total=False):
    """A finished game's result (:meth:`Game.outcome`), as the platform reads it: the end post, the stats
    and ratings, the arena. Only these keys are the platform's; anything else a game reports about its
    ending goes under ``extra``, which no platform module reads.

    Games stored before this record also carry keys of their own beside these (Pobeda's ``lines``, Cold
    War's ``exhausted``, Godstorm's ``details``): they are kept as stored and read only by their game."""

    reason: str
    """Why the game ended, one word (``lines``, ``cards``, ``goal``, ``domination``...): the end post words
    it through the game's manifest (``reason_key``)."""
    reasons: list[str]
    """Several reasons at once (By All Means: each side's winning conditions), instead of ``reason``."""
    scores: list[int] | dict[str, int]
    """What ranks the sides that did not win: a list by side, or a dict by seat number as text (the
    stats place the losers by it; absent: the losers tie)."""
    conceded: bool
    """Set by the platform: the game ended because every other side conceded."""
    voted: bool
    """Set by the platform: the players agreed to a draw (``/game vote draw``)."""
    extra: dict[str, Any]
    """A game's own details of its ending (its texts and renderer read them; the platform never does)."""


def as_outcome(data: Mapping[str, Any] | None) -> Outcome | None:
    """A result kept as JSON (a game's state, a forced ending in the settings) as an :class:`Outcome`, a
    copy; None stays None. Raises ValueError when its ``winners`` is not a list of integers or its ``draw``
    not a boolean, so a malformed result is found where it is read, not in the stats."""
    if data is None:
        return None
    winners, draw = data.get("winners"), data.get("draw")
    if not isinstance(winners, list) or not all(type(w) is int for w in winners) or type(draw) is not bool:
        raise ValueError(f"not a game's outcome: winners {winners!r}, draw {draw!r}")
    return cast(Outcome, dict(data))


def state_text(state: Any) -> str:
    """Compact JSON of a state (no ASCII escaping: Cyrillic stays readable in the database)."""
    return jsontext.compact(state)


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values of the same types all the way down (``1 == True == 1.0`` in Python)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@dataclass(frozen=True)
class OpenDecision:
    """A decision open now (:meth:`Game.open_decisions`), as the platform stores it and prompts from it
    (plain JSON; the tables games declare them with are in :mod:`bot.games.decision`)."""

    kind: str
    seats: tuple[int, ...]
    key: str = ""
    """Tells this decision apart from an earlier one of the same kind: when it changes under a seat
    that was already deciding (a new battle, a new window), that seat is prompted again."""
    simultaneous: bool = False
    secret: bool = False
    deadline_s: int | None = None
    auto: bool = False
    """The rules answer it themselves when ``deadline_s`` passes (an undo window closing, issue 27): no
    reminder, and not a missed turn of the seat."""

    def ident(self) -> tuple[str, str]:
        return (self.kind, self.key)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "seats": list(self.seats)}
        if self.key:
            out["key"] = self.key
        if self.simultaneous:
            out["simultaneous"] = True
        if self.secret:
            out["secret"] = True
        if self.deadline_s is not None:
            out["deadline_s"] = self.deadline_s
        if self.auto:
            out["auto"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OpenDecision:
        deadline = data.get("deadline_s")
        return cls(kind=str(data["kind"]), seats=tuple(int(s) for s in data["seats"]), key=str(data.get("key", "")),
                   simultaneous=bool(data.get("simultaneous", False)), secret=bool(data.get("secret", False)),
                   deadline_s=None if deadline is None else int(deadline), auto=bool(data.get("auto", False)))


class IllegalAction(Exception):
    """An action the rules refuse. ``key`` is an i18n key; ``params`` fill its placeholders."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


RNG_VERSION = 2
"""Generator of new games: 2 is SplitMix64 in pure Python; 1 (CPython's ``random``) only replays old games."""

_MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_rng_version: ContextVar[int] = ContextVar("rng_version", default=RNG_VERSION)


@contextmanager
def rng_version(version: int) -> Iterator[None]:
    """Within this block ``Rng(seed)`` builds generator ``version`` (the platform replays and
    plays a stored game under the version it was created with)."""
    if version not in (1, 2):
        raise ValueError(f"unknown Rng version {version}")
    token = _rng_version.set(version)
    try:
        yield
    finally:
        _rng_version.reset(token)


def splitmix64(seed: int, index: int) -> int:
    """Output number ``index`` (0-based) of SplitMix64 started from ``seed``.

    SplitMix64 (Steele, Lea and Flood, 2014) adds a constant to a 64-bit counter and scrambles
    it with two xor-shift-multiply rounds, so output ``i`` depends only on ``seed + (i+1)*gamma``.
    """
    z = (seed + (index + 1) * _GOLDEN_GAMMA) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Rng:
    """A deterministic, JSON-serialisable random source; the whole state is two integers.

    Version 2 (new games) is SplitMix64 written out here with its own ``randbelow``, so draws
    never depend on the Python version: ``n`` counts the 64-bit words used so far. Its JSON is
    ``{"v": 2, "seed": s, "n": n}``.

    Version 1 (games stored by earlier releases) builds a ``random.Random`` from a hash of
    ``(seed, n)`` for each draw. It depends on CPython's ``random`` internals and is kept only
    so stored games replay byte for byte; its JSON is the one those releases wrote,
    ``{"seed": s, "n": n}`` (no ``"v"`` means version 1).

    ``Rng(seed)`` builds the version of the current :func:`rng_version` block (default: the
    newest); ``from_json`` restores whatever version the JSON says.
    """

    __slots__ = ("seed", "n", "version")

    def __init__(self, seed: int, n: int = 0, version: int | None = None) -> None:
        self.version = _rng_version.get() if version is None else int(version)
        if self.version not in (1, 2):
            raise ValueError(f"unknown Rng version {self.version}")
        self.seed = int(seed) if self.version == 1 else int(seed) & _MASK64
        self.n = int(n)

    # ---- version 2: SplitMix64 -----------------------------------------------------------
    def _word(self) -> int:
        word = splitmix64(self.seed, self.n)
        self.n += 1
        return word

    def randbelow(self, k: int) -> int:
        """Uniform in ``0..k-1``: the top ``(k-1).bit_length()`` bits of a word, redrawn while >= k
        (rejection keeps every value equally likely; a modulo would favour the small ones)."""
        if k <= 0:
            raise ValueError("randbelow needs k >= 1")
        if self.version == 1:
            return self._next().randrange(k)
        bits = (k - 1).bit_length()
        if bits > 64:
            raise ValueError("randbelow supports k <= 2**64")
        while True:
            value = self._word() >> (64 - bits)
            if value < k:
                return value

    # ---- version 1: CPython's random, one instance per draw ------------------------------
    def _next(self) -> random.Random:
        digest = hashlib.blake2b(f"{self.seed}:{self.n}".encode(), digest_size=8).digest()
        self.n += 1
        return random.Random(int.from_bytes(digest, "big"))

    # ---- draws ---------------------------------------------------------------------------
    def random(self) -> float:
        if self.version == 1:
            return self._next().random()
        return (self._word() >> 11) * (1.0 / (1 << 53))

    def randint(self, a: int, b: int) -> int:
        if self.version == 1:
            return self._next().randint(a, b)
        if b < a:
            raise ValueError(f"empty range {a}..{b}")
        return a + self.randbelow(b - a + 1)

    def choice(self, seq: Sequence[Any]) -> Any:
        if self.version == 1:
            return self._next().choice(seq)
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        if self.version == 1:
            self._next().shuffle(items)
            return
        for i in range(len(items) - 1, 0, -1):  # Fisher-Yates
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, seq: Sequence[Any], k: int) -> list[Any]:
        if self.version == 1:
            return self._next().sample(list(seq), k)
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than the population or negative")
        for i in range(k):  # the first k steps of a Fisher-Yates shuffle
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def dice(self, count: int, sides: int = 6) -> list[int]:
        if self.version == 1:
            r = self._next()
            return [r.randint(1, sides) for _ in range(count)]
        return [1 + self.randbelow(sides) for _ in range(count)]

    # ---- state ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, int]:
        if self.version == 1:
            return {"seed": self.seed, "n": self.n}
        return {"v": self.version, "seed": self.seed, "n": self.n}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> Rng:
        return cls(data["seed"], data["n"], data.get("v", 1))


@dataclass(frozen=True)
class OptionSpec:
    """One game option offered in the lobby (as a select) and in ``/game new options:``.

    ``choices`` are ``(value, i18n label key)`` pairs; values are JSON scalars. The label key
    of the option itself is ``label_key``.
    """

    name: str
    label_key: str
    choices: tuple[tuple[Any, str], ...]
    default: Any


@dataclass
class Player:
    """A lobby entry: a user and the team they picked (``None``: any)."""

    user_id: int
    team: int | None = None


SEATING_SALT = 0x5EA75


def seating_rng(seed: int) -> Rng:
    """The generator a lobby is seated with (``Game.arrange_seats``), made from the game's seed: the session
    layer seats with it, and a league that wants a seat order picks the seed by it (bot/core/leagues/seating.py)."""
    return Rng(seed ^ SEATING_SALT)


@dataclass
class Arrangement:
    """The result of seating a lobby: users of each seat, and per-seat info for ``new``."""

    seat_users: list[list[int]]
    seat_info: list[dict[str, Any]] = field(default_factory=list)


class Game(ABC):
    """Base class of every game's rules. See the module docstring for the contract."""

    key: ClassVar[str]
    """Stable key: ``pobeda``, ``coldwar``, ``godstorm``..."""

    STATE_VERSION: ClassVar[int] = 1
    """Version of the shape ``to_json`` writes. Bump it when the shape changes, and teach
    :meth:`migrate_state` to bring older states up: the platform stores the version beside each
    state and migrates (or marks the game broken) when it loads a state of another version."""

    free_keys: ClassVar[frozenset[str]] = frozenset()
    """Action keys whose values ``legal_actions`` only samples (Godstorm lists 1, half and all
    armies; its rules take any count): see :meth:`is_listed`."""

    @classmethod
    def migrate_state(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        """``data`` as written by ``to_json`` of version ``from_version``, brought up to
        ``STATE_VERSION``. A game that changes its state's shape overrides this; raising means the
        state cannot be brought up (the platform then marks the game broken)."""
        if from_version == cls.STATE_VERSION:
            return data
        raise ValueError(f"{cls.key}: no migration of a version-{from_version} state to {cls.STATE_VERSION}")

    @classmethod
    def migrate_options(cls, options: dict[str, Any], from_version: int) -> dict[str, Any]:
        """The stored options of a game started under state version ``from_version``, such that
        ``new(seat_info, options, seed)`` still starts the game it was: replays rebuild games from
        their options. A rule change that adds an option whose default differs from the old
        behaviour sets the old value here (called together with :meth:`migrate_state`)."""
        return options

    # ---- lobby -------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return []

    @classmethod
    def default_options(cls) -> dict[str, Any]:
        return {spec.name: spec.default for spec in cls.option_specs()}

    @classmethod
    @abstractmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        """Minimum and maximum number of users the lobby accepts with these options."""

    @classmethod
    def team_count(cls, options: dict[str, Any], n_players: int) -> int:
        """How many teams the lobby offers to pick from (0: no team choice)."""
        return 0

    @classmethod
    def team_label(cls, team: int, options: dict[str, Any], lang: str) -> str:
        """How the lobby names team ``team`` (a colour, a superpower...)."""
        from bot.core.i18n import t

        return t("lobby.team_n", lang, n=team + 1)

    @classmethod
    @abstractmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        """Seat the lobby's players (validated against ``player_range`` and teams).

        Raises IllegalAction when the lobby cannot start (e.g. uneven teams not allowed).
        """

    @classmethod
    @abstractmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Game:
        """A fresh game. All randomness must come from ``Rng(seed)`` stored in the state."""

    # ---- play --------------------------------------------------------------------------
    @abstractmethod
    def actors(self) -> list[int]:
        """Seats that may act now (empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, in a stable order (empty if it may not act)."""

    def panel_path(self, seat: int, action: Action, lang: str) -> list[str]:
        """The levels a panel groups ``action`` under (issue 13). The default is :meth:`action_path`;
        a game may order the levels differently for a phone (Godstorm: attacks by target first)."""
        return self.action_path(seat, action, lang)

    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        """:meth:`legal_actions` in the order a panel lists them to a reader of ``lang`` (issue 13:
        lists of names in the reader's alphabet). The default keeps the rules' order; a game whose
        paths list names (territories...) reorders them, never adding or dropping an action."""
        return self.legal_actions(seat)

    def open_decisions(self) -> list[OpenDecision]:
        """The decisions open now (:mod:`bot.games.decision`): the platform prompts a seat when it holds
        one it did not hold before the last move. A game built on :class:`~bot.games.decision.DecisionGame`
        derives them from its table; the default is one decision of all :meth:`actors`."""
        seats = tuple(self.actors())
        if not seats:
            return []
        return [OpenDecision("move", seats, simultaneous=self.is_simultaneous(),
                             secret=self.is_simultaneous(), deadline_s=self.forced_timeout())]

    def standing_actions(self, seat: int) -> list[Action]:
        """Actions ``seat`` may take at any time while the game runs, whether or not it is to act now:
        standing preferences (issue 10: Godstorm's defence dice and "never answer").

        The platform accepts one of these from a seat that is not an actor. It is logged and replayed
        like any move (so :meth:`apply` must accept it then), and it must change neither whose turn it
        is nor another seat's decision. Default: none."""
        return []

    def is_standing(self, seat: int, action: Any) -> bool:
        """Whether ``action`` is exactly one of :meth:`standing_actions` of ``seat``."""
        return isinstance(action, dict) and any(_same(a, action) for a in self.standing_actions(seat))

    def standing_text(self, seat: int, lang: str) -> str:
        """The seat's current standing settings in words, shown above their controls (empty: none)."""
        return ""

    def post_group(self) -> str | None:
        """A key naming the stretch of play now under way that shares one channel post (issue 25).

        While it equals the key the current turn post was made with, a prompt edits that post instead
        of making a new one (the prompted seats still get their DM panels; only the post's first
        prompt pings); a full post still makes a new one. Default None: every prompt makes a new post
        (Godstorm returns a key per set-up round, where each player places once)."""
        return None

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and apply; raise IllegalAction (changing nothing) when not legal."""

    def is_listed(self, seat: int, action: Any) -> bool:
        """Whether ``action`` is one of ``legal_actions(seat)``: the platform refuses anything else
        before it reaches :meth:`apply` (a slash command can build any dict). A value under one of
        :attr:`free_keys` may be any integer; :meth:`apply` checks its range."""
        if not isinstance(action, dict):
            return False
        legal = self.legal_actions(seat)
        if any(_same(a, action) for a in legal if a == action):  # == alone takes True for 1, 2.0 for 2
            return True
        free = self.free_keys & action.keys()
        if not free or not all(type(action[k]) is int for k in free):
            return False
        fixed = {k: v for k, v in action.items() if k not in free}
        return any(a.keys() == action.keys() and _same({k: v for k, v in a.items() if k not in free}, fixed)
                   for a in legal)

    def why_not(self, seat: int, action: Any) -> tuple[str, dict[str, Any]] | None:
        """Why ``action`` is not possible for ``seat`` now (issue 25: "not yours", "not adjacent", "not this
        step"), as an i18n key and its parameters, or None when there is no better word than the platform's
        ``err.not_legal``. The platform asks when it refuses an action that is not listed; a game's own
        command may ask before acting. Never a reason for a legal action; never another seat's secret.
        Parameters are JSON values; :meth:`reason_params` puts them in a reader's words. Default: None."""
        return None

    def reason_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """The parameters of a :meth:`why_not` reason as a reader of ``lang`` sees them (a game's ids of
        places or steps named in that language). Default: unchanged."""
        return params

    def admin_actions(self) -> list[Action]:
        """Moderator actions available now (applied with ``seat=ADMIN``)."""
        return []

    def timeout_action(self, seat: int) -> Action | None:
        """What happens to an absent ``seat`` when its deadline expires (None: nothing)."""
        return None

    def forced_timeout(self) -> int | None:
        """Seconds for the current decision when the rules themselves impose a deadline
        (e.g. Pobeda's penalty card choice), whatever the game's deadline option says."""
        return None

    def is_simultaneous(self) -> bool:
        """True while the open decision is a secret simultaneous choice (bids, agent X)."""
        return False

    def is_secret(self, seat: int, action: Action) -> bool:
        """Whether ``action`` of ``seat`` would reveal a secret if it were shown before it is applied
        (the platform then logs only its type when applying it fails). Default: while a
        simultaneous choice is open."""
        return self.is_simultaneous()

    @classmethod
    def continues(cls, action: Action) -> bool:
        """Whether ``action`` only finishes the move before it (issue 27: the ✔ that closes an undo window
        before a draw or a roll): a takeback of it takes back that move too. Default: never."""
        return False

    def reveals(self, seat: int, action: Action, events: list[Event], before: Game, after: Game) -> bool:
        """Whether ``seat``'s ``action`` (which turned ``before`` into ``after``, with ``events``) showed
        anyone something a takeback could not hide again (issue 27: :mod:`bot.core.takeback`). A move that
        reveals nothing can be undone by its player alone; past a revealing one, only with everyone's
        agreement. The default: the game's random generator advanced (a die, a draw, a shuffle), any
        private event went to anyone, a decision another seat was in was resolved or changed (their
        answer, a simultaneous choice), the turn passed to a seat that was not acting, or the game ended.
        A game overrides it (a small method at the end of its class) when the default is wrong for it."""
        if after.outcome() is not None or any("to" in event for event in events):
            return True

        def generators(data: Any) -> list[tuple[Any, ...]]:
            """Every stored generator in a state's JSON (``Rng.to_json``: seed and words used)."""
            found: list[tuple[Any, ...]] = []
            stack = [data]
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

        if generators(before.to_json()) != generators(after.to_json()):
            return True
        acting_before, acting_after = set(before.actors()), set(after.actors())
        if acting_after - acting_before - {seat}:
            return True  # the turn passed: someone else is now asked to act
        return any(other not in acting_after or before.legal_actions(other) != after.legal_actions(other)
                   for other in acting_before - {seat})

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while running; else the result (:class:`Outcome`: winning sides, a draw, why)."""

    # ---- views -------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public view). Renderers only get views."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (including the Rng state)."""

    def to_json_text(self) -> str:
        """``to_json()`` serialised, as the platform stores it after every action.

        Games whose ``to_json`` returns a defensive deep copy override this to serialise their
        live state directly: the copy is pure overhead on the hot path of every move.
        """
        return state_text(self.to_json())

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Inverse of ``to_json``."""

    # ---- text (language-dependent, used by the Discord layer) --------------------------
    seat_names: list[str] | None = None
    """Display names of the seats' users, set by the platform on the live object so texts can
    say "Anna (Red)" instead of "Seat 1 (Red)". Never part of the state."""

    def seat_display(self, seat: int, fallback: str) -> str:
        names = self.seat_names
        if names and 0 <= seat < len(names) and names[seat]:
            return names[seat]
        return fallback

    @abstractmethod
    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        """Labels from coarse to fine for one legal action, e.g. ``["+1", "Row 5", "C5"]``.

        The Discord layer builds buttons when the choices are few and nested selects when
        they are many, grouping actions by their path prefix. Each label at most 80 chars.
        """

    @abstractmethod
    def event_text(self, event: Event, lang: str) -> str | None:
        """One line (or a few) describing an event, or None when it needs no text."""

    def side_of(self, seat: int) -> int:
        return seat

    def side_name(self, side: int, lang: str) -> str:
        return str(side + 1)

    def status_lines(self, lang: str) -> list[str]:
        """Public status: scores, phase, deck size... (no private information)."""
        return []

    def private_text(self, seat: int, lang: str) -> str:
        """Everything private to ``seat`` as text (its hand, its secret choice...)."""
        return ""

    def prompt_text(self, seat: int, lang: str) -> str:
        """What ``seat`` is asked to do now (shown above its controls)."""
        return ""
